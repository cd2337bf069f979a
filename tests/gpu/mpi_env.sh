#!/bin/sh
# Open MPI from the prefix tests/gpu/mpi_prefix.sh unpacks (default: .mpi/ in the current
# directory, the repository root; MPI_PREFIX overrides), set up for `mpirun -np N` on ONE
# node, as root, with no ssh and no network hardware:
#   . tests/gpu/mpi_env.sh && mpirun -np 2 build/gemmprof --shard --out out/shard
#   tests/gpu/mpi_env.sh mpirun -np 2 build/gemmprof --fleet --out out/fleet
# Sourced it sets the environment; run with arguments it sets it and runs them.
# Not for several nodes: plm=isolated starts processes on this node only, and the
# out-of-band channel is held to the loopback interface.
MPI_PREFIX=${MPI_PREFIX:-$PWD/.mpi}
export MPI_PREFIX
export PATH="$MPI_PREFIX/usr/bin:$PATH"
export LD_LIBRARY_PATH="$MPI_PREFIX/usr/lib/x86_64-linux-gnu:$MPI_PREFIX/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# fallback/ (zlib, libudev, libuuid, libatomic, libnuma): only those the system lacks, so
# that gemmprof and anything else under mpirun keep the system's own (MPI_FALLBACK_ALL=1: all)
use="$MPI_PREFIX/fallback.use"
rm -rf "$use" && mkdir -p "$use" 2>/dev/null
for f in "$MPI_PREFIX"/fallback/*.so.[0-9]; do
    [ -e "$f" ] || continue
    so=$(basename "$f")
    if [ -n "${MPI_FALLBACK_ALL:-}" ] ||
        ! { /sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null; } | grep -q "^[[:space:]]*$so "; then
        ln -s "$f" "$use/$so"
    fi
done
[ -n "$(ls "$use" 2>/dev/null)" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$use"
unset use f so
# relocation: Debian built it for /usr (components, help texts) and /etc/openmpi (defaults)
export OPAL_PREFIX="$MPI_PREFIX/usr"
export OPAL_SYSCONFDIR="$MPI_PREFIX/etc/openmpi"
# the PMIx server inside mpirun: its own prefix and components (else: "help-pcompress.txt:
# No such file" on exit)
export PMIX_PREFIX="$MPI_PREFIX/usr/lib/x86_64-linux-gnu/pmix2"
export PMIX_MCA_mca_base_component_path="$PMIX_PREFIX/lib/pmix"
# root is the device machine's only user
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one node: fork the ranks here, no ssh/rsh agent needed (there is no ssh there)
export OMPI_MCA_plm=isolated
export OMPI_MCA_oob_tcp_if_include=lo
# no binding: each rank picks its GPU by local rank; hwloc binding in a VM only gets in the way
export OMPI_MCA_hwloc_base_binding_policy=none
# slots are counted from hwloc's view of the cores; should it misread a VM, still start -np N
export OMPI_MCA_rmaps_base_oversubscribe=1
# a rank that exits non-zero (no GPU, a failed verification) must not kill the others:
# their rows are kept and `gemmprof merge` lists the rank as missing. mpirun then exits 0
# whatever the ranks did, so a caller that needs each rank's status records it per rank
export OMPI_MCA_orte_abort_on_non_zero_status=0
# for MPI programs (gemmprof is none: it never calls MPI_Init): shared memory only, and
# quiet about transports whose hardware libraries are not in the prefix (EFA, PSM)
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_mca_base_component_show_load_errors=0
# the device machines' rule for NVLink multicast, kept in every rank's environment
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_SYMM_MEM_DISABLE_MULTICAST=${TORCH_SYMM_MEM_DISABLE_MULTICAST:-1} \
    NVSHMEM_DISABLE_NVLS=${NVSHMEM_DISABLE_NVLS:-1}
if [ ! -x "$MPI_PREFIX/usr/bin/orterun" ]; then
    echo "mpi_env: no Open MPI under $MPI_PREFIX (make it with tests/gpu/mpi_prefix.sh)" >&2
    return 1 2>/dev/null || exit 1
fi
if [ "$(basename -- "$0")" = mpi_env.sh ] && [ $# -gt 0 ]; then
    exec "$@"
fi

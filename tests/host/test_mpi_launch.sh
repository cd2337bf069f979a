#!/bin/sh
# gemmprof under a real mpirun, without a GPU: Open MPI from the prefix that
# tests/gpu/mpi_prefix.sh unpacks into .mpi/ (skipped when it is absent, as in CI), set up
# by tests/gpu/mpi_env.sh. mpirun -np 2 gives each process its rank and local rank; under
# --shard each rank of build/gemmprof says which rank it is when it finds no GPU (exit 3),
# and one rank's failure does not stop the other.
cd "$(dirname "$0")/../.." || exit 1
gp=${BUILD:-build}/gemmprof
[ -x .mpi/usr/bin/orterun ] || { echo "skip - mpirun launch: no Open MPI prefix in .mpi/ (tests/gpu/mpi_prefix.sh makes it)"; exit 0; }
[ -x "$gp" ] || { echo "skip - mpirun launch: $gp not built"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { if [ "$1" = 0 ]; then echo "ok - $2"; else echo "FAIL - $2"; fi; }

tests/gpu/mpi_env.sh mpirun -np 2 --oversubscribe sh -c 'echo "$OMPI_COMM_WORLD_RANK $OMPI_COMM_WORLD_LOCAL_RANK $OMPI_COMM_WORLD_SIZE"' \
    >"$T/ranks" 2>"$T/err"
[ "$(sort "$T/ranks" | tr '\n' ' ')" = "0 0 2 1 1 2 " ] && [ ! -s "$T/err" ]
ok $? "mpirun -np 2 (Open MPI from .mpi): ranks 0 and 1, local ranks 0 and 1, quietly: $(tr '\n' ' ' <"$T/ranks")$(head -c 200 "$T/err")"

if command -v nvidia-smi >/dev/null 2>&1; then
    echo "skip - mpirun launch: gemmprof ranks without a GPU: a GPU is here (the run would be real)"
    exit 0
fi
# rank 1 fails at once; rank 0 fails two seconds later and must still run to its own end
tests/gpu/mpi_env.sh mpirun -np 2 --oversubscribe sh -c \
    '[ "$OMPI_COMM_WORLD_RANK" = 0 ] && sleep 2; '"$gp"' --shard -s 64 -k naive --out '"$T/out"'; rc=$?; echo "exit $rc"; exit $rc' \
    >"$T/out.txt" 2>"$T/err"
for r in 0 1; do
    grep -q "^gemmprof: rank $r of 2: no NVIDIA driver" "$T/err"
    ok $? "under mpirun, rank $r without a GPU says which rank it is"
done
[ "$(grep -c '^exit 3$' "$T/out.txt")" = 2 ]
ok $? "both ranks ran to their own end with exit 3 (one rank's failure stops no other): $(tr '\n' ' ' <"$T/out.txt")"

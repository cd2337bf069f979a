# Shared by tests/gpu/test_*.sh: GPU detection and ok/FAIL/skip lines for tests/run.sh.
BUILD=${1:-build}
GEMMPROF=$BUILD/gemmprof
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# ncu --kernel-name pattern for every GEMM kernel (ncu matches the function name without
# namespace or template: cuBLAS's CUTLASS kernels are "Kernel2"), including what cuBLAS may
# launch besides: nvjet_* GEMMs, gemv, and a split-K call's reduction (splitKreduce_kernel);
# never gemmprof's L2 flush (l2_flush_kernel)
GEMM_KERNELS='gemm|Kernel2|xmma|blocktile|vectorized|warptile|nvjet|gemv|splitK|SplitK|[Rr]educe'

ok()   { echo "ok - $*"; }
fail() { echo "FAIL - $*"; }
skip() { echo "skip - $*"; }

# Prints the reason and returns 1 when this machine cannot run GPU tests.
need_gpu() {
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        skip "$1: no GPU on this machine (nvidia-smi not found)"; return 1
    fi
    if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        skip "$1: no GPU on this machine (nvidia-smi lists none)"; return 1
    fi
    return 0
}

#!/bin/sh
# Host tests run without a GPU stack: no host test binary may load cuBLAS, CUPTI or the
# CUDA runtime (only test_cupti, a GPU test, does). BUILD defaults to build/.
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
command -v ldd >/dev/null 2>&1 || { echo "skip - host tests link no CUDA library: ldd not found"; exit 0; }
n=0
for t in "$build"/tests/test_*; do
    case "$t" in *.o|*.d|*/test_cupti) continue ;; esac
    [ -x "$t" ] || continue
    n=$((n + 1))
    libs=$(ldd "$t" 2>/dev/null | grep -oE 'lib(cublas|cupti|cudart)[^ ]*' | tr '\n' ' ')
    if [ -z "$libs" ]; then
        echo "ok - $(basename "$t") loads no CUDA library"
    else
        echo "FAIL - $(basename "$t") loads $libs"
    fi
done
[ "$n" -gt 0 ] || echo "FAIL - no host test binaries found in $build/tests"
# the check must be able to fail: the GPU test does load them
if [ -x "$build/tests/test_cupti" ]; then
    if ldd "$build/tests/test_cupti" | grep -q 'libcupti'; then
        echo "ok - test_cupti (a GPU test) does load CUPTI, so the check above can fail"
    else
        echo "FAIL - test_cupti does not load CUPTI: the linkage check proves nothing"
    fi
fi

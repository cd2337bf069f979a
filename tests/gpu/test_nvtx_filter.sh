#!/bin/sh
# Nsight Compute's NVTX filter on gemmprof's domain selects exactly one variant's
# launches: its verify, warm-up and timed launches, plus the L2 flushes that run
# between timed repetitions (kernel l2_flush_kernel, the harness's own).
. tests/gpu/lib.sh
need_gpu "ncu NVTX filter selects one variant" || exit 0
command -v ncu >/dev/null 2>&1 || { skip "ncu NVTX filter: ncu not installed"; exit 0; }
ncu --nvtx --nvtx-include "gemmprof@tiled 256x256x256/" --clock-control none --csv --page raw \
    --metrics gpu__time_duration.sum --log-file "$TMP/ncu.csv" \
    $GEMMPROF -k naive,tiled,cublas -s 256 -r 3 -w 1 --no-counters --no-ceilings --no-report \
    -o "$TMP/nvtx" >"$TMP/ncu.out" 2>"$TMP/ncu.err"
python3 tests/gpu/ncu_csv.py kernels "$TMP/ncu.csv" >"$TMP/kernels"
tiled=$(grep -c 'gemm_tiled_kernel' "$TMP/kernels")
flush=$(grep -c 'l2_flush_kernel' "$TMP/kernels")
other=$(grep -vc 'gemm_tiled_kernel\|l2_flush_kernel' "$TMP/kernels")
echo "  profiled: $tiled gemm_tiled_kernel (1 verify + 1 warm-up + 3 timed expected), $flush l2_flush_kernel (3 expected), $other other"
if [ "$tiled" -eq 5 ] && [ "$flush" -eq 3 ] && [ "$other" -eq 0 ]; then
    ok "ncu --nvtx-include 'gemmprof@tiled 256x256x256/' selects tiled's 5 launches and nothing of naive or cublas"
else
    sort "$TMP/kernels" | uniq -c; tail -5 "$TMP/ncu.err"; fail "ncu NVTX filter"
fi

#!/bin/sh
# Where does a call of two kernels get its stall reasons? gemmprof's one range against ncu's
# kernels, ncu with its caches flushed before each kernel (--cache-control all, the test's
# default) and without (none: only gemmprof's own flush before each call, as in gemmprof's
# counter phase). Cases: the calls of two kernels that test_ncu_launch.sh judged apart from
# ncu, and their shapes with K padded so that the call is one kernel.
#   sh tools/lab/stall_pairs.sh OUTDIR
out=${1:?OUTDIR}; mkdir -p "$out"
set -- build
. tests/gpu/lib.sh
H=tests/gpu/ncu_launch_compare.py
K=${STALL_PAIRS_K:-simt_auto,bf16_wgmma,tf32_auto}
S=${STALL_PAIRS_S:-1000x1500x700,1000x1500x704,5000x700x3001,5000x700x3008}
m=$($GEMMPROF --list-metrics | python3 $H --pick-metrics)
$GEMMPROF -k "$K" -s "$S" -r 1 -w 1 -m "$m" --no-ceilings --no-report -o "$out/g" >"$out/g.log" 2>&1
echo "gemmprof: exit $?"
for cc in all none; do
    ncu --replay-mode application --nvtx --nvtx-include 'gemmprof@timed/' --kernel-name regex:"$GEMM_KERNELS|pad_rows|pad_copy" \
        --clock-control none --cache-control $cc --csv --page raw --print-units base \
        --section WarpStateStats --metrics "$(python3 $H --ncu-metrics "$m")" --log-file "$out/ncu_$cc.csv" \
        $GEMMPROF -k "$K" -s "$S" -r 2 -w 0 --no-counters --no-ceilings --no-report -o "$out/n_$cc" >"$out/n_$cc.log" 2>&1
    echo "ncu cache-control $cc: exit $?, $(python3 tests/gpu/ncu_csv.py kernels "$out/ncu_$cc.csv" | wc -l) kernels"
done

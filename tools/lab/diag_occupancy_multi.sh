#!/bin/sh
# Achieved occupancy and issue-slot use of calls of several kernels (the TMA kernels with
# their operand copies at k % 4 != 0, simt_auto's split-K) against ncu, kernel by kernel:
# the raw sums (warps active, active cycles, issue-active cycles) under gemmprof's one
# range and under ncu with and without its cache flush between kernels.
#   tools/lab/diag_occupancy_multi.sh BUILD OUTDIR
. tests/gpu/lib.sh
O=${2:-/tmp/diag_occ}
mkdir -p "$O"
need_gpu "occupancy of several-kernel calls" || exit 0
V=${DIAG_VARIANTS:-wgmma,wgmma_ws,wgmma_ss,wgmma_rs,simt_auto}
S=${DIAG_SHAPES:-5000x700x3001,1920x2880x1344}
RAW="sm__warps_active.sum,sm__cycles_active.sum,smsp__issue_active.sum,smsp__cycles_active.sum"
RATES="sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active"
for i in 1 2; do
    $GEMMPROF -k "$V" -s "$S" -r 3 -w 1 -m "$RATES,$RAW,gpu__time_duration.sum" --no-ceilings --no-report \
        -o "$O/g$i" >"$O/g$i.log" 2>&1
    echo "gemmprof run $i: exit $?"
done
for cc in all none; do
    ncu --cache-control $cc --clock-control none --nvtx --nvtx-include gemmprof@timed/ \
        --kernel-name regex:"$GEMM_KERNELS|pad_rows" --csv --page raw --print-units base \
        --metrics "$RATES,$RAW,gpu__time_duration.sum,launch__grid_size,launch__block_size,sm__maximum_warps_per_active_cycle_pct" \
        --log-file "$O/ncu-$cc.csv" \
        $GEMMPROF -k "$V" -s "$S" -r 2 -w 0 --no-counters --no-ceilings --no-report -o "$O/n-$cc" \
        >"$O/ncu-$cc.out" 2>&1
    echo "ncu cache-control $cc: exit $?, $(grep -c '^"' "$O/ncu-$cc.csv") lines"
done

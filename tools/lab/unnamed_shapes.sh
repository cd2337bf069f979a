#!/bin/sh
# The checks an outside reviewer makes at shapes the tests never name: the ncu comparison
# (tests/gpu/test_ncu_compare.sh with NCU_COMPARE_CASES) and the diagnosis benchmark's
# 2048^3 cases (tests/diagnosis/) at each shape of DIAG_SHAPES.
#   tools/lab/unnamed_shapes.sh [BUILD] [OUTDIR]
# NCU_CASES (variant:shape ...) and DIAG_SHAPES override the lists below. Logs in OUTDIR
# (default /tmp/unnamed): ncu-compare.log, diagnosis.log.
BUILD=${1:-build}
O=${2:-/tmp/unnamed}
mkdir -p "$O"
S1=1536x640x2304
S2=2500x900x1700
NCU_CASES=${NCU_CASES:-"simt_auto:$S1 naive:$S2 tiled:$S2 cublas:$S2 simt_auto:$S2 cublas_tf32:$S2
    tf32_auto:$S2 tf32_mma:$S2 wgmma_ws:$S2 tf32x3_wgmma:$S2"}
DIAG_SHAPES=${DIAG_SHAPES:-"2560x1280x1536 1100x3300x2000"}

NCU_COMPARE_CASES=$NCU_CASES timeout 300 sh tests/gpu/test_ncu_compare.sh "$BUILD" >"$O/ncu-compare.log" 2>&1
grep -E "^(ok|FAIL|skip)|MISMATCH" "$O/ncu-compare.log"

grep ' 2048x2048x2048\( \|$\)' tests/diagnosis/cases.txt | grep -v ' none ' >"$O/cases.txt"
: >"$O/diagnosis.log"
for s in $DIAG_SHAPES; do
    NCU=0 sh tests/diagnosis/collect.sh "$BUILD" "$O/diag" "$s" >>"$O/diagnosis.log" 2>&1
    python3 tests/diagnosis/check.py "$BUILD/gemmprof" "$O/cases.txt" "$O/diag/g_$s" --shape-any |
        sed "s/^\(ok\|FAIL\|skip\) - diagnosis of/\1 - diagnosis at $s of/" | tee -a "$O/diagnosis.log"
done

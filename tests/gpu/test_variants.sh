#!/bin/sh
# Every registered variant verified on square and odd shapes (edges, k not a multiple of
# any tile, 1x1x1).
. tests/gpu/lib.sh
need_gpu "every variant correct on odd shapes" || exit 0
nv=$($GEMMPROF --list | tail -n +2 | wc -l)
shapes="1x1x1,17x33x65,1000x1500x700,1023,2049,64x2048x32,2048x64x4096"
ns=$(echo "$shapes" | tr ',' '\n' | wc -l)
if $GEMMPROF -s "$shapes" -r 2 -w 1 --no-counters --no-ceilings --no-report -o "$TMP/odd" >"$TMP/log" 2>&1 &&
   python3 tests/gpu/csvcheck.py all-ok "$TMP/odd/results.csv" $((nv * ns)) >>"$TMP/log"; then
    ok "all $nv variants verified at $shapes"
else
    cat "$TMP/log"; fail "variants on odd shapes"
fi

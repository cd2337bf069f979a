#!/bin/sh
# Every registered variant verified on square and odd shapes (edges, k not a multiple of
# any tile, 1x1x1), the BF16/FP16 ones included (against their rounded inputs; 2049^3 is
# sampled, so there also against cuBLAS SGEMM's whole matrix).
. tests/gpu/lib.sh
need_gpu "every variant correct on odd shapes" || exit 0
nv=$($GEMMPROF --list | tail -n +2 | wc -l)
shapes="1x1x1,17x33x65,1000x1500x700,257x513x4099,1023,2049,64x2048x32,2048x64x4096"
ns=$(echo "$shapes" | tr ',' '\n' | wc -l)
if $GEMMPROF -s "$shapes" -r 2 -w 1 --no-counters --no-ceilings --no-report -o "$TMP/odd" >"$TMP/log" 2>&1 &&
   python3 tests/gpu/csvcheck.py all-ok "$TMP/odd/results.csv" $((nv * ns)) >>"$TMP/log"; then
    ok "all $nv variants verified at $shapes"
else
    cat "$TMP/log"; fail "variants on odd shapes"
fi
# a size beyond 32-bit indexing: one line naming the matrix and the limit, before any GPU work
$GEMMPROF -s 200000 -k naive --no-ceilings --no-report -o "$TMP/big" >"$TMP/big.log" 2>&1
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/big.log")" -eq 1 ] && grep -q "would have .* elements" "$TMP/big.log" &&
   [ ! -e "$TMP/big" ]; then
    ok "200000^3 refused before any GPU work: $(cat "$TMP/big.log")"
else
    cat "$TMP/big.log"; fail "200000^3 should be refused with exit 2 (got $rc)"
fi

#!/bin/sh
# gemmprof's CUPTI counters against ncu for the same kernels in the same L2 state, and the
# timing-only fallback when ncu holds the counters.
# Criterion: tests/gpu/ncu_compare.py judges and prints it first (ncu_compare.py --criterion).
. tests/gpu/lib.sh
need_gpu "counters agree with ncu" || exit 0
command -v ncu >/dev/null 2>&1 || { skip "counters agree with ncu: ncu not installed"; exit 0; }
python3 tests/gpu/ncu_compare.py --criterion | sed 's/^/  /'
metrics=$($GEMMPROF --list-metrics | awk 'NR > 1 && $2 == "yes" {print $1}' | paste -sd, -)
for vs in naive:2048 tiled:2048 cublas:2048 cublas_tf32:2048 naive:1000x1500x700 tiled:1000x1500x700 cublas:1000x1500x700; do
    v=${vs%%:*}; s=${vs#*:}
    case $s in *x*) shape=$s ;; *) shape=${s}x${s}x${s} ;; esac
    # three runs: DRAM write-backs differ from run to run (ncu_compare.py says how much)
    runs=
    for i in 1 2 3; do
        $GEMMPROF -k "$v" -s "$s" -r 2 -w 1 --no-ceilings --no-report -o "$TMP/$v$s.$i" >"$TMP/run.log" 2>&1 ||
            { cat "$TMP/run.log"; fail "gemmprof run $v $s"; continue 2; }
        runs=${runs:+$runs,}$TMP/$v$s.$i/results.csv
    done
    # ncu sees every GEMM kernel of the variant's range: the verify call, the warm-up call
    # and 5 timed calls, each timed call after gemmprof's L2 flush, the state gemmprof's
    # counter passes start from; ncu_compare.py finds the kernels per call from that list
    # and drops the first two calls (the verify call's inputs and poisoned C were just
    # written from the host). The flush kernels run unprofiled. Application replay,
    # because kernel replay restores C from a saved copy before each pass after the first,
    # and ncu's cache flush leaves part of that write behind: +2.3 MB of DRAM writes per
    # 2048^3 call (11.4 vs 9.3 MB for naive).
    ncu --replay-mode application --nvtx --nvtx-include "gemmprof@$v $shape/" \
        --kernel-name regex:"$GEMM_KERNELS" \
        --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
        --log-file "$TMP/ncu.csv" \
        $GEMMPROF -k "$v" -s "$s" -r 5 -w 1 --no-ceilings --no-report -o "$TMP/ncu$v$s" \
        >"$TMP/ncu.out" 2>"$TMP/ncu.err"
    (cd tests/gpu && python3 ncu_compare.py "$runs" "$TMP/ncu.csv" "$v" "$shape" 7 --skip 2)
    if grep -q "carrying on with timing only" "$TMP/ncu.err" "$TMP/ncu.out" 2>/dev/null; then
        ok "under ncu, gemmprof falls back to timing only ($v $s)"
    else
        fail "no timing-only fallback message under ncu ($v $s)"
    fi
done

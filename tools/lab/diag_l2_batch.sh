#!/bin/sh
# Diagnostic (not a test), issue 9: cuBLAS 1000x1500x700 reads ~3% more L2 bytes in the
# ncu comparison's batch than alone and than ncu. Round 1 (e04e4ac): the other variants
# of the same shape do it; the excess is in sectors the SMs request (srcunit tex) while
# L1 tag bytes are equal. Round 2 (results/h200/logs/diag_l2_batch-*.txt): it comes when
# naive or tiled ran before cuBLAS's range (not cublas_tf32, not cuBLAS itself), whatever
# the pause after the flush; the SMs' L1 receives 1-3 MB more from L2 (more L1 misses);
# ncu on the batch command sees what ncu alone sees (its calls follow cuBLAS's own).
# Round 3: does running the workload once, unprofiled, before each range's flush (the
# state of a timed call and of ncu's calls) remove it? Also cublas_tf32 at 2048.
B=${1:-build}
T=$(mktemp -d)
pick() {   # results.csv variant shape columns... -> values
    python3 - "$@" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["variant"] == sys.argv[2] and f'{r["m"]}x{r["n"]}x{r["k"]}' == sys.argv[3]:
        print(" ".join(r.get(c, "-") or "-" for c in sys.argv[4:]))
PY
}
COLS="lts__t_bytes.sum l1tex__t_bytes.sum dram__bytes_read.sum dram__bytes_write.sum"
run() {   # label, variant, shape, gemmprof args...
    label=$1; v=$2; s=$3; shift 3
    for i in 1 2 3; do
        $B/gemmprof "$@" -r 2 -w 1 --no-ceilings --no-report -o "$T/o" >"$T/log" 2>&1 || tail -3 "$T/log"
        echo "$label $v $s $(pick "$T/o/results.csv" $v $s $COLS)"
        grep "counter phase" "$T/log"
    done
}
echo "columns: case variant shape $COLS"
for mode in read-discard settle-read-discard; do
    GEMMPROF_COUNTER_FLUSH=$mode run "batch-$mode" cublas 1000x1500x700 -k naive,tiled,cublas,cublas_tf32 -s 2048,1000x1500x700,64x64x16384
    GEMMPROF_COUNTER_FLUSH=$mode run "batch-$mode" cublas_tf32 2048x2048x2048 -k naive,tiled,cublas,cublas_tf32 -s 2048
done
rm -rf "$T"

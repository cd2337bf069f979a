#!/bin/bash
# Diagnostic (not a test): where gemmprof's dram__bytes_write differs from ncu's.
# Measures the same kernels with gemmprof under each counter-pass flush mode and with
# ncu under different replay modes and cache controls, then prints one table.
#   tools/lab/diag_dram_write.sh [BUILD [REPEATS [MODES]]] > table
# With REPEATS, only gemmprof runs: REPEATS times per flush mode in MODES, on more kernels.
BUILD=${1:-build}
REPEATS=${2:-1}
MODES=${3:-read read-discard read2 write-read none}
G=$BUILD/gemmprof
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
GEMM_KERNELS=$(sh -c '. tests/gpu/lib.sh; printf %s "$GEMM_KERNELS"' x)
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
cases="naive:2048 cublas:2048 naive:1000x1500x700"

row() { printf '%-34s %-22s %10s %10s %10s\n' "$@"; }
row source case "read MB" "write MB" "L2 MB"
kernels=naive,cublas
[ "$REPEATS" -gt 1 ] && kernels=naive,tiled,cublas,cublas_tf32
for rep in $(seq "$REPEATS"); do for mode in $MODES; do
    GEMMPROF_COUNTER_FLUSH=$mode $G -k $kernels -s 2048,1000x1500x700 -r 2 --no-ceilings \
        --no-report --metrics $M -o "$T/g$mode" >"$T/g.log" 2>&1 || { cat "$T/g.log"; continue; }
    python3 - "$T/g$mode/results.csv" "gemmprof flush=$mode" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(f"{sys.argv[2]:34s} {r['variant'] + ' ' + r['m'] + 'x' + r['n'] + 'x' + r['k']:22s} "
          f"{float(r['dram__bytes_read.sum'])/1e6:10.3f} {float(r['dram__bytes_write.sum'])/1e6:10.3f} "
          f"{float(r['lts__t_bytes.sum'])/1e6:10.2f}")
PY
done; done
[ "$REPEATS" -gt 1 ] && exit 0
# ncu: $1 label, $2 variant, $3 shape, rest: ncu options
ncu_case() {
    local label=$1 v=$2 s=$3; shift 3
    local shape=$s; case $s in *x*) ;; *) shape=${s}x${s}x${s} ;; esac
    ncu --nvtx --nvtx-include "gemmprof@$v $shape/" --kernel-name regex:"$GEMM_KERNELS" --clock-control none \
        --csv --page raw --print-units base --metrics $M --log-file "$T/n.csv" "$@" \
        $G -k "$v" -s "$s" -r 2 -w 1 --no-ceilings --no-report --no-counters -o "$T/n" >"$T/n.log" 2>&1
    (cd tests/gpu && python3 - "$T/n.csv" "$label" "$v $shape") <<'PY'
import sys
from ncu_csv import kernels, number
ks = kernels(sys.argv[1])
for i, r in enumerate(ks):
    mb = lambda k: number(r[k]) / 1e6
    print(f"{sys.argv[2] + ' #' + str(i):34s} {sys.argv[3]:22s} {mb('dram__bytes_read.sum'):10.3f} "
          f"{mb('dram__bytes_write.sum'):10.3f} {mb('lts__t_bytes.sum'):10.2f}")
if not ks:
    print(f"{sys.argv[2]:34s} {sys.argv[3]:22s} ncu profiled nothing")
PY
}
for vs in $cases; do
    v=${vs%%:*}; s=${vs#*:}
    # launches: verify, warm-up, 2 timed (each timed one after gemmprof's read flush)
    ncu_case "ncu kernel cache=all" $v $s --launch-count 4
    ncu_case "ncu kernel cache=none" $v $s --launch-count 4 --cache-control none
    ncu_case "ncu application cache=all" $v $s --launch-count 4 --replay-mode application
    ncu_case "ncu application cache=none" $v $s --launch-count 4 --replay-mode application --cache-control none
done

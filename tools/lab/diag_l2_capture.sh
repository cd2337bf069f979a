#!/bin/sh
# Diagnostic (not a test): cuBLAS at 1000x1500x700, L2 bytes with and without the launch-fact
# capture around the verify launch, 5 runs each, against ncu's ~1.405e8 B (test_ncu_compare).
B=${1:-build}
for mode in capture no-capture; do
    opt=; [ $mode = no-capture ] && opt=--no-launch-facts
    for i in 1 2 3 4 5; do
        $B/gemmprof -k cublas -s 1000x1500x700 -r 2 -w 1 --no-ceilings --no-report $opt -o /tmp/l2diag >/dev/null 2>&1
        python3 -c "import csv;r=list(csv.DictReader(open('/tmp/l2diag/results.csv')))[0];print('$mode', r['lts__t_bytes.sum'], r['dram__bytes_write.sum'], r['kernels'][:40])"
    done
done

#!/bin/sh
# The judging half of the GPU test against ncu (tests/gpu/ncu_compare.py), on crafted CSVs:
# it must pass agreeing counters and fail every kind of disagreement.
command -v python3 >/dev/null 2>&1 || { echo "skip - ncu_compare.py logic: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/../gpu" || exit 1
COLS=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes_write.sum,lts__t_bytes.sum,gpu__time_duration.sum

# gemmprof's runs, one per 3 arguments: FFMA count, DRAM write bytes, L2 bytes
ours() {
    RES= i=0
    while [ $# -gt 0 ]; do
        i=$((i + 1))
        printf 'variant,m,n,k,%s\nnaive,64,64,64,%s,%s,%s,1000\n' "$COLS" "$1" "$2" "$3" >"$T/res$i.csv"
        RES=${RES:+$RES,}$T/res$i.csv
        shift 3
    done
}
# ncu's raw CSV, one kernel per 4 arguments: name, FFMA, DRAM write bytes, L2 bytes
ncu() {
    {
        echo '==PROF== Connected to process'
        printf '"ID","Kernel Name","%s"\n' "$(echo $COLS | sed 's/,/","/g')"
        echo '"","","inst","byte","byte","ns"'
        i=0
        while [ $# -gt 0 ]; do
            echo "\"$i\",\"$1\",\"$2\",\"$3\",\"$4\",\"900\""
            i=$((i + 1)); shift 4
        done
    } >"$T/ncu.csv"
}
check() {   # $1 expected exit (0 agree, 1 disagree), $2 description, $3 kernels per call
    python3 ncu_compare.py "$RES" "$T/ncu.csv" naive 64x64x64 "${3:-1}" >"$T/out" 2>&1
    rc=$?
    if [ "$rc" = "$1" ]; then echo "ok - ncu_compare.py: $2"; else
        sed "s/^/    /" "$T/out"; echo "FAIL - ncu_compare.py: $2 (exit $rc, expected $1)"; fi
}
K=gemm_naive_kernel

ours 262144 9200000 100000000
ncu $K 262,144 "9,280,000" 99000000 $K 262144 9600000 100000000 $K 262144 9275000 101000000
check 0 "one run, three calls: medians within 2%; duration not judged"
ours 262144 9060000 100000000 262144 9570000 100000000 262144 9220000 100000000
ncu $K 262144 9240000 100000000 $K 262144 11600000 100000000 $K 262144 9300000 100000000 \
    $K 262144 9600000 100000000 $K 262144 9290000 100000000
check 0 "medians of 3 runs (9.22 MB) and 5 calls (9.30 MB) agree though single samples differ by 27%"
ours 262144 9060000 100000000 262144 9570000 100000000 262144 9500000 100000000
check 1 "median DRAM writes 2.2% over ncu's"
ours 262144 9000000 100000000
check 1 "DRAM writes 3.2% under ncu's median"
ours 262144 9280000 103000000
check 1 "L2 bytes 3% over ncu's median"
ours 262145 9280000 100000000
ncu $K 262144 9280000 100000000
check 1 "one FFMA more than ncu"
ours 262144 9280000 100000000 262143 9280000 100000000 262144 9280000 100000000
check 1 "gemmprof's runs disagree on the FFMA count, though the median matches"
ours 262144 9280000 100000000
ncu $K 262144 9280000 100000000 $K 262143 9280000 100000000 $K 262144 9280000 100000000
check 1 "ncu's calls disagree on the FFMA count, though the median matches"
ours 262144 60000 100000000
ncu $K 262144 0 100000000
check 0 "60 KB of DRAM writes against ncu's 0: under the 64 KiB floor"
ours 262144 70000 100000000
check 1 "70 KB of DRAM writes against ncu's 0: over the 64 KiB floor"
ours 262144 9280000 100000000
ncu l2_flush_kernel 0 0 0 $K 262144 9280000 100000000 l2_flush_kernel 0 0 0
check 0 "flush kernels in ncu's list are dropped"
ncu a 131072 4640000 50000000 b 131072 4640000 50000000 a 131072 4640000 50000000 b 131072 4640000 50000000
check 0 "two kernels per call are summed into the call" 2
ncu a 131072 4640000 50000000 b 131072 4640000 50000000 a 131072 4640000 50000000
check 1 "a call with a kernel missing is refused" 2
ncu
check 1 "ncu profiled nothing"
ours 262144 nan 100000000
ncu $K 262144 9280000 100000000
check 1 "NaN from gemmprof never passes"

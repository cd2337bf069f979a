#!/bin/sh
# The judging half of the GPU test against ncu (tests/gpu/ncu_compare.py), on crafted CSVs:
# it must pass agreeing counters and fail every kind of disagreement.
command -v python3 >/dev/null 2>&1 || { echo "skip - ncu_compare.py logic: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/../gpu" || exit 1

# ours: $1 FFMA count, $2 DRAM write bytes
ours() {
    printf 'variant,m,n,k,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes_write.sum,gpu__time_duration.sum\n' >"$T/res.csv"
    printf 'naive,64,64,64,%s,%s,1000\n' "$1" "$2" >>"$T/res.csv"
}
# ncu: one line per profiled kernel: name ffma dram_write duration
ncu() {
    {
        echo '==PROF== Connected to process'
        echo '"ID","Kernel Name","smsp__sass_thread_inst_executed_op_ffma_pred_on.sum","dram__bytes_write.sum","gpu__time_duration.sum"'
        echo '"","","inst","byte","ns"'
        i=0
        while [ $# -gt 0 ]; do
            echo "\"$i\",\"$1\",\"$2\",\"$3\",\"900\""
            i=$((i + 1)); shift 3
        done
    } >"$T/ncu.csv"
}
check() {   # $1 expected exit (0 agree, 1 disagree), $2 description, $3 kernels per call
    python3 ncu_compare.py "$T/res.csv" "$T/ncu.csv" naive 64x64x64 "${3:-1}" >"$T/out" 2>&1
    rc=$?
    if [ "$rc" = "$1" ]; then echo "ok - ncu_compare.py: $2"; else
        sed "s/^/    /" "$T/out"; echo "FAIL - ncu_compare.py: $2 (exit $rc, expected $1)"; fi
}

ours 262144 9200000
ncu gemm_naive_kernel 262,144 "9,280,000" gemm_naive_kernel 262144 9600000 gemm_naive_kernel 262144 9275000
check 0 "DRAM writes inside ncu's call-to-call range, SASS equal, duration not judged"
ours 262144 9750000
check 0 "DRAM writes 5.1% over ncu's median but 1.6% over its highest call"
ours 262144 8900000
check 1 "DRAM writes 2.4% under ncu's lowest call"
ours 262144 9900000
check 1 "DRAM writes 3.1% over ncu's highest call"
ours 262145 9280000
check 1 "one FFMA more than ncu"
ours 262144 9280000
ncu gemm_naive_kernel 262144 9280000 gemm_naive_kernel 262143 9280000
check 1 "ncu's calls disagree on the FFMA count"
ours 262144 60000
ncu gemm_naive_kernel 262144 0
check 0 "60 KB of DRAM writes against ncu's 0: under the 64 KiB floor"
ours 262144 70000
check 1 "70 KB of DRAM writes against ncu's 0: over the 64 KiB floor"
ours 262144 9280000
ncu l2_flush_kernel 0 0 gemm_naive_kernel 262144 9280000 l2_flush_kernel 0 0
check 0 "flush kernels in ncu's list are dropped"
ncu a 131072 4640000 b 131072 4640000 a 131072 4640000 b 131072 4640000
check 0 "two kernels per call are summed into the call" 2
ncu a 131072 4640000 b 131072 4640000 a 131072 4640000
check 1 "a call with a kernel missing is refused" 2
ncu
check 1 "ncu profiled nothing"
ours 262144 nan
ncu gemm_naive_kernel 262144 9280000
check 1 "NaN from gemmprof never passes"

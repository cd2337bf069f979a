#!/bin/sh
# The batched half of the GPU test against ncu (ncu_compare.py --split): one ncu process over
# every variant of a shape, its kernels assigned back to the cases in run order, each case
# CALLS calls of the kernels its gemmprof row names. On crafted CSVs: the normal case splits
# and each part then passes the judging; a kernel missing, one too many, a case with a call
# too many and a case without a row each fail with a line naming the case.
command -v python3 >/dev/null 2>&1 || { echo "skip - ncu_compare.py --split: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/../gpu" || exit 1
# the counters ncu_compare.py judges (an FFMA count, DRAM, L2, shared st wavefronts, L1), a duration
COLS=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
COLS=$COLS,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_bytes.sum,gpu__time_duration.sum
CALLS=3

# gemmprof's results.csv of one case: variant, its kernels column (';'-separated), the
# call's counters (FFMA, DRAM read, DRAM write, L2, wavefronts, L1, duration)
ours() {
    printf 'variant,m,n,k,kernels,%s\n%s,64,64,64,"%s",%s\n' "$COLS" "$1" "$2" "$3" >"$T/$1.res"
}
ours a "gemm_a_kernel" 1000,2000000,100000,9000000,500,7000000,900
ours b "void cutlass::Kernel2<cfg>(Params);cublasLt::splitKreduce_kernel<32, 16, int>" 2000,3000000,0,8000000,400,6000000,800
ours c "gemm_c_kernel" 3000,4000000,100000,7000000,300,5000000,700
# ncu's kernel lines: one per call of a, b, c (b's call: two kernels, half the counts each;
# its first kernel carries the call's DRAM reads less the reduction's 10%), a flush before each
A="gemm_a_kernel(const float *)|1000,2000000,100000,9000000,500,7000000,900"
B1="void cutlass::Kernel2<cfg>(Params)|1000,2700000,0,4000000,200,3000000,400"
B2="void cublasLt::splitKreduce_kernel<32, 16, int>(float *)|1000,300000,0,4000000,200,3000000,400"
C="gemm_c_kernel(const float *)|3000,4000000,100000,7000000,300,5000000,700"
F="l2_flush_kernel(float *)|0,0,0,0,0,0,10"
lines() {   # ncu's CSV from kernel lines on stdin, in launch order
    {
        echo '==PROF== Connected to process'
        printf '"ID","Kernel Name","%s"\n' "$(echo $COLS | sed 's/,/","/g')"
        echo '"","","inst","byte","byte","byte","","byte","ns"'
        i=0
        while IFS= read -r k; do
            echo "\"$i\",\"${k%%|*}\",\"$(echo "${k#*|}" | sed 's/,/","/g')\""
            i=$((i + 1))
        done
    } >"$T/ncu.csv"
}
calls() {   # $1 calls of kernel lines $2...
    n=$1; shift
    while [ "$n" -gt 0 ]; do for k in "$@"; do echo "$k"; done; n=$((n - 1)); done
}
# $1 expected exit, $2 description; then the case list (default a b c)
split() {
    want=$1 what=$2; shift 2
    [ $# -gt 0 ] || set -- a b c
    rm -rf "$T/out"; mkdir "$T/out"
    args=
    for v in "$@"; do args="$args $v 64x64x64 $T/$v.res"; done
    # $args unquoted: VARIANT SHAPE RESULTS_CSV per case, each a word
    python3 ncu_compare.py --split "$T/ncu.csv" "$CALLS" "$T/out" $args >"$T/log" 2>&1
    rc=$?
    if [ "$rc" = "$want" ]; then echo "ok - ncu_compare.py --split: $what"; else
        sed "s/^/    /" "$T/log"; echo "FAIL - ncu_compare.py --split: $what (exit $rc, expected $want)"; fi
}
says() {   # $1 pattern; $2 the output holding it (default: the last split's)
    out=${2:-$T/log}
    if grep -q -- "$1" "$out"; then echo "ok - ncu_compare.py prints: $1"; else
        sed "s/^/    /" "$out"; echo "FAIL - ncu_compare.py should print: $1"; fi
}
has() {   # $1 case, $2 kernels expected in its file (0: no file)
    got=0
    [ -f "$T/out/$1.csv" ] && got=$(python3 ncu_csv.py kernels "$T/out/$1.csv" | wc -l)
    if [ "$got" -eq "$2" ]; then echo "ok - ncu_compare.py --split: $1.csv holds $2 kernels"; else
        echo "FAIL - ncu_compare.py --split: $1.csv holds $got kernels, expected $2"; fi
}
judge() {   # $1 case, $2 expected exit of ncu_compare.py on its part
    python3 ncu_compare.py "$T/$1.res" "$T/out/$1.csv" "$1" 64x64x64 "$CALLS" --skip 1 >"$T/judge" 2>&1
    rc=$?
    if [ "$rc" = "$2" ]; then echo "ok - ncu_compare.py judges $1's part (exit $rc)"; else
        sed "s/^/    /" "$T/judge"; echo "FAIL - ncu_compare.py on $1's part: exit $rc, expected $2"; fi
}
# the normal case: flushes between the calls dropped
printf '%s\n' "$F" "$A" "$F" "$A" "$F" "$A" "$B1" "$B2" "$F" "$B1" "$B2" "$F" "$B1" "$B2" "$C" "$C" "$F" "$C" | lines
split 0 "three cases, 3 calls each (b's of two kernels), flushes dropped"
says "12 kernels, 3 calls of each of 3 cases: a 3, b 6, c 3"
has a 3; has b 6; has c 3
judge a 0
judge b 0; says "b 64x64x64: 1 gemmprof runs; ncu profiled 2 calls of 2 kernels" "$T/judge"
judge c 0
# the parts are the cases' own: c's part judged as a's fails (another kernel, other counts)
cp "$T/out/c.csv" "$T/out/a.csv"; judge a 1

# a kernel missing: b's reduction in its second call
{ calls 3 "$A"; echo "$B1"; echo "$B2"; echo "$B1"; echo "$B1"; echo "$B2"; calls 3 "$C"; } | lines
split 1 "b's second call without its reduction"
says "FAIL - ncu's kernels and the cases.*b 64x64x64: call 2 of 3"
says "FAIL - ncu compare c 64x64x64: none of ncu's kernels"
has a 3; has b 0; has c 0
# a kernel more at the end
{ calls 3 "$A"; calls 3 "$B1" "$B2"; calls 4 "$C"; } | lines
split 1 "a fourth call of c, the last case"
says "FAIL - ncu's kernels and the cases.*1 kernels beyond the cases (after c 64x64x64)"
has c 3
# a case whose count is off: a fourth call of a, in front of b's
{ calls 4 "$A"; calls 3 "$B1" "$B2"; calls 3 "$C"; } | lines
split 1 "a fourth call of a"
says "b 64x64x64: call 1 of 3.*a call of a 64x64x64's kernels: has it more than 3 calls"
has a 3; has b 0
# a call too few: c's third call missing
{ calls 3 "$A"; calls 3 "$B1" "$B2"; calls 2 "$C"; } | lines
split 1 "c with 2 calls of 3"
says "c 64x64x64: call 3 of 3: ncu's kernels 11..11 are none"
# a call too few in front of another case: a's third call missing
{ calls 2 "$A"; calls 3 "$B1" "$B2"; calls 3 "$C"; } | lines
split 1 "a with 2 calls of 3"
says "a 64x64x64: call 3 of 3.*a call of b 64x64x64's kernels: has a fewer than 3 calls"
# a kernel of another variant inside a case's calls
{ calls 3 "$A"; echo "$B1"; echo "$C"; calls 2 "$B1" "$B2"; calls 3 "$C"; } | lines
split 1 "c's kernel in b's first call"
says "b 64x64x64: call 1 of 3"
# ncu profiled nothing, or wrote no CSV
lines </dev/null
split 1 "ncu profiled nothing"
says "a 64x64x64: call 1 of 3: ncu's kernels 0..0 are none"
rm -f "$T/ncu.csv"
split 1 "ncu wrote no CSV"
says "cannot read it"
says "FAIL - ncu compare a 64x64x64: none of ncu's kernels"
# a case gemmprof has no row for: its kernels cannot be told apart
{ calls 3 "$A"; calls 3 "$B1" "$B2"; calls 3 "$C"; } | lines
printf 'variant,m,n,k,kernels,%s\n' "$COLS" >"$T/d.res"
split 1 "a case without a gemmprof row" a d
says "d 64x64x64: gemmprof's row names no kernel"
# bad input: one line, exit 2
python3 ncu_compare.py --split "$T/ncu.csv" 3 "$T/out" a 64x64x64 >"$T/log" 2>&1
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <"$T/log")" = 1 ]; then echo "ok - ncu_compare.py --split: an incomplete case list is one line, exit 2"; else
    sed "s/^/    /" "$T/log"; echo "FAIL - ncu_compare.py --split with an incomplete case list: exit $rc"; fi
python3 ncu_compare.py --split "$T/ncu.csv" 3 "$T/out" a 64x64x64 "$T/a.res" a 64x64x64 "$T/a.res" >"$T/log" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "named twice" "$T/log"; then echo "ok - ncu_compare.py --split: a variant named twice is refused"; else
    sed "s/^/    /" "$T/log"; echo "FAIL - ncu_compare.py --split with a variant named twice: exit $rc"; fi

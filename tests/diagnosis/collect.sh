#!/bin/sh
# The diagnosis benchmark through both tools (tests/gpu/test_diagnosis.sh, test_ncu_diagnosis.sh):
# gemmprof's default run at each case's shape (STALLS=1: with every stall reason), and
# ncu's rules (--set full, the details page) for the same launches (NCU=0: not). Writes
# under OUTDIR:
#   g_<shape>/        gemmprof's results directory of the cases at that shape
#   ncu_<shape>.txt   ncu's details page, rules included
#   tests/diagnosis/collect.sh BUILD OUTDIR [SHAPE_OVERRIDE]
# SHAPE_OVERRIDE runs every case at that one shape instead (the generalisation check).
B=${1:-build}
O=${2:-/tmp/diag}
ONE=${3:-}
LIB=$B/tests/diagnosis/libgemmprof_bottlenecks.so
mkdir -p "$O"
cases=tests/diagnosis/cases.txt
shapes=$(if [ -n "$ONE" ]; then echo "$ONE"; else awk '!/^#/ && NF >= 4 {print $4}' $cases | sort -u; fi)
for s in $shapes; do
    ks=$(awk -v s="$s" -v one="$ONE" -v lib="$LIB" '!/^#/ && NF >= 4 && (one != "" || $4 == s) && !seen[$1]++ {printf "%splugin:%s:%s", n++ ? "," : "", lib, $1}' $cases)
    $B/gemmprof -k "$ks" -s "$s" ${STALLS:+--stalls} -r 5 -w 1 --no-report -o "$O/g_$s" >"$O/g_$s.log" 2>&1
    echo "gemmprof $s: exit $? ($(grep -c . "$O/g_$s/results.csv" 2>/dev/null) lines)"
    [ "${NCU:-1}" = 0 ] && continue
    ncu --nvtx --nvtx-include gemmprof@timed/ --set full --page details --clock-control none \
        $B/gemmprof -k "$ks" -s "$s" -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$O/n_$s" \
        >"$O/ncu_$s.txt" 2>&1
    echo "ncu $s: exit $?"
done

#!/bin/sh
# gemmprof's launch facts, occupancy, issue-slot use and stall breakdown against ncu's
# LaunchStats, Occupancy and WarpStateStats sections for the same launches (issue 10):
# every variant (gemmprof --list) at 2048^3, 1000x1500x700 and 5000x700x3001 (k % 4 != 0:
# the TMA kernels copy A to a padded pitch first, so their calls hold two kernels).
#
# Criterion (tests/gpu/ncu_launch_compare.py judges, and prints it at the start):
# - grid and block dimensions and their products, registers per thread, static and
#   dynamic shared memory per block, the four block limits: equal to ncu's; waves within
#   0.01 of ncu's;
# - theoretical and achieved occupancy, and issue-slot utilisation: within 2 percentage
#   points of ncu's median (achieved occupancy and issue slots: or inside ncu's own range
#   over its calls, as they vary per launch where the last wave is partial);
# - gemmprof's top three stall reasons (by stalled warps per issue) in the order of ncu's
#   top three; two reasons may swap places where they tie within 5% (in ncu's values or
#   in gemmprof's);
# - a call of several kernels (cuBLAS, simt_auto's split-K): launch facts of the kernel
#   gemmprof names in launch_kernel, which must be the one launching the most threads; its
#   rates and ratios as gemmprof's one range measures them (each kernel's value weighted by
#   its ratio's denominator: active cycles, or issue-active cycles for stall ratios); its
#   issue-slot use shown, not judged (ncu flushes the caches between the kernels); its
#   stall ratios from a second ncu profile of those calls without that flush
#   (--cache-control none), and no_instruction left out where gemmprof's is the higher
#   (its ranges start with cold instruction caches);
# - a value missing or not finite fails; a column gemmprof does not write at all (the
#   feature is not built) gives one skip line with the reason.
#
# How: gemmprof measures every case in one run, with -m naming the metrics this needs
# from its --list-metrics (not its default set). ncu profiles one other gemmprof run (no
# counters of its own): the timed call of every case, selected by gemmprof's NVTX range
# "timed" and lib.sh's GEMM kernel pattern (which leaves the L2 flush out), application
# replay and the clocks as they are, as the counter comparison does. ncu's kernels are
# assigned to the cases in run order (shapes outer, variants inner), each call holding the
# kernels gemmprof's row names. Cost: one run of each, their wall times and ncu's replay
# passes printed.
#   NCU_LAUNCH_CALLS   timed calls per case under ncu (default 3; medians over them)
#   NCU_LAUNCH_RUNS    gemmprof runs (default 3; medians over them)
#   NCU_LAUNCH_NVTX    ncu's NVTX filter (default gemmprof@timed/)
#   NCU_LAUNCH_REPLAY  ncu's replay mode (default application: one gemmprof run per pass;
#                      kernel is cheaper if that is too slow)
. tests/gpu/lib.sh
need_gpu "launch facts agree with ncu" || exit 0
command -v ncu >/dev/null 2>&1 || { skip "launch facts agree with ncu: ncu not installed"; exit 0; }
H=tests/gpu/ncu_launch_compare.py
CALLS=${NCU_LAUNCH_CALLS:-3}
FILTER=${NCU_LAUNCH_NVTX:-gemmprof@timed/}
REPLAY=${NCU_LAUNCH_REPLAY:-application}
SHAPES="2048 1000x1500x700 5000x700x3001"
python3 $H --criterion | sed 's/^/  /'
t0=$(date +%s)

variants=$($GEMMPROF --list | awk 'NR > 1 {print $1}')
[ -n "$variants" ] || { fail "launch comparison: gemmprof --list names no variant"; exit 0; }
metrics=$($GEMMPROF --list-metrics | python3 $H --pick-metrics)
[ -n "$metrics" ] || echo "  gemmprof --list-metrics names no stall metric: measuring its default set"
cases=
for s in $SHAPES; do
    case $s in *x*) shape=$s ;; *) shape=${s}x${s}x${s} ;; esac
    for v in $variants; do cases=${cases:+$cases,}$v:$shape; done
done
klist=$(echo $variants | tr ' ' ,)
slist=$(echo $SHAPES | tr ' ' ,)

# gemmprof: every case in one run, RUNS times (medians: achieved occupancy and issue slots
# vary from run to run, by 1.3 points for blocktile_1d at 1000x1500x700 on the H200)
RUNS=${NCU_LAUNCH_RUNS:-3}
results=
for i in $(seq 1 "$RUNS"); do
    d=$TMP/g; [ "$i" -gt 1 ] && d=$TMP/g$i
    $GEMMPROF -k "$klist" -s "$slist" -r 1 -w 1 ${metrics:+-m "$metrics"} --no-ceilings --no-report \
        -o "$d" >"$TMP/g.log" 2>&1
    rc=$?
    [ -f "$d/results.csv" ] && results=${results:+$results,}$d/results.csv
done
grep -E "counter phase|pass" "$TMP/g.log" | sed 's/^/  gemmprof: /' | head -5
echo "  gemmprof: $(($(date +%s) - t0)) s (exit $rc)"
if [ ! -f "$TMP/g/results.csv" ]; then
    tail -20 "$TMP/g.log"; fail "launch comparison: gemmprof wrote no results.csv (exit $rc)"; exit 0
fi
[ $rc -eq 0 ] || { tail -10 "$TMP/g.log"; fail "launch comparison: gemmprof exited $rc"; }

# profile NAME VARIANTS SHAPES NCU_OPTIONS...: ncu over gemmprof's timed calls of those cases
# (timing only) into $TMP/NAME.csv, its output in $TMP/NAME.err; sets rc
seen=$(python3 $H --names "$TMP/g/results.csv")
ncu_metrics=$(python3 $H --ncu-metrics "$metrics")
profile() {
    pname=$1 pk=$2 ps=$3
    shift 3
    ncu --replay-mode "$REPLAY" --nvtx --nvtx-include "$FILTER" --kernel-name regex:"$GEMM_KERNELS${seen:+|$seen}" \
        --clock-control none --csv --page raw --print-units base "$@" --metrics "$ncu_metrics" \
        --log-file "$TMP/$pname.csv" $GEMMPROF -k "$pk" -s "$ps" -r "$CALLS" -w 0 --no-counters --no-ceilings \
        --no-report -o "$TMP/$pname.out.d" >"$TMP/$pname.out" 2>"$TMP/$pname.err"
    rc=$?
}

# ncu: the timed calls of every case, in one run
t1=$(date +%s)
profile ncu "$klist" "$slist" --section LaunchStats --section Occupancy --section WarpStateStats
nk=0
[ -s "$TMP/ncu.csv" ] && nk=$(python3 tests/gpu/ncu_csv.py kernels "$TMP/ncu.csv" | grep -vc '^l2_flush_kernel')
passes=$(grep -o '[0-9]* passes' "$TMP/ncu.csv" 2>/dev/null | sort | uniq -c | awk '{printf "%s%s kernels x %s passes", s, $1, $2; s=", "}')
echo "  ncu ($REPLAY replay): $(($(date +%s) - t1)) s (exit $rc), $nk kernels profiled under '$FILTER'${passes:+ ($passes)}"
if [ $rc -ne 0 ] || [ "$nk" -eq 0 ]; then
    tail -8 "$TMP/ncu.err"; grep '^==ERROR==\|^==WARNING==' "$TMP/ncu.csv" 2>/dev/null | head -5
    fail "launch comparison: ncu run (exit $rc, $nk kernels; NVTX filter '$FILTER', NCU_LAUNCH_NVTX sets another)"
fi
[ -s "$TMP/ncu.csv" ] || { fail "launch comparison: ncu wrote no CSV"; exit 0; }

# the calls of several kernels once more, without ncu's flush between their kernels (only
# gemmprof's own before each call, as in its counter phase), for their stall ratios
set -- $(python3 $H --several "$TMP/g/results.csv")
stalls=
if [ $# = 3 ]; then
    t2=$(date +%s) several_cases=$3
    profile ncu_none "$1" "$2" --cache-control none --section WarpStateStats
    echo "  ncu without its cache flush, calls of several kernels ($1 at $2): $(($(date +%s) - t2)) s (exit $rc)"
    if [ $rc -ne 0 ] || [ ! -s "$TMP/ncu_none.csv" ]; then
        tail -5 "$TMP/ncu_none.err"; fail "launch comparison: the second ncu run (--cache-control none) exited $rc"
    else
        stalls="--stalls-ncu $TMP/ncu_none.csv --stalls-cases $several_cases"
    fi
fi
python3 $H "$results" "$TMP/ncu.csv" "$cases" --calls "$CALLS" $stalls
echo "  launch comparison: $(($(date +%s) - t0)) s in all"

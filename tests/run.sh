#!/bin/sh
# Runs the test programs and scripts and counts their "ok/FAIL/skip" lines.
#   tests/run.sh BUILD [host|gpu|ncu|all|full]
# host: build/tests/test_* and tests/host/*.sh (no GPU needed). gpu: tests/gpu/test_*.sh but the ncu
# comparisons, which skip with the reason on a machine without a GPU. ncu: tests/gpu/test_ncu_*.sh,
# gemmprof's counters and launch facts against Nsight Compute (about 7 minutes on an H200). all
# (`make test`): host and gpu; full (`make test-gpu` adds ncu to gpu). Ends with
# "N passed, N failed, N skipped".
# The host tests run TEST_JOBS at a time (default: the online CPUs, at most 8; TEST_JOBS=1 runs
# them one by one), the slowest started first; each one's output is held back and printed in the
# list's order. The GPU tests run one by one after them: they share the GPU and its counters.
build=${1:-build}
which=${2:-all}
tmp=$(mktemp -d) || exit 1
log=$tmp/log
: >"$log"
trap 'rm -rf "$tmp"' EXIT
status=0

case "$which" in host|gpu|ncu|all|full) ;; *) echo "tests/run.sh: unknown set '$which' (host, gpu, ncu, all, full)" >&2; exit 2 ;; esac
want() { case " $1 " in *" $which "*) return 0 ;; esac; return 1; }

if [ -n "${TEST_JOBS:-}" ]; then
    jobs=$TEST_JOBS
else
    jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null)
    case "$jobs" in '' | *[!0-9]* | 0) jobs=1 ;; esac
    # more slots would not shorten the run (the slowest test is over a third of the total), and
    # the emulated kernels' threads use the other CPUs
    [ "$jobs" -le 8 ] || jobs=8
fi
case "$jobs" in '' | *[!0-9]* | 0*) echo "tests/run.sh: TEST_JOBS must be a whole number, 1 or more, not '$jobs'" >&2; exit 2 ;; esac

# Test I's output goes to $tmp/I.out, its exit status to $tmp/I.rc.
# block I: its output as one block, counted into $log; a program that failed without printing a
# FAIL line still counts as one failure.
block() {
    eval "bname=\$name_$1"
    cat "$tmp/$1.out"
    cat "$tmp/$1.out" >>"$log"
    if [ "$(cat "$tmp/$1.rc")" != 0 ] && ! grep -q '^FAIL - ' "$tmp/$1.out"; then
        echo "FAIL - $bname exited non-zero without reporting a failed check" | tee -a "$log"
    fi
}

# timed I NAME COMMAND...: runs the command into I's files (the time last, as before)
timed() {
    ti=$1 tname=$2; shift 2
    t0=$(date +%s)
    "$@" >"$tmp/$ti.out" 2>&1
    trc=$?
    echo "  ($tname: $(($(date +%s) - t0)) s)" >>"$tmp/$ti.out"
    echo "$trc" >"$tmp/$ti.rc"
}

n=0
# add NAME PATH HOW: HOW is sh for a script, empty for a program
add() { n=$((n + 1)); eval "name_$n=\$1 path_$n=\$2 how_$n=\$3"; }
if want "host all"; then
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        case "$t" in *.o|*.d) continue ;; esac
        add "$(basename "$t")" "$t" ""
    done
    for t in tests/host/test_*.sh; do
        [ -f "$t" ] || continue
        add "$(basename "$t")" "$t" sh
    done
fi

# The slowest first (make test on the H200 and on 2 cores), so that the run takes about as long
# as the slowest; the rest in the list's order.
slow="test_sm90_emulated test_plots test_simt_emulated test_plot_safety.sh test_plot_styles.sh test_main
      test_plot_labels.sh test_plot_labels_bf16.sh test_ncu_compare_logic.sh test_ncu_launch_logic.sh test_merge"
order=
for s in $slow; do
    i=0
    while [ $i -lt $n ]; do
        i=$((i + 1))
        eval "[ \"\$name_$i\" = \"\$s\" ] && [ -z \"\${early_$i-}\" ]" && order="$order $i" && eval "early_$i=1"
    done
done
i=0
while [ $i -lt $n ]; do
    i=$((i + 1))
    eval "[ -n \"\${early_$i-}\" ]" || order="$order $i"
done

# A host test runs in its own session where setsid exists, so that an interrupted run can end its
# children too (background jobs ignore the terminal's ^C).
sid=
command -v setsid >/dev/null 2>&1 && sid=setsid
in_session() { sp=$1; shift; $sid "$@" 3>&- & echo $! >"$tmp/$sp.pid"; wait $!; }
interrupted() {
    still=
    k=0
    while [ $k -lt $n ]; do
        k=$((k + 1))
        eval "w=\${wrapper_$k-}"
        eval "[ -n \"\${ended_$k-}\" ]" && continue
        [ -n "$w" ] || continue
        eval "still=\"\$still \$name_$k\""
        kill "$w" 2>/dev/null
        [ -f "$tmp/$k.pid" ] && kill -s TERM -- "${sid:+-}$(cat "$tmp/$k.pid")" 2>/dev/null
    done
    [ -z "$still" ] || echo "tests/run.sh: interrupted; ended the tests still running:$still" >&2
    rm -rf "$tmp"
    trap - EXIT "$1"
    kill -s "$1" $$
}
trap 'interrupted INT' INT
trap 'interrupted TERM' TERM
trap 'interrupted HUP' HUP

# start I: test I in the background; it says on fd 3 (a fifo) that it has ended.
start() {
    eval "set -- \$1 \"\$name_$1\" \"\$how_$1\" \"\$path_$1\""
    (timed "$1" "$2" in_session "$1" $3 "$4"; echo "$1" >&3) &
    eval "wrapper_$1=\$!"
}
# ended: waits for the next test to end (its files are complete by then)
ended() {
    read -r e <&3
    eval "ended_$e=1"
    running=$((running - 1))
}
# flush: the ended tests' blocks up to the first one still running, whose name is shown while
# the run waits for it (a test that hangs shows as before)
shown=0 named=0
flush() {
    while [ $shown -lt $n ]; do
        f=$((shown + 1))
        [ $named = $f ] || { eval "echo \"== \$name_$f\""; named=$f; }
        eval "[ -n \"\${ended_$f-}\" ]" || return 0
        block $f
        shown=$f
    done
}

if [ $n -gt 0 ]; then
    mkfifo "$tmp/ended" && exec 3<>"$tmp/ended" || exit 1
    running=0
    for i in $order; do
        [ $running -lt "$jobs" ] || ended
        start $i
        running=$((running + 1))
        flush
    done
    while [ $running -gt 0 ]; do
        ended
        flush
    done
    exec 3>&-
    wait
fi

for t in tests/gpu/test_*.sh; do
    [ -f "$t" ] || continue
    case "$t" in
    */test_ncu_*) want "ncu full" || continue ;;
    *) want "gpu all full" || continue ;;
    esac
    name=$(basename "$t")
    n=$((n + 1))
    eval "name_$n=\$name"
    echo "== $name"
    timed $n "$name" sh "$t" "$build"
    block $n
done
if [ "$which" = all ]; then
    echo "(the comparisons with Nsight Compute, tests/gpu/test_ncu_*.sh, are not part of this set: make test-ncu, or make test-gpu, runs them)"
fi

passed=$(grep -c '^ok - ' "$log")
failed=$(grep -c '^FAIL - ' "$log")
skipped=$(grep -c '^skip - ' "$log")
if [ "$skipped" -gt 0 ]; then
    echo "skipped:"
    grep '^skip - ' "$log" | sed 's/^skip - /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || status=1
exit $status

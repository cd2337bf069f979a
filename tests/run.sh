#!/bin/sh
# Runs the test programs and scripts and counts their "ok/FAIL/skip" lines.
#   tests/run.sh BUILD [host|gpu|ncu|all|full]
# host: build/tests/test_* and tests/host/*.sh (no GPU needed). gpu: tests/gpu/test_*.sh but the ncu
# comparisons, which skip with the reason on a machine without a GPU. ncu: tests/gpu/test_ncu_*.sh,
# gemmprof's counters and launch facts against Nsight Compute (about 8 minutes on an H200). all
# (`make test`): host and gpu; full (`make test-gpu` adds ncu to gpu). Ends with
# "N passed, N failed, N skipped".
build=${1:-build}
which=${2:-all}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

run_one() {
    name=$1; shift
    echo "== $name"
    t0=$(date +%s)
    if ! "$@" >"$log.one" 2>&1; then crashed=1; else crashed=0; fi
    echo "  ($name: $(($(date +%s) - t0)) s)" >>"$log.one"
    cat "$log.one"
    cat "$log.one" >>"$log"
    # a program that failed without printing a FAIL line still counts as one failure
    if [ "$crashed" = 1 ] && ! grep -q '^FAIL - ' "$log.one"; then
        echo "FAIL - $name exited non-zero without reporting a failed check" | tee -a "$log"
    fi
    rm -f "$log.one"
}

case "$which" in host|gpu|ncu|all|full) ;; *) echo "tests/run.sh: unknown set '$which' (host, gpu, ncu, all, full)" >&2; exit 2 ;; esac
want() { case " $1 " in *" $which "*) return 0 ;; esac; return 1; }
if want "host all"; then
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        case "$t" in *.o|*.d) continue ;; esac
        run_one "$(basename "$t")" "$t"
    done
    for t in tests/host/test_*.sh; do
        [ -f "$t" ] || continue
        run_one "$(basename "$t")" sh "$t"
    done
fi
for t in tests/gpu/test_*.sh; do
    [ -f "$t" ] || continue
    case "$t" in
    */test_ncu_*) want "ncu full" || continue ;;
    *) want "gpu all full" || continue ;;
    esac
    run_one "$(basename "$t")" sh "$t" "$build"
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

#!/bin/sh
# Runs the test programs and scripts and counts their "ok/FAIL/skip" lines.
#   tests/run.sh BUILD [host|gpu|all]
# host: build/tests/test_* and tests/host/*.sh (no GPU needed). gpu: tests/gpu/*.sh, which skip with the
# reason on a machine without a GPU. Ends with "N passed, N failed, N skipped".
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

if [ "$which" != gpu ]; then
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
if [ "$which" != host ]; then
    for t in tests/gpu/test_*.sh; do
        [ -f "$t" ] || continue
        run_one "$(basename "$t")" sh "$t" "$build"
    done
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

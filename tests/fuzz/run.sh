#!/bin/sh
# Runs every fuzz target for its share of SECONDS and sums the results.
#   tests/fuzz/run.sh FUZZ_DIR SECONDS TARGET...
# FUZZ_DIR holds the built fuzz_<target> binaries; their corpora grow in FUZZ_DIR/corpus/
# (seeded from tests/data and tests/fuzz/seeds), anything found goes to FUZZ_DIR/artifacts/
# and each log to FUZZ_DIR/logs/. Prints the total case count, crashes, hangs (timeouts)
# and sanitizer reports; exits 1 when any of those is not zero.
set -u
dir=$1 seconds=$2
shift 2
n=$#
per=$((seconds / n))
[ "$per" -ge 1 ] || per=1
mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/logs"
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data

# seed corpus: the checked-in test data of each format
seed() {
    t=$1 c=$dir/corpus/$1
    mkdir -p "$c"
    case $t in
    csv|results) for f in "$data"/*/results.csv; do cp "$f" "$c/$(basename "$(dirname "$f")").csv"; done
                 [ "$t" = csv ] && for f in "$data"/*/ceilings.csv; do cp "$f" "$c/ceil-$(basename "$(dirname "$f")")"; done ;;
    json)        for f in "$data"/*/results.json; do cp "$f" "$c/$(basename "$(dirname "$f")").json"; done ;;
    ceilings)    for f in "$data"/*/ceilings.csv; do cp "$f" "$c/$(basename "$(dirname "$f")")"; done ;;
    dataset|summary) for d in "$data"/*/; do
                     name=$(basename "$d")
                     { cat "$d/results.csv" 2>/dev/null; printf '\0'; cat "$d/results.json" 2>/dev/null
                       printf '\0'; cat "$d/ceilings.csv" 2>/dev/null; } >"$c/$name"
                 done ;;
    cli)         cp "$here"/seeds/cli/* "$c/" ;;
    esac
}

total=0 crashes=0 hangs=0 reports=0 status=0
for t in "$@"; do
    seed "$t"
    log=$dir/logs/$t.log
    # -timeout: an input taking 10 s is a hang; -rss_limit_mb: unbounded memory is a finding
    "$dir/fuzz_$t" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 -max_len=131072 \
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/$t-" "$dir/corpus/$t" >"$log" 2>&1
    rc=$?
    cases=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cases=${cases:-0}
    h=$(grep -c 'ERROR: libFuzzer: timeout' "$log")
    r=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:' "$log")
    c=0
    if [ "$rc" -ne 0 ] && [ "$h" -eq 0 ]; then c=1; fi
    total=$((total + cases)) crashes=$((crashes + c)) hangs=$((hangs + h)) reports=$((reports + r))
    printf '  %-9s %10s cases in %ss  exit %s%s\n' "$t" "$cases" "$per" "$rc" \
        "$( [ "$rc" -ne 0 ] && echo "  (see $log)")"
    [ "$rc" -eq 0 ] || status=1
done
echo "fuzz: $total cases over $n targets in ${seconds}s; $crashes crashes, $hangs hangs, $reports sanitizer reports"
[ $((crashes + hangs + reports)) -eq 0 ] || status=1
exit $status

#!/bin/sh
# `gemmprof merge` through the binary: the verb's dispatch and its exit statuses on the
# recorded results/h200 (one rank), the same directory twice (duplicate rows) and a rank
# directory that does not exist (missing, kept going).
cd "$(dirname "$0")/../.." || exit 1
bin=${BUILD:-build}/gemmprof
[ -x "$bin" ] || { echo "FAIL - $bin not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if [ "$1" = "$2" ]; then echo "ok - $3"; else echo "FAIL - $3 (exit $1, want $2)"; fi; }

"$bin" merge "$tmp/one" results/h200 >"$tmp/out" 2>"$tmp/err"; rc=$?
check "$rc" 0 "merge of one rank directory exits 0"
if [ "$(head -1 "$tmp/one/results.csv" | tr ',' '\n' | grep -c '^host$\|^gpu_uuid$\|^rank$')" = 3 ]; then
    echo "ok - merged results.csv has host, gpu_uuid and rank columns"
else echo "FAIL - merged results.csv lacks host, gpu_uuid or rank"; fi
"$bin" report "$tmp/one" --no-plots >/dev/null 2>&1; check $? 0 "report renders the merged directory"

"$bin" merge "$tmp/dup" results/h200 results/h200 >/dev/null 2>"$tmp/err"; rc=$?
check "$rc" 2 "the same directory twice: duplicate rows, exit 2"
if [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'duplicate row' "$tmp/err"; then
    echo "ok - duplicate error is one line"; else echo "FAIL - duplicate error: $(cat "$tmp/err")"; fi
[ ! -e "$tmp/dup/results.csv" ] && echo "ok - nothing written on a duplicate" || echo "FAIL - results.csv written on a duplicate"

"$bin" merge "$tmp/miss" results/h200 "$tmp/no_such_rank" >/dev/null 2>"$tmp/err"; rc=$?
check "$rc" 3 "a missing rank directory: exit 3, the others merged"
grep -q 'missing: .*no_such_rank: no such directory' "$tmp/err" && echo "ok - the missing directory is listed" \
    || echo "FAIL - missing directory not listed: $(cat "$tmp/err")"
[ -s "$tmp/miss/results.csv" ] && echo "ok - the present rank's rows are kept" || echo "FAIL - no rows kept"

"$bin" merge >/dev/null 2>&1; check $? 2 "merge without arguments is a usage error"

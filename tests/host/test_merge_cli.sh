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

# Issue 24: OUT forgotten (`merge r0 r1`) made r0 the output and replaced its rows with r1's.
mkdir "$tmp/r0" "$tmp/r1"
cp results/h200/results.csv results/h200/results.json results/h200/ceilings.csv "$tmp/r0/"
cp results/h200/results.csv results/h200/ceilings.csv "$tmp/r1/"
sed 's/"hostname": "vm"/"hostname": "other"/' results/h200/results.json >"$tmp/r1/results.json"
cp "$tmp/r0/results.csv" "$tmp/r0.csv"
"$bin" merge "$tmp/r0" "$tmp/r1" >/dev/null 2>"$tmp/err"; rc=$?
check "$rc" 2 "merge r0 r1 (OUT forgotten): refused, exit 2"
if [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'already holds results.*--force' "$tmp/err"; then
    echo "ok - the refusal is one line naming the problem and --force"; else echo "FAIL - refusal: $(cat "$tmp/err")"; fi
cmp -s "$tmp/r0/results.csv" "$tmp/r0.csv" && echo "ok - r0's rows are untouched" || echo "FAIL - r0's results.csv was replaced"
"$bin" merge "$tmp/r0" "$tmp/r1" --force >/dev/null 2>&1; rc=$?
check "$rc" 0 "--force merges into r0"
grep -q ',other,' "$tmp/r0/results.csv" && ! grep -q ',vm,' "$tmp/r0/results.csv" \
    && echo "ok - --force replaced r0's rows with r1's" || echo "FAIL - --force did not replace r0's rows"

# Issue 24: a damaged world_size listed ~2^31 missing ranks into results.json.tmp.* (3.8 GB
# in 20 s). Run with a 64 MiB file size limit and a timeout, so a regression cannot fill the disk.
sed 's/"world_size": 1,/"world_size": 2147483647,/' results/h200/results.json >"$tmp/r1/results.json"
(ulimit -f 131072; timeout 60 "$bin" merge "$tmp/big" "$tmp/r1" >/dev/null 2>"$tmp/err"); rc=$?
check "$rc" 1 "world_size 2147483647: refused, exit 1"
if [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'world_size 2147483647 is above' "$tmp/err"; then
    echo "ok - the refusal is one line naming world_size"; else echo "FAIL - world_size refusal: $(cat "$tmp/err")"; fi
[ -z "$(ls -A "$tmp/big" 2>/dev/null)" ] && echo "ok - nothing written, no temporary file left" \
    || echo "FAIL - left in the output: $(ls "$tmp/big" | head -3)"

#!/bin/sh
# gemmprof report and plots, end to end, on hostile paths: a results directory named with
# shell code, and --out onto a FIFO and a symlink. Nothing may run, nothing may be replaced.
root=$(cd "$(dirname "$0")/../.." && pwd)
gp=$root/${BUILD:-build}/gemmprof
[ -x "$gp" ] || { echo "skip - hostile paths: $gp not built"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { if [ "$1" = 0 ]; then echo "ok - $2"; else echo "FAIL - $2"; fi; }

d="$T/i';touch PWNED;'"
mkdir -p "$d" "$T/cwd"
cp "$root/tests/data/h200_crafted/results.csv" "$d/"
cd "$T/cwd" || exit 1
GEMMPROF_PLOTS="$root/plots" "$gp" report "$d" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && [ -s "$d/report.md" ]; ok $? "report of a directory named i';touch PWNED;' is written (exit $rc)"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$d/sweep.png" ] && grep -q '](sweep.png)' "$d/report.md"; ok $? "its charts render and are linked"
else
    echo "skip - hostile paths: charts of the named directory: gnuplot not installed"
fi
GEMMPROF_PLOTS="$root/plots" "$gp" plots "$d" >/dev/null 2>&1
[ -z "$(find "$T" "$root" -maxdepth 3 -name PWNED 2>/dev/null)" ]; ok $? "no PWNED file anywhere: no path reached a shell"

mkfifo "$T/fifo.md"
"$gp" report "$d" --no-plots --out "$T/fifo.md" 2>"$T/err"; rc=$?
[ $rc = 1 ] && [ -p "$T/fifo.md" ] && grep -q "is a FIFO" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ]
ok $? "--out onto a FIFO: exit 1, one line naming it, the FIFO kept ($(cat "$T/err"))"

echo keep >"$T/target.md"
ln -s "$T/target.md" "$T/link.md"
"$gp" report "$d" --no-plots --out "$T/link.md" 2>"$T/err"; rc=$?
[ $rc = 1 ] && [ -L "$T/link.md" ] && [ "$(cat "$T/target.md")" = keep ] && grep -q "symbolic link" "$T/err"
ok $? "--out onto a symlink: exit 1, the link and its target kept"

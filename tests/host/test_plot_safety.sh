#!/bin/sh
# gemmprof plots and report against a hostile or failing environment, end to end on the
# recorded H200 run: links planted at the temporary names of the charts, chart scripts
# brought by the results directory, a gnuplot that writes half a chart and exits 0, and
# SIGTERM or SIGKILL in the middle of a chart. Nothing may be written through a link, run
# from the working directory, published half-written, or left behind.
root=$(cd "$(dirname "$0")/../.." && pwd)
gp=$root/${BUILD:-build}/gemmprof
[ -x "$gp" ] || { echo "skip - plot safety: $gp not built"; exit 0; }
command -v gnuplot >/dev/null 2>&1 || { echo "skip - plot safety: gnuplot not installed"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { if [ "$1" = 0 ]; then echo "ok - $2"; else echo "FAIL - $2"; fi; }
unset GEMMPROF_PLOTS
results() {   # a fresh copy of the recorded run in $1
    mkdir -p "$1" && cp "$root"/results/h200/results.csv "$root"/results/h200/results.json \
        "$root"/results/h200/ceilings.csv "$1"/
}
# temporary files of a render: the names before private directories, and the directories
leftovers() { ls -A "$1" | grep -E '^\.(points_|roofline_|sweep|bytes|issue_|stalls)|\.tmp|^\.gemmprof-tmp\.' ; }
# a process that still runs (a zombie waiting for its reaper does not)
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }

# -- links planted at the PID-named temporary files; the shell's PID is gemmprof's after exec
r=$T/links
results "$r"
SHAPES=$(awk -F, 'NR > 1 { print $3 "x" $4 "x" $5 }' "$r/results.csv" | sort -u)
export SHAPES
sh -c 'd=$1 v=$2; shift 2
       for c in roofline_dram roofline_hier sweep bytes issue_roofline; do
           for e in png svg; do ln -s "$v.$c.$e" "$d/.$c.tmp$$.$e"; done
       done
       for s in dram $SHAPES; do ln -s "$v.points_$s" "$d/.points_$s.tmp$$.csv"; done
       exec "$@"' sh "$r" "$T/victim" "$gp" plots "$r" >"$T/out" 2>"$T/err"
rc=$?
[ -z "$(ls "$T" | grep victim)" ]
ok $? "no file written through a link planted at a chart's temporary name ($(ls "$T" | grep victim | head -3 | tr '\n' ' '))"
[ $rc = 0 ] && [ -f "$r/roofline_dram.png" ] && [ ! -L "$r/roofline_dram.png" ] && [ -f "$r/sweep.svg" ] &&
    [ ! -L "$r/sweep.svg" ]
ok $? "the planted links stop no chart: exit $rc, regular files published ($(head -c 300 "$T/err"))"

# -- chart scripts in the working directory are never run
r=$T/evil
results "$r"
mkdir -p "$r/plots"
cp "$root"/plots/*.gp "$root"/plots/charts.def "$r/plots/"
echo "system \"touch '$T/PWNED'\"" >>"$r/plots/common.gp"
(cd "$r" && "$gp" report . >"$T/out" 2>"$T/err"); rc=$?
[ ! -e "$T/PWNED" ] && [ $rc = 0 ] && [ -s "$r/sweep.png" ]
ok $? "report . in a directory with its own plots/common.gp: its script never runs, charts from the installed ones (exit $rc)"

mkdir -p "$T/bin" "$T/empty"
cp "$gp" "$T/bin/gemmprof"
(cd "$T/empty" && "$T/bin/gemmprof" plots "$r" >"$T/out" 2>"$T/err"); rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "searched $T/share/gemmprof/plots, $T/plots" "$T/err" &&
    grep -q GEMMPROF_PLOTS "$T/err"
ok $? "an executable with no plots/ beside it: exit $rc, one line naming the directories searched ($(cat "$T/err"))"
(cd "$T/empty" && GEMMPROF_PLOTS="$root/plots" "$T/bin/gemmprof" plots "$r" >/dev/null 2>"$T/err"); rc=$?
[ $rc = 0 ]
ok $? "GEMMPROF_PLOTS, set explicitly, still names the scripts (exit $rc $(head -c 200 "$T/err"))"

# -- a gnuplot that cannot write the whole chart (a full disk) and still exits 0
mkdir -p "$T/fake"
cat >"$T/fake/gnuplot" <<'EOF'
#!/bin/sh
# gnuplot -c SCRIPT DATA ROOFS OUTBASE ...: the start of each chart, then the disk is full
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' >"$5.png"
printf '<?xml version="1.0"?>\n<svg width="600" height="480">\n<path d="M 10 20' >"$5.svg"
if [ -n "$FAKE_WHOLE" ]; then
    printf '\0\0\0\0IEND\256B`\202' >>"$5.png"
    printf '"/>\n</svg>\n' >>"$5.svg"
fi
exit 0
EOF
chmod +x "$T/fake/gnuplot"
r=$T/full
results "$r"
PATH="$T/fake:$PATH" "$gp" plots "$r" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] && [ ! -e "$r/sweep.svg" ] && [ ! -e "$r/sweep.png" ] && [ ! -e "$r/roofline_dram.png" ] &&
    grep -q "sweep FAILED: .*png is cut short" "$T/err" && [ -z "$(leftovers "$r")" ]
ok $? "charts cut short are refused: exit $rc, none published, nothing left ($(grep sweep "$T/err" | head -c 300))"
FAKE_WHOLE=1 PATH="$T/fake:$PATH" "$gp" plots "$r" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && [ -s "$r/sweep.svg" ] && [ -s "$r/sweep.png" ]
ok $? "the same fake gnuplot writing whole files passes: the check tells the two apart (exit $rc)"

# -- stopped in the middle of a chart
cat >"$T/fake/gnuplot" <<'EOF'
#!/bin/sh
# half a chart, then it hangs, as gnuplot does on a slow or full disk
printf '\211PNG\r\n\032\n' >"$5.png"
echo $$ >"$GP_PID_FILE"
exec sleep 60
EOF
wait_for() { i=0; while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done; [ -s "$1" ]; }
for sig in TERM KILL; do
    r=$T/sig$sig
    results "$r"
    export GP_PID_FILE="$T/gnuplot.$sig.pid"
    PATH="$T/fake:$PATH" "$gp" plots "$r" >/dev/null 2>&1 &
    pid=$!
    if ! wait_for "$GP_PID_FILE"; then
        echo "FAIL - SIG$sig: the fake gnuplot never started"
        kill -KILL $pid 2>/dev/null
        continue
    fi
    kill -$sig $pid
    wait $pid; rc=$?
    child=$(cat "$GP_PID_FILE")
    i=0; while alive "$child" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    if alive "$child"; then
        echo "FAIL - SIG$sig: gnuplot (pid $child) still runs after gemmprof died (exit $rc)"
        kill -KILL "$child"
    else
        echo "ok - SIG$sig: gnuplot stopped with gemmprof (exit $rc)"
    fi
    if [ $sig = TERM ]; then
        [ $rc = 143 ] && [ -z "$(leftovers "$r")" ]
        ok $? "SIGTERM mid-chart: exit $rc, no temporary file left ($(leftovers "$r" | tr '\n' ' '))"
    else
        [ "$(leftovers "$r" | grep -c '^\.gemmprof-tmp\.')" = 1 ] && [ -z "$(leftovers "$r" | grep -v '^\.gemmprof-tmp\.')" ]
        ok $? "SIGKILL mid-chart leaves one private directory, nothing else ($(leftovers "$r" | tr '\n' ' '))"
        "$gp" plots "$r" >/dev/null 2>&1; rc=$?
        [ $rc = 0 ] && [ -z "$(leftovers "$r")" ]
        ok $? "the next render removes the dead run's directory (exit $rc, left: $(leftovers "$r" | tr '\n' ' '))"
    fi
done

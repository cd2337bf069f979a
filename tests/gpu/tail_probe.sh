#!/bin/bash
# tailsplit on the H200 in one call (issue 12): build, correctness at odd shapes with the
# rule's cut and forced cuts, memcheck and racecheck, then dbuf, tailsplit and cuBLAS SGEMM
# at 4096^3 and 8192^3 for each forced number of pieces per tail tile
# (GEMMPROF_TAIL_SPLIT; "rule" leaves it unset). Logs and a summary table under
# $OUT/work/tail/, packed into $OUT/bundle.tgz.
#   tests/gpu/tail_probe.sh [splits...]     (default: rule 1 2 3 4 6 8 12 16)
set -u
OUT=${OUT:-/tmp/gemmprof-out}
W=$OUT/work/tail
mkdir -p "$W"
rev=(); [ -f .gitrev ] && rev=(GIT_REV="$(cat .gitrev)")
stamp() { echo "[$(date +%T)] $*"; }
G=build/gemmprof
splits=${*:-rule 1 2 3 4 6 8 12 16}

stamp build
make -j16 "${rev[@]}" >"$W/build.log" 2>&1 || { tail -30 "$W/build.log"; echo BUILD FAILED; exit 1; }

stamp "odd shapes"
odd=1x1x1,17x33x65,300x520x200,1000x1500x700,1023,2049,64x2048x32,2048x64x4096,4224x4096x4096,4100x4100x333
for s in rule 2 3 7; do
    if [ "$s" = rule ]; then unset GEMMPROF_TAIL_SPLIT; else export GEMMPROF_TAIL_SPLIT=$s; fi
    $G -k tailsplit,dbuf -s "$odd" -r 2 -w 1 --no-counters --no-ceilings --no-report -o "$W/odd-$s" >"$W/odd-$s.log" 2>&1
    echo "split $s: exit $? $(grep -c ',ok,' "$W/odd-$s/results.csv") ok rows of 20"
    cut -d, -f1,3-6,9,24 "$W/odd-$s/results.csv" | grep tailsplit | tr '\n' ';'; echo
done
unset GEMMPROF_TAIL_SPLIT

stamp sanitizers
for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 $G -k tailsplit -s 17x33x65,130x67x45,300x520x200,700x900x333 \
        -r 1 -w 0 --no-ceilings --no-report --no-flush -o "$W/$tool" >"$W/$tool.log" 2>&1
    echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$W/$tool.log" | tail -1)"
done

stamp timing
for s in $splits; do
    if [ "$s" = rule ]; then unset GEMMPROF_TAIL_SPLIT; else export GEMMPROF_TAIL_SPLIT=$s; fi
    $G -k dbuf,tailsplit,cublas -s 4096,8192 --no-counters --no-report -o "$W/t-$s" >"$W/t-$s.log" 2>&1
    echo "split $s: exit $?"
done
unset GEMMPROF_TAIL_SPLIT
python3 - "$W" $splits <<'PY' | tee "$W/summary.txt"
import csv, sys, os
w = sys.argv[1]
print(f"{'split':>5} {'shape':>6} {'dbuf TF':>8} {'tail TF':>8} {'cuBLAS':>8} {'dbuf %':>7} {'tail %':>7}  config")
for s in sys.argv[2:]:
    f = os.path.join(w, f"t-{s}", "results.csv")
    if not os.path.exists(f):
        print(f"{s:>5} no results"); continue
    rows = {(r["variant"], r["m"]): r for r in csv.DictReader(open(f))}
    for m in ("4096", "8192"):
        g = lambda v: float(rows[(v, m)]["flop_per_s"]) / 1e12 if (v, m) in rows and rows[(v, m)]["flop_per_s"] else float("nan")
        d, t, c = g("dbuf"), g("tailsplit"), g("cublas")
        cfg = rows.get(("tailsplit", m), {}).get("config", "")
        print(f"{s:>5} {m:>6} {d:8.2f} {t:8.2f} {c:8.2f} {100*d/c:6.1f}% {100*t/c:6.1f}%  {cfg}")
PY
stamp done
tar czf "$OUT/bundle.tgz" -C "$OUT/work" tail

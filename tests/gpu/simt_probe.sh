#!/bin/sh
# The SIMT ladder on a GPU in about two minutes, for a person to read (not a make-test
# script: tests/run.sh runs tests/gpu/test_*.sh only).
#   tests/gpu/simt_probe.sh [BUILD] [DIR]      (DIR default: $OUT/simt_probe or a temp dir)
# 1. swizzle, bigtile, simt_auto, warptile and cuBLAS at the issue's shapes: TFLOP/s and %
#    of cuBLAS per shape, and the plan simt_auto ran;
# 2. the tuner at 2048^3 and 1000x1500x700: the rule's pick against the best plans;
# 3. compute-sanitizer memcheck and racecheck on the new variants at odd shapes (scalar and
#    16-byte paths, with and without split-K), and on every tuner plan at two small shapes.
# Every step runs whatever the previous one did; full logs and CSVs stay in DIR.
BUILD=${1:-build}
DIR=${2:-${OUT:-$(mktemp -d)}/simt_probe}
G=$BUILD/gemmprof
NEW=swizzle,bigtile,simt_auto
mkdir -p "$DIR"
[ -x "$G" ] || { echo "no $G: run make first"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>/dev/null |
    sed 's/^/gpu: /'
echo "logs and CSVs: $DIR"

# prints "TFLOP/s (% of cuBLAS)" per variant x shape from a results.csv, and simt_auto's plans
summarize() {
    python3 - "$1" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
shapes, variants = [], []
for r in rows:
    s = "%sx%sx%s" % (r["m"], r["n"], r["k"])
    if s not in shapes: shapes.append(s)
    if r["variant"] not in variants: variants.append(r["variant"])
cell = {("%sx%sx%s" % (r["m"], r["n"], r["k"]), r["variant"]): r for r in rows}
def tf(r):
    try: return float(r["flop_per_s"]) / 1e12 if r["status"] == "ok" else None
    except (ValueError, KeyError): return None
print("%-16s" % "TFLOP/s (%cuBLAS)" + "".join("%17s" % v for v in variants))
for s in shapes:
    ref = tf(cell.get((s, "cublas"), {"status": ""})) if (s, "cublas") in cell else None
    line = "%-16s" % s
    for v in variants:
        r = cell.get((s, v))
        t = tf(r) if r else None
        if t is None:
            line += "%17s" % (r["status"] if r else "-")
        elif ref and v != "cublas":
            line += "%17s" % ("%.2f (%3.0f%%)" % (t, 100 * t / ref))
        else:
            line += "%17s" % ("%.2f" % t)
    print(line)
def facts(r):
    def num(c):
        try: return "%g" % float(r.get(c, ""))
        except ValueError: return "-"
    return "regs %s, %s blocks/SM (%s), %s waves" % (num("registers_per_thread"), num("blocks_per_sm"),
                                                    r.get("occupancy_limiter", "") or "-", num("waves"))
for s in shapes:
    r = cell.get((s, "simt_auto"))
    if r: print("  simt_auto %-16s %-36s %s" % (s, r.get("config", ""), facts(r)))
for v in ("swizzle", "bigtile", "warptile"):
    r = cell.get((shapes[0], v)) if shapes else None
    if r: print("  %-9s %-16s %-36s %s" % (v, shapes[0], r.get("config", ""), facts(r)))
for r in rows:
    if r["status"] != "ok":
        print("  FAILED %s %sx%sx%s: %s %s" % (r["variant"], r["m"], r["n"], r["k"], r["status"], r["error"]))
EOF
}

# the pick, the best plans and where the pick stands, from a tune.csv
tune_summary() {
    python3 - "$1" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = [r for r in rows if r["status"] == "ok"]
ok.sort(key=lambda r: float(r["time_median_s"]))
pick = [r for r in rows if r["picked"] == "1"]
def show(tag, r):
    print("  %-5s %-36s %8.2f TFLOP/s %6.1f%% of best  model %.4f ms  measured %.4f ms" % (
        tag, r["config"], float(r["flop_per_s"]) / 1e12, float(r["pct_of_best"]),
        1e3 * float(r["model_s"]), 1e3 * float(r["time_median_s"])))
for i, r in enumerate(ok[:5]):
    show("#%d" % (i + 1), r)
for r in pick:
    if r["status"] == "ok":
        show("pick", r)
        print("  the pick ranks %d of %d plans" % (ok.index(r) + 1, len(ok)))
    else:
        print("  pick %s: %s" % (r["config"], r["status"]))
bad = [r for r in rows if r["status"] != "ok"]
for r in bad:
    print("  FAILED %s: %s" % (r["config"], r["status"]))
EOF
}

t0=$(date +%s)
echo "== 1. sweep (-r 5, L2 flushed)"
if $G -k $NEW,warptile,cublas -s 4096,8192,1024,1000x1500x700,8192x64x4096,2048 -r 5 --no-counters \
        --no-ceilings --no-report -o "$DIR/sweep" >"$DIR/sweep.log" 2>&1; then :; else
    echo "  gemmprof exited $? (see $DIR/sweep.log)"; tail -3 "$DIR/sweep.log" | sed 's/^/  /'
fi
[ -f "$DIR/sweep/results.csv" ] && summarize "$DIR/sweep/results.csv"

for shape in 2048 1000x1500x700; do
    echo "== 2. tune $shape (-r 5)"
    if $G --tune $shape -r 5 -o "$DIR/tune_$shape" >"$DIR/tune_$shape.txt" 2>"$DIR/tune_$shape.log"; then :; else
        echo "  gemmprof --tune exited $? (see $DIR/tune_$shape.log)"; tail -3 "$DIR/tune_$shape.log" | sed 's/^/  /'
    fi
    [ -f "$DIR/tune_$shape/tune.csv" ] && tune_summary "$DIR/tune_$shape/tune.csv"
done
echo "  (whole tables: $DIR/tune_*.txt)"

echo "== 3. compute-sanitizer"
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "  compute-sanitizer not found"
else
    # 67x45x33, 130x129x17: 4-byte paths, no split; 33x65x1000: 4-byte path with split-K;
    # 132x68x300: 16-byte path, ragged tiles, split-K (simt_auto's picks at these shapes)
    for tool in memcheck racecheck; do
        for what in "-k $NEW -s 67x45x33,130x129x17,33x65x1000,132x68x300" "--tune 132x68x300" "--tune 67x45x199"; do
            name=$(echo "$tool $what" | tr -c 'a-zA-Z0-9\n' _)
            timeout 45 compute-sanitizer --tool $tool --error-exitcode 9 $G $what -r 1 -w 0 --no-flush --no-counters \
                --no-ceilings --no-report -o "$DIR/san" >"$DIR/$name.log" 2>&1
            rc=$?
            summary=$(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$DIR/$name.log" | tail -1)
            plans=$(grep -c "^gemmprof: tune .*: ok" "$DIR/$name.log")
            [ "$plans" -gt 0 ] && summary="$summary; $plans plans ok"
            printf "  %-9s %-56s rc=%s %s\n" "$tool" "$what" "$rc" "${summary:-no summary (see $DIR/$name.log)}"
        done
    done
fi
echo "== done in $(( $(date +%s) - t0 )) s"

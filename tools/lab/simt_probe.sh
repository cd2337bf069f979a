#!/bin/sh
# The SIMT ladder on a GPU in about two minutes, for a person to read (not a make-test
# script: tests/run.sh runs tests/gpu/test_*.sh only).
#   tools/lab/simt_probe.sh [BUILD] [DIR]      (DIR default: $OUT/simt_probe or a temp dir)
# 1. swizzle, bigtile, dbuf, simt_auto, warptile and cuBLAS at the issue's shapes: TFLOP/s
#    and % of cuBLAS per shape, and the plan simt_auto ran;
# 2. the tuner at 4096^3 and 8192^3 (-r 3: the candidates for the 95% goal; each row's
#    "eff" is the number to copy into kernels/simt_configs.def) and at 2048^3 and
#    1000x1500x700 (-r 5): the 8 best plans with registers and blocks per SM, the rule's
#    pick, and warptile, bigtile, dbuf and cuBLAS timed beside them;
# 3. compute-sanitizer memcheck and racecheck on what changed (dbuf, simt_auto, the
#    transposed-A configurations "t*" through the tuner) at odd shapes: scalar and 16-byte
#    paths, with and without split-K.
# Every step runs whatever the previous one did; full logs and CSVs stay in DIR.
BUILD=${1:-build}
DIR=${2:-${OUT:-$(mktemp -d)}/simt_probe}
G=$BUILD/gemmprof
NEW=dbuf,simt_auto
mkdir -p "$DIR" "$DIR/sweep" "$DIR/san"
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
for v in ("swizzle", "bigtile", "dbuf", "warptile"):
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
    print("  %-5s %-39s regs %3s %s/SM %7.2f TFLOP/s %6.1f%% of best  eff %.3f  model %.4f ms  measured %.4f ms" % (
        tag, r["config"], r["registers"], r["blocks_per_sm"], float(r["flop_per_s"]) / 1e12,
        float(r["pct_of_best"]), float(r["eff"]), 1e3 * float(r["model_s"]), 1e3 * float(r["time_median_s"])))
for i, r in enumerate(ok[:8]):
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
if timeout 90 $G -k swizzle,bigtile,$NEW,warptile,cublas -s 4096,8192,2048,1024,1000x1500x700,8192x64x4096 -r 5 --no-counters \
        --no-ceilings --no-report -o "$DIR/sweep" >"$DIR/sweep.log" 2>&1; then :; else
    echo "  gemmprof exited $? (see $DIR/sweep.log)"; tail -3 "$DIR/sweep.log" | sed 's/^/  /'
fi
[ -f "$DIR/sweep/results.csv" ] && summarize "$DIR/sweep/results.csv"

for spec in "4096 3" "8192 3" "2048 5" "1000x1500x700 5"; do
    set -- $spec
    shape=$1 reps=$2
    echo "== 2. tune $shape (-r $reps)"
    if timeout 60 $G --tune $shape -r $reps -o "$DIR/tune_$shape" >"$DIR/tune_$shape.txt" 2>"$DIR/tune_$shape.log"; then :; else
        echo "  gemmprof --tune exited $? (see $DIR/tune_$shape.log)"; tail -3 "$DIR/tune_$shape.log" | sed 's/^/  /'
    fi
    [ -f "$DIR/tune_$shape/tune.csv" ] && tune_summary "$DIR/tune_$shape/tune.csv"
    grep "(variant" "$DIR/tune_$shape.txt" | sed 's/^ */  /'
done
echo "  (whole tables: $DIR/tune_*.txt)"

echo "== 3. compute-sanitizer"
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "  compute-sanitizer not found"
else
    # 67x45x33, 130x129x17: 4-byte paths, no split; 33x65x1000: 4-byte path with split-K;
    # 132x68x300: 16-byte path, ragged tiles, split-K; 130x132x77: transposed A with
    # 16-byte B copies and an odd k. The tuner runs every transposed-A configuration
    # (GEMMPROF_TUNE_ONLY=t), each with its splits; the k-major ones are unchanged since
    # the H200 run of 4843d78 (clean there).
    for tool in memcheck racecheck; do
        for what in "-k $NEW -s 67x45x33,130x129x17,33x65x1000,132x68x300,130x132x77" "--tune 132x68x300" \
                "--tune 67x45x199"; do
            name=$(echo "$tool $what" | tr -c 'a-zA-Z0-9\n' _)
            GEMMPROF_TUNE_ONLY=t timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $G $what -r 1 -w 0 \
                --no-flush --no-counters --no-ceilings --no-report -o "$DIR/san" >"$DIR/$name.log" 2>&1
            rc=$?
            summary=$(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$DIR/$name.log" | tail -1)
            plans=$(grep -c "^gemmprof: tune .*: ok" "$DIR/$name.log")
            [ "$plans" -gt 0 ] && summary="$summary; $plans plans ok"
            printf "  %-9s %-56s rc=%s %s\n" "$tool" "$what" "$rc" "${summary:-no summary (see $DIR/$name.log)}"
        done
    done
fi
echo "== done in $(( $(date +%s) - t0 )) s"

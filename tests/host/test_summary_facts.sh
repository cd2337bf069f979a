#!/bin/sh
# The report's first screen, fact-checked: every number of its ladder table (TFLOP/s,
# % of cuBLAS, x the row above) and of the seed's question (the speedup, the bytes per FMA
# at each kernel's binding level) recomputed from results.csv alone (2mnk / median time,
# the bytes_* columns) and compared at the 3 significant digits the report prints. Run on
# the recorded H200 run; then on a copy with one time edited, where it must fail.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "skip - summary fact-check: python3 not found"; exit 0; }
build=${BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

check() {   # DIR REPORT: prints the mismatches, nothing when every number agrees
python3 - "$1/results.csv" "$2" <<'PY'
import csv, math, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok" and float(r["time_median_s"] or 0) > 0]
text = open(sys.argv[2]).read()
summ = text.split("## Summary", 1)[1].split("\n## ", 1)[0]
def sig3(x):
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.3g}")
def close(a, b):
    return abs(sig3(a) - b) <= 1e-9 * max(1, abs(b)) or abs(a - b) <= 0.0051 * abs(b)
bad = []
def tfl(r):
    return 2 * int(r["m"]) * int(r["n"]) * int(r["k"]) / float(r["time_median_s"]) / 1e12
m = re.search(r"\*\*The ladder at (\d+)x(\d+)x(\d+)\*\*", summ)
shape = m.groups()
at = [r for r in rows if (r["m"], r["n"], r["k"]) == shape]
cub = {p: next((r for r in at if r["variant"] == ("cublas" if p == "fp32" else "cublas_tf32")), None) for p in ("fp32", "tf32")}
prev = None
n = 0
for line in summ.split("\n"):
    c = [x.strip() for x in line.strip().strip("|").split("|")]
    if len(c) != 6 or not c[0].startswith("`"):
        continue
    name, prec = c[0].strip("`"), c[1]
    r = next(x for x in at if x["variant"] == name)
    v = tfl(r)
    n += 1
    if not close(v, float(c[2])):
        bad.append(f"{name}: TFLOP/s {c[2]} in the report, {v:.4g} from results.csv")
    cb = cub.get(prec)
    if c[3] != "-" and (cb is None or not close(100 * v / tfl(cb), float(c[3].rstrip("%")))):
        bad.append(f"{name}: % of cuBLAS {c[3]}, results.csv gives {100 * v / tfl(cb):.4g}%")
    if c[4] != "-" and not close(v / prev, float(c[4])):
        bad.append(f"{name}: x the row above {c[4]}, results.csv gives {v / prev:.4g}")
    prev = v
m = re.search(r"\*\*Why (\w+) is only ([0-9.]+)x faster than (\w+) at (\d+)\^3\*\*.*?is bound by ([\w ]+?) \(([0-9.]+) B per FMA.*?is bound by ([\w ]+?) \(([0-9.]+) B per FMA", summ, re.S)
if m:
    imp, ratio, base, size, la, ba, lb, bb = m.groups()
    col = {"DRAM": "bytes_dram", "L2": "bytes_l2", "L1": "bytes_l1", "shared memory": "bytes_shared"}
    sq = lambda v: next(x for x in rows if x["variant"] == v and x["m"] == x["n"] == x["k"] == size)
    a, b = sq(base), sq(imp)
    got = float(a["time_median_s"]) / float(b["time_median_s"])
    if not close(got, float(ratio)):
        bad.append(f"seed: speedup {ratio}, results.csv gives {got:.4g}")
    for r, lvl, val in ((a, la, ba), (b, lb, bb)):
        per = float(r[col[lvl]]) / (int(r["m"]) * int(r["n"]) * int(r["k"]))
        if not close(per, float(val)):
            bad.append(f"seed: {r['variant']} {val} B per FMA at {lvl}, results.csv gives {per:.4g}")
    n += 1
print(f"checked {n}")
for x in bad:
    print(x)
PY
}

$build/gemmprof report results/h200 --out "$tmp/r.md" --no-plots >/dev/null 2>&1
out=$(check results/h200 "$tmp/r.md")
nchk=$(echo "$out" | head -1 | awk '{print $2}')
if [ "$(echo "$out" | wc -l)" = 1 ] && [ "${nchk:-0}" -gt 10 ]; then
    echo "ok - the summary's $nchk ladder rows and the seed's figures agree with results.csv (results/h200)"
else
    echo "FAIL - summary fact-check: $(echo "$out" | tail -n +2 | head -5 | tr '\n' ';')"
fi
# a report rendered from other data than the CSV it is checked against must fail
mkdir "$tmp/d"
cp results/h200/results.json results/h200/ceilings.csv "$tmp/d/"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time_median_s") t = i; print; next }
         $1 == "dbuf" && $3 == 8192 { $t = $t * 1.1 } { print }' OFS=, results/h200/results.csv >"$tmp/d/results.csv"
out=$(check "$tmp/d" "$tmp/r.md")
case "$out" in
*dbuf*) echo "ok - the fact-check fails when dbuf's 8192^3 time differs by 10%: $(echo "$out" | sed -n 2p)" ;;
*) echo "FAIL - the fact-check missed a 10% change of dbuf's time: $out" ;;
esac

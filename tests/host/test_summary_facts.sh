#!/bin/sh
# The report's first screen, fact-checked: every number of its ladder table (TFLOP/s,
# % of cuBLAS, x the row above), of the seed's question (the speedup, the bytes per FMA
# at each kernel's binding level) and of the physical story (register tiling: shared bytes
# per FMA, registers, the caps they set; tensor cores: the ceilings and their ratio, the
# bytes per FMA shared memory serves at the tensor rate, the best kernels of each family,
# their bytes, binding level, tensor operations per FLOP and errors) recomputed from
# results.csv and ceilings.csv alone (2mnk / median time, the bytes_* and bound_level
# columns, the ceilings scaled to each row's SM clock as the roofs are) and compared at the
# 3 significant digits the report prints. The story is checked in report.md and in the
# README's block (`gemmprof report DIR --summary`). Run on the recorded H200 run; then on
# copies with one value edited by 10%, where it must fail each time.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "skip - summary fact-check: python3 not found"; exit 0; }
build=${BUILD:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

check() {   # DIR TEXT: "checked N", then the mismatches, nothing more when every number agrees
python3 - "$1" "$2" <<'PY'
import csv, math, re, sys
d, path = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(d + "/results.csv")) if r["status"] == "ok" and float(r["time_median_s"] or 0) > 0]
ceil = {c["id"]: c for c in csv.DictReader(open(d + "/ceilings.csv"))}
text = open(path).read()
summ = text.split("## Summary", 1)[1].split("\n## ", 1)[0] if "## Summary" in text else text
paras = [p.replace("\n", " ") for p in summ.split("\n\n")]
def sig3(x):
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.3g}")
def close(a, b):
    return abs(sig3(a) - b) <= 1e-9 * max(1, abs(b)) or abs(a - b) <= 0.0051 * abs(b)
bad = []
n = 0
def expect(what, got, printed):
    global n
    n += 1
    if not close(got, float(printed)):
        bad.append(f"{what}: {printed} in the report, {got:.4g} from the CSVs")
def fl(x):
    try:
        return float(x)
    except ValueError:
        return math.nan
def tfl(r):
    return 2 * int(r["m"]) * int(r["n"]) * int(r["k"]) / float(r["time_median_s"]) / 1e12
def fmas(r):
    return int(r["m"]) * int(r["n"]) * int(r["k"])
def per_fma(r, lvl):
    return fl(r["bytes_" + lvl]) / fmas(r)
def measured(cid):
    return float(ceil[cid]["measured"])
def at_clock(cid, r):   # an SM's own ceiling (shared memory, L1, the pipes) at the row's clock
    f = fl(r["sm_clock_hz"]) / fl(ceil[cid]["sm_clock_hz"])
    return measured(cid) * (f if math.isfinite(f) and f > 0 else 1)
TENSOR = "sm__ops_path_tensor_src_tf32_dst_fp32.sum"
def tensor_per_flop(r):
    return fl(r.get(TENSOR, "")) / (2 * fmas(r))
def kind(r):            # analysis/story.c's families of hand-written kernels
    if r["variant"].startswith("cublas"):
        return "lib"
    if r["precision"] in ("bf16", "fp16"):
        return "16bit"  # not in the TF32 story
    if not fl(r.get(TENSOR, "")) > 0 and r["precision"] != "tf32":
        return "simt"
    return "3x" if tensor_per_flop(r) > 1.05 else "tf32"
BASELINE = {"fp32": "cublas", "tf32": "cublas_tf32", "bf16": "cublas_bf16", "fp16": "cublas_fp16"}
LEVEL = {"dram": "DRAM", "l2": "L2", "l1": "L1", "shared": "shared memory", "compute": "compute"}

# the ladder table
m = re.search(r"\*\*The ladder at (\d+)x(\d+)x(\d+)\*\*", summ)
if m:
    shape = m.groups()
    at = [r for r in rows if (r["m"], r["n"], r["k"]) == shape]
    cub = {p: next((r for r in at if r["variant"] == v), None) for p, v in BASELINE.items()}
    prev = None
    for line in summ.split("\n"):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) != 6 or not c[0].startswith("`"):
            continue
        name, prec = c[0].strip("`"), c[1]
        r = next(x for x in at if x["variant"] == name)
        v = tfl(r)
        expect(f"{name}: TFLOP/s", v, c[2])
        cb = cub.get(prec)
        if c[3] != "-":
            expect(f"{name}: % of cuBLAS", 100 * v / tfl(cb) if cb else math.nan, c[3].rstrip("%"))
        if c[4] != "-":
            expect(f"{name}: x the row above", v / prev, c[4])
        prev = v
# the seed's question
m = re.search(r"\*\*Why (\w+) is only ([0-9.]+)x faster than (\w+) at (\d+)\^3\*\*.*?is bound by ([\w ]+?) \(([0-9.]+) B per FMA.*?is bound by ([\w ]+?) \(([0-9.]+) B per FMA", summ, re.S)
if m:
    imp, ratio, base, size, la, ba, lb, bb = m.groups()
    col = {v: k for k, v in LEVEL.items()}
    sq = lambda v: next(x for x in rows if x["variant"] == v and x["m"] == x["n"] == x["k"] == size)
    a, b = sq(base), sq(imp)
    expect("seed: speedup", float(a["time_median_s"]) / float(b["time_median_s"]), ratio)
    for r, lvl, val in ((a, la, ba), (b, lb, bb)):
        expect(f"seed: {r['variant']} B per FMA at {lvl}", per_fma(r, col[lvl]), val)
# why register tiling pays
p = next((p for p in paras if p.startswith("**Why register tiling is what pays:**")), None)
if p:
    m = re.search(r"ladder at (\d+)x(\d+)x(\d+) the shared-memory bytes per FMA fall from (.*?), so the cap "
                  r"shared memory sets rises from (.*?) TFLOP/s(?:; at `(\w+)` it passes the FP32 FMA ceiling "
                  r"\(([0-9.]+) TFLOP/s\), and `\w+` is bound by ([\w ]+)\.)?", p)
    if not m:
        bad.append("register tiling: the paragraph does not read as expected")
    else:
        at = {r["variant"]: r for r in rows if (r["m"], r["n"], r["k"]) == m.group(1, 2, 3)}
        steps = re.findall(r"([0-9.e+-]+) \(`(\w+)`(?:, (\d+)(?: registers a thread)?)?\)", m[4])
        caps = re.findall(r"[0-9.]+", m[5])
        if len(steps) < 2 or len(caps) != len(steps):
            bad.append(f"register tiling: {len(steps)} steps and {len(caps)} caps")
        for (b, v, regs), cap in zip(steps, caps):
            r = at[v]
            expect(f"register tiling: {v} shared B per FMA", per_fma(r, "shared"), b)
            if regs and int(regs) != round(fl(r["registers_per_thread"])):
                bad.append(f"register tiling: {v} {regs} registers, results.csv {r['registers_per_thread']}")
            n += bool(regs)
            expect(f"register tiling: {v} shared-memory cap", 2 * at_clock("shared", r) / per_fma(r, "shared") / 1e12, cap)
        if m[6]:
            expect("register tiling: FP32 FMA ceiling", measured("fp32_fma") / 1e12, m[7])
            if LEVEL[at[m[6]]["bound_level"]] != m[8]:
                bad.append(f"register tiling: {m[6]} bound by {m[8]}, results.csv {at[m[6]]['bound_level']}")
            n += 1
# why tensor cores change the roof
p = next((p for p in paras if p.startswith("**Why tensor cores change the roof:**")), None)
if p:
    m = re.search(r"the TF32 tensor ceiling, ([0-9.]+) TFLOP/s \(`(\w+)`\), is ([0-9.]+)x the FP32 FMA ceiling "
                  r"\(([0-9.]+) TFLOP/s\), so every memory level must serve ([0-9.]+)x fewer .*?shared memory "
                  r"\(([0-9.]+) TB/s\) keeps up only below ([0-9.]+) B per FMA, and the best FP32 SIMT kernel, "
                  r"`(\w+)`, moves ([0-9.]+)\. The best TF32 kernel at (\d+)x(\d+)x(\d+), `(\w+)`, reaches ([0-9.]+) TFLOP/s "
                  r"\(([0-9.]+)x `\w+`\) at ([0-9.]+) B per FMA from shared memory and is bound by ([\w ]+?)[.,]", p)
    if not m:
        bad.append("tensor cores: the paragraph does not read as expected")
    else:
        T, F, S = measured(m[2]), measured("fp32_fma"), measured("shared")
        expect("tensor: TF32 ceiling", T / 1e12, m[1])
        expect("tensor: TF32 / FP32 FMA", T / F, m[3])
        expect("tensor: FP32 FMA ceiling", F / 1e12, m[4])
        expect("tensor: fewer bytes per FMA", T / F, m[5])
        expect("tensor: shared-memory ceiling", S / 1e12, m[6])
        expect("tensor: B per FMA shared memory serves at the tensor roof", 2 * S / T, m[7])
        at = [r for r in rows if (r["m"], r["n"], r["k"]) == m.group(10, 11, 12)]
        best = {k: max((r for r in at if kind(r) == k), key=tfl, default=None) for k in ("simt", "tf32", "3x")}
        for k, v in (("simt", m[8]), ("tf32", m[13])):
            if best[k]["variant"] != v:
                bad.append(f"tensor: the best {k} kernel is {best[k]['variant']} by results.csv, not {v}")
        s, t = best["simt"], best["tf32"]
        expect(f"tensor: {s['variant']} shared B per FMA", per_fma(s, "shared"), m[9])
        expect(f"tensor: {t['variant']} TFLOP/s", tfl(t), m[14])
        expect(f"tensor: {t['variant']} / {s['variant']}", tfl(t) / tfl(s), m[15])
        expect(f"tensor: {t['variant']} shared B per FMA", per_fma(t, "shared"), m[16])
        if LEVEL[t["bound_level"]] != m[17]:
            bad.append(f"tensor: {t['variant']} bound by {m[17]}, results.csv {t['bound_level']}")
        n += 1
        x = re.search(r"\(([0-9.]+) tensor operations per GEMM FLOP, a roof of ([0-9.]+) TFLOP/s\): `(\w+)` reaches "
                      r"([0-9.]+) TFLOP/s, ([0-9.]+)x `\w+`, at a relative error of ([0-9.e+-]+) against FP64 "
                      r"\(`(\w+)` ([0-9.e+-]+), `\w+` ([0-9.e+-]+)\)", p)
        if best["3x"] and not x:
            bad.append("tensor: the 3xTF32 sentence does not read as expected")
        elif x:
            r = best["3x"]
            if r["variant"] != x[3]:
                bad.append(f"tensor: the best 3xTF32 kernel is {r['variant']} by results.csv, not {x[3]}")
            cb = next(c for c in at if c["variant"] == x[7])
            expect(f"tensor: {x[3]} tensor operations per FLOP", tensor_per_flop(r), x[1])
            expect(f"tensor: {x[3]} roof", T / tensor_per_flop(r) / 1e12, x[2])
            expect(f"tensor: {x[3]} TFLOP/s", tfl(r), x[4])
            expect(f"tensor: {x[3]} / {s['variant']}", tfl(r) / tfl(s), x[5])
            expect(f"tensor: {x[3]} relative error", fl(r["rel_err"]), x[6])
            expect(f"tensor: {x[7]} relative error", fl(cb["rel_err"]), x[8])
            expect(f"tensor: {t['variant']} relative error", fl(t["rel_err"]), x[9])
# the README block's table: each row's % of cuBLAS against the cuBLAS of its precision
hdr = re.search(r"\| variant \|(.*?)\| % of cuBLAS at (\d+) \|", text)
if hdr:
    N, ncols = int(hdr[2]), len([c for c in hdr[1].split("|") if c.strip()])
    def square(v):
        return next((r for r in rows if r["variant"] == v and int(r["m"]) == N and int(r["n"]) == N and int(r["k"]) == N), None)
    for line in text.splitlines():
        m = re.match(r"\| `(\w+)` \|", line)
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not m or len(cells) < ncols + 2 or not cells[ncols + 1].endswith("%"):
            continue
        r = square(m[1])
        ref = (square(BASELINE.get(r["precision"], "cublas")) if r else None) or square("cublas")
        if r and ref:
            expect(f"README table: {m[1]} % of cuBLAS at {N}", 100 * tfl(r) / tfl(ref), cells[ncols + 1][:-1])
print(f"checked {n}")
for x in bad:
    print(x)
PY
}

# verdict NAME OUT MIN: ok when OUT holds no mismatch and at least MIN numbers were checked
verdict() {
    nchk=$(echo "$2" | head -1 | awk '{print $2}')
    if [ "$(echo "$2" | wc -l)" = 1 ] && [ "${nchk:-0}" -ge "$3" ]; then
        echo "ok - $1: its $nchk numbers agree with results.csv and ceilings.csv (results/h200)"
    else
        echo "FAIL - $1 fact-check ($nchk numbers): $(echo "$2" | tail -n +2 | head -5 | tr '\n' ';')"
    fi
}
$build/gemmprof report results/h200 --out "$tmp/r.md" --no-plots >/dev/null 2>&1
$build/gemmprof report results/h200 --summary >"$tmp/s.md" 2>/dev/null
verdict "report.md's summary" "$(check results/h200 "$tmp/r.md")" 80
verdict "the README block's story (--summary)" "$(check results/h200 "$tmp/s.md")" 30

# a report rendered from other data than the CSVs it is checked against must fail: each
# edit (FILE ROW-VARIANT COLUMN, by 10%) and the name the failure must give
edit() {   # FILE VARIANT-OR-ID COLUMN: a copy of results/h200 in $tmp/d with that value x 1.1
    rm -rf "$tmp/d" && mkdir "$tmp/d" && cp results/h200/results.csv results/h200/results.json results/h200/ceilings.csv "$tmp/d/"
    python3 - "$tmp/d/$1" "$2" "$3" <<'PY'
import csv, sys
path, key, col = sys.argv[1:]
rows = list(csv.reader(open(path)))
h = rows[0]
for r in rows[1:]:
    if r[0] == key and (h[2] != "m" or r[2] == "8192"):
        r[h.index(col)] = repr(float(r[h.index(col)]) * 1.1)
csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
PY
}
for e in "results.csv dbuf time_median_s dbuf" \
         "results.csv warptile bytes_shared warptile shared B per FMA" \
         "results.csv tf32_auto time_median_s tf32_auto: TFLOP/s" \
         "results.csv tf32x3_wgmma rel_err tf32x3_wgmma relative error" \
         "ceilings.csv tf32_wgmma measured TF32 ceiling" \
         "ceilings.csv shared measured shared-memory ceiling"; do
    set -- $e
    f=$1 key=$2 col=$3
    shift 3
    edit "$f" "$key" "$col"
    out=$(check "$tmp/d" "$tmp/r.md")
    case "$out" in
    *"$*"*) echo "ok - the fact-check fails when $key's $col in $f differs by 10%: $(echo "$out" | grep -F -m1 "$*")" ;;
    *) echo "FAIL - the fact-check missed a 10% change of $key's $col in $f: $(echo "$out" | tr '\n' ';')" ;;
    esac
done

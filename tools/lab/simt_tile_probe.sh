#!/bin/bash
# One candidate SIMT tile against its neighbours and cuBLAS SGEMM at trailing shapes: the
# tuner restricted to the tiles whose names start with PREFIXES (GEMMPROF_TUNE_ONLY), every
# plan verified, then the best plan of each tile beside cuBLAS. Builds first if needed.
#   tools/lab/simt_tile_probe.sh PREFIXES SHAPE...     (outputs under $OUT/tileprobe)
set -u
only=$1; shift
D=${OUT:-/tmp}/tileprobe; mkdir -p "$D"
[ -x build/gemmprof ] || make -j16 GIT_REV="$(cat .gitrev 2>/dev/null)" >"$D/build.log" 2>&1 || { tail -20 "$D/build.log"; exit 1; }
timeout 60 build/gemmprof -k cublas -s "$(echo "$@" | tr ' ' ',')" --no-counters --no-ceilings --no-report -o "$D/cublas" >"$D/cublas.log" 2>&1
for s in "$@"; do
    GEMMPROF_TUNE_ONLY=$only timeout 60 build/gemmprof --tune "$s" --no-counters -o "$D/$s" >"$D/tune-$s.log" 2>&1
    echo "tune $s: exit $?"
done
python3 - "$D" "$@" <<'PY'
import csv, sys
d, shapes = sys.argv[1], sys.argv[2:]
ref = {}
for r in csv.DictReader(open(f"{d}/cublas/results.csv")):
    ref[f"{r['m']}x{r['n']}x{r['k']}"] = float(r["time_median_s"])
for s in shapes:
    try:
        rows = [r for r in csv.DictReader(open(f"{d}/{s}/tune.csv")) if r["status"] == "ok"]
    except OSError:
        print(s, "no tune.csv"); continue
    key = next((k for k in ref if k == s or k == f"{s}x{s}x{s}"), None)
    best = {}
    for r in rows:
        t = float(r["time_median_s"])
        if r["config_name"] not in best or t < best[r["config_name"]][0]:
            best[r["config_name"]] = (t, r["config"], r["registers"], r["blocks_per_sm"])
    for name, (t, cfg, regs, bps) in sorted(best.items(), key=lambda x: x[1][0]):
        share = f"{100 * ref[key] / t:.1f}% of cuBLAS {ref[key] * 1e3:.4f} ms" if key else ""
        print(f"{s:16s} {name:12s} {t * 1e3:.4f} ms  {share}  {cfg}  regs {regs} blocks/SM {bps}")
PY

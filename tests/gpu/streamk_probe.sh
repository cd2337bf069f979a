#!/bin/sh
# streamk against dbuf and cuBLAS on a GPU, for a person to read (not a make-test script).
#   tests/gpu/streamk_probe.sh [BUILD] [DIR]      (DIR default: $OUT/streamk_probe or a temp dir)
# 1. dbuf, streamk, cuBLAS at 4096^3, 8192^3 and 4224x4096x4096 (whole waves: no stream-K
#    items there, so the kernel's cost on whole tiles alone), twice, with counters: time,
#    % of cuBLAS and the DRAM and L2 bytes of each;
# 2. verification at odd shapes where tiles are cut between blocks;
# 3. compute-sanitizer memcheck and racecheck at 1540x3080x70 (169 tiles on 132 blocks).
BUILD=${1:-build}
DIR=${2:-${OUT:-$(mktemp -d)}/streamk_probe}
G=$BUILD/gemmprof
mkdir -p "$DIR"
[ -x "$G" ] || { echo "no $G: run make first"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>/dev/null |
    sed 's/^/gpu: /'
for run in 1 2; do
    timeout 150 "$G" -k dbuf,streamk,cublas -s 4096,8192,4224x4096x4096 --no-report --no-ceilings \
        -o "$DIR/run$run" >"$DIR/run$run.log" 2>&1
    echo "run $run: exit $?"
    python3 - "$DIR/run$run/results.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault("%sx%sx%s" % (r["m"], r["n"], r["k"]), {})[r["variant"]] = r
for shape, v in by.items():
    cub = float(v["cublas"]["time_median_s"]) if "cublas" in v else None
    out = []
    for name in ("dbuf", "streamk", "cublas"):
        r = v.get(name)
        if not r or not r["time_median_s"]:
            out.append("%s -" % name); continue
        t = float(r["time_median_s"])
        pct = " %.1f%%" % (100 * cub / t) if cub else ""
        mb = lambda col: "%.0f" % (float(r[col]) / 1e6) if r.get(col) else "-"
        out.append("%s %.4f ms%s %s DRAM %s L2 %s MB issue %s%%" % (name, 1e3 * t, pct, r["status"],
                   mb("bytes_dram"), mb("bytes_l2"), r.get("smsp__issue_active.avg.pct_of_peak_sustained_active") or "-"))
    print(shape + ": " + "; ".join(out))
PY
done
grep -h "config" "$DIR/run1.log" | sort -u | head
timeout 120 "$G" -k streamk,dbuf -s 1540x3080x70,1000x1500x700,4097x4095x1001,3000x5000x333,8192x64x4096 \
    --no-counters --no-report --no-ceilings -r 2 -o "$DIR/odd" >"$DIR/odd.log" 2>&1
echo "odd shapes: exit $?"; grep -E "^(streamk|dbuf) " "$DIR/odd.log"
for tool in memcheck racecheck; do
    timeout 180 compute-sanitizer --tool $tool --error-exitcode 9 "$G" -k streamk -s 1540x3080x70 \
        -r 1 -w 0 --no-ceilings --no-report --no-flush -o "$DIR/san_$tool" >"$DIR/san_$tool.log" 2>&1
    echo "compute-sanitizer $tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$DIR/san_$tool.log"
done

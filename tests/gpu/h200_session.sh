#!/bin/bash
# Everything one GPU session needs, in one call: build, GPU tests, the main job (twice,
# for run-to-run agreement), and ncu's own view of the seed kernels. Writes logs and
# results under $OUT (default /tmp/gemmprof-out) and packs them into $OUT/bundle.tgz.
#   tests/gpu/h200_session.sh [steps...]    steps: build tests run rerun sol (default: all)
set -u
OUT=${OUT:-/tmp/gemmprof-out}
W=$OUT/work
mkdir -p "$W/logs"
steps=${*:-build run tests rerun sol}
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
stamp() { echo "[$(date +%T)] $*"; }

{ nvidia-smi; nvidia-smi -q -d CLOCK; } >"$W/logs/nvidia-smi.txt" 2>&1
git rev-parse HEAD >"$W/logs/commit.txt" 2>/dev/null
git status --short >>"$W/logs/commit.txt" 2>/dev/null

if has build; then
    stamp build
    make -j16 >"$W/logs/build.log" 2>&1 || { tail -40 "$W/logs/build.log"; echo BUILD FAILED; }
fi
if has cupti; then
    stamp "test_cupti on the GPU"
    timeout 120 build/tests/test_cupti >"$W/logs/test_cupti.log" 2>&1; grep -E "^(FAIL|skip)" "$W/logs/test_cupti.log"; grep -c "^ok" "$W/logs/test_cupti.log"
fi
if has run; then
    stamp "main job: build/gemmprof --out $W/run1"
    t0=$SECONDS
    timeout 240 build/gemmprof --out "$W/run1" >"$W/logs/run1.log" 2>&1
    echo "exit $? after $((SECONDS - t0)) s" >>"$W/logs/run1.log"
    tail -50 "$W/logs/run1.log"
fi
if has rerun; then
    stamp "second run for agreement: --out $W/run2"
    timeout 120 build/gemmprof --out "$W/run2" --no-report >"$W/logs/run2.log" 2>&1
    echo "exit $?" >>"$W/logs/run2.log"
    python3 - "$W/run1/results.csv" "$W/run2/results.csv" <<'PY' | tee "$W/logs/agreement.txt"
import csv, sys
a = {(r["variant"], r["m"], r["n"], r["k"]): r for r in csv.DictReader(open(sys.argv[1]))}
b = {(r["variant"], r["m"], r["n"], r["k"]): r for r in csv.DictReader(open(sys.argv[2]))}
worst = 0
for key in a:
    if key not in b or not a[key]["time_median_s"] or not b[key]["time_median_s"]:
        continue
    ta, tb = float(a[key]["time_median_s"]), float(b[key]["time_median_s"])
    d = abs(ta - tb) / min(ta, tb)
    flag = ""
    if max(ta, tb) > 100e-6:
        worst = max(worst, d)
        flag = "  <-- over 3%" if d > 0.03 else ""
    print(f"{key[0]:14s} {key[1]}x{key[2]}x{key[3]:6s} run1 {ta*1e3:9.4f} ms run2 {tb*1e3:9.4f} ms diff {d*100:5.2f}%{flag}")
print(f"worst difference among kernels over 100 us: {worst*100:.2f}%")
PY
fi
if has tests; then
    stamp "make test-gpu"
    timeout ${TEST_TIMEOUT:-300} make test-gpu >"$W/logs/test-gpu.log" 2>&1
    grep -E "^(FAIL|skip)|passed," "$W/logs/test-gpu.log"
    grep -A12 "ncu compare\|gemmprof counters agree" "$W/logs/test-gpu.log" | head -0
fi
if has sol; then
    stamp "ncu SpeedOfLight + memory workload for naive, tiled, cublas at 2048"
    for v in naive tiled cublas cublas_tf32; do
        ncu --nvtx --nvtx-include "gemmprof@$v 2048x2048x2048/" --launch-count 1 --clock-control none \
            --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
            --metrics smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed \
            --log-file "$W/logs/ncu_sol_$v.txt" \
            build/gemmprof -k "$v" -s 2048 -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$W/sol$v" >/dev/null 2>&1
    done
    grep -h -E "^\s+(SM Throughput|Memory Throughput|DRAM Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|Duration|Compute \(SM\) Throughput)" "$W"/logs/ncu_sol_*.txt | head -40
fi
stamp "packing"
tar czf "$OUT/bundle.tgz" -C "$W" . 2>/dev/null
cp "$W/logs/test-gpu.log" "$OUT/" 2>/dev/null
cp "$W/logs/run1.log" "$OUT/" 2>/dev/null
rm -rf "$W"
ls -la "$OUT"

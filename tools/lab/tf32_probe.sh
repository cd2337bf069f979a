#!/bin/sh
# First H200 look at the mma.sync TF32 variants and the 3xTF32 wgmma one (issue 13):
# verification, error and TFLOP/s beside cuBLAS, then compute-sanitizer memcheck and
# racecheck on the new kernels at ragged shapes. Not part of `make test`; run by hand
# (well under 100 s):
#   tools/lab/tf32_probe.sh [BUILD] [OUTDIR]
# Carries on after a failure; prints one line per row and one per sanitizer run. Each step
# has a timeout (50 + 22 + 22 s), so the whole probe ends within 100 s; exit 124 names one.
BUILD=${1:-build}
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
GEMMPROF=$BUILD/gemmprof
NEW=tf32_mma,tf32x3_mma,tf32x3_wgmma
ALL=$NEW,cublas,cublas_tf32

echo "== timing and verification -> $OUT/sweep"
timeout 50 "$GEMMPROF" -k "$ALL" -s 4096,8192,2048,1000x1500x700,67x45x33 -r 5 \
    --no-counters --no-ceilings --no-report -o "$OUT/sweep" >"$OUT/sweep.log" 2>&1
echo "gemmprof exit status $? (0: all verified); log $OUT/sweep.log"
if [ -f "$OUT/sweep/results.csv" ]; then
    # columns by name, so a reordered results.csv still reads right
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
                       printf "%-14s %-16s %-6s %10s %10s %10s %9s %8s\n", "variant", "shape", "status",
                              "rel_err", "tolerance", "vs_cublas", "TFLOP/s", "SM GHz"; next }
             { shape = $col["m"] "x" $col["n"] "x" $col["k"]
               printf "%-14s %-16s %-6s %10.3g %10.3g %10.3g %9.2f %8.3f", $col["variant"], shape,
                      $col["status"], $col["rel_err"], $col["tolerance"], $col["rel_err_vs_cublas"],
                      $col["flop_per_s"] / 1e12, $col["sm_clock_hz"] / 1e9
               if ($col["status"] != "ok") printf "  %s", $col["error"]
               printf "\n" }' "$OUT/sweep/results.csv"
    # the bar for 3xTF32: >= 2x cuBLAS SGEMM at 4096^3, error within 2x of SGEMM's
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             $col["m"] == 4096 && $col["n"] == 4096 && $col["k"] == 4096 { f[$col["variant"]] = $col["flop_per_s"] }
             { key = $col["m"] "x" $col["n"] "x" $col["k"]; e[$col["variant"], key] = $col["rel_err"] }
             END { if (f["cublas"] > 0)
                       printf "4096^3: tf32x3_mma %.2fx cuBLAS SGEMM, tf32x3_wgmma %.2fx, tf32_mma %.1f%% of cuBLAS TF32\n",
                              f["tf32x3_mma"] / f["cublas"], f["tf32x3_wgmma"] / f["cublas"],
                              100 * f["tf32_mma"] / f["cublas_tf32"]
                   split("4096x4096x4096 2048x2048x2048 1000x1500x700 67x45x33", s, " ")
                   for (i = 1; i <= 4; i++) if (e["cublas", s[i]] > 0)
                       printf "%s: error against cuBLAS SGEMM'"'"'s: tf32x3_mma %.2fx, tf32x3_wgmma %.2fx\n", s[i],
                              e["tf32x3_mma", s[i]] / e["cublas", s[i]], e["tf32x3_wgmma", s[i]] / e["cublas", s[i]] }' \
        "$OUT/sweep/results.csv"
else
    echo "no results.csv; last lines of the log:"; tail -15 "$OUT/sweep.log"
fi

if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "compute-sanitizer not found: sanitizer runs skipped"; exit 0
fi
for tool in memcheck racecheck; do
    timeout 22 compute-sanitizer --tool $tool --error-exitcode 9 "$GEMMPROF" -k "$NEW" -s 67x45x33,130x129x17 \
        -r 1 -w 0 --no-flush --no-counters --no-ceilings --no-report -o "$OUT/$tool" >"$OUT/$tool.log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/$tool.log" | tail -1)
    echo "$tool on $NEW at 67x45x33,130x129x17: exit $rc, ${summary:-no summary line} (log $OUT/$tool.log)"
    [ $rc -eq 0 ] || grep -E "Invalid|Hazard|Error|error" "$OUT/$tool.log" | head -5
done

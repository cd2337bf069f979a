#!/bin/sh
# First-light probe of the sm_90a TF32 variants (wgmma, wgmma_ws) and the tf32_wgmma
# ceiling on an H200, in under two minutes. Not part of `make test`: run it by hand from
# the repository root after `make` (SM=90):
#     tools/lab/wgmma_probe.sh [BUILD] [OUTDIR]
# Prints, compactly: per variant x shape the verification status, relative error against
# its tolerance, TFLOP/s and share of cuBLAS TF32; the measured tensor ceiling with its SM
# clock and share of theory;
# an element-level diagnosis (tools/lab/npy_diag.py) at shapes that separate M, N and K
# dependence (which tiles, warps, and which k-tile explains a wrong element); and
# compute-sanitizer memcheck/racecheck. Every step carries on when one fails.
BUILD=${1:-build}
OUT=${2:-/tmp/wgmma_probe}
G=$BUILD/gemmprof
V=wgmma,wgmma_ws
rm -rf "$OUT" && mkdir -p "$OUT/sweep" "$OUT/ceil" "$OUT/npy" "$OUT/npy_overlap" "$OUT/ws_overlap0" "$OUT/ws_overlap1" || exit 1
[ -x "$G" ] || { echo "no $G: run make first"; exit 1; }
# -k: end a hung kernel (an mbarrier wait that never completes spins forever)
T="timeout -k 5"

echo "== build: sm_90a objects"
for o in 12_wgmma 13_wgmma_ws 18_tf32x3_wgmma ceil_tensor; do
    f=$BUILD/kernels/$o.o
    if [ -f "$f" ] && grep -aq "sm_90a" "$f"; then echo "  $o.o: sm_90a"; else echo "  $o.o: NO sm_90a code (built with SM != 90?)"; fi
done

echo "== sweep (-r 5, no counters)"
$T 90 "$G" -k $V,cublas_tf32,cublas -s 4096,8192,2048,1000x1500x700,64x64x64,67x45x33 -r 5 \
    --no-counters --no-ceilings --no-report -o "$OUT/sweep" >"$OUT/sweep.out" 2>"$OUT/sweep.err"
echo "  exit $? ($(grep -c . "$OUT/sweep/results.csv" 2>/dev/null || echo 0) lines in results.csv)"
grep -iE "error|fail|not supported|warning" "$OUT/sweep.err" | head -8 | sed 's/^/  stderr: /'
# results.csv by column name; TFLOP/s share against cublas_tf32 at the same shape
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    function v(name) { return (name in c) ? $c[name] : "" }
    { shape = v("m") "x" v("n") "x" v("k"); key[NR] = shape; var[NR] = v("variant")
      st[NR] = v("status"); re[NR] = v("rel_err"); tol[NR] = v("tolerance"); er[NR] = v("error")
      tf[NR] = v("flop_per_s") / 1e12; clk[NR] = v("sm_clock_hz") / 1e9; sp[NR] = v("time_spread")
      if (var[NR] == "cublas_tf32") ref[shape] = tf[NR] }
    END { printf "  %-12s %-15s %-8s %-10s %-9s %8s %7s %6s %6s\n", "variant", "shape", "status", "rel_err", "tol", "TFLOP/s", "%tf32", "GHz", "spread"
      for (i = 2; i <= NR; i++) {
          pct = (key[i] in ref && ref[key[i]] > 0) ? sprintf("%.1f", 100 * tf[i] / ref[key[i]]) : "-"
          printf "  %-12s %-15s %-8s %-10.3g %-9.3g %8.2f %7s %6.3f %6.3f %s\n", var[i], key[i], st[i], re[i], tol[i], tf[i], pct, clk[i], sp[i], er[i] } }' \
    "$OUT/sweep/results.csv" 2>/dev/null || echo "  no results.csv"

echo "== ceilings (--remeasure-ceilings; tf32 = cuBLAS 8192^3, tf32_wgmma = our wgmma loop)"
$T 60 "$G" -k wgmma -s 256 -r 1 -w 0 --no-counters --no-report --remeasure-ceilings \
    -o "$OUT/ceil" >"$OUT/ceil.out" 2>"$OUT/ceil.err"
echo "  exit $?"
grep -E "ceilings: (tf32|fp32_fma)|tf32_wgmma|ceilings:.*(error|skipped)" "$OUT/ceil.err" | sed 's/^/  /'
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["id"] ~ /^tf32/ { meas = $c["measured"]; th = $c["theoretical"]; clk = $c["sm_clock_hz"]
        # theory at the measured clock: the theoretical value scaled by clock / max clock
        match($0, /x [0-9.]+ GHz max/); maxghz = substr($0, RSTART + 2, RLENGTH - 10) + 0
        at = (maxghz > 0 && clk > 0) ? th * (clk / 1e9) / maxghz : 0
        printf "  %-10s %7.1f TFLOP/s at %.3f GHz: %.1f%% of %.1f (max clock), %.1f%% of %.1f at the measured clock\n",
            $c["id"], meas / 1e12, clk / 1e9, (th > 0 ? 100 * meas / th : 0), th / 1e12, (at > 0 ? 100 * meas / at : 0), at / 1e12 }' \
    "$OUT/ceil/ceilings.csv" 2>/dev/null || echo "  no ceilings.csv"

# Shapes that separate M, N and K dependence (tile 256 m x 128 n x 32 k): long K in one
# tile; many tile rows (m >= 1024) with one k-tile pair; many tile columns; all three.
echo "== element by element (--dump-npy): which tiles, warps and k-tiles are wrong"
NPY_SHAPES=64x64x64,67x45x33,130x72x40,256x128x2048,2048x128x64,256x2048x64,512x512x512
$T 60 "$G" -k $V -s $NPY_SHAPES -r 1 -w 0 --no-counters --no-ceilings --no-report --dump-npy \
    -o "$OUT/npy" >/dev/null 2>"$OUT/npy.err"
echo "  exit $?"
$T 100 python3 "$(dirname "$0")/npy_diag.py" "$OUT/npy/npy" --tile 256x128 --bk 32 --explain 6 ||
    echo "  npy_diag.py failed or timed out"

echo "== compute-sanitizer"
if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in memcheck racecheck; do
        $T 120 compute-sanitizer --tool $tool --error-exitcode 9 "$G" -k $V -s 67x45x33,128x128x64,130x72x300 \
            -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$OUT/san_$tool" >"$OUT/san_$tool.log" 2>&1
        rc=$?
        echo "  $tool: exit $rc; $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san_$tool.log" | head -2 | tr '\n' ' ')"
        [ $rc -ne 0 ] && grep -E "Error|Invalid|hazard|Race|at 0x|by thread" "$OUT/san_$tool.log" | head -6 | sed 's/^/    /'
    done
else
    echo "  compute-sanitizer not found"
fi
echo "== logs in $OUT"

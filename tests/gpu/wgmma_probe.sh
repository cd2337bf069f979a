#!/bin/sh
# First-light probe of the sm_90a TF32 variants (wgmma, wgmma_ws) and the tf32_wgmma
# ceiling on an H200, in under two minutes. Not part of `make test`: run it by hand from
# the repository root after `make` (SM=90):
#     tests/gpu/wgmma_probe.sh [BUILD] [OUTDIR]
# Prints, compactly: per variant x shape the verification status, relative error against
# its tolerance, TFLOP/s and share of cuBLAS TF32; the measured tensor ceiling with its SM
# clock and share of theory; an element-level diagnosis of the small shapes (which
# elements are wrong, and whether they match a transposed or shifted product); and
# compute-sanitizer memcheck/racecheck. Every step carries on when one fails.
BUILD=${1:-build}
OUT=${2:-/tmp/wgmma_probe}
G=$BUILD/gemmprof
V=wgmma,wgmma_ws
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
[ -x "$G" ] || { echo "no $G: run make first"; exit 1; }
# -k: end a hung kernel (an mbarrier wait that never completes spins forever)
T="timeout -k 5"

echo "== build: sm_90a objects"
for o in 12_wgmma 13_wgmma_ws ceil_tensor; do
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

echo "== small shapes, element by element (--dump-npy)"
$T 60 "$G" -k $V -s 64x64x64,67x45x33,130x72x40 -r 1 -w 0 --no-counters --no-ceilings --no-report --dump-npy \
    -o "$OUT/npy" >/dev/null 2>"$OUT/npy.err"
echo "  exit $?"
python3 - "$OUT/npy/npy" <<'EOF'
# Pure-Python .npy reader and double reference: no numpy needed on the GPU machine.
import glob, os, re, struct, sys
def load(p):
    with open(p, 'rb') as f:
        d = f.read()
    hl = struct.unpack('<H', d[8:10])[0]
    hdr = d[10:10 + hl].decode('latin1')
    shape = tuple(int(x) for x in hdr.split('(')[1].split(')')[0].split(',') if x.strip())
    body = d[10 + hl:]
    return shape, struct.unpack('<%df' % (len(body) // 4), body)
d = sys.argv[1]
for cpath in sorted(glob.glob(os.path.join(d, '*_C.npy'))):
    mt = re.match(r'(.+)_(\d+x\d+x\d+)_C\.npy$', os.path.basename(cpath))
    if not mt:
        continue
    var, label = mt.groups()
    try:
        (m, k), A = load(os.path.join(d, 'A_%s.npy' % label))
        (_, n), B = load(os.path.join(d, 'B_%s.npy' % label))
        _, C = load(cpath)
    except (OSError, ValueError, IndexError, struct.error) as e:
        print('  %s %s: cannot read the .npy files: %s' % (var, label, e)); continue
    ref = [0.0] * (m * n)
    for i in range(m):
        for p in range(k):
            a = A[i * k + p]; row = p * n
            for j in range(n):
                ref[i * n + j] += a * B[row + j]
    scale = max(1e-30, (sum(r * r for r in ref) / len(ref)) ** 0.5)
    bad = [(i, j) for i in range(m) for j in range(n)
           if not abs(C[i * n + j] - ref[i * n + j]) <= 4e-3 * scale]  # NaN counts as bad
    print('  %-9s %-10s %d of %d elements off (> 4e-3 x rms)' % (var, label, len(bad), m * n))
    for (i, j) in bad[:4]:
        print('      C[%d][%d] = %.6g, want %.6g' % (i, j, C[i * n + j], ref[i * n + j]))
    if bad:
        rows = sorted({i % 16 for i, _ in bad}); cols = sorted({j % 16 for _, j in bad})
        print('      bad rows mod 16: %s; bad cols mod 16: %s' % (rows, cols))
        print('      first bad row %d, first bad col %d' % (min(i for i, _ in bad), min(j for _, j in bad)))
        # does a wrong element hold another element's value (a layout mix-up)?
        where = {}
        for (i, j) in bad[:64]:
            for ii in range(max(0, i - 16), min(m, i + 17)):
                for jj in range(max(0, j - 16), min(n, j + 17)):
                    if abs(C[i * n + j] - ref[ii * n + jj]) <= 1e-3 * scale:
                        where[(ii - i, jj - j)] = where.get((ii - i, jj - j), 0) + 1
        top = sorted(where.items(), key=lambda x: -x[1])[:4]
        print('      wrong values equal the reference at offsets (drow, dcol): %s' % (top or 'none'))
EOF

echo "== compute-sanitizer"
if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in memcheck racecheck; do
        $T 120 compute-sanitizer --tool $tool --error-exitcode 9 "$G" -k $V -s 67x45x33,128x128x64 \
            -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$OUT/san_$tool" >"$OUT/san_$tool.log" 2>&1
        rc=$?
        echo "  $tool: exit $rc; $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san_$tool.log" | head -2 | tr '\n' ' ')"
        [ $rc -ne 0 ] && grep -E "Error|Invalid|hazard|Race|at 0x|by thread" "$OUT/san_$tool.log" | head -6 | sed 's/^/    /'
    done
else
    echo "  compute-sanitizer not found"
fi
echo "== logs in $OUT"

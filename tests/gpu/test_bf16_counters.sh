#!/bin/sh
# The BF16 and FP16 rows' counters show their own tensor path: cublas_bf16 does BF16 tensor
# ops and no TF32 or FP16 ones, cublas_fp16 the same for FP16, and each row's ops are about
# 2mnk at 1024^3 (the roofline counts a tensor op as a FLOP; at the odd shape padded tiles
# may add more, never less). The path counters are not in the default
# set (a replay pass more, analysis/metrics.def): -m names them, beside TF32's.
. tests/gpu/lib.sh
need_gpu "BF16/FP16 tensor-path counters" || exit 0
tf32=sm__ops_path_tensor_src_tf32_dst_fp32.sum
bf16=sm__ops_path_tensor_src_bf16_dst_fp32.sum
fp16=sm__ops_path_tensor_src_fp16.sum
if ! $GEMMPROF -k cublas_tf32,cublas_bf16,cublas_fp16 -s 1024,257x513x4099 -r 2 -w 1 -m "$tf32,$bf16,$fp16" \
        --no-ceilings --no-report -o "$TMP/c" >"$TMP/log" 2>&1; then
    cat "$TMP/log"; fail "BF16/FP16 counter run"; exit 0
fi
python3 - "$TMP/c/results.csv" "$tf32" "$bf16" "$fp16" <<'PY'
import csv, sys
path, tf32, bf16, fp16 = sys.argv[1:5]
rows = list(csv.DictReader(open(path, newline="")))
own = {"cublas_tf32": tf32, "cublas_bf16": bf16, "cublas_fp16": fp16}
if not rows or all(r.get(bf16, "") == "" for r in rows):
    print("skip - BF16/FP16 tensor-path counters: not collected (no counter permission?)")
    sys.exit(0)
for r in rows:
    v, shape = r["variant"], f"{r['m']}x{r['n']}x{r['k']}"
    w = 2.0 * int(r["m"]) * int(r["n"]) * int(r["k"])
    vals = {c: float(r[c]) if r[c] != "" else float("nan") for c in (tf32, bf16, fp16)}
    mine = vals[own[v]]
    others = [vals[c] for c in (tf32, bf16, fp16) if c != own[v]]
    square = r["m"] == r["n"] == r["k"]
    good = (r["status"] == "ok" and mine > 0 and all(o == 0 for o in others) and mine / w >= 0.9 and
            (not square or mine / w <= 1.1))
    print(f"{'ok' if good else 'FAIL'} - {v} {shape}: {own[v]} = {mine:.4g} ({mine / w:.3f} x 2mnk), "
          f"the other two paths {others[0]:.4g} and {others[1]:.4g} (want {'about 2mnk' if square else '>= 0.9 x 2mnk'}, "
          f"then 0 and 0)")
PY

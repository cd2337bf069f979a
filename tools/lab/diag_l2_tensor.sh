#!/bin/sh
# Diagnostic (issue 13): L2 bytes of the TF32 tensor kernels, gemmprof against ncu. In a
# trial of tests/gpu/test_ncu_compare.sh on tf32_mma, wgmma, wgmma_ws and tf32x3_mma (H200,
# df9662d) tensor-op and instruction counts were equal but lts__t_bytes.sum read 2-10%
# below ncu's (tf32_mma 2048^3: 242.9 MB against 266.1-269.8 MB). This prints, per kernel
# and shape, gemmprof's value and ncu's under --cache-control all (ncu's default: caches
# flushed before each kernel) and none, to see whether the cache state explains it.
#   tools/lab/diag_l2_tensor.sh [build]
. tests/gpu/lib.sh
need_gpu "L2 bytes of the tensor kernels against ncu" || exit 0
M=lts__t_bytes.sum,dram__bytes_read.sum
for vs in tf32_mma:2048 wgmma:2048 tf32_mma:1000x1500x700; do
    v=${vs%%:*}; s=${vs#*:}
    $GEMMPROF -k "$v" -s "$s" -r 2 -w 1 --no-ceilings --no-report -m "$M" -o "$TMP/g$v$s" >/dev/null 2>&1
    python3 - "$TMP/g$v$s/results.csv" "$v $s" <<'PY'
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(f"{sys.argv[2]:24s} gemmprof      " + "  ".join(f"{k}={float(r[k]) / 1e6:.1f} MB" for k in
      ("lts__t_bytes.sum", "dram__bytes_read.sum") if r.get(k)))
PY
    # ncu profiles the variant's own kernel only (GEMM_KERNELS would also catch cuBLAS's
    # reference GEMM of the verify step): its name from the row's launch_kernel
    kname=$(python3 -c 'import csv,re,sys; r=next(csv.DictReader(open(sys.argv[1]))); print(re.split(r"[<( ]", r.get("launch_kernel") or "gemm")[0])' "$TMP/g$v$s/results.csv")
    for cc in all none; do
        ncu --metrics "$M" --cache-control $cc --clock-control none -k "regex:^$kname" --csv \
            $GEMMPROF -k "$v" -s "$s" -r 3 -w 0 --no-counters --no-ceilings --no-report -o "$TMP/n$v$s$cc" \
            >"$TMP/ncu.csv" 2>/dev/null
        python3 - "$TMP/ncu.csv" "$v $s" "$cc" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
vals = {}
for r in csv.DictReader(rows):
    if r.get("Metric Name") in ("lts__t_bytes.sum", "dram__bytes_read.sum"):
        u = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}.get(r.get("Metric Unit"), 1)
        vals.setdefault(r["Metric Name"], []).append(float(r["Metric Value"].replace(",", "")) * u / 1e6)
print(f"{sys.argv[2]:24s} ncu cache={sys.argv[3]:4s} " + "  ".join(
      f"{k}=" + "/".join(f"{x:.1f}" for x in v) + " MB" for k, v in vals.items()))
PY
    done
done

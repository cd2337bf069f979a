#!/bin/sh
# Diagnostic (not a test), issue 9: cuBLAS 1000x1500x700 reads ~3% more L2 bytes in the
# ncu comparison's batch (4 variants x 3 shapes) than alone and than ncu alone. Which part
# of the batch does it, and does ncu see the same for the same launch inside the batch?
# Prints one line per run: case, lts__t_bytes.sum and the L2 sector sources.
B=${1:-build}
T=$(mktemp -d)
pick() {   # results.csv variant shape -> "bytes fabric_sectors tex_sectors kernels"
    python3 - "$@" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["variant"] == sys.argv[2] and f'{r["m"]}x{r["n"]}x{r["k"]}' == sys.argv[3]:
        print(r.get("lts__t_bytes.sum"), r.get("lts__t_sectors_srcunit_ltcfabric.sum", "-"),
              r.get("lts__t_sectors_srcunit_tex.sum", "-"), r["kernels"][:40])
PY
}
run() {   # label, gemmprof args...
    label=$1; shift
    for i in 1 2 3; do
        $B/gemmprof "$@" -r 2 -w 1 --no-ceilings --no-report -o "$T/o" >"$T/log" 2>&1 || tail -3 "$T/log"
        echo "$label $(pick "$T/o/results.csv" cublas 1000x1500x700)"
    done
}
SRC=lts__t_bytes.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex.sum
run batch-default   -k naive,tiled,cublas,cublas_tf32 -s 2048,1000x1500x700,64x64x16384
run shapes-cublas   -k cublas -s 2048,1000x1500x700,64x64x16384
run variants-1shape -k naive,tiled,cublas,cublas_tf32 -s 1000x1500x700
run alone           -k cublas -s 1000x1500x700
run batch-src       -k naive,tiled,cublas,cublas_tf32 -s 2048,1000x1500x700,64x64x16384 -m $SRC
run alone-src       -k cublas -s 1000x1500x700 -m $SRC
for c in "batch:-k naive,tiled,cublas,cublas_tf32 -s 2048,1000x1500x700,64x64x16384" "alone:-k cublas -s 1000x1500x700"; do
    label=${c%%:*}; args=${c#*:}
    ncu --replay-mode application --nvtx --nvtx-include "gemmprof@cublas 1000x1500x700/" \
        --kernel-name regex:'gemm|xmma|Kernel2|nvjet' --clock-control none --csv --page raw \
        --print-units base --metrics $SRC --log-file "$T/ncu.csv" \
        $B/gemmprof $args -r 3 -w 1 --no-ceilings --no-report -o "$T/n" >/dev/null 2>&1
    python3 - "$T/ncu.csv" "$label" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]; data = [r for r in rows[2:] if len(r) == len(h)]
for r in data:
    d = dict(zip(h, r))
    print("ncu-" + sys.argv[2], d.get("lts__t_bytes.sum"), d.get("lts__t_sectors_srcunit_ltcfabric.sum"),
          d.get("lts__t_sectors_srcunit_tex.sum"), d.get("Kernel Name", "")[:40])
PY
done
rm -rf "$T"

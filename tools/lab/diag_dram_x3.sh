#!/bin/bash
# Issue 13 diagnosis: tf32x3_mma at 2048^3 reads 3-4% more DRAM bytes in gemmprof's counter
# pass than in ncu's calls, in three sessions (101ddaa, eee05a6, 2e81ce0); A, B and C (50.3 MB)
# fill the H200's 50 MB L2, so the re-reads past the first 33.6 MB depend on what the L2
# holds. gemmprof under each counter-pass flush mode, alone and in a batch, 2 processes
# each; ncu with cache control all and none, 5 calls each.
set -u; W=$OUT/w; mkdir -p $W
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
G=build/gemmprof
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,sm__cycles_elapsed.avg.per_second
pr() { python3 - "$@" <<'PY'
import csv, sys
sys.path.insert(0, "tests/gpu")
from ncu_csv import kernels, number
label, path = sys.argv[1], sys.argv[2]
if label.startswith("ncu"):
    rows = [r for r in kernels(path) if "mma_tf32" in r["Kernel Name"]]
else:
    rows = [r for r in csv.DictReader(open(path)) if r["variant"] == "tf32x3_mma"]
for r in rows:
    g = lambda k: number(r.get(k, "") or "nan")
    print(f"{label:34s} read {g('dram__bytes_read.sum')/1e6:7.2f} write {g('dram__bytes_write.sum')/1e6:6.2f} "
          f"L2 {g('lts__t_bytes.sum')/1e6:7.1f} "
          f"merged {32*g('lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum')/1e6:6.1f} "
          f"SM {g('sm__cycles_elapsed.avg.per_second')/1e9:5.3f} GHz")
PY
}
for mode in read-discard settle-read-discard read read2-discard none; do for i in 1 2; do
  GEMMPROF_COUNTER_FLUSH=$mode $G -k tf32x3_mma -s 2048 -r 2 -w 1 --no-ceilings --no-report -m $M -o $W/g > $W/g.log 2>&1 || tail -3 $W/g.log
  pr "gemmprof $mode alone" $W/g/results.csv
done; done
for i in 1 2; do
  $G -k tf32_mma,cublas_tf32,tf32x3_mma -s 2048 -r 2 -w 1 --no-ceilings --no-report -m $M -o $W/g > $W/g.log 2>&1
  pr "gemmprof batch after tf32_mma,cublas_tf32" $W/g/results.csv
  $G -k tf32x3_mma -s 2048 -r 10 -w 3 --no-ceilings --no-report -m $M -o $W/g > $W/g.log 2>&1
  pr "gemmprof -r 10 -w 3" $W/g/results.csv
done
for cc in all none; do
  ncu --replay-mode application --cache-control $cc --nvtx --nvtx-include "gemmprof@tf32x3_mma 2048x2048x2048/" --kernel-name regex:mma_tf32 --clock-control none --csv --page raw --print-units base --metrics $M --log-file $W/n.csv $G -k tf32x3_mma -s 2048 -r 5 -w 1 --no-ceilings --no-report -o $W/n > $W/n.log 2>&1 || tail -3 $W/n.log
  pr "ncu cache-control $cc" $W/n.csv
done

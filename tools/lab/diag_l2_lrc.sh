#!/bin/bash
# Issue 13 diagnosis: is the call-to-call spread of the tensor kernels' L2 bytes the L2
# Request Coalescer's (LRC, between the crossbar and the L2 slices on GH100)? It merges
# read sectors that several SMs ask for at about the same time, so the L2 sees fewer
# lookups when the SMs run in step, and how many it merges depends on timing. If so,
# the SMs' demand (L2 lookups + sectors merged) is the same in every call under both tools.
# gemmprof in 4 processes, ncu in 2 processes x 4 calls, with the LRC's counters.
set -u; W=$OUT/w; mkdir -p $W
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
G=build/gemmprof
M=lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__xbar2lrc_requests_op_read.sum,dram__bytes_read.sum
show() {  # show WHO CSV: one line per row/kernel, MB = 1e6 B, sectors x 32 B
python3 - "$@" <<'PY'
import csv, sys
sys.path.insert(0, "tests/gpu")
from ncu_csv import kernels, number
who, path = sys.argv[1], sys.argv[2]
if who.startswith("ncu"):
    rows = [k for k in kernels(path) if not k["Kernel Name"].startswith("l2_flush")]
    name = lambda r: r["Kernel Name"][:24]
else:
    rows = list(csv.DictReader(open(path)))
    name = lambda r: r["variant"] + " " + r["m"] + "x" + r["n"] + "x" + r["k"]
def mb(r, k, sect=True):
    v = number(r.get(k, "") or "nan")
    return v * (32 if sect else 1) / 1e6
for r in rows:
    l2 = mb(r, "lts__t_bytes.sum", False); rd = mb(r, "lts__t_sectors_srcunit_tex_op_read.sum")
    co = mb(r, "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum")
    print(f"{who:12s} {name(r):28s} L2 {l2:8.1f} SMread {rd:8.1f} lts2lrc {mb(r,'lrc__lts2lrc_sectors_op_read.sum'):8.1f}"
          f" lrc2xbar {mb(r,'lrc__lrc2xbar_sectors_op_read.sum'):8.1f} xbar2gpc {mb(r,'lrc__xbar2gpc_sectors_op_read.sum'):8.1f}"
          f" merged {co:8.1f} SMread+merged {rd+co:8.1f} L2+merged {l2+co:8.1f} DRAMrd {mb(r,'dram__bytes_read.sum',False):6.1f}")
PY
}
for i in 1 2 3 4; do
  $G -k tiled,cublas_tf32,tf32_mma,wgmma,wgmma_ws,wgmma_rs -s 2048,1000x1500x700 -r 2 -w 1 --no-ceilings --no-report -m $M -o $W/g$i > $W/g$i.log 2>&1 || tail -5 $W/g$i.log
  show "gemmprof$i" $W/g$i/results.csv
done
for v in tf32_mma:2048 wgmma_ws:2048 wgmma:1000x1500x700; do
  for i in 1 2; do
    n=${v%%:*}; s=${v##*:}; shape=$s; [ "$s" = 2048 ] && shape=2048x2048x2048
    ncu --replay-mode application --nvtx --nvtx-include "gemmprof@$n $shape/" --clock-control none --csv --page raw --print-units base --metrics $M --log-file $W/ncu-$n-$i.csv $G -k $n -s $s -r 3 -w 1 --no-ceilings --no-report -o $W/n-$n-$i > $W/n-$n-$i.out 2>&1 || tail -5 $W/n-$n-$i.out
    show "ncu$i" $W/ncu-$n-$i.csv
  done
done
cd $OUT && tar czf lrc.tgz w && rm -rf w

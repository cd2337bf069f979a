#!/bin/bash
# The part of lts__t_bytes that no listed source explains (not the SMs, the other L2
# partition, instruction fetch or L1) is 1.4-3 MB larger under gemmprof's counter range than
# under ncu on the H100 (tools/lab/diag_l2_h100.sh). This splits lts__t_sectors by node (GPC
# or not), by operation and by aperture, under gemmprof and under ncu, and runs gemmprof
# twice more with lts__t_bytes alone (one pass) to see whether the remainder grows with the
# number of replay passes in the metric set: traffic that the profiler itself makes.
#   tools/lab/diag_l2_rest.sh          (writes $OUT/l2rest.txt and $OUT/l2rest.tgz)
set -u; W=$OUT/w; mkdir -p $W
[ -x build/gemmprof ] || make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
G=build/gemmprof
. tests/gpu/lib.sh   # GEMM_KERNELS
M=lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcnode_gpc.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_gcc.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_membar.sum,lts__t_sectors_aperture_device.sum,lts__t_sectors_aperture_sysmem.sum,lts__t_sectors_aperture_peer.sum
CASES="tf32_mma:1000x1500x700 tf32_auto:64x64x16384"
show() { # WHO CSV...: MB per gemmprof row or per ncu kernel, and the ncu kernels of a call summed
python3 - "$@" <<'PY'
import csv, sys, collections
sys.path.insert(0, "tests/gpu")
from ncu_csv import kernels, number
who = sys.argv[1]
cols = ["lts__t_bytes.sum", "lts__t_sectors_srcnode_gpc.sum", "lts__t_sectors_srcunit_tex.sum", "lts__t_sectors_srcunit_ltcfabric.sum",
        "lts__t_sectors_srcunit_gcc.sum", "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors_op_atom.sum",
        "lts__t_sectors_op_red.sum", "lts__t_sectors_op_membar.sum", "lts__t_sectors_aperture_device.sum",
        "lts__t_sectors_aperture_sysmem.sum", "lts__t_sectors_aperture_peer.sum"]
short = ["L2", "gpc", "tex", "fabric", "gcc", "read", "write", "atom", "red", "membar", "dev", "sys", "peer"]
def mb(r, c):
    v = number(r.get(c, "") or "nan")
    return v / 1e6 if c == "lts__t_bytes.sum" else v * 32 / 1e6
def line(r):
    vals = [mb(r, c) for c in cols]
    rest = vals[0] - vals[2] - vals[3] - vals[4]
    return " ".join(f"{s} {v:8.3f}" for s, v in zip(short, vals)) + f" rest {rest:7.3f} notgpc {vals[0]-vals[1]:7.3f}"
for path in sys.argv[2:]:
    if who.startswith("ncu"):
        for k in kernels(path):
            print(f"{who} {k['ID']:>3} {k['Kernel Name'][:26]:26s} " + line(k))
    else:
        for r in csv.DictReader(open(path)):
            print(f"{who} {r['variant']:10s} {r['m']}x{r['n']}x{r['k']:6s} " + line(r))
PY
}
for c in $CASES; do
    v=${c%%:*} s=${c##*:}
    for i in 1 2; do
        for mode in read-discard read-wait; do
            o=$W/g$i-$mode-$v
            GEMMPROF_COUNTER_FLUSH=$mode $G -k $v -s $s -r 2 -w 1 --no-ceilings --no-report -m $M -o $o > $o.log 2>&1 || tail -5 $o.log
            grep -iE "pass|replay" $o.log | head -2
            show gemmprof$i-$mode $o/results.csv
        done
        o=$W/g$i-onepass-$v
        $G -k $v -s $s -r 2 -w 1 --no-ceilings --no-report -m lts__t_bytes.sum -o $o > $o.log 2>&1 || tail -5 $o.log
        grep -iE "pass|replay" $o.log | head -2
        python3 -c "import csv,sys; [print('gemmprof$i-onepass', r['variant'], 'L2 %.3f' % (float(r['lts__t_bytes.sum'])/1e6)) for r in csv.DictReader(open(sys.argv[1]))]" $o/results.csv
    done
    ncu --replay-mode application --kernel-name regex:"$GEMM_KERNELS|mma" --cache-control all --clock-control none \
        --csv --page raw --print-units base --metrics $M --log-file $W/ncu-$v.csv \
        $G -k $v -s $s -r 2 -w 1 --no-ceilings --no-report -o $W/n-$v > $W/n-$v.out 2>&1 || tail -5 $W/n-$v.out
    show ncu $W/ncu-$v.csv
done
cd $OUT && tar czf l2rest.tgz w && rm -rf w

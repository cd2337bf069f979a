#!/bin/bash
# Why gemmprof's L2 bytes lie above ncu's on the H100 (test-gpu at cb1a5f1: +6-7% on the
# split-K calls at 64x64x16384, +1-2.5% on several kernels at 1000x1500x700), where on the
# H200 they agree. Two suspects: ncu's cache flush (driver) against gemmprof's own flush
# kernel before each call, and traffic between the L2's two partitions (ltcfabric), which
# lts__t_bytes counts too. So: gemmprof in 3 processes; ncu with --cache-control all and
# with none (gemmprof's flush kernel alone before each call), each 4 calls, same metrics.
# First run (cb1a5f1): the SMs' sectors (srcunit tex) agree to the sector; the fabric and the
# rest differ. So the rest by source too: GCC (instruction and constant fetch) and L1.
# Second run (ed9d1a8): GCC and L1 are not it; gemmprof's range sees more L2-internal traffic
# than ncu's, flushed or not. FLUSH_MODES (default: the default mode alone) runs gemmprof's
# processes under each GEMMPROF_COUNTER_FLUSH mode named (src/counter_phase.c), e.g.
# "read-discard read read2 none", to see whether its flush before each pass is the cause.
set -u; W=$OUT/w; mkdir -p $W
[ -x build/gemmprof ] || make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
G=build/gemmprof
. tests/gpu/lib.sh   # GEMM_KERNELS
ncu --query-metrics --chip gh100 > $W/query.txt 2>&1
grep -E "^lts__t_(sectors|requests)_srcunit" $W/query.txt | head -20
M=lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_gcc.sum,lts__t_sectors_srcunit_l1.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,dram__bytes_read.sum,dram__bytes_write.sum
grep -q "^lts__t_sectors_srcunit_ltcfabric " $W/query.txt && M=$M,lts__t_sectors_srcunit_ltcfabric.sum
echo "metrics: $M"
CASES="tf32_auto:64x64x16384 cublas_tf32:64x64x16384 tf32_mma:1000x1500x700"
show() { # WHO CSV...: one line per gemmprof row or ncu call (kernels of a call summed), in MB
python3 - "$@" <<'PY'
import csv, sys
sys.path.insert(0, "tests/gpu")
from ncu_csv import kernels, number
who = sys.argv[1]
cols = ["lts__t_bytes.sum", "lts__t_sectors.sum", "lts__t_sectors_srcunit_tex.sum", "lts__t_sectors_srcunit_ltcfabric.sum",
        "lts__t_sectors_srcunit_gcc.sum", "lts__t_sectors_srcunit_l1.sum",
        "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"]
short = ["L2", "sect", "tex", "fabric", "gcc", "l1", "merged", "DRAMrd", "DRAMwr"]
def mb(r, c):
    v = number(r.get(c, "") or "nan")
    return v / 1e6 if c in ("lts__t_bytes.sum",) or c.startswith("dram") else v * 32 / 1e6
for path in sys.argv[2:]:
    if who.startswith("ncu"):
        ks = [k for k in kernels(path)]
        print(f"{who} {path.split('/')[-1]}: {len(ks)} kernels: " + ", ".join(sorted(set(k['Kernel Name'][:30] for k in ks))))
        for k in ks:
            print(f"  {k['ID']:>4} {k['Kernel Name'][:30]:30s} " + " ".join(f"{s} {mb(k, c):8.3f}" for s, c in zip(short, cols)))
    else:
        for r in csv.DictReader(open(path)):
            print(f"{who} {r['variant']:12s} {r['m']}x{r['n']}x{r['k']:6s} " + " ".join(f"{s} {mb(r, c):8.3f}" for s, c in zip(short, cols)))
PY
}
for mode in ${FLUSH_MODES:-read-discard}; do
    for i in 1 2 3; do
        for c in $CASES; do
            o=$W/g$i-$mode-${c%%:*}
            GEMMPROF_COUNTER_FLUSH=$mode $G -k ${c%%:*} -s ${c##*:} -r 2 -w 1 --no-ceilings --no-report -m $M -o $o > $o.log 2>&1 || tail -5 $o.log
            show gemmprof$i-$mode $o/results.csv
        done
    done
done
for c in $CASES; do
    v=${c%%:*} s=${c##*:}
    for cc in all none; do
        ncu --replay-mode application --kernel-name regex:"$GEMM_KERNELS|mma" --cache-control $cc --clock-control none \
            --csv --page raw --print-units base --metrics $M --log-file $W/ncu-$v-$cc.csv \
            $G -k $v -s $s -r 4 -w 1 --no-ceilings --no-report -o $W/n-$v-$cc > $W/n-$v-$cc.out 2>&1 || tail -5 $W/n-$v-$cc.out
        show ncu-$cc $W/ncu-$v-$cc.csv
    done
done
cd $OUT && tar czf l2h100.tgz w && rm -rf w

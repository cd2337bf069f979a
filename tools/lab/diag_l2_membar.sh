#!/bin/bash
# On the H100 the L2 bytes gemmprof counts over a call exceed ncu's by about what the L2's
# membar sectors do (tools/lab/diag_l2_rest.sh, 694fd4a): ncu sees 1.367 MB of them per kernel,
# gemmprof's range 2 to 4 times that. This counts them per call under each counter flush
# mode and with dependent launches on and off, to see which boundary inside the range adds
# them. CASES, MODES and PDLS override the lists below; NCU=1 adds ncu's count of each case
# (kernel by kernel, its cache flush on), e.g. CASES="naive:1 naive:64" MODES=read-discard
# PDLS=off NCU=1 for what a range around a one-block kernel holds.
#   tools/lab/diag_l2_membar.sh   (prints; the device command keeps it in $OUT)
set -u; W=$OUT/wm; mkdir -p $W
[ -x build/gemmprof ] || make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
. tests/gpu/lib.sh
M=lts__t_bytes.sum,lts__t_sectors_op_membar.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
count() { # CSV LABEL...: one line per gemmprof row (results.csv) or ncu kernel (ncu --csv), in MB
python3 - "$@" <<'PY'
import csv, sys
sys.path.insert(0, "tests/gpu")
from ncu_csv import kernels, number
path, label = sys.argv[1], " ".join(f"{a:9s}" for a in sys.argv[2:])
ncu = not path.endswith("results.csv")
for r in kernels(path) if ncu else csv.DictReader(open(path)):
    f = lambda c: number(r.get(c, "") or "nan")
    mb = f("lts__t_sectors_op_membar.sum") * 32 / 1e6
    who = f"ncu {label} {r['ID']:>3} {r['Kernel Name'][:24]:24s}" if ncu else label
    print(f"{who} L2 {f('lts__t_bytes.sum')/1e6:8.3f} MB  membar {mb:6.3f} MB = {mb/1.367:4.2f} x 1.367"
          f"  read {f('lts__t_sectors_op_read.sum')*32/1e6:8.3f} write {f('lts__t_sectors_op_write.sum')*32/1e6:7.3f}")
PY
}
for c in ${CASES:-tf32_mma:1000x1500x700 tf32_auto:64x64x16384 naive:512}; do
    v=${c%%:*} s=${c##*:}
    for mode in ${MODES:-read-discard read read-wait none settle-read-discard}; do
        for pdl in ${PDLS:-off on}; do
            o=$W/$v-$mode-$pdl
            GEMMPROF_COUNTER_FLUSH=$mode GEMMPROF_COUNTER_PDL=$pdl build/gemmprof -k $v -s $s -r 2 -w 1 --no-ceilings --no-report \
                -m $M -o $o > $o.log 2>&1 || tail -3 $o.log
            count $o/results.csv $v "$mode" "pdl $pdl"
        done
    done
    [ "${NCU:-0}" = 1 ] || continue
    ncu --replay-mode application --kernel-name regex:"$GEMM_KERNELS|mma|naive" --cache-control all --clock-control none \
        --csv --page raw --print-units base --metrics $M --log-file $W/ncu-$v-$s.csv \
        build/gemmprof -k $v -s $s -r 2 -w 1 --no-ceilings --no-report -o $W/n-$v-$s > $W/n-$v-$s.out 2>&1 || tail -3 $W/n-$v-$s.out
    count $W/ncu-$v-$s.csv $v
done

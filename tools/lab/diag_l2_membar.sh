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
M=lts__t_bytes.sum,lts__t_sectors_op_membar.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
for c in ${CASES:-tf32_mma:1000x1500x700 tf32_auto:64x64x16384 naive:512}; do
    v=${c%%:*} s=${c##*:}
    for mode in ${MODES:-read-discard read read-wait none settle-read-discard}; do
        for pdl in ${PDLS:-off on}; do
            o=$W/$v-$mode-$pdl
            GEMMPROF_COUNTER_FLUSH=$mode GEMMPROF_COUNTER_PDL=$pdl build/gemmprof -k $v -s $s -r 2 -w 1 --no-ceilings --no-report \
                -m $M -o $o > $o.log 2>&1 || tail -3 $o.log
            python3 - $o/results.csv $v $mode $pdl <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    f = lambda c: float(r[c] or "nan")
    mb = f("lts__t_sectors_op_membar.sum") * 32 / 1e6
    print(f"{sys.argv[2]:9s} {sys.argv[3]:20s} pdl {sys.argv[4]:3s} L2 {f('lts__t_bytes.sum')/1e6:8.3f} MB  membar {mb:6.3f} MB"
          f" = {mb/1.367:4.2f} x 1.367  read {f('lts__t_sectors_op_read.sum')*32/1e6:8.3f} write {f('lts__t_sectors_op_write.sum')*32/1e6:7.3f}")
PY
        done
    done
    [ "${NCU:-0}" = 1 ] || continue
    GEMM_KERNELS=$(sed -n "s/^GEMM_KERNELS='\(.*\)'$/\1/p" tests/gpu/lib.sh)
    ncu --replay-mode application --kernel-name regex:"$GEMM_KERNELS|mma|naive" --cache-control all --clock-control none \
        --csv --page raw --print-units base --metrics $M --log-file $W/ncu-$v-$s.csv \
        build/gemmprof -k $v -s $s -r 2 -w 1 --no-ceilings --no-report -o $W/n-$v-$s > $W/n-$v-$s.out 2>&1 || tail -3 $W/n-$v-$s.out
    python3 - $W/ncu-$v-$s.csv $v <<'PY'
import sys
sys.path.insert(0, "tests/gpu")
from ncu_csv import kernels, number
for k in kernels(sys.argv[1]):
    f = lambda c: number(k.get(c, "") or "nan")
    mb = f("lts__t_sectors_op_membar.sum") * 32 / 1e6
    print(f"ncu {sys.argv[2]:9s} {k['ID']:>3} {k['Kernel Name'][:24]:24s} L2 {f('lts__t_bytes.sum')/1e6:8.3f} MB  membar {mb:6.3f} MB"
          f" = {mb/1.367:4.2f} x 1.367  read {f('lts__t_sectors_op_read.sum')*32/1e6:8.3f} write {f('lts__t_sectors_op_write.sum')*32/1e6:7.3f}")
PY
done

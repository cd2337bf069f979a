#!/bin/bash
# Issue 13 diagnosis: do the tensor kernels' L2 bytes depend on where A, B and C lie in
# device memory? The same 2048^3 launches with GEMMPROF_DIAG_PAD_MB MiB allocated before
# the matrices (0 = none), 3 processes each; tiled as the SIMT control.
set -u; W=$OUT/w; mkdir -p $W; G=build/gemmprof
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
M=lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum
for round in 1 2 3; do
  for pad in 0 1 100 1000 5000; do
    if [ $pad = 0 ]; then unset GEMMPROF_DIAG_PAD_MB; else export GEMMPROF_DIAG_PAD_MB=$pad; fi
    $G -k tiled,tf32_mma,wgmma_rs -s 2048 -r 2 -w 1 --no-ceilings --no-report -m $M -o $W/p$pad-$round > $W/p$pad-$round.log 2>&1 || echo "pad $pad round $round: exit $?"
  done
done
unset GEMMPROF_DIAG_PAD_MB
python3 - $W <<'PY'
import csv, sys, statistics
w = sys.argv[1]
print("pad MiB  variant     L2 MB (3 processes)        SM requests MB            fabric MB  DRAM rd MB")
for pad in (0, 1, 100, 1000, 5000):
    by = {}
    for rnd in (1, 2, 3):
        for r in csv.DictReader(open(f"{w}/p{pad}-{rnd}/results.csv")):
            f = lambda k: float(r[k])
            by.setdefault(r["variant"], []).append((f("lts__t_bytes.sum") / 1e6, 32 * f("lts__t_sectors_srcunit_tex.sum") / 1e6,
                                                   32 * f("lts__t_sectors_srcunit_ltcfabric.sum") / 1e6, f("dram__bytes_read.sum") / 1e6))
    for v, xs in by.items():
        col = lambda i: " ".join(f"{x[i]:7.1f}" for x in xs)
        print(f"{pad:7d}  {v:10s} {col(0)}   {col(1)}   {xs[0][2]:6.1f}    {xs[0][3]:6.1f}")
PY
cd $OUT && tar czf pad.tgz w && rm -rf w

#!/bin/bash
# One call that records issue 12's evidence at one commit: build, the main job (the default
# run, recorded as results/h200/), the SIMT variants and cuBLAS at 1024^3, 1000x1500x700
# and 8192x64x4096 (simt_shapes/), and the tuner at 2048^3 and 1000x1500x700 (tune/).
set -u; W=$OUT/w; mkdir -p $W/logs; G=build/gemmprof
make -j16 GIT_REV=$(cat .gitrev) > $W/logs/build.log 2>&1 || { tail -20 $W/logs/build.log; exit 1; }
t0=$SECONDS; timeout 120 $G --out $W/run1 > $W/logs/run1.log 2>&1; echo "main job: exit $? after $((SECONDS - t0)) s"
grep -E "counter phase|rows, " $W/logs/run1.log | head -3
$G -k blocktile_1d,blocktile_2d,vectorized,warptile,swizzle,bigtile,dbuf,simt_auto,cublas -s 1024,1000x1500x700,8192x64x4096 \
   --no-report -o $W/simt_shapes > $W/logs/simt_shapes.log 2>&1; echo "simt shapes: exit $?"
for s in 2048x2048x2048 1000x1500x700; do
  timeout 100 $G --tune $s -o $W/tune/$s > $W/logs/tune-$s.log 2>&1; echo "tune $s: exit $?"
done
cd $OUT && tar czf rec.tgz w && rm -rf w

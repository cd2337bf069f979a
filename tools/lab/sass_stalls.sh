#!/bin/bash
# Issue 12 diagnosis: where in its SASS dbuf stalls, against cuBLAS's SGEMM kernel, at 4096^3:
# ncu's SourceCounters (per-instruction warp-state samples) for one timed launch of each,
# dumped as CSV (ncu --page source --print-source sass) under $OUT.
set -u; W=$OUT/w; mkdir -p $W; G=build/gemmprof
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
for v in dbuf cublas; do
  case $v in dbuf) kn=regex:gemm_simt_kernel ;; cublas) kn=regex:'sgemm|gemm' ;; esac
  ncu --section SourceCounters --section WarpStateStats --section LaunchStats --kernel-name "$kn" \
      --nvtx --nvtx-include "gemmprof@$v 4096x4096x4096/" --launch-skip 2 --launch-count 1 \
      -o $W/$v $G -k $v -s 4096 -r 3 -w 1 --no-counters --no-ceilings --no-report -o $W/run-$v > $W/ncu-$v.log 2>&1
  echo "$v: ncu exit $?"
  ncu --import $W/$v.ncu-rep --page source --csv --print-source sass > $W/$v-sass.csv 2>$W/$v-sass.err; echo "$v: source page exit $? $(wc -l < $W/$v-sass.csv) lines"
  ncu --import $W/$v.ncu-rep --page details > $W/$v-details.txt 2>&1
done
cd $OUT && tar czf sass.tgz w/*.csv w/*.txt w/*.log && rm -rf w

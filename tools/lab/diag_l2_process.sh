#!/bin/bash
# Issue 13 diagnosis: do the L2 bytes of the tensor kernels change from process to process
# (buffers at other physical addresses, so other L2 partitions), as ncu's did from session
# to session? gemmprof in 8 processes (tiled as a control, tf32_mma, wgmma_rs at 2048^3)
# and ncu in 4 (tf32_mma), with the SMs' own L2 requests and the L2-to-L2 fabric traffic.
set -u; W=$OUT/w; mkdir -p $W
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
G=build/gemmprof
for i in 1 2 3 4 5 6 7 8; do
  $G -k tiled,tf32_mma,wgmma_rs -s 2048 -r 2 -w 1 --no-ceilings --no-report -m lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum -o $W/g$i > $W/g$i.log 2>&1
  python3 -c "
import csv,sys
for r in csv.DictReader(open('$W/g$i/results.csv')):
    print('gemmprof proc $i', r['variant'], 'L2 MB %.1f' % (float(r['lts__t_bytes.sum'])/1e6), 'srcunit_tex MB %.1f' % (32*float(r['lts__t_sectors_srcunit_tex.sum'] or 'nan')/1e6) if r.get('lts__t_sectors_srcunit_tex.sum') else '', 'fabric MB %.1f' % (32*float(r['lts__t_sectors_srcunit_ltcfabric.sum'] or 'nan')/1e6), 'DRAM rd MB %.1f' % (float(r['dram__bytes_read.sum'])/1e6))
"
done
for i in 1 2 3 4; do
  ncu --replay-mode application --nvtx --nvtx-include "gemmprof@tf32_mma 2048x2048x2048/" --kernel-name regex:"tf32_mma|mma" --clock-control none --csv --page raw --print-units base --metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum --log-file $W/ncu$i.csv $G -k tf32_mma -s 2048 -r 3 -w 1 --no-ceilings --no-report -o $W/n$i > $W/n$i.out 2>&1
  python3 - $W/ncu$i.csv $i <<'PY'
import csv,sys
lines=[l for l in open(sys.argv[1]) if l.startswith('"')]
rows=list(csv.DictReader(lines))
for r in rows[1:]:
    if 'Kernel Name' in r and r.get('lts__t_bytes.sum','').replace('.','').isdigit():
        print('ncu proc', sys.argv[2], r['Kernel Name'][:40], 'L2 MB %.1f' % (float(r['lts__t_bytes.sum'])/1e6), 'tex MB %.1f' % (32*float(r['lts__t_sectors_srcunit_tex.sum'])/1e6), 'fabric MB %.1f' % (32*float(r['lts__t_sectors_srcunit_ltcfabric.sum'])/1e6), 'DRAM rd %.1f' % (float(r['dram__bytes_read.sum'])/1e6))
PY
done
cd $OUT && tar czf l2.tgz w && rm -rf w

#!/bin/bash
# Issue 12 experiment: dbuf against its slice as a loop of 8- and 4-step blocks (dbuf_u8,
# dbuf_u4): odd shapes, three timing sweeps at 4096^3 and 8192^3 beside cuBLAS, stall reasons.
set -u; W=$OUT/w; mkdir -p $W; G=build/gemmprof
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
$G -k dbuf,dbuf_u8,dbuf_u4 -s 1x1x1,17x33x65,1000x1500x700,1023,2049,64x2048x32 -r 2 -w 1 --no-counters --no-ceilings --no-report -o $W/odd > $W/odd.log 2>&1; echo "odd: exit $? $(grep -c ',ok,' $W/odd/results.csv) ok of 18"
for i in 1 2 3; do $G -k dbuf,dbuf_u8,dbuf_u4,cublas -s 4096,8192 --no-counters --no-report -o $W/t$i > $W/t$i.log 2>&1; echo "timing $i: exit $?"; done
$G -k dbuf,dbuf_u8,dbuf_u4,cublas -s 4096 --stalls --no-report -o $W/st > $W/st.log 2>&1; echo "stalls: exit $?"
python3 - $W <<'PY'
import csv,sys
w=sys.argv[1]
for i in (1,2,3):
    rows={(r['variant'],r['m']):float(r['flop_per_s'])/1e12 for r in csv.DictReader(open(f'{w}/t{i}/results.csv'))}
    for m in ('4096','8192'):
        c=rows[('cublas',m)]
        print(f'run {i} {m}: '+'  '.join(f'{v} {rows[(v,m)]:.2f} ({100*rows[(v,m)]/c:.1f}%)' for v in ('dbuf','dbuf_u8','dbuf_u4'))+f'  cublas {c:.2f}')
for r in csv.DictReader(open(f'{w}/st/results.csv')):
    st={k.split('stalled_')[1].split('_per')[0]:float(v) for k,v in r.items() if 'issue_stalled' in k and v}
    top=sorted(st.items(),key=lambda x:-x[1])[:7]
    print(r['variant'], 'issue %.1f%%'%float(r['smsp__issue_active.avg.pct_of_peak_sustained_active']), 'inst %.3g'%float(r['smsp__inst_executed.sum']), ' '.join(f'{k}={v:.2f}' for k,v in top))
PY
cd $OUT && tar czf ku.tgz w && rm -rf w

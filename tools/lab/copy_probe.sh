#!/bin/bash
# Issue 12: the transposed SIMT body with predicate-free copies for slices inside K and
# threads whose copies lie inside A and B. Correctness (every variant at odd shapes,
# memcheck and racecheck on dbuf and simt_auto), three timing sweeps of dbuf, simt_auto and
# cuBLAS at 4096^3 and 8192^3, and dbuf's stall reasons at 4096^3.
set -u; W=$OUT/w; mkdir -p $W; G=build/gemmprof
make -j16 GIT_REV=$(cat .gitrev) > $W/build.log 2>&1 || { tail -20 $W/build.log; exit 1; }
bash tests/gpu/test_variants.sh build > $W/variants.log 2>&1; grep -E "^(ok|FAIL)" $W/variants.log | cut -c1-150
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $G -k dbuf,simt_auto -s 17x33x65,130x67x45,300x520x200,1000x1500x700 \
      -r 1 -w 0 --no-ceilings --no-report --no-flush -o $W/$tool > $W/$tool.log 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$tool.log | tail -1)"
done
for i in 1 2 3; do $G -k dbuf,simt_auto,cublas -s 4096,8192 --no-counters --no-report -o $W/t$i > $W/t$i.log 2>&1; echo "timing $i: exit $?"; done
$G -k dbuf,cublas -s 4096 --stalls --no-report -o $W/st > $W/st.log 2>&1; echo "stalls: exit $?"
python3 - $W <<'PY'
import csv,sys
w=sys.argv[1]
for i in (1,2,3):
    rows={(r['variant'],r['m']):float(r['flop_per_s'])/1e12 for r in csv.DictReader(open(f'{w}/t{i}/results.csv'))}
    for m in ('4096','8192'):
        c=rows[('cublas',m)]
        print(f'sweep {i} {m}^3: '+'  '.join(f'{v} {rows[(v,m)]:.2f} ({100*rows[(v,m)]/c:.2f}%)' for v in ('dbuf','simt_auto'))+f'  cublas {c:.2f}')
for r in csv.DictReader(open(f'{w}/st/results.csv')):
    st={k.split('stalled_')[1].split('_per')[0]:float(v) for k,v in r.items() if 'issue_stalled' in k and v}
    top=sorted(st.items(),key=lambda x:-x[1])[:7]
    print(r['variant'], 'issue %.1f%%'%float(r['smsp__issue_active.avg.pct_of_peak_sustained_active']), 'inst %.4g'%float(r['smsp__inst_executed.sum']), ' '.join(f'{k}={v:.2f}' for k,v in top))
PY
cd $OUT && tar czf copy.tgz w/*.log w/t*/results.csv w/st/results.csv && rm -rf w

m=$(build/gemmprof --list-metrics | python3 tests/gpu/ncu_launch_compare.py --pick-metrics)
for mode in on off; do
  GEMMPROF_COUNTER_PDL=$mode timeout 25 build/gemmprof -m "$m" -k simt_auto,tf32_auto -s 1000x1500x700,5000x700x3001 -r 3 -w 1 --no-ceilings --no-report -o $OUT/pdl_$mode > $OUT/pdl_$mode.log 2>&1
  echo "pdl=$mode exit $?"
  python3 - $OUT/pdl_$mode/results.csv <<'PY'
import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    st={k.replace('stalled_','').replace('_per_issue_active',''):float(v) for k,v in r.items() if k.startswith('stalled_') and k.endswith('per_issue_active') and v not in ('','nan')}
    top=sorted(st.items(), key=lambda x:-x[1])[:4]
    print(r['variant'], r['m'], r['n'], r['k'], ' '.join(f"{k}={v:.3f}" for k,v in top), 'barrier=%.3f'%st.get('barrier',float('nan')))
PY
done

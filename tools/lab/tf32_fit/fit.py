# tf32_auto's rule replayed on the tuner tables with some constants of kernels/tf32_plan.h
# replaced, without rebuilding gemmprof:
#   python3 tools/lab/tf32_fit/fit.py [TF32_NAME=VALUE ...]   (from the repository root)
# TABLES (a glob, default results/h200/tune/tf32/*.csv, the newest per shape) picks the tables.
# "Newest": the time of the last commit that touched the table (a checkout gives every file
# the same mtime, so mtime alone picked by directory order), then mtime; an untracked or
# modified table counts as newer than any committed one.
# PLAN_SRC (default kernels/tf32_plan.c) replaces the rule's source, e.g. an edited copy
# with a candidate term (NOTES, sixth session); a NAME=VALUE whose NAME the header lacks is defined
# at its end.
import csv, glob, subprocess, os, sys, itertools, re, tempfile
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TMP = tempfile.mkdtemp(prefix='tf32_fit')
def age(t):
    r = subprocess.run(['git', '-C', ROOT, 'status', '--porcelain', '--', t], capture_output=True, text=True)
    c = subprocess.run(['git', '-C', ROOT, 'log', '-1', '--format=%ct', '--', t], capture_output=True, text=True)
    ct = float(c.stdout.strip()) if c.returncode == 0 and c.stdout.strip() and not r.stdout.strip() else float('inf')
    return (ct, os.path.getmtime(t))
newest = {}
for t in sorted(glob.glob(os.environ.get('TABLES', os.path.join(ROOT, 'results/h200/tune/tf32/*.csv'))), key=age):
    newest[os.path.basename(t).split('-')[0]] = t
tables = sorted(newest.values())
hdr = open(os.path.join(ROOT, 'kernels/tf32_plan.h')).read()
names = [l.split('(')[1].split(',')[0] for l in open(os.path.join(ROOT, 'kernels/tf32_configs.def')) if l.startswith('TF32_CONFIG(')]
data = []
for t in tables:
    rows = [r for r in csv.DictReader(open(t)) if r['status'] == 'ok']
    m, n, k = rows[0]['m'], rows[0]['n'], rows[0]['k']
    bps = {r['config_name']: r['blocks_per_sm'] for r in rows}
    meas = {(r['config_name'], int(r['split'])): float(r['time_median_s']) for r in rows}
    data.append((m, n, k, [bps.get(nm, '0') for nm in names], meas))
def build(over):
    h = hdr
    for key, val in over.items():
        if re.search(r'#define %s\s' % key, h):
            h = re.sub(r'#define %s\s+\S+' % key, '#define %s %s' % (key, val), h)
        else:
            h = h.replace('#ifdef __cplusplus\nextern', '#define %s %s\n#ifdef __cplusplus\nextern' % (key, val), 1)
    os.makedirs(os.path.join(TMP, 'inc/kernels'), exist_ok=True)
    open(os.path.join(TMP, 'inc/kernels/tf32_plan.h'), 'w').write(h)
    subprocess.check_call(['gcc', '-O2', '-std=c11', '-I' + os.path.join(TMP, 'inc'), '-I' + ROOT,
                           os.path.join(ROOT, 'tools/lab/tf32_fit/est.c'), os.path.join(ROOT, os.environ.get('PLAN_SRC', 'kernels/tf32_plan.c')),
                           '-lm', '-o', os.path.join(TMP, 'est')])
def score(verbose=False):
    out = []
    for (m, n, k, bps, meas), t in zip(data, tables):
        res = subprocess.run([os.path.join(TMP, 'est'), m, n, k] + bps, capture_output=True, text=True).stdout.split('\n')
        best = min(meas.values())
        cands = []
        for l in res:
            if not l: continue
            nm, sp, est = l.split(); key = (nm, int(sp))
            if key in meas: cands.append((float(est), key))
        pick = min(cands)[1]
        out.append(best / meas[pick])
        if verbose: print(f"{m}x{n}x{k} ({os.path.basename(t)}): pick {pick} {100*best/meas[pick]:.1f}%")
    return out
if __name__ == '__main__':
    over = dict(a.split('=') for a in sys.argv[1:])
    build(over); s = score(True); print('worst %.1f%%, under 95: %d' % (100*min(s), sum(x < .95 for x in s)))

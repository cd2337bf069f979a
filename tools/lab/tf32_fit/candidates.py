# Candidate terms for the 257x513x4099 miss, replayed on every table (from the repository root):
#   python3 tools/lab/tf32_fit/candidates.py
# The terms live in tools/lab/tf32_fit/plan_candidates.c (a lab copy of kernels/tf32_plan.c,
# every term off by default): (a) TF32_WG1_KT_CLK, a per-k-tile floor for a one-consumer block
# alone on its SM; (b) TF32_L2_BYTES_PER_CLK, a device-wide operand-traffic limit combined with
# the estimate by a TF32_OP_NORM-norm, over the bytes read (TF32_OP_FULL=0) or whole tiles (1),
# everywhere or only where A's rows are not 128-byte aligned (TF32_OP_MISALIGNED_ONLY=1).
# Prints, per candidate, the pick's % of the best plan at each table and the worst.
import os, sys
os.environ.setdefault('PLAN_SRC', 'tools/lab/tf32_fit/plan_candidates.c')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit import build, score, tables
cands = [{}]
cands += [{'TF32_WG1_KT_CLK': v} for v in (600, 650, 700, 750, 800, 1000, 1200)]
for full in (0, 1):
    for mis in (0, 1):
        for norm in (4, 8, 16):
            for v in (1500, 2000, 2400, 2800, 3200, 4000, 5000):
                cands.append({'TF32_L2_BYTES_PER_CLK': v, 'TF32_OP_NORM': norm, 'TF32_OP_FULL': full,
                              'TF32_OP_MISALIGNED_ONLY': mis})
print(' '.join('%8s' % os.path.basename(t).split('-')[0][:8] for t in tables), ' worst  candidate')
for c in cands:
    build({k: str(v) for k, v in c.items()}); s = score()
    print(' '.join('%7.1f%%' % (100 * x) for x in s), '%6.1f%%' % (100 * min(s)), c or 'current rule')

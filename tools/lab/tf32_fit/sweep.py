# Every combination of the values below; prints the best by worst pick, then mean pick.
from fit import build, score
import itertools
grid = {
 'TF32_SM_BYTES_PER_CLK': [16, 24, 32, 40, 48],
 'TF32_UNIT_CLK': [1000, 3000, 6000, 10000],
 'TF32_FIXUP_CLK': [500, 1500, 4000],
 'TF32_FIXUP_BYTES_PER_CLK': [32, 64, 128],
}
res = []
for vals in itertools.product(*grid.values()):
    over = dict(zip(grid.keys(), map(str, vals)))
    build(over); s = score()
    res.append((min(s), sum(s)/len(s), over))
res.sort(key=lambda r: (-r[0], -r[1]))
for r in res[:12]: print('%.3f %.4f %s' % r)

#!/usr/bin/env python3
"""Element-level diagnosis of gemmprof --dump-npy output, pure Python (no numpy on the GPU
machine). For every VARIANT_LABEL_C.npy in DIR (optionally renamed with a TAG prefix, e.g.
overlap.wgmma_ws_256x128x2048_C.npy), against a double reference from A_LABEL.npy and
B_LABEL.npy:
  - how many elements are off (> 4e-3 x rms of C);
  - where they sit inside a BMxBN tile (--tile, default 256x128 = wgmma_ws): by 64-row
    block of m, by 64-column half of n (consumer warpgroup) and 16-column warp slice;
  - for a few bad elements, which single k-tile (--bk, default 32) explains the error:
    missing (-p_t), doubled (+p_t), its B part taken from k-tile t+d (register fragment set
    or B stage from another k-tile), its A part taken from t+d (A stage), or both from t+d.
Usage: npy_diag.py DIR [--tile 256x128] [--bk 32] [--explain 6]
"""
import glob
import os
import re
import struct
import sys
from operator import mul


def load(path):
    with open(path, 'rb') as f:
        d = f.read()
    hl = struct.unpack('<H', d[8:10])[0]
    hdr = d[10:10 + hl].decode('latin1')
    shape = tuple(int(x) for x in hdr.split('(')[1].split(')')[0].split(',') if x.strip())
    body = d[10 + hl:]
    return shape, struct.unpack('<%df' % (len(body) // 4), body)


def main(argv):
    d = argv[1]
    bm, bn, bk, nexplain = 256, 128, 32, 6
    i = 2
    while i < len(argv):
        if argv[i] == '--tile':
            bm, bn = (int(x) for x in argv[i + 1].split('x'))
        elif argv[i] == '--bk':
            bk = int(argv[i + 1])
        elif argv[i] == '--explain':
            nexplain = int(argv[i + 1])
        i += 2
    refs = {}
    for cpath in sorted(glob.glob(os.path.join(d, '*_C.npy'))):
        mt = re.match(r'(.+)_(\d+x\d+x\d+)_C\.npy$', os.path.basename(cpath))
        if not mt:
            continue
        var, label = mt.groups()
        try:
            if label not in refs:
                (m, k), A = load(os.path.join(d, 'A_%s.npy' % label))
                (_, n), B = load(os.path.join(d, 'B_%s.npy' % label))
                rows = [A[r * k:(r + 1) * k] for r in range(m)]
                cols = [B[c::n] for c in range(n)]
                ref = [sum(map(mul, rows[r], cols[c])) for r in range(m) for c in range(n)]
                refs[label] = (m, n, k, rows, cols, ref)
            m, n, k, rows, cols, ref = refs[label]
            _, C = load(cpath)
        except (OSError, ValueError, IndexError, struct.error) as e:
            print('  %s %s: cannot read the .npy files: %s' % (var, label, e))
            continue
        scale = max(1e-30, (sum(r * r for r in ref) / len(ref)) ** 0.5)
        bad = [(r, c) for r in range(m) for c in range(n)
               if not abs(C[r * n + c] - ref[r * n + c]) <= 4e-3 * scale]  # NaN counts as bad
        print('  %-22s %-12s %d of %d elements off (> 4e-3 x rms)' % (var, label, len(bad), m * n))
        if not bad:
            continue
        ktiles = (k + bk - 1) // bk
        tiles_bad = {(r // bm, c // bn) for r, c in bad}
        print('      tiles with a bad element: %d of %d' % (len(tiles_bad), ((m + bm - 1) // bm) * ((n + bn - 1) // bn)))
        hist = lambda f, w: ' '.join('%d' % sum(1 for e in bad if f(e) == v) for v in range(w))
        print('      by 64-row m block in tile (%d): %s' % (bm // 64, hist(lambda e: (e[0] % bm) // 64, max(1, bm // 64))))
        print('      by 64-col n half (consumer WG): %s; by 16-col warp slice: %s' %
              (hist(lambda e: (e[1] % bn) // 64, max(1, bn // 64)), hist(lambda e: (e[1] % 64) // 16, 4)))
        print('      rows mod 8: %s; cols mod 16: %s' % (hist(lambda e: e[0] % 8, 8), hist(lambda e: e[1] % 16, 16)))
        for (r, c) in bad[:nexplain]:
            err = C[r * n + c] - ref[r * n + c]
            a, b = rows[r], cols[c]

            def part(ta, tb):  # sum over the k of k-tile ta of A[r][k] * B[k - 32 ta + 32 tb][c]
                lo_a, lo_b = ta * bk, tb * bk
                w = min(bk, k - lo_a, k - lo_b)
                if w <= 0 or lo_b < 0 or lo_a < 0:
                    return 0.0
                return sum(map(mul, a[lo_a:lo_a + w], b[lo_b:lo_b + w]))

            best = None
            for t in range(ktiles):
                p = part(t, t)
                cands = [('missing', -p), ('doubled', p)]
                for dd in (-4, -3, -2, -1, 1, 2, 3, 4):
                    if 0 <= t + dd < ktiles:
                        cands.append(('B from k-tile %+d' % dd, part(t, t + dd) - p))
                        cands.append(('A from k-tile %+d' % dd, part(t + dd, t) - p))
                        cands.append(('A,B from k-tile %+d' % dd, part(t + dd, t + dd) - p))
                for name, v in cands:
                    res = abs(err - v)
                    if best is None or res < best[0]:
                        best = (res, t, name)
            how = ('k-tile %d: %s (residual %.2g of error %.2g)' % (best[1], best[2], best[0], abs(err))
                   if best and best[0] <= 0.05 * abs(err) + 4e-3 * scale else
                   'no single-k-tile explanation (several k-tiles, or not a k-tile effect)')
            print('      C[%d][%d] = %.6g, want %.6g; %s' % (r, c, C[r * n + c], ref[r * n + c], how))


if __name__ == '__main__':
    main(sys.argv)

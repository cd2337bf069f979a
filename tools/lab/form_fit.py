"""What tools/lab/skinny_fit.py and tools/lab/short_fit.py share: the grid search of a
streaming form's constants against the tuner's measured plans, and the per-shape report.

rows: dicts with at least shape, name (the form), config and t (measured seconds); est(r, c,
eff) gives a row's estimate in seconds for constants c and the form's EFF eff."""
import itertools
import math


def loss(rows, est, c, effs):
    """The mean squared log of measured over estimated."""
    return sum(math.log(r["t"] / est(r, c, effs[r["name"]])) ** 2 for r in rows) / len(rows)


def fit(rows, est, grid, eff_values, eff_start):
    """(loss, constants, EFF per form) at the grid's best point; grid maps each constant to
    its values, each form's EFF is chosen from eff_values given the rest."""
    forms = sorted({r["name"] for r in rows})
    best = None
    for values in itertools.product(*grid.values()):
        c = dict(zip(grid, values))
        effs = {f: eff_start for f in forms}
        for f in forms:
            effs[f] = min((loss(rows, est, c, {**effs, f: e}), e) for e in eff_values)[1]
        l = loss(rows, est, c, effs)
        if best is None or l < best[0]:
            best = (l, c, effs)
    return best


def report(rows, est, c, effs, l, widths, extra=None):
    """The fit, then per shape the best measured plan against the plan the fitted estimate
    ranks first; extra(shape), if given, adds to each shape's line."""
    print(f"{len(rows)} plans of {len(effs)} forms; rms log error {math.sqrt(l):.3f}")
    print("constants:", ", ".join(f"{k} {v}" for k, v in c.items()), "| EFF:",
          ", ".join(f"{f} {e}" for f, e in effs.items()))
    shape_w, config_w, time_w = widths
    for shape in sorted({r["shape"] for r in rows}):
        rs = [r for r in rows if r["shape"] == shape]
        fastest = min(rs, key=lambda r: r["t"])
        ranked = min(rs, key=lambda r: est(r, c, effs[r["name"]]))
        print(f"{'x'.join(map(str, shape)):{shape_w}s} best {fastest['config']:{config_w}s} "
              f"{fastest['t'] * 1e6:{time_w}.1f} us | fitted pick {ranked['config']:{config_w}s} "
              f"{ranked['t'] * 1e6:{time_w}.1f} us ({100 * fastest['t'] / ranked['t']:.1f}%), est "
              f"{est(ranked, c, effs[ranked['name']]) * 1e6:.1f} us" + (extra(shape) if extra else ""))

#!/usr/bin/env python3
"""The few-rows kernel's constants (kernels/simt_plan.h, SIMT_SHORT_*; each form's EFF in
kernels/simt_short_forms.def) fitted to the tuner's measured times of its plans.

Reads `gemmprof --tune` tables (tune.csv), keeps the rows of the few-rows forms (config
"... short cV ..."), and mirrors short_cycles of kernels/simt_plan.c: the part of each row's
model_s that is not the GEMM's (the split's reduction) is kept as the table computed it. A
grid search minimises the mean squared log of measured / estimated; prints the constants,
then per shape the best measured plan against the plan the fitted estimate ranks first, and
the best tile plan of the table beside them.
    tools/lab/short_fit.py tune.csv [...]"""
import csv
import re
import sys

import form_fit

HZ = 1.98e9   # SIMT_MODEL_SM_HZ: model_s is est_cycles over it
SMS = 132
# the constants the tables were estimated with (kernels/simt_plan.h, the forms' EFF in
# kernels/simt_short_forms.def at the time of the run): edit before fitting newer tables
OLD = dict(b_bw=12.0, a_bw=8.0, fill=4000.0, rnd=300.0)
OLD_EFF = {4: 0.30, 8: 0.40, 16: 0.50, 32: 0.50}


def gemm_cycles(r, b_bw, a_bw, fill, rnd, eff):
    bm, bn, ks, m = r["bm"], r["bn"], r["k_slice"], r["m"]
    fixed = fill + 4.0 * m * ks / a_bw + rnd * -(-m // 4)
    cycles, left = 0.0, -(-r["blocks"] // SMS)
    while left > 0:
        w = min(left, r["per_sm"])
        cycles += max(w * 4.0 * bn * ks / b_bw, w * float(bm) * bn * ks / (128 * eff)) + fixed
        left -= r["per_sm"]
    return cycles


rows, tiles = [], {}
for path in sys.argv[1:]:
    for r in csv.DictReader(open(path)):
        if r["status"] != "ok":
            continue
        shape = (int(r["m"]), int(r["n"]), int(r["k"]))
        mt = re.match(r"(\d+)x(\d+)x(\d+) short c(\d+) ", r["config"] + " ")
        if not mt:
            if shape not in tiles or float(r["time_median_s"]) < tiles[shape][1]:
                tiles[shape] = (r["config"], float(r["time_median_s"]))
            continue
        row = dict(shape=shape, m=shape[0], name=r["config_name"], config=r["config"], bm=int(mt.group(1)),
                   bn=int(mt.group(2)), k_slice=int(r["k_slice"]), blocks=int(r["blocks"]),
                   per_sm=int(r["blocks_per_sm"]), t=float(r["time_median_s"]), model=float(r["model_s"]))
        row["rest"] = row["model"] * HZ - gemm_cycles(row, **OLD, eff=OLD_EFF[row["bm"]])
        rows.append(row)
if not rows:
    sys.exit("short_fit: no few-rows rows in " + " ".join(sys.argv[1:]))


def est(r, c, eff):
    return (gemm_cycles(r, **c, eff=eff) + r["rest"]) / HZ


l, c, effs = form_fit.fit(rows, est, dict(b_bw=[8, 10, 11, 12, 13, 14, 16], a_bw=[4, 8, 16],
                                          fill=[1000, 2000, 4000, 6000, 8000], rnd=[0, 300, 1000]),
                          [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0], 0.5)
form_fit.report(rows, est, c, effs, l, (14, 27, 7),
                lambda shape: f" | best tile {tiles.get(shape, ('-', float('nan')))[1] * 1e6:.1f} us")

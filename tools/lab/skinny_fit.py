#!/usr/bin/env python3
"""The few-columns kernel's constants (kernels/simt_plan.h, SIMT_SKINNY_*; each form's EFF in
kernels/simt_skinny_forms.def) fitted to the tuner's measured times of its plans.

Reads `gemmprof --tune` tables (tune.csv), keeps the rows of the few-columns forms (config
"... skinny rR ..."), and mirrors skinny_cycles of kernels/simt_plan.c: the part of each
row's model_s that is not the GEMM's (the reduction) is kept as the table computed it. A
grid search over the constants minimises the mean squared log of measured / estimated;
prints the constants, then per shape the best measured plan against the plan the fitted
estimate ranks first.
    tools/lab/skinny_fit.py [--hz 1.98e9] tune.csv [...]"""
import csv
import re
import sys

import form_fit

HZ = 1.98e9
args = sys.argv[1:]
if args[:1] == ["--hz"]:
    HZ, args = float(args[1]), args[2:]

# the constants the tables were estimated with (kernels/simt_plan.h at the time of the run;
# the forms' EFF was 0.70 for all): edit when fitting tables recorded with other constants
OLD = dict(a_bw=16.0, b_bw=48.0, lds=128.0, fill=3000.0, eff=0.70, lat=0.0)
# (lat: A's rate capped by the bytes a step of the SM's warps keeps in flight over lat cycles;
# on the H100's tables the fit turned it off, so kernels/simt_plan.c has no such term)
SMS = 132


def gemm_cycles(r, a_bw, b_bw, lds, fill, eff, lat):
    bm, bn, bk, rows = r["bm"], r["bn"], r["bk"], r["rows"]
    ks, blocks, per_sm = r["k_slice"], r["blocks"], r["per_sm"]
    a_bytes, fmas = 4.0 * bm * ks, float(bm) * bn * ks
    fixed = fill + 4.0 * bn * ks / b_bw
    cycles, left = 0.0, -(-blocks // SMS)
    while left > 0:
        w = min(left, per_sm)
        # A's rate: the SM's DRAM share, or the bytes its warps keep in flight (a step each) over lat
        rate = min(a_bw, w * 8 * rows * bk * 4 / lat) if lat else a_bw
        cycles += max(w * a_bytes / rate, w * fmas / (128 * eff), w * a_bytes * bn / rows / lds) + fixed
        left -= per_sm
    return cycles


rows = []
for path in args:
    for r in csv.DictReader(open(path)):
        m = re.match(r"(\d+)x(\d+)x(\d+) skinny r(\d+) ", r["config"] + " ")
        if not m or r["status"] != "ok":
            continue
        row = dict(shape=(int(r["m"]), int(r["n"]), int(r["k"])), name=r["config_name"], config=r["config"],
                   bm=int(m.group(1)), bn=int(m.group(2)), bk=int(m.group(3)), rows=int(m.group(4)),
                   k_slice=int(r["k_slice"]), blocks=int(r["blocks"]), per_sm=int(r["blocks_per_sm"]),
                   t=float(r["time_median_s"]), model=float(r["model_s"]))
        row["rest"] = row["model"] * HZ - gemm_cycles(row, **OLD)   # the reduction's cycles
        rows.append(row)
if not rows:
    sys.exit("skinny_fit: no few-columns rows in " + " ".join(args))



def est(r, c, eff):
    return (gemm_cycles(r, c["a_bw"], c["b_bw"], c["lds"], c["fill"], eff, c["lat"]) + r["rest"]) / HZ


l, c, effs = form_fit.fit(rows, est, dict(a_bw=[6, 7, 8, 9, 10, 12, 14, 16, 18], b_bw=[4, 8, 16, 32, 64],
                                          lds=[32, 48, 64, 80, 128], fill=[1000, 2000, 4000, 6000],
                                          lat=[0, 2000, 3000, 4000, 6000, 8000]),
                          [0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7], 0.7)
form_fit.report(rows, est, c, effs, l, (16, 32, 8))

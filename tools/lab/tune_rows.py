#!/usr/bin/env python3
"""A --tune table (tune.csv) as rows of the layout tests/test_simt_plan.c replays
(tests/data/h*_simt_tune*.csv): m,n,k,config_name,split,blocks_per_sm,time_median_s, the
name marked "+pad" (B's padded copy), "+peel" (a strip kernel), "+tail" (split past the
full waves only), "+sk" (stream-K). No header; appends nothing else.
    tools/lab/tune_rows.py tune.csv [...] >>table.csv"""
import csv
import sys

for path in sys.argv[1:]:
    for r in csv.DictReader(open(path)):
        r["config_name"] += ("+pad" if " padB " in r["config"] else "") + ("+peel" if " peel" in r["config"] else "") \
            + ("+tail" if " tail" in r["config"] else "") + ("+sk" if " streamk" in r["config"] else "")
        print(",".join(r[c] for c in ("m", "n", "k", "config_name", "split", "blocks_per_sm", "time_median_s")))

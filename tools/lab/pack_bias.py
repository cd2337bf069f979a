#!/usr/bin/env python3
"""The rule's bias by how a split plan's grid lands: measured / estimated time of every
split plan (no stream-K, few-rows or tail plans) of the tuner tables given, the estimate
as tools/lab/pick_replay.c -v prints it with the model built here, grouped by B's padding
(and peeling), the grid's share of its slots (blocks / (SMs x blocks_per_sm)) and whether
packing b blocks on each SM would load the busiest SM more than spreading them does
("packed>even": fewer blocks than slots and ceil(blocks / SMs) < b).
  cc -O2 -I. tools/lab/pick_replay.c analysis/csv.c analysis/infile.c -lm -o /tmp/pick_replay
  tools/lab/pack_bias.py /tmp/pick_replay results/h200/tune/simt/*.csv"""
import collections
import csv
import math
import re
import statistics
import subprocess
import sys

PLAN = re.compile(r"\s+plan (.*?)\s+est\s+([\d.]+) us meas\s+([\d.]+) us")
SMS = 132


def share(fraction):
    return "<0.5" if fraction < 0.5 else "0.5-0.8" if fraction < 0.8 else "0.8-1" if fraction <= 1 else ">1"


def main():
    groups = collections.defaultdict(list)
    for table in sys.argv[2:]:
        out = subprocess.run([sys.argv[1], "-v", table], capture_output=True, text=True).stdout
        est = {m.group(1).strip(): float(m.group(2)) for m in map(PLAN.match, out.splitlines()) if m}
        rows = list(csv.DictReader(open(table)))
        if not rows or not {"config", "blocks", "blocks_per_sm"} <= rows[0].keys():
            continue
        for r in rows:
            c = r["config"]
            if c not in est or r["status"] != "ok" or not r["time_median_s"]:
                continue
            if any(w in c for w in ("streamk", "short", "tail")):
                continue
            try:
                b, blocks = int(r["blocks_per_sm"]), int(r["blocks"])
            except ValueError:
                continue
            if b < 1:
                continue
            even = math.ceil(blocks / SMS)
            packed = min(b, blocks) if blocks < b * SMS else even
            kind = ("padB" if "padB" in c else "-") + ("+peel" if " peel" in c else "")
            key = (kind, share(blocks / (b * SMS)), "packed>even" if packed > even else "same")
            groups[key].append((float(r["time_median_s"]) * 1e6 / est[c], table))
    for key, v in sorted(groups.items()):
        ratios = sorted(x[0] for x in v)
        print(f"{' '.join(key):30s} plans {len(ratios):5d}  meas/est median {statistics.median(ratios):.3f}"
              f"  quartiles {ratios[len(ratios) // 4]:.3f}-{ratios[3 * len(ratios) // 4]:.3f}"
              f"  tables {len({x[1] for x in v})}")


if __name__ == "__main__":
    main()

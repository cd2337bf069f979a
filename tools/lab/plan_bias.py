#!/usr/bin/env python3
"""The rule's bias per tile and path: measured / estimated time of every plan of the tuner
tables given, as tools/lab/pick_replay.c -v prints them with the model built here, grouped
by tile, A's layout (aT or k-major) and B's padding; median and quartiles per group of 30
plans or more.
  cc -O2 -I. tools/lab/pick_replay.c analysis/csv.c analysis/infile.c -lm -o /tmp/pick_replay
  tools/lab/plan_bias.py /tmp/pick_replay results/h100/tune/simt/*.csv"""
import collections
import re
import statistics
import subprocess
import sys

PLAN = re.compile(r"\s+plan (\S+ \S+ \S+ \S+) (.*?)\s+est\s+([\d.]+) us meas\s+([\d.]+) us\s+meas/est ([\d.]+)")


def main():
    groups = collections.defaultdict(list)
    for table in sys.argv[2:]:
        out = subprocess.run([sys.argv[1], "-v", table], capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = PLAN.match(line)
            if m:
                tile, rest = m.group(1), m.group(2)
                key = (tile, "aT" if rest.startswith("aT") else "k-major", "padB" if "padB" in rest else "")
                groups[key].append(float(m.group(5)))
    for key, v in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        if len(v) >= 30:
            v.sort()
            print(f"{' '.join(key):44s} plans {len(v):5d}  meas/est median {statistics.median(v):.3f}"
                  f"  quartiles {v[len(v) // 4]:.3f}-{v[3 * len(v) // 4]:.3f}")


if __name__ == "__main__":
    main()

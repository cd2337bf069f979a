#!/usr/bin/env python3
"""ncu's source page of one launch (ncu --import R --page source --print-source sass --csv,
as tools/h200_session.sh's ncu_source writes it), summed two ways:
  1. warp-stall samples by reason, with the opcodes that hold most of each;
  2. in the hot loop (the FFMAs executed most often), dispatch-stall samples per FFMA by how
     many of its live source registers share a bank (registers mod 2 and mod 4; a source
     equal to the previous FFMA's same operand counts as reused, not read).
  tools/lab/sass_source.py FILE-source.csv"""
import collections
import csv
import re
import sys


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    hdr = rows[1]
    ix = {h: i for i, h in enumerate(hdr)}
    data = [r for r in rows[2:] if len(r) >= len(hdr)]
    reasons = [h for h in hdr if h.startswith("stall_") and "(Not" not in h]
    total, by_op, executed = collections.Counter(), collections.defaultdict(collections.Counter), collections.Counter()
    for r in data:
        words = r[ix["Source"]].split()
        op = (words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0] if words else "").split(".")[0]
        executed[op] += int(r[ix["Instructions Executed"]] or 0)
        for h in reasons:
            v = int(r[ix[h]] or 0)
            total[h] += v
            by_op[h][op] += v
    samples = sum(total.values())
    print(f"{sys.argv[1]}: {samples} samples, {sum(executed.values())} instructions executed")
    for h, v in total.most_common(12):
        top = ", ".join(f"{o}:{c}" for o, c in by_op[h].most_common(5))
        print(f"{h:22s} {v:8d} {100 * v / samples:5.1f}%  top ops: {top}")
    print("executed by op:", ", ".join(f"{o}:{c}" for o, c in executed.most_common(14)))

    counts = collections.Counter(int(r[ix["Instructions Executed"]] or 0) for r in data if "FFMA" in r[ix["Source"]])
    hot = counts.most_common(1)[0][0]
    stats, prev = collections.defaultdict(lambda: [0, 0]), None
    for r in data:
        if int(r[ix["Instructions Executed"]] or 0) != hot:
            continue
        m = re.match(r"\s*FFMA\S* R(\d+), R(\d+)\S*, R(\d+)\S*, R(\d+)", r[ix["Source"]])
        if not m:
            prev = None
            continue
        srcs = [int(m.group(i)) for i in (2, 3, 4)]
        live = [s for i, s in enumerate(srcs) if not (prev and prev[i] == s)]
        for banks in (2, 4):
            clash = max(collections.Counter(s % banks for s in live).values()) if live else 0
            stats[(banks, clash)][0] += 1
            stats[(banks, clash)][1] += int(r[ix["stall_dispatch"]] or 0)
        prev = srcs
    print(f"hot loop (FFMAs executed {hot} times each): dispatch-stall samples per FFMA")
    for (banks, clash), (n, disp) in sorted(stats.items()):
        print(f"  {banks} banks, {clash} live sources in one bank: {n:5d} FFMAs, {disp:6d} samples, {disp / n:5.1f} each")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Per timed call of each variant in a gemmprof trace (--trace), the GPU time split into
kernels and the idle gaps between them: where a small GEMM's time goes when it is more than
one launch (padded copies, split-K reductions).
  tools/lab/trace_gaps.py DIR/trace.json"""
import json
import sys
from statistics import median


def main():
    ev = json.load(open(sys.argv[1]))
    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    kernels = sorted((e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"), key=lambda e: e["ts"])
    ranges = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "nvtx"]
    timed = [e for e in ranges if e["name"].split("/")[-1] == "timed"]
    for r in timed:
        outer = [o for o in ranges if o is not r and o["ts"] <= r["ts"] and o["ts"] + o["dur"] >= r["ts"] + r["dur"]
                 and o["name"] != "timed"]
        label = min(outer, key=lambda o: o["dur"])["name"] if outer else r["name"]
        t0, t1 = r["ts"], r["ts"] + r["dur"]
        ks = [k for k in kernels if t0 <= k["ts"] <= t1]
        # calls: the L2 flush kernel separates them; a call is the kernels after one flush
        calls, cur = [], None
        for k in ks:
            if "flush" in k["name"].lower():
                cur = []
                calls.append(cur)
            elif cur is not None:
                cur.append(k)
        calls = [c for c in calls if c]
        if not calls:
            continue
        names = [k["name"][:40] for k in calls[0]]
        span = [c[-1]["ts"] + c[-1]["dur"] - c[0]["ts"] for c in calls]
        durs = [[k["dur"] for k in c] for c in calls if len(c) == len(names)]
        gaps = [[c[i + 1]["ts"] - (c[i]["ts"] + c[i]["dur"]) for i in range(len(c) - 1)] for c in calls
                if len(c) == len(names)]
        print(f"{label}: {len(calls)} calls, first kernel to last end median {median(span):.2f} us")
        for i, n in enumerate(names):
            line = f"    {n:40s} {median(d[i] for d in durs):8.2f} us"
            if i + 1 < len(names):
                line += f"   then idle {median(g[i] for g in gaps):6.2f} us"
            print(line)


if __name__ == "__main__":
    main()

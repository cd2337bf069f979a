#!/usr/bin/env python3
"""One line per kernel launch from `ncu --csv` output (raw metrics, one row per metric):
kernel, grid, duration, issue activity, the largest stall reasons and the memory figures.
  tools/lab/ncu_launches.py NCU_CSV"""
import csv
import sys

STALL = "smsp__average_warps_issue_stalled_"


def main():
    lines = [l for l in open(sys.argv[1], errors="replace") if l.startswith('"')]
    launches = {}
    for r in csv.DictReader(lines):
        key = r.get("ID")
        if key is None:
            continue
        d = launches.setdefault(key, {"name": r.get("Kernel Name", "?"), "grid": r.get("Grid Size", "?"),
                                      "block": r.get("Block Size", "?")})
        try:
            d[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            pass
    for key, d in launches.items():
        stalls = sorted(((v, k[len(STALL):].replace("_per_issue_active.ratio", "")) for k, v in d.items()
                         if k.startswith(STALL)), reverse=True)[:5]
        name = d["name"].split("(")[0][:60]
        print(f"{key:>3} {name:60s} grid {d['grid']:>12s} blk {d['block']:>10s} "
              f"{d.get('gpu__time_duration.sum', 0) / 1e3:8.1f} us  issue {d.get('smsp__issue_active.avg.pct_of_peak_sustained_active', 0):5.1f}%  "
              f"fma {d.get('sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active', 0):5.1f}%  "
              f"dram {d.get('dram__throughput.avg.pct_of_peak_sustained_elapsed', 0):5.1f}%  "
              f"l2 {d.get('lts__throughput.avg.pct_of_peak_sustained_elapsed', 0):5.1f}%  "
              f"warps {d.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0):5.1f}%  "
              + " ".join(f"{n}={v:.2f}" for v, n in stalls))


if __name__ == "__main__":
    main()

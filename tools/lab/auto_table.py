#!/usr/bin/env python3
"""Issue 28's tables from one run: each auto variant's share of its cuBLAS baseline per
shape (results.csv of one invocation), and the tuner's verdict on the rule's pick per
shape (tune.csv files: the picked row's pct_of_best).
  tools/lab/auto_table.py RESULTS_DIR [TUNE_CSV ...]"""
import csv
import sys

PAIRS = [("simt_auto", "cublas"), ("tf32_auto", "cublas_tf32"),
         ("bf16_wgmma", "cublas_bf16"), ("fp16_wgmma", "cublas_fp16")]


def main():
    rows = list(csv.DictReader(open(sys.argv[1] + "/results.csv")))
    t = {(r["variant"], f'{r["m"]}x{r["n"]}x{r["k"]}'): r for r in rows}
    shapes = list(dict.fromkeys(f'{r["m"]}x{r["n"]}x{r["k"]}' for r in rows))
    pairs = [p for p in PAIRS if any(v == p[0] for v, _ in t)]
    print("| shape | " + " | ".join(f"`{a}` / `{b}`" for a, b in pairs) + " |")
    print("|---|" + "---:|" * len(pairs))
    for s in shapes:
        cells = []
        for a, b in pairs:
            ra, rb = t.get((a, s)), t.get((b, s))
            if not ra or not rb or not ra["time_median_s"] or not rb["time_median_s"]:
                cells.append("-")
                continue
            ta, tb = float(ra["time_median_s"]), float(rb["time_median_s"])
            mark = "" if tb / ta >= 0.9 else " **<90%**"
            cells.append(f"{100 * tb / ta:.0f}% ({ta * 1e3:.4f} / {tb * 1e3:.4f} ms){mark}")
        print(f"| {s} | " + " | ".join(cells) + " |")
    if len(sys.argv) > 2:
        print()
        print("| tuner table | the rule's pick | its time / the best plan's | best plan |")
        print("|---|---|---:|---|")
        for f in sys.argv[2:]:
            tr = list(csv.DictReader(open(f)))
            ok = [r for r in tr if r.get("status", "ok") == "ok" and r["time_median_s"]]
            if not ok:
                print(f"| {f} | - | no rows | - |")
                continue
            best = min(ok, key=lambda r: float(r["time_median_s"]))
            pick = [r for r in ok if r.get("picked") in ("1", "yes", "*")]
            if not pick:
                print(f"| {f} | none marked | - | {best['config']} |")
                continue
            p = pick[0]
            share = float(best["time_median_s"]) / float(p["time_median_s"])
            mark = "" if share >= 0.95 else " **<95%**"
            shape = f'{p["m"]}x{p["n"]}x{p["k"]}'
            print(f"| {shape} | {p['config']} | {100 * share:.1f}%{mark} | {best['config']} |")


main()

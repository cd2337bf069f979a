"""Reads `ncu --csv --page raw` output: one dict per profiled kernel (units row dropped).
   ncu_csv.py kernels FILE        prints each profiled kernel's name, one per line
"""
import csv
import sys


def kernels(path):
    lines = [l for l in open(path) if not l.startswith("==")]
    rows = list(csv.reader(lines))
    if not rows:
        return []
    head = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(head) or not r[0].strip().isdigit():
            continue  # the units row, or noise
        out.append(dict(zip(head, r)))
    return out


def number(s):
    """A CSV cell as a float; NaN for an empty, "n/a" or otherwise unreadable cell."""
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return float("nan")


if __name__ == "__main__":
    if sys.argv[1] == "kernels":
        for k in kernels(sys.argv[2]):
            print(k["Kernel Name"])

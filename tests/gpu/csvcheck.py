"""Checks on a gemmprof results.csv, by column name. Used by the GPU tests.
   csvcheck.py all-ok FILE N    every row has status ok, and there are N rows
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    rs = rows(path)
    if cmd == "all-ok":
        want = int(sys.argv[3])
        bad = [r for r in rs if r["status"] != "ok"]
        for r in bad:
            print(f"  {r['variant']} {r['m']}x{r['n']}x{r['k']}: {r['status']} {r['error']}")
        ok = not bad and len(rs) == want
        print(f"  {len(rs)} rows (want {want}), {len(bad)} not ok")
        sys.exit(0 if ok else 1)
    sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()

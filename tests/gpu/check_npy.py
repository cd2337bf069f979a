"""The seed's check: C from each variant against numpy.dot of the same A and B (float64).
   check_npy.py DIR    (DIR as written by gemmprof --dump-npy: DIR/npy/*.npy, DIR/results.csv)
Prints one line per variant; exits 1 when any exceeds the tolerance gemmprof recorded."""
import csv
import glob
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    rows = {(r["variant"], f"{r['m']}x{r['n']}x{r['k']}"): r
            for r in csv.DictReader(open(os.path.join(out, "results.csv"), newline=""))}
    failed = 0
    checked = 0
    for cpath in sorted(glob.glob(os.path.join(out, "npy", "*_C.npy"))):
        base = os.path.basename(cpath)[:-len("_C.npy")]
        variant, shape = base.rsplit("_", 1)
        a = np.load(os.path.join(out, "npy", f"A_{shape}.npy")).astype(np.float64)
        b = np.load(os.path.join(out, "npy", f"B_{shape}.npy")).astype(np.float64)
        c = np.load(cpath)
        ref = np.dot(a, b)
        finite = bool(np.isfinite(c).all())
        rel = float(np.linalg.norm(c.astype(np.float64) - ref) / np.linalg.norm(ref)) if finite else float("inf")
        tol = float(rows[(variant, shape)]["tolerance"])
        good = finite and rel <= tol
        failed += not good
        checked += 1
        print(f"{'ok' if good else 'FAIL'} - numpy.dot check {variant} {shape}: rel err {rel:.3e} (tolerance {tol:.3e})")
    if checked == 0:
        print("FAIL - numpy check: no .npy files found")
        sys.exit(1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

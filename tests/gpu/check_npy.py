"""The seed's check: C from each variant against numpy.dot of the same A and B (float64).
   check_npy.py DIR    (DIR as written by gemmprof --dump-npy: DIR/npy/*.npy, DIR/results.csv)
A BF16 or FP16 row is checked against the product of A and B rounded here, to nearest
even, independently of gemmprof's own rounding (analysis/verify.c).
Prints one line per variant; exits 1 when any exceeds the tolerance gemmprof recorded."""
import csv
import glob
import os
import sys

import numpy as np


def rounded(x, precision):
    """x (float32) as a row of `precision` sees it, in float64."""
    x = x.astype(np.float32)
    if precision == "fp16":
        return x.astype(np.float16).astype(np.float64)
    if precision == "bf16":
        u = x.view(np.uint32).astype(np.uint64)
        u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
        return u.astype(np.uint32).view(np.float32).astype(np.float64)
    return x.astype(np.float64)


def main():
    out = sys.argv[1]
    rows = {(r["variant"], f"{r['m']}x{r['n']}x{r['k']}"): r
            for r in csv.DictReader(open(os.path.join(out, "results.csv"), newline=""))}
    failed = 0
    checked = 0
    for cpath in sorted(glob.glob(os.path.join(out, "npy", "*_C.npy"))):
        base = os.path.basename(cpath)[:-len("_C.npy")]
        variant, shape = base.rsplit("_", 1)
        prec = rows[(variant, shape)]["precision"]
        a = rounded(np.load(os.path.join(out, "npy", f"A_{shape}.npy")), prec)
        b = rounded(np.load(os.path.join(out, "npy", f"B_{shape}.npy")), prec)
        c = np.load(cpath)
        ref = np.dot(a, b)
        finite = bool(np.isfinite(c).all())
        rel = float(np.linalg.norm(c.astype(np.float64) - ref) / np.linalg.norm(ref)) if finite else float("inf")
        tol = float(rows[(variant, shape)]["tolerance"])
        good = finite and rel <= tol
        failed += not good
        checked += 1
        print(f"{'ok' if good else 'FAIL'} - numpy.dot check {variant} {shape} ({prec}): rel err {rel:.3e} "
              f"(tolerance {tol:.3e})")
    if checked == 0:
        print("FAIL - numpy check: no .npy files found")
        sys.exit(1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

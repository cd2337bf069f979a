"""Compares gemmprof's CUPTI counters with ncu's for the same launch.
   ncu_compare.py RESULTS_CSV NCU_CSV VARIANT SHAPE
SASS instruction counts must be equal, byte counts within 2%. Prints a table row per
metric and exits 1 on a mismatch."""
import csv
import sys

from ncu_csv import kernels, number

SASS = ("smsp__sass_",)
BYTES = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum")


def main():
    res, ncu, variant, shape = sys.argv[1:5]
    m, n, k = shape.split("x")
    row = next(r for r in csv.DictReader(open(res, newline=""))
               if r["variant"] == variant and (r["m"], r["n"], r["k"]) == (m, n, k))
    ks = kernels(ncu)
    if not ks:
        print(f"FAIL - ncu compare {variant} {shape}: ncu profiled no kernel")
        return 1
    bad = 0
    print(f"  {variant} {shape}: ncu kernels: {'; '.join(sorted(set(x['Kernel Name'][:60] for x in ks)))}")
    print(f"  {'metric':62s} {'gemmprof':>16s} {'ncu':>16s} {'diff':>8s}")
    for name in ks[0]:
        if name not in row or not row[name]:
            continue
        ours = float(row[name])
        theirs = sum(number(x[name]) for x in ks)
        diff = (ours - theirs) / theirs if theirs else (0.0 if ours == 0 else float("inf"))
        if name.startswith(SASS):
            good = ours == theirs
        elif name in BYTES:
            # tiny counts (a few KB of DRAM writes) are noise-dominated: 2% or 64 KiB
            good = abs(ours - theirs) <= max(0.02 * theirs, 65536)
        else:
            good = True  # clocks, durations and peaks are shown, not judged
        bad += not good
        print(f"  {name:62s} {ours:16.6g} {theirs:16.6g} {diff*100:7.2f}% {'' if good else '<-- MISMATCH'}")
    print(f"{'ok' if not bad else 'FAIL'} - gemmprof counters agree with ncu for {variant} {shape}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

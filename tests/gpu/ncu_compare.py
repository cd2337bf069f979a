"""Compares gemmprof's CUPTI counters with ncu's for the same kernels in the same state.
   ncu_compare.py RESULTS_CSV NCU_CSV VARIANT SHAPE KERNELS_PER_CALL
NCU_CSV holds ncu's view of the variant's timed calls, each after gemmprof's L2 flush (the
state gemmprof's counter passes start from); flush kernels, if any, are dropped.
SASS instruction counts must be equal in every call; byte counts within 2% (or 64 KiB) of
ncu's median over the calls, except DRAM writes, judged against ncu's call with the fewest:
what ncu does around a kernel only ever adds write-backs to it. On the H200, one call in
three carries +2.3 MB at 2048^3 (naive: 9.24, 9.37 and 11.74 MB), as do the verify call
(written from the host just before) and every pass after the first in kernel replay
(restored from a saved copy). Prints a table row per metric; exits 1 on a mismatch."""
import csv
import statistics
import sys

from ncu_csv import kernels, number

SASS = ("smsp__sass_",)
BYTES = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum")
LEAST_DISTURBED = ("dram__bytes_write.sum",)
FLUSH = "l2_flush_kernel"


def calls(ks, per_call):
    """ncu's kernels grouped into the variant's calls, `per_call` kernels each."""
    gemm = [k for k in ks if not k["Kernel Name"].startswith(FLUSH)]
    return [gemm[i:i + per_call] for i in range(0, len(gemm) - per_call + 1, per_call)]


def main():
    res, ncu, variant, shape, per_call = sys.argv[1:6]
    m, n, k = shape.split("x")
    row = next(r for r in csv.DictReader(open(res, newline=""))
               if r["variant"] == variant and (r["m"], r["n"], r["k"]) == (m, n, k))
    ks = kernels(ncu)
    groups = calls(ks, int(per_call))
    if not groups or len(ks) % int(per_call):
        print(f"FAIL - ncu compare {variant} {shape}: ncu profiled {len(ks)} kernels, "
              f"not whole calls of {per_call}")
        return 1
    bad = 0
    names = sorted(set(x["Kernel Name"][:60] for g in groups for x in g))
    print(f"  {variant} {shape}: ncu profiled {len(groups)} calls of: {'; '.join(names)}")
    print(f"  {'metric':50s} {'gemmprof':>14s} {'ncu':>14s} {'ncu min':>12s} {'ncu max':>12s} {'diff':>8s}")
    for name in groups[0][0]:
        if name not in row or not row[name]:
            continue
        ours = float(row[name])
        per_call_values = [sum(number(x[name]) for x in g) for g in groups]
        lo, hi = min(per_call_values), max(per_call_values)
        theirs = lo if name in LEAST_DISTURBED else statistics.median(per_call_values)
        diff = (ours - theirs) / theirs if theirs else (0.0 if ours == 0 else float("inf"))
        if name.startswith(SASS):
            good = lo == ours == hi
        elif name in BYTES:
            # tiny counts (a few KB of DRAM writes) are noise-dominated: 2% or 64 KiB
            good = abs(ours - theirs) <= max(0.02 * theirs, 65536)
        else:
            good = True  # clocks, durations and peaks are shown, not judged
        bad += not good
        print(f"  {name:50s} {ours:14.6g} {theirs:14.6g} {lo:12.6g} {hi:12.6g} "
              f"{diff*100:7.2f}% {'' if good else '<-- MISMATCH'}")
    print(f"{'ok' if not bad else 'FAIL'} - gemmprof counters agree with ncu for {variant} {shape}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Compares gemmprof's CUPTI counters with ncu's for the same kernels in the same state.
   ncu_compare.py RESULTS_CSV NCU_CSV VARIANT SHAPE KERNELS_PER_CALL
NCU_CSV holds ncu's view of the variant's timed calls, each after gemmprof's L2 flush (the
state gemmprof's counter passes start from); flush kernels, if any, are dropped. Per metric,
ncu's value is the median over those calls, since DRAM write-backs vary from call to call.
SASS instruction counts must be equal, byte counts within 2% (or 64 KiB). Prints a table row
per metric and exits 1 on a mismatch."""
import csv
import statistics
import sys

from ncu_csv import kernels, number

SASS = ("smsp__sass_",)
BYTES = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum")
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
    print(f"  {'metric':50s} {'gemmprof':>14s} {'ncu median':>14s} {'ncu min':>12s} {'ncu max':>12s} {'diff':>8s}")
    for name in groups[0][0]:
        if name not in row or not row[name]:
            continue
        ours = float(row[name])
        per_call_values = [sum(number(x[name]) for x in g) for g in groups]
        theirs = statistics.median(per_call_values)
        diff = (ours - theirs) / theirs if theirs else (0.0 if ours == 0 else float("inf"))
        if name.startswith(SASS):
            good = ours == theirs
        elif name in BYTES:
            # tiny counts (a few KB of DRAM writes) are noise-dominated: 2% or 64 KiB
            good = abs(ours - theirs) <= max(0.02 * theirs, 65536)
        else:
            good = True  # clocks, durations and peaks are shown, not judged
        bad += not good
        print(f"  {name:50s} {ours:14.6g} {theirs:14.6g} {min(per_call_values):12.6g} "
              f"{max(per_call_values):12.6g} {diff*100:7.2f}% {'' if good else '<-- MISMATCH'}")
    print(f"{'ok' if not bad else 'FAIL'} - gemmprof counters agree with ncu for {variant} {shape}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Compares gemmprof's CUPTI counters with ncu's for the same kernels in the same state.
   ncu_compare.py RESULTS_CSV[,RESULTS_CSV...] NCU_CSV VARIANT SHAPE KERNELS_PER_CALL
NCU_CSV holds ncu's view of the variant's timed calls, each after gemmprof's L2 flush (the
state gemmprof's counter passes start from); flush kernels, if any, are dropped. Medians on
both sides: several gemmprof runs, several ncu calls. DRAM writes of a kernel whose output
fits in the L2 are capacity evictions and differ from call to call under either tool (H200,
naive at 2048^3: gemmprof 9.06-9.57 MB, ncu 9.24-9.60 MB, and +2.3 MB in about one ncu call
in three), so one sample against one sample cannot show agreement within 2%.
SASS instruction counts must be equal in every run and call; byte counts within 2% (or
64 KiB). Prints a table row per metric; exits 1 on a mismatch."""
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
    results, ncu, variant, shape, per_call = sys.argv[1:6]
    m, n, k = shape.split("x")
    rows = [next(r for r in csv.DictReader(open(path, newline=""))
                 if r["variant"] == variant and (r["m"], r["n"], r["k"]) == (m, n, k))
            for path in results.split(",")]
    ks = kernels(ncu)
    groups = calls(ks, int(per_call))
    if not groups or len(ks) % int(per_call):
        print(f"FAIL - ncu compare {variant} {shape}: ncu profiled {len(ks)} kernels, "
              f"not whole calls of {per_call}")
        return 1
    bad = 0
    names = sorted(set(x["Kernel Name"][:60] for g in groups for x in g))
    print(f"  {variant} {shape}: {len(rows)} gemmprof runs; ncu profiled {len(groups)} calls of: "
          f"{'; '.join(names)}")
    print(f"  {'metric':50s} {'gemmprof':>12s} {'min':>10s} {'max':>10s} {'ncu':>12s} "
          f"{'min':>10s} {'max':>10s} {'diff':>8s}")
    for name in groups[0][0]:
        if any(name not in r or not r[name] for r in rows):
            continue
        mine = [float(r[name]) for r in rows]
        theirs = [sum(number(x[name]) for x in g) for g in groups]
        ours, ncus = statistics.median(mine), statistics.median(theirs)
        diff = (ours - ncus) / ncus if ncus else (0.0 if ours == 0 else float("inf"))
        if name.startswith(SASS):
            good = min(mine) == max(mine) == min(theirs) == max(theirs)
        elif name in BYTES:
            # tiny counts (a few KB of DRAM writes) are noise-dominated: 2% or 64 KiB
            good = abs(ours - ncus) <= max(0.02 * ncus, 65536)
        else:
            good = True  # clocks, durations and peaks are shown, not judged
        bad += not good
        print(f"  {name:50s} {ours:12.6g} {min(mine):10.4g} {max(mine):10.4g} {ncus:12.6g} "
              f"{min(theirs):10.4g} {max(theirs):10.4g} {diff*100:7.2f}% {'' if good else '<-- MISMATCH'}")
    print(f"{'ok' if not bad else 'FAIL'} - gemmprof counters agree with ncu for {variant} {shape}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

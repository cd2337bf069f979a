"""gemmprof's launch facts, occupancy, issue-slot use and stall breakdown against ncu's
LaunchStats, Occupancy and WarpStateStats for the same launches (issue 10).
   ncu_launch_compare.py RESULTS_CSV[,RESULTS_CSV...] NCU_CSV CASES [--calls N]
                         [--stalls-ncu NCU_CSV2 --stalls-cases CASES2]
       (several gemmprof runs: the median of each numeric cell)
       CASES: VARIANT:MxNxK,... in the order gemmprof ran them (shapes outer, variants
       inner); NCU_CSV holds ncu's view of N timed calls of each case, in that order
   ncu_launch_compare.py --criterion      prints the criterion below
   ncu_launch_compare.py --pick-metrics   reads `gemmprof --list-metrics` on stdin, prints
                                          the -m list gemmprof needs for this comparison
   ncu_launch_compare.py --ncu-metrics [PICKED]
                                          prints the --metrics list ncu is given besides its
                                          LaunchStats, Occupancy and WarpStateStats sections
                                          (with the stall ratios of PICKED, the -m list)
   ncu_launch_compare.py --several RESULTS_CSV
                                          "VARIANTS SHAPES CASES" of the rows whose call holds
                                          several kernels (nothing if none), for the second
                                          profile --stalls-ncu reads
   ncu_launch_compare.py --names RESULTS_CSV
                                          the function names of every row's kernels,
                                          '|'-separated: an ncu --kernel-name regex for them
ncu's kernels are assigned to the cases in order: each call of a case must hold the kernels
gemmprof's `kernels` column names for that row (by function name, in any order). Prints the
criterion's table per case and ok/FAIL/skip lines; exits 1 on a FAIL."""
import argparse
import csv
import math
import re
import statistics
import sys

from ncu_csv import base, demangle, kernels, number, split_cases

POINTS = 2.0      # occupancy and issue-slot use: within this many percentage points
RANGE_LO, RANGE_HI = "min over runs: ", "max over runs: "   # median_runs' extra cells
TIE = 0.05        # stall reasons within 5% of each other may swap places: the two tools'
                  # ratios of one reason differ by about that much (tf32_auto 5000x700x3001 on
                  # the H200: long_scoreboard 9.63 against ncu's 10.09, lg_throttle 1.14 against 1.06)

# ncu's names, in one place. Achieved occupancy, issue-slot use, the instruction count and
# the stall ratios are gemmprof's own column names too (analysis/metrics.def).
ACHIEVED = "sm__warps_active.avg.pct_of_peak_sustained_active"
ISSUE = "smsp__issue_active.avg.pct_of_peak_sustained_active"
RUN_RANGE = (ACHIEVED, ISSUE)   # rates judged against the range of gemmprof's runs too
INST = "smsp__inst_executed.sum"
DURATION = "gpu__time_duration.sum"
THEORETICAL = "sm__maximum_warps_per_active_cycle_pct"
GRID_SIZE = "launch__grid_size"
BLOCK_SIZE = "launch__block_size"
WAVES = "launch__waves_per_multiprocessor"
GRID_DIMS = ("launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z")     # if present
BLOCK_DIMS = ("launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z")
GRID_COL, BLOCK_COL = "Grid Size", "Block Size"  # ncu's raw page: "(64, 64, 1)"
STALL = re.compile(r"^smsp__average_warps_issue_stalled_([a-z_]+?)_per_issue_active\.ratio$")
# gemmprof column -> ncu metric, judged equal
EQUAL = (("registers_per_thread", "launch__registers_per_thread"),
         ("smem_static_bytes", "launch__shared_mem_per_block_static"),
         ("smem_dynamic_bytes", "launch__shared_mem_per_block_dynamic"),
         ("smem_config_bytes", "launch__shared_mem_config_size"),
         ("blocks", GRID_SIZE))
LIMITS = (("block_limit_registers", "launch__occupancy_limit_registers"),
          ("block_limit_smem", "launch__occupancy_limit_shared_mem"),
          ("block_limit_warps", "launch__occupancy_limit_warps"),
          ("block_limit_blocks", "launch__occupancy_limit_blocks"))
WAVES_TOL = 0.01  # waves: ncu prints them to two decimals
# denominators of those rates, to combine the kernels of a call (weight_of)
ACTIVE_CYCLES_SM = "sm__cycles_active.sum"
ACTIVE_CYCLES_SMSP = "smsp__cycles_active.sum"
ISSUE_ACTIVE = "smsp__issue_active.sum"
NCU_METRICS = ((GRID_SIZE, BLOCK_SIZE, THEORETICAL, WAVES, ACHIEVED, ISSUE, INST, DURATION,
                ACTIVE_CYCLES_SM, ACTIVE_CYCLES_SMSP, ISSUE_ACTIVE)
               + tuple(n for _, n in EQUAL if n != GRID_SIZE) + tuple(n for _, n in LIMITS))
LAUNCH_COLS = ("launch_kernel", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z")

CRITERION = f"""\
criterion (one ncu profile of every case's timed calls, --clock-control none;
  a call of several kernels (cuBLAS, split-K, the TMA kernels' operand copies): launch facts
  from the kernel gemmprof names in launch_kernel, which must be the longest-running one of
  ncu's call (or within 20% of it); rates
  and ratios of the call as gemmprof's one range measures them: each kernel's value
  weighted by its ratio's denominator (active cycles for occupancy and issue slots,
  issue-active cycles for stall ratios)):
  grid and block dimensions (x, y, z) and their products (launch__grid_size,
  launch__block_size, gemmprof's blocks), registers per thread, static and dynamic shared
  memory per block: equal to ncu's
  block limits (registers, shared memory, warps, blocks; launch__occupancy_limit_*): equal;
  waves per SM within {WAVES_TOL} of launch__waves_per_multiprocessor
  theoretical occupancy (occupancy_theoretical_pct vs {THEORETICAL}) and achieved
  occupancy ({ACHIEVED}): within {POINTS:g} percentage points of ncu's median
  issue-slot utilisation ({ISSUE}): within {POINTS:g} points of ncu's median (one-kernel
  calls; for a call of several kernels it is shown: ncu flushes the caches between them)
  (achieved occupancy and issue slots: also ok when the range of gemmprof's runs and the
  range of ncu's calls come within {POINTS:g} points of each other, since with a partial
  last wave both vary from launch to launch by more than {POINTS:g} points under either tool;
  with one wave or more and a full tail the ranges are narrower than the tolerance)
  stall reasons (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, every
  reason either side reports, 'selected' and 'not_selected' included, as WarpStateStats
  shows them): gemmprof's top three by ratio in the order of ncu's top three; at a place
  where they differ, the two reasons must tie within {TIE:.0%} of the larger ratio in ncu's
  values or in gemmprof's (a tie's order is noise, so it may swap); no_instruction, where
  gemmprof's ratio is above ncu's, is left out of both lists and shown: each of gemmprof's
  replay passes runs every range of the run, so a call starts with its code out of the
  instruction caches, while ncu's timed calls follow one another; a call of several kernels
  is judged against a second ncu profile without ncu's cache flush between its kernels
  (--cache-control none, gemmprof's own flush before each call as in its counter phase):
  with the flush, a later kernel reads the first one's output from DRAM, not L2
  a judged value missing, empty or not finite on either side fails; a column gemmprof does
  not write at all (feature not built) is a visible skip; {INST} is shown, not judged"""


def close(a, b):
    return abs(a - b) <= TIE * max(abs(a), abs(b))


def top3(values):
    return sorted(values, key=lambda r: (-values[r], r))[:3]


# gemmprof's ranges start with cold instruction caches (see the criterion)
COLD_START = "no_instruction"


def same_order(gp, nc):
    """gemmprof's and ncu's stall ratios by reason -> (holds, note)."""
    left_out = ""
    if gp.get(COLD_START, 0.0) > nc.get(COLD_START, 0.0):
        left_out = f"{COLD_START} left out (gemmprof's {gp[COLD_START]:.3g} above ncu's {nc.get(COLD_START, 0.0):.3g})"
        gp = {r: v for r, v in gp.items() if r != COLD_START}
        nc = {r: v for r, v in nc.items() if r != COLD_START}
    holds, note = same_order_of(gp, nc)
    return holds, "; ".join(x for x in (left_out, note) if x)


def same_order_of(gp, nc):
    tg, tn = top3(gp), top3(nc)
    if len(tg) < 3 or len(tn) < 3:
        return False, f"fewer than three reasons (gemmprof {len(tg)}, ncu {len(tn)})"
    ties = []
    for i, (g, n) in enumerate(zip(tg, tn)):
        if g == n:
            continue
        if g not in nc or n not in gp:
            who = "ncu" if g not in nc else "gemmprof"
            return False, f"place {i + 1}: {g if g not in nc else n} is not in {who}'s breakdown"
        if close(nc[g], nc[n]) or close(gp[g], gp[n]):
            ties.append(f"{g}/{n} at place {i + 1}")
            continue
        return False, (f"place {i + 1}: gemmprof {g} ({gp[g]:.3g}), ncu {n} ({nc[n]:.3g}); "
                       f"ncu's {g} {nc[g]:.3g}, gemmprof's {n} {gp[n]:.3g}: no tie within {TIE:.0%}")
    return True, ("swapped within a tie: " + ", ".join(ties)) if ties else ""


def key(name):
    """A kernel's name with its template arguments, for telling apart two instantiations of
    one function: 'void cutlass::Kernel2<X>(Params)' -> 'Kernel2<X>'."""
    n = demangle(name.strip())
    if n.startswith("void "):
        n = n[5:]
    n = re.sub(r"\s+", "", n)
    depth = 0
    for i, ch in enumerate(n):
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "(" and depth == 0:
            n = n[:i]
            break
    head, sep, tmpl = n.partition("<")
    return head.split("::")[-1] + sep + tmpl


def cell(row, name):
    """A gemmprof cell as a float; NaN when empty or unreadable."""
    return number(row.get(name) or "")


def dims(k, col, names):
    """ncu's (x, y, z) of a kernel, from the raw page's "(x, y, z)" column or the
    launch__*_dim_* metrics; None if neither is there."""
    if k.get(col):
        got = [float(x) for x in re.findall(r"\d+", k[col])]
        if len(got) == 3:
            return got
    if all(n in k for n in names):
        return [number(k[n]) for n in names]
    return None


def weight_of(name):
    """The counter a per-kernel rate is a ratio over: gemmprof's range spans every kernel
    of the call, so CUPTI divides the summed numerators by the summed denominators, which
    is each kernel's rate weighted by its own denominator."""
    if name == ACHIEVED:
        return ACTIVE_CYCLES_SM
    if name == ISSUE:
        return ACTIVE_CYCLES_SMSP
    if STALL.match(name):
        return ISSUE_ACTIVE
    return DURATION


def wavg(name, call):
    """ncu's value of a call as gemmprof's one range over its kernels measures it: each
    kernel's value weighted by the denominator of its ratio (weight_of), or by duration
    where ncu did not report that counter."""
    xs = [number(k.get(name, "")) for k in call]
    if len(xs) == 1:
        return xs[0]
    w = [number(k.get(weight_of(name), "")) for k in call]
    if not all(math.isfinite(x) for x in w) or sum(w) <= 0:
        w = [number(k.get(DURATION, "")) for k in call]
    if not all(math.isfinite(x) for x in xs + w) or sum(w) <= 0:
        return float("nan")
    return sum(a * b for a, b in zip(xs, w)) / sum(w)


class Case:
    def __init__(self, what):
        self.what, self.lines, self.verdicts = what, [], []

    def show(self, name, ours, theirs, good=None, note=""):
        mark = "" if good is None else ("" if good else " <-- MISMATCH")
        self.lines.append(f"  {name:66s} {fmt(ours):>14s} {fmt(theirs):>14s}  {note}{mark}")

    def verdict(self, good, text):
        self.verdicts.append(f"{'ok' if good else 'FAIL'} - {text} ({self.what})")
        return good


def fmt(x):
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple)):
        return "(" + ", ".join(fmt(v) for v in x) + ")"
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a" if x is None else str(x)
    return f"{x:.6g}"


def finite(*xs):
    return all(isinstance(x, float) and math.isfinite(x) for x in xs)


def judge(c, row, calls, has, stall_calls=None):
    """All checks of one case; returns the number of FAILs. stall_calls: ncu's calls of the
    case without its cache flush between kernels, for the stall ratios (None: calls)."""
    call = calls[0]
    # the kernel gemmprof gives launch facts for, in ncu's call
    lk = row.get("launch_kernel", "") if has["launch"] else ""
    match = None
    if has["launch"]:
        named = [k for k in call if key(k["Kernel Name"]) == key(lk)] or \
                [k for k in call if base(k["Kernel Name"]) == base(lk)]
        match = named[0] if lk.strip() and len(named) >= 1 else None
    def duration(k):
        t = number(k.get(DURATION, ""))
        return t if math.isfinite(t) else -1
    longest = max(call, key=duration)
    names = " + ".join(k["Kernel Name"][:50] for k in call)
    c.lines.append(f"  {c.what}: ncu's call of {len(call)} kernel{'s' if len(call) > 1 else ''}: {names}")
    c.lines.append(f"  {'quantity':66s} {'gemmprof':>14s} {'ncu':>14s}")

    if has["launch"]:
        good = match is not None
        if not lk.strip():
            c.lines.append("  gemmprof's launch_kernel is empty <-- MISMATCH")
        elif match is None:
            c.lines.append(f"  gemmprof's launch_kernel {lk[:60]} is not in ncu's call <-- MISMATCH")
        else:
            k = match
            if len(call) > 1:
                # the main kernel is the longest-running one; ncu's flush between kernels
                # can stretch a short helper, so it must only be the longest within 20%
                ok_main = duration(k) >= 0.8 * duration(longest) > 0
                good &= ok_main
                c.show("longest-running kernel (the call's main one)", base(lk), base(longest["Kernel Name"]), ok_main)
            for what, cols, col, names_ in (("grid", ("grid_x", "grid_y", "grid_z"), GRID_COL, GRID_DIMS),
                                            ("block", ("block_x", "block_y", "block_z"), BLOCK_COL, BLOCK_DIMS)):
                ours = [cell(row, x) for x in cols]
                theirs = dims(k, col, names_)
                ok = theirs is not None and finite(*ours, *theirs) and ours == theirs
                good &= ok
                c.show(f"{what} (x, y, z)", ours, theirs if theirs is not None else "absent", ok)
                size = GRID_SIZE if what == "grid" else BLOCK_SIZE
                prod, nsize = math.prod(ours), number(k.get(size, ""))
                ok = finite(prod, nsize) and prod == nsize
                good &= ok
                c.show(f"{what} x*y*z vs {size}", prod, nsize, ok)
            for mine, theirs in EQUAL:
                a, b = cell(row, mine), number(k.get(theirs, ""))
                ok = finite(a, b) and a == b
                good &= ok
                c.show(f"{mine} vs {theirs}", a, b, ok)
        c.verdict(good, "grid, block, registers and shared memory equal ncu's")

        good = match is not None
        if match is not None:
            for mine, theirs in LIMITS:
                a, b = cell(row, mine), number(match.get(theirs, ""))
                ok = finite(a, b) and a == b
                good &= ok
                c.show(f"{mine} vs {theirs}", a, b, ok)
            a, b = cell(row, "waves"), number(match.get(WAVES, ""))
            ok = finite(a, b) and abs(a - b) <= WAVES_TOL
            good &= ok
            c.show(f"waves vs {WAVES}", a, b, ok, f"diff {a - b:+.3f}" if finite(a, b) else "")
        c.verdict(good, "block limits and waves equal ncu's")

        a = cell(row, "occupancy_theoretical_pct")
        b = number(match.get(THEORETICAL, "")) if match is not None else float("nan")
        ok = finite(a, b) and abs(a - b) <= POINTS
        c.show(f"occupancy_theoretical_pct vs {THEORETICAL}", a, b, ok,
               f"diff {a - b:+.2f} pt" if finite(a, b) else "")
        c.verdict(ok, f"theoretical occupancy within {POINTS:g} points of ncu's")

    for name, label, flag in ((ACHIEVED, "achieved occupancy", "achieved"),
                              (ISSUE, "issue-slot utilisation", "issue")):
        if not has[flag]:
            continue
        a = cell(row, name)
        per_call = [wavg(name, x) for x in calls]
        b = statistics.median(per_call)
        lo, hi = min(per_call), max(per_call)
        glo, ghi = cell(row, RANGE_LO + name), cell(row, RANGE_HI + name)
        if not finite(glo, ghi):
            glo = ghi = a
        # a partial last wave makes both vary per launch by more than POINTS (blocktile_1d
        # 1000x1500x700, 1.45 waves: ncu's calls 38.9-42.3 in one test run, 42.0-43.7 in
        # the next): two samples of one spread agree when their ranges come within POINTS
        gap = max(glo - hi, lo - ghi, 0.0) if finite(glo, ghi, lo, hi) else float("nan")
        ok = finite(a, b) and (abs(a - b) <= POINTS or gap <= POINTS)
        note = (f"diff {a - b:+.2f} pt, gemmprof's runs {glo:.2f}-{ghi:.2f}, ncu's calls {lo:.2f}-{hi:.2f}"
                if finite(a, b) else "")
        if flag == "issue" and len(calls[0]) > 1:
            # ncu flushes the caches between a call's kernels, so a split-K reduction reads
            # its partials from DRAM and issues less than in gemmprof's one range (simt_auto
            # 1000x1500x700: 57.0% against 63.5%); without ncu's flush that case agreed but
            # cuBLAS TF32 at the same shape moved 2.8 points (results/h200/logs/
            # ncu-launch-0d2a651-cache-none.log): shown, judged for one-kernel calls only
            c.show(name, a, b, None, note + " (not judged: a call of several kernels)")
            continue
        c.show(name, a, b, ok, note)
        c.verdict(ok, f"{label} within {POINTS:g} points of ncu's")
    if has["inst"]:
        a, b = cell(row, INST), statistics.median([wavg(INST, x) if len(x) == 1 else
                                                   sum(number(k.get(INST, "")) for k in x) for x in calls])
        c.show(f"{INST} (shown)", a, b, None)

    if has["stalls"]:
        gp = {m.group(1): cell(row, n) for n in has["stalls"] for m in [STALL.match(n)]}
        by = stall_calls or calls
        if stall_calls:
            c.lines.append(f"  stall ratios: ncu's {len(by)} calls without its cache flush between the kernels")
        nc_names = [n for n in by[0][0] if STALL.match(n)]
        nc = {STALL.match(n).group(1): statistics.median([wavg(n, x) for x in by]) for n in nc_names}
        bad = sorted(r for r, v in list(gp.items()) + list(nc.items()) if not finite(v))
        if not nc:
            c.lines.append("  ncu's CSV holds no stall ratio (WarpStateStats) <-- MISMATCH")
            c.verdict(False, "top three stall reasons in ncu's order")
        elif bad:
            c.lines.append(f"  stall ratios missing or not finite: {', '.join(bad)} <-- MISMATCH")
            c.verdict(False, "top three stall reasons in ncu's order")
        else:
            for r in sorted(set(gp) | set(nc), key=lambda r: -nc.get(r, gp.get(r, 0))):
                c.show(f"stall {r}", gp.get(r, "absent"), nc.get(r, "absent"))
            ok, note = same_order(gp, nc)
            c.lines.append(f"  top three: gemmprof {', '.join(top3(gp))}; ncu {', '.join(top3(nc))}"
                           f"{'; ' + note if note else ''}{'' if ok else ' <-- MISMATCH'}")
            c.verdict(ok, "top three stall reasons in ncu's order")
    return sum(v.startswith("FAIL") for v in c.verdicts)


def read_results(path):
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        return rd.fieldnames or [], list(rd)


def median_runs(paths):
    """Several gemmprof runs (comma-separated results.csv paths) as one: each row's numeric
    cells are the median over the runs that have the row, text cells the first run's.
    Achieved occupancy and issue slots vary from run to run (at 1.45 waves, blocktile_1d's
    achieved occupancy read 43.2% in one H200 run and 44.5% in another), as ncu's calls do."""
    head, first = read_results(paths[0])
    others = [read_results(p)[1] for p in paths[1:]]
    key = lambda r: (r.get("variant"), r.get("m"), r.get("n"), r.get("k"))
    index = [{key(r): r for r in rows} for rows in others]
    out = []
    for r in first:
        same = [r] + [ix[key(r)] for ix in index if key(r) in ix]
        merged = dict(r)
        for col in head:
            vals = []
            for x in same:
                try:
                    vals.append(float(x.get(col, "")))
                except ValueError:
                    pass
            # equal cells (sizes, launch facts) keep their text; only what varies is a median
            if len(vals) == len(same) and len(set(vals)) > 1:
                merged[col] = repr(statistics.median(vals))
            if vals and col in RUN_RANGE:   # the runs' range, for the rates that vary
                merged[RANGE_LO + col], merged[RANGE_HI + col] = repr(min(vals)), repr(max(vals))
        out.append(merged)
    return head, out


def main(argv):
    if argv[1:] == ["--criterion"]:
        print(CRITERION)
        return 0
    if argv[1:] == ["--pick-metrics"]:
        names = [l.split()[0] for l in sys.stdin.read().splitlines()[1:] if l.strip()]
        want = [n for n in names if STALL.match(n) or n in (ACHIEVED, ISSUE, INST, DURATION)]
        print(",".join(want) if any(STALL.match(n) for n in want) else "")
        return 0
    if argv[1:2] == ["--ncu-metrics"] and len(argv) <= 3:
        # ours, plus the stall ratios gemmprof collects (so that a reason the WarpStateStats
        # section might leave out is still there to rank)
        extra = [n for n in (argv[2].split(",") if len(argv) == 3 else []) if STALL.match(n)]
        print(",".join(NCU_METRICS + tuple(extra)))
        return 0
    if len(argv) == 3 and argv[1] == "--names":
        _, rows = read_results(argv[2])
        out = []
        for r in rows:
            for k in (r.get("kernels") or "").split(";") + [r.get("launch_kernel") or ""]:
                b = base(k) if k.strip() else ""
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", b) and b not in out:
                    out.append(b)
        print("|".join(out))
        return 0
    if len(argv) == 3 and argv[1] == "--several":
        # the variants and shapes with a call of several kernels, and their cases
        _, rows = read_results(argv[2])
        ks, ss = [], []
        for r in rows:
            if len([k for k in (r.get("kernels") or "").split(";") if k.strip()]) > 1:
                v, sh = r.get("variant"), f"{r.get('m')}x{r.get('n')}x{r.get('k')}"
                ks += [v] if v not in ks else []
                ss += [sh] if sh not in ss else []
        if ks:
            print(",".join(ks), ",".join(ss), ",".join(f"{v}:{sh}" for sh in ss for v in ks))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("ncu")
    ap.add_argument("cases")
    ap.add_argument("--calls", type=int, default=1)
    ap.add_argument("--stalls-ncu", help="ncu's CSV of the calls of several kernels, --cache-control none")
    ap.add_argument("--stalls-cases", default="", help="its cases, as CASES")
    a = ap.parse_args(argv[1:])

    head, rowlist = median_runs(a.results.split(","))
    def parse_cases(text):
        return [(v, s) for x in text.split(",") if x for v, _, s in [x.partition(":")]]
    cases = parse_cases(a.cases)
    rows = {}
    for r in rowlist:
        rows.setdefault((r.get("variant"), f"{r.get('m')}x{r.get('n')}x{r.get('k')}"), r)
    has = {"launch": all(x in head for x in LAUNCH_COLS),
           "achieved": ACHIEVED in head, "issue": ISSUE in head, "inst": INST in head,
           "stalls": [n for n in head if STALL.match(n)]}
    if not has["launch"]:
        print(f"skip - launch facts vs ncu: gemmprof wrote no launch facts (results.csv lacks "
              f"{', '.join(x for x in LAUNCH_COLS if x not in head)})")
    if not has["achieved"]:
        print(f"skip - achieved occupancy vs ncu: gemmprof wrote no {ACHIEVED} column")
    if not has["issue"]:
        print(f"skip - issue-slot utilisation vs ncu: gemmprof wrote no {ISSUE} column")
    if not has["stalls"]:
        print("skip - stall reasons vs ncu: gemmprof wrote no "
              "smsp__average_warps_issue_stalled_*_per_issue_active.ratio column")

    ks = kernels(a.ncu)
    split, problems = split_cases(ks, cases, rows, a.calls)
    bad = 0
    for p in problems:
        print(f"FAIL - ncu's kernels and the cases: {p}")
        bad += 1
    stall_split = None
    if a.stalls_ncu:
        stall_split, problems = split_cases(kernels(a.stalls_ncu), parse_cases(a.stalls_cases), rows, a.calls)
        for p in problems:
            print(f"FAIL - ncu's kernels without its flush between them and the cases: {p}")
            bad += 1
    for cs in cases:
        what = f"{cs[0]} {cs[1]}"
        if cs not in rows:
            print(f"FAIL - launch comparison {what}: no row for it in {a.results}")
            bad += 1
            continue
        if cs not in split:
            print(f"FAIL - launch comparison {what}: no ncu calls assigned to it")
            bad += 1
            continue
        if rows[cs].get("status", "ok") != "ok":
            print(f"FAIL - launch comparison {what}: gemmprof's row has status {rows[cs].get('status')}")
            bad += 1
            continue
        c = Case(what)
        several = len(split[cs][0]) > 1
        if several and stall_split is not None and cs not in stall_split:
            print(f"FAIL - launch comparison {what}: a call of several kernels with no ncu calls "
                  f"without the flush between them ({a.stalls_ncu})")
            bad += 1
        bad += judge(c, rows[cs], split[cs], has, stall_split.get(cs) if several and stall_split else None)
        print("\n".join(c.lines + c.verdicts))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Compares gemmprof's CUPTI counters with ncu's for the same kernels in the same state.
   ncu_compare.py RESULTS_CSV[,RESULTS_CSV...] NCU_CSV[,NCU_CSV...] VARIANT SHAPE CALLS [--skip N] [--multi]
                  [--combine LIST]
   ncu_compare.py --criterion        prints the criterion below
   ncu_compare.py --names RESULTS_CSV VARIANT SHAPE
                                     prints the function names of the kernels gemmprof's row
                                     names, '|'-separated: an ncu --kernel-name regex for them
   ncu_compare.py --split NCU_CSV CALLS OUT_DIR VARIANT SHAPE RESULTS_CSV [VARIANT SHAPE RESULTS_CSV...]
                                     one ncu process over several cases (gemmprof -k V1,V2,...,
                                     the cases in that order): writes each case's kernels to
                                     OUT_DIR/VARIANT.csv, CALLS calls of the kernels its row in
                                     RESULTS_CSV names (ncu_csv.split_cases); a FAIL line names
                                     each case whose kernels do not add up, or that got none
Each NCU_CSV, one per ncu process, holds ncu's view of CALLS whole calls of the variant
(application replay, each call after gemmprof's L2 flush and ncu's own cache flush);
l2_flush_kernel launches, if any, are dropped. The kernels per call are found from ncu's list
itself: it must split into CALLS equal runs of the same kernel names, the same in every file,
and gemmprof's `kernels` column must name as many. The first N calls of each file (--skip:
the verify call and the warm-up) are not compared. Medians on both sides, over all runs and
all calls: a call's value combines its kernels by each metric's rule, the combine column of
`gemmprof --list-metrics` saved in LIST (analysis/metrics.def's aggregate: sum, wavg the
duration-weighted mean, max); a name LIST lacks, or with no LIST, by its name: peaks the
largest, rates and percentages the duration-weighted mean, the rest summed.
--multi marks a case meant to show a call of several kernels (split-K GEMM plus reduction):
if cuBLAS launched one kernel there, that sub-check is skipped with the reason.
Prints the criterion, a table row per metric, ok/FAIL/skip lines; exits 1 on a mismatch."""
import argparse
import csv
import math
import statistics
import sys

from ncu_csv import FLUSH, base_names, kernels, number, split_cases, write_kernels

FLOOR = 65536  # bytes: below this, DRAM traffic is noise (a few dirty lines)
COUNTS = ("smsp__sass_", "sm__ops_path_tensor_")  # instruction and tensor-op counts
BYTES = ("dram__bytes_read.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum")
WRITE = "dram__bytes_write.sum"
READ = "dram__bytes_read.sum"
WAVEFRONTS = ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")
REQUIRED = BYTES + (WRITE,)
L2 = "lts__t_bytes.sum"
# read sectors the L2 Request Coalescer merged before the L2 lookup (GH100): lts__t_bytes
# omits them, and how many merge depends on how closely the SMs run in step
MERGED = "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"
# memory-barrier sectors: lts__t_bytes counts them, though they carry no data, and on some
# cards the counter range adds some of its own (H100 SXM: docs/counters.md)
MEMBAR = "lts__t_sectors_op_membar.sum"
STORES = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"

CRITERION = """\
criterion (gemmprof = median of its runs, ncu = median of its calls over its processes, a call =
  sum of its kernels; both tools' processes place the matrices alike, at the same set of
  offsets in device memory, since a kernel whose data fills the L2 re-reads more or less
  from DRAM with the placement):
  instruction and tensor-op counts (smsp__sass_*, sm__ops_path_tensor_*): equal in every run and call
  DRAM reads, L2 and L1 bytes: within 2% or 64 KiB of ncu, whichever is larger, or inside
    ncu's call-to-call range [min, max], each end widened by as much
  L2 bytes, where that fails: the L2 demand, lts__t_bytes + 32 B x the read sectors the
    L2 Request Coalescer merged (lrc__..._coalescing_achieved_type_hardware), within 2% or
    64 KiB of ncu's, each run's and call's sum taken before the medians. The coalescer
    sits between the crossbar and the L2 and merges reads of one sector by several SMs
    arriving together, so the L2 lookups of the tensor kernels, whose SMs read the same
    tiles in step, vary with timing (tf32_mma 2048^3: 232-270 MB over 10 ncu calls) while
    their sum with the merged sectors does not (458.4 MB in every call of both tools,
    results/h200/logs/diag_l2_lrc-b7e0ee5.txt)
  L2 bytes, where both fail and gemmprof counted more memory-barrier sectors
    (lts__t_sectors_op_membar) than ncu: the L2 demand less 32 B x those sectors on each
    side, within 2% or 64 KiB of ncu's (for a call of several kernels, within the bounds
    below). ncu counts 1.367 MB of them per kernel on the H100 SXM; gemmprof's user range
    there adds 1.4-2.7 MB a call (results/h200/NOTES.md, fourth session of 2026-12-06)
  shared-memory wavefronts (ld, st): within 2% of ncu, or within ncu's own call-to-call spread;
    within 8% where the kernel's bank conflicts vary with timing (over all runs and calls of
    both tools, by 10% of the largest and 1,000 or more): the TMA-fed wgmma kernel's extra
    wavefronts come in two modes that a process keeps (wgmma 2048^3: 2.53-2.55 M or 2.69-2.75 M
    under gemmprof, ncu's calls of one session 2.52-2.72 M, results/h200/NOTES.md)
  DRAM writes: inside ncu's call-to-call range [min, max], each end widened by 2% or 64 KiB,
    whichever is larger; outside it, a one-kernel call still passes when the DRAM total
    (read + write) is within 2% of ncu's (writes are capacity evictions of C, which vary
    from call to call under both tools); the total is printed either way
  a call of several kernels (split-K GEMM + reduction, padded copies + GEMM): ncu flushes
    the caches between the kernels, gemmprof measures the call as one range, so DRAM reads
    must satisfy ncu's first kernel - tol <= gemmprof <= ncu's sum over the kernels + tol
    (tol: 2% or 64 KiB), not equality, L2 bytes may lie under ncu's sum by up to ncu's
    extra DRAM reads, and DRAM writes may lie above ncu's range by up to the bytes the
    kernels but the last stored (l1tex__t_sectors_pipe_lsu_mem_global_op_st x 32 B): ncu's
    flush between kernels writes back their dirty lines outside its ranges, gemmprof's range
    counts them; the DRAM total is not used there
  a judged value missing or not finite on either side fails; clocks, durations and peaks
    are shown, not judged"""


def tol(x):
    return max(0.02 * abs(x), FLOOR)


def conflicts_vary(rows, calls, wavefronts):
    """Whether the bank conflicts beside these wavefronts vary from run to run, the mark
    of shared-memory traffic that depends on timing."""
    name = wavefronts.replace("data_pipe_lsu_wavefronts_mem_shared_op_",
                              "data_bank_conflicts_pipe_lsu_mem_shared_op_")
    mine = values(rows, name)
    if mine is None or name not in calls[0][0]:
        return False
    xs = mine + [combine(name, c) for c in calls]
    if not finite(xs):
        return False
    spread = max(xs) - min(xs)
    return spread >= 1000 and spread >= 0.10 * max(xs)


def split_calls(ks, ncalls):
    """ncu's kernels as `ncalls` calls of the same kernel names; (calls, None) or (None, why)."""
    gemm = [k for k in ks if not k["Kernel Name"].startswith(FLUSH)]
    if ncalls < 1 or not gemm or len(gemm) % ncalls:
        return None, f"ncu profiled {len(gemm)} kernels, not {ncalls} whole calls"
    per = len(gemm) // ncalls
    names = [k["Kernel Name"] for k in gemm]
    if any(names[i] != names[i % per] for i in range(len(names))):
        return None, f"ncu's {len(gemm)} kernels do not repeat as {ncalls} calls of {per}"
    return [gemm[i * per:(i + 1) * per] for i in range(ncalls)], None


RULES = {}  # ncu name -> "sum", "wavg" or "max": --combine, gemmprof's own table


def read_rules(path):
    """The combine column of a saved `gemmprof --list-metrics`: metric, default, combine, ..."""
    rules = {}
    with open(path) as f:
        for line in f.read().splitlines()[1:]:
            p = line.split()
            if len(p) >= 3 and p[2] in ("sum", "wavg", "max"):
                rules[p[0]] = p[2]
    return rules


def rule_of(name):
    """The metric's rule from gemmprof's table; by its name where the table lacks it."""
    if name in RULES:
        return RULES[name]
    if name.endswith("peak_sustained"):
        return "max"
    if "per_second" in name or "pct_of_peak" in name:
        return "wavg"
    return "sum"


def combine(name, call):
    """ncu's value for a call of several kernels, combined by the metric's rule (rule_of)."""
    xs = [number(x[name]) for x in call]
    rule = rule_of(name)
    if rule == "max":
        return max(xs)
    if rule == "wavg":
        w = [number(x.get("gpu__time_duration.sum", "1")) for x in call]
        return sum(a * b for a, b in zip(xs, w)) / sum(w) if finite(w) and sum(w) > 0 else float("nan")
    return sum(xs)


def finite(xs):
    return bool(xs) and all(math.isfinite(x) for x in xs)


def pct(a, b):
    return (a - b) / b * 100 if b else (0.0 if a == b else float("inf"))


def load_rows(results, variant, shape):
    m, n, k = shape.split("x")
    rows = []
    for path in results.split(","):
        row = next((r for r in csv.DictReader(open(path, newline=""))
                    if r.get("variant") == variant and (r.get("m"), r.get("n"), r.get("k")) == (m, n, k)),
                   None)
        if row is None:
            return None, path
        rows.append(row)
    return rows, None


def values(rows, name):
    """gemmprof's values of `name`, one per run; None if any run lacks it."""
    cells = [r.get(name) for r in rows]
    if any(c is None or not c.strip() for c in cells):
        return None
    return [number(c) for c in cells]


def main(argv):
    if argv[1:] == ["--criterion"]:
        print(CRITERION)
        return 0
    if len(argv) == 5 and argv[1] == "--names":
        rows, _ = load_rows(argv[2], argv[3], argv[4])
        print("|".join(base_names(rows[0].get("kernels") if rows else "")))
        return 0
    if argv[1:2] == ["--split"]:
        return split(argv[2:])
    ap = argparse.ArgumentParser()
    for a in ("results", "ncu", "variant", "shape"):
        ap.add_argument(a)
    ap.add_argument("calls", type=int)
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--multi", action="store_true")
    ap.add_argument("--combine")
    a = ap.parse_args(argv[1:])
    if a.combine:
        RULES.update(read_rules(a.combine))
    what = f"{a.variant} {a.shape}"

    rows, missing = load_rows(a.results, a.variant, a.shape)
    if rows is None:
        print(f"FAIL - ncu compare {what}: no row for it in {missing}")
        return 1
    calls = []
    for path in a.ncu.split(","):   # one file per ncu process, each of CALLS calls
        some, why = split_calls(kernels(path), a.calls)
        if some is None or a.skip >= a.calls:
            print(f"FAIL - ncu compare {what}: {why or f'nothing left after skipping {a.skip} calls'}"
                  f" ({path})")
            return 1
        calls += some[a.skip:]
    if any(len(c) != len(calls[0]) or [x["Kernel Name"] for x in c] != [x["Kernel Name"] for x in calls[0]]
           for c in calls):
        print(f"FAIL - ncu compare {what}: ncu's processes launched different kernels per call")
        return 1
    per = len(calls[0])
    names = [x["Kernel Name"] for x in calls[0]]
    bad = 0

    print(f"  {what}: {len(rows)} gemmprof runs; ncu profiled {len(calls)} calls of {per} "
          f"kernel{'s' if per > 1 else ''}: {' + '.join(x[:60] for x in names)}")
    # gemmprof summed the kernels its range saw: as many as ncu's calls hold
    theirs_k = [len([x for x in (r.get("kernels") or "").split(";") if x]) for r in rows]
    if any(x != per for x in theirs_k):
        bad += 1
        print(f"  <-- MISMATCH: gemmprof's kernels column names {theirs_k} kernels per call "
              f"({rows[0].get('kernels')}), ncu profiled {per}")

    ncu_cols = [c for c in calls[0][0] if "__" in c]   # metric columns
    for name in REQUIRED:
        if name not in ncu_cols:
            bad += 1
            print(f"  {name:50s} missing from ncu's CSV <-- MISMATCH")
    med = {}
    print(f"  {'metric':50s} {'gemmprof':>12s} {'min':>10s} {'max':>10s} {'ncu':>12s} "
          f"{'min':>10s} {'max':>10s} {'diff':>8s}")
    for name in ncu_cols:
        judged = name.startswith(COUNTS) or name in REQUIRED or name in WAVEFRONTS
        mine = values(rows, name)
        if mine is None:
            # a column gemmprof does not have: ncu's own (launch__*) or another roll-up of
            # a counted metric (ncu adds .avg/.min/.max beside the .sum gemmprof keeps);
            # only the metrics gemmprof must report fail when absent
            if name in REQUIRED or name in WAVEFRONTS or (name.startswith(COUNTS) and name.endswith(".sum")):
                bad += 1
                print(f"  {name:50s} missing from gemmprof's CSV <-- MISMATCH")
            continue
        theirs = [combine(name, c) for c in calls]
        if not (finite(mine) and finite(theirs)):
            good = not judged  # NaN or n/a on either side never passes
            print(f"  {name:50s} not finite: gemmprof {mine}, ncu {theirs}"
                  f"{' <-- MISMATCH' if judged else ''}")
            bad += not good
            continue
        ours, ncus = statistics.median(mine), statistics.median(theirs)
        med[name] = (ours, mine, theirs)
        note = ""
        if name.startswith(COUNTS):
            good = min(mine) == max(mine) == min(theirs) == max(theirs)
        elif name == WRITE or (name == READ and per > 1):
            good, note = True, "(judged below)"
        elif name in BYTES:
            lo, hi = min(theirs), max(theirs)
            good = abs(ours - ncus) <= tol(ncus) or lo - tol(lo) <= ours <= hi + tol(hi)
            if not good and name == L2:
                good, note = judge_l2_demand(rows, calls)
            if not good and name == L2 and per > 1:
                good, note = judge_l2_split(rows, calls, ours, ncus)
            if not good and name == L2:
                good, why = judge_l2_barriers(rows, calls, per)
                note = why or note   # without the counts, the earlier judge's note stands
        elif name in WAVEFRONTS:
            good = abs(ours - ncus) <= max(0.02 * ncus, max(theirs) - min(theirs))
            if not good and conflicts_vary(rows, calls, name):
                good = abs(ours - ncus) <= 0.08 * ncus
                note = "(bank conflicts vary with timing: 8%)"
        else:
            good = True  # clocks, durations and peaks are shown, not judged
        bad += not good
        print(f"  {name:50s} {ours:12.6g} {min(mine):10.4g} {max(mine):10.4g} {ncus:12.6g} "
              f"{min(theirs):10.4g} {max(theirs):10.4g} {pct(ours, ncus):7.2f}% "
              f"{note if good else (note + ' <-- MISMATCH').strip()}")

    split_ok = True
    if WRITE in med and READ in med:
        bad += not judge_writes(med, per, calls)
        if per > 1:
            split_ok = judge_split_reads(med, calls, per, what)
    if per == 1 and a.multi:
        print(f"skip - split-K sub-check for {what}: cuBLAS launched one kernel per call "
              f"({names[0][:60]}), not a split-K GEMM plus a reduction; compared as one kernel")
    print(f"{'ok' if not bad else 'FAIL'} - gemmprof counters agree with ncu for {what}")
    return 1 if bad or not split_ok else 0


def split(args):
    """--split: one ncu CSV over several cases into one CSV per case (the module's doc)."""
    if len(args) < 6 or (len(args) - 3) % 3 or not args[1].isdigit() or int(args[1]) < 1:
        print("ncu_compare.py --split: expected NCU_CSV CALLS OUT_DIR, CALLS a whole number from 1, "
              "then VARIANT SHAPE RESULTS_CSV per case", file=sys.stderr)
        return 2
    path, calls, out_dir = args[0], int(args[1]), args[2]
    triples = [args[i:i + 3] for i in range(3, len(args), 3)]
    cases = [(v, shape) for v, shape, _ in triples]
    if len(set(v for v, _ in cases)) < len(cases):
        print("ncu_compare.py --split: a variant named twice (gemmprof -k runs it once)", file=sys.stderr)
        return 2
    rows = {}
    for v, shape, results in triples:
        got, _ = load_rows(results, v, shape)
        if got:
            rows[(v, shape)] = got[0]
    try:
        ks = kernels(path)
    except OSError as e:
        ks, problems, assigned = [], [f"cannot read it: {e.strerror}"], {}
    else:
        assigned, problems = split_cases(ks, cases, rows, calls)
    for p in problems:
        print(f"FAIL - ncu's kernels and the cases ({path}): {p}")
    n = len([k for k in ks if not k["Kernel Name"].startswith(FLUSH)])
    print(f"  {path}: {n} kernels, {calls} calls of each of {len(cases)} cases: "
          + ", ".join(f"{v} {sum(len(c) for c in assigned[(v, s)]) if (v, s) in assigned else 'none'}"
                      for v, s in cases))
    for v, shape in cases:
        if (v, shape) in assigned:
            write_kernels(f"{out_dir}/{v}.csv", [k for c in assigned[(v, shape)] for k in c])
        else:
            print(f"FAIL - ncu compare {v} {shape}: none of ncu's kernels in {path} assigned to it "
                  "(the line above says where they stopped adding up)")
    return 1 if problems else 0


def weighted(rows, calls, terms):
    """The sum of weight x metric over terms ((name, weight), ...), per gemmprof run and per
    ncu call: (mine, theirs), or None where either side lacks a metric or a value is not
    finite."""
    cols = [values(rows, name) for name, _ in terms]
    if any(c is None for c in cols) or any(name not in calls[0][0] for name, _ in terms):
        return None
    mine = [sum(w * col[i] for (_, w), col in zip(terms, cols)) for i in range(len(rows))]
    theirs = [sum(w * combine(name, c) for name, w in terms) for c in calls]
    return (mine, theirs) if finite(mine) and finite(theirs) else None


DEMAND = ((L2, 1), (MERGED, 32))   # L2 lookups + the reads the coalescer merged, bytes


def medians(pair):
    return statistics.median(pair[0]), statistics.median(pair[1])


def judge_l2_demand(rows, calls):
    """L2 bytes + the coalescer's merged read sectors, per run and per call, medians within
    2% or 64 KiB: (good, note). Fails when either side lacks the merged count."""
    demand, merged = weighted(rows, calls, DEMAND), weighted(rows, calls, ((MERGED, 32),))
    if demand is None or merged is None:
        return False, ""
    (ours, ncus), (m_ours, m_ncu) = medians(demand), medians(merged)
    good = abs(ours - ncus) <= tol(ncus)
    return good, (f"(L2 demand {ours / 1e6:.1f} vs {ncus / 1e6:.1f} MB, {pct(ours, ncus):+.2f}%: "
                  f"the coalescer merged {m_ours / 1e6:.1f} vs {m_ncu / 1e6:.1f} MB)")


def judge_l2_barriers(rows, calls, per):
    """L2 bytes that differ by memory-barrier sectors alone: where gemmprof counted more of
    them than ncu, the demand less those sectors on both sides, within 2% or 64 KiB of ncu's
    (a call of several kernels: down to ncu's extra DRAM reads under it, as judge_l2_split):
    (good, note)."""
    data, bars = weighted(rows, calls, DEMAND + ((MEMBAR, -32),)), weighted(rows, calls, ((MEMBAR, 32),))
    if data is None or bars is None:
        return False, ""
    (ours, ncus), (b_ours, b_ncu) = medians(data), medians(bars)
    extra = extra_reads(rows, calls) if per > 1 else 0.0
    if extra is None:
        return False, ""
    good = b_ours > b_ncu and ncus - extra - tol(ncus) <= ours <= ncus + tol(ncus)
    return good, (f"(membar sectors {b_ours / 1e6:.2f} vs {b_ncu / 1e6:.2f} MB; L2 demand less them "
                  f"{ours / 1e6:.1f} vs {ncus / 1e6:.1f} MB, {pct(ours, ncus):+.2f}%"
                  + (f", down to {(ncus - extra) / 1e6:.1f} allowed" if per > 1 else "") + ")")


def extra_reads(rows, calls):
    """How many more DRAM bytes ncu's calls read than gemmprof's runs (medians, 0 at least):
    in a call of several kernels, what ncu's flushes between them sent back to DRAM. None
    where either side lacks the count."""
    r_mine = values(rows, READ)
    r_theirs = [combine(READ, c) for c in calls]
    if r_mine is None or not (finite(r_mine) and finite(r_theirs)):
        return None
    return max(0.0, statistics.median(r_theirs) - statistics.median(r_mine))


def judge_l2_split(rows, calls, ours, ncus):
    """L2 bytes of a call of several kernels: ncu flushes between them, so a later kernel's
    reads of what an earlier one wrote (split-K partials, padded copies) come back from DRAM
    under ncu and hit the L2 in gemmprof's one range. gemmprof may then lie under ncu's sum by
    at most ncu's extra DRAM reads (2% or 64 KiB beside): (good, note)."""
    extra = extra_reads(rows, calls)
    if extra is None:
        return False, ""
    good = ncus - extra - tol(ncus) <= ours <= ncus + tol(ncus)
    return good, (f"(a call of several kernels: ncu's extra DRAM reads {extra / 1e6:.2f} MB allow "
                  f"{(ncus - extra) / 1e6:.1f}-{ncus / 1e6:.1f} MB)")


def stored_before_last(calls):
    """The bytes a call's kernels but the last stored through the L1 (global store sectors,
    32 B each), median over ncu's calls; 0 where ncu's CSV lacks the count."""
    if len(calls[0]) < 2 or STORES not in calls[0][0]:
        return 0.0
    xs = [sum(32 * number(k[STORES]) for k in c[:-1]) for c in calls]
    return statistics.median(xs) if finite(xs) else 0.0


def judge_writes(med, per, calls):
    """DRAM writes: inside ncu's widened range, or (one-kernel calls) the DRAM total. A call
    of several kernels may write more than ncu's sum: ncu's flush between its kernels writes
    back what the earlier ones left dirty in the L2, outside its ranges, while gemmprof's one
    range counts those lines when the later kernels evict them; at most what the earlier
    kernels stored (simt_auto's stream-K call at 1536x640x2304 on the H100: 3.10 MB against
    ncu's 1.85-1.96, c77ddb0)."""
    _, w_mine, w_theirs = med[WRITE]
    _, r_mine, r_theirs = med[READ]
    w_ours = statistics.median(w_mine)
    lo = min(w_theirs) - tol(min(w_theirs))
    hi = max(w_theirs) + tol(max(w_theirs))
    dirty = stored_before_last(calls) if per > 1 else 0.0
    inside = lo <= w_ours <= hi + dirty
    t_ours = statistics.median([r + w for r, w in zip(r_mine, w_mine)])
    t_ncu = statistics.median([r + w for r, w in zip(r_theirs, w_theirs)])
    t_ok = per == 1 and abs(t_ours - t_ncu) <= 0.02 * t_ncu
    good = inside or t_ok
    print(f"  DRAM writes: gemmprof {w_ours:.6g} B; ncu's calls {min(w_theirs):.6g}-{max(w_theirs):.6g} B, "
          f"widened {max(lo, 0):.6g}-{hi:.6g} B"
          + (f", up to {hi + dirty:.6g} B with the {dirty / 1e6:.2f} MB its kernels but the last stored "
             "(ncu's flushes between them write those back outside its ranges)" if per > 1 else "")
          + f": {'inside' if inside else 'outside'}")
    print(f"  DRAM total (read + write): gemmprof {t_ours:.6g} B, ncu {t_ncu:.6g} B, "
          f"{pct(t_ours, t_ncu):+.2f}%"
          + ("" if per == 1 else " (not judged: a call of several kernels)")
          + ("" if inside else "; within 2%: " + ("yes, writes pass" if t_ok else "no"))
          + ("" if good else "  <-- MISMATCH"))
    return good


def judge_split_reads(med, calls, per, what):
    """DRAM reads of a call of several kernels: between ncu's first kernel and its sum. The
    first kernel reads the call's inputs from the same flushed L2 under both tools; a later
    one may read what an earlier one wrote, from DRAM under ncu (it flushes between them) but
    from the L2 in gemmprof's one range (simt_auto 1024^3: the reduction read 12.6 MB under
    ncu, the whole call 8.5 MB under gemmprof)."""
    r_ours = statistics.median(med[READ][1])
    r_ncu = statistics.median(med[READ][2])
    first = statistics.median([number(c[0][READ]) for c in calls])
    each = [statistics.median([number(c[i][READ]) for c in calls]) for i in range(per)]
    holds = first - tol(first) <= r_ours <= r_ncu + tol(r_ncu)
    print(f"  DRAM reads over the call of {per} kernels: gemmprof {r_ours:.6g} B; ncu per kernel "
          f"{' + '.join(f'{x:.6g}' for x in each)} = {r_ncu:.6g} B (gemmprof {pct(r_ours, r_ncu):+.2f}%)")
    print(f"{'ok' if holds else 'FAIL'} - split-K call {what}: DRAM reads over the call, gemmprof "
          f"{r_ours / 1e6:.3f} MB <= ncu's sum over its {per} kernels {r_ncu / 1e6:.3f} MB and >= "
          f"its first kernel {first / 1e6:.3f} MB (tolerance 2% or 64 KiB)")
    return holds


if __name__ == "__main__":
    sys.exit(main(sys.argv))

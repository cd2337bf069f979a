"""The diagnosis benchmark's verdicts: gemmprof's top finding per case against the injected
cause, beside ncu's top rule when its details page is given.
   check.py GEMMPROF CASES RESULTS_DIR[,RESULTS_DIR...] [--ncu NCU_TXT:NAME,NAME...]... [--shape-any] [--gains]
CASES is tests/diagnosis/cases.txt (symbol name cause shape [weak:reason] [fix:NAME]); each case's row
is found by its name in the results directories (at its own shape, or at any with --shape-any).
The control's cause is 'none': its top finding must be a roof (bound_*); a case whose cause is
'fix' is another case's fix, run for its time and not judged. Prints a Markdown table and one
ok/FAIL line per case. --gains: for each case with a fix measured at its shape, the speedup
gemmprof estimates for the injected cause against the one measured (the case's time over
its fix's), which must agree within GAIN_BAND either way."""
import csv
import os
import subprocess
import sys

GAIN_BAND = 1.6

sys.path.insert(0, "tests/diagnosis")
import ncu_rules  # noqa: E402


def causes(gemmprof, d):
    out = subprocess.run([gemmprof, "report", d, "--causes"], capture_output=True, text=True)
    if out.returncode:
        print(f"FAIL - gemmprof report {d} --causes exited {out.returncode}: {out.stderr.strip()[:200]}")
        return []
    lines = out.stdout.strip().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in lines[1:]]


def main():
    gemmprof, cases_txt, dirs = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    ncu_args = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--ncu"]
    any_shape = "--shape-any" in sys.argv
    cases = [line.split() for line in open(cases_txt) if line.strip() and not line.startswith("#")]
    opt = {c[1]: dict(t.split(":", 1) for t in c[4:]) for c in cases}
    weak = {name: o["weak"].replace("_", " ") for name, o in opt.items() if "weak" in o}
    cases = [c[:4] for c in cases if c[2] != "fix"]
    rows = [r for d in dirs for r in causes(gemmprof, d)]
    ncu = {}
    for arg in ncu_args:
        path, names = arg.split(":", 1)
        for name, k in zip(names.split(","), ncu_rules.kernels(path)):
            t = ncu_rules.top(k["rules"])
            if t is not None:
                sp = f" ({t['speedup']:.0f}%)" if t["speedup"] is not None else ""
                ncu[name] = f"{t['section']}{sp}: {ncu_rules.first_sentence(t['text'])}"
            else:
                ncu[name] = "(no OPT or WRN)"
    print("| case | shape | injected | gemmprof's top finding | its causes | ncu's top rule |")
    print("|---|---|---|---|---|---|")
    verdicts = []
    for sym, name, cause, shape in cases:
        m, n, k = shape.split("x")
        found = [r for r in rows if r["variant"] == name and (any_shape or (r["m"], r["n"], r["k"]) == (m, n, k))]
        if not found:
            verdicts.append(f"FAIL - diagnosis of {name}: no verified row at {shape}")
            continue
        for r in found:
            top = r["top"]
            good = top.startswith("bound_") if cause == "none" else top == cause
            at = f"{r['m']}x{r['n']}x{r['k']}"
            print(f"| `{name}` | {at} | {cause} | {top} | {r['causes']} | {ncu.get(name, '-')} |")
            if not good and name in weak:
                verdicts.append(f"skip - diagnosis of {name} at {at}: injected {cause}, top finding {top}: "
                                f"a weak case: {weak[name]}")
                continue
            verdicts.append(f"{'ok' if good else 'FAIL'} - diagnosis of {name} at {at}: injected {cause}, "
                            f"top finding {top}")
    print()
    for v in verdicts:
        print(v)
    if "--gains" in sys.argv:
        gains(rows, dirs, cases, opt, weak)
    return 0


def times(dirs):
    """(variant, m, n, k) -> median time in seconds, of the verified rows"""
    t = {}
    for d in dirs:
        path = os.path.join(d, "results.csv")
        if not os.path.exists(path):
            continue
        for r in csv.DictReader(open(path)):
            if r.get("status") == "ok" and r.get("time_median_s"):
                t[(r["variant"], r["m"], r["n"], r["k"])] = float(r["time_median_s"])
    return t


def gains(rows, dirs, cases, opt, weak):
    t = times(dirs)
    print()
    print("| case | shape | fix | estimated speedup | measured (case / fix) | estimated / measured |")
    print("|---|---|---|---|---|---|")
    verdicts = []
    for sym, name, cause, shape in cases:
        fix = opt[name].get("fix")
        if fix is None:
            continue
        at = tuple(shape.split("x"))
        mine, theirs = t.get((name,) + at), t.get((fix,) + at)
        if mine is None or theirs is None:
            verdicts.append(f"skip - gain of {name} at {shape}: no verified row of {name if mine is None else fix} there")
            continue
        row = next((r for r in rows if r["variant"] == name and (r["m"], r["n"], r["k"]) == at), None)
        est = None
        for c in (row["causes"].split(",") if row else []):
            if c.startswith(cause + ":"):
                est = float(c.split(":")[1].split("x")[0])
        measured = mine / theirs
        if est is None:
            verdicts.append(f"{'skip' if name in weak else 'FAIL'} - gain of {name} at {shape}: {cause} not among its "
                            f"causes (measured {measured:.2f}x against {fix})")
            continue
        r = est / measured
        print(f"| `{name}` | {shape} | `{fix}` | {est:.2f}x | {measured:.2f}x | {r:.2f} |")
        good = 1 / GAIN_BAND <= r <= GAIN_BAND
        verdicts.append(f"{'ok' if good else 'FAIL'} - gain of {name} at {shape}: {cause} estimated {est:.2f}x, "
                        f"{fix} measured {measured:.2f}x faster (ratio {r:.2f}, band {1 / GAIN_BAND:.3f}-{GAIN_BAND})")
    print()
    for v in verdicts:
        print(v)


if __name__ == "__main__":
    sys.exit(main())

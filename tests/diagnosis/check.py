"""The diagnosis benchmark's verdicts: gemmprof's top finding per case against the injected
cause, beside ncu's top rule when its details page is given.
   check.py GEMMPROF CASES RESULTS_DIR[,RESULTS_DIR...] [--ncu NCU_TXT:NAME,NAME...]... [--shape-any]
CASES is tests/diagnosis/cases.txt (symbol name cause shape [weak:reason]); each case's row is found by
its name in the results directories (at its own shape, or at any with --shape-any). The
control's cause is 'none': its top finding must be a roof (bound_*). Prints a Markdown
table and one ok/FAIL line per case."""
import subprocess
import sys

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
    weak = {c[1]: c[4][5:].replace("_", " ") for c in cases if len(c) > 4 and c[4].startswith("weak:")}
    cases = [c[:4] for c in cases]
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
    return 0


if __name__ == "__main__":
    sys.exit(main())

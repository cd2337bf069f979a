"""Reads `ncu --csv --page raw` output: one dict per profiled kernel (units row dropped), and
assigns the kernels of one ncu run over several cases to those cases in run order.
   ncu_csv.py kernels FILE        prints each profiled kernel's name, one per line
"""
import csv
import re
import subprocess
import sys

FLUSH = "l2_flush_kernel"   # gemmprof's L2 flush between timed calls, never a case's


def kernels(path):
    lines = [l for l in open(path) if not l.startswith("==")]
    rows = list(csv.reader(lines))
    if not rows:
        return []
    head = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(head) or not r[0].strip().isdigit():
            continue  # the units row, or noise
        out.append(dict(zip(head, r)))
    return out


def write_kernels(path, ks):
    """Kernels as kernels() read them back into a raw-page CSV of their own (header, rows)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        if ks:
            w.writerow(list(ks[0]))
            for k in ks:
                w.writerow(list(k.values()))


def number(s):
    """A CSV cell as a float; NaN for an empty, "n/a" or otherwise unreadable cell."""
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return float("nan")


def base_names(kernels_cell):
    """Function names without return type, namespace, template or parameters, as ncu's
    --kernel-name matches them: 'cublasLt::splitKreduce_kernel<32, 16, int>' -> 'splitKreduce_kernel'."""
    out = []
    for k in (kernels_cell or "").split(";"):
        k = k.strip()
        if k.startswith("void "):
            k = k[5:]
        depth, head = 0, ""
        for ch in k:  # drop template arguments, stop at the parameter list
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth -= 1
            elif ch == "(" and depth == 0:
                break
            elif depth == 0:
                head += ch
        name = head.split("::")[-1].strip()
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name not in out:
            out.append(name)
    return out


def demangle(name):
    if not name.startswith("_Z"):
        return name
    try:
        out = subprocess.run(["c++filt", name], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or name
    except (OSError, subprocess.SubprocessError):
        return name


def base(name):
    """The function name ncu and gemmprof agree on: no return type, namespace, template or
    parameters (base_names); mangled names are demangled first."""
    got = base_names(demangle(name.strip()))
    return got[0] if got else name.strip()


def row_kernels(row):
    return [base(k) for k in (row.get("kernels") or "").split(";") if k.strip()]


def split_cases(ks, cases, rows, calls):
    """ncu's kernels assigned to the cases in order -> ({case: [call, ...]}, problems).
    cases: (variant, shape) in the order gemmprof ran them; rows: {case: gemmprof's row},
    whose kernels column (or launch_kernel) names the kernels of one call; each case
    holds `calls` calls. The first case whose kernels do not match ends the assignment."""
    def names_of(c):
        row = rows.get(c)
        names = row_kernels(row) if row else []
        return [base(row["launch_kernel"])] if not names and row and row.get("launch_kernel") else names

    def like(at, names):   # ncu's kernels from `at` are a call of these names
        return bool(names) and sorted(base(k["Kernel Name"]) for k in gemm[at:at + len(names)]) == sorted(names)

    gemm = [k for k in ks if not k["Kernel Name"].startswith(FLUSH)]
    out, problems, pos, prev = {}, [], 0, None
    for ci, c in enumerate(cases):
        names = names_of(c)
        if not names:
            problems.append(f"{c[0]} {c[1]}: gemmprof's row names no kernel; cannot tell "
                            "which of ncu's kernels are its calls")
            return out, problems
        got = []
        for i in range(calls):
            call = gemm[pos:pos + len(names)]
            seen = [base(k["Kernel Name"]) for k in call]
            if sorted(seen) != sorted(names):
                more, after = "", cases[ci + 1] if ci + 1 < len(cases) else None
                if i == 0 and prev and like(pos, prev[1]):
                    more = f" (a call of {prev[0][0]} {prev[0][1]}'s kernels: has it more than {calls} calls?)"
                elif i > 0 and after and like(pos, names_of(after)):
                    more = f" (a call of {after[0]} {after[1]}'s kernels: has {c[0]} fewer than {calls} calls?)"
                problems.append(f"{c[0]} {c[1]}: call {i + 1} of {calls}: ncu's kernels {pos}..{pos + len(names) - 1} "
                                f"are {seen or 'none'}{more}, gemmprof's row names {names}; "
                                "cases after it not compared")
                return out, problems
            got.append(call)
            pos += len(names)
        out[c], prev = got, (c, names)
    if pos < len(gemm):
        extra = sorted({k["Kernel Name"][:60] for k in gemm[pos:]})
        last = f" (after {cases[-1][0]} {cases[-1][1]})" if cases else ""
        problems.append(f"ncu profiled {len(gemm) - pos} kernels beyond the cases{last}: {extra}")
    return out, problems


if __name__ == "__main__":
    if sys.argv[1] == "kernels":
        for k in kernels(sys.argv[2]):
            print(k["Kernel Name"])

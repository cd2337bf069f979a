"""ncu's rule results per kernel, from its details page (`ncu --set full --page details`).
   ncu_rules.py NCU_TXT NAME[,NAME...]
Kernels are taken in launch order, l2_flush_kernel left out, and named by NAMES in the same
order (gemmprof's -k order, one call per case). Prints one line per kernel, tab-separated:
name, ncu's top rule (the OPT result with the largest estimated speedup, else the first OPT,
else the first WRN): its section, its estimated speedup and the first sentence of its text,
then how many OPT and WRN results there were."""
import re
import sys

KERNEL = re.compile(r"^  \S.*\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)")
RULE = re.compile(r"^    (OPT|WRN|INF)\s+(.*)$")
SPEEDUP = re.compile(r"Est\. (Local )?Speedup: ([0-9.]+)%")


def kernels(path):
    out, cur, section, rule = [], None, "", None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if KERNEL.match(line):
            cur = {"name": line.strip(), "rules": []}
            out.append(cur)
            rule = None
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("Section: "):
            section, rule = s[len("Section: "):], None
            continue
        m = RULE.match(line)
        if m:
            rule = {"kind": m.group(1), "section": section, "text": m.group(2).strip(), "speedup": None,
                    "local": False}
            sp = SPEEDUP.search(m.group(2))
            if sp:
                rule["speedup"], rule["local"], rule["text"] = float(sp.group(2)), bool(sp.group(1)), ""
            cur["rules"].append(rule)
            continue
        if rule is not None and line.startswith("          "):
            rule["text"] = (rule["text"] + " " + s).strip()
        else:
            rule = None
    return [k for k in out if "l2_flush_kernel" not in k["name"]]


def top(rules):
    opt = [r for r in rules if r["kind"] == "OPT"]
    ranked = sorted((r for r in opt if r["speedup"] is not None and not r["local"]), key=lambda r: -r["speedup"])
    pick = ranked[0] if ranked else (opt[0] if opt else next((r for r in rules if r["kind"] == "WRN"), None))
    return pick


def first_sentence(text):
    m = re.match(r"(.+?[.:])(\s|$)", text)
    return (m.group(1) if m else text)[:140]


def main():
    ks = kernels(sys.argv[1])
    names = sys.argv[2].split(",")
    for name, k in zip(names, ks):
        t = top(k["rules"])
        nopt = sum(r["kind"] == "OPT" for r in k["rules"])
        nwrn = sum(r["kind"] == "WRN" for r in k["rules"])
        if t is None:
            print(f"{name}\t-\t-\t(no OPT or WRN result)\t{nopt}\t{nwrn}")
        else:
            sp = f"{t['speedup']:.0f}%" if t["speedup"] is not None else "-"
            print(f"{name}\t{t['section']}\t{sp}\t{first_sentence(t['text'])}\t{nopt}\t{nwrn}")
    if len(ks) != len(names):
        print(f"# {len(ks)} kernels in the ncu file, {len(names)} names", file=sys.stderr)


if __name__ == "__main__":
    main()

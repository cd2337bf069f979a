#!/usr/bin/env python3
"""How soon each shared load's result is used in the SIMT kernels' hot loops: for every LDS
in the loop (tools/lab/sass_banks.py's loop and labels), the count of instructions until the
first one that reads a register it wrote. A short distance leaves the load's latency (about
30 cycles) to other warps to cover; the 2-per-SM tiles have 8 warps per SM to cover it.
    tools/lab/sass_lds_use.py LISTING [FILTER]     (LISTING: tools/lab/sass_banks_build.sh's $W/NAME.sass)
One line per kernel whose label matches FILTER (a substring; default: all): LDS whose result is
used, the shortest and the median distance, and how many are used within 10 instructions."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_banks  # noqa: E402

def reg(operand):
    """The register an operand names (sass_banks.REG), or None (RZ, a constant, an address)."""
    m = sass_banks.REG.match(operand.strip())
    return int(m.group(1)[1:]) if m and m.group(1) != "RZ" else None


def distances(loop):
    out = []
    for i, (_, _, op, ops) in enumerate(loop):
        if not op.startswith("LDS") or not ops or reg(ops[0]) is None:
            continue
        width = 4 if ".128" in op else 2 if ".64" in op else 1
        written = set(range(reg(ops[0]), reg(ops[0]) + width))
        for j in range(i + 1, len(loop)):
            if any(reg(o) in written for o in loop[j][3][1:]):
                out.append(j - i)
                break
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    want = sys.argv[2] if len(sys.argv) > 2 else ""
    here = os.path.dirname(os.path.abspath(__file__))
    names = sass_banks.config_names(os.path.join(here, "..", "..", "kernels", "simt_configs.def"))
    rows = []
    for name, insns in sass_banks.functions(sass_banks.read_sass(sys.argv[1])).items():
        if "gemm_simt_" not in name:
            continue
        label = sass_banks.label(name, names)
        if want not in label:
            continue
        first, last = sass_banks.hot_loop(insns)
        d = distances(insns[first:last + 1])
        if d:
            rows.append(f"{label:30s} LDS used {len(d):4d}  shortest {min(d):3d}  median {statistics.median(d):5.1f}  "
                        f"within 10: {sum(x < 10 for x in d):3d}")
    print("\n".join(sorted(rows)) if rows else f"sass_lds_use: no kernel matching '{want}'")


if __name__ == "__main__":
    main()

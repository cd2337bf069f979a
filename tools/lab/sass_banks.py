#!/usr/bin/env python3
"""Register-bank conflicts of the FFMAs in each kernel's hot loop, read from its SASS alone
(no GPU). For each kernel whose name contains SUBSTRING (all kernels if none):

  FFMAs     FFMAs in the hot loop: of the loops (a backward branch and its target), the one
            with the most FFMAs, the smallest such span on a tie (the k-slice loop body,
            without the cold copy paths ptxas places after it)
  LDS       shared loads there (LDS, LDS.64, LDS.128, LDSM), and FFMAs per LDS
  3in1      FFMAs whose three live source registers all fall in one bank
  2in1      FFMAs with two live sources in one bank (and the third, if any, in the other)
  none      FFMAs with at most one live source per bank
  reuse     source operands served by the operand reuse cache

A source is live when it is read from the register file: not RZ, not an immediate or a
constant, and not served by the reuse cache. The reuse cache serves operand slot s of an
instruction when the instruction before it in the block read the same register in slot s
with .reuse set (the flag keeps the value for the next instruction; the instruction that
carries it still reads its register unless it was cached for it in turn). With
--reuse-flag an operand is counted as cached when it carries .reuse itself (the literal
reading). A register read twice by one FFMA counts once.

Bank = register index % 2 (sm_70 and later: two 64-bit wide banks; earlier Maxwell/Pascal
had four, index % 4). Sources: Jia, Maggioni, Staiger, Scarpazza, "Dissecting the NVIDIA
Volta GPU Architecture via Microbenchmarking", arXiv:1804.06826, sec. 3.5 "Register banks"
(and the Turing sequel, arXiv:1903.07486), as cited in NVIDIA developer forum thread
"How to understand register bank on RTX A4000" (4 banks before Volta, 2 after). Hopper is
not documented; ncu's dispatch stalls per FFMA on an H200 (results/h200/NOTES.md, "Why the
2-per-SM SIMT tiles trail cuBLAS, per instruction": 30.1 samples per FFMA for 3in1, 10.2
for 2in1, 3.9 for none, tools/lab/sass_source.py) fit the same two-bank model, though
cuBLAS's loop has 792 2in1 FFMAs at 2.7 samples each: 3in1 is the class to avoid. This
script's counts for t128x128k8's 16-byte kernel (31 / 352 / 641) are those ncu's source page
gave for the same code (logs/simtsass-a829d15.txt).

Input: cuobjdump -sass or nvdisasm output (labels resolved), or an ELF cubin/object/
executable, given to $CUOBJDUMP (default $CUDA_HOME/bin/cuobjdump). A toolkit without
cuobjdump: build with nvcc --keep and disassemble the kept .cubin with any nvdisasm that
knows sm_90 (an older one reads a CUDA 13 cubin once its ELF header is given the old ABI
fields: EI_OSABI 0x33, ABI version 7, e_version 118, e_flags 0x5a055a for sm_90).

  cuobjdump -sass build/kernels/10_simt_auto.o > k.sass
  tools/lab/sass_banks.py k.sass gemm_simt_kernel [--configs kernels/simt_configs.def]
  tools/lab/sass_banks.py build/kernels/10_simt_auto.o gemm_simt_kernel   (runs cuobjdump)

One line per kernel; --configs names kernels/simt_gemm.cuh's instantiations by the table's
row (VEC/VEC_C appended as /vv, /v-, /--)."""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)|^\.text\.(\S+):$")  # cuobjdump -sass | nvdisasm
HEX_TAIL = re.compile(r";\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")
HEX_ONLY = re.compile(r"^\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")
LABEL = re.compile(r"^(\.L_x_\d+):")  # nvdisasm's branch targets
BRANCH_OPS = ("BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "CALL", "BPT", "KILL")
REG = re.compile(r"^-?\|?(R\d+|RZ)(\.reuse)?")


def read_sass(path):
    with open(path, "rb") as f:
        head = f.read(4)
    if head == b"\x7fELF" or path.endswith((".o", ".cubin", ".fatbin", ".so")) or os.access(path, os.X_OK):
        tool = os.environ.get("CUOBJDUMP") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "cuobjdump")
        if not os.path.exists(tool):
            tool = shutil.which("cuobjdump") or tool
        return subprocess.run([tool, "-sass", path], check=True, capture_output=True, text=True).stdout
    with open(path, errors="replace") as f:
        return f.read()


def bra_target(addr, lo, hi):
    """A BRA's target from its two encoding words (nvdisasm -hex, cuobjdump): the signed
    offset from the next instruction is word 0's bits 32-63 and word 1's bits 0-17 in units
    of 256 bytes, plus word 0's bits 16-23 in units of 4 (fitted on the 3,330 labelled
    branches of 10_simt_auto's cubin, all matched). For nvdisasm's labels that it does not
    print (CUDA 11.8's nvdisasm on a CUDA 13 cubin leaves some out)."""
    v = ((hi & 0x3FFFF) << 32) | (lo >> 32)
    if v >> 49:
        v -= 1 << 50
    return addr + 16 + v * 256 + ((lo >> 16) & 0xFF) * 4


def functions(text):
    """{name: [(addr, predicate, opcode, operands)]} in the order cuobjdump prints them;
    nvdisasm's labels in branch operands are replaced by their addresses."""
    funcs, cur, labels, pending, words = collections.OrderedDict(), None, {}, [], {}
    last = None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault(m.group(1) or m.group(2), [])
            continue
        m = LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = INSN.match(line)
        if not m or cur is None:
            h = HEX_ONLY.match(line)
            if h and last is not None and cur is not None:
                if len(words.get(last, ())) == 1:
                    words[last].append(int(h.group(1), 16))
                elif len(words.get(last, ())) == 2 and last[1] == len(cur) - 1:
                    # encoding words with no text: an instruction this disassembler does not
                    # know (CUDA 11.8's nvdisasm: some that ptxas 13 emits for sm_90), kept
                    # as "?" so that it stands between its neighbours
                    cur.append((cur[-1][0] + 16, "", "?", []))
                    last = (id(cur), len(cur) - 1)
                    words[last] = [int(h.group(1), 16)]
            continue
        for lab in pending:
            labels[lab] = int(m.group(1), 16)
        pending = []
        body = m.group(2).strip()
        pred = ""
        if body.startswith("@"):
            pred, _, body = body.partition(" ")
        op, _, rest = body.partition(" ")
        ops = [o.strip() for o in rest.split(",")] if rest.strip() else []
        cur.append((int(m.group(1), 16), pred, op, ops))
        h = HEX_TAIL.search(line)
        last = (id(cur), len(cur) - 1)
        if h:
            words[last] = [int(h.group(1), 16)]
    lab = re.compile(r"`?\(?(\.L_x_\d+)\)?")
    for insns in funcs.values():
        for i, (a, p, op, ops) in enumerate(insns):
            if not any(".L_x_" in o for o in ops):
                continue
            w = words.get((id(insns), i), [])
            if op.split(".")[0] == "BRA" and len(w) == 2:
                fallback = hex(bra_target(a, w[0], w[1]))
            else:
                fallback = None
            insns[i] = (a, p, op, [lab.sub(lambda m: hex(labels[m.group(1)]) if m.group(1) in labels
                                           else fallback or m.group(0), o) for o in ops])
    return funcs


def branch_target(op, ops):
    if op.split(".")[0] not in ("BRA", "BRX", "JMP", "CALL"):
        return None
    for o in reversed(ops):
        m = re.search(r"^-?0x([0-9a-f]+)$", o.strip())
        if m:
            return int(m.group(1), 16)
    return None


def hot_loop(insns):
    """(first, last) indices of the loop with the most FFMAs, or the whole function if no
    loop has any (the trailing `BRA` to itself is a loop of none)."""
    index = {a: i for i, (a, _, _, _) in enumerate(insns)}
    ffma = [0]
    for _, _, op, _ in insns:
        ffma.append(ffma[-1] + (op.split(".")[0] == "FFMA"))
    best = None
    for i, (addr, _, op, ops) in enumerate(insns):
        t = branch_target(op, ops)
        if t is None or t > addr:
            continue
        j = index.get(t)
        if j is None:  # a target the disassembler printed no instruction for
            j = next((k for k in range(i + 1) if insns[k][0] >= t), i)
        key = (ffma[i + 1] - ffma[j], -(i - j))
        if key[0] and (best is None or key > best[0]):
            best = (key, j, i)
    return (best[1], best[2]) if best else (0, len(insns) - 1)


def sources(ops):
    """FFMA's three sources as (slot, register or None, reuse flag)."""
    out = []
    for slot, o in enumerate(ops[1:4]):
        m = REG.match(o)
        if m and m.group(1) != "RZ":
            out.append((slot, int(m.group(1)[1:]), bool(m.group(2))))
        else:
            out.append((slot, None, False))
    return out


def analyse(insns, banks, reuse_flag):
    first, last = hot_loop(insns)
    stats = collections.Counter()
    cached = {}  # slot -> register the previous instruction left in the reuse cache
    for addr, pred, op, ops in insns[first:last + 1]:
        base = op.split(".")[0]
        if base.startswith("LDS"):
            stats["lds"] += 1
        if base != "FFMA":
            # another instruction's operands replace the cache's slots it reads
            new = {}
            for slot, o in enumerate(ops[1:4]):
                m = REG.match(o)
                if m and m.group(2) and m.group(1) != "RZ":
                    new[slot] = int(m.group(1)[1:])
            cached = new
            continue
        stats["ffma"] += 1
        srcs = sources(ops)
        live = set()
        for slot, reg, flag in srcs:
            if reg is None:
                continue
            hit = flag if reuse_flag else cached.get(slot) == reg
            if hit:
                stats["reuse"] += 1
            else:
                live.add(reg)
        cached = {slot: reg for slot, reg, flag in srcs if flag and reg is not None}
        clash = max(collections.Counter(r % banks for r in live).values()) if live else 0
        stats["3in1" if clash >= 3 else "2in1" if clash == 2 else "none"] += 1
    return stats, insns[first][0], insns[last][0]


def config_names(path):
    """{(BM, BN, BK, WM, WN, WMITER, STAGES, MIN_BLOCKS, AK): row name} of a simt_configs.def."""
    names = {}
    for line in open(path):
        m = re.match(r"\s*SIMT_CONFIG\((\w+),([^)]*)\)", line)
        if m:
            v = [x.strip() for x in m.group(2).split(",")]
            names[tuple(int(x) for x in v[:9])] = m.group(1)
    return names


def label(name, names):
    m = re.search(r"simt_tileILi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELb([01])EELb([01])ELb([01])E", name)
    if names is None or not m:
        return name
    key = tuple(int(x) for x in m.groups()[:9])
    kind = "streamk " if "streamk" in name else ""
    return f"{kind}{names.get(key, '?')}/{'v' if m.group(10) == '1' else '-'}{'v' if m.group(11) == '1' else '-'}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sass", help="cuobjdump -sass output, or an object/executable to run it on")
    ap.add_argument("substring", nargs="?", default="", help="kernel-name substring")
    ap.add_argument("--configs", help="kernels/simt_configs.def: label simt_tile kernels by row")
    ap.add_argument("--banks", type=int, default=2, help="register banks (2 on sm_70+)")
    ap.add_argument("--reuse-flag", action="store_true", help="an operand marked .reuse is cached")
    ap.add_argument("--min-ffma", type=int, default=1, help="skip kernels with fewer hot FFMAs")
    args = ap.parse_args()
    names = config_names(args.configs) if args.configs else None
    funcs = functions(read_sass(args.sass))
    print(f"{'kernel':34s} {'FFMA':>5s} {'LDS':>4s} {'F/LDS':>6s} {'3in1':>5s} {'2in1':>5s} {'none':>5s} {'reuse':>5s}  loop")
    shown = 0
    for name, insns in funcs.items():
        if args.substring not in name or not insns:
            continue
        s, lo, hi = analyse(insns, args.banks, args.reuse_flag)
        if s["ffma"] < args.min_ffma:
            continue
        ratio = f"{s['ffma'] / s['lds']:.1f}" if s["lds"] else "-"
        print(f"{label(name, names):34s} {s['ffma']:5d} {s['lds']:4d} {ratio:>6s} {s['3in1']:5d} {s['2in1']:5d} "
              f"{s['none']:5d} {s['reuse']:5d}  {lo:#x}-{hi:#x}")
        shown += 1
    if not shown:
        sys.exit(f"sass_banks: no kernel matching {args.substring!r} with FFMAs")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# cubin_same.py BEFORE_DIR AFTER_DIR NAME... (tools/lab/cubin_same.sh builds the dirs):
# per kernel of each NAME.cubin: registers, shared memory and stack (ptxas -v) before/after,
# SASS instructions (the .text section / 16 bytes) before/after, and whether the machine
# code, its relocations and its constant bank are byte-identical (.nv.info holds section
# indices, which move when kernels reorder). Exits 1 on any difference.
import struct, sys, re
def sections(path):
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx]
    def name(off):
        s = strtab[4] + off
        return d[s:d.index(b'\0', s)].decode()
    out = {}
    for h in hdrs:
        nm = name(h[0])
        data = b'' if h[1] == 8 else d[h[4]:h[4] + h[5]]   # SHT_NOBITS
        out[nm] = (h[5], data, h[7] >> 24 if nm.startswith('.text.') else None)
    return out
def ptxas(path):
    r, cur = {}, None
    for line in open(path):
        m = re.search(r"Function properties for (\S+)", line)
        if m: cur = m.group(1); r.setdefault(cur, {}); continue
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m: cur = m.group(1); r.setdefault(cur, {}); continue
        if cur is None: continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m: r[cur].update(stack=int(m.group(1)), spill=int(m.group(2)) + int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m: r[cur]['regs'] = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", line)
        if m: r[cur]['smem'] = int(m.group(1))
    return r
bdir, adir = sys.argv[1], sys.argv[2]
allsame = True
for n in sys.argv[3:]:
    sb, sa = sections(f'{bdir}/{n}.cubin'), sections(f'{adir}/{n}.cubin')
    pb, pa = ptxas(f'{bdir}/{n}.ptxas'), ptxas(f'{adir}/{n}.ptxas')
    kernels = sorted(k[6:] for k in set(sb) | set(sa) if k.startswith('.text.'))
    for k in kernels:
        t = '.text.' + k
        same = all(sb.get(s, (0, b''))[1] == sa.get(s, (0, b''))[1] for s in
                   (t, '.rel' + t, '.rela' + t, '.nv.constant0.' + k)) and \
               sb.get('.nv.shared.' + k, (0,))[0] == sa.get('.nv.shared.' + k, (0,))[0] and pb.get(k) == pa.get(k)
        allsame &= same
        rb, ra = pb.get(k, {}), pa.get(k, {})
        print(f"{n}: {k[:70]}  regs {rb.get('regs')}/{ra.get('regs')}  smem {rb.get('smem', 0)}/{ra.get('smem', 0)}"
              f"  stack {rb.get('stack')}/{ra.get('stack')}  instr {len(sb.get(t, (0, b''))[1]) // 16}/"
              f"{len(sa.get(t, (0, b''))[1]) // 16}  identical {'yes' if same else 'NO'}")
print('all identical' if allsame else 'DIFFERENCES')
sys.exit(0 if allsame else 1)

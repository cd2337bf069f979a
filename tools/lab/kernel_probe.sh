#!/bin/bash
# One device call for the new kernels (issues 12 and 13): build, then the SIMT, mma.sync
# and wgmma probes, each bounded, logs under $OUT (kernel_probe.log and probes.tgz).
#   tools/lab/kernel_probe.sh [simt] [tf32] [wgmma]     (default: all three)
set -u
OUT=${OUT:-/tmp/kernel-probe}
W=$OUT/work
mkdir -p "$W"
steps=${*:-simt tf32 wgmma}
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
stamp() { echo "[$(date +%T)] $*"; }
rev=(); [ -f .gitrev ] && rev=(GIT_REV="$(cat .gitrev)")
{
stamp build
make -j16 "${rev[@]}" >"$W/build.log" 2>&1 || { tail -30 "$W/build.log"; echo BUILD FAILED; }
grep -E "warning" "$W/build.log" | head -5
if has wgmma; then
    stamp "wgmma probe"
    timeout -k 5 200 tools/lab/wgmma_probe.sh build "$W/wgmma" 2>&1
fi
if has tf32; then
    stamp "mma.sync TF32 probe"
    timeout -k 5 120 tools/lab/tf32_probe.sh build "$W/tf32" 2>&1
fi
if has simt; then
    stamp "SIMT probe"
    timeout -k 5 220 tools/lab/simt_probe.sh build "$W/simt" 2>&1
fi
stamp done
} 2>&1 | tee "$OUT/kernel_probe.log"
tar czf "$OUT/probes.tgz" -C "$W" . 2>/dev/null
rm -rf "$W"

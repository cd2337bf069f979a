#!/bin/bash
# The SIMT tiles' register-bank conflicts (tools/lab/sass_banks.py) on a machine whose toolkit
# has no disassembler (CUDA 13.0 here: no cuobjdump, no nvdisasm). Builds SRC (default
# kernels/10_simt_auto.cu) as the Makefile does, keeping the sm_90 cubin; gives the cubin's
# ELF header the fields an older nvdisasm expects of sm_90 (OS ABI 0x33, ABI version 7,
# e_version 118, e_flags 0x5a055a); disassembles it with $NVDISASM; prints one line per
# kernel matching FILTER (default gemm_simt_), its listing left in $W/NAME.sass.
#   NVDISASM=/path/to/nvdisasm tools/lab/sass_banks_build.sh NAME [SRC] [FILTER]
# An nvdisasm that knows sm_90: CUDA 11.8's, from Debian bookworm's non-free
# nvidia-cuda-toolkit package, unpacked, not installed (with non-free in the apt sources:
# apt-get download nvidia-cuda-toolkit; dpkg -x nvidia-cuda-toolkit_*.deb DIR; then
# NVDISASM=DIR/usr/bin/nvdisasm). It prints no label for some branch targets and "?" for
# some instructions it does not know; sass_banks.py recovers both.
set -eu
name=${1:?usage: NVDISASM=... tools/lab/sass_banks_build.sh NAME [SRC] [FILTER]}
src=${2:-kernels/10_simt_auto.cu}
filter=${3:-gemm_simt_}
: "${NVDISASM:?set NVDISASM to an nvdisasm that knows sm_90}"
W=${WORK:-/tmp/sass-banks}
keep=$W/keep-$name
rm -rf "$keep"; mkdir -p "$keep"
cuda=${CUDA_HOME:-/usr/local/cuda}
"$cuda/bin/nvcc" -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -lineinfo -I. -I"$cuda/include" \
    -DGP_VERSION=\"lab\" -DGP_GIT_REV=\"lab\" -DGP_CUDA_HOME=\"$cuda\" -Xptxas -v --keep --keep-dir "$keep" \
    -c "$src" -o "$W/$name.o" >"$W/$name.ptxas.log" 2>&1
cubin=$(ls "$keep"/*.cubin | head -1)
python3 - "$cubin" "$W/$name.cubin" <<'PY'
import struct, sys
elf = bytearray(open(sys.argv[1], "rb").read())
elf[7], elf[8] = 0x33, 0x07                    # EI_OSABI, EI_ABIVERSION
struct.pack_into("<I", elf, 20, 118)           # e_version
struct.pack_into("<I", elf, 48, 0x5a055a)      # e_flags: sm_90
open(sys.argv[2], "wb").write(elf)
PY
"$NVDISASM" -c -hex "$W/$name.cubin" >"$W/$name.sass"
rm -rf "$keep"
python3 tools/lab/sass_banks.py "$W/$name.sass" "$filter" --configs kernels/simt_configs.def | sort

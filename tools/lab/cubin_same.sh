#!/bin/bash
# Is a device-code refactor free? Builds kernels/NAME.cu of revision REV and of the work
# tree to sm_90 cubins (the Makefile's flags; the wgmma files for sm_90a) and compares
# each kernel: registers, shared memory and stack (ptxas -v), instructions (.text / 16
# bytes) and whether its machine code, relocations and constant bank are byte-identical.
# Needs only nvcc (no cuobjdump, no GPU).
#   tools/lab/cubin_same.sh REV NAME...     e.g. tools/lab/cubin_same.sh main 14_wgmma_ss
set -e
rev=$1; shift
[ -n "$rev" ] && [ $# -gt 0 ] || { echo "usage: $0 REV NAME..." >&2; exit 2; }
NVCC=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/base"; git archive "$rev" | tar -x -C "$tmp/base"
sm90a=$(sed -n 's/^SM90A_SRC *+\?:\?= *//p' Makefile | tr '\n' ' ')
for side in base tree; do
    src=$([ $side = base ] && echo "$tmp/base" || pwd); mkdir -p "$tmp/$side.out"
    for n in "$@"; do
        case " $sm90a " in *" kernels/$n.cu "*) g="-gencode arch=compute_90a,code=sm_90a -DGP_SM90A";;
            *) g="-gencode arch=compute_90,code=sm_90";; esac
        (cd "$src" && $NVCC -O3 -std=c++17 -lineinfo -Xcompiler -Wall,-Wextra -I. -I"${CUDA_HOME:-/usr/local/cuda}/include" \
            -DGP_VERSION=\"0\" -DGP_GIT_REV=\"x\" -DGP_CUDA_HOME=\"x\" $g -Xptxas -v -cubin "kernels/$n.cu" \
            -o "$tmp/$side.out/$n.cubin" 2> "$tmp/$side.out/$n.ptxas") || { cat "$tmp/$side.out/$n.ptxas" >&2; exit 1; }
    done
done
python3 "$(dirname "$0")/cubin_same.py" "$tmp/base.out" "$tmp/tree.out" "$@"

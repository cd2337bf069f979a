#!/bin/bash
# tools/lab/simt_variants.cu built at each ptxas --register-usage-level in LEVELS (in
# parallel), then run one after another: does ptxas's register/scheduling trade-off move
# the SIMT tiles?   tools/lab/simt_ptxas_levels.sh DIR ["0 2 5 8 10"]
DIR=${1:-/tmp/simt_levels}
LEVELS=${2:-"0 2 5 8 10"}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$DIR"
for L in $LEVELS; do
    "$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -I. -Xptxas -v,-regUsageLevel=$L \
        tools/lab/simt_variants.cu kernels/pdl.c -o "$DIR/probe_l$L" -lcublas >"$DIR/build_l$L.log" 2>&1 &
done
wait
for L in $LEVELS; do
    echo "== register usage level $L: $(grep -o 'Used [0-9]* registers' "$DIR/build_l$L.log" | awk '{print $2}' | tr '\n' ' ')"
    PTXAS_FLAGS=-regUsageLevel=$L timeout 120 "$DIR/probe_l$L"
done

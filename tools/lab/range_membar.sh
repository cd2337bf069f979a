#!/bin/sh
# Builds tools/lab/range_membar.cu against gemmprof's objects (make first) and runs it:
# the memory-barrier sectors of a counter range by what the range holds.
#   tools/lab/range_membar.sh [BUILD]
B=${1:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
objs=$(ls $B/src/*.o $B/cupti/*.o $B/kernels/*.o $B/analysis/*.o | grep -v "/src/main.o$")
nvcc -O2 -std=c++17 -arch=sm_90 -I. -c tools/lab/range_membar.cu -o $B/range_membar.o &&
    g++ -fopenmp -o $B/range_membar $B/range_membar.o $objs -L$CUDA_HOME/lib64 -Wl,-rpath,$CUDA_HOME/lib64 \
        -lcublas -lcupti -lcudart -ldl -lm -lgomp -lstdc++ &&
    $B/range_membar

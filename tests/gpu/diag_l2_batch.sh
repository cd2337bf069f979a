#!/bin/sh
# Diagnostic (not a test), issue 9: cuBLAS 1000x1500x700 reads ~3% more L2 bytes in the
# ncu comparison's batch (4 variants x 3 shapes) than alone and than ncu alone. Round 1
# (e04e4ac): the other variants of the same shape do it (cuBLAS with its other shapes
# does not); the excess is in L2 sectors the SMs request (srcunit tex), while L1 tag
# bytes are equal. Round 2: which neighbour, the flush's timing, and L1 misses.
B=${1:-build}
T=$(mktemp -d)
pick() {   # results.csv variant shape columns... -> values
    python3 - "$@" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["variant"] == sys.argv[2] and f'{r["m"]}x{r["n"]}x{r["k"]}' == sys.argv[3]:
        print(" ".join(r.get(c, "-") or "-" for c in sys.argv[4:]))
PY
}
COLS="lts__t_bytes.sum sm__cycles_elapsed.avg.per_second gpu__time_duration.sum smem_config_bytes"
run() {   # label, extra columns, gemmprof args...
    label=$1; cols="$COLS $2"; shift 2
    for i in 1 2 3; do
        $B/gemmprof "$@" -r 2 -w 1 --no-ceilings --no-report -o "$T/o" >"$T/log" 2>&1 || tail -3 "$T/log"
        echo "$label $(pick "$T/o/results.csv" cublas 1000x1500x700 $cols)"
    done
}
S=1000x1500x700
echo "columns: case $COLS [extra]"
run tiled-cublas ""        -k tiled,cublas -s $S
run naive-cublas ""        -k naive,cublas -s $S
run tf32-cublas ""         -k cublas_tf32,cublas -s $S
run cublas-first ""        -k cublas,naive,tiled,cublas_tf32 -s $S
GEMMPROF_COUNTER_FLUSH=read-wait run batch-wait2ms "" -k naive,tiled,cublas,cublas_tf32 -s $S
GEMMPROF_COUNTER_FLUSH=none run batch-noflush "" -k naive,tiled,cublas,cublas_tf32 -s $S
X=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__m_xbar2l1tex_read_bytes.sum,lts__t_bytes.sum
run batch-x "$(echo $X | tr , ' ')" -k naive,tiled,cublas,cublas_tf32 -s $S -m $X
run alone-x "$(echo $X | tr , ' ')" -k cublas -s $S -m $X
Y=l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum,lts__t_bytes.sum
run batch-y "$(echo $Y | tr , ' ')" -k naive,tiled,cublas,cublas_tf32 -s $S -m $Y
run alone-y "$(echo $Y | tr , ' ')" -k cublas -s $S -m $Y
for c in "batch:-k naive,tiled,cublas,cublas_tf32 -s $S" "alone:-k cublas -s $S"; do
    label=${c%%:*}; args=${c#*:}
    ncu --replay-mode application --nvtx --nvtx-include "gemmprof@cublas $S/" \
        --kernel-name regex:'gemm|xmma|Kernel2|nvjet' --clock-control none --csv --page raw \
        --print-units base --metrics lts__t_bytes.sum,sm__cycles_elapsed.avg.per_second,$X --log-file "$T/ncu.csv" \
        $B/gemmprof $args -r 3 -w 1 --no-ceilings --no-report -o "$T/n" >"$T/ncu.log" 2>&1 || tail -3 "$T/ncu.log"
    (cd tests/gpu && python3 -c "
import ncu_csv, sys
for k in ncu_csv.kernels('$T/ncu.csv'):
    print('ncu-$label', k.get('lts__t_bytes.sum'), k.get('sm__cycles_elapsed.avg.per_second'), k.get('lts__t_sectors_srcunit_tex_op_read.sum'), k.get('l1tex__m_xbar2l1tex_read_bytes.sum'))
")
done
rm -rf "$T"

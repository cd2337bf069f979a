#!/bin/sh
# Are a TMA kernel's shared-memory load wavefronts its mbarrier polls? gemmprof's shared-load
# wavefronts, bank conflicts and SASS-counted shared-load instructions over three runs, and
# ncu's hardware and SASS shared-load instruction counts beside its wavefronts, for the same
# variants (default wgmma and wgmma_ws at 2048^3).
#   sh tools/lab/smem_polls.sh OUTDIR
out=${1:?OUTDIR}; mkdir -p "$out"
set -- build
. tests/gpu/lib.sh
K=${SMEM_POLLS_K:-wgmma,wgmma_ws}
S=${SMEM_POLLS_S:-2048}
m=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum,sm__cycles_elapsed.avg.per_second
for i in 1 2 3; do
    $GEMMPROF -k "$K" -s "$S" -r 2 -w 1 -m "$m" --no-ceilings --no-report -o "$out/g$i" >"$out/g$i.log" 2>&1
    echo "gemmprof run $i: exit $?"
done
ncu --replay-mode application --nvtx --nvtx-include 'gemmprof@timed/' --kernel-name regex:"$GEMM_KERNELS" \
    --clock-control none --csv --page raw --print-units base \
    --metrics "$m,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed.sum" --log-file "$out/ncu.csv" \
    $GEMMPROF -k "$K" -s "$S" -r 3 -w 1 --no-counters --no-ceilings --no-report -o "$out/n" >"$out/n.log" 2>&1
echo "ncu: exit $?"
python3 - "$out" <<'PY'
import csv, io, sys
d = sys.argv[1]
for i in (1, 2, 3):
    for r in csv.DictReader(open(f"{d}/g{i}/results.csv")):
        print("gemmprof", i, r["variant"], {k.split("__")[1][:40]: r.get(k) for k in r if k.startswith(("l1tex__data", "smsp__sass_inst", "sm__cycles"))})
rows = list(csv.DictReader(io.StringIO("".join(l for l in open(f"{d}/ncu.csv") if l.startswith('"')))))[1:]
for r in rows:
    print("ncu", r["Kernel Name"][:30], {k.split("__")[1][:40]: r.get(k) for k in r if "__" in k})
PY

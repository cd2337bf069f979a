#!/bin/sh
# The diagnosis engine on the benchmark as the H200 measured it (tests/data/diagnosis_h200/,
# gemmprof's default counters, recorded by tests/gpu/test_ncu_diagnosis.sh with DIAG_KEEP):
# every injected cause must be the top finding, the control's a roof. The same judge as the
# GPU test (tests/diagnosis/check.py), so a rule change that breaks a case fails here, in CI.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "skip - diagnosis of the recorded benchmark: python3 not found"; exit 0; }
build=${BUILD:-build}
dirs=$(ls -d tests/data/diagnosis_h200/*/ | sed 's:/$::' | paste -sd, -)
python3 tests/diagnosis/check.py "$build/gemmprof" tests/diagnosis/cases.txt "$dirs" |
    grep -E '^(ok|FAIL|skip) ' | sed 's/^\(ok\|FAIL\|skip\) - diagnosis of/\1 - diagnosis (recorded H200 data) of/'

# Barrier stalls read by who fills shared memory: in the recorded H200 run the TMA-fed
# kernels (no thread stores to shared memory, or only C for a TMA store) get barriers_async,
# and no row gets the per-step __syncthreads advice of barriers
causes=$("$build/gemmprof" report results/h200 --causes 2>/dev/null)
for v in wgmma_ws bf16_wgmma fp16_wgmma cublas_tf32; do
    if echo "$causes" | awk -F'\t' -v v="$v" '$1 == v && $2 == 4096 && $8 ~ /^barriers_async:/ {f = 1} END {exit !f}'; then
        echo "ok - diagnosis of the recorded run: $v 4096^3 waits for copies (barriers_async first)"
    else
        echo "FAIL - diagnosis of the recorded run: $v 4096^3 should lead with barriers_async"
        echo "$causes" | awk -F'\t' -v v="$v" '$1 == v' | sed 's/^/    /'
    fi
done
if echo "$causes" | awk -F'\t' '$8 ~ /(^|,)barriers:/ {f = 1} END {exit !f}'; then
    echo "FAIL - diagnosis of the recorded run: a row still gets barriers"
else
    echo "ok - diagnosis of the recorded run: no row gets the per-step __syncthreads advice (barriers)"
fi

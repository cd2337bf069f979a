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

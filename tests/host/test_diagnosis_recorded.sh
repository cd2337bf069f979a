#!/bin/sh
# The diagnosis engine on the benchmark as each GPU measured it (tests/data/diagnosis_<gpu>/,
# gemmprof's default counters, recorded by tests/gpu/test_ncu_diagnosis.sh with DIAG_KEEP):
# every injected cause must be the top finding, the control's a roof. The same judge as the
# GPU test (tests/diagnosis/check.py), so a rule change that breaks a case fails here, in CI.
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "skip - diagnosis of the recorded benchmark: python3 not found"; exit 0; }
build=${BUILD:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# One recorded set per GPU (tests/data/diagnosis_<gpu>/): RECORDED names the cases it holds,
# so a case added after a set was recorded is a visible skip there, not a FAIL, and a row
# lost from a set it names is still a FAIL
for set in tests/data/diagnosis_*/; do
    set=${set%/}; gpu=$(echo "${set##*_}" | tr a-z A-Z)
    [ -f "$set/RECORDED" ] || { echo "FAIL - diagnosis (recorded $gpu data): $set/RECORDED not found"; continue; }
    # the set's cases into $tmp/cases; a skip for each case it does not hold
    : >"$tmp/cases"
    grep -v '^#' tests/diagnosis/cases.txt | awk -v out="$tmp/cases" -v gpu="$gpu" '
        NR == FNR {rec[$1] = 1; next}
        !NF {next}
        $2 in rec {print > out; next}
        $3 != "fix" {print "skip - diagnosis (recorded " gpu " data) of " $2 ": not in this recording (the case is newer than it)"}
    ' "$set/RECORDED" -
    dirs=$(ls -d "$set"/*/ | sed 's:/$::' | paste -sd, -)
    python3 tests/diagnosis/check.py "$build/gemmprof" "$tmp/cases" "$dirs" --gains |
        grep -E '^(ok|FAIL|skip) ' |
        sed "s/^\(ok\|FAIL\|skip\) - \(diagnosis\|gain\) of/\1 - \2 (recorded $gpu data) of/"
done

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

# A row far under every roof (the latency limiter) is told what its leading stall asks for,
# not its roof's advice: tf32_mma at 8192^3 reaches 50.0% of its issue roof with issue slots
# half busy and "wait" leading the stalls
"$build/gemmprof" report results/h200 --out "$tmp/" --no-plots >/dev/null 2>&1
line=$(awk '/^### `tf32_mma`/ {f = 1} f && /^Diagnosis at 8192x8192x8192/ {print; exit}' "$tmp/report.md")
case $line in
*"**latency-bound** under the instruction issue roof"*"wait leads the stalls"*"next: more independent instructions"*)
    echo "ok - diagnosis of the recorded run: tf32_mma 8192^3 is latency-bound, and told what its leading stall (wait) asks for" ;;
*) echo "FAIL - diagnosis of the recorded run: tf32_mma 8192^3 should read latency-bound with wait's advice: $line" ;;
esac
if grep -q '| `tf32_mma` | tf32 | [0-9.]* | [0-9.]*% | [0-9.]* | latency (wait), at ' "$tmp/report.md"; then
    echo "ok - the summary's ladder gives tf32_mma's top finding as latency (wait)"
else
    echo "FAIL - the summary's ladder should give tf32_mma's top finding as latency (wait)"
fi

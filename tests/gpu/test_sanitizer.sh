#!/bin/sh
# compute-sanitizer memcheck and racecheck on the hand-written kernels (not cuBLAS:
# a library's internals are not ours to check), at shapes with ragged edges.
. tests/gpu/lib.sh
need_gpu "compute-sanitizer on the hand-written kernels" || exit 0
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    skip "compute-sanitizer: not installed"; exit 0
fi
kernels=$($GEMMPROF --list | tail -n +2 | awk '$1 !~ /^cublas/ {print $1}' | paste -sd, -)
for tool in memcheck racecheck; do
    if compute-sanitizer --tool $tool --error-exitcode 9 $GEMMPROF -k "$kernels" -s 17x33x65,130x67x45 \
            -r 1 -w 0 --no-ceilings --no-report --no-flush -o "$TMP/$tool" >"$TMP/$tool.log" 2>&1 &&
       grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$TMP/$tool.log"; then
        ok "compute-sanitizer $tool clean on $kernels"
    else
        tail -30 "$TMP/$tool.log"; fail "compute-sanitizer $tool on $kernels"
    fi
    # under the sanitizer gemmprof must fall back to timing only, not die
    if grep -q "carrying on with timing only" "$TMP/$tool.log"; then
        ok "counters fall back to timing-only under compute-sanitizer $tool"
    else
        fail "no timing-only fallback message under compute-sanitizer $tool"
    fi
done

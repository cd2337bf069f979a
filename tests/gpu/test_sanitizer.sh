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
# streamk cuts tiles between blocks only where there are more tiles than resident blocks:
# 1540x3080 is 13 x 13 = 169 tiles of 128x256 on at most 132 blocks, K = 70 in 3 slices
for tool in memcheck racecheck; do
    if timeout 180 compute-sanitizer --tool $tool --error-exitcode 9 $GEMMPROF -k streamk -s 1540x3080x70 \
            -r 1 -w 0 --no-ceilings --no-report --no-flush -o "$TMP/sk$tool" >"$TMP/sk$tool.log" 2>&1 &&
       grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$TMP/sk$tool.log"; then
        ok "compute-sanitizer $tool clean on streamk with cut tiles ($(grep -o '[0-9-]* whole + [0-9-]* stream-K' "$TMP/sk$tool/results.csv" | head -1))"
    else
        tail -30 "$TMP/sk$tool.log"; fail "compute-sanitizer $tool on streamk at 1540x3080x70"
    fi
done

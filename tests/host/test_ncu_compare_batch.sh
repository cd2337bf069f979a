#!/bin/sh
# tests/gpu/test_ncu_compare.sh's plumbing without a GPU: stand-ins for nvidia-smi, ncu and
# gemmprof (tests/host/fake_ncu/fake.py) that agree by construction. One ncu process per
# shape and pad over every case of the shape, gemmprof's own runs one variant each, the
# multi-kernel case, NCU_COMPARE_BATCH=0 (one ncu process per case and pad), a case named
# twice, and the failures: a kernel missing from ncu's list, no timing-only message.
command -v python3 >/dev/null 2>&1 || { echo "skip - test_ncu_compare.sh plumbing: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$T/bin" "$T/build"
printf '#!/bin/sh\necho "GPU 0: fake (UUID: GPU-0)"\n' >"$T/bin/nvidia-smi"
cp tests/host/fake_ncu/fake.py "$T/bin/ncu"
cp tests/host/fake_ncu/fake.py "$T/build/gemmprof"
chmod +x "$T/bin/nvidia-smi" "$T/bin/ncu" "$T/build/gemmprof"
CASES="naive:2048 tiled:2048 naive:1000x1500x700 cublas_tf32:64x64x16384:multi tiled:1000x1500x700"

# $1 description, then VAR=value settings for the run
run() {
    what=$1; shift
    : >"$T/log"
    env PATH="$T/bin:$PATH" FAKE_LOG="$T/log" NCU_COMPARE_RUNS=2 NCU_COMPARE_CASES="$CASES" "$@" \
        sh tests/gpu/test_ncu_compare.sh "$T/build" >"$T/out" 2>&1
}
check() {   # $1 description, $2 condition (shell)
    if eval "$2"; then echo "ok - test_ncu_compare.sh: $1"; else
        sed 's/^/    /' "$T/out"; echo "    invocations:"; sed 's/^/      /' "$T/log"
        echo "FAIL - test_ncu_compare.sh: $1"; fi
}
n() { grep -c -- "$1" "$2"; }

run "batched"
check "5 cases in 3 shapes: every case agrees, nothing fails" \
    '[ "$(n "^ok - gemmprof counters agree with ncu" "$T/out")" = 5 ] && [ "$(n "^FAIL" "$T/out")" = 0 ]'
check "one ncu process per shape and pad (3 x 2), each over its shape's variants in order" \
    '[ "$(n "^ncu " "$T/log")" = 6 ] && [ "$(n "^ncu -k naive,tiled -s 2048x2048x2048 pad 0 ranges 2" "$T/log")" = 1 ] &&
     [ "$(n "^ncu -k naive,tiled -s 1000x1500x700x1000x1500x700 pad 64" "$T/log")" = 0 ] &&
     [ "$(n "^ncu -k naive,tiled -s 1000x1500x700 pad 64 ranges 2" "$T/log")" = 1 ]'
check "gemmprof's own runs one variant each, 2 per case, pads 0 and 64" \
    '[ "$(grep "^gemmprof" "$T/log" | grep -vc "under ncu")" = 10 ] &&
     [ "$(grep "^gemmprof" "$T/log" | grep -v "under ncu" | grep -c ",")" = 0 ] &&
     [ "$(n "^gemmprof -k naive -s 2048x2048x2048 pad 64$" "$T/log")" = 1 ]'
check "the timing-only fallback checked once per ncu process" \
    '[ "$(n "^ok - under ncu, gemmprof falls back to timing only" "$T/out")" = 6 ]'
check "the multi-kernel case compared as a call of 2 kernels, its split-K sub-check run" \
    'grep -q "^ok - split-K call cublas_tf32 64x64x16384" "$T/out"'
check "each case's time line, and the total" \
    'grep -q "^  (tiled 1000x1500x700, gemmprof 2 runs: [0-9]* s; ncu, shared by the shape.s 2 cases: [0-9]* s)" "$T/out" &&
     grep -q "^  ncu comparison: [0-9]* s in all" "$T/out"'

run "one case each" NCU_COMPARE_BATCH=0
check "NCU_COMPARE_BATCH=0: one ncu process per case and pad (5 x 2), all agree" \
    '[ "$(n "^ncu -k [a-z_0-9]* -s .* ranges 1$" "$T/log")" = 10 ] && [ "$(n "^ok - gemmprof counters agree" "$T/out")" = 5 ] &&
     [ "$(n "^FAIL" "$T/out")" = 0 ]'

CASES="naive:2048 tiled:2048 naive:2048" run "twice"
check "a case named twice at one shape: a second ncu process for it, both compared" \
    '[ "$(n "^ncu -k naive,tiled -s 2048x2048x2048" "$T/log")" = 2 ] && [ "$(n "^ncu -k naive -s 2048x2048x2048" "$T/log")" = 2 ] &&
     [ "$(n "^ok - gemmprof counters agree with ncu for naive 2048x2048x2048" "$T/out")" = 2 ] && [ "$(n "^FAIL" "$T/out")" = 0 ]'

run "a kernel missing" FAKE_NCU_DROP=naive
check "naive a call short (its second): a FAIL naming naive at each shape, and the cases after it" \
    'grep -q "^FAIL - ncu.s kernels and the cases .*naive 2048x2048x2048: call 7 of 7: .*has naive fewer than 7 calls" "$T/out" &&
     grep -q "^FAIL - ncu compare tiled 2048x2048x2048: none of ncu.s kernels" "$T/out" &&
     grep -q "^FAIL - ncu.s kernels and the cases .*naive 1000x1500x700: call 7 of 7" "$T/out" &&
     grep -q "^ok - gemmprof counters agree with ncu for cublas_tf32 64x64x16384" "$T/out" &&
     [ "$(n "^ok - gemmprof counters agree with ncu for \(naive\|tiled\)" "$T/out")" = 0 ]'

run "no fallback" FAKE_NO_FALLBACK=1
check "no timing-only message under ncu: a FAIL per ncu process" \
    '[ "$(n "^FAIL - no timing-only fallback message under ncu" "$T/out")" = 6 ]'

#!/bin/sh
# tf32_auto's rule replayed on the H200's tuner tables (results/h200/tune/tf32/, the newest
# table of each shape; results/h200/NOTES.md names the runs) with `gemmprof tune-check`:
# the plan the rule picks now must have run at FLOOR of the table's best plan or better:
# 93% at issue 28's nine shapes (257x513x4099: 93.8-96.2% without reduce plans, 99.7% with),
# 85% at the shapes off its list. A guard for edits of kernels/tf32_plan.h and
# kernels/tf32_configs.def, without a GPU.
# Tables recorded before the tail split (cb8dcc1) timed a split of a multi-wave shape as a
# split of every tile: a rule that picks such a plan there is judged on those times. Tables
# from before A's copy (5b1142f) judge the rule among the plans that do not copy, and those
# from before the reduce plans (7f0839a) among the plans without them.
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
T=results/h200/tune/tf32
[ -x "$build/gemmprof" ] || { echo "skip - tf32_auto's rule on the H200 tables: $build/gemmprof not built"; exit 0; }
check() { # FLOOR TABLE... (in $T)
    floor=$1; shift
    for t in "$@"; do
        line=$("$build/gemmprof" tune-check "$T/$t.csv" 2>&1 | sed -n 2p)
        pct=$(echo "$line" | grep -oE '[0-9]+\.[0-9]%' | tail -1 | tr -d %)
        if [ -n "$pct" ] && awk -v p="$pct" -v f="$floor" 'BEGIN {exit !(p >= f)}'; then
            echo "ok - tf32_auto's rule on $t: the pick at $pct% of the best plan (>= $floor%)"
        else
            echo "FAIL - tf32_auto's rule on $t: the pick at ${pct:-?}% of the best plan (< $floor%): $line"
        fi
    done
}
check 93 1024-63187d7 2048-56de066 4096-cb8dcc1 8192-56de066 1000x1500x700-63187d7 8192x64x4096-63187d7 \
    64x8192x4096-63187d7 3000x3000x512-63187d7 257x513x4099-81fc746 257x513x4099-pitch128-2881d6e 257x513x4099-dc330ac
check 85 1000x1500x701-81fc746 100x100x10000-7f0839a 127x4096x4096-1a37d29 1536-cb8dcc1 1800x1800x5000-56de066 \
    2000x3000x1000-cb8dcc1 2560-cb8dcc1 259x259x10000-7f0839a 700x700x7000-7f0839a 600x600x6000-7f0839a 3072-cb8dcc1 333x777x2222-1a37d29 \
    4096x127x4096-1a37d29 512-1a37d29 5120-cb8dcc1 768-1a37d29 96x3000x3000-dc330ac 1000x1000x20000-dc330ac \
    4500-56de066 2500-56de066 2200x2200x700-56de066 6000x6000x300-56de066
# The H100's tables (results/h100/tune/tf32/): tf32_auto at small m (4d0794c) and the plans
# that load odd operands in the kernel beside those that copy them (direct-pre43a5b58: every
# plan timed, the model column from a rule since refitted).
T=results/h100/tune/tf32
check 85 1x4096x4096-4d0794c 8x4096x4096-4d0794c 45x3000x6000-4d0794c 1111x47x7777-4d0794c 150x6200x2300-4d0794c \
    4772x12x3500-4d0794c 5000x24x6000-4d0794c 16x8000x3000-4d0794c 1111x47x7777-direct-pre43a5b58 \
    47x1111x7777-direct-pre43a5b58 2222x31x9999-direct-pre43a5b58 257x513x4099-direct-pre43a5b58 \
    1023x1025x4097-direct-pre43a5b58 333x777x9999-direct-pre43a5b58 130x67x45-direct-pre43a5b58 \
    17x33x65-direct-pre43a5b58

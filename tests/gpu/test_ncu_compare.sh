#!/bin/sh
# gemmprof's CUPTI counters against ncu for the same kernels in the same L2 state, and the
# timing-only fallback when ncu holds the counters.
#
# Criterion (tests/gpu/ncu_compare.py judges, and prints it at the start of the output):
# gemmprof's value is the median of its runs, ncu's the median of its calls, a call's value
# the sum over its kernels.
# - instruction and tensor-op counts: equal in every run and call;
# - DRAM reads, L2 and L1 bytes: within 2% or 64 KiB of ncu, whichever is larger, or inside
#   ncu's call-to-call range widened by as much; L2 bytes outside both pass when the L2
#   demand (lookups + the sectors the L2 Request Coalescer merged) is within 2% of ncu's,
#   or, where gemmprof counted more memory-barrier sectors than ncu (its range adds some on
#   the H100 SXM), that demand less those sectors on each side is;
# - shared-memory wavefronts: within 2% of ncu, or within ncu's own call-to-call spread;
# - DRAM writes: inside ncu's call-to-call range [min, max], each end widened by 2% or
#   64 KiB, whichever is larger. Outside it, a one-kernel call still passes when the DRAM
#   total (read + write) is within 2% of ncu's: the writes are capacity evictions of C and
#   vary from call to call under both tools (the total is printed either way);
# - a call of several kernels (split-K GEMM + reduction, padded copies + GEMM): ncu flushes
#   the caches between the kernels, gemmprof measures the call as one range, so DRAM reads
#   must lie between ncu's first kernel and ncu's sum over the kernels (2% or 64 KiB either
#   side), not equal ncu's sum, L2 bytes may fall short of ncu's sum by ncu's extra DRAM
#   reads, and DRAM writes may exceed ncu's range by what the kernels but the last stored
#   (ncu's flush between kernels writes their dirty lines back outside its ranges; gemmprof's
#   range counts them as the later kernels evict them). cuBLAS TF32 at 64x64x16384 is the
#   case meant for this (one 64x64 output tile, K split over many CTAs); where cuBLAS
#   launches one kernel there, that sub-check prints a skip line with the reason and the
#   case is compared as one kernel.
# - a judged value missing or not finite on either side fails.
#
# gemmprof: for each case, RUNS runs of one variant (`-k V -s S`, fewer timed calls than ncu:
# the counter phase does not depend on them). The main job measures every variant of a
# shape in one counter batch; there a kernel's L2 bytes can read up to 3% above the same
# kernel measured alone (cuBLAS 1000x1500x700: 140.2-144.9 MB in the batch against
# 138.9-140.6 alone and ncu's 139.9-142.1; results/h200/logs/diag_l2_batch-*.txt): the other
# variants' ranges before it in the same pass change how often its L1 misses, which no flush
# between them undid. So gemmprof's runs stay one variant each.
# ncu: one process per shape and pad profiles every case of that shape (`-k V1,V2,... -s S`,
# one --nvtx-include per variant): ncu's start and its application replay passes (a
# whole run of gemmprof each) were most of the cost, about 10 s per process, when each case
# had its own. ncu cannot profile gemmprof's counter batch (it holds the counters, so
# gemmprof times only), and need not: each profiled call follows the variant's own verify
# and warm-up calls and a flush by both tools, and ncu on the batched command read what ncu
# alone read (cuBLAS 1000x1500x700: 139.8-141.2 against 139.9-142.1 MB, diag_l2_batch).
# Same placements, both tools: gemmprof's runs cycle through PADS, ncu runs once per pad
# (GEMMPROF_TEST_PAD_MB MiB allocated before the matrices), and its calls pool. A, B and C
# are allocated once per shape, after the pad and before its first variant (src/shape.c), so
# every variant of ncu's process lies as it does in a one-variant run with that pad. A kernel
# whose data fills the L2 re-reads from DRAM as the matrices lie: tf32x3_mma 2048^3 read
# 41.3-43.5 MB over gemmprof's pads of 0-2048 MiB and ncu's medians moved 40.8-41.7
# (results/h200/logs/diag_pad-d55f57c.txt); one ncu process samples one placement.
# ncu's kernels go back to the cases in run order (ncu_compare.py --split, the assignment
# test_ncu_launch.sh uses): each case holds CALLS + 2 calls of the kernels its gemmprof row
# names; a FAIL line names the first case where they do not add up, and each case left
# without kernels. The timing-only fallback is checked once per ncu process.
# Cost: gemmprof about 0.5-1 s per run, RUNS runs per case, 22 cases (8 with
# NCU_COMPARE_TENSOR=0); ncu about 20 s per process of 10-11 variants (estimated from 10 s
# for one), 6 processes (2 shapes and the multi-kernel case, 2 pads each). NCU_COMPARE_RUNS
# (gemmprof runs per case, default 4), NCU_COMPARE_CALLS (timed calls per ncu process,
# default 5) and NCU_COMPARE_PADS (MiB before the matrices, one ncu process each, default
# "0 64") override them; NCU_COMPARE_BATCH=0 gives each case its own ncu processes again.
. tests/gpu/lib.sh
need_gpu "counters agree with ncu" || exit 0
command -v ncu >/dev/null 2>&1 || { skip "counters agree with ncu: ncu not installed"; exit 0; }
RUNS=${NCU_COMPARE_RUNS:-4}
CALLS=${NCU_COMPARE_CALLS:-5}
PADS=${NCU_COMPARE_PADS:-0 64}
python3 tests/gpu/ncu_compare.py --criterion | sed 's/^/  /'
$GEMMPROF --list-metrics >"$TMP/metrics.txt"   # the combine column: how ncu's kernels add up
metrics=$(awk 'NR > 1 && $2 == "yes" {print $1}' "$TMP/metrics.txt" | paste -sd, -)
t0=$(date +%s)

# NCU_COMPARE_CASES (variant:shape[:multi] ...) replaces the list below, for a diagnosis
# The hand-written tensor-core kernels (issue 13) are compared at the same two shapes;
# NCU_COMPARE_TENSOR=0 leaves them out. Their L2 lookups vary from call to call under
# both tools (tf32_mma 2048^3: 232-270 MB over 10 ncu calls) because the L2 Request
# Coalescer merges the reads of SMs that run in step; ncu_compare.py then judges the L2
# demand, lookups + merged sectors, which does not vary (results/h200/logs/diag_l2_lrc-b7e0ee5.txt).
TENSOR="tf32_mma wgmma wgmma_ws wgmma_ss wgmma_rs tf32_auto tf32x3_mma tf32x3_wgmma"
CASES=${NCU_COMPARE_CASES:-"naive:2048 tiled:2048 cublas:2048 cublas_tf32:2048 naive:1000x1500x700
    tiled:1000x1500x700 cublas:1000x1500x700 cublas_tf32:64x64x16384:multi
    tf32_auto:64x64x16384:multi
    $([ "${NCU_COMPARE_TENSOR:-1}" = 1 ] && for v in $TENSOR; do printf '%s:2048 %s:1000x1500x700 ' "$v" "$v"; done)"}
# Groups: the cases of one shape, in the order listed; a case named twice at one shape goes
# to a second group (gemmprof -k runs a variant once). A :multi case groups with its shape:
# the flag selects a sub-check of the judging, not another command.
for vs in $CASES; do echo "$vs"; done | awk -F: -v batch="${NCU_COMPARE_BATCH:-1}" '
    { shape = $2 ~ /x/ ? $2 : $2 "x" $2 "x" $2
      key = batch == 0 ? NR : shape "#" (++seen[$1 SUBSEP shape])
      if (!(key in list)) order[++n] = key
      list[key] = list[key] " " $0 }
    END { for (i = 1; i <= n; i++) print substr(list[order[i]], 2) }' >"$TMP/groups"
gi=0
while read -r group <&3; do
    gi=$((gi + 1)); D=$TMP/g$gi; mkdir -p "$D"
    set --    # ncu's --nvtx-include options, one per variant with gemmprof results
    klist=; names=; split=; gs=
    for vs in $group; do
        v=${vs%%:*}; s=${vs#*:}; s=${s%:multi}
        case $s in *x*) shape=$s ;; *) shape=${s}x${s}x${s} ;; esac
        gs=${gs:-$s}
        t1=$(date +%s)
        # gemmprof: RUNS runs of one variant
        runs=
        i=0
        while [ $i -lt "$RUNS" ]; do
            i=$((i + 1))
            pad=$(echo $PADS | awk -v i=$i '{print $((i - 1) % NF + 1)}')
            GEMMPROF_TEST_PAD_MB=$pad $GEMMPROF -k "$v" -s "$s" -r 2 -w 1 --no-ceilings --no-report -o "$D/$v$i" >"$TMP/run.log" 2>&1 ||
                { cat "$TMP/run.log"; fail "gemmprof run $i of $v $s"; }
            [ -f "$D/$v$i/results.csv" ] && runs=${runs:+$runs,}$D/$v$i/results.csv
        done
        echo $(($(date +%s) - t1)) >"$D/$v.time"
        [ -n "$runs" ] || { fail "no gemmprof results to compare with ncu ($v $s)"; continue; }
        echo "$runs" >"$D/$v.runs"
        # ncu's pattern: the usual GEMM kernels plus what gemmprof's range saw for this case, so
        # that a kernel cuBLAS adds (a split-K reduction) is not left out of ncu's calls
        seen=$(cd tests/gpu && python3 ncu_compare.py --names "${runs%%,*}" "$v" "$shape")
        names=$names${seen:+|$seen}
        klist=${klist:+$klist,}$v
        split="$split $v $shape ${runs%%,*}"
        set -- "$@" --nvtx-include "gemmprof@$v $shape/"
    done
    [ -n "$klist" ] || continue
    # ncu sees every GEMM kernel of each variant's range: the verify call, the warm-up call
    # and CALLS timed calls, each timed call after gemmprof's L2 flush, the state
    # gemmprof's counter passes start from; ncu_compare.py finds the kernels per call
    # from that list and drops the first two calls (the verify call's inputs and poisoned
    # C were just written from the host). The flush kernels run unprofiled. Application
    # replay, because kernel replay restores C from a saved copy before each pass after
    # the first, and ncu's cache flush leaves part of that write behind: +2.3 MB of DRAM
    # writes per 2048^3 call (11.4 vs 9.3 MB for naive).
    t1=$(date +%s)
    for pad in $PADS; do
        mkdir -p "$D/split$pad"
        GEMMPROF_TEST_PAD_MB=$pad ncu --replay-mode application --nvtx "$@" \
            --kernel-name regex:"$GEMM_KERNELS$names" \
            --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
            --log-file "$D/ncu$pad.csv" \
            $GEMMPROF -k "$klist" -s "$gs" -r "$CALLS" -w 1 --no-ceilings --no-report -o "$D/ncu$pad" \
            >"$D/ncu$pad.out" 2>"$D/ncu$pad.err"
        rc=$?
        [ $rc -eq 0 ] || { echo "  ncu (pad $pad MiB) exited $rc:"; tail -5 "$D/ncu$pad.err"; }
        if grep -q "carrying on with timing only" "$D/ncu$pad.err" "$D/ncu$pad.out" 2>/dev/null; then
            ok "under ncu, gemmprof falls back to timing only ($klist $gs, pad $pad MiB)"
        else
            tail -5 "$D/ncu$pad.err"; fail "no timing-only fallback message under ncu ($klist $gs, pad $pad MiB)"
        fi
        # $split unquoted: VARIANT SHAPE RESULTS_CSV per case, each a word
        (cd tests/gpu && python3 ncu_compare.py --split "$D/ncu$pad.csv" $((CALLS + 2)) "$D/split$pad" $split)
    done
    tn=$(($(date +%s) - t1))
    nk=$(echo "$klist" | tr , '\n' | wc -l)
    for vs in $group; do
        v=${vs%%:*}; s=${vs#*:}; multi=
        case $s in *:multi) s=${s%:multi}; multi=--multi ;; esac
        case $s in *x*) shape=$s ;; *) shape=${s}x${s}x${s} ;; esac
        [ -f "$D/$v.runs" ] || continue
        files=; missing=
        for pad in $PADS; do
            if [ -f "$D/split$pad/$v.csv" ]; then files=${files:+$files,}$D/split$pad/$v.csv; else missing=1; fi
        done
        # a case none of whose calls came back from one of ncu's processes has its FAIL above
        [ -n "$missing" ] ||
            (cd tests/gpu && python3 ncu_compare.py "$(cat "$D/$v.runs")" "$files" "$v" "$shape" $((CALLS + 2)) \
                --skip 2 $multi --combine "$TMP/metrics.txt")
        echo "  ($v $shape, gemmprof $RUNS runs: $(cat "$D/$v.time") s; ncu, shared by the shape's $nk cases: $tn s)"
    done
done 3<"$TMP/groups"
echo "  ncu comparison: $(($(date +%s) - t0)) s in all"

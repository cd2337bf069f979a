#!/bin/bash
# Everything one GPU session needs, in one call: build, GPU tests, the main job (twice,
# for run-to-run agreement), and ncu's own view of the seed kernels. Writes logs and
# results under $WORK (default /tmp/gemmprof-work) and packs all of it, earlier invocations'
# outputs included, into $OUT/bundle.tgz (default /tmp/gemmprof-out).
#   tools/h200_session.sh [steps...]
# steps: build cupti run rerun compare test tests testncu tests3 ncu ncudiag nculaunch diag diagl2 plugin simt tensor l2promo mmaprobe
# wgmma16 dbufstalls tune tf32tune trace sass simttune record padcheck gaps
# cost sol insight sessions sksan peelcheck strip table stallpairs smempolls padpitch autoprobe tail simttail copya cublasnames simtprof simtsass tf32l2 tf32src padc mcast mcastncu mctune fixup wide tf32red holdout rangemembar unnamed peelncu narrow skinny skinnyk survey shortk newtiles tf32picks directk maps directl1 splitprof (default: build cupti run rerun tests trace sass cost sol). tests3 runs `make test-gpu` three times in a row into
# $OUT/test-gpu-run{1,2,3}.log and prints each run's "N passed, N failed" line and wall time;
# a device command has 10 minutes, so run `build` as a command of its own first.
# TESTS3_RUNS picks runs (default "1 2 3"; "3" alone where the 10 minutes ran out before
# it), TESTS3_TIMEOUT bounds each against a hang (default 300 s). simt: the SIMT variants and
# cuBLAS at 1024^3, 1000x1500x700 and 8192x64x4096; tune: the tuner at TUNE_SHAPES (default 2048^3,
# 1000x1500x700, 8192^3); mmaprobe: mma.sync's TF32 throughput (tools/lab/probe_mma_sync.cu);
# dbufstalls: dbuf and cuBLAS at 4096^3 with the stall reasons; tensor: the TF32 and 3xTF32
# kernels beside cuBLAS TF32 and SGEMM at 2048^3-8192^3 and 1000x1500x700, and stalls at 4096^3.
# insight (issue 10, about 4 minutes): the default sweep with the stall metrics into
# $W/insight_default, a sweep of small, odd and tall-skinny shapes into $W/insight_extra,
# and tests/gpu/test_ncu_launch.sh once; logs in $W/logs/insight_*.log and ncu-launch.log.
# sessions (issue 28, about 2.5 minutes): the default sweep twice with GEMMPROF_COUNTER_SESSIONS=shape
# and twice with =run, alternating; each run's counter-phase cost line, and the timed medians compared
# (first shape apart: no session is open while it is timed); $W/logs/sessions.txt.
# simttune (issue 28, about 4 minutes): simt_auto and cuBLAS at the nine shapes, then the
# tuner at each; $W/logs/simttune-*.log, $W/simttune/<shape>/tune.csv.
set -u
OUT=${OUT:-/tmp/gemmprof-out}
# the work folder lies outside $OUT (the device tool returns at most 8 files from it) and
# is kept between invocations of one command, so that bundle.tgz holds all of their outputs
W=${WORK:-/tmp/gemmprof-work}
mkdir -p "$W/logs" "$OUT"
steps=${*:-build cupti run rerun tests trace sass cost sol}
# issue 28's nine shapes, for the steps that measure the auto variants (SHAPES28 overrides)
S28=${SHAPES28:-1024,2048,4096,8192,1000x1500x700,8192x64x4096,64x8192x4096,3000x3000x512,257x513x4099}
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
stamp() { echo "[$(date +%T)] $*"; }
# tf32_auto's C the same bit for bit in two runs at SHAPES (outputs in $W/NAME1, $W/NAME2,
# logs $W/logs/NAME1.log ...), one line per shape; the dumped operands are removed (hundreds
# of MB: not for the bundle)
tf32_same_twice() { # NAME SHAPES
    for i in 1 2; do
        timeout 60 build/gemmprof -k tf32_auto -s "$2" -r 1 -w 0 --dump-npy --no-counters --no-ceilings --no-report \
            -o "$W/$1$i" >"$W/logs/$1$i.log" 2>&1
    done
    for f in "$W/${1}1"/npy/tf32_auto_*_C.npy; do
        g="$W/${1}2/npy/$(basename "$f")"
        if cmp -s "$f" "$g"; then echo "deterministic: $(basename "$f") identical"; else echo "NOT deterministic: $(basename "$f")"; fi
    done
    rm -rf "$W/${1}1/npy" "$W/${1}2/npy"
}

# VARIANTS (an auto variant, then its baseline) at SHAPES in one invocation into $W/NAME,
# log $W/logs/NAME.log, extra gemmprof options after: the exit status, every row ok, the
# table of shares ($W/logs/NAME.md) and the auto variant's config lines
verify_beside() { # NAME VARIANTS SHAPES [options...]
    vname=$1 vvars=$2 vshapes=$3; shift 3
    stamp "$vvars verified at $vshapes -> $W/$vname"
    timeout 150 build/gemmprof -k "$vvars" -s "$vshapes" "$@" --no-counters --no-ceilings --no-report \
        -o "$W/$vname" >"$W/logs/$vname.log" 2>&1
    echo "verify: exit $?"
    python3 tests/gpu/csvcheck.py all-ok "$W/$vname/results.csv" \
        $(($(echo "$vvars" | tr ',' '\n' | wc -l) * $(echo "$vshapes" | tr ',' '\n' | wc -l)))
    python3 tools/lab/auto_table.py "$W/$vname" | tee "$W/logs/$vname.md"
    grep -A1 "^${vvars%%,*} " "$W/logs/$vname.log" | grep -vx -- "--"
}
# compute-sanitizer memcheck and racecheck over the tuner's plans of the tiles ONLY at SHAPE
# (WHAT describes them; MARK, if not empty, a config text to count separately), tuner
# options after; logs $W/logs/NAME-{memcheck,racecheck}-tune.log
sanitize_plans() { # NAME ONLY SHAPE WHAT MARK [options...]
    sname=$1 sonly=$2 sshape=$3 swhat=$4 smark=$5; shift 5
    for tool in memcheck racecheck; do
        slog="$W/logs/$sname-$tool-tune.log"
        GEMMPROF_TUNE_ONLY=$sonly timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
            build/gemmprof --tune "$sshape" "$@" -r 1 -w 0 --no-flush -o "$W/${sname}_${tool}_tune" >"$slog" 2>&1
        echo "$tool, $swhat: exit $?, $(grep -cE "^[* ] [0-9]+x.* ok " "$slog") plans ok${smark:+ ($(grep -cE "^[* ] [0-9]+x.*$smark.* ok " "$slog") $smark)}, $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$slog" | tail -1)"
    done
}

# a tuner table's unsplit plans: time, the tuner's eff (share of the FFMA peak), registers and
# blocks per SM, a line each
split1_eff() { # TUNE_CSV
    python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["split"] == "1" and r["status"] == "ok":
        print(f"{r['config_name']:8s} split1 {float(r['time_median_s']) * 1e3:.3f} ms eff {float(r['eff']):.3f} "
              f"regs {r['registers']} blocks/SM {r['blocks_per_sm']}")
PY
}

# ncu's stall-reason metrics (smsp__average_warps_issue_stalled_R_per_issue_active.ratio) of
# the reasons R given, comma-separated, with a trailing comma
stall_metrics() { # REASON...
    for r in "$@"; do printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' "$r"; done
}

# ncu's per-instruction view of one launch: the first kernel matching FILTER in the command
# after it, its report $W/DIR/NAME.ncu-rep and its source page (SASS, stall samples per
# instruction) $W/DIR/NAME-source.csv; ncu's log $W/logs/DIR-NAME.txt
ncu_source() { # DIR NAME FILTER command...
    ndir=$1 nname=$2 nfilter=$3; shift 3
    mkdir -p "$W/$ndir"
    stamp "ncu source counters: $nname"
    timeout 150 ncu --section SourceCounters --section WarpStateStats -k "regex:$nfilter" --launch-count 1 -f \
        -o "$W/$ndir/$nname" "$@" >"$W/logs/$ndir-$nname.txt" 2>&1
    echo "ncu $nname: exit $?"
    ncu --import "$W/$ndir/$nname.ncu-rep" --page source --print-source sass --csv >"$W/$ndir/$nname-source.csv" 2>&1
    echo "source page: $(wc -l <"$W/$ndir/$nname-source.csv") lines"
}

{ nvidia-smi; nvidia-smi -q -d CLOCK; } >"$W/logs/nvidia-smi.txt" 2>&1
{ [ -f .gitrev ] && echo "working tree: $(cat .gitrev)"; git rev-parse HEAD; } >"$W/logs/commit.txt" 2>/dev/null
git status --short >>"$W/logs/commit.txt" 2>/dev/null

# .gitrev, written where the commit is known, names the revision when the copy's .git
# here lags behind the working tree it came with; every make below uses it, so that a
# test run does not rebuild what the build step built
rev=(); [ -f .gitrev ] && rev=(GIT_REV="$(cat .gitrev)")
if has build; then
    stamp build
    make -j16 "${rev[@]}" >"$W/logs/build.log" 2>&1 || { tail -40 "$W/logs/build.log"; echo BUILD FAILED; }
fi
# narrow: where the tree lacks the tiles for n of 32 or less, tools/lab/narrow_tiles.patch
# (their two rows, EFF measured on an H100) is applied and the tree rebuilt here, before any
# step measures: simttune, earlier in this file than narrow, then runs them too
if has narrow && ! grep -q "^SIMT_CONFIG(t128x16," kernels/simt_configs.def; then
    stamp "narrow tiles: applying tools/lab/narrow_tiles.patch and rebuilding"
    git apply tools/lab/narrow_tiles.patch || patch -p1 <tools/lab/narrow_tiles.patch
    make -j16 "${rev[@]}" >"$W/logs/build-narrow.log" 2>&1 || { tail -20 "$W/logs/build-narrow.log"; echo BUILD FAILED; }
fi
if has cupti; then
    stamp "test_cupti on the GPU"
    timeout 120 build/tests/test_cupti >"$W/logs/test_cupti.log" 2>&1; grep -E "^(FAIL|skip)" "$W/logs/test_cupti.log"; grep -c "^ok" "$W/logs/test_cupti.log"
fi
if has run; then
    stamp "main job: build/gemmprof --out $W/run1"
    t0=$SECONDS
    timeout 240 build/gemmprof --out "$W/run1" >"$W/logs/run1.log" 2>&1
    echo "exit $? after $((SECONDS - t0)) s" >>"$W/logs/run1.log"
    tail -50 "$W/logs/run1.log"
fi
if has rerun; then
    stamp "second run for agreement: --out $W/run2"
    timeout 120 build/gemmprof --out "$W/run2" --no-report >"$W/logs/run2.log" 2>&1
    echo "exit $?" >>"$W/logs/run2.log"
    python3 - "$W/run1/results.csv" "$W/run2/results.csv" <<'PY' | tee "$W/logs/agreement.txt"
import csv, sys
a = {(r["variant"], r["m"], r["n"], r["k"]): r for r in csv.DictReader(open(sys.argv[1]))}
b = {(r["variant"], r["m"], r["n"], r["k"]): r for r in csv.DictReader(open(sys.argv[2]))}
worst = 0
for key in a:
    if key not in b or not a[key]["time_median_s"] or not b[key]["time_median_s"]:
        continue
    ta, tb = float(a[key]["time_median_s"]), float(b[key]["time_median_s"])
    d = abs(ta - tb) / min(ta, tb)
    flag = ""
    if max(ta, tb) > 100e-6:
        worst = max(worst, d)
        flag = "  <-- over 3%" if d > 0.03 else ""
    print(f"{key[0]:14s} {key[1]}x{key[2]}x{key[3]:6s} run1 {ta*1e3:9.4f} ms run2 {tb*1e3:9.4f} ms diff {d*100:5.2f}%{flag}")
print(f"worst difference among kernels over 100 us: {worst*100:.2f}%")
PY
fi
if has compare; then
    # gemmprof compare on the H200 (issue 11): run1 and run2 are two runs of one commit;
    # a third with tiled slowed on purpose (the GEMMPROF_TEST_SLOWDOWN test hook, 5 ms
    # inside tiled's timed events) must come out slower, with a non-zero exit
    stamp "compare: a run with tiled slowed by 5 ms -> $W/slowed"
    GEMMPROF_TEST_SLOWDOWN=tiled:5000000 timeout 150 build/gemmprof --out "$W/slowed" --no-report >"$W/logs/slowed.log" 2>&1
    echo "exit $?" >>"$W/logs/slowed.log"
    build/gemmprof compare "$W/run1" "$W/run2" --out "$W/logs/compare-same.md" >/dev/null
    echo "compare run1 run2: exit $?" | tee "$W/logs/compare.txt"
    build/gemmprof compare "$W/run1" "$W/slowed" --out "$W/logs/compare-slowed.md" >/dev/null
    echo "compare run1 slowed: exit $?" | tee -a "$W/logs/compare.txt"
    grep -h "rows in both" "$W/logs/compare-same.md" "$W/logs/compare-slowed.md" | tee -a "$W/logs/compare.txt"
fi
if has tests; then
    # make test-gpu takes 500-590 s on an H100 (its ncu comparisons alone 516 s at ca08e00):
    # past a device command's 10 minutes with a build in front, so build in an earlier call,
    # or split it: `test` (make test, about 100 s) and `testncu` (make test-ncu) in two calls
    stamp "make test-gpu"
    timeout ${TEST_TIMEOUT:-570} make "${rev[@]}" test-gpu >"$W/logs/test-gpu.log" 2>&1
    grep -E "^(FAIL|skip)|passed," "$W/logs/test-gpu.log"
fi
if has testncu; then
    stamp "make test-ncu (the comparisons with ncu)"
    t0=$SECONDS
    timeout ${TEST_TIMEOUT:-570} make "${rev[@]}" test-ncu >"$W/logs/test-ncu.log" 2>&1
    echo "make test-ncu: exit $?, $((SECONDS - t0)) s" | tee -a "$W/logs/test-ncu.log"
    grep -E "^(FAIL|skip) - |passed," "$W/logs/test-ncu.log"
    cp "$W/logs/test-ncu.log" "$OUT/" 2>/dev/null
fi
if has test; then
    stamp "make test (the GPU tests but the ncu comparisons)"
    t0=$SECONDS
    timeout ${TEST_TIMEOUT:-300} make "${rev[@]}" test >"$W/logs/make-test.log" 2>&1
    echo "make test: exit $?, $((SECONDS - t0)) s" | tee -a "$W/logs/make-test.log"
    grep -E "^(FAIL|skip) - |passed," "$W/logs/make-test.log"
fi
if has ncudiag; then
    stamp "diagnosis benchmark against ncu's rules -> $W/diag"
    rm -rf "$W/diag"
    DIAG_KEEP="$W/diag" timeout 300 sh tests/gpu/test_ncu_diagnosis.sh build >"$W/logs/ncu-diagnosis.log" 2>&1
    grep -E "^(ok|FAIL|skip)|^\|" "$W/logs/ncu-diagnosis.log"
fi
if has nculaunch; then
    stamp "launch facts against ncu"
    timeout 300 sh tests/gpu/test_ncu_launch.sh build >"$W/logs/ncu-launch.log" 2>&1
    grep -E "^FAIL|passed|ok - .*summary" "$W/logs/ncu-launch.log" | tail -5; grep -c "^ok" "$W/logs/ncu-launch.log"
fi
if has tests3; then
    summary=()
    for i in ${TESTS3_RUNS:-1 2 3}; do
        stamp "make test-gpu, run $i of 3 -> $OUT/test-gpu-run$i.log"
        t0=$SECONDS
        timeout ${TESTS3_TIMEOUT:-300} make "${rev[@]}" test-gpu >"$OUT/test-gpu-run$i.log" 2>&1
        rc=$?
        line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$OUT/test-gpu-run$i.log" | tail -1)
        [ $rc -eq 124 ] && line="timed out after ${TESTS3_TIMEOUT:-300} s${line:+ ($line)}"
        summary+=("run $i: ${line:-no summary line} (exit $rc, $((SECONDS - t0)) s wall)")
        echo "${summary[-1]}"
        grep -E "^(FAIL|skip) - |MISMATCH|under ncu: [0-9]+ s|gemmprof: [0-9]+ runs|ncu comparison: " \
            "$OUT/test-gpu-run$i.log"
    done
    echo "make test-gpu, three times in a row:"
    printf '  %s\n' "${summary[@]}" | tee "$OUT/test-gpu-3runs.txt"
fi
if has ncu; then
    stamp "counters against ncu"
    sh tests/gpu/test_ncu_compare.sh build >"$W/logs/ncu-compare.log" 2>&1
    grep -E "^(ok|FAIL)|MISMATCH" "$W/logs/ncu-compare.log"
fi
if has diag; then
    stamp "diagnostic: DRAM writes under each flush mode and ncu replay/cache mode"
    timeout 400 tools/lab/diag_dram_write.sh build 2>&1 | tee "$W/logs/diag_dram_write.txt"
fi
if has plugin; then
    # issue 11: the example plugin beside the built-in variants, recorded with counters
    stamp "example plugin run -> $W/plugin"
    timeout 120 build/gemmprof -k tiled,warptile,cublas,plugin:build/examples/libgemmprof_example.so \
        -s 1024,2048,1000x1500x700 --no-report -o "$W/plugin" >"$W/logs/plugin.log" 2>&1
    echo "exit $?" >>"$W/logs/plugin.log"
    tail -14 "$W/logs/plugin.log"
fi
if has simt; then
    # issue 12: every SIMT variant with cuBLAS at issue 12's three extra shapes (1024^3 again
    # beside the default run's, so one invocation holds all three)
    stamp "SIMT ladder at 1024^3, 1000x1500x700 and 8192x64x4096 -> $W/simt_shapes"
    timeout 120 build/gemmprof -k naive,tiled,blocktile_1d,blocktile_2d,vectorized,warptile,swizzle,bigtile,dbuf,simt_auto,cublas \
        -s 1024,1000x1500x700,8192x64x4096 --no-report -o "$W/simt_shapes" >"$W/logs/simt_shapes.log" 2>&1
    echo "exit $?" >>"$W/logs/simt_shapes.log"
    tail -30 "$W/logs/simt_shapes.log"
fi
if has shapes28; then
    # issue 28: the auto variants and every TF32 kernel beside both cuBLAS baselines at the
    # issue's nine shapes, timing only, one invocation; then the tuner at each shape
    stamp "auto variants, TF32 kernels and cuBLAS at $S28 -> $W/shapes28"
    timeout 300 build/gemmprof -k ${SHAPES28_VARIANTS:-simt_auto,cublas,tf32_mma,wgmma,wgmma_ws,wgmma_ss,wgmma_rs,cublas_tf32} \
        -s "$S28" --no-counters --no-report -o "$W/shapes28" >"$W/logs/shapes28.log" 2>&1
    echo "exit $?" >>"$W/logs/shapes28.log"
    grep -vE "^ +config|^gemmprof: " "$W/logs/shapes28.log" | tail -80
    if [ -n "${TUNE28:-}" ]; then
        mkdir -p "$W/tune28"
        for s in ${S28//,/ }; do
            timeout 120 build/gemmprof --tune "$s" --no-counters -o "$W/tune28/$s" >"$W/logs/tune28-$s.log" 2>&1
            echo "tune $s: exit $?"; grep -E "<-|pick" "$W/logs/tune28-$s.log" | head -3
        done
    fi
fi
if has simttune; then
    # issue 28: simt_auto beside cuBLAS SGEMM at the nine shapes (timing only, one
    # invocation), then the tuner at each: is the rule's pick within 5% of the best plan,
    # and simt_auto within 90% of cuBLAS? The tables, joined in the layout of
    # tests/data/h200_simt_tune.csv (the host test's replay), land in $W/simttune/.
    stamp "simt_auto and cuBLAS at $S28, then --tune at each -> $W/simttune"
    mkdir -p "$W/simttune"
    timeout 120 build/gemmprof -k simt_auto,cublas -s "$S28" --no-counters --no-report -o "$W/simttune/timing" \
        >"$W/logs/simttune-timing.log" 2>&1
    echo "exit $?" >>"$W/logs/simttune-timing.log"
    grep -E "^(simt_auto|cublas) |^ +config" "$W/logs/simttune-timing.log"
    echo "m,n,k,config_name,split,blocks_per_sm,time_median_s" >"$W/simttune/h200_simt_tune.csv"
    for s in ${S28//,/ }; do
        timeout 150 build/gemmprof --tune "$s" --no-counters -o "$W/simttune/$s" >"$W/logs/simttune-$s.log" 2>&1
        echo "tune $s: exit $?"; grep -E "rule's pick" "$W/logs/simttune-$s.log"
        python3 tools/lab/tune_rows.py "$W/simttune/$s/tune.csv" >>"$W/simttune/h200_simt_tune.csv"
    done
    python3 - "$W/simttune/timing/results.csv" <<'PY'
import csv, sys
t = {}
for r in csv.DictReader(open(sys.argv[1])):
    t.setdefault((r["m"], r["n"], r["k"]), {})[r["variant"]] = float(r["time_median_s"])
for (m, n, k), v in t.items():
    if "simt_auto" in v and "cublas" in v:
        print(f"{m}x{n}x{k}: simt_auto at {100 * v['cublas'] / v['simt_auto']:.1f}% of cuBLAS SGEMM")
PY
fi
if has narrow; then
    # the tiles for n of 32 or less (t128x32, t128x16): their share of the FFMA peak at 4096^3
    # beside t64x64, t32x64 and t64x128 (the tuner's eff column of the split1 rows: their EFF
    # in kernels/simt_configs.def scaled by the fitted tiles'), then memcheck and racecheck on
    # every plan of theirs at a 4-byte-path shape and a 16-byte-path one (the tiles are put in
    # right after `build`, so that simttune in the same call measures them too).
    stamp "narrow tiles: eff at 4096^3 -> $W/narrow"
    mkdir -p "$W/narrow"
    GEMMPROF_TUNE_ONLY=t128x32,t128x16,t64x64,t32x64,t64x128 timeout 150 build/gemmprof --tune 4096 --no-counters \
        -o "$W/narrow/eff4096" >"$W/logs/narrow-eff4096.log" 2>&1
    echo "tune 4096 (five tiles): exit $?"
    split1_eff "$W/narrow/eff4096/tune.csv"
    sanitize_plans narrow-130x17x300 t128x32,t128x16 130x17x300 "the narrow tiles at 130x17x300 (4-byte B)" ""
    sanitize_plans narrow-132x32x200 t128x32,t128x16 132x32x200 "the narrow tiles at 132x32x200 (16-byte B)" ""
fi
if has skinny; then
    # issue 28, n <= 32: a kernel that streams A once (tools/lab/skinny_probe.cu) beside cuBLAS
    # SGEMM at the skinny shapes whose best simt_auto plans trail cuBLAS (results/h200/NOTES.md,
    # twelfth session); SKINNY_SHAPES overrides. Log: $W/logs/skinny.log
    stamp "skinny probe -> $W/logs/skinny.log"
    nvcc -O3 -arch=sm_90 tools/lab/skinny_probe.cu -lcublas -o "$W/skinny_probe" >"$W/logs/skinny-build.log" 2>&1 ||
        { tail -5 "$W/logs/skinny-build.log"; echo "skinny probe: BUILD FAILED"; }
    [ -x "$W/skinny_probe" ] && timeout 120 "$W/skinny_probe" \
        ${SKINNY_SHAPES:-3315x15x11204 4772x12x3500 8192x32x4096 2000x8x8000 3000x7x9000 6000x20x2000 1000x30x20000 4096x16x4096 4096x17x4096} \
        2>&1 | tee "$W/logs/skinny.log"
fi
if has skinnyk; then
    # issue 28, n <= 32: simt_auto with the few-columns kernel's plans (kernels/simt_skinny.cuh):
    # verified beside cuBLAS at odd and skinny shapes, then memcheck and racecheck on every
    # plan of its forms at two small shapes (4-byte loads of A, a last slice inside a k-step)
    verify_beside skinny-verify simt_auto,cublas \
        1x1x1,67x5x300,130x17x301,33x32x1000,9x12x129,3315x15x11204,4772x12x3500,2000x8x8000,1000x30x20000,8191x31x1025 -r 3
    forms=$(sed -n 's/^SIMT_SKINNY(\([a-z0-9]*\),.*/\1/p' kernels/simt_skinny_forms.def | paste -sd,)
    sanitize_plans skinny-130x17x301 "$forms" 130x17x301 "the few-columns forms at 130x17x301" skinny
    sanitize_plans skinny-200x8x1024 "$forms" 200x8x1024 "the few-columns forms at 200x8x1024" skinny
fi
if has shortk; then
    # issue 28, m <= 32: the few-rows kernel's plans (kernels/simt_short.cuh) under memcheck and
    # racecheck at two small shapes (4-byte loads of B, a last slice inside a block step)
    forms=$(sed -n 's/^SIMT_SHORT(\([a-z0-9]*\),.*/\1/p' kernels/simt_short_forms.def | paste -sd,)
    sanitize_plans short-7x301x130 "$forms" 7x301x130 "the few-rows forms at 7x301x130" short
    sanitize_plans short-30x260x1000 "$forms" 30x260x1000 "the few-rows forms at 30x260x1000" short
fi
if has newtiles; then
    # tiles the rule does not weigh yet (SIMT_TUNER_ONLY in kernels/simt_plan.h): their
    # share of the FFMA peak at 4096^3 split1 beside t64x64, t32x64 and t64x128 (the tuner's eff
    # column; the fitted tiles' EFF over their eff scales it), then memcheck and racecheck on
    # every plan of theirs at a 4-byte-path shape and a 16-byte-path one
    tiles=$(sed -n 's/^#define SIMT_TUNER_ONLY {\(.*\)}/\1/p' kernels/simt_plan.h | tr -d '" ')
    [ -n "$tiles" ] || { echo "newtiles: SIMT_TUNER_ONLY names no tile"; tiles=t128x32; }
    stamp "new tiles ($tiles): eff at 4096^3 -> $W/newtiles"
    mkdir -p "$W/newtiles"
    GEMMPROF_TUNE_ONLY=$tiles,t64x64,t32x64,t64x128,t128x128,t128x256t8 timeout 150 build/gemmprof --tune 4096 --no-counters \
        -o "$W/newtiles/eff4096" >"$W/logs/newtiles-eff4096.log" 2>&1
    echo "tune 4096: exit $?"
    split1_eff "$W/newtiles/eff4096/tune.csv"
    sanitize_plans newtiles-130x17x300 "$tiles" 130x17x300 "the new tiles at 130x17x300 (4-byte B)" ""
    sanitize_plans newtiles-132x32x200 "$tiles" 132x32x200 "the new tiles at 132x32x200 (16-byte B)" ""
fi
if has sksan; then
    # the stream-K tiles (kernels/simt_streamk_tiles.def) under memcheck and racecheck: every plan
    # of those tiles at a shape whose runs cut tiles (the fixup runs), B padded and not
    for shape in 200x260x100 67x131x300; do
        sanitize_plans "sk-$shape" t64x128,t128x64,t64x64,t128x128,t128x256 "$shape" "$shape, the stream-K tiles" streamk
    done
fi
if has tf32tune; then
    # issue 28: tf32_auto (wgmma_rs's kernel with its tile and split-K per shape), about 6
    # minutes after `build`, most telling first: (1) verified beside wgmma_rs at odd and
    # skinny shapes, (2) timed beside wgmma_rs and cuBLAS TF32 at the nine shapes with the 90%
    # check, (3) the tuner at the nine shapes (-k tf32_auto; the pick's share of the best
    # plan), (4) C the same bit for bit in two runs at split-K shapes, (5) compute-sanitizer
    # memcheck and racecheck on the rule's picks at small shapes and on every split of two
    # tiles (the tuner with GEMMPROF_TUNE_ONLY); skipped once 7 minutes have gone.
    # Logs: $W/logs/tf32-*.log; the summary: $W/logs/tf32tune-summary.txt
    sum="$W/logs/tf32tune-summary.txt"
    : >"$sum"
    t_start=$SECONDS
    odd=1x1x1,17x33x65,130x67x45,257x513x4099,1000x1500x700,2049,8192x64x4096,64x8192x4096,1023x1025x4097,4096x4096x64
    stamp "tf32_auto verified at $odd -> $W/tf32_verify"
    timeout 120 build/gemmprof -k tf32_auto,wgmma_rs -s "$odd" -r 2 -w 1 --no-counters --no-ceilings --no-report \
        -o "$W/tf32_verify" >"$W/logs/tf32-verify.log" 2>&1
    echo "exit $?" >>"$W/logs/tf32-verify.log"
    { echo "verify: $(tail -1 "$W/logs/tf32-verify.log")"
      python3 tests/gpu/csvcheck.py all-ok "$W/tf32_verify/results.csv" $((2 * $(echo "$odd" | tr ',' '\n' | wc -l)))
      grep -A1 "^tf32_auto" "$W/logs/tf32-verify.log" | grep -vx -- "--"
    } 2>&1 | tee -a "$sum"
    stamp "tf32_auto, wgmma_rs, cublas_tf32 at $S28 -> $W/tf32_shapes"
    timeout 150 build/gemmprof -k tf32_auto,wgmma_rs,cublas_tf32 -s "$S28" --no-counters --no-ceilings --no-report \
        -o "$W/tf32_shapes" >"$W/logs/tf32-shapes.log" 2>&1
    echo "exit $?" >>"$W/logs/tf32-shapes.log"
    python3 - "$W/tf32_shapes/results.csv" <<'PY' | tee -a "$sum"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["variant"], r["m"], r["n"], r["k"]): r for r in rows}
print("shape             tf32_auto ms  wgmma_rs ms  cublas_tf32 ms  auto/cuBLAS  config")
for key in dict.fromkeys((r["m"], r["n"], r["k"]) for r in rows):
    a, w, c = (t.get((v,) + key) for v in ("tf32_auto", "wgmma_rs", "cublas_tf32"))
    ms = lambda r: float(r["time_median_s"]) * 1e3 if r and r["status"] == "ok" and r["time_median_s"] else float("nan")
    share = ms(c) / ms(a) if a and c else float("nan")
    flag = "" if share >= 0.9 else "  <-- under 90%"
    print(f"{'x'.join(key):17s} {ms(a):12.4f} {ms(w):12.4f} {ms(c):15.4f} {share * 100:10.1f}%  {a['config'] if a else '-'}{flag}")
PY
    for s in ${S28//,/ }; do
        stamp "tf32_auto tuner at $s -> $W/tf32tune/$s"
        timeout 90 build/gemmprof --tune "$s" -k tf32_auto ${TF32TUNE_REPS:+-r $TF32TUNE_REPS} -o "$W/tf32tune/$s" \
            >"$W/logs/tf32-tune-$s.log" 2>&1
        rc=$?
        echo "tune $s: exit $rc; $(grep -h "the rule's pick" "$W/logs/tf32-tune-$s.log")" | tee -a "$sum"
    done
    # the same tables read back without a GPU: what a recalibrated rule is checked with
    build/gemmprof tune-check "$W"/tf32tune/*/tune.csv 2>&1 | tee -a "$sum"
    stamp "tf32_auto: C bit for bit in two runs"
    tf32_same_twice tf32_det 300x200x1000,257x513x4099,8192x64x4096 2>&1 | tee -a "$sum"
    if ! command -v compute-sanitizer >/dev/null 2>&1; then
        echo "compute-sanitizer: not installed" | tee -a "$sum"
    else
        for tool in memcheck racecheck; do
            if [ $((SECONDS - t_start)) -gt 420 ]; then
                echo "$tool: skipped, 7 minutes gone" | tee -a "$sum"; continue
            fi
            stamp "compute-sanitizer $tool on tf32_auto"
            timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/gemmprof -k tf32_auto \
                -s 17x33x65,130x67x45,300x200x1000 -r 1 -w 0 --no-counters --no-ceilings --no-report --no-flush \
                -o "$W/tf32_$tool" >"$W/logs/tf32-$tool.log" 2>&1
            echo "$tool, the rule's picks at 17x33x65,130x67x45,300x200x1000: exit $?, $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$W/logs/tf32-$tool.log" | tail -1)" | tee -a "$sum"
            GEMMPROF_TUNE_ONLY=w128x128,w64x64b2 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 \
                build/gemmprof --tune 130x136x520 -k tf32_auto -r 1 -w 0 --no-flush -o "$W/tf32_${tool}_tune" \
                >"$W/logs/tf32-$tool-tune.log" 2>&1
            echo "$tool, every split of w128x128 and w64x64b2 at 130x136x520: exit $?, $(grep -cE "^[* ] [0-9]+x.* ok " "$W/logs/tf32-$tool-tune.log") plans ok, $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$W/logs/tf32-$tool-tune.log" | tail -1)" | tee -a "$sum"
        done
    fi
    echo "tf32tune: $((SECONDS - t_start)) s; summary in $sum" | tee -a "$sum"
fi
if has padcheck; then
    # the padded copies (kernels/pad_rows.cuh, one launch for A and B) and the dependent
    # launches (kernels/pdl.cuh): every TMA variant and simt_auto verified at shapes whose
    # k and n leave rows unaligned; simt_auto's padded plans verified by the tuner; memcheck
    # and racecheck on the copies; then the auto variants beside cuBLAS at the nine shapes
    odd=1x1x1,17x33x65,130x67x45,257x513x4099,1000x1500x701,2049x2047x1029
    stamp "TMA variants and simt_auto verified at $odd -> $W/padcheck"
    timeout 150 build/gemmprof -k wgmma,wgmma_ws,wgmma_ss,wgmma_rs,tf32_auto,tf32x3_wgmma,bf16_wgmma,fp16_wgmma,simt_auto \
        -s "$odd" -r 2 -w 1 --no-counters --no-ceilings --no-report -o "$W/padcheck" >"$W/logs/padcheck.log" 2>&1
    echo "exit $?" >>"$W/logs/padcheck.log"
    python3 tests/gpu/csvcheck.py all-ok "$W/padcheck/results.csv" $((9 * 6)) 2>&1 | tail -3
    grep -vE "^ +config|^gemmprof: " "$W/logs/padcheck.log" | grep -vE " ok " | head -20
    for tool in memcheck racecheck; do
        timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/gemmprof -k tf32_auto,bf16_wgmma \
            -s 17x33x65,130x67x45 -r 1 -w 0 --no-counters --no-ceilings --no-report --no-flush \
            -o "$W/pad_$tool" >"$W/logs/pad-$tool.log" 2>&1
        echo "$tool tf32_auto,bf16_wgmma padded: exit $?, $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$W/logs/pad-$tool.log" | tail -1)"
        GEMMPROF_TUNE_ONLY=t32x64 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/gemmprof \
            --tune 70x67x300 -r 1 -w 0 --no-flush -o "$W/pad_${tool}_simt" >"$W/logs/pad-$tool-simt.log" 2>&1
        echo "$tool simt plans at 70x67x300: exit $?, $(grep -cE " ok " "$W/logs/pad-$tool-simt.log") ok lines, $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$W/logs/pad-$tool-simt.log" | tail -1)"
    done
    stamp "auto variants and cuBLAS at $S28 -> $W/pad_shapes"
    timeout 150 build/gemmprof -k simt_auto,cublas,tf32_auto,cublas_tf32,bf16_wgmma,cublas_bf16 -s "$S28" --no-counters \
        --no-report -o "$W/pad_shapes" >"$W/logs/pad-shapes.log" 2>&1
    echo "exit $?" >>"$W/logs/pad-shapes.log"
    python3 tools/lab/auto_table.py "$W/pad_shapes" | tee "$W/logs/pad-shapes-table.md"
    for s in ${PAD_TUNE:-257x513x4099 1000x1500x700}; do
        timeout 90 build/gemmprof --tune "$s" --no-counters -o "$W/pad_tune/$s" >"$W/logs/pad-tune-$s.log" 2>&1
        echo "simt tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/pad-tune-$s.log")"
        timeout 90 build/gemmprof --tune "$s" -k tf32_auto -o "$W/pad_tune_tf32/$s" >"$W/logs/pad-tune-tf32-$s.log" 2>&1
        echo "tf32 tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/pad-tune-tf32-$s.log")"
    done
fi
if has peelcheck; then
    # simt_auto's peeled plans (the strip kernel takes the last M % BM rows): simt_auto
    # verified beside cuBLAS at shapes a few rows past a tile multiple, compute-sanitizer
    # memcheck and racecheck on the t64x64 plans (peeled ones among them; 4-byte and 16-byte
    # B) through the tuner, then the tuner at 257x513x4099 (every plan verified and timed)
    odd=257x513x4099,130x67x300,132x516x1000,1025x1025x1025,4097x256x2048,66x4000x3000,259x259x10000
    stamp "simt_auto and cuBLAS verified at $odd -> $W/peelcheck"
    timeout 120 build/gemmprof -k simt_auto,cublas -s "$odd" -r 5 -w 1 --no-counters --no-ceilings --no-report \
        -o "$W/peelcheck" >"$W/logs/peelcheck.log" 2>&1
    echo "exit $?" >>"$W/logs/peelcheck.log"
    python3 tests/gpu/csvcheck.py all-ok "$W/peelcheck/results.csv" 14 2>&1 | tail -3
    grep -E "^(simt_auto|cublas) |^ +config" "$W/logs/peelcheck.log"
    for tool in memcheck racecheck; do
        for s in 130x67x300 132x516x1000; do
            GEMMPROF_TUNE_ONLY=t64x64 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/gemmprof \
                --tune $s -r 1 -w 0 --no-flush -o "$W/peel_${tool}_$s" >"$W/logs/peel-$tool-$s.log" 2>&1
            echo "$tool t64x64 plans at $s: exit $?, $(grep -cE " ok " "$W/logs/peel-$tool-$s.log") ok lines ($(grep -cE "peel[0-9].* ok " "$W/logs/peel-$tool-$s.log") peeled), $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$W/logs/peel-$tool-$s.log" | tail -1)"
        done
    done
fi
if has strip; then
    # the strip kernel of simt_auto's peeled plans on its own: the t64x64 plans at
    # 257x513x4099 timed by the tuner, then ncu on every strip launch of that tuner run
    # (duration, throughput, stall reasons); $W/logs/strip-*.log
    for s in 257x513x4099 259x259x10000; do
        GEMMPROF_TUNE_ONLY=t64x64 timeout 60 build/gemmprof --tune $s --no-counters -o "$W/strip_tune/$s" \
            >"$W/logs/strip-tune-$s.log" 2>&1
        echo "tune t64x64 $s: exit $?"; grep -E " (aT|aT padB)( peel[0-9])? split(8|12|16) " "$W/logs/strip-tune-$s.log"
    done
    GEMMPROF_TUNE_ONLY=t64x64 timeout 120 ncu --kernel-name regex:strip --section SpeedOfLight --section WarpStateStats \
        --section LaunchStats --section MemoryWorkloadAnalysis --print-summary none \
        build/gemmprof --tune 257x513x4099 -r 1 -w 0 --no-counters -o "$W/strip_ncu" >"$W/logs/strip-ncu.log" 2>&1
    echo "ncu strip: exit $?"
    grep -E "gemm_simt_strip|Duration|Memory Throughput|DRAM Through|L2 Cache Through|Stall|Grid Size|Registers|Achieved Occ" \
        "$W/logs/strip-ncu.log" | head -60
fi
if has peelncu; then
    # the model's error for peeled plans (NOTES, fifth session of 2026-12-06): every kernel of
    # the t128x64 and t64x64 plans at 257x513x4099 (GEMM, strip, reduction) timed alone by
    # ncu over a tuner run, one verify and one timed call per plan, in the table's order
    for tile in t128x64 t64x64; do
        GEMMPROF_TUNE_ONLY=$tile timeout 280 ncu --metrics gpu__time_duration.sum --csv --print-units base \
            --kernel-name regex:gemm_simt build/gemmprof --tune 257x513x4099 -r 1 -w 0 --no-counters \
            -o "$W/peelncu_$tile" >"$W/logs/peelncu-$tile.csv" 2>&1
        echo "ncu over the $tile plans: exit $?, $(grep -c '"gpu__time_duration.sum"' "$W/logs/peelncu-$tile.csv") kernels"
    done
fi
if has rangemembar; then
    # the membar sectors of a counter range by what it holds (tools/lab/range_membar.cu)
    stamp "range membar probe -> $W/logs/range-membar.txt"
    timeout 120 sh tools/lab/range_membar.sh build 2>&1 | tee "$W/logs/range-membar.txt"
fi
if has unnamed; then
    # the ncu comparison and the diagnosis benchmark at shapes the tests never name
    stamp "ncu comparison and diagnosis at unnamed shapes -> $W/unnamed"
    timeout 400 sh tools/lab/unnamed_shapes.sh build "$W/unnamed"
fi
if has gaps; then
    # where a small GEMM's time goes: each timed call's kernels and the idle gaps between
    # them, from the CUPTI activity trace (tools/lab/trace_gaps.py)
    stamp "kernels and gaps per call -> $W/gaps"
    timeout 120 build/gemmprof -k ${GAPS_VARIANTS:-tf32_auto,cublas_tf32,simt_auto,cublas,bf16_wgmma,cublas_bf16} \
        -s ${GAPS_SHAPES:-257x513x4099,256x512x4096,1000x1500x700} -r 5 --no-counters --no-ceilings --no-report --trace \
        -o "$W/gaps" >"$W/logs/gaps-run.log" 2>&1
    echo "exit $?" >>"$W/logs/gaps-run.log"
    python3 tools/lab/trace_gaps.py "$W/gaps/trace.json" 2>&1 | tee "$W/logs/gaps.txt"
    rm -f "$W/gaps/trace.json.gz"
fi
if has record; then
    # the recorded run (results/h200): the default sweep with the stall reasons; then issue
    # 28's shape table in one invocation (each auto and hand 16-bit variant beside its
    # cuBLAS at the nine shapes, timing only), simt_auto's tuner where its rule last changed,
    # and the sanitizers on fp16_wgmma (bf16_wgmma's kernel, FP16 inputs)
    stamp "recorded run: build/gemmprof --stalls --out $W/record"
    t0=$SECONDS
    timeout 200 build/gemmprof --stalls --out "$W/record" >"$W/logs/run-recorded.log" 2>&1
    echo "exit $? after $((SECONDS - t0)) s" >>"$W/logs/run-recorded.log"
    tail -4 "$W/logs/run-recorded.log"
    stamp "issue 28's table -> $W/shapes_final"
    timeout 200 build/gemmprof -k simt_auto,cublas,tf32_auto,cublas_tf32,bf16_wgmma,cublas_bf16,fp16_wgmma,cublas_fp16 \
        -s "$S28" --no-counters --no-report -o "$W/shapes_final" >"$W/logs/shapes-final.log" 2>&1
    echo "exit $?" >>"$W/logs/shapes-final.log"
    tail -2 "$W/logs/shapes-final.log"
    python3 tools/lab/auto_table.py "$W/shapes_final" | tee "$W/logs/shapes-final-table.md"
    mkdir -p "$W/simttune_final"
    for s in ${RECORD_TUNE:-257x513x4099}; do
        timeout 90 build/gemmprof --tune "$s" --no-counters -o "$W/simttune_final/$s" >"$W/logs/simttune-final-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/simttune-final-$s.log")"
    done
    for tool in memcheck racecheck; do
        timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/gemmprof -k fp16_wgmma \
            -s 17x33x65,257x513x4099 -r 1 -w 0 --no-counters --no-ceilings --no-report --no-flush \
            -o "$W/fp16_$tool" >"$W/logs/fp16-$tool.log" 2>&1
        echo "$tool fp16_wgmma: exit $?, $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$W/logs/fp16-$tool.log" | tail -1)"
    done
fi
if has table; then
    # issue 28's shape table alone (the record step's second part): one invocation, timing only
    stamp "issue 28's table -> $W/shapes_final"
    t0=$SECONDS
    timeout 200 build/gemmprof -k simt_auto,cublas,tf32_auto,cublas_tf32,bf16_wgmma,cublas_bf16,fp16_wgmma,cublas_fp16 \
        -s "$S28" --no-counters --no-report -o "$W/shapes_final" >"$W/logs/shapes-final.log" 2>&1
    echo "exit $? after $((SECONDS - t0)) s" >>"$W/logs/shapes-final.log"
    tail -2 "$W/logs/shapes-final.log"
    python3 tools/lab/auto_table.py "$W/shapes_final" | tee "$W/logs/shapes-final-table.md"
fi
if has stallpairs; then
    stamp "calls of two kernels: gemmprof's stalls against ncu's, both cache modes -> $W/stallpairs"
    timeout 240 sh tools/lab/stall_pairs.sh "$W/stallpairs"
fi
if has smempolls; then
    stamp "shared-memory load wavefronts and mbarrier polls -> $W/smempolls; the wgmma cases against ncu"
    timeout 150 sh tools/lab/smem_polls.sh "$W/smempolls" 2>&1 | tee "$W/logs/smem-polls.txt"
    NCU_COMPARE_CASES="wgmma:2048 wgmma_ws:2048" timeout 150 sh tests/gpu/test_ncu_compare.sh \
        >"$W/logs/ncu-compare-wgmma.log" 2>&1
    grep -E "^(ok|FAIL) - |wavefronts_mem_shared_op_ld" "$W/logs/ncu-compare-wgmma.log"
fi
if has autoprobe; then
    # issue 28, shapes off the list: both auto variants beside cuBLAS at ordinary shapes a
    # new user tries (tf32_auto was 74-84% of cuBLAS TF32 at 1536^3, 3072^3 and 2000x3000x1000
    # at 0c24bc3, on split-K plans), then the TF32 tuner at PROBE_TUNE_TF32 and the SIMT
    # tuner at PROBE_TUNE_SIMT (each bounded by PROBE_TUNE_TIMEOUT, default 90 s)
    stamp "auto variants at shapes off issue 28's list -> $W/autoprobe"
    timeout "${PROBE_TIMEOUT:-120}" build/gemmprof -k simt_auto,cublas,tf32_auto,cublas_tf32 \
        -s "${PROBE_SHAPES:-512,1536,3072,6144,2000x3000x1000,127x4096x4096,4096x127x4096,1000x1000x20000,333x777x2222,4096x4096x256}" \
        --no-counters --no-ceilings --no-report -o "$W/autoprobe" >"$W/logs/autoprobe.log" 2>&1
    echo "exit $?"; grep -E "^(simt_auto|cublas|tf32_auto|cublas_tf32) |^    config" "$W/logs/autoprobe.log"
    python3 tools/lab/auto_table.py "$W/autoprobe" | tee "$W/logs/autoprobe-table.md"
    for s in ${PROBE_TUNE_TF32-1536 3072 2000x3000x1000}; do
        timeout "${PROBE_TUNE_TIMEOUT:-90}" build/gemmprof --tune $s -k tf32_auto --no-counters -o "$W/autoprobe/tune-$s" \
            >"$W/logs/autoprobe-tune-$s.log" 2>&1
        echo "tune tf32 $s: exit $?; $(grep -h "rule's pick" "$W/logs/autoprobe-tune-$s.log")"
    done
    for s in ${PROBE_TUNE_SIMT-}; do
        timeout "${PROBE_TUNE_TIMEOUT:-90}" build/gemmprof --tune $s --no-counters -o "$W/autoprobe/simttune-$s" \
            >"$W/logs/autoprobe-simttune-$s.log" 2>&1
        echo "tune simt $s: exit $?; $(grep -h "rule's pick" "$W/logs/autoprobe-simttune-$s.log")"
    done
fi
if has tail; then
    # issue 28: tf32_auto's split of the last wave only (the full waves' tiles whole first):
    # verified where the rule picks such a plan, C the same bit for bit in two runs,
    # compute-sanitizer on every split of two tiles at a shape with more tiles than the
    # H200's slots, then the TF32 tuner at TAIL_TUNE (multi-wave shapes)
    t_start=$SECONDS
    verify_beside tail_verify tf32_auto,cublas_tf32 "${TAIL_SHAPES:-3072,2560,5120,2000x3000x1000,2049,2304x768x3072,8192}" \
        -r 2 -w 1
    tf32_same_twice tail_det 3072,2000x3000x1000
    sanitize_plans tail w128x64,w64x64b2 1088x1088x256 \
        "every split of w128x64 and w64x64b2 at 1088x1088x256 (153 and 289 tiles)" "" -k tf32_auto
    for s in ${TAIL_TUNE-3072 2560 5120 2000x3000x1000 1536 4096}; do
        timeout 60 build/gemmprof --tune $s -k tf32_auto --no-counters -o "$W/tailtune/$s" >"$W/logs/tail-tune-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/tail-tune-$s.log")"
    done
    build/gemmprof tune-check "$W"/tailtune/*/tune.csv
    echo "tail: $((SECONDS - t_start)) s"
fi
if has simttail; then
    # issue 28: simt_auto's split past the full waves only (the full waves' tile rows whole
    # first): verified beside cuBLAS where the rule picks such a plan, compute-sanitizer on
    # every t64x64 plan at a shape with more tiles than the slots, then the SIMT tuner at
    # SIMTTAIL_TUNE (each bounded by SIMTTAIL_TUNE_TIMEOUT, default 75 s)
    t_start=$SECONDS
    verify_beside simttail_verify simt_auto,cublas \
        "${SIMTTAIL_SHAPES:-7000x1000x2000,3000x3000x512,8192x8192x1024,5003x1000x2000,4096,2048}"
    sanitize_plans simttail t64x64 1500x1500x256 "every plan of t64x64 at 1500x1500x256 (576 tiles)" tail
    for s in ${SIMTTAIL_TUNE-7000x1000x2000 5000x800x1200 3000x3000x512 8192x8192x1024}; do
        timeout "${SIMTTAIL_TUNE_TIMEOUT:-75}" build/gemmprof --tune $s --no-counters -o "$W/simttail/$s" \
            >"$W/logs/simttail-tune-$s.log" 2>&1
        echo "tune simt $s: exit $?; $(grep -h "rule's pick" "$W/logs/simttail-tune-$s.log")"
        grep -E "^\*" "$W/logs/simttail-tune-$s.log" | head -2
    done
    echo "simttail: $((SECONDS - t_start)) s"
fi
if has simtprof; then
    # issue 28: why the SIMT kernel's 2-blocks-per-SM tiles trail cuBLAS's 128x128x8 kernel
    # (ncu's sections on the first launch of each tile at SIMTPROF_SHAPE, and on cuBLAS's)
    sshape=${SIMTPROF_SHAPE:-7000x1000x2000}
    secs="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis --section Occupancy --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section SchedulerStats"
    [ -n "${SIMTPROF_METRICS:-}" ] && secs="--metrics $(stall_metrics barrier long_scoreboard short_scoreboard mio_throttle lg_throttle math_pipe_throttle not_selected selected wait dispatch_stall no_instruction membar drain branch_resolving misc tex_throttle)l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed.sum,sm__cycles_active.avg,smsp__inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fp32.sum"
    for tile in ${SIMTPROF_TILES:-t128x128k8 t128x128 t128x256k32s4}; do
        stamp "ncu on $tile at $sshape -> $W/logs/simtprof-$tile.txt"
        GEMMPROF_TUNE_ONLY=$tile timeout 120 ncu $secs -k regex:gemm_simt_kernel --launch-count 1 \
            build/gemmprof --tune "$sshape" -r 1 -w 0 --no-counters -o "$W/simtprof-$tile" >"$W/logs/simtprof-$tile.txt" 2>&1
        echo "ncu $tile: exit $?"
    done
    stamp "ncu on cuBLAS at $sshape -> $W/logs/simtprof-cublas.txt"
    timeout 120 ncu $secs -k regex:sm80_xmma --launch-count 1 build/gemmprof -k cublas -s "$sshape" -r 1 -w 0 \
        --no-counters --no-ceilings --no-report -o "$W/simtprof-cublas" >"$W/logs/simtprof-cublas.txt" 2>&1
    echo "ncu cublas: exit $?"
fi
if has splitprof; then
    # issue 28: why split-K SIMT plans at skinny, long-k shapes trail cuBLAS SGEMM's: ncu's
    # duration, issue activity and stall reasons of every launch (GEMM and reduction) of the
    # tiles SPLITPROF_TILES at SPLITPROF_SHAPE, the first SPLITPROF_COUNT of them, and of cuBLAS's
    sshape=${SPLITPROF_SHAPE:-506x417x11797}
    mets="gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,$(stall_metrics barrier long_scoreboard short_scoreboard mio_throttle lg_throttle math_pipe_throttle not_selected wait dispatch_stall no_instruction drain branch_resolving)sm__cycles_active.avg"
    mkdir -p "$W/splitprof"
    for tile in ${SPLITPROF_TILES:-t128x256t8 t256x128}; do
        stamp "ncu on $tile's plans at $sshape -> $W/splitprof/$tile.csv"
        GEMMPROF_TUNE_ONLY=$tile timeout 200 ncu --csv --metrics "$mets" -k 'regex:gemm_simt|reduce' --launch-count ${SPLITPROF_COUNT:-40} \
            build/gemmprof --tune "$sshape" -r 1 -w 0 --no-counters -o "$W/splitprof/tune-$tile" >"$W/splitprof/$tile.csv" 2>"$W/logs/splitprof-$tile.log"
        echo "ncu $tile: exit $?"
        python3 tools/lab/ncu_launches.py "$W/splitprof/$tile.csv" | tee "$W/logs/splitprof-$tile.txt"
    done
    stamp "ncu on cuBLAS at $sshape"
    timeout 120 ncu --csv --metrics "$mets" --kernel-name-base demangled -k 'regex:sgemm|xmma|splitK' build/gemmprof -k cublas -s "$sshape" -r 2 -w 0 --no-counters --no-ceilings \
        --no-report -o "$W/splitprof/cublas" >"$W/splitprof/cublas.csv" 2>"$W/logs/splitprof-cublas.log"
    echo "ncu cublas: exit $?"
    python3 tools/lab/ncu_launches.py "$W/splitprof/cublas.csv" | tee "$W/logs/splitprof-cublas.txt"
fi
if has simtsass; then
    # issue 28: where in the instruction stream the 2-per-SM SIMT tile and cuBLAS's 128x128x8
    # kernel stall: ncu's per-instruction samples (source page, SASS) for one launch of each
    sshape=${SIMTPROF_SHAPE:-7000x1000x2000}
    for tile in ${SIMTPROF_TILES:-t128x128k8}; do
        GEMMPROF_TUNE_ONLY=$tile ncu_source simtsass "$tile" gemm_simt_kernel \
            build/gemmprof --tune "$sshape" -r 1 -w 0 --no-counters -o "$W/simtsass-$tile"
    done
    ncu_source simtsass cublas sm80_xmma build/gemmprof -k cublas -s "$sshape" -r 1 -w 0 --no-counters --no-ceilings \
        --no-report -o "$W/simtsass-cublas"
fi
if has tf32l2; then
    # issue 28: whether L2's delivery bounds tf32_auto where cuBLAS TF32 leads at one wave
    # (ncu on both at TF32L2_SHAPES: L2 and DRAM throughput, bytes into the SMs, clusters)
    mets=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__cluster_dim_x,launch__cluster_dim_y,launch__grid_size,launch__block_size,l1tex__m_xbar2l1tex_read_bytes.sum,smsp__cycles_active.avg
    for v in tf32_auto cublas_tf32; do
        stamp "ncu on $v -> $W/logs/tf32l2-$v.txt"
        timeout 150 ncu ${TF32L2_NCU:-} --metrics $mets -k regex:'gemm|xmma|splitK' build/gemmprof -k $v -s "${TF32L2_SHAPES:-1800x1800x5000,4500,2200x2200x700,4096}" \
            -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$W/tf32l2-$v" >"$W/logs/tf32l2-$v.txt" 2>&1
        echo "ncu $v: exit $?"
        grep -E "^  [A-Za-z_].*\(|gpu__time|lts__|dram__|sm__|launch__cluster|launch__grid|l1tex__m" "$W/logs/tf32l2-$v.txt" | sed -E 's/ +/ /g' | cut -c1-160
    done
fi
if has tf32src; then
    # issue 28: where tf32_auto's warps wait at TF32SRC_SHAPES (ncu's per-instruction samples)
    for sh in ${TF32SRC_SHAPES:-1800x1800x5000 4096}; do
        ncu_source tf32src "$sh" gemm_tf32_auto build/gemmprof -k tf32_auto -s "$sh" -r 1 -w 0 --no-counters \
            --no-ceilings --no-report -o "$W/tf32src-run-$sh"
        ncu --import "$W/tf32src/$sh.ncu-rep" --page details >"$W/tf32src/$sh-details.txt" 2>&1
        grep -E "Warp Cycles Per Issued|Stall|Issued Warp|Duration" "$W/tf32src/$sh-details.txt" | head -20
    done
fi
if has padc; then
    # issue 28: padded SIMT plans store C's odd rows directly (no second pass unsplit): the
    # shapes that ran them beside cuBLAS, the tuner's padded and plain plans at two of them,
    # and memcheck/racecheck over every plan of three tiles at a small odd shape
    verify_beside padc simt_auto,cublas "${PADC_SHAPES:-2047,4097x1023x2049,1234x2345x3456,3333x333x3333,257x513x4099,333x777x2222,2049x2047x1029,1000x1500x701,130x67x45,100x100x10000}"
    for s in ${PADC_TUNE:-2047 4095x4095x64}; do
        GEMMPROF_TUNE_ONLY=${PADC_TUNE_ONLY:-t128x256,t128x256t8,t64x128,t64x64} timeout 100 build/gemmprof --tune $s --no-counters \
            -o "$W/padc-tune-$s" >"$W/logs/padc-tune-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/padc-tune-$s.log")"
        grep -E "^[* ] .*(split1 |padB split1 )" "$W/logs/padc-tune-$s.log" | head -12
    done
    sanitize_plans padc t64x64,t128x256,t32x64 130x257x68 "64x64, 128x256 and 32x64 plans" padB
    # split plans that pad B and peel rows (the strip kernel reads the padded B): 64x64 at
    # a K that splits, M % 64 == 2
    sanitize_plans padcpeel t64x64 130x257x640 "64x64 plans, split and peeled" "padB peel"
fi
if has mcast; then
    # issue 28: tf32_auto's tiles in clusters of 2 sharing A by TMA multicast: the rule's
    # picks beside cuBLAS TF32 (MCAST_SHAPES), the tuner's plain and clustered 256 x 128
    # plans at MCAST_TUNE, and memcheck/racecheck over every clustered plan at two small
    # odd shapes (an odd count of tiles in n: the last cluster's second block is empty)
    verify_beside mcast tf32_auto,cublas_tf32 "${MCAST_SHAPES:-1800x1800x5000,4500,2200x2200x700,1700x2300x3100,700x700x7000,4096,8192,2048,1000x1500x700,257x513x4099,3000x3000x512,1024}"
    for s in ${MCAST_TUNE-1800x1800x5000 4500 4096 2200x2200x700}; do
        GEMMPROF_TUNE_ONLY=${MCAST_TUNE_ONLY:-w256x128} timeout 100 build/gemmprof --tune $s -k tf32_auto --no-counters \
            -o "$W/mcast-tune-$s" >"$W/logs/mcast-tune-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/mcast-tune-$s.log")"
        grep -E "^[* ] [0-9]+x" "$W/logs/mcast-tune-$s.log" | head -24
    done
    sanitize_plans mcast w256x128c2 300x300x1000 "clustered 256 x 128 plans" cluster2 -k tf32_auto
    sanitize_plans mcast2 w256x128c2 17x100x65 "clustered 256 x 128 plans, one tile" cluster2 -k tf32_auto
fi
if has mcastncu; then
    # why clustered plans run slower: clusters resident at once (tools/lab/cluster_probe.cu),
    # then ncu's view of the first launch of the plain and the clustered 256 x 128 tile at
    # MCASTNCU_SHAPE (split1, the tuner's first plan of each)
    nvcc -arch=sm_90a -o "$W/cluster_probe" tools/lab/cluster_probe.cu && "$W/cluster_probe" | tee "$W/logs/cluster-probe.txt"
    for t in w256x128 w256x128c2; do
        GEMMPROF_TUNE_ONLY=$t timeout 150 ncu --section SpeedOfLight --section LaunchStats --section Occupancy \
            --section WarpStateStats --section MemoryWorkloadAnalysis -k regex:gemm_tf32_auto --launch-count 1 \
            build/gemmprof --tune ${MCASTNCU_SHAPE:-1800x1800x5000} -k tf32_auto -r 1 -w 0 --no-counters -o "$W/mcastncu-$t" \
            >"$W/logs/mcastncu-$t.txt" 2>&1
        echo "ncu $t: exit $?"
        grep -E "Duration|Throughput|Cluster|Grid Size|Waves|Achieved Occ|Stall|Warp Cycles|L2 Hit|Mem Busy|Max Bandwidth|Registers|Block Limit" \
            "$W/logs/mcastncu-$t.txt" | head -50
    done
fi
if has mctune; then
    # tf32_auto's tuner, every tile, at MCTUNE_SHAPES: the tables the rule is replayed on
    # (results/h200/tune/tf32/), each with the clustered plans beside the plain ones
    for s in ${MCTUNE_SHAPES:-8192 4500 2500 2200x2200x700 6000x6000x300}; do
        stamp "tf32_auto tuner at $s -> $W/mctune/$s"
        timeout 120 build/gemmprof --tune "$s" -k tf32_auto --no-counters -o "$W/mctune/$s" >"$W/logs/mctune-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "the rule's pick" "$W/logs/mctune-$s.log")"
        grep -E "^[* ] 256x128x32 wg2 s4 (cluster2 )?split1 " "$W/logs/mctune-$s.log"
    done
fi
if has fixup; then
    # the small tiles' split-K plans at FIXUP_SHAPES (FIXUP_ONLY picks the tiles): how the
    # split-K fixup's cost shows at tiny, deep shapes (results/h200/NOTES.md, fourth session
    # of 2026-12-02: an experiment with it, reverted)
    for s in ${FIXUP_SHAPES:-100x100x10000 700x700x7000}; do
        GEMMPROF_TUNE_ONLY=${FIXUP_ONLY:-w64x128,w64x64b2,w128x64} timeout 100 build/gemmprof --tune $s -k tf32_auto \
            --no-counters -o "$W/fixup-$s" >"$W/logs/fixup-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/fixup-$s.log")"
        grep -E "^[* ] [0-9]+x" "$W/logs/fixup-$s.log" | head -40
    done
fi
if has wide; then
    # issue 28: simt_auto's wide split-K reduction (few items of C, many slices) and splits
    # whose rounding to BK leaves fewer slices: the tuner at WIDE_TUNE (the tables the rule
    # is replayed on, tests/data/h200_simt_tune*.csv), memcheck and racecheck over every
    # plan of t64x64 at two small shapes (peeled, padded, 4-byte items: 67x101x3000), then
    # simt_auto beside cuBLAS at WIDE_SHAPES
    t_start=$SECONDS
    for s in ${WIDE_TUNE-100x100x10000 259x259x10000 257x513x4099}; do
        stamp "simt tuner at $s -> $W/widetune/$s"
        timeout 150 build/gemmprof --tune "$s" --no-counters -o "$W/widetune/$s" >"$W/logs/widetune-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "^the rule's pick" "$W/logs/widetune-$s.log"); $(grep -cE "^[* ] [0-9]+x.* ok " "$W/logs/widetune-$s.log") plans ok, $(grep -cE "^[* ] [0-9]+x" "$W/logs/widetune-$s.log") listed"
        grep -E "^\* " "$W/logs/widetune-$s.log"
    done
    sanitize_plans wide t64x64 67x101x3000 "every t64x64 plan at 67x101x3000" peel
    sanitize_plans wide2 t64x64,t32x64 100x100x2000 "every t64x64, t32x64 plan at 100x100x2000" split
    verify_beside wide_verify simt_auto,cublas \
        "${WIDE_SHAPES:-100x100x10000,64x64x16384,259x259x10000,257x513x4099,333x777x2222,96x3000x3000,127x4096x4096,600x600x6000,800x800x8000,1000x1000x20000}"
    echo "wide: $((SECONDS - t_start)) s"
fi
if has tf32red; then
    # issue 28: tf32_auto's reduce plans (each slice's partial product into the workspace,
    # summed by the split-K reduction kernel): the tuner at TF32RED_TUNE, memcheck and
    # racecheck over every plan of two tiles at a small deep shape, then tf32_auto beside
    # cuBLAS TF32 at TF32RED_SHAPES
    t_start=$SECONDS
    for s in ${TF32RED_TUNE-100x100x10000 259x259x10000 700x700x7000 600x600x6000}; do
        stamp "tf32 tuner at $s -> $W/tf32red/$s"
        timeout 150 build/gemmprof --tune "$s" -k tf32_auto --no-counters -o "$W/tf32red/$s" >"$W/logs/tf32red-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "^the rule's pick" "$W/logs/tf32red-$s.log"); $(grep -cE "^[* ] [0-9]+x.* ok " "$W/logs/tf32red-$s.log") plans ok of $(grep -cE "^[* ] [0-9]+x" "$W/logs/tf32red-$s.log")"
        grep -E "^\* " "$W/logs/tf32red-$s.log"
    done
    sanitize_plans tf32red w64x64b2,w128x64 100x100x3000 "every w64x64b2, w128x64 plan at 100x100x3000" reduce -k tf32_auto
    verify_beside tf32red_verify tf32_auto,cublas_tf32 \
        "${TF32RED_SHAPES:-100x100x10000,64x64x16384,259x259x10000,257x513x4099,333x777x2222,600x600x6000,700x700x7000,1000x1000x20000,127x4096x4096,96x3000x3000,130x67x4000}"
    echo "tf32red: $((SECONDS - t_start)) s"
fi
if has holdout; then
    # issue 28's shapes off its list: both auto variants beside cuBLAS at the 40 shapes of
    # results/h200/logs/holdout-*.md, one invocation per list of 24 and 16
    H1=4500x4500x4500,1800x1800x5000,2200x2200x700,700x700x7000,100x100x10000,5000x800x1200,300x3000x5000,127x4096x4096,1000x1000x20000,3333x333x3333,7000x1000x2000,6000x6000x300,3500x2500x1500,6500x3000x2000,1700x2300x3100,2900x2900x2900,1200x5000x800,4000x4000x4000,12000x1000x1000,800x800x8000,3100x700x4100,2500x2500x2500,5500x5500x5500,3500x3500x3500
    H2=1234x2345x3456,5120x1280x640,960x960x960,1400x1400x1400,3000x1000x3000,6000x2000x1000,2047x2047x2047,4097x1023x2049,512x8192x1024,8192x512x1024,600x600x6000,1536x3072x768,2300x2300x2300,3700x1900x2800,10000x500x500,4444x4444x1111
    : >"$W/logs/holdout.md"
    for h in 1 2; do
        eval hs=\$H$h
        stamp "holdout list $h -> $W/holdout$h"
        timeout 200 build/gemmprof -k simt_auto,cublas,tf32_auto,cublas_tf32 -s "$hs" --no-counters --no-ceilings --no-report \
            -o "$W/holdout$h" >"$W/logs/holdout$h.log" 2>&1
        echo "holdout $h: exit $?, $(python3 tests/gpu/csvcheck.py all-ok "$W/holdout$h/results.csv" $((4 * $(echo "$hs" | tr ',' '\n' | wc -l))) 2>&1 | tail -1)"
        python3 tools/lab/auto_table.py "$W/holdout$h" >>"$W/logs/holdout.md"
        echo >>"$W/logs/holdout.md"
    done
    cat "$W/logs/holdout.md"
    grep -hA1 "^tf32_auto" "$W"/logs/holdout[12].log | grep -c cluster2
fi
if has survey; then
    # both auto variants beside their cuBLAS baselines at SURVEY_SHAPES (shapes named nowhere
    # else: small m, n of 17-32, odd sizes), one invocation; $W/logs/survey.md
    stamp "survey -> $W/survey"
    verify_beside survey simt_auto,cublas,tf32_auto,cublas_tf32 "${SURVEY_SHAPES:?SURVEY_SHAPES names the shapes}"
fi
# the TF32 tuner at SHAPES (separated by commas or spaces) into $W/NAME/<shape>, logs $W/logs/NAME-<shape>.log:
# per shape the rule's pick, the plans not ok, the five fastest and the best plan that
# copies an operand TMA cannot address beside the best that loads it in the kernel
tune_kinds() { # NAME SHAPES
    for s in ${2//,/ }; do
        timeout 90 build/gemmprof --tune "$s" -k tf32_auto -o "$W/$1/$s" >"$W/logs/$1-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "the rule's pick" "$W/logs/$1-$s.log")"
        python3 - "$W/$1/$s/tune.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r["config"] for r in rows if r["status"] != "ok"]
direct = [r for r in rows if " direct" in r["config"]]
print(f"   {len(rows)} plans, {len(direct)} direct, not ok: {bad[:6]}")
ok = sorted((r for r in rows if r["status"] == "ok"), key=lambda r: float(r["time_median_s"]))
for r in ok[:5]:
    print(f"   {r['config']:44s} {float(r['time_median_s']) * 1e6:8.1f} us  model {float(r['model_s']) * 1e6:8.1f} us")
best = {}
for r in ok:
    kind = "direct" if " direct" in r["config"] else "mapsA" if " mapsA" in r["config"] else "mapsB" if " mapsB" in r["config"] else "copy"
    t = float(r["time_median_s"])
    if kind not in best or t < best[kind][0]:
        best[kind] = (t, r["config"])
for kind, (t, c) in sorted(best.items()):
    print(f"   best {kind:6s} {t * 1e6:8.1f} us  {c}")
PY
    done
}
if has tf32picks; then
    # the TF32 tuner at TF32_SHAPES only (no verification runs, no sanitizers): the rule's
    # pick against the best plan, and the five fastest plans; $W/tf32picks/<shape>/tune.csv
    tune_kinds tf32picks "${TF32_SHAPES:?TF32_SHAPES names the shapes}"
fi
# the checks of a way to load operands TMA cannot address: the tuner at SHAPES (every plan
# verified), memcheck and racecheck over four tiles' plans at 130x67x45 and SECOND (plans
# counted by WORD in their config), tf32_auto beside cuBLAS TF32 at SHAPES in one invocation
odd_loads() { # NAME WORD SHAPES SECOND
    tune_kinds "$1" "$3"
    sanitize_plans "$2-130x67x45" w64x64b2,w128x64 130x67x45 "tf32_auto 64x64/128x64" "$2" -k tf32_auto
    sanitize_plans "$2-$4" w256x128,w64x128 "$4" "tf32_auto 256x128/64x128" "$2" -k tf32_auto
    verify_beside "$2" tf32_auto,cublas_tf32 "$3"
}
DIRECT_DEFAULT=1111x47x7777,47x1111x7777,2222x31x9999,257x513x4099,1023x1025x4097,333x777x9999,130x67x45,17x33x65
if has directk; then
    # tf32_auto's direct loads (operands loaded by the producer warpgroup itself)
    odd_loads directk direct "${DIRECT_SHAPES:-$DIRECT_DEFAULT}" 150x72x333
fi
MAPS_DEFAULT=47x1111x7777,35x3033x3722,21x3954x5089,1111x47x7777,2222x31x9999,7225x59x7919,257x513x4099,1023x1025x4097,333x777x9999
if has maps; then
    # tf32_auto's A and B by four row maps (k % 4 or n % 4 != 0, kernels/sm90_ws.cuh
    # SM90_MAPS_A/B)
    odd_loads maps maps "${MAPS_SHAPES:-$MAPS_DEFAULT}" 150x73x333
fi
if has directl1; then
    # the experiment of tools/lab/direct_l1.patch: direct plans at 4 stages, with a
    # shared-memory carveout that leaves L1 to their copies (their config column still names
    # the table's stages). The tuner at DIRECT_SHAPES before and after the patch.
    ds=${DIRECT_SHAPES:-$DIRECT_DEFAULT}
    tune_kinds directl1-before "$ds"
    stamp "applying tools/lab/direct_l1.patch and rebuilding build/gemmprof"
    git apply tools/lab/direct_l1.patch 2>/dev/null || patch -p1 <tools/lab/direct_l1.patch
    make -j16 "${rev[@]}" build/gemmprof >"$W/logs/build-directl1.log" 2>&1 || { tail -20 "$W/logs/build-directl1.log"; echo BUILD FAILED; }
    tune_kinds directl1-after "$ds"
fi
if has cublasnames; then
    # which kernels cuBLAS SGEMM and TF32 run at CUBLASNAMES_SHAPES (ncu: time, grid, block,
    # cluster; the tile is in the kernel's name): one line per kernel
    stamp "cuBLAS's kernels -> $W/logs/cublasnames.txt"
    timeout 200 ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread,launch__occupancy_limit_registers \
        -k regex:'gemm|splitK|reduce|Kernel' \
        build/gemmprof -k ${CUBLASNAMES_VARIANTS:-cublas,cublas_tf32} -s "${CUBLASNAMES_SHAPES:-7000x1000x2000,5000x800x1200,3333x333x3333,1000x1000x20000,127x4096x4096,4500,1800x1800x5000,100x100x10000}" \
        -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$W/cublasnames" >"$W/logs/cublasnames.txt" 2>&1
    echo "ncu: exit $?"
    python3 - "$W/logs/cublasnames.txt" <<'PY'
import re, sys
name, vals = None, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"^  (\S.*?) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line)
    if m:
        if name: print(name[:150], vals)
        name, vals = m.group(1), {}
        continue
    m = re.match(r"^\s+(launch__\w+|gpu__time_duration\.sum)\s+(?:(\S+)\s+)?([\d.,]+)\s*$", line)
    if m and name:
        vals[m.group(1).replace("launch__", "")] = m.group(3) + (m.group(2) or "")
if name: print(name[:150], vals)
PY
fi
if has copya; then
    # issue 28: tf32_auto copying A first where its rows sit 16 bytes off a sector (k % 8
    # == 4): verified beside cuBLAS TF32 at COPYA_SHAPES, compute-sanitizer on every
    # w64x64b2 plan at a small such shape, then the TF32 tuner at COPYA_TUNE
    t_start=$SECONDS
    verify_beside copya_verify tf32_auto,cublas_tf32 \
        "${COPYA_SHAPES:-4500,2500,5500,3500,2200x2200x700,6000x6000x300,1500,1000x1500x700,1500x1500x4500}"
    sanitize_plans copya w64x64b2 1100x1100x260 "every w64x64b2 plan at 1100x1100x260" copyA -k tf32_auto
    for s in ${COPYA_TUNE-4500 2500 2200x2200x700 6000x6000x300}; do
        timeout 75 build/gemmprof --tune $s -k tf32_auto --no-counters -o "$W/copyatune/$s" >"$W/logs/copya-tune-$s.log" 2>&1
        echo "tune $s: exit $?; $(grep -h "rule's pick" "$W/logs/copya-tune-$s.log")"
    done
    echo "copya: $((SECONDS - t_start)) s"
fi
if has padpitch; then
    # issue 28: the padded copies' row pitch, 16 bytes (GEMMPROF_PAD_PITCH=16) against whole
    # 128-byte lines (the default since 81fc746). Timing at three padded shapes, then the TF32
    # tuner at 257x513x4099, each pitch
    stamp "padded pitch 16 against 128 bytes -> $W/padpitch"
    mkdir -p "$W/padpitch"
    for p in 16 128; do
        GEMMPROF_PAD_PITCH=$p timeout 60 build/gemmprof -k tf32_auto,cublas_tf32,bf16_wgmma,cublas_bf16 \
            -s 257x513x4099,1000x1500x701,259x259x10000 --no-counters --no-ceilings --no-report \
            -o "$W/padpitch/t$p" >"$W/logs/padpitch-t$p.log" 2>&1
        echo "pitch $p: exit $?"; grep -E "^(tf32_auto|cublas_tf32|bf16_wgmma|cublas_bf16) " "$W/logs/padpitch-t$p.log"
        GEMMPROF_PAD_PITCH=$p timeout 90 build/gemmprof --tune 257x513x4099 -k tf32_auto --no-counters \
            -o "$W/padpitch/tune$p" >"$W/logs/padpitch-tune$p.log" 2>&1
        echo "tune, pitch $p: exit $?; $(grep -h "rule's pick" "$W/logs/padpitch-tune$p.log")"
    done
fi
if has tensor; then
    # issue 13: the TF32 and 3xTF32 kernels beside both cuBLAS baselines in one invocation,
    # counters on, with the stall reasons of the two best TF32 kernels at 4096^3
    stamp "tensor-core kernels and cuBLAS -> $W/tensor"
    timeout 150 build/gemmprof -k wgmma_ws,wgmma_ss,wgmma_rs,cublas_tf32,tf32x3_mma,tf32x3_wgmma,cublas \
        -s 2048,4096,8192,1000x1500x700 --no-report -o "$W/tensor" >"$W/logs/tensor.log" 2>&1
    echo "exit $?" >>"$W/logs/tensor.log"
    grep -vE "^ +config|^gemmprof: " "$W/logs/tensor.log" | tail -30
    timeout 90 build/gemmprof -k wgmma_ss,wgmma_rs,cublas_tf32 -s 4096 --stalls --no-report -o "$W/tensor_stalls" \
        >"$W/logs/tensor_stalls.log" 2>&1
    echo "exit $?" >>"$W/logs/tensor_stalls.log"
fi
if has l2promo; then
    # issue 13: the TMA kernels' L2 bytes against ncu with the tensor maps' L2 promotion off
    # (GEMMPROF_TMA_L2_PROMOTION=none), and their speed with it off
    stamp "TMA kernels without L2 promotion: ncu comparison and speed"
    NCU_COMPARE_RUNS=2 NCU_COMPARE_CALLS=3 GEMMPROF_TMA_L2_PROMOTION=none NCU_COMPARE_CASES="wgmma:2048 \
        wgmma:1000x1500x700 wgmma_ws:2048 wgmma_ws:1000x1500x700 wgmma_rs:2048 wgmma_rs:1000x1500x700 \
        tf32x3_wgmma:2048 tf32x3_wgmma:1000x1500x700" timeout 200 sh tests/gpu/test_ncu_compare.sh \
        >"$W/logs/ncu-l2promo-none.log" 2>&1
    grep -E "^(ok|FAIL) - gemmprof counters|lts__t_bytes|dram__bytes_read" "$W/logs/ncu-l2promo-none.log"
    for p in none 256; do
        GEMMPROF_TMA_L2_PROMOTION=$p timeout 120 build/gemmprof -k wgmma,wgmma_ws,wgmma_ss,wgmma_rs,cublas_tf32 \
            -s 2048,4096,8192 --no-report -o "$W/l2promo_$p" >"$W/logs/l2promo-$p.log" 2>&1
        echo "promotion $p: exit $?"; grep -E "^(wgmma|cublas)" "$W/logs/l2promo-$p.log"
    done
fi
if has mmaprobe; then
    # issues 10 and 13: mma.sync's own TF32 throughput (tools/lab/probe_mma_sync.cu), the
    # ceiling tf32_mma and tf32x3_mma run against, beside the wgmma loop's
    stamp "mma.sync TF32 probe"
    nvcc -O3 -gencode arch=compute_90,code=sm_90 tools/lab/probe_mma_sync.cu -o "$W/probe_mma_sync" \
        >"$W/logs/probe_mma_sync.log" 2>&1 && timeout 60 "$W/probe_mma_sync" >>"$W/logs/probe_mma_sync.log" 2>&1
    echo "exit $?" >>"$W/logs/probe_mma_sync.log"
    cat "$W/logs/probe_mma_sync.log"
fi
if has wgmma16; then
    # issue 28 (about 3 minutes after `build`): the N-major B descriptor probe
    # (tools/lab/probe_wgmma16.cu; its verdict line says whether bf16_wgmma's encoding reads B
    # right and, if not, which WGMMA16_* setting in kernels/sm90_16bit.cuh does), then
    # bf16_wgmma, fp16_wgmma and bf16_mma beside cuBLAS at odd and large shapes, then
    # compute-sanitizer memcheck and racecheck on bf16_wgmma and bf16_mma at ragged shapes
    stamp "wgmma16: descriptor probe"
    nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -DGP_SM90A -I. tools/lab/probe_wgmma16.cu \
        -o "$W/probe_wgmma16" >"$W/logs/probe_wgmma16.log" 2>&1 && timeout 120 "$W/probe_wgmma16" >>"$W/logs/probe_wgmma16.log" 2>&1
    echo "exit $?" >>"$W/logs/probe_wgmma16.log"
    cat "$W/logs/probe_wgmma16.log"
    stamp "wgmma16: bf16_wgmma, fp16_wgmma, bf16_mma and cuBLAS -> $W/wgmma16"
    timeout 150 build/gemmprof -k bf16_wgmma,fp16_wgmma,bf16_mma,cublas_bf16,cublas_fp16 \
        -s 1,17x33x65,257x513x4099,1000x1500x700,2049,4096,8192 --no-counters --no-report -o "$W/wgmma16" \
        >"$W/logs/wgmma16.log" 2>&1
    echo "exit $?" >>"$W/logs/wgmma16.log"
    tail -3 "$W/logs/wgmma16.log"
    python3 - "$W/wgmma16/results.csv" <<'PY' | tee "$W/logs/wgmma16_summary.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
blas = {(r["precision"], r["m"], r["n"], r["k"]): float(r["flop_per_s"] or 0)
        for r in rows if r["variant"].startswith("cublas") and r["status"] == "ok"}
for r in rows:
    f = float(r["flop_per_s"] or 0)
    b = blas.get((r["precision"], r["m"], r["n"], r["k"]), 0)
    share = f"{100 * f / b:6.1f}% of cuBLAS" if b and f else ""
    print(f"{r['variant']:12s} {r['m']}x{r['n']}x{r['k']:5s} {r['status']:8s} rel_err {r['rel_err'] or '-':>14s}"
          f" (tol {r['tolerance'] or '-'}) {float(r['time_median_s'] or 0) * 1e3:9.4f} ms {f / 1e12:7.1f} TFLOP/s {share} {r['error']}")
PY
    for tool in memcheck racecheck; do
        stamp "wgmma16: compute-sanitizer $tool on bf16_wgmma, bf16_mma"
        timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build/gemmprof -k bf16_wgmma,bf16_mma \
            -s 257x513x4099,17x33x65 -r 1 -w 0 --no-ceilings --no-report --no-flush -o "$W/wgmma16_$tool" \
            >"$W/logs/wgmma16_$tool.log" 2>&1
        echo "exit $?" >>"$W/logs/wgmma16_$tool.log"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^exit" "$W/logs/wgmma16_$tool.log"
    done
fi
if has dbufstalls; then
    # issue 12: why dbuf issues on fewer cycles than cuBLAS at 4096^3 (83.6% against 89.7%)
    stamp "dbuf and cuBLAS at 4096^3 with the stall reasons -> $W/dbuf_stalls"
    timeout 120 build/gemmprof -k dbuf,cublas -s 4096 --stalls --no-report -o "$W/dbuf_stalls" \
        >"$W/logs/dbuf_stalls.log" 2>&1
    echo "exit $?" >>"$W/logs/dbuf_stalls.log"
    python3 - "$W/dbuf_stalls/results.csv" <<'PY' | tee -a "$W/logs/dbuf_stalls.log"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    st = {k.split("stalled_")[1].split("_per_issue")[0]: float(v) for k, v in r.items()
          if k.startswith("smsp__average_warps_issue_stalled_") and v}
    top = sorted(st.items(), key=lambda kv: -kv[1])[:6]
    print(r["variant"], r["time_median_s"], "issue", r.get("smsp__issue_active.avg.pct_of_peak_sustained_active"),
          " ".join(f"{k}={v:.2f}" for k, v in top))
PY
fi
if has tune; then
    # issue 12: the tuner's tables (every SIMT configuration and split, the rule's pick marked)
    for shape in ${TUNE_SHAPES:-2048x2048x2048 1000x1500x700 8192x8192x8192}; do
        stamp "tuner at $shape -> $W/tune/$shape"
        timeout 120 build/gemmprof --tune $shape -o "$W/tune/$shape" >"$W/logs/tune_$shape.log" 2>&1
        echo "exit $?" >>"$W/logs/tune_$shape.log"
        head -40 "$W/logs/tune_$shape.log"
    done
fi
if has diagl2; then
    stamp "diagnostic: cuBLAS L2 bytes in the batch against alone and ncu (diag_l2_batch.sh)"
    timeout 300 tools/lab/diag_l2_batch.sh build 2>&1 | tee "$W/logs/diag_l2_batch.txt"
    cp "$W/logs/diag_l2_batch.txt" "$OUT/" 2>/dev/null
fi
if has trace; then
    stamp "Perfetto timeline: --trace"
    timeout 120 build/gemmprof -k naive,tiled,cublas,cublas_tf32 -s 1024,2048 -r 3 --trace --no-report \
        -o "$W/trace" >"$W/logs/trace.log" 2>&1; echo "exit $?" >>"$W/logs/trace.log"
    tail -3 "$W/logs/trace.log"
    python3 - "$W/trace/trace.json" <<'PY' | tee -a "$W/logs/trace.log"
import json, sys, collections
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
kinds = collections.Counter((e.get("cat", "-"), e["ph"]) for e in ev)
print("trace events:", len(ev), dict(kinds))
nv = [e["name"] for e in ev if e.get("cat") == "nvtx"][:6]
print("first NVTX ranges:", nv)
PY
fi
if has sass; then
    stamp "SASS"
    make sass >"$W/logs/sass.log" 2>&1
    for f in build/sass/*.sass; do
        echo "$(basename $f): FFMA $(grep -c FFMA $f) LDS.128 $(grep -c 'LDS.128' $f) LDS $(grep -c 'LDS' $f) LDG.E.128 $(grep -c 'LDG.E.128' $f) LDGSTS $(grep -c LDGSTS $f) LDL/STL $(grep -cE 'LDL|STL' $f) HGMMA $(grep -c HGMMA $f)"
    done | tee "$W/logs/sass_summary.txt"
    cp -r build/sass "$W/"
fi
if has cost; then
    stamp "cost of counters: gemmprof's counter phase against ncu, same metrics"
    metrics=$(build/gemmprof --list-metrics | awk 'NR > 1 && $2 == "yes" {print $1}' | paste -sd, -)
    t0=$SECONDS
    timeout 200 build/gemmprof --no-ceilings --no-report --no-counters -r 1 -w 0 -o "$W/cost_plain" >"$W/logs/cost_plain.log" 2>&1
    t_plain=$((SECONDS - t0)); t0=$SECONDS
    gemm_kernels=$(sh -c '. tests/gpu/lib.sh; printf %s "$GEMM_KERNELS"')
    timeout 400 ncu --clock-control none --metrics "$metrics" --kernel-name regex:"$gemm_kernels" \
        --csv --page raw --log-file "$W/logs/cost_ncu.csv" \
        build/gemmprof --no-ceilings --no-report --no-counters -r 1 -w 0 -o "$W/cost_ncu" >"$W/logs/cost_ncu.log" 2>&1
    t_ncu=$((SECONDS - t0))
    nk=$(python3 tests/gpu/ncu_csv.py kernels "$W/logs/cost_ncu.csv" | wc -l)
    echo "plain run ${t_plain} s; under ncu ${t_ncu} s profiling $nk kernels: ncu adds $((t_ncu - t_plain)) s" | tee "$W/logs/cost.txt"
    grep "counter phase" "$W/logs/run1.log" | tee -a "$W/logs/cost.txt"
fi
if has sessions; then
    # GEMMPROF_COUNTER_SESSIONS: the default sweep twice per mode, alternating (about 2.5 min)
    stamp "counter sessions per shape against per run"
    for i in 1 2; do
        for mode in shape run; do
            GEMMPROF_COUNTER_SESSIONS=$mode timeout 150 build/gemmprof --no-ceilings --no-report \
                -o "$W/sess_${mode}$i" >"$W/logs/sess_${mode}$i.log" 2>&1
            echo "$mode $i: exit $?; $(grep -E '^counter phase:' "$W/logs/sess_${mode}$i.log")"
            grep -E "launch facts:|session cannot|as a batch|warning" "$W/logs/sess_${mode}$i.log" | head -5
        done
    done
    python3 - "$W" <<'PY' | tee "$W/logs/sessions.txt"
import csv, statistics as st, sys
runs = {d: list(csv.DictReader(open(f"{sys.argv[1]}/sess_{d}/results.csv"))) for d in ("shape1", "shape2", "run1", "run2")}
key = lambda r: (r["variant"], r["m"], r["n"], r["k"])
rows = {d: {key(r): r for r in v} for d, v in runs.items()}
first = key(runs["shape1"][0])[1:]
t = lambda d, k: float(rows[d][k]["time_median_s"] or "nan")
def ratios(a, b, later):   # a's median time over b's, rows of 100 us and more
    return [t(a, k) / t(b, k) - 1 for k in rows["shape1"] if (k[1:] != first) == later
            and all(k in rows[d] for d in rows) and t(b, k) > 100e-6]
for later, what in ((False, "first shape (no session open while timed in either mode)"), (True, "later shapes")):
    print(what)
    for a, b in (("shape2", "shape1"), ("run2", "run1"), ("run1", "shape1"), ("run2", "shape2")):
        x = ratios(a, b, later)
        if x:
            print(f"  {a}/{b}: {len(x)} rows, median {100*st.median(x):+.2f}%, worst {100*max(x, key=abs):+.2f}%")
# the byte counters: one session for all metrics (run) against two (shape), beside the
# run-to-run noise of each mode
for col in ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum"):
    def rel(a, b):
        x = [float(rows[a][k][col]) / float(rows[b][k][col]) - 1 for k in rows["shape1"]
             if k in rows[a] and k in rows[b] and rows[a][k][col] and rows[b][k][col] and float(rows[b][k][col]) > 1e6]
        return f"median {100*st.median(x):+.2f}% worst {100*max(x, key=abs):+.2f}%" if x else "-"
    print(f"{col}: shape2/shape1 {rel('shape2', 'shape1')}; run2/run1 {rel('run2', 'run1')}; run1/shape1 {rel('run1', 'shape1')}; run2/shape2 {rel('run2', 'shape2')}")
sass = [c for c in runs["shape1"][0] if c.startswith("smsp__sass_")]
diff = [(k[0], c) for k in rows["shape1"] for c in sass if k in rows["run1"] and rows["shape1"][k][c] != rows["run1"][k][c]]
print(f"SASS-instrumented counts differing between shape1 and run1: {len(diff)} {diff[:5]}")
for d in rows:
    print(f"{d}: {len(rows[d])} rows, {sum(1 for r in runs[d] if r['launch_kernel'])} with launch facts, "
          f"{sum(1 for r in runs[d] if r['dram__bytes_read.sum'])} with counters")
PY
fi
if has sol; then
    stamp "ncu SpeedOfLight + memory workload for naive, tiled, cublas at 2048"
    for v in naive tiled cublas cublas_tf32; do
        ncu --nvtx --nvtx-include "gemmprof@$v 2048x2048x2048/" --launch-count 1 --clock-control none \
            --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
            --metrics smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed \
            --log-file "$W/logs/ncu_sol_$v.txt" \
            build/gemmprof -k "$v" -s 2048 -r 1 -w 0 --no-counters --no-ceilings --no-report -o "$W/sol$v" >/dev/null 2>&1
    done
    for v in naive tiled cublas cublas_tf32; do
        echo "-- $v"
        grep -h -E "^\s+(Memory Throughput|DRAM Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|Duration|Compute \(SM\) Throughput|Mem Busy|Max Bandwidth|Mem Pipes Busy|Issue Slots Busy|smsp__warp_issue_stalled|l1tex__throughput|lts__throughput)" "$W/logs/ncu_sol_$v.txt" | head -16
    done
fi
if has insight; then
    # the stall metrics: gemmprof's option where it has one, else -m with its default set
    # plus what the launch comparison needs (stalls, occupancy, issue slots), from --list-metrics
    if build/gemmprof --help 2>&1 | grep -q -- '--stalls'; then
        stallopt=(--stalls)
    else
        m=$({ build/gemmprof --list-metrics | awk 'NR > 1 && $2 == "yes" {print $1}'
              build/gemmprof --list-metrics | python3 tests/gpu/ncu_launch_compare.py --pick-metrics | tr , '\n'
            } | awk 'NF && !seen[$0]++' | paste -sd, -)
        stallopt=(-m "$m")
    fi
    echo "stall metrics by: ${stallopt[*]}" | cut -c1-200 | tee "$W/logs/insight.txt"
    for sweep in default extra; do
        sizes=(); [ $sweep = extra ] && sizes=(-s 512,1024,1000x1500x700,8192x64x4096)
        stamp "insight: $sweep sweep ${sizes[*]} -> $W/insight_$sweep"
        t0=$SECONDS
        timeout 150 build/gemmprof "${stallopt[@]}" "${sizes[@]}" --out "$W/insight_$sweep" \
            >"$W/logs/insight_$sweep.log" 2>&1
        echo "exit $? after $((SECONDS - t0)) s" >>"$W/logs/insight_$sweep.log"
        { echo "-- $sweep"; grep -E "counter phase|passes" "$W/logs/insight_$sweep.log"; tail -1 "$W/logs/insight_$sweep.log"; } |
            tee -a "$W/logs/insight.txt"
    done
    stamp "insight: launch facts, occupancy, issue and stalls against ncu (test_ncu_launch.sh)"
    t0=$SECONDS
    timeout 240 sh tests/gpu/test_ncu_launch.sh build >"$W/logs/ncu-launch.log" 2>&1
    echo "exit $? after $((SECONDS - t0)) s" >>"$W/logs/ncu-launch.log"
    grep -E "^(FAIL|skip) - |MISMATCH|^  (gemmprof|ncu|launch comparison):|^exit " "$W/logs/ncu-launch.log" | head -60 |
        tee -a "$W/logs/insight.txt"
    echo "$(grep -c '^ok - ' "$W/logs/ncu-launch.log") ok, $(grep -c '^FAIL - ' "$W/logs/ncu-launch.log") FAIL, $(grep -c '^skip - ' "$W/logs/ncu-launch.log") skip" |
        tee -a "$W/logs/insight.txt"
    cp "$W/logs/ncu-launch.log" "$W/logs/insight.txt" "$OUT/" 2>/dev/null
fi
stamp "packing"
tar czf "$OUT/bundle.tgz" -C "$W" . 2>/dev/null
cp "$W/logs/test-gpu.log" "$OUT/" 2>/dev/null
cp "$W/logs/run1.log" "$OUT/" 2>/dev/null
ls -la "$OUT"

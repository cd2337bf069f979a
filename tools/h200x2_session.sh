#!/bin/bash
# Issue 14 on two H200s (device kind nvidia-h200-x2), in one call of about 5 minutes, under
# a real launcher (well inside the 10 minutes of one device command): Open MPI's mpirun from the Debian prefix .mpi/ (tests/gpu/mpi_prefix.sh
# makes it here; the call carries it: carry [".gitrev", ".mpi"]).
#   tools/h200x2_session.sh [steps...]
# steps (default all, in this order):
#   build   make -j32 (GIT_REV from .gitrev, as h200_session.sh)
#   env     nvidia-smi -L and topo, the OS and glibc, mpirun -np 2 printing the ranks
#   warm    measures each GPU's ceilings once (cached per GPU UUID), so that no timed run
#           below pays for them: the wall times compare the sweeps alone
#   single  the default sweep on GPU 0, timed (wall); again for the run-to-run spread
#   shard   mpirun -np 2 gemmprof --shard, timed; gemmprof merge; per row against single
#   fleet   mpirun -np 2 gemmprof --fleet; merge; the report's fleet section
#   slowed  the same with rank 1 slowed on purpose: GEMMPROF_TEST_SLOWDOWN=all:$SLOW_NS
#           (default 1 ms spin after every timed launch, every variant) set in rank 1 only;
#           the report must flag rank 1's GPU SLOW and rank 0's not
#   busy    the same with GPU 1 shared with a bf16 matmul loop (PyTorch, another process)
#           and ceilings remeasured: a slow GPU for a real reason, with whatever evidence
#           the clocks and counters give (skipped when the call is past BUSY_DEADLINE s)
# Every timed run uses --no-report; reports are written after, on the merged data, with
# `gemmprof report` (the device has no gnuplot: charts are not rendered there, and report
# exits 1 for that alone; render them here with `gemmprof plots DIR`).
# Output: $OUT/summary.txt (what stdout shows) and $OUT/h200x2.tgz, which unpacks to
# h200x2/{single,single2,shard,fleet,fleet_slowed,fleet_busy,logs}: each a results directory
# (shard, fleet*: merged, with the rank directories under ranks/), ready for results/h200x2/.
# Without a working mpirun (env prints why) the two ranks are started by hand with
# RANK/WORLD_SIZE/LOCAL_RANK, and every line says so.
set -u
OUT=${OUT:-/tmp/gemmprof-out}
W=$OUT/work
L=$W/logs
SLOW_NS=${SLOW_NS:-1000000}
BUSY_DEADLINE=${BUSY_DEADLINE:-330}
LAUNCH_TIMEOUT=240   # seconds for one launch of two ranks (busy: 150, to end inside 10 minutes)
mkdir -p "$L"
exec > >(tee "$OUT/summary.txt") 2>&1
TEE=$!
steps=${*:-build env warm single shard fleet slowed busy}
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
stamp() { echo "[$(date +%T) +$SECONDS s] $*"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
GP=build/gemmprof

{ [ -f .gitrev ] && echo "working tree: $(cat .gitrev)"; git rev-parse HEAD; git status --short; } >"$L/commit.txt" 2>/dev/null
rev=(); [ -f .gitrev ] && rev=(GIT_REV="$(cat .gitrev)")

if has build; then
    stamp "build: make -j32"
    make -j32 "${rev[@]}" >"$L/build.log" 2>&1 || { tail -30 "$L/build.log"; echo "BUILD FAILED"; }
fi

# mpirun from the prefix; MPI=0 when it cannot start two processes here. The library path
# as it was, for the PyTorch load of step busy (it needs none of the prefix's libraries)
LDLP_SET=${LD_LIBRARY_PATH+1} LDLP=${LD_LIBRARY_PATH-}
MPI=0
echo "no tests/gpu/mpi_env.sh, or no Open MPI under .mpi/" >"$L/mpi_probe.log"
if [ -f tests/gpu/mpi_env.sh ] && . tests/gpu/mpi_env.sh 2>>"$L/mpi_probe.log" &&
    timeout 60 mpirun -np 2 sh -c 'echo "rank $OMPI_COMM_WORLD_RANK of $OMPI_COMM_WORLD_SIZE, local $OMPI_COMM_WORLD_LOCAL_RANK"' \
        >"$L/mpi_probe.log" 2>&1 && [ "$(grep -c '^rank [01] of 2' "$L/mpi_probe.log")" = 2 ]; then
    MPI=1
fi
LAUNCHER=$([ $MPI = 1 ] && echo "mpirun -np 2 (Open MPI, .mpi prefix)" || echo "BY HAND (RANK/WORLD_SIZE/LOCAL_RANK): mpirun did not work")

if has env; then
    stamp "env"
    nvidia-smi -L
    nvidia-smi topo -m >"$L/topo.txt" 2>&1; grep -E "^GPU[01]" "$L/topo.txt" | cut -c1-60
    { nvidia-smi; nvidia-smi -q -d CLOCK; } >"$L/nvidia-smi.txt" 2>&1
    echo "os: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"); $(ldd --version 2>&1 | head -1); $(nproc) cores"
    echo "mpirun: $(command -v mpirun || echo none) $(mpirun --version 2>/dev/null | head -1)"
    sed 's/^/  /' "$L/mpi_probe.log" | head -12
    echo "launcher: $LAUNCHER"
fi

# launch2 TAG ARGS...: build/gemmprof ARGS in two ranks; each rank's exit status goes to
# $L/TAG.log as "rank R: gemmprof exit N" (mpirun's own status does not carry it: see
# mpi_env.sh). SLOW_RANK/SLOW_SPEC set GEMMPROF_TEST_SLOWDOWN in that rank alone.
rank_cmd='r=${OMPI_COMM_WORLD_RANK:-${RANK:-?}}
if [ -n "${SLOW_RANK:-}" ] && [ "$r" = "$SLOW_RANK" ]; then export GEMMPROF_TEST_SLOWDOWN=$SLOW_SPEC; fi
build/gemmprof "$@"; rc=$?
echo "rank $r: gemmprof exit $rc" >&2; exit $rc'
launch2() {
    local tag=$1; shift
    if [ $MPI = 1 ]; then
        timeout $LAUNCH_TIMEOUT mpirun -np 2 --tag-output bash -c "$rank_cmd" rank "$@" >"$L/$tag.log" 2>&1
    else
        local pids=()
        for r in 0 1; do
            RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r timeout $LAUNCH_TIMEOUT bash -c "$rank_cmd" rank "$@" >"$L/$tag.rank$r.log" 2>&1 &
            pids+=($!)
        done
        wait "${pids[@]}"   # by pid: a bare wait would also wait for the tee behind stdout
        cat "$L/$tag.rank0.log" "$L/$tag.rank1.log" >"$L/$tag.log"
    fi
    grep -hE "rank [01]( of 2|: gemmprof exit)|GEMMPROF_TEST_SLOWDOWN" "$L/$tag.log" | sed 's/\[[0-9]*,[01]\]<std...>:/\n/g' | grep -v '^$' | sed 's/^/  /' | cut -c1-150
}
# merge_report TAG: merge $W/TAG_ranks into $W/TAG, write its report; prints merge's line
merge_report() {
    $GP merge "$W/$1" "$W/$1_ranks" >"$L/merge_$1.log" 2>&1
    echo "  merge exit $?: $(tail -1 "$L/merge_$1.log" | cut -c1-140)"
    $GP report "$W/$1" >"$L/report_$1.log" 2>&1
    echo "  report exit $? (1 expected: no gnuplot here): $(grep -h 'report.md' "$L/report_$1.log" | tail -1)"
}
# fleet_section TAG: the report's fleet table and its flags
fleet_section() {
    local md=$W/$1/report.md
    [ -f "$md" ] || { echo "  no report.md"; return; }
    grep -m1 "^Merged by" "$md" | cut -c1-160 | sed 's/^/  /'
    sed -n '/^## Fleet/,/^### Ceilings/p' "$md" | grep -E "^\| |^- \*\*|^No GPU" | cut -c1-220 | sed 's/^/  /'
    sed -n '/^### Ceilings per GPU/,/^Compute ceilings/p' "$md" | grep "^| " | cut -c1-200 | sed 's/^/  /'
}

if has warm; then
    stamp "warm: each GPU's ceilings measured once into the cache (untimed)"
    pids=()
    for d in 0 1; do
        timeout 120 $GP -d $d -k cublas -s 256 -r 1 -w 0 --no-counters --no-report -o "$W/warm$d" >"$L/warm$d.log" 2>&1 &
        pids+=($!)
    done
    wait "${pids[@]}"
    grep -hiE "ceiling" "$L/warm0.log" "$L/warm1.log" | head -4 | cut -c1-150 | sed 's/^/  /'
    rm -rf "$W/warm0" "$W/warm1"
fi

T_SINGLE=""
if has single; then
    stamp "single: $GP -d 0 --no-report --out single (the default sweep, one GPU)"
    t0=$(now)
    timeout 200 $GP -d 0 --no-report --out "$W/single" >"$L/single.log" 2>&1
    rc=$?; T_SINGLE=$(secs "$t0" "$(now)")
    echo "  exit $rc, wall $T_SINGLE s; $(grep -h 'results.csv:' "$L/single.log" | tail -1)"
    stamp "single2: the same again, for the run-to-run spread"
    t0=$(now)
    timeout 200 $GP -d 0 --no-report --out "$W/single2" >"$L/single2.log" 2>&1
    rc=$?; echo "  exit $rc, wall $(secs "$t0" "$(now)") s"
fi

if has shard; then
    stamp "shard: $LAUNCHER $GP --shard --no-report"
    t0=$(now)
    launch2 shard --shard --no-report --out "$W/shard_ranks"
    T_SHARD=$(secs "$t0" "$(now)")
    echo "  wall $T_SHARD s against one GPU's ${T_SINGLE:-?} s: speedup $(awk -v a="${T_SINGLE:-0}" -v b="$T_SHARD" 'BEGIN { printf (a > 0 && b > 0) ? "%.2fx" : "?", a / b }')"
    merge_report shard
    grep -m1 "^Merged by" "$W/shard/report.md" 2>/dev/null | cut -c1-160 | sed 's/^/  /'
    # Per row, merged shard against the first single run (GPU 0). The row's band is the
    # largest of 1% (gemmprof compare's threshold: processes vary more than repetitions),
    # the run-to-run difference (single2 against single, same GPU) and both rows' own
    # min-max spread over their timed repetitions; "within" when |shard/single - 1| lies
    # inside it. Rank 1's rows ran on the other GPU: the medians by rank show that offset.
    # gemmprof compare's verdicts (disjoint intervals and over 1%) follow.
    [ -f "$W/single/results.csv" ] || echo "  no single run to compare with (step single not run or failed)"
    [ -f "$W/single/results.csv" ] && python3 - "$W/single/results.csv" "$W/single2/results.csv" "$W/shard/results.csv" <<'PY' | tee "$L/shard_vs_single.txt"
import csv, sys
def load(p):
    try:
        return {(r["variant"], r["m"], r["n"], r["k"]): r for r in csv.DictReader(open(p))}
    except OSError as e:
        print(f"  cannot read {p}: {e}"); return {}
a, b, s = (load(p) for p in sys.argv[1:4])
f = lambda r, c: float(r[c]) if r.get(c) else float("nan")
print(f"  {'variant':13s} {'shape':14s} {'single ms':>10s} {'shard ms':>10s} rk {'shard/sgl':>9s} {'rerun/sgl':>9s} {'band':>6s}")
inside = n = 0; worst = 0.0; by_rank = {}; rerun = []
med = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
for key, ra in a.items():
    rs, rb = s.get(key), b.get(key)
    if not rs or ra["status"] != "ok" or rs["status"] != "ok":
        print(f"  {key[0]:13s} {key[1]}x{key[2]}x{key[3]:6s} missing or failed in shard"); continue
    ta, ts = f(ra, "time_median_s"), f(rs, "time_median_s")
    rr = f(rb, "time_median_s") / ta - 1 if rb else float("nan")
    band = max(0.01, abs(rr) if rr == rr else 0, f(ra, "time_spread"), f(rs, "time_spread"))
    d = ts / ta - 1; n += 1; ok = abs(d) <= band; inside += ok; worst = max(worst, abs(d))
    by_rank.setdefault(rs.get("rank", "?"), []).append(abs(d))
    if rr == rr: rerun.append(abs(rr))
    print(f"  {key[0]:13s} {key[1]}x{key[2]}x{key[3]:6s} {ta*1e3:10.4f} {ts*1e3:10.4f} {rs.get('rank','?'):>2s} "
          f"{d*100:+8.2f}% {rr*100:+8.2f}% {band*100:5.2f}%{'' if ok else '  <-- outside'}")
print(f"  shard vs single: {inside} of {n} rows within their band; largest difference {worst*100:.2f}%; "
      f"rows: single {len(a)}, single2 {len(b)}, shard {len(s)}")
print("  median |difference|: single2 vs single " + f"{med(rerun)*100:.2f}%" +
      "".join(f"; shard rank {k} (GPU {k}) vs single {med(v)*100:.2f}% over {len(v)} rows" for k, v in sorted(by_rank.items())))
PY
    [ -f "$W/single/results.csv" ] && $GP compare "$W/single" "$W/single2" --out "$L/compare_single_single2.md" >/dev/null 2>&1
    echo "  compare single single2: exit $? ($(grep -hs 'rows in both' "$L/compare_single_single2.md" | cut -c1-120))"
    [ -f "$W/single/results.csv" ] && $GP compare "$W/single" "$W/shard" --out "$L/compare_single_shard.md" >/dev/null 2>&1
    echo "  compare single shard:   exit $? ($(grep -hs 'rows in both' "$L/compare_single_shard.md" | cut -c1-120))"
fi

if has fleet; then
    stamp "fleet: $LAUNCHER $GP --fleet --no-report"
    t0=$(now)
    launch2 fleet --fleet --no-report --out "$W/fleet_ranks"
    echo "  wall $(secs "$t0" "$(now)") s"
    merge_report fleet
    fleet_section fleet
fi

if has slowed; then
    stamp "fleet_slowed: rank 1 with GEMMPROF_TEST_SLOWDOWN=all:$SLOW_NS (a spin after every timed launch)"
    SLOW_RANK=1 SLOW_SPEC=all:$SLOW_NS launch2 fleet_slowed --fleet --no-report --out "$W/fleet_slowed_ranks"
    merge_report fleet_slowed
    fleet_section fleet_slowed
    md=$W/fleet_slowed/report.md
    slow_rows=$(grep -cE '^\| .*\*\*SLOW\*\*' "$md" 2>/dev/null)
    r1_slow=$(grep -E '^\| .*\*\*SLOW\*\*' "$md" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $3); print $3}')
    if [ "$slow_rows" = 1 ] && [ "$r1_slow" = 1 ]; then echo "  ok - the fleet report flags rank 1's GPU SLOW, and only it"
    else echo "  FAIL - expected rank 1 alone flagged SLOW; flagged rows: ${slow_rows:-none}, ranks: ${r1_slow:-none}"; fi
    [ -d "$W/fleet_slowed" ] && printf 'fleet_slowed: rank 1 ran with GEMMPROF_TEST_SLOWDOWN=all:%s (a %s ns spin after every timed\nlaunch of every variant, inside its events); rank 0 ran unchanged. Launcher: %s.\n' \
        "$SLOW_NS" "$SLOW_NS" "$LAUNCHER" >"$W/fleet_slowed/NOTE.txt"
fi

if has busy; then
    if [ $SECONDS -gt "$BUSY_DEADLINE" ]; then
        stamp "busy: skipped ($SECONDS s into the call, past BUSY_DEADLINE=$BUSY_DEADLINE)"
    else
        stamp "fleet_busy: GPU 1 shared with a bf16 matmul loop in another process; ceilings remeasured"
        rm -f "$W/busy.ready" "$W/busy.stop"
        ( if [ -n "$LDLP_SET" ]; then export LD_LIBRARY_PATH=$LDLP; else unset LD_LIBRARY_PATH; fi
          CUDA_VISIBLE_DEVICES=1 exec timeout 200 python3 - "$W/busy.ready" "$W/busy.stop" ) >"$L/busy_load.log" 2>&1 <<'PY' &
import os, sys, time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16); c = torch.empty_like(a)
for _ in range(3): torch.mm(a, a, out=c)
torch.cuda.synchronize(); open(sys.argv[1], "w").close()
n, t0 = 0, time.time()
while not os.path.exists(sys.argv[2]):
    for _ in range(20): torch.mm(a, a, out=c)
    torch.cuda.synchronize(); n += 20
dt = time.time() - t0
print(f"load: {n} products of 8192^3 bf16 in {dt:.1f} s, {2 * 8192**3 * n / dt / 1e12:.0f} TFLOP/s while shared")
PY
        load=$!
        for i in $(seq 120); do [ -f "$W/busy.ready" ] || ! kill -0 $load 2>/dev/null && break; sleep 0.5; done
        if [ -f "$W/busy.ready" ]; then
            LAUNCH_TIMEOUT=150 launch2 fleet_busy --fleet --no-report --remeasure-ceilings --out "$W/fleet_busy_ranks"
        else
            echo "  the load did not start (skipped):"; tail -2 "$L/busy_load.log" | sed 's/^/    /'
        fi
        touch "$W/busy.stop"; wait $load
        [ -f "$W/busy.ready" ] && sed 's/^/  /' "$L/busy_load.log" | tail -1
        [ -d "$W/fleet_busy_ranks" ] && merge_report fleet_busy && fleet_section fleet_busy
        [ -d "$W/fleet_busy" ] && printf 'fleet_busy: GPU 1 (rank 1) was shared with another process running bf16 8192^3 matrix\nproducts (PyTorch) for the whole run; --remeasure-ceilings on both ranks. Launcher: %s.\n' \
            "$LAUNCHER" >"$W/fleet_busy/NOTE.txt"
    fi
fi

stamp "packing $OUT/h200x2.tgz"
P=$W/pack/h200x2
mkdir -p "$P"
for d in single single2 shard fleet fleet_slowed fleet_busy; do
    [ -d "$W/$d" ] || continue
    cp -r "$W/$d" "$P/$d"
    [ -d "$W/${d}_ranks" ] && cp -r "$W/${d}_ranks" "$P/$d/ranks"
done
cp -r "$L" "$P/logs"
tar czf "$OUT/h200x2.tgz" -C "$W/pack" h200x2
rm -rf "$W"
ls -la "$OUT"
exec >&- 2>&-   # let tee see the end and finish summary.txt before the call returns
wait $TEE

#!/bin/sh
# The sweep under a user's hands on a real GPU: a signal while timing and while the
# counter phase runs leaves whole rows, no temporary or lock file, exit 128+signal, and
# a CUPTI that still works afterwards; a second run into the same directory is refused
# while the first writes; --device beyond the GPUs is bad input (exit 2, one line); the
# tuner stopped through `timeout` or killed keeps the plans it measured in tune.csv.
. tests/gpu/lib.sh
need_gpu "signals, lock and device index on the GPU" || exit 0

# whole rows: every line has the header's field count, and no temporary files remain
whole_rows() {   # DIR -> prints the row count; exit 1 if anything is off
    python3 - "$1" <<'PY'
import csv, os, sys
d = sys.argv[1]
left = [f for f in os.listdir(d) if f.startswith(".results.csv") or f == ".gemmprof.lock"]
with open(os.path.join(d, "results.csv"), newline="") as f:
    rows = list(csv.reader(f))
bad = [i for i, r in enumerate(rows) if len(r) != len(rows[0])]
print(len(rows) - 1)
sys.exit(1 if bad or left or len(rows) < 2 else 0)
PY
}

# waits (up to $2 s) until file $1 contains $3
wait_for() {
    i=0
    while [ $i -lt $(($2 * 10)) ]; do
        grep -q "$3" "$1" 2>/dev/null && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}

# 1. SIGINT while timing: the first row is written, later variants are being timed
$GEMMPROF -k naive,tiled,blocktile_1d,blocktile_2d,vectorized,warptile -s 4096 -r 200 \
    --no-counters --no-ceilings --no-report -o "$TMP/int" >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
if wait_for "$TMP/int.out" 60 "^ *naive"; then
    sleep 0.5; kill -INT $pid
fi
wait $pid; rc=$?
n=$(whole_rows "$TMP/int") && ok_rows=1 || ok_rows=0
if [ $rc -eq 130 ] && [ "$ok_rows" = 1 ] && [ "$n" -ge 1 ] && [ "$n" -lt 6 ] && grep -q "stopped by SIGINT" "$TMP/int.err"; then
    ok "SIGINT while timing: exit 130, $n whole rows kept, no temporary file: $(grep 'stopped by' "$TMP/int.err")"
else
    cat "$TMP/int.out" "$TMP/int.err"; fail "SIGINT while timing (exit $rc, rows $n, whole $ok_rows)"
fi

# 2. SIGTERM while the counter phase runs (its progress line says when it starts)
$GEMMPROF -k naive,tiled,blocktile_1d,warptile,cublas -s 1024,4096 -r 3 --no-ceilings --no-report \
    -o "$TMP/term" >"$TMP/term.out" 2>"$TMP/term.err" &
pid=$!
if wait_for "$TMP/term.err" 90 "4096x4096x4096: counters"; then
    sleep 0.3; kill -TERM $pid
fi
wait $pid; rc=$?
n=$(whole_rows "$TMP/term") && ok_rows=1 || ok_rows=0
if [ $rc -eq 143 ] && [ "$ok_rows" = 1 ] && [ "$n" -ge 5 ] && grep -q "stopped by SIGTERM" "$TMP/term.err"; then
    ok "SIGTERM in the counter phase: exit 143, $n whole rows kept, no temporary or lock file"
else
    cat "$TMP/term.out" "$TMP/term.err"; fail "SIGTERM in the counter phase (exit $rc, rows $n, whole $ok_rows)"
fi
# the CUPTI session was ended: a new run collects counters
if $GEMMPROF -k naive -s 256 -r 2 --no-ceilings --no-report -o "$TMP/after" >"$TMP/after.log" 2>&1 &&
   grep -q "replay pass" "$TMP/after.log"; then
    ok "counters work in the next run: $(grep 'replay pass' "$TMP/after.log")"
else
    cat "$TMP/after.log"; fail "counters after an interrupted counter phase"
fi

# 3. two runs into one directory: the second is refused while the first writes
$GEMMPROF -k naive -s 4096 -r 100 --no-counters --no-ceilings --no-report -o "$TMP/lock" >"$TMP/lock1.log" 2>&1 &
pid=$!
wait_for "$TMP/lock1.log" 60 "inputs and the fp64 reference"
$GEMMPROF -k naive -s 256 --no-counters --no-ceilings --no-report -o "$TMP/lock" >"$TMP/lock2.log" 2>&1
rc2=$?
wait $pid; rc1=$?
if [ $rc2 -eq 2 ] && [ "$(wc -l <"$TMP/lock2.log")" -eq 1 ] && grep -q "another gemmprof run (pid $pid)" "$TMP/lock2.log" &&
   [ $rc1 -eq 0 ] && [ "$(whole_rows "$TMP/lock")" = 1 ]; then
    ok "a second run into a busy directory is refused: $(cat "$TMP/lock2.log"); the first completes"
else
    cat "$TMP/lock1.log" "$TMP/lock2.log"; fail "lock (second exit $rc2, first exit $rc1)"
fi

# 4. --device beyond the GPUs: bad input, one line, no report attempt
$GEMMPROF -d 7 -s 64 -o "$TMP/dev" >"$TMP/dev.out" 2>"$TMP/dev.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/dev.err")" -eq 1 ] && grep -q -- "--device 7" "$TMP/dev.err" && [ ! -e "$TMP/dev" ]; then
    ok "-d 7: exit 2, one line: $(cat "$TMP/dev.err")"
else
    cat "$TMP/dev.out" "$TMP/dev.err"; fail "-d 7 (exit $rc)"
fi

# 5. the tuner under `timeout`, which signals its child and then its whole process group: one
# stop request, not a stop at once, and tune.csv keeps the plans measured so far
whole_tune() {   # FILE -> prints its plan rows; exit 1 unless every row is whole and there is one
    python3 - "$1" <<'PY'
import csv, sys
try:
    rows = list(csv.reader(open(sys.argv[1], newline="")))
except OSError:
    rows = []
print(max(len(rows) - 1, 0))
sys.exit(0 if len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows) else 1)
PY
}
timeout 300 $GEMMPROF --tune 2048 --no-counters -o "$TMP/tune" >"$TMP/tune.out" 2>"$TMP/tune.err" &
pid=$!
if wait_for "$TMP/tune.err" 90 "tune 3/"; then
    kill -TERM $pid
fi
wait $pid; rc=$?
n=$(whole_tune "$TMP/tune/tune.csv") && ok_rows=1 || ok_rows=0
if [ $rc -ne 0 ] && [ "$ok_rows" = 1 ] && [ "$n" -ge 3 ] && ! grep -q "stopped at once" "$TMP/tune.err" &&
   grep -q "tune.csv: $n simt_auto plan" "$TMP/tune.err"; then
    ok "--tune stopped through timeout: exit $rc, one stop request, tune.csv with the $n plans measured"
else
    cat "$TMP/tune.err"; fail "--tune stopped through timeout (exit $rc, rows $n, whole $ok_rows)"
fi

# 6. the tuner killed outright (SIGKILL): tune.csv holds every plan measured before it
$GEMMPROF --tune 2048 --no-counters -o "$TMP/tunekill" >"$TMP/tunekill.out" 2>"$TMP/tunekill.err" &
pid=$!
if wait_for "$TMP/tunekill.err" 90 "tune 5/"; then
    kill -KILL $pid
fi
wait $pid; rc=$?
n=$(whole_tune "$TMP/tunekill/tune.csv") && ok_rows=1 || ok_rows=0
if [ $rc -eq 137 ] && [ "$ok_rows" = 1 ] && [ "$n" -ge 4 ]; then
    ok "--tune killed (SIGKILL) at its fifth plan: tune.csv keeps $n whole plan rows"
else
    cat "$TMP/tunekill.err"; fail "--tune killed (exit $rc, rows $n, whole $ok_rows)"
fi

#!/bin/sh
# The hostile-input repros of issue 9 through the built gemmprof (`report` and `plots`
# load a results directory with the readers under test): a FIFO or /dev/zero where a
# file belongs must end at once with a one-line reason, and an unreadable directory must
# say Permission denied. The reader-level battery is tests/test_hostile.c.
cd "$(dirname "$0")/../.." || exit 1
gp=${BUILD:-build}/gemmprof
[ -x "$gp" ] || { echo "FAIL - $gp not built"; exit 1; }
command -v timeout >/dev/null 2>&1 || { echo "skip - gemmprof on hostile inputs: timeout(1) not found"; exit 0; }
T=$(mktemp -d)
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
chmod 755 "$T"

# run NAME CMD...: runs under a 10 s limit, output in $T/NAME.out, status in $rc
run() {
    name=$1; shift
    timeout 10 "$@" >"$T/$name.out" 2>&1
    rc=$?
}

d=$T/fifo
mkdir "$d"
cp tests/data/report_minimal/results.csv "$d/"
mkfifo "$d/results.json" "$d/ceilings.csv"
run fifo "$gp" report "$d" --no-plots
if [ "$rc" -eq 124 ]; then
    echo "FAIL - report with FIFO results.json and ceilings.csv hung (killed after 10 s)"
elif grep -q 'FIFO' "$T/fifo.out"; then
    echo "ok - report with FIFO results.json and ceilings.csv ends at once (exit $rc) and says FIFO"
else
    echo "FAIL - report with FIFO sidecars: exit $rc, no mention of the FIFO: $(head -c 300 "$T/fifo.out")"
fi

d=$T/zero
mkdir "$d"
cp tests/data/report_minimal/results.csv "$d/"
ln -s /dev/zero "$d/ceilings.csv"
# 1 GiB of address space is far more than the report needs and far less than /dev/zero
run zero sh -c "ulimit -v 1048576 2>/dev/null; exec '$gp' report '$d' --no-plots"
if [ "$rc" -eq 124 ]; then
    echo "FAIL - report with ceilings.csv -> /dev/zero hung (killed after 10 s)"
elif grep -q 'character device' "$T/zero.out"; then
    echo "ok - report with ceilings.csv -> /dev/zero refuses it at once (exit $rc): $(grep -m1 'character device' "$T/zero.out" | cut -c1-160)"
else
    echo "FAIL - report with ceilings.csv -> /dev/zero: exit $rc: $(head -c 300 "$T/zero.out")"
fi

d=$T/fifocsv
mkdir "$d"
mkfifo "$d/results.csv"
run fifocsv "$gp" report "$d" --no-plots
if [ "$rc" -ne 124 ] && [ "$rc" -ne 0 ] && [ "$(wc -l <"$T/fifocsv.out")" -eq 1 ] && grep -q 'FIFO' "$T/fifocsv.out"; then
    echo "ok - report of a FIFO results.csv fails at once with one line: $(cat "$T/fifocsv.out")"
else
    echo "FAIL - report of a FIFO results.csv: exit $rc: $(head -c 300 "$T/fifocsv.out")"
fi

# an unreadable directory: as root chmod denies nothing, so drop to nobody when we can
d=$T/locked
mkdir "$d"
cp tests/data/report_minimal/results.csv "$d/"
chmod 000 "$d"
as=
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
        as="setpriv --reuid=65534 --regid=65534 --clear-groups"
    else
        echo "skip - report of a chmod 000 directory: running as root, where chmod denies nothing, and setpriv cannot drop privileges"
        exit 0
    fi
fi
run locked $as "$gp" report "$d" --no-plots
if [ "$rc" -ne 0 ] && grep -q 'Permission denied' "$T/locked.out" && ! grep -q 'has no results.csv' "$T/locked.out"; then
    echo "ok - report of a chmod 000 directory says Permission denied${as:+ (as uid 65534)}: $(head -1 "$T/locked.out")"
else
    echo "FAIL - report of a chmod 000 directory: exit $rc: $(head -c 300 "$T/locked.out")"
fi

# Denormal values in the sidecars (an L2 of 1e-310 bytes, a ceiling of 1e-300 byte/s):
# the summary's 3-digit formatter once turned them into (int)NaN. The plain build prints
# the same either way, so the UBSan-built fuzz target (make fuzz) replays both when it is
# there; the summary itself must still come out whole.
d=$T/denormal
mkdir "$d"
cp tests/data/h200_recorded/results.csv "$d/"
sed 's/"l2_bytes": 62914560/"l2_bytes": 1e-310/' tests/data/h200_recorded/results.json >"$d/results.json"
sed 's#^l1,L1,byte/s,31327828900000,33454080000000#l1,L1,byte/s,1e-300,#' tests/data/h200_recorded/ceilings.csv >"$d/ceilings.csv"
run denormal "$gp" report "$d" --summary
if [ "$rc" -eq 0 ] && grep -q 'L2 1.00e-316 MB' "$T/denormal.out" && grep -q 'L1 1.00e-312 TB/s' "$T/denormal.out" &&
   ! grep -qi 'nan\|inf ' "$T/denormal.out"; then
    echo "ok - --summary with a 1e-310 L2 size and a 1e-300 ceiling prints them in e-notation (exit 0)"
else
    echo "FAIL - --summary on denormal values: exit $rc: $(grep -m2 'L2 \|L1 ' "$T/denormal.out" | cut -c1-200)"
fi
fz=${BUILD:-build}/fuzz/fuzz_summary
if [ -x "$fz" ]; then
    for c in l2 ceiling; do
        { cat "$d/results.csv"; printf '\0'
          if [ $c = l2 ]; then cat "$d/results.json"; else cat results/h200/results.json; fi; printf '\0'
          if [ $c = ceiling ]; then cat "$d/ceilings.csv"; else cat results/h200/ceilings.csv; fi; } >"$T/in_$c"
        run "fz_$c" "$fz" "$T/in_$c"
        if [ "$rc" -eq 0 ] && ! grep -q 'runtime error' "$T/fz_$c.out"; then
            echo "ok - fuzz_summary (ASan+UBSan) replays the denormal $c case cleanly"
        else
            echo "FAIL - fuzz_summary on the denormal $c case: $(grep -m1 'runtime error' "$T/fz_$c.out" | cut -c1-200)"
        fi
    done
else
    echo "skip - $fz not built (make fuzz): the denormal cases under UBSan"
fi

# A ceilings.csv of another GPU: one warning line on stderr naming both GPUs, and the
# ceilings kept out unless --ceilings-any-gpu.
d=$T/othergpu
mkdir "$d"
cp results/h200/results.csv results/h200/results.json "$d/"
sed 's/,NVIDIA H200,/,NVIDIA A100-SXM4-80GB,/' tests/data/h200_recorded/ceilings.csv >"$d/ceilings.csv"
run othergpu "$gp" report "$d" --no-plots --out "$T/othergpu.md"
w=$(grep -c 'warning: ceilings.csv was measured on NVIDIA A100-SXM4-80GB, the results on NVIDIA H200: its ceilings are left out' "$T/othergpu.out")
if [ "$rc" -eq 0 ] && [ "$w" -eq 1 ] && ! grep -q 'Binding level:' "$T/othergpu.md"; then
    echo "ok - report with an A100's ceilings.csv: one stderr line naming both GPUs, no bound from them"
else
    echo "FAIL - report with an A100's ceilings.csv: exit $rc, $w warning lines: $(head -c 300 "$T/othergpu.out")"
fi
run othergpu_any "$gp" report "$d" --no-plots --ceilings-any-gpu --out "$T/othergpu_any.md"
if [ "$rc" -eq 0 ] && grep -q 'used anyway (--ceilings-any-gpu)' "$T/othergpu_any.out" &&
   grep -q 'Binding level:' "$T/othergpu_any.md"; then
    echo "ok - --ceilings-any-gpu uses them, still warning"
else
    echo "FAIL - --ceilings-any-gpu: exit $rc: $(head -c 300 "$T/othergpu_any.out")"
fi

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

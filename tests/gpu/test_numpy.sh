#!/bin/sh
# The seed's exercise: every variant at 1024 checked against numpy.dot.
. tests/gpu/lib.sh
need_gpu "numpy.dot check at 1024" || exit 0
if ! python3 -c 'import numpy' 2>/dev/null; then
    skip "numpy.dot check at 1024: python3 has no numpy"; exit 0
fi
$GEMMPROF -s 1024 -r 2 -w 1 --no-counters --no-ceilings --no-report --dump-npy -o "$TMP/np" >"$TMP/log" 2>&1 ||
    { cat "$TMP/log"; fail "gemmprof --dump-npy run"; exit 0; }
python3 tests/gpu/check_npy.py "$TMP/np"

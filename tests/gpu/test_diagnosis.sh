#!/bin/sh
# The diagnosis benchmark (tests/diagnosis/): each case's top finding in gemmprof's default
# run must be the injected cause, and the control's a roof. Each case runs at its shape in
# tests/diagnosis/cases.txt, and the ones at 2048^3 again at 1920x2880x1344 (the rules are
# not tuned to one shape). Each case with a fix (tests/diagnosis/cases.txt) also has the
# speedup its cause is estimated at set against the one its fix measured (check.py --gains).
# ncu's rules on the same launches: tests/gpu/test_ncu_diagnosis.sh.
. tests/gpu/lib.sh
need_gpu "diagnosis benchmark" || exit 0
LIB=$BUILD/tests/diagnosis/libgemmprof_bottlenecks.so
[ -f "$LIB" ] || { fail "diagnosis benchmark: $LIB not built"; exit 0; }
t0=$(date +%s)
NCU=0 sh tests/diagnosis/collect.sh "$BUILD" "$TMP/d" >"$TMP/collect.log" 2>&1
NCU=0 sh tests/diagnosis/collect.sh "$BUILD" "$TMP/gen" 1920x2880x1344 >>"$TMP/collect.log" 2>&1
sed 's/^/  /' "$TMP/collect.log"
dirs=$(ls -d "$TMP"/d/g_*/ | sed "s:/$::" | paste -sd, -)
python3 tests/diagnosis/check.py "$GEMMPROF" tests/diagnosis/cases.txt "$dirs" --gains
grep ' 2048x2048x2048\( \|$\)' tests/diagnosis/cases.txt | grep -v ' none ' >"$TMP/cases_gen.txt"
echo "  the 2048^3 cases at 1920x2880x1344:"
python3 tests/diagnosis/check.py "$GEMMPROF" "$TMP/cases_gen.txt" "$TMP/gen/g_1920x2880x1344" --shape-any |
    sed 's/^\(ok\|FAIL\|skip\) - diagnosis of/\1 - diagnosis (other shape) of/'
echo "  diagnosis benchmark: $(($(date +%s) - t0)) s"

#!/bin/sh
# The diagnosis benchmark through ncu's rules beside gemmprof's diagnosis: the table of
# README.md's "Diagnosis" section (case, injected cause, gemmprof's top finding, ncu's top
# rule). gemmprof's verdicts are judged as in test_diagnosis.sh; ncu's are shown, and the
# test checks only that ncu profiled every case and that its rules could be read.
. tests/gpu/lib.sh
need_gpu "diagnosis benchmark against ncu's rules" || exit 0
command -v ncu >/dev/null 2>&1 || { skip "diagnosis benchmark against ncu's rules: ncu not installed"; exit 0; }
t0=$(date +%s)
sh tests/diagnosis/collect.sh "$BUILD" "$TMP/d" >"$TMP/collect.log" 2>&1
sed 's/^/  /' "$TMP/collect.log"
dirs=$(ls -d "$TMP"/d/g_*/ | sed "s:/$::" | paste -sd, -)
args=
for f in "$TMP"/d/ncu_*.txt; do
    s=${f##*/ncu_}; s=${s%.txt}
    names=$(awk -v s="$s" '!/^#/ && NF >= 4 && $4 == s {printf "%s%s", n++ ? "," : "", $2}' tests/diagnosis/cases.txt)
    got=$(python3 tests/diagnosis/ncu_rules.py "$f" "$names" | wc -l)
    want=$(echo "$names" | tr , '\n' | wc -l)
    [ "$got" -eq "$want" ] && ok "ncu's rules read for the $want cases at $s" ||
        fail "ncu's rules at $s: $got kernels read, $want cases"
    args="$args --ncu $f:$names"
done
python3 tests/diagnosis/check.py "$GEMMPROF" tests/diagnosis/cases.txt "$dirs" $args |
    sed 's/^\(ok\|FAIL\|skip\) - diagnosis of/\1 - diagnosis (ncu run) of/'
# DIAG_KEEP=DIR keeps both tools' data (results directories, ncu's pages) for the record
[ -n "${DIAG_KEEP:-}" ] && cp -r "$TMP/d" "$DIAG_KEEP"
echo "  diagnosis against ncu: $(($(date +%s) - t0)) s"

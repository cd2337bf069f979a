#!/bin/sh
# Every variant a chart can name gets a colour and marker pair of its own: plots/common.gp's
# vcolor/vpt pairs for variants 1..KEY_MAX are all distinct (a 17th variant once came out in
# naive's blue filled circle), and KEY_MAX covers the built-in variants (gemmprof --list).
# The same for the family marker classes (filled FP32-accurate, open TF32, cuBLAS strokes):
# every pair of every class distinct from every other, so two variants of different
# families never look alike either. Then, so that each check is known to fail, a copy with
# one marker changed must fail it.
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
command -v gnuplot >/dev/null 2>&1 || { echo "skip - chart styles: gnuplot not installed"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# pairs FILE: "KEY_MAX" then one "colour marker" line per variant 1..KEY_MAX
pairs() {
    gnuplot -e "load '$1'; print KEY_MAX; do for [i = 1:KEY_MAX] { print sprintf('%s %d', vcolor(i), vpt(i)) }" 2>&1
}
# check FILE: prints what is wrong, nothing when all is well
check() {
    out=$(pairs "$1")
    max=$(echo "$out" | head -1)
    dup=$(echo "$out" | tail -n +2 | sort | uniq -d | head -3 | tr '\n' ';')
    n=$(echo "$out" | tail -n +2 | sort -u | wc -l)
    [ -n "$dup" ] && echo "repeated colour and marker pairs: $dup"
    [ "$n" -eq "$max" ] || echo "$n distinct pairs for KEY_MAX=$max"
}

msg=$(check plots/common.gp)
if [ -z "$msg" ]; then
    echo "ok - plots/common.gp: $(pairs plots/common.gp | head -1) variants, each its own colour and marker"
else
    echo "FAIL - plots/common.gp: $msg"
fi
if [ -x "$build/gemmprof" ]; then
    nv=$("$build/gemmprof" --list | awk 'NR > 1' | wc -l)
    max=$(pairs plots/common.gp | head -1)
    if [ "$nv" -le "$max" ]; then
        echo "ok - the $nv built-in variants fit the $max styled legend entries"
    else
        echo "FAIL - $nv built-in variants but only $max styled legend entries (plots/common.gp KEY_MAX)"
    fi
fi
# class_check FILE: the 3 classes x KEY_MAX pairs, all distinct; prints what is wrong
class_check() {
    out=$(gnuplot -e "load '$1'; do for [c = 1:3] { do for [i = 1:KEY_MAX] { print sprintf('%s %d', vcolor(i), vpt_class(c, i)) } }" 2>&1)
    dup=$(echo "$out" | sort | uniq -d | head -3 | tr '\n' ';')
    [ "$(echo "$out" | wc -l)" -ge 3 ] || echo "no pairs printed: $out"
    [ -n "$dup" ] && echo "repeated across the family classes: $dup"
}
msg=$(class_check plots/common.gp)
if [ -z "$msg" ]; then
    echo "ok - plots/common.gp: the three family marker classes share no colour and marker pair"
else
    echo "FAIL - plots/common.gp: $msg"
fi
sed 's/^CLASS_PTS2 = "4 /CLASS_PTS2 = "5 /' plots/common.gp >"$tmp/common.gp"
if [ -n "$(class_check "$tmp/common.gp")" ]; then
    echo "ok - an open class that reuses a filled marker is caught"
else
    echo "FAIL - an open class reusing the filled square passed the check"
fi
sed 's/^VARIANT_PTS = "7 5 /VARIANT_PTS = "6 5 /' plots/common.gp >"$tmp/common.gp"
if [ -n "$(check "$tmp/common.gp")" ]; then
    echo "ok - a palette with a repeated pair is caught"
else
    echo "FAIL - a palette whose first marker repeats the ninth passed the check"
fi

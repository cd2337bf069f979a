#!/bin/sh
# Every variant a chart can name gets a colour and marker pair of its own: plots/common.gp's
# vcolor/vpt pairs for variants 1..KEY_MAX are all distinct (a 17th variant once came out in
# naive's blue filled circle), and KEY_MAX covers the built-in variants (gemmprof --list).
# The same for the family marker classes (filled FP32-accurate, open TF32, cuBLAS strokes):
# every pair of every class distinct from every other, so two variants of different
# families never look alike either. Then the charts themselves: the recorded H200 run (25
# variants, 5 families) is rendered and every legend read back from the SVGs, so that no
# chart draws two variants alike and each variant looks the same in every chart (the
# family charts included), and no hierarchical chart's legend is cut short. Then, so that
# each check is known to fail, a copy with one marker changed (or a larger legend font)
# must fail it.
# STYLES_RUN=DIR renders and reads back another run (DIR's results.csv, results.json and
# ceilings.csv) instead of results/h200: every variant of its results.csv must be named
# (the rendered check's own tests stay on results/h200).
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
run=${STYLES_RUN:-results/h200}
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
# variant 12 has variant 1's colour (11 colours) and VARIANT_PTS' twelfth marker, 10
sed 's/^VARIANT_PTS = "7 5 /VARIANT_PTS = "10 5 /' plots/common.gp >"$tmp/common.gp"
if [ -n "$(check "$tmp/common.gp")" ]; then
    echo "ok - a palette with a repeated pair is caught"
else
    echo "FAIL - a palette whose first marker repeats the twelfth passed the check"
fi

# legend_styles DIR: from each SVG in DIR, each variant's legend sample (marker, colour);
# prints the charts that draw two variants alike or a variant unlike itself elsewhere
legend_styles() {
    python3 - "$1" <<'EOF'
import csv, os, re, sys
d = sys.argv[1]
names = {r["variant"] for r in csv.DictReader(open(os.path.join(d, "results.csv")))}
use = re.compile(r"<use xlink:href='#gpPt(\d+)'[^>]*color='rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'")
first = {}
charts = 0
for f in sorted(os.listdir(d)):
    if not f.endswith(".svg"):
        continue
    svg = open(os.path.join(d, f)).read()
    style = {}
    for m in re.finditer(r"<text>([^<]*)</text>", svg):
        u, nxt = use.search(svg, m.end()), svg.find("<text", m.end())
        if m[1] in names and u and (nxt < 0 or u.start() < nxt):
            style[m[1]] = (u[1], u[2], u[3], u[4])
    # a hierarchical chart's legend ends with the ridges of its compute roofs (up to 3,
    # roofline_hier.gp): gnuplot drops the rows of a legend taller than the plot (its
    # second column falls off the canvas)
    if "Hierarchical roofline" in svg:
        roofs = [m[2] for m in re.finditer(r'<g transform="translate\(([0-9.]+),[0-9.]+\)[^>]*>\s*<text[^>]*>([^<]*)</text>', svg)
                 if 98 < float(m[1]) < 1092 and "FLOP/s" in m[2] and "  " in m[2]]
        ridges = len(re.findall(r">[^<]* ridges, FLOP/B:<", svg))
        if ridges < min(3, len(roofs)):
            print(f"{f}: the legend is cut short: the ridges of {ridges} of its {len(roofs)} compute roofs")
    if not style:
        continue
    charts += 1
    by = {}
    for v, st in style.items():
        by.setdefault(st, []).append(v)
        if first.setdefault(v, (f, st))[1] != st:
            print(f"{f}: {v} unlike itself in {first[v][0]}")
    for st, vs in by.items():
        if len(vs) > 1:
            print(f"{f}: {' and '.join(sorted(vs))} drawn alike")
print(f"{charts} charts, {len(first)} variants", file=sys.stderr)
EOF
}
if ! command -v python3 >/dev/null 2>&1 || [ ! -x "$build/gemmprof" ]; then
    echo "skip - the rendered charts' styles: python3 or $build/gemmprof missing"
    exit 0
fi
mkdir "$tmp/r" && cp "$run/results.csv" "$run/results.json" "$run/ceilings.csv" "$tmp/r/"
"$build/gemmprof" plots "$tmp/r" >/dev/null 2>&1
nvar=$(python3 -c 'import csv, sys; print(len({r["variant"] for r in csv.DictReader(open(sys.argv[1]))}))' "$tmp/r/results.csv")
msg=$(legend_styles "$tmp/r" 2>"$tmp/count")
if [ -z "$msg" ] && grep -q ", $nvar variants" "$tmp/count"; then
    echo "ok - $run's charts ($(cat "$tmp/count")): no two variants drawn alike, each the same in every chart"
else
    echo "FAIL - $run's charts ($(cat "$tmp/count"), $nvar in results.csv): $(echo "$msg" | head -3 | tr '\n' ';')"
fi
[ -z "$STYLES_RUN" ] || exit 0   # the rendered check's own tests are on results/h200
# broken SED: the rendered check on the charts drawn with common.gp changed by SED
broken() {
    rm -rf "$tmp/plots" && mkdir "$tmp/plots" && cp plots/*.gp "$tmp/plots/"
    sed -i "$1" "$tmp/plots/common.gp"
    rm -f "$tmp/r"/*.svg
    GEMMPROF_PLOTS="$tmp/plots" "$build/gemmprof" plots "$tmp/r" >/dev/null 2>&1
    legend_styles "$tmp/r" 2>/dev/null
}
# a legend in a larger font holds fewer rows: its last ones, the ridges, must be missed
msg=$(broken 's/^KEY_FIT = 36$/KEY_FIT = 999; set key font ",15"/')
case "$msg" in
*"legend is cut short"*) echo "ok - a legend cut short is caught: $(echo "$msg" | grep -m1 'cut short')" ;;
*) echo "FAIL - a legend too tall for the chart passed the rendered check (${msg:-no report})" ;;
esac
# a palette whose 11 markers cycle with the 11 colours draws variant 16 as variant 5 (both
# filled: vectorized and tf32x3_mma in results/h200)
msg=$(broken 's/^CLASS_PTS1 = "7 5 9 11 13 15"$/CLASS_PTS1 = "7 5 9 11 13 15 7 5 9 11 13"/')
case "$msg" in
*"drawn alike"*) echo "ok - two variants drawn alike in a rendered chart are caught: $(echo "$msg" | head -1)" ;;
*) echo "FAIL - a palette drawing variant 16 as variant 5 passed the rendered check (${msg:-no report})" ;;
esac

#!/bin/sh
# No label inside a chart's plot area is drawn over another label, a line or a marker:
# the charts of the recorded H200 run (19 variants x 4 shapes, results/h200) are rendered
# as SVG and each <text> in the plot area gets a box from its position, rotation, anchor
# and font size (0.6 em a character: DejaVu Sans runs narrower, so a box errs large); a
# box that meets another box, a drawn segment (grid lines aside) or a marker fails, and so
# does one that, as wide as the PNG draws it (plots/common.gp's lb_tw), runs past the
# plot's edge. The legend and the axes' labels lie outside the plot area and are not
# checked. Then, so the check is known to fail, a chart with two labels drawn on one spot, one with a label
# across the kernels' lines and one with a label past the plot's edge must fail it.
# LABELS_RUN=DIR renders and checks another run (DIR's results.csv, results.json and
# ceilings.csv) instead of results/h200, without the check's own tests.
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
run=${LABELS_RUN:-results/h200}
command -v gnuplot >/dev/null 2>&1 || { echo "skip - chart labels: gnuplot not installed"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "skip - chart labels: python3 not installed"; exit 0; }
[ -x "$build/gemmprof" ] || { echo "skip - chart labels: $build/gemmprof not built"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# overlaps SVG...: one line per collision, nothing when every label is clear
overlaps() {
    python3 - "$@" <<'EOF'
import math, re, subprocess, sys
W, H = 1400, 900                           # plots/common.gp CANVAS_W, CANVAS_H
L, R, B, T = 0.07, 0.78, 0.09, 0.89        # plots/common.gp AREA_*
num = r'(-?[0-9.]+)'
for path in sys.argv[1:]:
    svg = open(path).read()
    X0, X1, Y0, Y1 = L * W, R * W, (1 - T) * H, (1 - B) * H
    # the plot area: the border, gnuplot's first closed rectangle (a chart with tic labels
    # under its axis, bytes.svg, has a taller bottom margin than common.gp's)
    rect = re.search(r"d='M" + num + ',' + num + ' L' + num + ',' + num + ' L' + num + ',' + num + ' L' + num + ',' + num +
                     ' L' + num + ',' + num + " Z", svg)
    if rect:
        xs, ys = [float(rect[i]) for i in (1, 3, 5, 7)], [float(rect[i]) for i in (2, 4, 6, 8)]
        X0, X1, Y0, Y1 = min(xs), max(xs), min(ys), max(ys)
    boxes = []   # (text, centre x, centre y, half width, half height, angle)
    texts = []   # (text, anchor x, anchor y, angle, anchor, font size)
    for m in re.finditer(r'<g transform="translate\(' + num + ',' + num + r'\)(?: rotate\(' + num +
                         r'\))?"[^>]*font-size="' + num + r'"[^>]*text-anchor="(\w+)">\s*<text[^>]*>([^<]*)</text>', svg):
        x, y, rot, fs, anchor, text = float(m[1]), float(m[2]), float(m[3] or 0), float(m[4]), m[5], m[6]
        if not (X0 < x < X1 and Y0 < y < Y1) or not text.strip():
            continue
        w, h = 0.6 * fs * len(text), 0.95 * fs
        a = math.radians(rot)
        # the text's centre: along its baseline from the anchor, then up by a third of a line
        along = {'start': w / 2, 'middle': 0, 'end': -w / 2}[anchor]
        cx = x + along * math.cos(a) + 0.33 * fs * math.sin(a)
        cy = y + along * math.sin(a) - 0.33 * fs * math.cos(a)
        boxes.append((text, cx, cy, w / 2 - 1, h / 2 - 1, a))
        texts.append((text, x, y, a, anchor, fs))
    # the PNG's text runs wider: at its width (plots/common.gp's lb_tw, DejaVu Sans' advances)
    # each label must stay inside the plot area
    gp = 'load "plots/common.gp"; set print "-"; ' + '; '.join('print lb_tw("%s", %g)' % (t[0].replace('\\', '\\\\').replace('"', '\\"'), t[5])
                                               for t in texts)
    widths = subprocess.run(['gnuplot', '-e', gp], capture_output=True, text=True).stdout.split() if texts else []
    for (text, x, y, a, anchor, fs), wp in zip(texts, map(float, widths)):
        along = {'start': wp / 2, 'middle': 0, 'end': -wp / 2}[anchor]
        px = x + along * math.cos(a) + 0.33 * fs * math.sin(a)
        py = y + along * math.sin(a) - 0.33 * fs * math.cos(a)
        ext_x = wp / 2 * abs(math.cos(a)) + 0.475 * fs * abs(math.sin(a))
        ext_y = wp / 2 * abs(math.sin(a)) + 0.475 * fs * abs(math.cos(a))
        if px - ext_x < X0 or px + ext_x > X1 or py - ext_y < Y0 or py + ext_y > Y1:
            print(f"{path.rsplit('/', 1)[-1]}: label '{text}' runs past the plot's edge")
    if len(widths) != len(texts):
        print(f"{path.rsplit('/', 1)[-1]}: gnuplot gave {len(widths)} text widths for {len(texts)} labels")
    def local(b, px, py):      # a point in box b's frame
        dx, dy = px - b[1], py - b[2]
        return dx * math.cos(b[5]) + dy * math.sin(b[5]), -dx * math.sin(b[5]) + dy * math.cos(b[5])
    def seg_hits(b, p, q):     # Liang-Barsky in b's frame
        (x0, y0), (x1, y1) = local(b, *p), local(b, *q)
        t0, t1, dx, dy = 0.0, 1.0, x1 - x0, y1 - y0
        for pp, qq in ((-dx, x0 + b[3]), (dx, b[3] - x0), (-dy, y0 + b[4]), (dy, b[4] - y0)):
            if pp == 0:
                if qq < 0: return False
            else:
                t = qq / pp
                if pp < 0: t0 = max(t0, t)
                else: t1 = min(t1, t)
        return t0 <= t1
    def corners(b):
        c, s = math.cos(b[5]), math.sin(b[5])
        return [(b[1] + u * c - v * s, b[2] + u * s + v * c) for u, v in
                ((-b[3], -b[4]), (b[3], -b[4]), (b[3], b[4]), (-b[3], b[4]))]
    def boxes_meet(a, b):      # separating axes of two rectangles
        for r in (a, b):
            for ang in (r[5], r[5] + math.pi / 2):
                ax, ay = math.cos(ang), math.sin(ang)
                pa = [x * ax + y * ay for x, y in corners(a)]
                pb = [x * ax + y * ay for x, y in corners(b)]
                if max(pa) < min(pb) or max(pb) < min(pa):
                    return False
        return True
    segs = []
    for m in re.finditer(r"<path ([^>]*)d='([^']*)'", svg):
        if 'gridline' in m[1] or "stroke='none'" in m[1] or "id='gpPt" in m[1]:
            continue
        pts, cur = [], None
        for cmd, xs, ys in re.findall(r'([ML])\s*' + num + r'\s*,\s*' + num, m[2]):
            p = (float(xs), float(ys))
            if cmd == 'L' and cur:
                segs.append((cur, p))
            cur = p
    marks = [(float(m[1]), float(m[2]), float(m[3])) for m in re.finditer(
        r"<use xlink:href='#gpPt\d+' transform='translate\(" + num + ',' + num + r'\) scale\(' + num + r'\)', svg)]
    name = path.rsplit('/', 1)[-1]
    for i, a in enumerate(boxes):
        for b in boxes[:i]:
            if boxes_meet(a, b):
                print(f"{name}: label '{a[0]}' over label '{b[0]}'")
        for p, q in segs:
            if seg_hits(a, p, q):
                print(f"{name}: label '{a[0]}' crossed by a line ({p[0]:.0f},{p[1]:.0f})-({q[0]:.0f},{q[1]:.0f})")
                break
        for x, y, r in marks:
            u, v = local(a, x, y)
            if abs(u) < a[3] + 0.7 * r and abs(v) < a[4] + 0.7 * r:
                print(f"{name}: label '{a[0]}' over a marker at ({x:.0f},{y:.0f})")
                break
EOF
}

cp "$run/results.csv" "$run/results.json" "$run/ceilings.csv" "$tmp/" || { echo "FAIL - no run to render in $run"; exit 0; }
if ! "$build/gemmprof" plots "$tmp" >"$tmp/log" 2>&1; then
    echo "FAIL - gemmprof plots on $run: $(tail -3 "$tmp/log")"
    exit 0
fi
n=0
for svg in "$tmp"/*.svg; do
    msg=$(overlaps "$svg")
    n=$((n + 1))
    if [ -z "$msg" ]; then
        echo "ok - $run/$(basename "$svg"): no label over another label, a line or a marker"
    else
        echo "FAIL - $run/$(basename "$svg"): $(echo "$msg" | head -5 | tr '\n' ';') ($(echo "$msg" | wc -l) in all)"
    fi
done
[ "$n" -ge 6 ] && echo "ok - $n charts checked" || echo "FAIL - only $n charts rendered from $run"

# the check itself: two labels on one spot, and one across a roof line, must be caught
# (on results/h200, whose charts the planted labels are written for)
[ -z "$LABELS_RUN" ] || exit 0
mkdir "$tmp/plots" && cp plots/*.gp "$tmp/plots/"
sed -i 's/^do for \[FMT in FORMATS\] {$/set label "ridge label" at graph 0.5, 0.5; set label "ridge label 2" at graph 0.52, 0.5\n&/' \
    "$tmp/plots/issue_roofline.gp"
# where the roof labels sat before the placer: the sweep's kernels cross 60 TFLOP/s between 1024 and 2048
sed -i 's/^do for \[FMT in FORMATS\] {$/set label "crossed by kernels" at first 1250, first 60\n&/' "$tmp/plots/sweep.gp"
# a label that starts inside the plot and runs past its right edge
sed -i 's/^do for \[FMT in FORMATS\] {$/set label "a label running past the edge" at graph 0.9, graph 0.03\n&/' \
    "$tmp/plots/roofline_dram.gp"
rm -f "$tmp"/*.svg
GEMMPROF_PLOTS="$tmp/plots" "$build/gemmprof" plots "$tmp" >/dev/null 2>&1
msg=$(overlaps "$tmp/issue_roofline.svg")
case "$msg" in
*"'ridge label 2' over label 'ridge label'"*) echo "ok - two labels drawn on one spot are caught" ;;
*) echo "FAIL - two labels drawn on one spot passed the check (${msg:-no report})" ;;
esac
msg=$(overlaps "$tmp/sweep.svg")
case "$msg" in
*"'crossed by kernels' crossed by a line"*) echo "ok - a label across the kernels' lines is caught" ;;
*) echo "FAIL - a label across the sweep's lines passed the check (${msg:-no report})" ;;
esac
msg=$(overlaps "$tmp/roofline_dram.svg")
case "$msg" in
*"'a label running past the edge' runs past the plot's edge"*) echo "ok - a label past the plot's edge is caught" ;;
*) echo "FAIL - a label past the DRAM roofline's right edge passed the check (${msg:-no report})" ;;
esac

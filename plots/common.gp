# Shared settings for the gemmprof chart scripts; each script loads it first:
#   load DIR."common.gp"
# CSV input read by column name, the colour of each variant, the marker of each
# memory level, number formatting, and the output loop helpers (PNG and SVG).

set datafile separator comma
set datafile columnheaders

# Each variant's colour and marker, keyed by variant_index, the same in every chart.
# Colours: Okabe-Ito without its yellow (unreadable on white), then Paul Tol's wine, teal,
# olive and indigo; distinguishable with the common colour-vision deficiencies. Eleven, prime
# to every marker list's length, so colour and marker repeat together only after 33 variants.
VARIANT_COLORS = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #882255 #44AA99 #999933 #332288"
vcolor(i) = word(VARIANT_COLORS, (int(i) - 1) % words(VARIANT_COLORS) + 1)
# The same colours as numbers, for "lc rgb variable": every variant in one pass over the
# file, so a chart's cost does not grow with the number of variants.
array VARIANT_RGB[11] = [0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000, 0x882255, \
                         0x44AA99, 0x999933, 0x332288]
vrgb(i) = VARIANT_RGB[(int(i) - 1) % 11 + 1]
# Markers: the family (the CSV's family column, gemmprof numbers variants family by
# family) sets the fill, so a family reads as one group at a glance: filled for an
# FP32-accurate result (FP32 SIMT, 3xTF32), open for TF32 or BF16/FP16 inputs, strokes
# for the cuBLAS references (never the open circle: that is the rings and level keys).
# Within a class the shape steps with variant_index (6, 5 or 3
# shapes) and the colour with it (11): no two of the first 32 variants drawn alike
# (tests/host/test_plot_styles.sh). Without a family column (class 0): the older list,
# eight filled shapes, then open, then filled again.
FAMILY_NAMES = "FP32_SIMT TF32_tensor 3xTF32 16-bit_tensor cuBLAS"
FAMILY_CLASS = "1 2 1 2 3"
CLASS_PTS1 = "7 5 9 11 13 15"
CLASS_PTS2 = "4 8 10 12 14"
CLASS_PTS3 = "1 2 3"
VARIANT_PTS = "7 5 9 11 13 15 1 2 6 4 8 10 12 14 3 1 9 11 13 15 7 5 2 3"
pts_of(list, i) = word(list, (int(i) - 1) % words(list) + 1) + 0
# a family name as FAMILY_NAMES spells it (its space an underscore), or 0 when unknown
family_pos(f) = strstrt(f, " ") > 0 ? word_pos(FAMILY_NAMES, f[1:strstrt(f, " ") - 1] . "_" . f[strstrt(f, " ") + 1:]) \
                                   : word_pos(FAMILY_NAMES, f)
family_class(f) = family_pos(f) > 0 ? word(FAMILY_CLASS, family_pos(f)) + 0 : 0
# VCLASS[i]: variant i's marker class, set by load_variants; class 0 until then
array VCLASS[1] = [0]
vclass(i) = int(i) >= 1 && int(i) <= |VCLASS| ? VCLASS[int(i)] : 0
vpt_class(c, i) = c == 1 ? pts_of(CLASS_PTS1, i) : c == 2 ? pts_of(CLASS_PTS2, i) : \
                  c == 3 ? pts_of(CLASS_PTS3, i) : pts_of(VARIANT_PTS, i)
vpt(i) = vpt_class(vclass(i), i)
# A marker's line width: the plus and the cross are strokes, drawn thicker.
VARIANT_LW = 2

# Variants are keyed by the variant_index column (1, 2, ... in order of first
# appearance, family by family), never by splitting a list of names: a name may hold spaces.
#   eval load_variants("P", "FILTER")   fills NV, VN[1..NV] ("" for a variant absent from
# the rows FILTER accepts), NKEY, how many are present, and from the optional family column
# (its header is scanned first: reading an absent column is an error) VF[i] (the family), VCLASS[i] (the marker class) and VHEAD[i] (the family's name on its
# first variant in the legend, else ""). P names the variable holding the file; FILTER is
# an expression over a row, e.g. 'strcol("level") eq "dram"'.
load_variants(fvar, filter) = sprintf('stats %s using (column("variant_index")) nooutput; ' . \
    'NV = int(STATS_max); array VN[NV]; array VKEY[NV]; array VF[NV]; array VCLASS[NV]; array VHEAD[NV]; ' . \
    'do for [vn_i = 1:NV] { VN[vn_i] = ""; VF[vn_i] = ""; VCLASS[vn_i] = 0; VHEAD[vn_i] = "" }; ' . \
    'stats %s using ((%s) ? VN[int(column("variant_index"))] = strcol("variant") : "", 0) nooutput; ' . \
    has_column(fvar, "family", "VF_HAS") . '; if (VF_HAS) { stats %s using (VF[int(column("variant_index"))] = strcol("family"), 0) nooutput }; ' . \
    'NKEY = 0; VH_LAST = ""; do for [vn_i = 1:NV] { NKEY = NKEY + (strlen(VN[vn_i]) > 0); ' . \
    'VKEY[vn_i] = strlen(VN[vn_i]) > 0 && NKEY <= KEY_MAX; VCLASS[vn_i] = family_class(VF[vn_i]); ' . \
    'if (VKEY[vn_i] && strlen(VF[vn_i]) > 0 && VF[vn_i] ne VH_LAST) { VHEAD[vn_i] = VF[vn_i]; VH_LAST = VF[vn_i] } }; ' . \
    'array KROW[2 * NV]; NKROW = 0; do for [vn_i = 1:NV] { ' . \
    'if (strlen(VHEAD[vn_i]) > 0) { NKROW = NKROW + 1; KROW[NKROW] = -vn_i }; ' . \
    'if (VKEY[vn_i]) { NKROW = NKROW + 1; KROW[NKROW] = vn_i } }', \
    fvar, fvar, filter, fvar)
# eval has_column("P", "NAME", "VAR"): VAR = 1 when the header of the file in P names column
# NAME (an optional column: reading an absent one is an error), else 0.
has_column(fvar, col, var) = sprintf('%s = 0; do for [hc_i = 1:200] { HC_H = ""; ' . \
    'stats %s every ::0::0 using (HC_H = columnhead(hc_i), 0) nooutput; ' . \
    'if (strlen(HC_H) == 0 || HC_H eq "%s") { %s = HC_H eq "%s"; break } }', var, fvar, col, var, col)
# How many variants the legend names; the others are drawn and summed up in one entry.
KEY_MAX = 32
# The legend entries, for the end of a plot command: eval 'plot ... ' . variant_keys(STYLE),
# STYLE e.g. "points ps 1.8 lw 2" (the marker shape is the variant's, added here). The
# rows, KROW[1..NKROW] from load_variants: i for variant i, -i for the name of the family
# variant i opens (no sample: drawn in white). Only rows that show: gnuplot counts an
# entry with an empty title against the legend's height all the same.
vk_v(j) = KROW[j] > 0 ? KROW[j] : -KROW[j]
variant_keys(style) = sprintf(', for [vk_j = 1:NKROW] keyentry with %s pt vpt(vk_v(vk_j)) ' . \
    'lc rgb (KROW[vk_j] < 0 ? "white" : vcolor(vk_v(vk_j))) title (KROW[vk_j] < 0 ? VHEAD[vk_v(vk_j)] : VN[vk_v(vk_j)]), ' . \
    'for [vk_u = 1:(NKEY > KEY_MAX)] keyentry with %s ' . \
    'lc rgb "#999999" title sprintf("(%%d more variants)", NKEY - KEY_MAX)', style, style)

# Joins consecutive rows of one series into segments, in one pass: returns the previous
# point's x (1/0 at a series' first row) and leaves the segment in SEG_X0 .. SEG_Y1.
# Reset SEG_KEY = "" before each plot.
# seg_step does the same and returns 1 when the row continues its series, else 0 (no 1/0:
# a stats pass whose every row is undefined fails).
SEG_KEY = ""; SEG_X0 = 0; SEG_Y0 = 0; SEG_X1 = 0; SEG_Y1 = 0
seg_step(x, y, key) = (SEG_X0 = SEG_X1, SEG_Y0 = SEG_Y1, seg_ok = SEG_KEY eq key, SEG_X1 = x, SEG_Y1 = y, \
    SEG_KEY = key, seg_ok)
seg(x, y, key) = seg_step(x, y, key) ? SEG_X0 : 1/0

# gnuplot runs a data file named "<..." and an output named "|..." as shell commands.
# gemmprof passes "./..." or absolute paths; anything else given by hand is refused.
not_a_command(f) = strlen(f) == 0 || (f[1:1] ne "<" && f[1:1] ne "|")

LEVELS = "dram l2 l1 shared"
LEVEL_NAMES = "DRAM L2 L1 shared"
# One marker size per level (the shape is the variant's): DRAM largest, shared smallest.
LEVEL_PS = "2.7 2.1 1.6 1.15"
level_index(l) = l eq "dram" ? 1 : l eq "l2" ? 2 : l eq "l1" ? 3 : l eq "shared" ? 4 : 0
level_ps(l) = level_index(l) > 0 ? word(LEVEL_PS, level_index(l)) + 0 : 1
level_name(l) = level_index(l) > 0 ? word(LEVEL_NAMES, level_index(l)) : l
ROOF_COLOR = "#555555"

# The position (1-based) of word w in list, 0 when absent.
word_pos(list, w) = sum [wp_j = 1:words(list)] (word(list, wp_j) eq w ? wp_j : 0)
# the one 16-bit tensor roof (analysis/plots.c draws the higher of BF16's and FP16's)
is_16bit(r) = r eq "bf16" || r eq "fp16" || r eq "bf16_wgmma" || r eq "fp16_wgmma"
# "2048" for a square shape, else "MxNxK".
shape_label(m, n, k, s) = (m == n && n == k) ? sprintf("%d", m) : s
# SI formatting for labels: 3.96 TB/s, 60.1 TFLOP/s.
# Three digits, whole numbers from 1000 on: "1070", not "1.07e+03" (a BF16 tensor roof).
g3(v) = abs(v) >= 999.5 && abs(v) < 1e6 ? sprintf("%.0f", v) : sprintf("%.3g", v)
si(v) = v >= 1e12 ? g3(v / 1e12) . " T" : v >= 1e9 ? g3(v / 1e9) . " G" : \
        v >= 1e6 ? g3(v / 1e6) . " M" : v >= 1e3 ? g3(v / 1e3) . " k" : g3(v) . " "

# Clipping on a log x axis: a point more than CLIP_FACTOR times right of the last ridge
# (TF32's L1 intensity of 1e5, say) would stretch the axis over empty decades. Such a
# point is drawn at the right edge, XCLIP, and marked "clipped" with its true value.
# A script sets CLIP_X (1e300: nothing clipped) and XCLIP once its range is known.
CLIP_FACTOR = 30
CLIP_X = 1e300; XCLIP = 1e300
clip_x(x) = x > CLIP_X ? XCLIP : x
clipped(x) = x > CLIP_X
CLIP_TEXT = "%.3g FLOP/B, clipped"

# Decade bounds for log axes.
dec_floor(v) = 10 ** floor(log10(v))
dec_ceil(v) = 10 ** ceil(log10(v))

# Output: the scripts loop `do for [FMT in FORMATS] { eval set_term(FMT); ... }`.
# noenhanced, because variant names such as cublas_tf32 must not turn into subscripts.
CANVAS_W = 1400; CANVAS_H = 900
set_term(fmt) = fmt eq "png" ? sprintf( \
    'set terminal pngcairo size %d,%d noenhanced font "DejaVu Sans,12" background rgb "white"', \
    CANVAS_W, CANVAS_H) : fmt eq "svg" ? sprintf( \
    'set terminal svg size %d,%d dynamic noenhanced font "DejaVu Sans,12" background rgb "white"', \
    CANVAS_W, CANVAS_H) : sprintf('exit error "unknown output format %s (png or svg)"', fmt)

# Fixed plot area, legend to the right of it: the legend never covers data, and the
# on-screen slope of a bandwidth roof is known before plotting (for rotated labels).
AREA_L = 0.07; AREA_R = 0.78; AREA_B = 0.09; AREA_T = 0.89
set lmargin at screen AREA_L
set rmargin at screen AREA_R
set bmargin at screen AREA_B
set tmargin at screen AREA_T
# spacing 1.0: gnuplot splits a legend taller than the plot into columns, and a second
# column would fall off the canvas (19 variants, their families and the hierarchical
# roofline's key make about 35 rows). KEY_PS scales the key's marker-size samples.
set key at screen AREA_R + 0.015, AREA_T left top Left reverse samplen 3 spacing 1.0 font ",11" noautotitle
KEY_PS = 0.6
# About KEY_FIT rows fit at the legend's 11 points (measured on the hierarchical roofline);
# a chart with more takes 10 points, then 9, then 8 (`eval key_fit(ROWS)`; 25 variants, their
# 5 families and the hierarchical key make 40 rows, which 11 points cut short): past what
# fits, gnuplot starts a second column, off the canvas, and the last rows are lost.
KEY_FIT = 36
key_fit(rows) = rows > KEY_FIT + 18 ? 'set key font ",8"' : rows > KEY_FIT + 10 ? 'set key font ",9"' : \
                rows > KEY_FIT ? 'set key font ",10"' : ''
# Angle in degrees of a line y = b x on log-log axes spanning [xlo:xhi] x [ylo:yhi].
slope_angle(xlo, xhi, ylo, yhi) = 180 / pi * \
    atan2((AREA_T - AREA_B) * CANVAS_H / log10(yhi / ylo), (AREA_R - AREA_L) * CANVAS_W / log10(xhi / xlo))

set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1, lc rgb "#f0f0f0" lw 1
set border lw 1.2

# The n-th script argument, "" when not given (gnuplot leaves ARGn undefined then).
argv(n) = exists(sprintf("ARG%d", n)) ? value(sprintf("ARG%d", n)) : ""

# Where each level's bandwidth-roof label sits: how far along the line from its start
# (factor on x) and on which side (1 above, -1 below), so nearly equal roofs such as
# L1 and shared memory get their labels on opposite sides.
LEVEL_LABEL_ALONG = "1.5 1.15 1.5 5"
LEVEL_LABEL_SIDE = "-1 1 -1 1"
label_along(l) = level_index(l) > 0 ? word(LEVEL_LABEL_ALONG, level_index(l)) + 0 : 1.5
label_side(l) = level_index(l) > 0 ? word(LEVEL_LABEL_SIDE, level_index(l)) + 0 : 1

# Compute-roof labels: one per roof, "FP32 FMA  60.1 TFLOP/s measured, 66.9 datasheet",
# placed above the higher of its two lines, where no kernel can be. load_peaks (`eval load_peaks`)
# fills the lists they read (call it once the roofs file has been checked).
PEAKS_M = ""; PEAKS_T = ""
# Memory rows go in the same lists (their roof names differ from the compute ones).
load_peaks = 'stats R using (strcol("kind") ne "ridge" ? (strcol("source") eq "measured" ? \
    PEAKS_M = PEAKS_M." ".strcol("roof")." ".sprintf("%.6e", column("value")) : \
    PEAKS_T = PEAKS_T." ".strcol("roof")." ".sprintf("%.6e", column("value"))) : 0, 0) nooutput'
peak_m(r) = word_pos(PEAKS_M, r) > 0 ? word(PEAKS_M, word_pos(PEAKS_M, r) + 1) + 0 : 0
peak_t(r) = word_pos(PEAKS_T, r) > 0 ? word(PEAKS_T, word_pos(PEAKS_T, r) + 1) + 0 : 0
peak_hi(r) = peak_m(r) > peak_t(r) ? peak_m(r) : peak_t(r)
# short, so that it fits right of the ridge labels: "TF32 tensor  488 TFLOP/s (datasheet 535)"
peak_text(r, lbl) = peak_m(r) > 0 ? \
    sprintf("%s  %sFLOP/s", lbl, si(peak_m(r))) . \
        (peak_t(r) > 0 ? sprintf(" (datasheet %s)", g3(peak_t(r) / (peak_m(r) >= 1e12 ? 1e12 : 1e9))) : "") : \
    sprintf("%s  %sFLOP/s datasheet", lbl, si(peak_t(r)))
# the same without the datasheet figure, where the long one finds no room
peak_short(r, lbl) = sprintf("%s  %sFLOP/s", lbl, si(peak_m(r) > 0 ? peak_m(r) : peak_t(r)))
# True on the one row of a compute roof that carries its label.
peak_label_row(x) = strcol("kind") eq "compute" && \
    (strcol("source") eq "measured" || peak_m(strcol("roof")) == 0)
peak_lo(r) = peak_m(r) > 0 && (peak_t(r) <= 0 || peak_m(r) < peak_t(r)) ? peak_m(r) : peak_t(r)

# ---- Labels placed where nothing is drawn ----
# A compute roof's label goes on one side of its lines, somewhere along them; where, the
# chart's own marks decide: every candidate box (canvas pixels, x right and y up from the
# canvas's bottom left) is counted against the markers, the segments (the kernels' lines,
# error bars, the roofs) and the boxes of other text, and each label takes its first
# candidate that nothing meets and no label placed before it covers (its first candidate
# if none is clear). A script, once its ranges XLO XHI YLO YHI (log axes, y in flop/s) are
# set: for each label j (LB_NL of them), sets LB_TEXT[j], LB_SHORT[j] (the same, shorter),
# optionally LB_TINY[j] (shortest: where two roofs lie close, the short texts may not fit),
# LB_J LB_XS LB_XE LB_DIR LB_YA LB_YB and runs `eval LB_CANDIDATES`: the long text above the
# lines (bottom edge at LB_YA), then below (top edge at LB_YB), then the short text the same
# way, then the tiny one, every LB_STEP pixels from LB_XS rightwards, or from LB_XE leftwards for LB_DIR < 0.
# A text that does not fit between LB_XS and LB_XE gets no candidates (it would run past the
# plot's edge), unless no text of the label fits: then the last one, ending at LB_XE.
# A label along a sloped line (a bandwidth roof's) is added with `eval LB_SLOPED` (below).
# Then it calls lb_pt, lb_seg, lb_box over its marks in stats passes (before `set
# logscale`: stats drops rows outside the axes' range), then `eval LB_PICK`, `eval LB_DRAW`.
# Each group of candidates lies in a frame of its own, turned by the angle whose cosine and
# sine are LB_GC[g] and LB_GS[g] (1 and 0 for the level rows of the compute roofs): a
# mark is turned into a group's frame before it is counted against that group.
px_of(x) = (AREA_L + (AREA_R - AREA_L) * log(x / XLO) / log(XHI / XLO)) * CANVAS_W
py_of(y) = (AREA_B + (AREA_T - AREA_B) * log(y / YLO) / log(YHI / YLO)) * CANVAS_H
x_of(p) = XLO * exp((p / CANVAS_W - AREA_L) / (AREA_R - AREA_L) * log(XHI / XLO))
y_of(p) = YLO * exp((p / CANVAS_H - AREA_B) / (AREA_T - AREA_B) * log(YHI / YLO))
PLOT_X0 = AREA_L * CANVAS_W; PLOT_X1 = AREA_R * CANVAS_W
PLOT_Y0 = AREA_B * CANVAS_H; PLOT_Y1 = AREA_T * CANVAS_H
PT_PX = 4.5          # a marker's half size in pixels per unit of point size
LB_FS = 10; LB_FONT = ",10"
# A text's width in pixels at font size fs (points, 4/3 pixel each at 96 dpi): the sum of its
# characters' advances in DejaVu Sans (em, measured on pngcairo's text, in 9 groups; any
# other 0.63), so a label of capitals and digits is known to run wider than one of "il.".
# The SVG's text runs narrower.
array LB_CWW[9] = [0.29, 0.33, 0.39, 0.52, 0.58, 0.69, 0.77, 0.84, 0.97]
LB_CWG = "'ijlIJ\n ,.:;/\\|\n()[]-frt!\nsz?*_\"\ncvxyTkFLY\nABCKRVXZ\nDGHNOQU&\n#+<=>^~Mw\n%@mW"
lb_cwg(c) = strstrt(LB_CWG, c) > 0 ? 1 + sum [lb_q = 1:strstrt(LB_CWG, c)] (LB_CWG[lb_q:lb_q] eq "\n") : 0
lb_cw(c) = lb_cwg(c) > 0 ? LB_CWW[lb_cwg(c)] : 0.63
lb_tw(t, fs) = fs * 4.0 / 3 * sum [lb_c = 1:strlen(t)] lb_cw(t[lb_c:lb_c])
# a label's box: its text, a line and a little air
lb_w(text) = lb_tw(text, LB_FS) + 6
LB_H = 1.0 * LB_FS + 4
LB_GAP = 3           # from the roof line to the box: half its width and some air
LB_STEP = 16
LB_MAX = 1200; LB_GMAX = 48
array LB_X0[LB_MAX]; array LB_X1[LB_MAX]; array LB_Y0[LB_MAX]; array LB_Y1[LB_MAX]
array LB_HIT[LB_MAX]; array LB_GA[LB_GMAX]; array LB_GB[LB_GMAX]; array LB_GY0[LB_GMAX]; array LB_GY1[LB_GMAX]
array LB_GC[LB_GMAX]; array LB_GS[LB_GMAX]; array LB_KG[LB_MAX]
array LB_VK[LB_MAX]; array LB_TEXT[12]; array LB_SHORT[12]; array LB_TINY[12]; array LB_AT[12]; array LB_FIRST[12]
do for [lb_i = 1:12] { LB_TINY[lb_i] = "" }
lb_text(v, j) = v == 1 ? LB_TEXT[j] : v == 2 || strlen(LB_TINY[j]) == 0 ? LB_SHORT[j] : LB_TINY[j]
LB_N = 0; LB_NG = 0; LB_NL = 0
lb_add(v, x, y, w, h) = LB_N < LB_MAX ? (LB_N = LB_N + 1, LB_VK[LB_N] = v, LB_X0[LB_N] = x, \
    LB_X1[LB_N] = x + w, LB_Y0[LB_N] = y, LB_Y1[LB_N] = y + h, LB_HIT[LB_N] = 0, LB_KG[LB_N] = LB_NG, 1) : 0
# a new group of candidates, in the frame turned by angle a (degrees), rows y0..y1 there
lb_group(a, y0, y1) = (LB_NG = LB_NG + 1, LB_GA[LB_NG] = LB_N + 1, LB_GB[LB_NG] = LB_N, LB_GY0[LB_NG] = y0, \
    LB_GY1[LB_NG] = y1, LB_GC[LB_NG] = a == 0 ? 1 : cos(a * pi / 180), LB_GS[LB_NG] = a == 0 ? 0 : sin(a * pi / 180), 1)
# one group of candidates per label and side: a row of boxes at one height, so a mark is
# compared with the boxes of a row only when it reaches that row's height
LB_CANDIDATES = 'LB_FIRST[LB_J] = LB_N + 1; lb_nv = strlen(LB_TINY[LB_J]) > 0 ? 3 : 2; ' . \
    'do for [lb_v = 1:lb_nv] { do for [lb_s = 0:1] { if (LB_NG < LB_GMAX) { ' . \
    'lb_wd = lb_w(lb_text(lb_v, LB_J)); lb_y = lb_s ? LB_YB - LB_H : LB_YA; lb_ok = lb_group(0, lb_y, lb_y + LB_H); ' . \
    'lb_n = (LB_XE - LB_XS - lb_wd) / LB_STEP; ' . \
    'lb_n = lb_n >= 0 ? int(lb_n) : (lb_v == lb_nv && lb_s == 1 && LB_N < LB_FIRST[LB_J]) ? 0 : -1; ' . \
    'do for [lb_i = 0:lb_n] { lb_ok = lb_add(lb_v, LB_DIR > 0 && lb_wd <= LB_XE - LB_XS ? ' . \
    'LB_XS + lb_i * LB_STEP : LB_XE - lb_wd - lb_i * LB_STEP, lb_y, lb_wd, LB_H) }; LB_GB[LB_NG] = LB_N } } }'
# A label along a sloped line (a bandwidth roof's), drawn by the script rotated by LB_A degrees
# in font size LB_SFS: for label LB_J with text LB_TEXT[LB_J], its mid-line starting LB_UA
# pixels along the line (u: along the line, v: square to it, the frame turned by LB_A), first
# at LB_VA (its usual side), then at LB_VB (the other), each from LB_UA outwards both ways
# every LB_STEP pixels while the box stays beside the line's stretch LB_U0..LB_U1 and in the
# plot; then the same in the compute labels' smaller font LB_FS. The first candidate, where
# it always sat, is kept even where it does not fit. LB_VK of a candidate: 1 on its usual
# side, 2 on the other, 3 and 4 the same in the smaller font. The script reads the pick with
# lb_ax(j), lb_ay(j) (canvas pixels), lb_moved(j) and lb_vk(j); LB_DRAW leaves sloped labels
# (LB_SL[j]) alone.
LB_SFS = 12
array LB_SL[12]
do for [lb_i = 1:12] { LB_SL[lb_i] = 0 }
lb_sin_ok(u0, v0, u1, v1, c, s) = lb_lo(c, u0, u1) + lb_lo(-s, v0, v1) >= PLOT_X0 && \
    lb_hi(c, u0, u1) + lb_hi(-s, v0, v1) <= PLOT_X1 && \
    lb_lo(s, u0, u1) + lb_lo(c, v0, v1) >= PLOT_Y0 && lb_hi(s, u0, u1) + lb_hi(c, v0, v1) <= PLOT_Y1
# candidate i of a side: 0, +1, -1, +2, -2 ... steps from LB_UA
lb_uoff(i) = (i % 2 ? 1 : -1) * int((i + 1) / 2) * LB_STEP
LB_SLOPED = 'LB_SL[LB_J] = 1; LB_SHORT[LB_J] = LB_TEXT[LB_J]; LB_FIRST[LB_J] = LB_N + 1; ' . \
    'lb_n = 2 * int(lb_max(LB_UA - LB_U0, LB_U1 - LB_UA) / LB_STEP) + 2; ' . \
    'do for [lb_s = 1:4] { if (LB_NG < LB_GMAX) { lb_v = lb_s % 2 ? LB_VA : LB_VB; lb_fs = lb_s <= 2 ? LB_SFS : LB_FS; ' . \
    'lb_wd = lb_tw(LB_TEXT[LB_J], lb_fs) + 6; lb_hh = (lb_fs + 4) / 2.0; ' . \
    'lb_ok = lb_group(LB_A, lb_v - lb_hh, lb_v + lb_hh); ' . \
    'do for [lb_i = 0:lb_n] { lb_u = LB_UA + lb_uoff(lb_i) - 3; ' . \
    'if (LB_N < LB_FIRST[LB_J] || (lb_u >= LB_U0 && lb_u + lb_wd <= LB_U1 && ' . \
    'lb_sin_ok(lb_u, lb_v - lb_hh, lb_u + lb_wd, lb_v + lb_hh, LB_GC[LB_NG], LB_GS[LB_NG]))) { ' . \
    'lb_ok = lb_add(lb_s, lb_u, lb_v - lb_hh, lb_wd, 2 * lb_hh) } }; LB_GB[LB_NG] = LB_N } }'
# the picked anchor of sloped label j, in canvas pixels, its LB_VK, and whether it left its
# first place
lb_au(k) = LB_X0[k] + 3
lb_av(k) = (LB_Y0[k] + LB_Y1[k]) / 2
lb_ax(j) = LB_GC[LB_KG[LB_AT[j]]] * lb_au(LB_AT[j]) - LB_GS[LB_KG[LB_AT[j]]] * lb_av(LB_AT[j])
lb_ay(j) = LB_GS[LB_KG[LB_AT[j]]] * lb_au(LB_AT[j]) + LB_GC[LB_KG[LB_AT[j]]] * lb_av(LB_AT[j])
lb_vk(j) = LB_VK[LB_AT[j]]
lb_moved(j) = LB_AT[j] > 0 && LB_AT[j] != LB_FIRST[j]
lb_row_meets(g, y0, y1) = y1 > LB_GY0[g] && y0 < LB_GY1[g]
# a point's coordinates in group g's frame
lb_ru(g, x, y) = LB_GC[g] * x + LB_GS[g] * y
lb_rv(g, x, y) = LB_GC[g] * y - LB_GS[g] * x
# the least and the most of c * t for t in [a, b]
lb_lo(c, a, b) = c >= 0 ? c * a : c * b
lb_hi(c, a, b) = c >= 0 ? c * b : c * a
# a box (pixels) against every candidate of the rows it reaches: its extent in each group's
# frame (in an unturned one, the box itself: charts of 100,000 points pass here per group)
lb_box(x0, y0, x1, y1) = sum [lb_g = 1:LB_NG] (LB_GS[lb_g] == 0 ? lb_boxg(lb_g, x0, y0, x1, y1) : lb_boxg(lb_g, \
    lb_lo(LB_GC[lb_g], x0, x1) + lb_lo(LB_GS[lb_g], y0, y1), lb_lo(LB_GC[lb_g], y0, y1) + lb_lo(-LB_GS[lb_g], x0, x1), \
    lb_hi(LB_GC[lb_g], x0, x1) + lb_hi(LB_GS[lb_g], y0, y1), lb_hi(LB_GC[lb_g], y0, y1) + lb_hi(-LB_GS[lb_g], x0, x1)))
lb_boxg(g, x0, y0, x1, y1) = lb_row_meets(g, y0, y1) ? \
    sum [lb_k = LB_GA[g]:LB_GB[g]] (LB_HIT[lb_k] = LB_HIT[lb_k] + (x1 > LB_X0[lb_k] && x0 < LB_X1[lb_k]), 0) : 0
# a marker of point size ps at data (x, y)
lb_pt(x, y, ps) = !(x > 0 && y > 0) ? 0 : lb_box(px_of(x) - PT_PX * ps, py_of(y) - PT_PX * ps, px_of(x) + PT_PX * ps, py_of(y) + PT_PX * ps)
# a segment from data (ax, ay) to (bx, by): clipped to each box's x range, then its y there
lb_min(a, b) = a < b ? a : b
lb_max(a, b) = a > b ? a : b
lb_yat(x, ax, ay, bx, by) = abs(bx - ax) < 1e-6 ? ay : ay + (by - ay) * (x - ax) / (bx - ax)
lb_segk(k, ax, ay, bx, by) = lb_max(lb_min(ax, bx), LB_X0[k]) > lb_min(lb_max(ax, bx), LB_X1[k]) ? 0 : \
    abs(bx - ax) < 1e-6 ? (lb_max(ay, by) > LB_Y0[k] && lb_min(ay, by) < LB_Y1[k]) : \
    (lb_yk0 = lb_yat(lb_max(lb_min(ax, bx), LB_X0[k]), ax, ay, bx, by), \
     lb_yk1 = lb_yat(lb_min(lb_max(ax, bx), LB_X1[k]), ax, ay, bx, by), \
     lb_max(lb_yk0, lb_yk1) > LB_Y0[k] && lb_min(lb_yk0, lb_yk1) < LB_Y1[k])
lb_segp(ax, ay, bx, by) = sum [lb_g = 1:LB_NG] (LB_GS[lb_g] == 0 ? lb_segg(lb_g, ax, ay, bx, by) : \
    lb_segg(lb_g, lb_ru(lb_g, ax, ay), lb_rv(lb_g, ax, ay), lb_ru(lb_g, bx, by), lb_rv(lb_g, bx, by)))
lb_segg(g, ax, ay, bx, by) = lb_row_meets(g, lb_min(ay, by), lb_max(ay, by)) ? \
    sum [lb_k = LB_GA[g]:LB_GB[g]] (LB_HIT[lb_k] = LB_HIT[lb_k] + lb_segk(lb_k, ax, ay, bx, by), 0) : 0
lb_seg(ax, ay, bx, by) = !(ax > 0 && ay > 0 && bx > 0 && by > 0) ? 0 : lb_segp(px_of(ax), py_of(ay), px_of(bx), py_of(by))
# two candidates' boxes meet: in one frame, by their extents; in two, each box against the
# other's extent in its frame (separating axes: the sides of both boxes)
lb_meet(a, b) = LB_GS[LB_KG[a]] == LB_GS[LB_KG[b]] ? \
    LB_X0[a] < LB_X1[b] && LB_X0[b] < LB_X1[a] && LB_Y0[a] < LB_Y1[b] && LB_Y0[b] < LB_Y1[a] : \
    lb_meet_in(a, b) && lb_meet_in(b, a)
# b's box turned into a's frame (by the difference of their angles), against a's box
lb_meet_in(a, b) = lb_meet_t(a, b, LB_GC[LB_KG[a]] * LB_GC[LB_KG[b]] + LB_GS[LB_KG[a]] * LB_GS[LB_KG[b]], \
    LB_GS[LB_KG[b]] * LB_GC[LB_KG[a]] - LB_GC[LB_KG[b]] * LB_GS[LB_KG[a]])
lb_meet_t(a, b, c, s) = lb_lo(c, LB_X0[b], LB_X1[b]) + lb_lo(-s, LB_Y0[b], LB_Y1[b]) < LB_X1[a] && \
    lb_hi(c, LB_X0[b], LB_X1[b]) + lb_hi(-s, LB_Y0[b], LB_Y1[b]) > LB_X0[a] && \
    lb_lo(s, LB_X0[b], LB_X1[b]) + lb_lo(c, LB_Y0[b], LB_Y1[b]) < LB_Y1[a] && \
    lb_hi(s, LB_X0[b], LB_X1[b]) + lb_hi(c, LB_Y0[b], LB_Y1[b]) > LB_Y0[a]
lb_free(k, j) = j < 2 ? 1 : (sum [lb_p = 1:j - 1] (LB_AT[lb_p] > 0 ? lb_meet(k, LB_AT[lb_p]) : 0)) == 0
# each label's candidates lie together, from LB_FIRST[j]
LB_PICK = 'do for [lb_j = 1:LB_NL] { LB_AT[lb_j] = 0; lb_e = lb_j < LB_NL ? LB_FIRST[lb_j + 1] - 1 : LB_N; ' . \
    'do for [lb_k = LB_FIRST[lb_j]:lb_e] { ' . \
    'if (LB_HIT[lb_k] == 0) { if (lb_free(lb_k, lb_j)) { LB_AT[lb_j] = lb_k; break } } }; ' . \
    'if (LB_AT[lb_j] == 0 && lb_e >= LB_FIRST[lb_j]) { LB_AT[lb_j] = LB_FIRST[lb_j] } }'
# the labels, as `set label` (tags 900 on); y in the plot's unit, flop/s / LB_YUNIT
LB_YUNIT = 1e12
LB_DRAW = 'do for [lb_j = 1:LB_NL] { if (LB_AT[lb_j] > 0 && !LB_SL[lb_j]) { lb_k = LB_AT[lb_j]; ' . \
    'lb_txt = lb_text(LB_VK[lb_k], lb_j); set label 900 + lb_j lb_txt at first x_of(LB_X0[lb_k] + 3), first y_of((LB_Y0[lb_k] + LB_Y1[lb_k]) / 2) / LB_YUNIT ' . \
    'left font LB_FONT tc rgb ROOF_COLOR front } }'

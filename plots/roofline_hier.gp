# The hierarchical roofline of one shape: per kernel one marker per memory level
# (DRAM, L2, L1, shared) joined by a line, against every level's bandwidth roof and the
# FP32 FMA and TF32 compute roofs (measured solid, datasheet dashed), each ridge labelled
# with its memory roof (it lies on the compute roof it meets). A variant is one colour
# and marker shape; the marker's size says the level (DRAM largest, shared smallest).
# A point far right of the last ridge is drawn at the right edge, its true intensity in
# the legend. Ridge intensities are in the legend too: no label sits inside the plot but
# the roofs' own (tests/host/test_plot_labels.sh).
# All of a kernel's markers share its height (its achieved FLOP/s); how far each sits
# from its own roof shows which level limits it. The binding level is ringed.
#   gnuplot -c plots/roofline_hier.gp POINTS ROOFS OUTBASE [TITLE] [FORMATS] [SHAPE] [COMPUTE_ROOFS]
# POINTS   roofline_points.csv (variant,variant_index,m,n,k,shape,level,ai_flop_per_byte,
#          flop_per_s,bound); a kernel's rows are consecutive (gemmprof writes them so) and
#          joined by a line; every variant is drawn in one pass over the file
# ROOFS    roofline_roofs.csv, or "none"
# OUTBASE  writes OUTBASE.png and OUTBASE.svg
# TITLE    GPU and date; FORMATS default "png svg"; SHAPE e.g. 2048x2048x2048 (default:
#          the shape of the first row); COMPUTE_ROOFS the compute roofs' ids to draw
#          (default: FP32 FMA and TF32, the two this suite's variants use)

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c roofline_hier.gp POINTS.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS] [SHAPE]"
}
P = argv(1); R = argv(2); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
SHAPE = argv(6)
COMPUTE_ROOFS = argv(7)
HAVE_ROOFS = (R ne "none" && strlen(R) > 0)
if (!not_a_command(P) || !not_a_command(R) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" P "variant variant_index m n k shape level ai_flop_per_byte flop_per_s bound" \
                      "variant_index m n k ai_flop_per_byte flop_per_s bound" ""
if (HAVE_ROOFS) {
    call DIR."check.gp" R "kind roof level source label value ridge_ai_flop_per_byte" "value" "ridge_ai_flop_per_byte"
}
if (strlen(SHAPE) == 0) {
    stats P every ::0::0 using (SHAPE = strcol("shape"), 0) nooutput
}

eval load_variants("P", 'strcol("shape") eq SHAPE')
XMIN = 1e300; XMAX = 0; YMIN = 1e300; YMAX = 0; SQUARE = 0; SIZE_N = 0
stats P using (strcol("shape") eq SHAPE ? ( \
        SQUARE = column("m") == column("n") && column("n") == column("k"), SIZE_N = column("m"), \
        px = column("ai_flop_per_byte"), py = column("flop_per_s"), \
        XMIN = px < XMIN ? px : XMIN, XMAX = px > XMAX ? px : XMAX, \
        YMIN = py < YMIN ? py : YMIN, YMAX = py > YMAX ? py : YMAX) : 0, 0) nooutput
if (NKEY == 0) { exit error sprintf("%s: no rows of shape '%s'", P, SHAPE) }

# The compute roofs drawn here: those named, else FP32 FMA and TF32, the two this suite's
# variants use.
is_peak(r) = strlen(COMPUTE_ROOFS) > 0 ? word_pos(COMPUTE_ROOFS, r) > 0 : (r eq "fp32_fma" || r eq "tf32" || r eq "tf32_wgmma" || is_16bit(r))
PEAK_M = 0; PEAK_T = 0; PEAK_LOW = 1e300; BWMAX_M = 0; BWMAX_T = 0; BWMIN = 1e300
N_MEM_M = 0; N_MEM_T = 0; N_PEAK_M = 0; N_PEAK_T = 0; N_RIDGE = 0; RIDGE_MAX = 0
if (HAVE_ROOFS) {
    stats R using (rk = strcol("kind"), rs = strcol("source"), rv = column("value"), rm = rs eq "measured", \
        (rk eq "compute" && is_peak(strcol("roof"))) ? ( \
            rm ? (PEAK_M = rv > PEAK_M ? rv : PEAK_M, N_PEAK_M = N_PEAK_M + 1) \
               : (PEAK_T = rv > PEAK_T ? rv : PEAK_T, N_PEAK_T = N_PEAK_T + 1), \
            PEAK_LOW = rv < PEAK_LOW ? rv : PEAK_LOW) : 0, \
        (rk eq "memory") ? ( \
            rm ? (BWMAX_M = rv > BWMAX_M ? rv : BWMAX_M, N_MEM_M = N_MEM_M + 1) \
               : (BWMAX_T = rv > BWMAX_T ? rv : BWMAX_T, N_MEM_T = N_MEM_T + 1), \
            BWMIN = rv < BWMIN ? rv : BWMIN) : 0, \
        (rk eq "ridge" && is_peak(substr(strcol("roof"), strstrt(strcol("roof"), "/") + 1, 99))) ? \
            (N_RIDGE = N_RIDGE + 1, rx = column("ridge_ai_flop_per_byte"), RIDGE_MAX = rx > RIDGE_MAX ? rx : RIDGE_MAX) \
            : 0, 0) nooutput
}
PEAK = PEAK_M > PEAK_T ? PEAK_M : PEAK_T
if (HAVE_ROOFS) { eval load_peaks }
BWMAX = BWMAX_M > BWMAX_T ? BWMAX_M : BWMAX_T
peak_of(s) = s eq "measured" ? (PEAK_M > 0 ? PEAK_M : PEAK) : (PEAK_T > 0 ? PEAK_T : PEAK)
bwmax_of(s) = s eq "measured" ? (BWMAX_M > 0 ? BWMAX_M : BWMAX) : (BWMAX_T > 0 ? BWMAX_T : BWMAX)
if (PEAK > 0) { YMAX = PEAK > YMAX ? PEAK : YMAX }
if (PEAK > 0 && BWMAX > 0) {
    RIDGE_MAX = PEAK / BWMIN > RIDGE_MAX ? PEAK / BWMIN : RIDGE_MAX
    XMIN = PEAK_LOW / BWMAX < XMIN ? PEAK_LOW / BWMAX : XMIN
}
# Points far right of the last ridge are clipped; the axis fits the others.
if (RIDGE_MAX > 0) { CLIP_X = RIDGE_MAX * CLIP_FACTOR }
XIN = RIDGE_MAX; N_CLIP = 0; CLIP_LO = 1e300; CLIP_HI = 0; CLIP_LV = ""
stats P using (strcol("shape") eq SHAPE ? (px = column("ai_flop_per_byte"), \
        clipped(px) ? (N_CLIP = N_CLIP + 1, CLIP_LO = px < CLIP_LO ? px : CLIP_LO, CLIP_HI = px > CLIP_HI ? px : CLIP_HI, \
            CLIP_LV = strstrt(CLIP_LV, level_name(strcol("level"))) ? CLIP_LV : CLIP_LV . " " . level_name(strcol("level"))) \
        : (XIN = px > XIN ? px : XIN)) : 0, 0) nooutput
# The clipped points' true intensities, in the legend (one label per point stacked them).
# (Each legend entry is one line: a title with a newline makes gnuplot wrap the legend early.)
sci(v) = sprintf("%.2ge%d", v / 10 ** floor(log10(v)), floor(log10(v)))
CLIP_KEY = sprintf("%s %s%s", CLIP_LV[2:], sci(CLIP_LO), \
    CLIP_HI > CLIP_LO * 1.01 ? "-" . sci(CLIP_HI) : "")
XLO = XMIN / 4; XHI = XIN * (N_CLIP > 0 ? 8 : 3)
# room right of the last ridge for the compute roofs' labels (about 1.7 decades of text),
# clear of the ridge labels above the roof
XHI = XHI > RIDGE_MAX * 40 ? XHI : RIDGE_MAX * 40
XCLIP = XHI / 1.6
YLO = YMIN / 3.0; YHI = YMAX * 2.2
ANGLE = slope_angle(XLO, XHI, YLO, YHI)

mem_x0(b) = XLO > YLO / b ? XLO : YLO / b
mem_x1(b, s) = peak_of(s) > 0 ? peak_of(s) / b : XHI
comp_x0(p, s) = bwmax_of(s) > 0 ? p / bwmax_of(s) : XLO
is_mem(src) = strcol("kind") eq "memory" && strcol("source") eq src
is_comp(src) = strcol("kind") eq "compute" && strcol("source") eq src && is_peak(strcol("roof"))
is_ridge(side) = strcol("kind") eq "ridge" && label_side(strcol("level")) == side && \
                 is_peak(substr(strcol("roof"), strstrt(strcol("roof"), "/") + 1, 99))
# ... but short of its ridge by a factor 3 (on a family's chart the axis starts far right,
# and the label would float past the roof's end), and clear of the left edge
lab_x(b, l) = lb_max(mem_x0(b) * 1.3, lb_min(mem_x0(b) * label_along(l), mem_x1(b, "measured") / 3))
# Each compute roof's ridges, in the legend ("TF32 tensor:\nshared 14.6  L1 15.1 ..."):
# beside their circles they crossed the kernels' lines just under the roof.
RIDGE_ROOFS = ""; RIDGE_TXT = ""
if (N_RIDGE > 0) {
    stats R using (strcol("kind") eq "ridge" && (is_ridge(1) || is_ridge(-1)) ? ( \
        rr = strcol("label")[strstrt(strcol("label"), " / ") + 3:], \
        RIDGE_ROOFS = strstrt(RIDGE_ROOFS, "|" . rr . "|") ? RIDGE_ROOFS : RIDGE_ROOFS . "|" . rr . "|") : 0, 0) nooutput
}
# up to 3 compute roofs (a 3xTF32 family's chart: FP32 FMA, TF32, TF32 / 3), 3 rows each;
# NRK rows in all, as an entry with an empty title still takes a legend row
array RIDGE_KEY[9]
NRK = 0
do for [rk_j = 1:9] { RIDGE_KEY[rk_j] = "" }
do for [rk_j = 1:3] {
    if (strlen(RIDGE_ROOFS) > 0) {
        NRK = 3 * rk_j
        RR = RIDGE_ROOFS[2:strstrt(RIDGE_ROOFS[2:], "|")]
        RIDGE_ROOFS = RIDGE_ROOFS[strlen(RR) + 3:]
        RT1 = ""; RT2 = ""; RN = 0
        stats R using (is_ridge(1) || is_ridge(-1) ? ( \
            strcol("label")[strstrt(strcol("label"), " / ") + 3:] eq RR ? (RN = RN + 1, \
            RX = sprintf("  %s %s", level_name(strcol("level")), g3(column("ridge_ai_flop_per_byte"))), \
            RN <= 2 ? RT1 = RT1 . RX : (RT2 = RT2 . RX)) : 0) : 0, 0) nooutput
        # two levels a row: four in one ran off the canvas
        RIDGE_KEY[3 * rk_j - 2] = sprintf("%s ridges, FLOP/B:", RR)
        RIDGE_KEY[3 * rk_j - 1] = RT1[3:]; RIDGE_KEY[3 * rk_j] = RT2[3:]
    }
}
# A label above its roof goes above the datasheet line too, which may lie just above.
label_bw(b, side) = side > 0 && peak_t(strcol("level")) > b ? peak_t(strcol("level")) : b
# The label's anchor (its text's mid-line starts there): on the line at lab_x, moved off it
# square to the line by LAB_D pixels, so the gap is the same at any on-screen slope (an
# offset straight up crossed the text with the line on a steep family chart).
LAB_D = 13
lab_px(b, side) = px_of(lab_x(b, strcol("level"))) - side * LAB_D * sin(ANGLE * pi / 180)
lab_py(b, side) = py_of(lab_x(b, strcol("level")) * label_bw(b, side)) + side * LAB_D * cos(ANGLE * pi / 180)
in_shape(x) = strcol("shape") eq SHAPE ? x : (SEG_KEY = "", 1/0)
# one series per kernel: its four levels, joined
kernel_key(x) = strcol("variant_index") . " " . strcol("shape")
T = 1e12

# Each compute roof's label on a stretch of its lines that no kernel, ridge or other roof
# crosses (common.gp's placer): from the right edge leftwards, above the lines first.
LB_ROOFS = ""
if (HAVE_ROOFS) {
    stats R using (peak_label_row(0) && is_peak(strcol("roof")) ? LB_ROOFS = LB_ROOFS . " " . strcol("roof") : "", 0) nooutput
}
do for [lb_r in LB_ROOFS] {
    if (LB_NL < |LB_TEXT|) {
        LB_NL = LB_NL + 1; LB_J = LB_NL
        stats R using (peak_label_row(0) && strcol("roof") eq lb_r ? (LB_TEXT[LB_J] = peak_text(lb_r, strcol("label")), LB_SHORT[LB_J] = peak_short(lb_r, strcol("label")), \
            LB_XS = lb_max(PLOT_X0 + 4, px_of(comp_x0(column("value"), strcol("source"))) + 8)) : "", 0) nooutput
        LB_XE = PLOT_X1 - 4; LB_DIR = -1
        LB_YA = py_of(peak_hi(lb_r)) + LB_GAP; LB_YB = py_of(peak_lo(lb_r)) - LB_GAP
        eval LB_CANDIDATES
    }
}
# Each measured bandwidth roof's label the same way, along its line: first where
# LEVEL_LABEL_ALONG and LEVEL_LABEL_SIDE put it, then along the line, then on its other side,
# then both again in the compute labels' smaller font.
array MEM_J[4]; array MEM_MV[4]; array MEM_X[4]; array MEM_Y[4]; array MEM_SIDE[4]
do for [lb_i = 1:4] { MEM_J[lb_i] = 0; MEM_MV[lb_i] = 0 }
LB_A = ANGLE; LB_C = cos(ANGLE * pi / 180); LB_S = sin(ANGLE * pi / 180)
lb_pu(x, y) = LB_C * x + LB_S * y
lb_pv(x, y) = LB_C * y - LB_S * x
# u of the point of the roof of bandwidth b at intensity x
lb_lu(b, x) = lb_pu(px_of(x), py_of(x * b))
MEM_ROOFS = ""
if (N_MEM_M > 0) {
    stats R using (is_mem("measured") ? MEM_ROOFS = MEM_ROOFS . " " . strcol("level") : "", 0) nooutput
}
do for [lb_l in MEM_ROOFS] {
    if (LB_NL < |LB_TEXT| && level_index(lb_l) > 0) {
        LB_NL = LB_NL + 1; LB_J = LB_NL; MEM_J[level_index(lb_l)] = LB_J
        stats R using (is_mem("measured") && strcol("level") eq lb_l ? (rv = column("value"), rs = label_side(lb_l), \
            LB_TEXT[LB_J] = sprintf("%s %sB/s", strcol("label"), si(rv)), \
            LB_UA = lb_pu(lab_px(rv, rs), lab_py(rv, rs)), LB_VA = lb_pv(lab_px(rv, rs), lab_py(rv, rs)), \
            LB_VB = lb_pv(lab_px(rv, -rs), lab_py(rv, -rs)), \
            LB_U0 = lb_lu(rv, mem_x0(rv)), LB_U1 = lb_lu(rv, mem_x1(rv, "measured"))) : "", 0) nooutput
        eval LB_SLOPED
    }
}
if (LB_NL > 0) {
    stats P using (strcol("shape") eq SHAPE ? lb_pt(clip_x(column("ai_flop_per_byte")), column("flop_per_s"), \
        column("bound") == 1 ? 3.6 : level_ps(strcol("level"))) : 0, 0) nooutput
    stats P using (strcol("shape") eq SHAPE && clipped(column("ai_flop_per_byte")) ? \
        lb_seg(XCLIP, column("flop_per_s"), XHI, column("flop_per_s")) : 0, 0) nooutput
    SEG_KEY = ""
    stats P using (strcol("shape") eq SHAPE ? (seg_step(clip_x(column("ai_flop_per_byte")), column("flop_per_s"), \
        kernel_key(0)) ? lb_seg(SEG_X0, SEG_Y0, SEG_X1, SEG_Y1) : 0) : (SEG_KEY = "", 0), 0) nooutput
    stats R using (rv = column("value"), \
        strcol("kind") eq "memory" ? lb_seg(mem_x0(rv), mem_x0(rv) * rv, mem_x1(rv, strcol("source")), \
                                            mem_x1(rv, strcol("source")) * rv) : \
        is_comp(strcol("source")) ? lb_seg(comp_x0(rv, strcol("source")), rv, XHI, rv) : \
        (is_ridge(1) || is_ridge(-1)) ? lb_pt(column("ridge_ai_flop_per_byte"), rv, 1.4) : 0, 0) nooutput
    eval LB_PICK
    eval LB_DRAW
    do for [lb_i = 1:4] {
        if (MEM_J[lb_i] > 0 && lb_moved(MEM_J[lb_i])) {
            lb_j = MEM_J[lb_i]
            MEM_MV[lb_i] = 1; MEM_X[lb_i] = lb_ax(lb_j); MEM_Y[lb_i] = lb_ay(lb_j)
            MEM_SIDE[lb_i] = (lb_vk(lb_j) % 2 ? 1 : -1) * label_side(word(LEVELS, lb_i))
            # in the smaller font: a label of its own, left out of the plot's labels (side 0)
            if (lb_vk(lb_j) > 2) {
                MEM_SIDE[lb_i] = 0
                set label 920 + lb_i LB_TEXT[lb_j] at first x_of(MEM_X[lb_i]), first y_of(MEM_Y[lb_i]) / T \
                    left rotate by ANGLE font LB_FONT tc rgb ROOF_COLOR front
            }
        }
    }
}
# where a bandwidth roof's label is drawn: where the placer moved it, else its first place
mem_moved(l) = level_index(l) > 0 && MEM_MV[level_index(l)]
mem_side(l) = mem_moved(l) ? MEM_SIDE[level_index(l)] : label_side(l)
mem_px(b, side) = mem_moved(strcol("level")) ? MEM_X[level_index(strcol("level"))] : lab_px(b, side)
mem_py(b, side) = mem_moved(strcol("level")) ? MEM_Y[level_index(strcol("level"))] : lab_py(b, side)

set logscale xy 10
set xrange [XLO:XHI]
set yrange [YLO / T:YHI / T]
set xlabel "arithmetic intensity  [FLOP/byte]  (2MNK / bytes moved at each level)"
set ylabel "performance  [TFLOP/s]"
set format x "%g"
set format y "%g"
set title sprintf("Hierarchical roofline (DRAM, L2, L1, shared memory)\n%s", TITLE)

# The plot, as strings, so the roof elements can be left out entirely without roofs:
# gnuplot resolves column names of a plot element even when its loop runs zero times.
ROOF_ELEMS = ' \
      for [u = 1:(N_MEM_M > 0)] R using (is_mem("measured") ? mem_x0(column("value")) : 1/0): \
          (mem_x0(column("value")) * column("value") / T): \
          (mem_x1(column("value"), "measured") - mem_x0(column("value"))): \
          ((mem_x1(column("value"), "measured") - mem_x0(column("value"))) * column("value") / T) \
          with vectors nohead lw 2.5 lc rgb ROOF_COLOR notitle, \
      for [u = 1:(N_MEM_T > 0)] R using (is_mem("theoretical") ? mem_x0(column("value")) : 1/0): \
          (mem_x0(column("value")) * column("value") / T): \
          (mem_x1(column("value"), "theoretical") - mem_x0(column("value"))): \
          ((mem_x1(column("value"), "theoretical") - mem_x0(column("value"))) * column("value") / T) \
          with vectors nohead lw 1.5 dt 2 lc rgb ROOF_COLOR notitle, \
      for [u = 1:(N_PEAK_M > 0)] R using (is_comp("measured") ? comp_x0(column("value"), "measured") : 1/0): \
          (column("value") / T):(XHI - comp_x0(column("value"), "measured")):(0) \
          with vectors nohead lw 2.5 lc rgb ROOF_COLOR notitle, \
      for [u = 1:(N_PEAK_T > 0)] R using (is_comp("theoretical") ? comp_x0(column("value"), "theoretical") : 1/0): \
          (column("value") / T):(XHI - comp_x0(column("value"), "theoretical")):(0) \
          with vectors nohead lw 1.5 dt 2 lc rgb ROOF_COLOR notitle, \
      for [side in "1 -1"] for [u = 1:(N_MEM_M > 0)] R using \
          (is_mem("measured") && mem_side(strcol("level")) == side ? x_of(mem_px(column("value"), side)) : 1/0): \
          (y_of(mem_py(column("value"), side)) / T):(sprintf("%s %sB/s", strcol("label"), si(column("value")))) \
          with labels left rotate by ANGLE tc rgb ROOF_COLOR notitle, \
      for [u = 1:(N_RIDGE > 0)] R using (is_ridge(1) || is_ridge(-1) ? column("ridge_ai_flop_per_byte") : 1/0): \
          (column("value") / T) with points pt 6 ps 1.4 lw 1.5 lc rgb "black" notitle, \
'
DATA_ELEMS = ' \
      P using (in_shape(column("bound") == 1 ? clip_x(column("ai_flop_per_byte")) : 1/0)):(column("flop_per_s") / T): \
          (vrgb(column("variant_index"))) with points pt 6 ps 3.6 lw 2 lc rgb variable notitle, \
      P using (in_shape(seg(clip_x(column("ai_flop_per_byte")), column("flop_per_s") / T, kernel_key(0)))):(SEG_Y0): \
          (SEG_X1 - SEG_X0):(SEG_Y1 - SEG_Y0):(vrgb(column("variant_index"))) \
          with vectors nohead lw 2 lc rgb variable notitle, \
      P using (in_shape(clip_x(column("ai_flop_per_byte")))):(column("flop_per_s") / T):(level_ps(strcol("level"))): \
          (vpt(column("variant_index"))):(vrgb(column("variant_index"))) \
          with points ps variable pt variable lw VARIANT_LW lc rgb variable notitle, \
      for [u = 1:(N_CLIP > 0)] P using (in_shape(clipped(column("ai_flop_per_byte")) ? XCLIP : 1/0)): \
          (column("flop_per_s") / T):(XHI - XCLIP):(0) \
          with vectors head filled size screen 0.008,25 lc rgb "#333333" notitle' \
    . variant_keys("linespoints ps 1.8 lw 2") . ', \
      keyentry with points pt 6 ps KEY_PS * level_ps("dram") lc rgb "black" title "marker size: DRAM", \
      keyentry with points pt 6 ps KEY_PS * level_ps("l2") lc rgb "black" title "L2", \
      keyentry with points pt 6 ps KEY_PS * level_ps("l1") lc rgb "black" title "L1", \
      keyentry with points pt 6 ps KEY_PS * level_ps("shared") lc rgb "black" title "shared (smallest)", \
      keyentry with points pt 6 ps KEY_PS * 3.6 lw 2 lc rgb "black" title "ring: the level that binds", \
      for [u = 1:(N_CLIP > 0)] keyentry with vectors head filled lc rgb "#333333" title "clipped at the edge, FLOP/B:", \
      for [u = 1:(N_CLIP > 0)] keyentry with points pt 6 lc rgb "white" title CLIP_KEY'
ROOF_KEYS = ', \
      keyentry with lines lw 2.5 lc rgb ROOF_COLOR title "measured ceiling", \
      keyentry with lines lw 1.5 dt 2 lc rgb ROOF_COLOR title "datasheet ceiling", \
      for [rk_j = 1:NRK] keyentry with points pt 6 ps 1.4 lw 1.5 lc rgb (rk_j % 3 == 1 ? "black" : "white") title RIDGE_KEY[rk_j]'

# the legend's rows: variants and family names, the level keys, the clip, roof and ridge keys
eval key_fit(NKROW + (NKEY > KEY_MAX) + 5 + 2 * (N_CLIP > 0) + (HAVE_ROOFS ? 2 + NRK : 0))
# a ridge title longer than the legend's width at 11 points ("BF16/FP16 tensor ridges,
# FLOP/B:") ran past the canvas: 10 points then, if key_fit left it larger
RK_LONG = 0
do for [rk_j = 1:NRK] { RK_LONG = RK_LONG || strlen(RIDGE_KEY[rk_j]) > 30 }
if (RK_LONG && strlen(key_fit(NKROW + (NKEY > KEY_MAX) + 5 + 2 * (N_CLIP > 0) + (HAVE_ROOFS ? 2 + NRK : 0))) == 0) {
    set key font ",10"
}
do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    SEG_KEY = ""
    eval 'plot ' . (HAVE_ROOFS ? ROOF_ELEMS : '') . DATA_ELEMS . (HAVE_ROOFS ? ROOF_KEYS : '')
    unset output
}

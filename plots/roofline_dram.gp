# The classic roofline: every variant x shape at DRAM level, against the DRAM and
# compute roofs (measured solid, datasheet dashed; each named just right of its ridge,
# clear of the kernels, which sit far right), each ridge point labelled with the
# two roofs that meet there. A variant is one colour and marker shape; the marker's size
# grows with the problem size, so no point carries a text label that could collide.
#   gnuplot -c plots/roofline_dram.gp POINTS ROOFS OUTBASE [TITLE] [FORMATS]
# POINTS   roofline_points.csv (variant,variant_index,m,n,k,shape,level,ai_flop_per_byte,
#          flop_per_s); every variant is drawn in one pass, coloured by variant_index
# ROOFS    roofline_roofs.csv (kind,roof,level,source,label,value,ridge_ai_flop_per_byte),
#          or "none" to draw the points alone
# OUTBASE  writes OUTBASE.png and OUTBASE.svg
# TITLE    GPU, shapes, precisions and date; FORMATS default "png svg"

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c roofline_dram.gp POINTS.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS]"
}
P = argv(1); R = argv(2); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
HAVE_ROOFS = (R ne "none" && strlen(R) > 0)
if (!not_a_command(P) || !not_a_command(R) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" P "variant variant_index m n k shape level ai_flop_per_byte flop_per_s" \
                      "variant_index m n k ai_flop_per_byte flop_per_s" ""
if (HAVE_ROOFS) {
    call DIR."check.gp" R "kind roof level source label value ridge_ai_flop_per_byte" "value" "ridge_ai_flop_per_byte"
}

# The variants and the extent of the DRAM-level points; the smallest and largest size.
eval load_variants("P", 'strcol("level") eq "dram"')
XMIN = 1e300; XMAX = 0; YMIN = 1e300; YMAX = 0; NPTS = 0
SZMIN = 1e300; SZMAX = 0; SZMIN_L = ""; SZMAX_L = ""
size_of(x) = (column("m") * column("n") * column("k")) ** (1.0 / 3)
stats P using (strcol("level") eq "dram" ? ( NPTS = NPTS + 1, \
        px = column("ai_flop_per_byte"), py = column("flop_per_s"), sz = size_of(0), \
        XMIN = px < XMIN ? px : XMIN, XMAX = px > XMAX ? px : XMAX, \
        YMIN = py < YMIN ? py : YMIN, YMAX = py > YMAX ? py : YMAX, \
        sz < SZMIN ? (SZMIN = sz, SZMIN_L = shape_label(column("m"), column("n"), column("k"), strcol("shape"))) : 0, \
        sz > SZMAX ? (SZMAX = sz, SZMAX_L = shape_label(column("m"), column("n"), column("k"), strcol("shape"))) : 0) \
        : 0, 0) nooutput
if (NPTS == 0) { exit error sprintf("%s: no rows at level 'dram' to plot", P) }
# Marker size from the problem size, log-scaled between the smallest and largest.
PS_LO = 1.4; PS_HI = 3.2
size_ps(sz) = SZMAX > SZMIN * 1.0001 ? PS_LO + (PS_HI - PS_LO) * log(sz / SZMIN) / log(SZMAX / SZMIN) : 1.8

# Roofs: highest compute peak and DRAM bandwidth of each source; how many of each kind.
PEAK_M = 0; PEAK_T = 0; BW_M = 0; BW_T = 0; N_RIDGE = 0; PEAK_LOW = 1e300; RIDGE_MAX = 0
if (HAVE_ROOFS) {
    stats R using (rk = strcol("kind"), rs = strcol("source"), rv = column("value"), \
        (rk eq "compute" && rv < PEAK_LOW) ? PEAK_LOW = rv : 0, \
        (rk eq "compute" && rs eq "measured" && rv > PEAK_M) ? PEAK_M = rv : 0, \
        (rk eq "compute" && rs eq "theoretical" && rv > PEAK_T) ? PEAK_T = rv : 0, \
        (rk eq "memory" && strcol("level") eq "dram") ? (rs eq "measured" ? BW_M = rv : (BW_T = rv)) : 0, \
        (rk eq "ridge" && strcol("level") eq "dram") ? (N_RIDGE = N_RIDGE + 1, \
            RIDGE_MAX = column("ridge_ai_flop_per_byte") > RIDGE_MAX ? column("ridge_ai_flop_per_byte") : RIDGE_MAX) : 0, \
        0) nooutput
}
PEAK = PEAK_M > PEAK_T ? PEAK_M : PEAK_T
if (HAVE_ROOFS) { eval load_peaks }
BW = BW_M > BW_T ? BW_M : BW_T
# Each roof meets the other roofs of its own source; fall back to the other source.
peak_of(s) = s eq "measured" ? (PEAK_M > 0 ? PEAK_M : PEAK) : (PEAK_T > 0 ? PEAK_T : PEAK)
bw_of(s) = s eq "measured" ? (BW_M > 0 ? BW_M : BW) : (BW_T > 0 ? BW_T : BW)
if (PEAK > 0) { YMAX = PEAK > YMAX ? PEAK : YMAX }
# Every ridge inside the frame, with room left of the lowest for the slope to show.
if (PEAK > 0 && BW > 0) {
    RIDGE_MAX = PEAK / BW > RIDGE_MAX ? PEAK / BW : RIDGE_MAX
    RIDGE_MAX = BW_M > 0 && PEAK / BW_M > RIDGE_MAX ? PEAK / BW_M : RIDGE_MAX
    XMIN = PEAK_LOW / BW < XMIN ? PEAK_LOW / BW : XMIN
}
# Points far right of the last ridge are clipped; the axis fits the others.
if (RIDGE_MAX > 0) { CLIP_X = RIDGE_MAX * CLIP_FACTOR }
XIN = RIDGE_MAX
stats P using (strcol("level") eq "dram" && column("ai_flop_per_byte") <= CLIP_X ? \
        (XIN = column("ai_flop_per_byte") > XIN ? column("ai_flop_per_byte") : XIN) : 0, 0) nooutput
N_CLIP = 0
stats P using (strcol("level") eq "dram" && clipped(column("ai_flop_per_byte")) ? N_CLIP = N_CLIP + 1 : 0, 0) nooutput
XLO = XMIN / 8; XHI = XIN * (N_CLIP > 0 ? 6 : 4)
XCLIP = XHI / 1.6
YLO = YMIN / 2.5; YHI = YMAX * 2.2
HAS_MEM = BW > 0; HAS_PEAK = PEAK > 0
N_MEM_M = BW_M > 0; N_MEM_T = BW_T > 0; N_PEAK_M = PEAK_M > 0; N_PEAK_T = PEAK_T > 0

# Geometry of a DRAM roof of bandwidth b: from the left or bottom edge to its ridge.
mem_x0(b) = XLO > YLO / b ? XLO : YLO / b
mem_x1(b, s) = peak_of(s) > 0 ? peak_of(s) / b : XHI
# A compute roof starts at its ridge with the DRAM roof of its source.
comp_x0(p, s) = bw_of(s) > 0 ? p / bw_of(s) : XLO
# Each compute roof's ridge with DRAM, told in that roof's label, above the roof where no
# kernel can be (beside its circle it was drawn over the kernels just under the roof).
RIDGES = ""
if (N_RIDGE > 0) {
    stats R using (strcol("kind") eq "ridge" && strcol("level") eq "dram" ? RIDGES = RIDGES . " " . \
        strcol("roof")[strstrt(strcol("roof"), "/") + 1:] . sprintf(" %.6e", column("ridge_ai_flop_per_byte")) : 0, 0) nooutput
}
ridge_text(r) = word_pos(RIDGES, r) > 0 ? sprintf(", ridge %s FLOP/B", g3(word(RIDGES, word_pos(RIDGES, r) + 1) + 0)) : ""
is_row(kind, src) = strcol("kind") eq kind && strcol("source") eq src && \
                    (kind eq "compute" || strcol("level") eq "dram")
T = 1e12
ANGLE = slope_angle(XLO, XHI, YLO, YHI)

# Each compute roof's label on a stretch of its lines that no kernel, ridge or other roof
# crosses (common.gp's placer): from just right of its ridge rightwards, above first.
LB_ROOFS = ""
if (HAVE_ROOFS) {
    stats R using (peak_label_row(0) ? LB_ROOFS = LB_ROOFS . " " . strcol("roof") : "", 0) nooutput
}
do for [lb_r in LB_ROOFS] {
    if (LB_NL < |LB_TEXT|) {
        LB_NL = LB_NL + 1; LB_J = LB_NL
        stats R using (peak_label_row(0) && strcol("roof") eq lb_r ? ( \
            LB_TEXT[LB_J] = peak_text(lb_r, strcol("label")) . ridge_text(lb_r), \
            LB_SHORT[LB_J] = peak_short(lb_r, strcol("label")) . ridge_text(lb_r), \
            LB_TINY[LB_J] = peak_short(lb_r, strcol("label")), \
            LB_XS = lb_max(PLOT_X0 + 4, px_of(comp_x0(column("value"), strcol("source"))) + 8)) : "", 0) nooutput
        LB_XE = PLOT_X1 - 4; LB_DIR = 1
        LB_YA = py_of(peak_hi(lb_r)) + LB_GAP; LB_YB = py_of(peak_lo(lb_r)) - LB_GAP
        eval LB_CANDIDATES
    }
}
if (LB_NL > 0) {
    stats P using (strcol("level") eq "dram" ? lb_pt(clip_x(column("ai_flop_per_byte")), column("flop_per_s"), \
        size_ps(size_of(0))) : 0, 0) nooutput
    # a clipped point's arrow to the edge and its text, right-aligned 2 characters left of it
    stats P using (strcol("level") eq "dram" && clipped(column("ai_flop_per_byte")) ? ( \
        lb_seg(XCLIP, column("flop_per_s"), XHI, column("flop_per_s")), \
        lb_cx = px_of(XCLIP) - 2 * 0.6 * 9, lb_cy = py_of(column("flop_per_s")), \
        lb_box(lb_cx - 0.6 * 9 * strlen(sprintf(CLIP_TEXT, column("ai_flop_per_byte"))), lb_cy - 6, lb_cx, lb_cy + 6)) \
        : 0, 0) nooutput
    stats R using (rv = column("value"), \
        is_row("memory", strcol("source")) ? lb_seg(mem_x0(rv), mem_x0(rv) * rv, mem_x1(rv, strcol("source")), \
                                                    mem_x1(rv, strcol("source")) * rv) : \
        is_row("compute", strcol("source")) ? lb_seg(comp_x0(rv, strcol("source")), rv, XHI, rv) : \
        (strcol("kind") eq "ridge" && strcol("level") eq "dram") ? lb_pt(column("ridge_ai_flop_per_byte"), rv, 1.8) : 0, \
        0) nooutput
    eval LB_PICK
    eval LB_DRAW
}

set logscale xy 10
set xrange [XLO:XHI]
set yrange [YLO / T:YHI / T]
set xlabel "arithmetic intensity at DRAM  [FLOP/byte]  (2MNK / DRAM bytes read + written)"
set ylabel "performance  [TFLOP/s]"
set format x "%g"
set format y "%g"
set title sprintf("DRAM roofline, every variant and size (marker size: problem size)\n%s", TITLE)

# The plot, as strings, so the roof elements can be left out entirely without roofs:
# gnuplot resolves column names of a plot element even when its loop runs zero times.
ROOF_ELEMS = ' \
      for [u = 1:N_MEM_M] R using (is_row("memory", "measured") ? mem_x0(column("value")) : 1/0): \
          (mem_x0(column("value")) * column("value") / T): \
          (mem_x1(column("value"), "measured") - mem_x0(column("value"))): \
          ((mem_x1(column("value"), "measured") - mem_x0(column("value"))) * column("value") / T) \
          with vectors nohead lw 3 lc rgb ROOF_COLOR notitle, \
      for [u = 1:N_MEM_T] R using (is_row("memory", "theoretical") ? mem_x0(column("value")) : 1/0): \
          (mem_x0(column("value")) * column("value") / T): \
          (mem_x1(column("value"), "theoretical") - mem_x0(column("value"))): \
          ((mem_x1(column("value"), "theoretical") - mem_x0(column("value"))) * column("value") / T) \
          with vectors nohead lw 2 dt 2 lc rgb ROOF_COLOR notitle, \
      for [u = 1:N_PEAK_M] R using (is_row("compute", "measured") ? comp_x0(column("value"), "measured") : 1/0): \
          (column("value") / T):(XHI - comp_x0(column("value"), "measured")):(0) \
          with vectors nohead lw 3 lc rgb ROOF_COLOR notitle, \
      for [u = 1:N_PEAK_T] R using (is_row("compute", "theoretical") ? comp_x0(column("value"), "theoretical") : 1/0): \
          (column("value") / T):(XHI - comp_x0(column("value"), "theoretical")):(0) \
          with vectors nohead lw 2 dt 2 lc rgb ROOF_COLOR notitle, \
      for [u = 1:N_MEM_M] R using (is_row("memory", "measured") ? mem_x0(column("value")) * 1.5 : 1/0): \
          (mem_x0(column("value")) * 1.5 * column("value") / T): \
          (sprintf("%s %sB/s measured", strcol("label"), si(column("value")))) \
          with labels left rotate by ANGLE offset 0,-1.0 tc rgb ROOF_COLOR notitle, \
      for [u = 1:N_MEM_T] R using (is_row("memory", "theoretical") ? mem_x0(column("value")) * 1.5 : 1/0): \
          (mem_x0(column("value")) * 1.5 * column("value") / T): \
          (sprintf("%s %sB/s datasheet", strcol("label"), si(column("value")))) \
          with labels left rotate by ANGLE offset 0,1.4 tc rgb ROOF_COLOR notitle, \
      for [u = 1:(N_RIDGE > 0)] R using (strcol("kind") eq "ridge" && strcol("level") eq "dram" ? \
          column("ridge_ai_flop_per_byte") : 1/0):(column("value") / T) \
          with points pt 6 ps 1.8 lw 2 lc rgb "black" notitle, \
'
DATA_ELEMS = ' \
      P using (strcol("level") eq "dram" ? clip_x(column("ai_flop_per_byte")) : 1/0):(column("flop_per_s") / T): \
          (size_ps(size_of(0))):(vpt(column("variant_index"))):(vrgb(column("variant_index"))) \
          with points ps variable pt variable lw VARIANT_LW lc rgb variable notitle, \
      for [u = 1:(N_CLIP > 0)] P using (strcol("level") eq "dram" && clipped(column("ai_flop_per_byte")) ? \
          XCLIP : 1/0):(column("flop_per_s") / T):(sprintf(CLIP_TEXT, column("ai_flop_per_byte"))) \
          with labels right offset -2.0,0 font ",9" tc rgb "#333333" notitle, \
      for [u = 1:(N_CLIP > 0)] P using (strcol("level") eq "dram" && clipped(column("ai_flop_per_byte")) ? \
          XCLIP : 1/0):(column("flop_per_s") / T):(XHI - XCLIP):(0) \
          with vectors head filled size screen 0.008,25 lc rgb "#333333" notitle' \
    . variant_keys("points ps 1.8 lw VARIANT_LW") . ', \
      for [u = 1:(SZMAX > SZMIN * 1.0001)] keyentry with points pt 6 ps PS_LO lc rgb "black" title sprintf("size %s", SZMIN_L), \
      for [u = 1:(SZMAX > SZMIN * 1.0001)] keyentry with points pt 6 ps PS_HI lc rgb "black" title sprintf("size %s", SZMAX_L), \
      for [u = 1:(N_CLIP > 0)] keyentry with vectors head filled lc rgb "#333333" title "clipped at the right edge"'
ROOF_KEYS = ', \
      keyentry with lines lw 3 lc rgb ROOF_COLOR title "measured ceiling", \
      keyentry with lines lw 2 dt 2 lc rgb ROOF_COLOR title "datasheet ceiling", \
      keyentry with points pt 6 ps 1.8 lw 2 lc rgb "black" title "ridge point"'

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    eval 'plot ' . (HAVE_ROOFS ? ROOF_ELEMS : '') . DATA_ELEMS . (HAVE_ROOFS ? ROOF_KEYS : '')
    unset output
}

# Throughput against problem size: one line per variant (its colour and marker shape),
# log2 size axis, each point with an error bar over the min-max of its timed
# repetitions, with the FP32 FMA and TF32 compute roofs (measured solid, datasheet dashed).
#   gnuplot -c plots/sweep.gp SWEEP ROOFS OUTBASE [TITLE] [FORMATS]
# SWEEP    sweep.csv (variant,variant_index,m,n,k,size,flop_per_s,time_min_s,time_max_s,
#          time_median_s; an empty min or max draws no bar); consecutive rows of one
#          variant are joined, so each variant's rows must be together and in size order
#          (gemmprof writes them so); every variant is drawn in one pass over the file
# ROOFS    roofline_roofs.csv (kind,roof,source,label,value), or "none"
# OUTBASE  writes OUTBASE.png and OUTBASE.svg; TITLE: GPU and date; FORMATS default "png svg"

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c sweep.gp SWEEP.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS]"
}
S = argv(1); R = argv(2); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
HAVE_ROOFS = (R ne "none" && strlen(R) > 0)
if (!not_a_command(S) || !not_a_command(R) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" S "variant variant_index m n k size flop_per_s time_min_s time_max_s time_median_s" \
    "variant_index m n k size flop_per_s time_median_s" "time_min_s time_max_s"
if (HAVE_ROOFS) { call DIR."check.gp" R "kind roof source label value" "value" "" }

eval load_variants("S", "1")
# A tic at each measured size while there are few; past SIZES_MAX, plain log2 tics
# (the list stops growing, so this pass stays linear in the rows).
SIZES = ""; SIZES_MAX = 24; NROWS = 0; NBARS = 0
XMIN = 1e300; XMAX = 0; YMIN = 1e300; YMAX = 0; ALL_SQUARE = 1
stats S using (NROWS = NROWS + 1, ps = sprintf("%.0f", column("size")), \
        SIZES = words(SIZES) > SIZES_MAX || word_pos(SIZES, ps) ? SIZES : SIZES." ".ps, \
        ALL_SQUARE = ALL_SQUARE && column("m") == column("n") && column("n") == column("k"), \
        px = column("size"), py = column("flop_per_s"), \
        NBARS = NBARS + (column("time_max_s") > 0 && column("time_min_s") > 0), \
        XMIN = px < XMIN ? px : XMIN, XMAX = px > XMAX ? px : XMAX, \
        YMIN = py < YMIN ? py : YMIN, YMAX = py > YMAX ? py : YMAX, 0) nooutput
SIZE_TICS = words(SIZES) <= SIZES_MAX
# The FLOP/s of the slowest and the fastest repetition: the error bar's ends.
flops_at(t) = t > 0 ? column("flop_per_s") * column("time_median_s") / t / T : 1/0

is_peak(r) = r eq "fp32_fma" || r eq "tf32" || r eq "tf32_wgmma" || is_16bit(r)
is_comp(src) = strcol("kind") eq "compute" && strcol("source") eq src && is_peak(strcol("roof"))
N_PEAK_M = 0; N_PEAK_T = 0
if (HAVE_ROOFS) {
    stats R using (strcol("kind") eq "compute" && is_peak(strcol("roof")) ? ( \
        rv = column("value"), YMAX = rv > YMAX ? rv : YMAX, \
        strcol("source") eq "measured" ? N_PEAK_M = N_PEAK_M + 1 : (N_PEAK_T = N_PEAK_T + 1)) : 0, 0) nooutput
}
if (HAVE_ROOFS) { eval load_peaks }
XLO = XMIN / 1.4; XHI = XMAX * 1.4
YLO = YMIN / 2.0; YHI = YMAX * 2.0
T = 1e12

# Each compute roof's label on a stretch of its lines that no kernel's line, marker or bar
# crosses (common.gp's placer): left to right, above the lines first.
LB_ROOFS = ""
if (HAVE_ROOFS) {
    stats R using (peak_label_row(0) && is_peak(strcol("roof")) ? LB_ROOFS = LB_ROOFS . " " . strcol("roof") : "", 0) nooutput
}
do for [lb_r in LB_ROOFS] {
    if (LB_NL < |LB_TEXT|) {
        LB_NL = LB_NL + 1; LB_J = LB_NL
        stats R using (peak_label_row(0) && strcol("roof") eq lb_r ? (LB_TEXT[LB_J] = peak_text(lb_r, strcol("label")), \
            LB_SHORT[LB_J] = peak_short(lb_r, strcol("label"))) : "", 0) nooutput
        LB_XS = PLOT_X0 + 4; LB_XE = PLOT_X1 - 4; LB_DIR = 1
        LB_YA = py_of(peak_hi(lb_r)) + LB_GAP; LB_YB = py_of(peak_lo(lb_r)) - LB_GAP
        eval LB_CANDIDATES
    }
}
if (LB_NL > 0) {
    stats S using (lb_pt(column("size"), column("flop_per_s"), 1.7), 0) nooutput
    SEG_KEY = ""
    stats S using (seg_step(column("size"), column("flop_per_s"), strcol("variant_index")) ? \
        lb_seg(SEG_X0, SEG_Y0, SEG_X1, SEG_Y1) : 0, 0) nooutput
    if (NBARS > 0) {
        stats S using (column("time_max_s") > 0 && column("time_min_s") > 0 ? lb_seg(column("size"), \
            flops_at(column("time_max_s")) * T, column("size"), flops_at(column("time_min_s")) * T) : 0, 0) nooutput
    }
    stats R using (strcol("kind") eq "compute" && is_peak(strcol("roof")) ? lb_seg(XLO, column("value"), XHI, column("value")) : 0, 0) nooutput
    eval LB_PICK
    eval LB_DRAW
}

set logscale x 2
set logscale y 10
set xrange [XLO:XHI]
set yrange [YLO / T:YHI / T]
set xlabel ALL_SQUARE ? "matrix size N  (M = N = K), log2 scale" : \
                        "size  (M x N x K)^(1/3), log2 scale"
set ylabel "performance  [TFLOP/s]  (2MNK / median time)"
set format x "%g"
set format y "%g"
if (SIZE_TICS) {
    set xtics () nomirror
    # a tic within 15% of one already set is left out: "1016" and "1024" would print as one
    TICS_SET = ""
    near(v) = sum [nj = 1:words(TICS_SET)] (abs(log(v * 1.0 / word(TICS_SET, nj))) < log(1.15) ? 1 : 0)
    do for [i = 1:words(SIZES)] {
        if (near(word(SIZES, i) + 0) == 0) {
            set xtics add (word(SIZES, i) word(SIZES, i) + 0)
            TICS_SET = TICS_SET . " " . word(SIZES, i)
        }
    }
    set mxtics 1
}
set title sprintf("Throughput against size, per variant%s\n%s", NBARS > 0 ? " (bars: min-max of the repetitions)" : "", TITLE)

# The plot, as strings, so the roof elements can be left out entirely without roofs:
# gnuplot resolves column names of a plot element even when its loop runs zero times.
ROOF_ELEMS = ' \
      for [u = 1:(N_PEAK_M > 0)] R using (is_comp("measured") ? XLO : 1/0):(column("value") / T): \
          (XHI - XLO):(0) with vectors nohead lw 2.5 lc rgb ROOF_COLOR notitle, \
      for [u = 1:(N_PEAK_T > 0)] R using (is_comp("theoretical") ? XLO : 1/0):(column("value") / T): \
          (XHI - XLO):(0) with vectors nohead lw 1.5 dt 2 lc rgb ROOF_COLOR notitle, \
'
DATA_ELEMS = ' \
      S using (seg(column("size"), column("flop_per_s") / T, strcol("variant_index"))):(SEG_Y0): \
          (SEG_X1 - SEG_X0):(SEG_Y1 - SEG_Y0):(vrgb(column("variant_index"))) \
          with vectors nohead lw 2.5 lc rgb variable notitle, \
      for [u = 1:(NBARS > 0)] S using "size":(column("flop_per_s") / T):(flops_at(column("time_max_s"))): \
          (flops_at(column("time_min_s"))):(vrgb(column("variant_index"))) \
          with yerrorbars ps 0 lw 1.5 lc rgb variable notitle, \
      S using "size":(column("flop_per_s") / T):(vpt(column("variant_index"))):(vrgb(column("variant_index"))) \
          with points pt variable ps 1.7 lw VARIANT_LW lc rgb variable notitle' \
    . variant_keys("linespoints ps 1.7 lw 2.5") . ', \
      for [u = 1:(NBARS > 0)] keyentry with yerrorbars ps 0 lw 1.5 lc rgb "black" title "min-max of the repetitions"'

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    SEG_KEY = ""
    eval 'plot ' . (HAVE_ROOFS ? ROOF_ELEMS : '') . DATA_ELEMS
    unset output
}

# Instruction roofline (Ding and Williams): FLOP/s against FLOP per warp instruction. The
# issue roof is y = x x peak issue rate (one warp instruction per SM sub-partition per
# cycle: 4 x SMs x clock), capped by each compute ceiling of the rows.
#   gnuplot -c plots/issue_roofline.gp POINTS ROOFS OUTBASE [TITLE] [FORMATS]
# POINTS   issue_points.csv (variant,variant_index,shape,flop_per_inst,flop_per_s,
#          issue_peak_inst_per_s,compute_peak_flop_per_s; a compute peak of 0 is unknown;
#          optional compute_roof, the ceiling's name, e.g. "3xTF32: TF32 / 3", for the legend)
# ROOFS    not read (every chart script takes the same arguments)
# OUTBASE  writes OUTBASE.png and OUTBASE.svg; TITLE: GPU and date; FORMATS default "png svg"

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c issue_roofline.gp POINTS.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS]"
}
P = argv(1); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
if (!not_a_command(P) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" P "variant variant_index shape flop_per_inst flop_per_s issue_peak_inst_per_s compute_peak_flop_per_s" \
    "variant_index flop_per_inst flop_per_s issue_peak_inst_per_s compute_peak_flop_per_s" ""

eval load_variants("P", "1")
# The roof at the highest issue peak of the rows (their clocks differ a little), and every
# distinct compute ceiling the rows are held to (FP32 FMA, TF32 tensor, and the tensor
# ceiling over 3 for 3xTF32): CPS lists them, lowest and highest kept for the ranges.
IP = 0; CPLO = 1e300; CPHI = 0; CPS = ""
# CPN[j]: the name of the j-th roof in CPS ("" without a compute_roof column)
eval has_column("P", "compute_roof", "HAVE_CPN")
stats P using 0 nooutput
array CPN[STATS_records + 1]
cp_name(x) = HAVE_CPN ? strcol("compute_roof") : ""
cp_key(cp) = sprintf(" %.4e", cp)
# a row's compute roof joins the list unless one within 3% is there: each row's roof is
# scaled by its own clock, so exact keys made the list as long as the table and the
# clustering below cubic in it (over 19 minutes at 100,000 rows); the chart draws one roof
# per 5% anyway, so a roof drawn may sit up to 3% under its cluster's highest row
cp_near(cp) = words(CPS) == 0 ? 0 : sum [cp_w = 1:words(CPS)] (abs(word(CPS, cp_w) + 0 - cp) <= 0.03 * cp)
XMIN = 1e300; XMAX = 0; YMIN = 1e300; YMAX = 0
stats P using (px = column("flop_per_inst"), py = column("flop_per_s"), ip = column("issue_peak_inst_per_s"), \
        cp = column("compute_peak_flop_per_s"), IP = ip > IP ? ip : IP, \
        CPLO = cp > 0 && cp < CPLO ? cp : CPLO, CPHI = cp > CPHI ? cp : CPHI, \
        cp > 0 && cp_near(cp) == 0 ? (CPS = CPS . cp_key(cp), CPN[words(CPS)] = cp_name(0)) : 0, \
        XMIN = px < XMIN ? px : XMIN, XMAX = px > XMAX ? px : XMAX, \
        YMIN = py < YMIN ? py : YMIN, YMAX = py > YMAX ? py : YMAX, 0) nooutput
HAVE_CP = CPHI > 0
# x from the ridge(s) and the points: every roof's corner is in view
XLO = (HAVE_CP && CPLO / IP < XMIN ? CPLO / IP : XMIN) / 6.0
XHI = (HAVE_CP && CPHI / IP > XMAX ? CPHI / IP : XMAX) * 4.0
YTOP = HAVE_CP && CPHI > YMAX ? CPHI : YMAX
YLO = YMIN / 2.5; YHI = YTOP * 2.2
T = 1e12
roof(x, cp) = (x * IP < cp || cp <= 0) ? x * IP / T : cp / T

set logscale x 10
set logscale y 10
set xrange [XLO:XHI]
set yrange [YLO / T:YHI / T]
set format x "%g"
set format y "%g"
set xlabel "FLOP per warp instruction (analytic 2MNK / smsp__inst_executed.sum), log scale"
set ylabel "TFLOP/s, log scale"
set title sprintf("Instruction roofline, every variant and size: issue peak %s warp inst/s (4 x SMs x clock)\n%s", si(IP), TITLE)
set samples 400
# Ridge labels: one per cluster of roofs within 15% of each other (the highest), so that
# two close ceilings (the tensor ceiling at two clocks, 478 and 453 TFLOP/s) do not print
# one label over the other; every ridge keeps its marker and every roof its legend entry.
CPL = ""
# Roofs drawn: one per cluster within 5% (the highest): each row's SM-side roofs are scaled
# by its own clock, so one ceiling arrives as many values a few percent apart.
# CPDN[k]: the k-th drawn roof's legend entry, "3xTF32: TF32 / 3  176 TFLOP/s".
CPD = ""
array CPDN[words(CPS) + 1]
if (HAVE_CP) {
    do for [i = 1:words(CPS)] {
        CP_C = word(CPS, i) + 0; CP_KEEP = 1
        do for [j = 1:words(CPS)] { CP_D = word(CPS, j) + 0; if (CP_D > CP_C && CP_D < CP_C * 1.05) { CP_KEEP = 0 } }
        if (CP_KEEP) {
            CPD = CPD . cp_key(CP_C)
            CPDN[words(CPD)] = sprintf("%s %s TFLOP/s", strlen(CPN[i]) > 0 ? CPN[i] : "roof", g3(CP_C / 1e12))
        }
    }
}
if (HAVE_CP) {
    do for [i = 1:words(CPS)] {
        CP_C = word(CPS, i) + 0; CP_KEEP = 1
        do for [j = 1:words(CPS)] { CP_D = word(CPS, j) + 0; if (CP_D > CP_C && CP_D < CP_C * 1.15) { CP_KEEP = 0 } }
        if (CP_KEEP) { CPL = CPL . cp_key(CP_C) }
    }
}

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    eval 'plot ' . \
      (HAVE_CP ? 'for [i = 1:words(CPD)] roof(x, word(CPD, i) + 0) with lines lw 2 dt i lc rgb ROOF_COLOR ' . \
                 'title CPDN[i], ' \
               : 'roof(x, 0) with lines lw 2 lc rgb ROOF_COLOR title "issue roof", ') . \
      'P using (column("flop_per_inst")):(column("flop_per_s") / T):(vpt(column("variant_index"))):(vrgb(column("variant_index"))) ' . \
      'with points pt variable ps 1.8 lw VARIANT_LW lc rgb variable notitle' . \
      (HAVE_CP ? ', for [c in CPD] ' . \
      'P every ::0::0 using ((c + 0) / IP):((c + 0) / T) with points pt 6 ps 1.6 lw 1.5 lc rgb "black" notitle' . \
      ', for [c in CPL] ' . \
      'P every ::0::0 using ((c + 0) / IP):((c + 0) / T):(sprintf("ridge, issue and %sFLOP/s roofs: %s FLOP/inst", si(c + 0), g3((c + 0) / IP))) ' . \
      'with labels right offset -1.0,0.9 font ",10" notitle' : '') . \
      variant_keys("points ps 1.8 lw VARIANT_LW")
    unset output
}

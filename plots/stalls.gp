# Warp-stall breakdown per variant: one stacked bar per variant (its largest shape with
# stall counters), each segment a stall reason's share of the stalled warps per issued
# instruction (ratio / sum of ratios, ncu's WarpStateStats).
#   gnuplot -c plots/stalls.gp STALLS ROOFS OUTBASE [TITLE] [FORMATS]
# STALLS   stalls.csv (variant,variant_index,slot,shape,reason,reason_index,share,base,top):
#          one line per bar and reason; [base, top) is the segment
# ROOFS    not read (every chart script takes the same arguments)
# OUTBASE  writes OUTBASE.png and OUTBASE.svg; TITLE: GPU and date; FORMATS default "png svg"

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c stalls.gp STALLS.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS]"
}
P = argv(1); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
if (!not_a_command(P) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" P "variant variant_index slot shape reason reason_index share base top" \
    "variant_index slot reason_index share base top" ""

# Bars (slots) and reasons, named from the file itself: a name may hold spaces.
stats P using (column("slot")) nooutput
NS = int(STATS_max)
stats P using (column("reason_index")) nooutput
NR = int(STATS_max)
array SLOT_LABEL[NS]
array REASON[NR]
do for [i = 1:NS] { SLOT_LABEL[i] = "" }
do for [i = 1:NR] { REASON[i] = "" }
# a cube MxMxM is labelled M³, so neighbouring labels do not run into each other
shape_label(s) = (SHP_P = strstrt(s, "x"), SHP_M = SHP_P > 1 ? s[1:SHP_P - 1] : s, \
                  s eq SHP_M . "x" . SHP_M . "x" . SHP_M ? SHP_M . "³" : s)
# one shape for every bar: named once, in the title (which gemmprof gives), not under
# each bar, where long names such as 8192x64x4096 would run into each other
SHAPE1 = ""; ONE_SHAPE = 1
stats P using (SHAPE1 = strlen(SHAPE1) ? SHAPE1 : strcol("shape"), \
               ONE_SHAPE = ONE_SHAPE && strcol("shape") eq SHAPE1, 0) nooutput
stats P using (SLOT_LABEL[int(column("slot"))] = strcol("variant") . \
                   (ONE_SHAPE ? "" : "\n" . shape_label(strcol("shape"))), \
               REASON[int(column("reason_index"))] = strcol("reason"), 0) nooutput

# Reasons in a fixed qualitative palette (Okabe-Ito, its yellow replaced by Paul Tol's
# olive: no yellow on white); "other" (the last) in grey.
REASON_COLORS = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #999933 #999999"
rcolor(j) = REASON[j] eq "other" ? "#BBBBBB" : word(REASON_COLORS, (j - 1) % 7 + 1)
in_reason(j) = int(column("reason_index")) == j
HALF = 0.34
# two-line tic labels, and each variant's marker (its colour and shape in every chart)
# under them: room below for the axis label. More bars than fit side by side (past 10
# the names ran into each other): the marker right under the bar, the name slanted below it.
MANY = NS > 10
set bmargin at screen (MANY ? 0.26 : 0.17)
MARK_Y = MANY ? -0.035 : -0.105
array SLOT_VIDX[NS]
stats P using (SLOT_VIDX[int(column("slot"))] = int(column("variant_index")), 0) nooutput
do for [i = 1:NS] { \
    set label sprintf("") at i, graph MARK_Y center point pt vpt(SLOT_VIDX[i]) ps 1.8 lw VARIANT_LW \
        lc rgb vcolor(SLOT_VIDX[i]) }

set xrange [0.4:NS + 0.6]
set yrange [0:1]
set xtics () scale 0
do for [i = 1:NS] { set xtics add (SLOT_LABEL[i] i) }
set ytics ("0%%" 0, "20%%" 0.2, "40%%" 0.4, "60%%" 0.6, "80%%" 0.8, "100%%" 1.0)
set grid noxtics nomxtics ytics nomytics
set ylabel "share of stalled warps per issued instruction"
set xlabel (ONE_SHAPE ? sprintf("variant, at its largest shape with stall counters: %s", SHAPE1) : \
            "variant, at its largest shape with stall counters") offset 0, (MANY ? -1.5 : -3.4)
# differing shapes under each bar: a smaller font, so neighbours do not touch
if (!ONE_SHAPE) { set xtics font ",10" }
if (MANY) { set xtics rotate by 40 right offset 0.8, -1.3 }
set style fill solid 0.9 border lc rgb "#333333"
set title sprintf("Warp-stall breakdown (ratio of each reason / sum of ratios)\n%s", TITLE)

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    plot \
      for [j = 1:NR] P using (in_reason(j) ? column("slot") : 1/0):((column("base") + column("top")) / 2): \
          (column("slot") - HALF):(column("slot") + HALF):(column("base")):(column("top")) \
          with boxxyerror lc rgb rcolor(j) title REASON[j], \
      P using (column("share") >= 0.06 ? column("slot") : 1/0):((column("base") + column("top")) / 2): \
          (sprintf("%.0f%%", 100 * column("share"))) with labels font ",10" notitle
    unset output
}

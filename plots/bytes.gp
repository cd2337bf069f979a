# Bytes moved at each memory level, per variant, at one shape: clustered bars on a log
# scale, each bar labelled with its value.
#   gnuplot -c plots/bytes.gp POINTS OUTBASE [TITLE] [FORMATS] [SHAPE]
# POINTS   roofline_points.csv (variant,variant_index,shape,level,bytes); one group of bars
#          per variant_index present at SHAPE
# OUTBASE  writes OUTBASE.png and OUTBASE.svg; TITLE: GPU and date; FORMATS default
#          "png svg"; SHAPE e.g. 2048x2048x2048 (default: the shape of the first row)

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(2)) == 0) {
    exit error "usage: gnuplot -c bytes.gp POINTS.csv OUTBASE [TITLE] [FORMATS] [SHAPE]"
}
P = argv(1); OUT = argv(2)
TITLE = strlen(argv(3)) ? argv(3) : "GPU unknown"
FORMATS = strlen(argv(4)) ? argv(4) : "png svg"
SHAPE = argv(5)
if (!not_a_command(P) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" P "variant variant_index shape level bytes" "variant_index bytes" ""
if (strlen(SHAPE) == 0) {
    stats P every ::0::0 using (SHAPE = strcol("shape"), 0) nooutput
}
eval load_variants("P", 'strcol("shape") eq SHAPE && level_index(strcol("level")) > 0')
if (NKEY == 0) { exit error sprintf("%s: no rows of shape '%s'", P, SHAPE) }
# Each variant present gets a slot on the x axis, in variant_index order.
array SLOT[NV]
NSLOT = 0
do for [i = 1:NV] { NSLOT = NSLOT + (strlen(VN[i]) > 0); SLOT[i] = strlen(VN[i]) > 0 ? NSLOT : 0 }
YMIN = 1e300; YMAX = 0
stats P using (strcol("shape") eq SHAPE && level_index(strcol("level")) > 0 ? ( \
        py = column("bytes"), YMIN = py < YMIN ? py : YMIN, YMAX = py > YMAX ? py : YMAX) : 0, 0) nooutput
YLO = dec_floor(YMIN / 3.0); YHI = dec_ceil(YMAX * 4.0)

LEVEL_COLORS = "#4D4D4D #1B9E77 #D95F02 #7570B3"
lcolor(j) = word(LEVEL_COLORS, j)
BAR = 0.19
bar_x(l) = SLOT[int(column("variant_index"))] + (level_index(l) - 2.5) * (BAR + 0.02)
in_level(j) = strcol("shape") eq SHAPE && level_index(strcol("level")) == j

set logscale y 10
set xrange [0.4:NSLOT + 0.6]
set yrange [YLO:YHI]
set xtics () scale 0
do for [i = 1:NV] { if (SLOT[i] > 0) { set xtics add (VN[i] SLOT[i]) } }
set grid noxtics nomxtics ytics mytics
set format y "%.0s %cB"
# room above the tallest bar for its rotated label
set offsets 0, 0, graph 0.12, 0
set ylabel "bytes moved  (log scale)"
set xlabel "variant      (shared = 128 B x shared-memory wavefronts: an upper bound)"
set style fill solid 0.85 border lc rgb "#333333"
set title sprintf("Bytes moved per memory level at M x N x K = %s\n%s", SHAPE, TITLE)

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    plot \
      for [j = 1:4] P using (in_level(j) ? bar_x(strcol("level")) : 1/0):(column("bytes")): \
          (bar_x(strcol("level")) - BAR / 2):(bar_x(strcol("level")) + BAR / 2):(YLO):(column("bytes")) \
          with boxxyerror lc rgb lcolor(j) title word(LEVEL_NAMES, j), \
      for [j = 1:4] P using (in_level(j) ? bar_x(strcol("level")) : 1/0):(column("bytes")): \
          (sprintf("%sB", si(column("bytes")))) \
          with labels left rotate by 90 offset 0,0.5 font ",8" notitle
    unset output
}

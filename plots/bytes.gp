# Bytes per FMA at each memory level, per variant, at one shape: the bytes a level moved
# divided by the M x N x K fused multiply-adds of the GEMM. Clustered bars on a log scale
# (no value labels: 76 of them ran into each other; the values are in roofline_points.csv
# and the report), each variant's colour and marker under its name. The axis starts at
# the decade below the median over BYTES_FLOOR: a lone 2e-5 B (cuBLAS TF32's L1) had stretched it over
# four empty decades; a bar below it is named in the legend with its value.
#   gnuplot -c plots/bytes.gp POINTS ROOFS OUTBASE [TITLE] [FORMATS] [SHAPE]
# POINTS   roofline_points.csv (variant,variant_index,m,n,k,shape,level,bytes); one group
#          of bars per variant_index present at SHAPE
# ROOFS    not read (every chart script takes the same arguments)
# OUTBASE  writes OUTBASE.png and OUTBASE.svg; TITLE: GPU and date; FORMATS default
#          "png svg"; SHAPE e.g. 2048x2048x2048 (default: the shape of the first row)

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c bytes.gp POINTS.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS] [SHAPE]"
}
P = argv(1); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
SHAPE = argv(6)
if (!not_a_command(P) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}

call DIR."check.gp" P "variant variant_index m n k shape level bytes" "variant_index m n k bytes" ""
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
# bytes per FMA: the level's bytes over the GEMM's M N K multiply-adds
per_fma(x) = column("bytes") / (column("m") * column("n") * column("k"))
stats P using (strcol("shape") eq SHAPE && level_index(strcol("level")) > 0 ? ( \
        py = per_fma(0), YMIN = py < YMIN ? py : YMIN, YMAX = py > YMAX ? py : YMAX) : 0, 0) nooutput
stats P using (strcol("shape") eq SHAPE && level_index(strcol("level")) > 0 ? per_fma(0) : 1/0) nooutput
BYTES_FLOOR = 300
FLOOR = dec_floor(STATS_median / BYTES_FLOOR)
YLO = YMIN / 3.0 > FLOOR ? dec_floor(YMIN / 3.0) : FLOOR; YHI = dec_ceil(YMAX * 4.0)
# the bars below the axis, one legend row each (in one row, three ran off the canvas), up to
# BELOW_MAX and a count of the rest
BELOW_MAX = 16; BELOW_N = 0
array BELOW[BELOW_MAX]
do for [i = 1:BELOW_MAX] { BELOW[i] = "" }
stats P using (strcol("shape") eq SHAPE && level_index(strcol("level")) > 0 && per_fma(0) < YLO ? ( \
    BELOW_N = BELOW_N + 1, BELOW_N <= BELOW_MAX ? BELOW[BELOW_N] = sprintf("%s %s %.2g B", strcol("variant"), \
        level_name(strcol("level")), per_fma(0)) : 0) : 0, 0) nooutput

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
set format y "%g B"
set ylabel "bytes per FMA  (bytes moved at the level / M N K, log scale)"
set xlabel "variant      (shared = 128 B x shared-memory wavefronts: an upper bound)"
set style fill solid 0.85 border lc rgb "#333333"
set title sprintf("Bytes per FMA at each memory level, per variant\n%s", TITLE)
# each variant's marker just under the axis, its name slanted below it (16 names side by
# side would run into each other): the same colour and shape as in the other charts
set bmargin at screen 0.2
set xtics rotate by 30 right offset 0, -1.3
set xlabel offset 0, -2.2
do for [i = 1:NV] { if (SLOT[i] > 0) { \
    set label sprintf("") at SLOT[i], graph -0.035 center point pt vpt(i) ps 1.8 lw VARIANT_LW lc rgb vcolor(i) } }

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    plot \
      for [j = 1:4] P using (in_level(j) ? bar_x(strcol("level")) : 1/0):(per_fma(0)): \
          (bar_x(strcol("level")) - BAR / 2):(bar_x(strcol("level")) + BAR / 2):(YLO):(per_fma(0)) \
          with boxxyerror lc rgb lcolor(j) title word(LEVEL_NAMES, j), \
      for [u = 1:(BELOW_N > 0)] keyentry with points lc rgb "white" title "below the axis:", \
      for [u = 1:(BELOW_N < BELOW_MAX ? BELOW_N : BELOW_MAX)] keyentry with points lc rgb "white" title BELOW[u], \
      for [u = 1:(BELOW_N > BELOW_MAX)] keyentry with points lc rgb "white" title sprintf("(%d more)", BELOW_N - BELOW_MAX)
    unset output
}

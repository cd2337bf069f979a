# TFLOP/s per GPU of a merged --fleet run: one column per GPU (host and UUID), each
# variant's TFLOP/s at its largest shape as a marker, joined across the GPUs so a slow
# GPU shows as a dip in every line; the fleet median of each variant as a grey tick, and
# GPUs that the report flags (analysis/fleet.h) marked SLOW under the axis.
#   gnuplot -c plots/fleet.gp FLEET ROOFS OUTBASE [TITLE] [FORMATS]
# FLEET    fleet.csv (gpu_index,flagged,variant_index,flop_per_s,fleet_median_flop_per_s,
#          ratio,variant,shape,gpu); rows of one variant together, in GPU order
# ROOFS    ignored (every script takes the same arguments)
# OUTBASE  writes OUTBASE.png and OUTBASE.svg; TITLE: GPU and date; FORMATS default "png svg"

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
load DIR."common.gp"
if (strlen(argv(3)) == 0) {
    exit error "usage: gnuplot -c fleet.gp FLEET.csv ROOFS.csv|none OUTBASE [TITLE] [FORMATS]"
}
S = argv(1); OUT = argv(3)
TITLE = strlen(argv(4)) ? argv(4) : "GPU unknown"
FORMATS = strlen(argv(5)) ? argv(5) : "png svg"
if (!not_a_command(S) || !not_a_command(OUT)) {
    exit error "a path starting with '<' or '|' would run as a command: prefix it with ./"
}
call DIR."check.gp" S "gpu_index flagged variant_index flop_per_s fleet_median_flop_per_s ratio variant shape gpu" \
    "gpu_index flagged variant_index flop_per_s" "fleet_median_flop_per_s ratio"

eval load_variants("S", "1")
T = 1e12
# The GPUs: their labels and flags, by gpu_index.
stats S using (column("gpu_index")) nooutput
NG = int(STATS_max)
array GL[NG]; array GF[NG]
do for [g = 1:NG] { GL[g] = ""; GF[g] = 0 }
YMIN = 1e300; YMAX = 0
stats S using (g = int(column("gpu_index")), GL[g] = strcol("gpu"), GF[g] = column("flagged"), \
        y = column("flop_per_s") / T, YMIN = y < YMIN ? y : YMIN, YMAX = y > YMAX ? y : YMAX, 0) nooutput
NSLOW = 0
do for [g = 1:NG] { NSLOW = NSLOW + (GF[g] > 0) }

set xrange [0.5:NG + 0.5]
set xtics () rotate by -30 left nomirror
do for [g = 1:NG] {
    set xtics add (sprintf("%s%s", GF[g] > 0 ? "SLOW  " : "", GL[g]) g)
}
set mxtics 1
set logscale y
set yrange [dec_floor(YMIN):dec_ceil(YMAX)]
set ylabel "TFLOP/s (largest shape of each variant)"
set xlabel "GPU (rank: host, UUID prefix)" offset 0,-1
set bmargin at screen 0.22
set title sprintf("TFLOP/s per GPU, per variant; grey ticks: fleet median%s\n%s", \
    NSLOW ? sprintf("; %d GPU%s flagged slow", NSLOW, NSLOW == 1 ? "" : "s") : "", TITLE)

DATA_ELEMS = ' \
      S using (seg(column("gpu_index"), column("flop_per_s") / T, strcol("variant_index"))):(SEG_Y0): \
          (SEG_X1 - SEG_X0):(SEG_Y1 - SEG_Y0):(vrgb(column("variant_index"))) \
          with vectors nohead lw 2 lc rgb variable notitle, \
      S using "gpu_index":(column("fleet_median_flop_per_s") > 0 ? column("fleet_median_flop_per_s") / T : 1/0) \
          with points pt 1 ps 2.5 lw 2 lc rgb "#999999" notitle, \
      S using "gpu_index":(column("flop_per_s") / T):(vpt(column("variant_index"))):(vrgb(column("variant_index"))) \
          with points pt variable ps 1.7 lw VARIANT_LW lc rgb variable notitle' \
    . variant_keys("linespoints ps 1.7 lw 2") . ', \
      keyentry with points pt 1 ps 2.5 lw 2 lc rgb "#999999" title "fleet median"'

do for [FMT in FORMATS] {
    eval set_term(FMT)
    set output OUT.".".FMT
    SEG_KEY = ""
    eval 'plot ' . DATA_ELEMS
    unset output
}

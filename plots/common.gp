# Shared settings for the gemmprof chart scripts; each script loads it first:
#   load DIR."common.gp"
# CSV input read by column name, the colour of each variant, the marker of each
# memory level, number formatting, and the output loop helpers (PNG and SVG).

set datafile separator comma
set datafile columnheaders

# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
VARIANT_COLORS = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #F0E442"
vcolor(i) = word(VARIANT_COLORS, (i - 1) % words(VARIANT_COLORS) + 1)

LEVELS = "dram l2 l1 shared"
LEVEL_NAMES = "DRAM L2 L1 shared"
# One marker shape per level: filled circle, square, triangle, diamond.
LEVEL_PTS = "7 5 9 13"
level_index(l) = l eq "dram" ? 1 : l eq "l2" ? 2 : l eq "l1" ? 3 : l eq "shared" ? 4 : 0
level_pt(l) = level_index(l) > 0 ? word(LEVEL_PTS, level_index(l)) + 0 : 1
level_name(l) = level_index(l) > 0 ? word(LEVEL_NAMES, level_index(l)) : l
ROOF_COLOR = "#555555"

# The position (1-based) of word w in list, 0 when absent.
word_pos(list, w) = sum [wp_j = 1:words(list)] (word(list, wp_j) eq w ? wp_j : 0)
# "2048" for a square shape, else "MxNxK".
shape_label(m, n, k, s) = (m == n && n == k) ? sprintf("%d", m) : s
# SI formatting for labels: 3.96 TB/s, 60.1 TFLOP/s.
si(v) = v >= 1e12 ? sprintf("%.3g T", v / 1e12) : v >= 1e9 ? sprintf("%.3g G", v / 1e9) : \
        v >= 1e6 ? sprintf("%.3g M", v / 1e6) : v >= 1e3 ? sprintf("%.3g k", v / 1e3) : sprintf("%.3g ", v)

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
set key at screen AREA_R + 0.015, AREA_T left top Left reverse samplen 3 spacing 1.3 noautotitle
# Angle in degrees of a line y = b x on log-log axes spanning [xlo:xhi] x [ylo:yhi].
slope_angle(xlo, xhi, ylo, yhi) = 180 / pi * \
    atan2((AREA_T - AREA_B) * CANVAS_H / log10(yhi / ylo), (AREA_R - AREA_L) * CANVAS_W / log10(xhi / xlo))

set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1, lc rgb "#f0f0f0" lw 1
set border lw 1.2

# The n-th script argument, "" when not given (gnuplot leaves ARGn undefined then).
argv(n) = exists(sprintf("ARG%d", n)) ? value(sprintf("ARG%d", n)) : ""

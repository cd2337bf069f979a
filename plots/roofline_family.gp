# The hierarchical roofline of one family of variants (FP32 SIMT, TF32 tensor or 3xTF32)
# with its cuBLAS references, where the all-variant chart holds more variants than the
# palette has colours: roofline_hier.gp on a points file of those rows alone, drawing only
# the compute roofs they run against, so each variant keeps its colour and marker of the
# all-variant chart and the y axis spans this family's roofs.
#   gnuplot -c plots/roofline_family.gp POINTS ROOFS OUTBASE TITLE FORMATS SHAPE COMPUTE_ROOFS
# COMPUTE_ROOFS  roofline_roofs.csv ids, e.g. "fp32_fma" or "tf32_wgmma fp32_fma"; the other
#                arguments as for roofline_hier.gp

DIR = ""
do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/") { DIR = ARG0[1:i]; break } }
FAM_ARGS = ""
do for [i = 1:7] { FAM_ARGS = FAM_ARGS . (exists(sprintf("ARG%d", i)) ? "" : "x") }
if (strlen(FAM_ARGS) > 0) {
    exit error "usage: gnuplot -c roofline_family.gp POINTS.csv ROOFS.csv|none OUTBASE TITLE FORMATS SHAPE COMPUTE_ROOFS"
}
call DIR."roofline_hier.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6 ARG7

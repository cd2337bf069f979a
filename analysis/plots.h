/* The charts: plot-input CSVs written from a loaded results directory, rendered by the
 * gnuplot scripts in plots/ into PNG and SVG. Host-only; needs no GPU, only gnuplot.
 *
 * Files written into outdir:
 *   roofline_points.csv   one row per kernel (variant x shape) and memory level:
 *                         variant,precision,m,n,k,shape,level,bytes,ai_flop_per_byte,
 *                         flop_per_s,attainable_flop_per_s,bound
 *   roofline_roofs.csv    the ceilings as roofs: kind (memory|compute|ridge),roof,level,
 *                         source (measured|theoretical),label,value,ridge_ai_flop_per_byte,unit
 *   sweep.csv             one row per verified row: variant,precision,m,n,k,shape,size,
 *                         flop_per_s,time_median_s
 *   roofline_dram.{png,svg}  roofline_hier.{png,svg}  sweep.{png,svg}  bytes.{png,svg}
 * No line ends in an empty field: gnuplot 5.4 misreads a trailing empty CSV field.
 * Every file is written under a temporary name and renamed once complete, so a failure
 * never leaves a half-written chart that looks finished. Each script also runs alone:
 *   gnuplot -c plots/roofline_dram.gp out/roofline_points.csv out/roofline_roofs.csv out/roofline_dram
 * (see the comment at the top of each script). */
#ifndef GEMMPROF_ANALYSIS_PLOTS_H
#define GEMMPROF_ANALYSIS_PLOTS_H

#include <stddef.h>

#include "analysis/dataset.h"

/* Renders every chart the data allows into outdir (created if missing). plots_dir holds
 * the scripts: NULL means $GEMMPROF_PLOTS, or else "plots" (the repository's, relative
 * to the working directory). A chart without data (e.g. no hardware counters, so no
 * roofline) is skipped, not an error.
 * Returns the number of charts rendered (>= 0) with notes on skipped charts in err ("" if
 * none), or -1 with a one-line reason in err: gnuplot missing (with how to install it),
 * a script missing, outdir not writable, or gnuplot's own error text. */
int plots_render(const struct gp_dataset *ds, const char *outdir, const char *plots_dir,
                 char *err, size_t errlen);

/* 1 when a gnuplot executable is on PATH; 0 with "gnuplot not found on PATH; install
 * it (Debian/Ubuntu: apt-get install gnuplot-nox) ..." in why. */
int plots_gnuplot_available(char *why, size_t whylen);

/* The chart base names plots_render produces, in order; NULL-terminated. */
extern const char *const plots_chart_names[];

#endif

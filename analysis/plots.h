/* The charts: plot-input CSVs written from a loaded results directory, rendered by the
 * gnuplot scripts in plots/ into PNG and SVG. Host-only; needs no GPU, only gnuplot.
 *
 * Files written into outdir:
 *   roofline_points.csv   one row per kernel (variant x shape) and memory level:
 *                         variant,variant_index,precision,m,n,k,shape,level,bytes,
 *                         ai_flop_per_byte,flop_per_s,attainable_flop_per_s,bound
 *   roofline_roofs.csv    the ceilings as roofs: kind (memory|compute|ridge),roof,level,
 *                         source (measured|theoretical),label,value,ridge_ai_flop_per_byte,unit
 *   sweep.csv             one row per verified row: variant,variant_index,precision,m,n,k,
 *                         shape,size,flop_per_s,time_min_s,time_max_s,time_median_s
 *                         (min and max empty when unknown: the sweep's error bars)
 *   stalls.csv            per variant, its largest verified row with warp-stall counters, one
 *                         line per reason: variant,variant_index,slot,shape,reason,
 *                         reason_index,share,base,top (share = ratio / sum of ratios; the 7
 *                         largest reasons overall by name, the rest as "other")
 *   issue_points.csv      one row per verified row with a warp-instruction count:
 *                         variant,variant_index,precision,shape,flop_per_inst,flop_per_s,
 *                         issue_peak_inst_per_s,compute_peak_flop_per_s
 *   fleet.csv             a merged --fleet run only (analysis/fleet.h): per variant, one row
 *                         per GPU at its largest shape: gpu_index,flagged,variant_index,
 *                         flop_per_s,fleet_median_flop_per_s,ratio,variant,shape,gpu
 * variant_index numbers the variants 1, 2, ... in order of first appearance: the scripts
 * key colours and legends by it, never by splitting names (which may hold spaces).
 *   NAME.{png,svg}        for each chart of plots/charts.def its data allows (a note says
 *                         which were skipped): roofline_dram, roofline_hier, sweep, bytes,
 *                         stalls (stall counters), issue_roofline (instruction counts)
 *   roofline_hier_MxNxK.{png,svg}  for up to max_shape_charts further shapes
 *   roofline_family_F.{png,svg}    per family F (fp32_simt, tf32_tensor, 3xtf32) at the main
 *                         shape, when it holds more variants than PLOTS_FAMILY_SPLIT_AT with counters
 * Rows are indexed by shape and variant once (analysis/row_index.h), and each per-shape
 * chart reads a points file of its shape alone, so 100,000 rows render in seconds.
 * No line ends in an empty field: gnuplot 5.4 misreads a trailing empty CSV field.
 * Every file is written under a temporary name and renamed once complete (a chart checked
 * whole first: gnuplot exits 0 on a full disk), so a failure never leaves a half-written
 * chart that looks finished. gnuplot and the per-shape points files write into a private
 * directory of the run's own in outdir (.gemmprof-tmp.HOST.PID.XXXXXX, mode 0700), removed
 * on success, failure, SIGINT and SIGTERM, and by the next render after a SIGKILL; a
 * SIGKILL takes gnuplot along (its parent-death signal). Each script also runs alone:
 *   gnuplot -c plots/roofline_dram.gp out/roofline_points.csv out/roofline_roofs.csv out/roofline_dram
 * (see the comment at the top of each script). */
#ifndef GEMMPROF_ANALYSIS_PLOTS_H
#define GEMMPROF_ANALYSIS_PLOTS_H

#include <stddef.h>

#include "analysis/dataset.h"

/* Renders every chart the data allows into outdir (created if missing). plots_dir holds
 * the scripts: NULL means $GEMMPROF_PLOTS, or else the plots/ found beside the executable
 * (an install's ../share/gemmprof/plots, the repository's ../plots), never the working
 * directory's. A chart without data (e.g. no hardware counters, so no roofline) is
 * skipped, not an error.
 * Returns the number of charts rendered (>= 0) with notes on skipped charts and shapes
 * left out in err ("" if none), or -1 with a one-line reason in err: gnuplot missing
 * (with how to install it), a script missing, outdir not writable, or any chart failing
 * (gnuplot's own error text; the other charts are still rendered). */
int plots_render(const struct gp_dataset *ds, const char *outdir, const char *plots_dir,
                 char *err, size_t errlen);

/* What a chart is drawn from (plots/charts.def says which chart uses which). */
enum plots_data {
    PLOTS_DATA_DRAM,     /* every variant x shape at DRAM level */
    PLOTS_DATA_SHAPES,   /* every level at the main shape, and one chart per further shape */
    PLOTS_DATA_SHAPE,    /* every level at the main shape */
    PLOTS_DATA_SWEEP,    /* sweep.csv */
    PLOTS_DATA_STALLS,   /* stalls.csv */
    PLOTS_DATA_ISSUE,    /* issue_points.csv */
    PLOTS_DATA_FLEET,    /* fleet.csv (a merged --fleet run: two or more GPUs) */
    PLOTS_DATA_FAMILIES, /* every level at the main shape, one chart per variant family with its
                          * cuBLAS references, where one chart holds more variants than
                          * PLOTS_FAMILY_SPLIT_AT from two families or more */
    PLOTS_DATA_KINDS
};
#define PLOTS_FAMILY_SPLIT_AT 11  /* the palette's colours (plots/common.gp): past them, a
                                   * variant is told from another by its marker alone */

/* The chart registry, from plots/charts.def: name (plots/NAME.gp, NAME.png), data, caption. */
struct plots_chart_def {
    const char *name;
    enum plots_data data;
    const char *caption;
};
enum {
#define PLOT_CHART(name, data, caption) PLOTS_CHART_##name,
#include "plots/charts.def"
#undef PLOT_CHART
    PLOTS_CHART_KINDS
};
extern const struct plots_chart_def plots_charts[PLOTS_CHART_KINDS];

#define PLOTS_SHAPE_CHARTS_DEFAULT 8     /* per-shape charts beside the main one */
#define PLOTS_SHAPE_CHARTS_LIMIT 256     /* the most --max-shape-charts accepts */
#define PLOTS_CHARTS_MAX (PLOTS_CHART_KINDS + PLOTS_SHAPE_CHARTS_LIMIT)

struct plots_options {
    const char *plots_dir;   /* NULL: $GEMMPROF_PLOTS, else beside the executable */
    int max_shape_charts;    /* < 0: PLOTS_SHAPE_CHARTS_DEFAULT */
};

struct plots_chart {
    int def;                 /* its entry in plots_charts[] */
    int extra;               /* 1: a further shape's chart (NAME_MxNxK), 0: the main one */
    char name[128];          /* base name: "sweep", "roofline_hier_1024x1024x1024" */
    char shape[96];          /* the shape it shows; "" for the charts of every shape */
    char family[32];         /* the variant family a PLOTS_DATA_FAMILIES chart shows, else "" */
    int rendered;            /* 1: NAME.png and NAME.svg written by this run */
    char why[384];           /* why not, when not rendered */
};

/* What one plots_render_ex call did: every chart attempted, in order. */
struct plots_outcome {
    int ncharts, rendered, failed;
    struct plots_chart chart[PLOTS_CHARTS_MAX];
    int max_shape_charts;        /* the bound applied */
    int shapes_with_counters;    /* shapes that could have a hierarchical roofline */
    int shapes_left_out;         /* of those, not charted because of the bound */
    char notes[1024];            /* charts skipped for lack of data */
    char summary[4096];          /* one line: failures, shapes left out, notes ("" if none) */
};

/* plots_render with options, recording each chart in *po. A chart that fails does not
 * stop the others; its previous PNG and SVG are removed so none is mistaken for current.
 * Returns the number rendered (po->failed says how many failed), or -1 with a one-line
 * reason in err when nothing could be attempted. */
int plots_render_ex(const struct gp_dataset *ds, const char *outdir, const struct plots_options *opt,
                    struct plots_outcome *po, char *err, size_t errlen);

/* Parses the value of --max-shape-charts: 0 with *out set, or -1 with the reason in why. */
int plots_parse_max_shape_charts(const char *s, int *out, char *why, size_t whylen);

/* 0 when the chart file at path is whole: a PNG (ext "png") from its signature to its
 * IEND chunk, an SVG ending with </svg>. -1 with "NAME is cut short (... disk full?)" or
 * "produced no EXT output" in why: gnuplot exits 0 when it cannot write. */
int plots_output_complete(const char *path, const char *ext, char *why, size_t whylen);

/* 1 when a gnuplot executable is on PATH; 0 with "gnuplot not found on PATH; install
 * it (Debian/Ubuntu: apt-get install gnuplot-nox) ..." in why. */
int plots_gnuplot_available(char *why, size_t whylen);

#endif

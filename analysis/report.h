/* The performance report (report.md): machine, ceilings, per-shape tables, charts and a
 * per-variant explanation generated from the numbers of a loaded results directory,
 * plus the seed's claims checked against them. Host-only: renders without a GPU. The
 * command, `gemmprof report DIR`, is src/cmd_report.c. */
#ifndef GEMMPROF_ANALYSIS_REPORT_H
#define GEMMPROF_ANALYSIS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/dataset.h"
#include "analysis/plots.h"

/* Writes the Markdown report for `ds` to out_path (atomically: temp file + rename).
 * Only the charts `charts` records as rendered by this run are linked, by file name
 * relative to out_path's directory; failed ones are named with the reason, and the
 * shapes left out of the per-shape charts are said. charts NULL: no charts this run.
 * recorded_elsewhere = 1 puts a prominent note that the data was not measured on the
 * machine rendering it. Every string from the data is escaped for Markdown; a value
 * that is not finite or not positive where a statement needs it leaves the statement
 * out and is said to be missing. Returns 0, or -1 with a one-line reason in err. */
int report_write(const struct gp_dataset *ds, const char *out_path, int recorded_elsewhere,
                 const struct plots_outcome *charts, char *err, size_t errlen);

/* How report_render renders one results directory. */
struct report_options {
    const char *out;         /* a file (a name ending in .md) or a directory; NULL: DIR/report.md */
    int no_plots;            /* no charts, none linked */
    int max_shape_charts;    /* per-shape hierarchical rooflines; -1: PLOTS_SHAPE_CHARTS_DEFAULT */
    int load_flags;          /* dataset_load_opts flags (GP_LOAD_CEILINGS_ANY_GPU) */
    int measured_here;       /* measured on this machine just now: no "recorded elsewhere" note */
    FILE *path_to;           /* gets the written report's path: stdout for `gemmprof report`, stderr
                              * for the sweep, whose stdout holds the results table alone */
};

/* Loads dir, renders the charts next to the report (skipped with a note when gnuplot is
 * missing or no_plots), writes report.md (default DIR/report.md; an `out` directory gets
 * OUT/report.md, created when missing) and prints its path to opt->path_to. An `out` that
 * exists and is not a regular file or directory (device, FIFO, symlink, ...) is refused,
 * as is one longer than the path limit. Returns 0, or 1 for a data or output error or
 * when a chart failed (the report is still written, naming it); what failed is one line
 * on stderr ("gemmprof report: ..."). */
int report_render(const char *dir, const struct report_options *opt);

#endif

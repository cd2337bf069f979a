/* The performance report (report.md): machine, ceilings, per-shape tables, charts and a
 * per-variant explanation generated from the numbers of a loaded results directory,
 * plus the seed's claims checked against them. Host-only: renders without a GPU.
 *   gemmprof report DIR [--out FILE_OR_DIR] [--no-plots]     (report_main) */
#ifndef GEMMPROF_ANALYSIS_REPORT_H
#define GEMMPROF_ANALYSIS_REPORT_H

#include <stddef.h>

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

/* The CLI verb: argv[0] is "report", then DIR [--out FILE_OR_DIR] [--no-plots]
 * [--max-shape-charts N] [--measured-here]. Loads DIR, renders the charts next to the
 * report (skipped with a note when gnuplot is missing or --no-plots), writes report.md
 * (default DIR/report.md; --out DIR2 writes DIR2/report.md) and prints its path.
 * --max-shape-charts bounds the per-shape hierarchical rooflines (default
 * PLOTS_SHAPE_CHARTS_DEFAULT). --measured-here (used by the main command right after it
 * measured) drops the "recorded elsewhere" note. An --out that exists and is not a
 * regular file or directory (device, FIFO, symlink, ...) is refused, as is one longer
 * than the path limit.
 * Returns the exit status: 0; 1 for a data or output error, or when a chart failed (the
 * report is still written, naming it); 2 for a usage error. Errors are one line on stderr. */
int report_main(int argc, char **argv);

#endif

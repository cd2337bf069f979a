/* The performance report (report.md): machine, ceilings, per-shape tables, charts and a
 * per-variant explanation generated from the numbers of a loaded results directory,
 * plus the seed's claims checked against them. Host-only: renders without a GPU.
 *   gemmprof report DIR [--out FILE_OR_DIR] [--no-plots]     (report_main) */
#ifndef GEMMPROF_ANALYSIS_REPORT_H
#define GEMMPROF_ANALYSIS_REPORT_H

#include <stddef.h>

#include "analysis/dataset.h"

/* Writes the Markdown report for `ds` to out_path (atomically: temp file + rename).
 * Charts are linked by their file names (roofline_dram.png, roofline_hier.png,
 * sweep.png, bytes.png) relative to out_path's directory; absent ones are noted.
 * recorded_elsewhere = 1 puts a prominent note that the data was not measured on the
 * machine rendering it. Returns 0, or -1 with a one-line reason in err. */
int report_write(const struct gp_dataset *ds, const char *out_path, int recorded_elsewhere,
                 char *err, size_t errlen);

/* The CLI verb: argv[0] is "report", then DIR [--out FILE_OR_DIR] [--no-plots]
 * [--measured-here]. Loads DIR, renders the charts next to the report (skipped with a
 * note when gnuplot is missing or --no-plots), writes report.md (default DIR/report.md;
 * --out DIR2 writes DIR2/report.md) and prints its path. --measured-here (used by the
 * main command right after it measured) drops the "recorded elsewhere" note.
 * Returns the exit status: 0, 1 for a data error, 2 for a usage error; errors are one
 * line on stderr. */
int report_main(int argc, char **argv);

#endif

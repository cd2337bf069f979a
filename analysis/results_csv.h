/* results.csv (analysis/results_csv.c): the rows of analysis/results.h as a file. */
#ifndef GEMMPROF_ANALYSIS_RESULTS_CSV_H
#define GEMMPROF_ANALYSIS_RESULTS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/results.h"

/* Columns: the fixed ones of analysis/columns.def, then every metric of
 * analysis/metrics.def under its ncu name, then the run's extra metrics (gp_extra_*,
 * also under their ncu names), then the derived roofline columns
 * (analysis/roofline.h). Empty cell = not collected. Rows are flushed one by one so a
 * sweep that dies keeps what it measured. */
struct gp_ceilings;
int results_csv_write_header(FILE *f);
int results_csv_write_row(FILE *f, const struct gp_result *r, const struct gp_ceilings *cs);

/* Every column of a row, in results.csv's order, as text ("" = not collected): the one
 * walk over the columns that the CSV writer and the other printers (JSON, Markdown)
 * share. numeric says whether the column holds a number. */
typedef void (*results_cell_fn)(void *ctx, const char *name, const char *text, int numeric);
void results_visit_row(const struct gp_result *r, const struct gp_ceilings *cs, results_cell_fn visit, void *ctx);

/* Reads results.csv back (derived columns are ignored and recomputed). Allocates
 * *rows (free with free()). Every cell is checked against its column's accepted values
 * (analysis/columns.def: sizes 1..INT_MAX, times > 0, errors >= 0, clocks 0..100 GHz,
 * counters >= 0); a column outside the schema whose name looks like an ncu metric
 * (gp_metric_name_ok) is read as an extra metric (finite, >= 0) and added to the extra
 * list, at most GP_EXTRA_MAX of them; a row that ran (ok, verify_failed) must fill every required column, and
 * its median time must lie between its min and max. The file must be a regular file of
 * at most 256 MiB, 64 KiB a row and 500,000 rows (analysis/infile.h). Errors name the
 * file, line and column: "out/results.csv:7: column m: 'abc' is not a valid value
 * (expected a size from 1 to 2147483647)". A file lacking required columns is reported as
 * an older or foreign schema. Returns 0 or -1. */
int results_csv_read(const char *path, struct gp_result **rows, int *nrows, char *err, size_t errlen);

#endif

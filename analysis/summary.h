/* The README's summary of a recorded run, generated so its figures cannot drift from the
 * data: `gemmprof report DIR --summary` prints a Markdown block between the markers
 *   <!-- summary:begin DIR -->  ...  <!-- summary:end -->
 * (machine line, TFLOP/s table with % of cuBLAS and the limiter, measured ceilings, the
 * naive/tiled explanation), and tests/host/test_readme_summary.sh diffs README.md's
 * blocks against it. Every figure comes from the findings and claims layers, as in report.md. */
#ifndef GEMMPROF_ANALYSIS_SUMMARY_H
#define GEMMPROF_ANALYSIS_SUMMARY_H

#include <stdio.h>

#include "analysis/dataset.h"

/* Writes the block for `ds` (loaded from `dir`, named in the begin marker) to f.
 * Returns 0, or -1 with a one-line reason in err (out of memory). */
int summary_write(const struct gp_dataset *ds, const char *dir, FILE *f, char *err, size_t errlen);

/* Loads dir (dataset_load_opts flags) and prints its block to stdout: the exit status (0,
 * or 1 with one line on stderr). A ceilings.csv of another GPU is warned about on stderr. */
int summary_main(const char *dir, int load_flags, int causes);

#endif

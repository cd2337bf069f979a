/* A results directory loaded for the report and the plots, without a GPU:
 * results.csv (required), results.json and ceilings.csv (optional, reported when absent). */
#ifndef GEMMPROF_ANALYSIS_DATASET_H
#define GEMMPROF_ANALYSIS_DATASET_H

#include <stddef.h>

#include "analysis/dataset_types.h"

/* dataset_load_opts flags */
#define GP_LOAD_CEILINGS_ANY_GPU 1   /* use a ceilings.csv of another GPU (still warned about) */

/* 0, or -1 with a one-line reason: directory missing, no results.csv, empty file,
 * older schema, unparsable cell (file:line: column). */
int dataset_load(const char *dir, struct gp_dataset *ds, char *err, size_t errlen);
/* The same with GP_LOAD_* flags. Either runs the plausibility check (analysis/plausible.h). */
int dataset_load_opts(const char *dir, int flags, struct gp_dataset *ds, char *err, size_t errlen);
void dataset_free(struct gp_dataset *ds);

#endif

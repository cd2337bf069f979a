/* A results directory loaded for the report and the plots, without a GPU:
 * results.csv (required), results.json and ceilings.csv (optional, reported when absent). */
#ifndef GEMMPROF_ANALYSIS_DATASET_H
#define GEMMPROF_ANALYSIS_DATASET_H

#include <stddef.h>

#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/results.h"

struct gp_dataset {
    char dir[512];
    struct gp_meta meta;
    int have_meta;
    struct gp_ceilings ceilings;
    int have_ceilings;
    struct gp_result *rows;
    int nrows;
    char warnings[1024];          /* '\n'-separated notes: missing sidecar, partial sweep, ... */
};

/* 0, or -1 with a one-line reason: directory missing, no results.csv, empty file,
 * older schema, unparsable cell (file:line: column). */
int dataset_load(const char *dir, struct gp_dataset *ds, char *err, size_t errlen);
void dataset_free(struct gp_dataset *ds);

#endif

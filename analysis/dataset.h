/* A results directory loaded for the report and the plots, without a GPU:
 * results.csv (required), results.json and ceilings.csv (optional, reported when absent). */
#ifndef GEMMPROF_ANALYSIS_DATASET_H
#define GEMMPROF_ANALYSIS_DATASET_H

#include <stddef.h>

#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/results.h"

#define GP_WHY_LEN 240

/* dataset_load_opts flags */
#define GP_LOAD_CEILINGS_ANY_GPU 1   /* use a ceilings.csv of another GPU (still warned about) */

struct gp_dataset {
    char dir[512];
    struct gp_meta meta;
    int have_meta;
    struct gp_ceilings ceilings;
    int have_ceilings;
    struct gp_result *rows;
    int nrows;
    char warnings[1024];          /* '\n'-separated notes: missing sidecar, partial sweep, ... */
    /* ceilings.csv measured on another GPU than results.json names: the note naming both
     * ("" when the same or unknown); have_ceilings is then 0 unless the load allowed it */
    char ceilings_foreign[400];
    /* analysis/plausible.h: why a row or ceiling cannot be real; row_why[i] is NULL (and
     * row_why itself for a dataset never checked) and ceiling_why[c] "" when plausible */
    char **row_why;
    int row_why_n;   /* rows row_why was made for: rows swapped in later read as unchecked */
    int n_implausible_rows, n_implausible_ceilings;
    char ceiling_why[GP_CEIL_COUNT][GP_WHY_LEN];
};

/* 0, or -1 with a one-line reason: directory missing, no results.csv, empty file,
 * older schema, unparsable cell (file:line: column). */
int dataset_load(const char *dir, struct gp_dataset *ds, char *err, size_t errlen);
/* The same with GP_LOAD_* flags. Either runs the plausibility check (analysis/plausible.h). */
int dataset_load_opts(const char *dir, int flags, struct gp_dataset *ds, char *err, size_t errlen);
void dataset_free(struct gp_dataset *ds);

#endif

/* struct gp_dataset, apart from its loader (analysis/dataset.h): what the roofline and
 * the plausibility check read and fill, so that neither includes the loader that calls
 * them. */
#ifndef GEMMPROF_ANALYSIS_DATASET_TYPES_H
#define GEMMPROF_ANALYSIS_DATASET_TYPES_H

#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/results.h"

#define GP_WHY_LEN 240

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

/* 1 unless row i was marked implausible by plausible_check (analysis/plausible.h); any
 * row of a dataset never checked is plausible. */
static inline int plausible_row(const struct gp_dataset *ds, int i)
{
    return !ds->row_why || i < 0 || i >= ds->row_why_n || !ds->row_why[i];
}

#endif

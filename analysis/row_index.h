/* Rows of a results table grouped once, by shape or by variant, so the report and the
 * charts never compare every row with every other (100,000 rows would take minutes).
 * Groups come in the order of their first row, rows within a group in table order. */
#ifndef GEMMPROF_ANALYSIS_ROW_INDEX_H
#define GEMMPROF_ANALYSIS_ROW_INDEX_H

#include "analysis/results.h"

struct row_groups {
    int ngroups;
    int *start;      /* group g is rows[start[g] .. start[g + 1]) */
    int *rows;       /* row indices, grouped */
    int *group_of;   /* per row: its group */
};

enum row_key { ROW_KEY_SHAPE, ROW_KEY_VARIANT };

/* 0, or -1 when out of memory (g is then empty and safe to free). O(n log n). */
int row_groups_build(const struct gp_result *rows, int nrows, enum row_key key, struct row_groups *g);
void row_groups_free(struct row_groups *g);

/* Group g's rows: *n of them. */
static inline const int *row_group(const struct row_groups *g, int grp, int *n)
{
    *n = g->start[grp + 1] - g->start[grp];
    return g->rows + g->start[grp];
}

#endif

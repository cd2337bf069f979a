/* A recorded `gemmprof --tune` table in the layout the rule's replay reads
 * (tests/data/h*_simt_tune*.csv, written by tools/lab/tune_rows.py): a header line, then
 * m,n,k,config_name,split,blocks_per_sm,time_median_s per measured plan, the name marked
 * "+pad" (B's padded copy), "+peel" (the strip kernel), "+tail" (split past the full waves
 * only), "+sk" (stream-K). Read by tests/test_simt_plan.c and tools/lab/plan_fit.c. */
#ifndef GEMMPROF_TESTS_SIMT_TUNE_TABLE_H
#define GEMMPROF_TESTS_SIMT_TUNE_TABLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/simt_plan.h"

struct tune_row {
    long m, n, k;
    int config, split, per_sm, pad, peel, tail, sk;
    double t;
};

/* The rows of path (at most max); -1 when it does not open. *unknown: rows whose tile
 * kernels/simt_configs.def does not have (config -1). */
static inline int tune_table_read(const char *path, struct tune_row *row, int max, int *unknown)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256], name[64];
    int nrows = 0;
    *unknown = 0;
    if (!fgets(line, sizeof line, f)) /* the header */
        line[0] = '\0';
    while (nrows < max && fgets(line, sizeof line, f)) {
        struct tune_row *r = &row[nrows];
        char *p = line;
        r->m = strtol(p, &p, 10), p++;
        r->n = strtol(p, &p, 10), p++;
        r->k = strtol(p, &p, 10), p++;
        const size_t len = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        p += len + 1;
        r->pad = strstr(name, "+pad") != NULL;
        r->peel = strstr(name, "+peel") != NULL;
        r->tail = strstr(name, "+tail") != NULL;
        r->sk = strstr(name, "+sk") != NULL;
        name[strcspn(name, "+")] = '\0';
        r->split = (int)strtol(p, &p, 10), p++;
        r->per_sm = (int)strtol(p, &p, 10), p++;
        r->t = strtod(p, NULL);
        r->config = simt_config_find(name);
        *unknown += r->config < 0;
        nrows++;
    }
    fclose(f);
    return nrows;
}

/* One past the last row of the shape whose first row is `first` */
static inline int tune_table_shape_end(const struct tune_row *row, int first, int nrows)
{
    int end = first;
    while (end < nrows && row[end].m == row[first].m && row[end].n == row[first].n && row[end].k == row[first].k)
        end++;
    return end;
}

/* The rule's machine as the table measured it: 132 SMs, each tile's blocks per SM (its
 * stream-K kernel's from the "+sk" rows, its padded and 4-byte paths' from their rows; a
 * table from before the tuner told the paths apart gives them the 16-byte kernel's) */
static inline struct simt_machine tune_table_machine(const struct tune_row *row, int first, int end)
{
    struct simt_machine mc = {.sms = 132};
    for (int i = first; i < end; i++) {
        const int c = row[i].config;
        if (c < 0)
            continue;
        simt_machine_per_sm(&mc, row[i].sk, simt_plan_path(c, row[i].n, row[i].k, row[i].pad))[c] = row[i].per_sm;
    }
    return mc;
}

/* Whether the table measured a plan of configuration c (any kernel of it) */
static inline int tune_table_has(const struct simt_machine *mc, int c)
{
    return mc->blocks_per_sm[c] > 0 || mc->padded_per_sm[c] > 0 || mc->narrow_per_sm[c] > 0 ||
           mc->streamk_per_sm[c] > 0;
}

#endif

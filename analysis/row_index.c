#include "analysis/row_index.h"

#include <stdlib.h>
#include <string.h>

/* qsort takes no context argument; the index is built on one thread at a time. */
static const struct gp_result *sort_rows;
static enum row_key sort_key;
static const int *sort_first;   /* the first row of each run, for by_first */

static int key_cmp(int a, int b)
{
    const struct gp_result *x = &sort_rows[a], *y = &sort_rows[b];
    if (sort_key == ROW_KEY_VARIANT)
        return strcmp(x->variant, y->variant);
    if (x->m != y->m)
        return x->m < y->m ? -1 : 1;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* By key, then by row: each run of equal keys starts with its first row. */
static int by_key(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    int c = key_cmp(a, b);
    return c ? c : (a > b) - (a < b);
}

static int by_first(const void *pa, const void *pb)
{
    int a = sort_first[*(const int *)pa], b = sort_first[*(const int *)pb];
    return (a > b) - (a < b);
}

int row_groups_build(const struct gp_result *rows, int nrows, enum row_key key, struct row_groups *g)
{
    size_t n = nrows > 0 ? (size_t)nrows : 0;
    memset(g, 0, sizeof *g);
    int *sorted = malloc((n + 1) * sizeof *sorted);
    int *run_start = malloc((n + 1) * sizeof *run_start);   /* run r: sorted[run_start[r] ..] */
    int *run_first = malloc((n + 1) * sizeof *run_first);   /* run r's first row */
    int *order = malloc((n + 1) * sizeof *order);           /* runs by first row */
    g->start = malloc((n + 1) * sizeof *g->start);
    g->rows = malloc((n + 1) * sizeof *g->rows);
    g->group_of = malloc((n + 1) * sizeof *g->group_of);
    int ok = sorted && run_start && run_first && order && g->start && g->rows && g->group_of;
    if (ok) {
        for (size_t i = 0; i < n; i++)
            sorted[i] = (int)i;
        sort_rows = rows;
        sort_key = key;
        qsort(sorted, n, sizeof *sorted, by_key);
        int nruns = 0;
        for (size_t i = 0; i < n; i++)
            if (i == 0 || key_cmp(sorted[i - 1], sorted[i]) != 0) {
                run_start[nruns] = (int)i;
                run_first[nruns] = sorted[i];
                order[nruns] = nruns;
                nruns++;
            }
        run_start[nruns] = (int)n;
        sort_first = run_first;
        qsort(order, (size_t)nruns, sizeof *order, by_first);
        int used = 0;
        for (int gi = 0; gi < nruns; gi++) {
            g->start[gi] = used;
            for (int p = run_start[order[gi]]; p < run_start[order[gi] + 1]; p++) {
                g->rows[used++] = sorted[p];
                g->group_of[sorted[p]] = gi;
            }
        }
        g->start[nruns] = used;
        g->ngroups = nruns;
    }
    free(sorted);
    free(run_start);
    free(run_first);
    free(order);
    if (!ok) {
        row_groups_free(g);
        return -1;
    }
    return 0;
}

void row_groups_free(struct row_groups *g)
{
    free(g->start);
    free(g->rows);
    free(g->group_of);
    memset(g, 0, sizeof *g);
}

/* The fleet check (analysis/fleet.h): each GPU against the fleet median, row by row. */
#include "analysis/fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "analysis/row_index.h"

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fleet_median(double *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(v[i]))
            v[k++] = v[i];
    if (k == 0)
        return NAN;
    qsort(v, (size_t)k, sizeof *v, cmp_dbl);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static int usable(const struct gp_result *r)
{
    return r->status == GP_STATUS_OK && isfinite(r->flop_per_s) && r->flop_per_s > 0;
}

/* The quantities a slow GPU is explained by: the measured SM clock, then counters that a
 * throttled clock, a slow HBM stack or a starved issue port move. */
struct quantity { const char *name; int metric; };   /* metric -1: the sm_clock_hz column */
static const struct quantity quantities[] = {
    {"sm_clock_hz", -1},
    {"sm__cycles_elapsed.avg.per_second (SM clock, counter)", GP_M_sm_clock},
    {"dram__cycles_elapsed.avg.per_second (DRAM clock)", GP_M_dram_clock},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", GP_M_dram_throughput},
    {"smsp__issue_active.avg.pct_of_peak_sustained_active", GP_M_issue_active},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", GP_M_sm_throughput},
};
#define NQ ((int)(sizeof quantities / sizeof quantities[0]))

static double quantity_of(const struct gp_result *r, int q)
{
    double v = quantities[q].metric < 0 ? r->sm_clock_hz : r->metric[quantities[q].metric];
    return isfinite(v) && v > 0 ? v : NAN;
}

/* Usable rows at one variant, precision and shape are a cell; each row's ratio and
 * deviations are taken against its cell's medians. The cells are found, and their medians
 * taken, once: scanning and sorting a cell per row made the check quadratic in rows
 * repeated at one variant x shape (300,000 of them did not finish in 5 minutes). */
#define NMED (1 + NQ)   /* per cell: the median FLOP/s, then each quantity's */
struct cells {
    int n;
    int *of;           /* per row: its cell, -1 when the row is not usable */
    int *size;         /* per cell: its usable rows */
    double *median;    /* per cell: NMED medians */
};

/* qsort takes no context argument; the cells are built on one thread at a time. */
static const struct gp_result *cell_rows;

static int by_variant(const void *pa, const void *pb)
{
    const struct gp_result *x = &cell_rows[*(const int *)pa], *y = &cell_rows[*(const int *)pb];
    int c = strcmp(x->variant, y->variant);
    return c ? c : strcmp(x->precision, y->precision);
}

/* Within each shape group (analysis/row_index.h), the usable rows sorted by variant and
 * precision: runs of equal ones are the cells. O(n log n); buf and tmp hold nrows. */
static int cells_build(const struct gp_result *rows, int nrows, const int *gpu_of, int *buf, double *tmp,
                       struct cells *c)
{
    size_t n = (size_t)(nrows > 0 ? nrows : 0) + 1;
    struct row_groups shapes = {0};
    memset(c, 0, sizeof *c);
    c->of = malloc(n * sizeof *c->of);
    c->size = malloc(n * sizeof *c->size);
    c->median = malloc(n * NMED * sizeof *c->median);
    if (!c->of || !c->size || !c->median || row_groups_build(rows, nrows, ROW_KEY_SHAPE, &shapes)) {
        row_groups_free(&shapes);
        return -1;
    }
    for (int i = 0; i < nrows; i++)
        c->of[i] = -1;
    cell_rows = rows;
    for (int grp = 0; grp < shapes.ngroups; grp++) {
        int cnt, k = 0;
        const int *idx = row_group(&shapes, grp, &cnt);
        for (int j = 0; j < cnt; j++)
            if (gpu_of[idx[j]] >= 0)
                buf[k++] = idx[j];
        qsort(buf, (size_t)k, sizeof *buf, by_variant);
        for (int a = 0, b; a < k; a = b) {
            for (b = a + 1; b < k && by_variant(&buf[a], &buf[b]) == 0;)
                b++;
            int cell = c->n++;
            c->size[cell] = b - a;
            for (int j = a; j < b; j++)
                c->of[buf[j]] = cell;
            for (int q = -1; q < NQ; q++) {
                for (int j = a; j < b; j++)
                    tmp[j - a] = q < 0 ? rows[buf[j]].flop_per_s : quantity_of(&rows[buf[j]], q);
                c->median[(size_t)cell * NMED + 1 + q] = fleet_median(tmp, b - a);
            }
        }
    }
    row_groups_free(&shapes);
    return 0;
}

static void cells_free(struct cells *c)
{
    free(c->of);
    free(c->size);
    free(c->median);
}

/* Rows come rank by rank: the previous row's GPU is tried first. */
static int find_gpu(const struct fleet *fl, const struct gp_result *r, int last)
{
    if (last >= 0 && strcmp(fl->gpu[last].host, r->host) == 0 && strcmp(fl->gpu[last].uuid, r->gpu_uuid) == 0)
        return last;
    for (int g = 0; g < fl->ngpus; g++)
        if (strcmp(fl->gpu[g].host, r->host) == 0 && strcmp(fl->gpu[g].uuid, r->gpu_uuid) == 0)
            return g;
    return -1;
}

/* One GPU's verdict from its rows (idx, n of them); tmp holds as many values as the
 * larger of n and the GPU count. */
static void judge_gpu(const struct gp_result *rows, const int *idx, int n, const double *ratio, const double *dev,
                      const struct cells *c, struct fleet *fl, int g, int *vi, double *tmp)
{
    struct fleet_gpu *G = &fl->gpu[g];
    /* the band comes from the other GPUs' spreads: a GPU's own noise (another process on
     * it, a clock that hunts) is a symptom to report, not a reason to widen its band */
    int k = 0;
    for (int o = 0; o < fl->ngpus; o++)
        if (o != g)
            tmp[k++] = fl->gpu[o].spread;
    const double others = fleet_median(tmp, k);
    G->band = fmax(FLEET_BAND_MIN, isnan(others) ? 0 : FLEET_BAND_SPREADS * others);
    G->noisy = !isnan(G->spread) && FLEET_BAND_SPREADS * G->spread > G->band;
    for (int j = 0; j < n; j++)
        tmp[j] = quantity_of(&rows[idx[j]], 0);
    G->sm_clock_hz = fleet_median(tmp, n);
    G->flagged = !isnan(G->ratio) && G->ratio < 1 - G->band;
    fl->nflagged += G->flagged;
    /* the quantity whose median deviation is largest */
    G->cause_dev = NAN;
    for (int q = 0; q < NQ; q++) {
        for (int j = 0; j < n; j++)
            tmp[j] = dev[(size_t)idx[j] * NQ + q];
        double d = fleet_median(tmp, n);
        if (!isnan(d) && fabs(d) >= FLEET_CAUSE_MIN && (isnan(G->cause_dev) || fabs(d) > fabs(G->cause_dev))) {
            G->cause_dev = d;
            snprintf(G->cause, sizeof G->cause, "%s", quantities[q].name);
        }
    }
    /* per variant: the largest shape, and the median ratio over its shapes */
    for (int j = 0; j < n; j++) {
        const struct gp_result *r = &rows[idx[j]];
        int v = 0;
        while (v < G->nvariants && strcmp(G->v[v].variant, r->variant) != 0)
            v++;
        vi[j] = -1;
        if (v == G->nvariants) {
            if (v == FLEET_MAX_VARIANTS)
                continue;
            G->nvariants++;
            memset(&G->v[v], 0, sizeof G->v[v]);
            snprintf(G->v[v].variant, sizeof G->v[v].variant, "%s", r->variant);
        }
        vi[j] = v;
        struct fleet_variant *V = &G->v[v];
        if ((double)r->m * r->n * r->k > (double)V->m * V->n * V->k) {
            V->m = r->m, V->n = r->n, V->k = r->k;
            V->flop_per_s = r->flop_per_s;
            int cell = c->of[idx[j]];
            V->fleet_median = c->size[cell] >= 2 ? c->median[(size_t)cell * NMED] : NAN;
        }
    }
    for (int v = 0; v < G->nvariants; v++) {
        k = 0;
        for (int j = 0; j < n; j++)
            if (vi[j] == v)
                tmp[k++] = ratio[idx[j]];
        G->v[v].ratio = fleet_median(tmp, k);
    }
}

int fleet_analyze(const struct gp_result *rows, int nrows, struct fleet *fl)
{
    memset(fl, 0, sizeof *fl);
    size_t n = (size_t)(nrows > 0 ? nrows : 0) + 1;
    int *gpu_of = malloc(n * sizeof *gpu_of), *buf = malloc(n * sizeof *buf), *vi = malloc(n * sizeof *vi);
    int *first = calloc(FLEET_MAX_GPUS + 1, sizeof *first);   /* GPU g's rows: buf[first[g] ..] */
    double *tmp = malloc((n + FLEET_MAX_GPUS) * sizeof *tmp), *ratio = malloc(n * sizeof *ratio);
    double *dev = malloc(n * NQ * sizeof *dev);
    fl->gpu = calloc(FLEET_MAX_GPUS, sizeof *fl->gpu);
    struct cells c = {0};
    int rc = -1;
    if (!gpu_of || !buf || !vi || !first || !tmp || !ratio || !dev || !fl->gpu)
        goto out;
    for (int i = 0, g = -1; i < nrows; i++) {
        gpu_of[i] = -1;
        if (!usable(&rows[i]))
            continue;
        g = find_gpu(fl, &rows[i], g);
        if (g < 0) {
            if (fl->ngpus == FLEET_MAX_GPUS)
                goto out;
            g = fl->ngpus++;
            struct fleet_gpu *G = &fl->gpu[g];
            snprintf(G->host, sizeof G->host, "%s", rows[i].host);
            snprintf(G->uuid, sizeof G->uuid, "%s", rows[i].gpu_uuid);
            snprintf(G->rank, sizeof G->rank, "%s", rows[i].rank);
        }
        gpu_of[i] = g;
    }
    if (cells_build(rows, nrows, gpu_of, buf, tmp, &c))
        goto out;
    /* per row: its ratio to the fleet median at its cell, and each quantity's deviation */
    for (int i = 0; i < nrows; i++) {
        ratio[i] = NAN;
        for (int q = 0; q < NQ; q++)
            dev[(size_t)i * NQ + q] = NAN;
        int cell = c.of[i];
        if (cell < 0 || c.size[cell] < 2)
            continue;   /* no other GPU ran it: nothing to compare with */
        const double *med = &c.median[(size_t)cell * NMED];
        ratio[i] = rows[i].flop_per_s / med[0];
        for (int q = 0; q < NQ; q++)
            dev[(size_t)i * NQ + q] = quantity_of(&rows[i], q) / med[1 + q] - 1;
    }
    /* each GPU's rows, in table order (a counting sort by GPU) */
    for (int i = 0; i < nrows; i++)
        if (gpu_of[i] >= 0)
            first[gpu_of[i] + 1]++;
    for (int g = 0; g < fl->ngpus; g++)
        first[g + 1] += first[g];
    int at[FLEET_MAX_GPUS] = {0};
    for (int i = 0; i < nrows; i++)
        if (gpu_of[i] >= 0)
            buf[first[gpu_of[i]] + at[gpu_of[i]]++] = i;
    for (int g = 0; g < fl->ngpus; g++) {
        struct fleet_gpu *G = &fl->gpu[g];
        const int *idx = buf + first[g];
        G->nrows = first[g + 1] - first[g];
        G->ncompared = 0;
        for (int j = 0; j < G->nrows; j++) {
            tmp[j] = ratio[idx[j]];
            G->ncompared += !isnan(ratio[idx[j]]);
        }
        G->ratio = fleet_median(tmp, G->nrows);
        for (int j = 0; j < G->nrows; j++)
            tmp[j] = isfinite(rows[idx[j]].time_spread) ? rows[idx[j]].time_spread : NAN;
        G->spread = fleet_median(tmp, G->nrows);
    }
    for (int g = 0; g < fl->ngpus; g++)
        judge_gpu(rows, buf + first[g], fl->gpu[g].nrows, ratio, dev, &c, fl, g, vi, tmp);
    rc = 0;
out:
    cells_free(&c);
    free(gpu_of);
    free(buf);
    free(vi);
    free(first);
    free(tmp);
    free(ratio);
    free(dev);
    if (rc)
        fleet_free(fl);
    return rc;
}

void fleet_free(struct fleet *fl)
{
    free(fl->gpu);
    fl->gpu = NULL;
    fl->ngpus = fl->nflagged = 0;
}

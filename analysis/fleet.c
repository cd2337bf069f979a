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

static int same_cell(const struct gp_result *a, const struct gp_result *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k && strcmp(a->variant, b->variant) == 0 &&
           strcmp(a->precision, b->precision) == 0;
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

/* The median over the GPUs (one value each) of the usable rows in `cell` (indices of rows
 * at one variant and shape); q < 0 reads flop_per_s. */
static double cell_median(const struct gp_result *rows, const int *cell, int ncell, int q, double *tmp)
{
    for (int i = 0; i < ncell; i++)
        tmp[i] = q < 0 ? rows[cell[i]].flop_per_s : quantity_of(&rows[cell[i]], q);
    return fleet_median(tmp, ncell);
}

/* The usable rows at row i's variant and shape, from its shape group: their count. */
static int cell_of(const struct gp_result *rows, const int *gpu_of, const struct row_groups *shapes, int i, int *cell)
{
    int cnt, n = 0;
    const int *idx = row_group(shapes, shapes->group_of[i], &cnt);
    for (int j = 0; j < cnt; j++)
        if (gpu_of[idx[j]] >= 0 && same_cell(&rows[i], &rows[idx[j]]))
            cell[n++] = idx[j];
    return n;
}

static int find_gpu(struct fleet *fl, const struct gp_result *r)
{
    for (int g = 0; g < fl->ngpus; g++)
        if (strcmp(fl->gpu[g].host, r->host) == 0 && strcmp(fl->gpu[g].uuid, r->gpu_uuid) == 0)
            return g;
    return -1;
}

int fleet_analyze(const struct gp_result *rows, int nrows, struct fleet *fl)
{
    memset(fl, 0, sizeof *fl);
    size_t n = (size_t)(nrows > 0 ? nrows : 0) + 1;
    int *gpu_of = malloc(n * sizeof *gpu_of), *cell = malloc(n * sizeof *cell);
    double *tmp = malloc(n * sizeof *tmp), *ratio = malloc(n * sizeof *ratio);
    double *dev = malloc(n * NQ * sizeof *dev);
    fl->gpu = calloc(FLEET_MAX_GPUS, sizeof *fl->gpu);
    struct row_groups shapes = {0};
    int rc = -1;
    if (!gpu_of || !cell || !tmp || !ratio || !dev || !fl->gpu ||
        row_groups_build(rows, nrows, ROW_KEY_SHAPE, &shapes))
        goto out;
    for (int i = 0; i < nrows; i++) {
        gpu_of[i] = -1;
        if (!usable(&rows[i]))
            continue;
        int g = find_gpu(fl, &rows[i]);
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
    /* per row: its ratio to the fleet median at its cell, and each quantity's deviation */
    for (int i = 0; i < nrows; i++) {
        ratio[i] = NAN;
        for (int q = 0; q < NQ; q++)
            dev[(size_t)i * NQ + q] = NAN;
        if (gpu_of[i] < 0)
            continue;
        int ncell = cell_of(rows, gpu_of, &shapes, i, cell);
        if (ncell < 2)
            continue;   /* no other GPU ran it: nothing to compare with */
        ratio[i] = rows[i].flop_per_s / cell_median(rows, cell, ncell, -2, tmp);
        for (int q = 0; q < NQ; q++)
            dev[(size_t)i * NQ + q] = quantity_of(&rows[i], q) / cell_median(rows, cell, ncell, q, tmp) - 1;
    }
    for (int g = 0; g < fl->ngpus; g++) {
        struct fleet_gpu *G = &fl->gpu[g];
        int k = 0;
        for (int i = 0; i < nrows; i++)
            if (gpu_of[i] == g) {
                G->nrows++;
                tmp[k++] = ratio[i];
            }
        G->ratio = fleet_median(tmp, k);
        G->ncompared = 0;
        for (int i = 0; i < nrows; i++)
            G->ncompared += gpu_of[i] == g && !isnan(ratio[i]);
        k = 0;
        for (int i = 0; i < nrows; i++)
            if (gpu_of[i] == g)
                tmp[k++] = isfinite(rows[i].time_spread) ? rows[i].time_spread : NAN;
        G->spread = fleet_median(tmp, k);
    }
    for (int g = 0; g < fl->ngpus; g++) {
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
        k = 0;
        for (int i = 0; i < nrows; i++)
            if (gpu_of[i] == g)
                tmp[k++] = quantity_of(&rows[i], 0);
        G->sm_clock_hz = fleet_median(tmp, k);
        G->flagged = !isnan(G->ratio) && G->ratio < 1 - G->band;
        fl->nflagged += G->flagged;
        /* the quantity whose median deviation is largest */
        G->cause_dev = NAN;
        for (int q = 0; q < NQ; q++) {
            k = 0;
            for (int i = 0; i < nrows; i++)
                if (gpu_of[i] == g)
                    tmp[k++] = dev[(size_t)i * NQ + q];
            double d = fleet_median(tmp, k);
            if (!isnan(d) && fabs(d) >= FLEET_CAUSE_MIN && (isnan(G->cause_dev) || fabs(d) > fabs(G->cause_dev))) {
                G->cause_dev = d;
                snprintf(G->cause, sizeof G->cause, "%s", quantities[q].name);
            }
        }
        /* per variant: the largest shape, and the median ratio over its shapes */
        for (int i = 0; i < nrows; i++) {
            if (gpu_of[i] != g)
                continue;
            const struct gp_result *r = &rows[i];
            int v = 0;
            while (v < G->nvariants && strcmp(G->v[v].variant, r->variant) != 0)
                v++;
            if (v == G->nvariants) {
                if (v == FLEET_MAX_VARIANTS)
                    continue;
                G->nvariants++;
                memset(&G->v[v], 0, sizeof G->v[v]);
                snprintf(G->v[v].variant, sizeof G->v[v].variant, "%s", r->variant);
            }
            struct fleet_variant *V = &G->v[v];
            if ((double)r->m * r->n * r->k > (double)V->m * V->n * V->k) {
                V->m = r->m, V->n = r->n, V->k = r->k;
                V->flop_per_s = r->flop_per_s;
                int ncell = cell_of(rows, gpu_of, &shapes, i, cell);
                V->fleet_median = ncell >= 2 ? cell_median(rows, cell, ncell, -2, tmp) : NAN;
            }
        }
        for (int v = 0; v < G->nvariants; v++) {
            k = 0;
            for (int i = 0; i < nrows; i++)
                if (gpu_of[i] == g && strcmp(rows[i].variant, G->v[v].variant) == 0)
                    tmp[k++] = ratio[i];
            G->v[v].ratio = fleet_median(tmp, k);
        }
    }
    rc = 0;
out:
    row_groups_free(&shapes);
    free(gpu_of);
    free(cell);
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

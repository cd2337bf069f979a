#include "src/ranks.h"

#include "analysis/numparse.h"
#include "analysis/results.h"

#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct launcher {
    const char *name;
    const char *rank, *size, *local;
};

/* In precedence order: under srun inside an mpirun job (or the reverse) the Slurm task
 * is the process's own view; the generic names come last since any tool may set them. */
static const struct launcher launchers[] = {
    {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"generic", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
};

/* A whole non-negative decimal integer below INT_MAX; else -1 with the reason. */
static int env_int(rank_getenv_fn get, void *ctx, const char *name, int *out, char *err,
                   size_t errlen)
{
    const char *s = get(name, ctx);
    if (!s) {
        snprintf(err, errlen, "%s is not set while its launcher's rank is", name);
        return -1;
    }
    long long v;
    if (parse_ll(s, 0, INT_MAX - 1, &v)) {
        snprintf(err, errlen, "%s='%.40s' is not a non-negative integer", name, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int ranks_detect(rank_getenv_fn get, void *ctx, struct rank_info *ri, char *err, size_t errlen)
{
    *ri = (struct rank_info){0, 1, 0, "none"};
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        const struct launcher *l = &launchers[i];
        if (!get(l->rank, ctx))
            continue;
        int rank, size, local;
        if (env_int(get, ctx, l->rank, &rank, err, errlen) ||
            env_int(get, ctx, l->size, &size, err, errlen) ||
            env_int(get, ctx, l->local, &local, err, errlen))
            return -1;
        if (size < 1 || rank >= size) {
            snprintf(err, errlen, "%s=%d with %s=%d: the rank must be below the world size", l->rank,
                     rank, l->size, size);
            return -1;
        }
        if (local >= size) {
            snprintf(err, errlen, "%s=%d with %s=%d: the local rank must be below the world size",
                     l->local, local, l->size, size);
            return -1;
        }
        *ri = (struct rank_info){rank, size, local, l->name};
        return 0;
    }
    return 0;
}

static const char *real_getenv(const char *name, void *ctx)
{
    (void)ctx;
    return getenv(name);
}

int ranks_from_env(struct rank_info *ri, char *err, size_t errlen)
{
    return ranks_detect(real_getenv, NULL, ri, err, errlen);
}

int ranks_pick_device(int local_rank, int visible)
{
    if (visible < 1 || local_rank < 0)
        return -1;
    return local_rank % visible;
}

struct item { double cost; int index; };

/* Largest cost first; equal costs in item order, so the sort is total and the split
 * does not depend on qsort's stability. */
static int by_cost_desc(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

int ranks_shard(const double *cost, int n, int nranks, int *owner, double *load)
{
    if (n < 0 || nranks < 1)
        return -1;
    struct item *items = malloc(sizeof *items * (size_t)(n ? n : 1));
    double *acc = calloc((size_t)nranks, sizeof *acc);
    if (!items || !acc) {
        free(items);
        free(acc);
        return -1;
    }
    for (int i = 0; i < n; i++)
        items[i] = (struct item){cost[i] > 0 ? cost[i] : 0, i};
    qsort(items, (size_t)n, sizeof *items, by_cost_desc);
    for (int i = 0; i < n; i++) {
        int best = 0;
        for (int r = 1; r < nranks; r++)
            if (acc[r] < acc[best])
                best = r;
        owner[items[i].index] = best;
        acc[best] += items[i].cost;
    }
    if (load)
        memcpy(load, acc, sizeof *acc * (size_t)nranks);
    free(items);
    free(acc);
    return 0;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int ranks_costs(const struct shard_item *items, int n, const struct shard_prior *prior, int nprior,
                double *cost)
{
    if (n < 0 || nprior < 0 || (n && (!items || !cost)) || (nprior && !prior))
        return -1;
    double *per_flop = malloc(sizeof *per_flop * (size_t)(n ? n : 1));
    int *has = calloc((size_t)(n ? n : 1), sizeof *has);
    if (!per_flop || !has) {
        free(per_flop);
        free(has);
        return -1;
    }
    int matched = 0, nrate = 0;
    for (int i = 0; i < n; i++) {
        const struct shard_item *it = &items[i];
        const double flops = 2.0 * (double)it->m * (double)it->n * (double)it->k;
        cost[i] = flops;
        for (int j = 0; j < nprior; j++) {
            const struct shard_prior *p = &prior[j];
            if (p->m == it->m && p->n == it->n && p->k == it->k && strcmp(p->variant, it->variant) == 0 &&
                isfinite(p->seconds) && p->seconds > 0) {
                cost[i] = p->seconds;
                has[i] = 1;
                if (flops > 0)
                    per_flop[nrate++] = p->seconds / flops;
                matched++;
                break;
            }
        }
    }
    /* the items without a prior: their FLOPs at the median rate of those with one */
    if (nrate > 0 && matched < n) {
        qsort(per_flop, (size_t)nrate, sizeof *per_flop, by_double);
        const double rate = nrate % 2 ? per_flop[nrate / 2] : 0.5 * (per_flop[nrate / 2 - 1] + per_flop[nrate / 2]);
        for (int i = 0; i < n; i++)
            if (!has[i])
                cost[i] *= rate;
    }
    free(per_flop);
    free(has);
    return matched;
}

int ranks_costs_from_rows(const struct shard_item *items, int n, const struct gp_result *rows, int nrows,
                          double *cost)
{
    if (nrows < 0 || (nrows && !rows))
        return -1;
    struct shard_prior *prior = malloc(sizeof *prior * (size_t)(nrows ? nrows : 1));
    if (!prior)
        return -1;
    int np = 0;
    for (int i = 0; i < nrows; i++) {
        const struct gp_result *g = &rows[i];
        const int launches = 1 + (g->reps > 0 ? g->reps : 0) + (g->warmups > 0 ? g->warmups : 0) +
                             (g->counter_passes > 0 ? g->counter_passes : 0);
        if (g->status == GP_STATUS_OK)
            prior[np++] = (struct shard_prior){g->variant, g->m, g->n, g->k, g->time_median_s * launches};
    }
    const int matched = ranks_costs(items, n, prior, np, cost);
    free(prior);
    return matched;
}

/* Appends s to buf at *off with unsafe characters replaced; "." and ".." alone stay
 * out since the caller always joins two parts with '-'. */
static void put_safe(char *buf, size_t len, size_t *off, const char *s)
{
    for (; *s && *off + 1 < len; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                 c == '-' || c == '_';
        buf[(*off)++] = ok ? c : '_';
    }
    buf[*off] = '\0';
}

int ranks_dir_name(const char *out, const char *host, const char *uuid, int rank, char *buf, size_t len)
{
    char name[256], num[32];
    size_t off = 0;
    put_safe(name, sizeof name, &off, *host ? host : "host");
    put_safe(name, sizeof name, &off, "-");
    snprintf(num, sizeof num, "rank%d", rank);
    put_safe(name, sizeof name, &off, *uuid ? uuid : num);
    int n = snprintf(buf, len, "%s/%s", out, name);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

const char *rank_mode_name(enum rank_mode m)
{
    switch (m) {
    case RANK_SHARD: return "shard";
    case RANK_FLEET: return "fleet";
    default: return "single";
    }
}

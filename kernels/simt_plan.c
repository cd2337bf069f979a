/* simt_auto's selection rule over the tile table (see kernels/simt_plan.h for the rule
 * in words and its constants). */
#include "kernels/simt_plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct simt_config simt_configs[] = {
#define SIMT_CONFIG(name, bm, bn, bk, wm, wn, wmiter, stages, minb, akmajor, eff) \
    {#name, bm, bn, bk, wm, wn, wmiter, stages, minb, akmajor, eff},
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG
};
const int simt_config_count = (int)(sizeof simt_configs / sizeof simt_configs[0]);

static const int simt_splits[] = SIMT_SPLITS;
#define NSPLITS ((int)(sizeof simt_splits / sizeof simt_splits[0]))

int simt_config_threads(const struct simt_config *c)
{
    return (c->bm / c->wm) * (c->bn / c->wn) * 32;
}

/* The lane layout of kernels/simt_gemm.cuh: 4x4 lane sub-tiles, WMITER down a warp tile,
 * as many lanes down a sub-tile as fit its rows, the rest across. */
void simt_config_thread_tile(const struct simt_config *c, int *tm, int *tn)
{
    const int lanes_m = c->wm / c->wmiter / 4, lanes_n = 32 / lanes_m;
    *tm = c->wmiter * 4;
    *tn = c->wn / (lanes_n * 4) * 4;
}

int simt_config_find(const char *name)
{
    for (int i = 0; i < simt_config_count; i++)
        if (strcmp(simt_configs[i].name, name) == 0)
            return i;
    return -1;
}

static long ceil_div(long a, long b)
{
    return (a + b - 1) / b;
}

/* The busiest SM's time for the GEMM kernel: its L blocks in waves of up to b. */
static double gemm_cycles(const struct simt_machine *mc, int ci, long blocks, int k_slice)
{
    const struct simt_config *c = &simt_configs[ci];
    const int sms = mc->sms > 0 ? mc->sms : 1;
    int per_sm = mc->blocks_per_sm[ci] > 0 ? mc->blocks_per_sm[ci] : c->min_blocks;
    if (per_sm < 1)
        per_sm = 1;
    const int warps = simt_config_threads(c) / 32;
    const double tile_fmas = (double)c->bm * c->bn * k_slice;
    double cycles = 0;
    for (long left = ceil_div(blocks, sms); left > 0; left -= per_sm) {
        const long w = left < per_sm ? left : per_sm;
        double fed = (double)w * warps / SIMT_FULL_WARPS;
        if (fed > 1)
            fed = 1;
        cycles += (double)w * tile_fmas / (128.0 * c->eff * fed) + SIMT_WAVE_CLK;
    }
    return cycles;
}

int simt_plan_make(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                   struct simt_plan *p)
{
    if (config < 0 || config >= simt_config_count || split < 1 || m < 1 || n < 1 || k < 1)
        return -1;
    const struct simt_config *c = &simt_configs[config];
    const long slice = ceil_div(ceil_div(k, split), c->bk) * c->bk;
    /* every slice non-empty: otherwise this is a smaller split under another name */
    if (split > 1 && (slice < SIMT_MIN_K_SLICE || (split - 1) * slice >= k))
        return -1;
    p->config = config;
    p->split = split;
    p->k_slice = (int)(split == 1 ? ceil_div(k, c->bk) * c->bk : slice);
    p->blocks = ceil_div(m, c->bm) * ceil_div(n, c->bn) * split;
    if (simt_plan_workspace_bytes(p, m, n) > (size_t)SIMT_MAX_WORKSPACE_BYTES)
        return -1;
    const int sms = mc->sms > 0 ? mc->sms : 1;
    /* the last slice may be shorter; the busiest SM still waits for a full one */
    p->est_cycles = gemm_cycles(mc, config, p->blocks, p->k_slice);
    if (split > 1)
        p->est_cycles += (double)(split + 1) * m * n * 4 / (SIMT_REDUCE_BYTES_PER_CLK * sms) + SIMT_LAUNCH_CLK;
    return 0;
}

int simt_plan_candidates(const struct simt_machine *mc, long m, long n, long k, struct simt_plan *out,
                         int max)
{
    int count = 0;
    for (int c = 0; c < simt_config_count; c++)
        for (int s = 0; s < NSPLITS && count < max; s++)
            if (simt_plan_make(mc, m, n, k, c, simt_splits[s], &out[count]) == 0)
                count++;
    return count;
}

struct simt_plan simt_plan_pick(const struct simt_machine *mc, long m, long n, long k)
{
    struct simt_plan best = {0, 1, 0, 0, INFINITY}, p;
    for (int c = 0; c < simt_config_count; c++)
        for (int s = 0; s < NSPLITS; s++)
            /* strictly smaller: ties keep the larger tile, then the smaller split */
            if (simt_plan_make(mc, m, n, k, c, simt_splits[s], &p) == 0 && p.est_cycles < best.est_cycles)
                best = p;
    if (isinf(best.est_cycles))   /* bad sizes: still a plan the launcher can refuse */
        simt_plan_make(mc, m > 0 ? m : 1, n > 0 ? n : 1, k > 0 ? k : 1, 0, 1, &best);
    return best;
}

size_t simt_plan_workspace_bytes(const struct simt_plan *p, long m, long n)
{
    return p->split > 1 ? (size_t)p->split * (size_t)m * (size_t)n * sizeof(float) : 0;
}

void simt_config_describe(const struct simt_config *c, int split, char *buf, size_t len)
{
    int tm, tn;
    simt_config_thread_tile(c, &tm, &tn);
    snprintf(buf, len, "%dx%dx%d w%dx%d t%dx%d s%d%s split%d", c->bm, c->bn, c->bk, c->wm, c->wn, tm, tn,
             c->stages, c->a_kmajor ? "" : " aT", split);
}

void simt_plan_describe(const struct simt_plan *p, char *buf, size_t len)
{
    simt_config_describe(&simt_configs[p->config], p->split, buf, len);
}

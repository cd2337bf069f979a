/* tf32_auto's selection rule over the tile table (see kernels/tf32_plan.h for the rule in
 * words and its constants). */
#include "kernels/tf32_plan.h"
#include "kernels/simt_plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct tf32_config tf32_configs[] = {
#define TF32_CONFIG(name, bm, consumers, stages, minb, cluster, eff) {#name, bm, consumers, stages, minb, cluster, eff},
#include "kernels/tf32_configs.def"
#undef TF32_CONFIG
};
const int tf32_config_count = (int)(sizeof tf32_configs / sizeof tf32_configs[0]);

static const int tf32_splits[] = TF32_SPLITS;
#define NSPLITS ((int)(sizeof tf32_splits / sizeof tf32_splits[0]))

int tf32_config_bn(const struct tf32_config *c)
{
    return 64 * c->consumers * c->cluster;
}

int tf32_config_block_bn(const struct tf32_config *c)
{
    return 64 * c->consumers;
}

int tf32_config_threads(const struct tf32_config *c)
{
    return 128 * (c->consumers + 1);
}

int tf32_config_find(const char *name)
{
    for (int i = 0; i < tf32_config_count; i++)
        if (strcmp(tf32_configs[i].name, name) == 0)
            return i;
    return -1;
}

static long ceil_div(long a, long b)
{
    return (a + b - 1) / b;
}

static int sms_of(const struct tf32_machine *mc)
{
    return mc->sms > 0 ? mc->sms : 1;
}

static int blocks_per_sm(const struct tf32_machine *mc, int config)
{
    const int b = mc->blocks_per_sm[config] > 0 ? mc->blocks_per_sm[config] : tf32_configs[config].min_blocks;
    return b > 0 ? b : 1;
}

long tf32_plan_grid_blocks(const struct tf32_plan *p)
{
    return p->grid * tf32_configs[p->config].cluster;
}

/* units (clusters, where the tile has them) that can run at once */
static long unit_slots(const struct tf32_machine *mc, int config)
{
    const struct tf32_config *c = &tf32_configs[config];
    if (c->cluster > 1 && mc->cluster_slots[config] > 0)
        return mc->cluster_slots[config];
    return (long)sms_of(mc) / c->cluster * blocks_per_sm(mc, config);
}

/* blocks of the plan on its busiest SM */
static long blocks_on_sm(const struct tf32_machine *mc, const struct tf32_plan *p)
{
    const long b = blocks_per_sm(mc, p->config), spread = ceil_div(tf32_plan_grid_blocks(p), sms_of(mc));
    return spread < b ? spread : b;
}

/* Units per block of the plan: whole tiles (the full waves a split leaves unsliced) and
 * the others (slices, or whole tiles without a split). */
static long whole_per_block(const struct tf32_plan *p)
{
    return p->dp_tiles / p->grid;
}

static long sliced_per_block(const struct tf32_plan *p)
{
    return ceil_div(p->units - p->dp_tiles, p->grid);
}

/* k-tiles the busiest SM walks: its blocks' whole tiles and slices */
static double ktiles_on_sm(const struct tf32_machine *mc, const struct tf32_plan *p)
{
    return (double)blocks_on_sm(mc, p) *
           ((double)whole_per_block(p) * p->ktiles + (double)sliced_per_block(p) * p->kts);
}

double tf32_plan_sm_bytes(const struct tf32_machine *mc, const struct tf32_plan *p)
{
    const struct tf32_config *c = &tf32_configs[p->config];
    return ktiles_on_sm(mc, p) * (c->bm + tf32_config_block_bn(c)) * 128.0;
}

/* A's rows start 16 bytes into a 32-byte sector (every other row): see TF32_A_SPLIT */
static int a_off_sector(long k)
{
    return k % 8 == 4;
}

static double max3(double a, double b, double c)
{
    const double ab = a > b ? a : b;
    return ab > c ? ab : c;
}

/* The busiest SM's cycles (see the header); a_split: A's L2 bytes count this many times. */
static double sm_cycles(const struct tf32_machine *mc, const struct tf32_plan *p, double a_split)
{
    const struct tf32_config *c = &tf32_configs[p->config];
    /* per block: in a cluster each block holds BM x BN of the tile and loads half of A */
    const int bn = tf32_config_block_bn(c);
    const double tile_bytes = 4.0 * c->bm * bn;
    const long whole = whole_per_block(p), sliced = sliced_per_block(p), on_sm = blocks_on_sm(mc, p);
    const double kt_on_sm = ktiles_on_sm(mc, p);
    /* EFF is the SM's rate with MIN_BLOCKS blocks resident; a lone block of a 2-block tile
     * gets less of it (the tuner's tables: its long-K plans ran 1.4-2.7x over the estimate),
     * but not half where fills and launches dominate: the square root of the share */
    const double resident = sqrt((double)(on_sm < c->min_blocks ? on_sm : c->min_blocks) / c->min_blocks);
    const double mma = (double)c->bm * bn * 32.0 / (TF32_MACS_PER_CLK * c->eff * resident) *
                       (p->maps_a ? TF32_MAPS_A_MMA_COST : 1.0);
    const long busy = tf32_plan_grid_blocks(p) < sms_of(mc) ? tf32_plan_grid_blocks(p) : sms_of(mc);
    /* whole tiles, a unit per block: the blocks walk K in step (see the header) */
    const int in_step = p->split == 1 && p->units <= p->grid && p->ktiles >= TF32_LOCKSTEP_MIN_KTILES &&
                        c->stages <= TF32_LOCKSTEP_MAX_STAGES;
    /* operands the kernel loads itself (p->direct): rows off sectors, by 4-byte copies */
    const int direct_a = (p->direct & TF32_DIRECT_A) != 0, direct_b = (p->direct & TF32_DIRECT_B) != 0;
    /* B by its four row maps: a panel of 32 columns more per block */
    const double b_panels = p->maps_b ? (bn / 32 + 1.0) / (bn / 32.0) : p->maps_a ? 40.0 / 32.0 : 1.0;
    const double a_bytes = c->bm * 128.0, b_bytes = bn * 128.0 * b_panels;
    const double a_l2 = direct_a ? TF32_DIRECT_L2_SPLIT : a_split / c->cluster;
    const double b_l2 = direct_b ? TF32_DIRECT_L2_SPLIT : 1.0;
    const double feed = a_bytes / (direct_a ? TF32_DIRECT_BYTES_PER_CLK : TF32_SM_BYTES_PER_CLK) +
                        b_bytes / (direct_b ? TF32_DIRECT_BYTES_PER_CLK : TF32_SM_BYTES_PER_CLK);
    const double l2 = (double)busy * (a_bytes * a_l2 + b_bytes * b_l2) /
                      (in_step ? TF32_L2_LOCKSTEP_BYTES_PER_CLK : TF32_L2_BYTES_PER_CLK);
    double cycles = kt_on_sm * max3(mma, feed, l2) + (double)(whole + sliced) * TF32_UNIT_CLK;
    if (p->split > 1) /* the partial tiles' stores */
        cycles += (double)(sliced * on_sm) * tile_bytes / TF32_FIXUP_BYTES_PER_CLK;
    if (p->split > 1 && !p->reduce) /* the in-kernel fixup: each sliced unit's fences and count,
                                      * in the block's path, then the SM's share of the tiles' sums */
        cycles += (double)sliced * TF32_FIXUP_UNIT_CLK +
                  (double)ceil_div((p->tiles - p->dp_tiles) * c->cluster, sms_of(mc)) *
                      (TF32_FIXUP_CLK + p->split * tile_bytes / TF32_FIXUP_BYTES_PER_CLK);
    return cycles;
}

int tf32_plan_make(const struct tf32_machine *mc, long m, long n, long k, int config, int split,
                   struct tf32_plan *p)
{
    return tf32_plan_make_any(mc, m, n, k, config, split, 0, p);
}

int tf32_plan_make_any(const struct tf32_machine *mc, long m, long n, long k, int config, int split, int copy_a,
                       struct tf32_plan *p)
{
    return tf32_plan_make_kind(mc, m, n, k, config, split, copy_a, 0, p);
}

int tf32_direct_operands(long n, long k)
{
    return (k % 4 != 0 ? TF32_DIRECT_A : 0) | (n % 4 != 0 ? TF32_DIRECT_B : 0);
}

int tf32_plan_make_kind(const struct tf32_machine *mc, long m, long n, long k, int config, int split, int load,
                        int reduce, struct tf32_plan *p)
{
    if (config < 0 || config >= tf32_config_count || split < 1 || m < 1 || n < 1 || k < 1 || load < 0 ||
        load >= TF32_LOADS || (load == TF32_LOAD_COPY_A && !a_off_sector(k)))
        return -1;
    const struct tf32_config *c = &tf32_configs[config];
    const int direct = load == TF32_LOAD_DIRECT ? tf32_direct_operands(n, k) : 0;
    if (load == TF32_LOAD_DIRECT && (direct == 0 || c->cluster > 1))
        return -1;
    const int maps_b = load == TF32_LOAD_MAPS_B, maps_a = load == TF32_LOAD_MAPS_A;
    if (maps_b && (n % 4 == 0 || k < 4 || c->cluster > 1))
        return -1;
    if (maps_a && (k % 4 == 0 || m < 4 || c->cluster > 1))
        return -1;
    const int copy_a = load == TF32_LOAD_COPY_A;
    if (reduce && (split < 2 || c->cluster > 1))
        return -1;
    const long ktiles = ceil_div(k + (maps_a ? 3 : 0), 32), kts = ceil_div(ktiles, split);
    if (split > 1 && kts < TF32_MIN_KTS)
        return -1;
    if (reduce) {
        /* the slices that hold K; the previous split of the list with this slice is this plan */
        int prev = 1;
        for (int s = 0; s < NSPLITS && tf32_splits[s] < split; s++)
            prev = tf32_splits[s];
        if (prev != split && ceil_div(ktiles, prev) == kts)
            return -1;
        split = (int)ceil_div(ktiles, kts);
    } else if (split > TF32_MAX_FIXUP_SPLIT || (split > 1 && (split - 1) * kts >= ktiles)) {
        /* every slice non-empty: otherwise this is a smaller split under another name */
        return -1;
    }
    p->reduce = reduce != 0;
    p->config = config;
    p->split = split;
    p->kts = (int)kts;
    p->ktiles = ktiles;
    p->tiles = ceil_div(m, c->bm) * ceil_div(n, tf32_config_bn(c));
    const long slots = unit_slots(mc, config);
    /* a split slices the last, partial wave only; none left to slice: not a candidate */
    p->dp_tiles = split > 1 && !reduce ? p->tiles / slots * slots : 0;
    if (split > 1 && !reduce && p->dp_tiles == p->tiles)
        return -1;
    p->units = p->dp_tiles + (p->tiles - p->dp_tiles) * split;
    p->grid = p->units < slots ? p->units : slots;
    if (tf32_plan_workspace_bytes(p) > (size_t)TF32_MAX_WORKSPACE_BYTES)
        return -1;
    p->copy_a = copy_a;
    p->direct = direct;
    p->maps_b = maps_b;
    p->maps_a = maps_a;
    p->sm_cycles = sm_cycles(mc, p, a_off_sector(k) && !copy_a ? TF32_A_SPLIT : 1.0);
    const double dram = 4.0 * ((double)m * k + (double)k * n + (double)m * n) / TF32_DRAM_BYTES_PER_CLK;
    const double s2 = p->sm_cycles * p->sm_cycles, d2 = dram * dram;
    p->est_cycles = sqrt(sqrt(s2 * s2 + d2 * d2)) + TF32_LAUNCH_CLK;
    if (copy_a) /* read A, write its copy, before the kernel */
        p->est_cycles += TF32_COPY_CLK + 8.0 * m * k / TF32_DRAM_BYTES_PER_CLK;
    /* rows TMA cannot address (k % 4 or n % 4 != 0): a plan either loads that operand in the
     * kernel (direct) or copies it first onto pitches of whole lines, which can take most of
     * the time (1111x47x7777: A, 34.6 MB, read and written before the kernel reads it again) */
    if (k % 4 != 0 && !(direct & TF32_DIRECT_A) && !maps_a)
        p->est_cycles += TF32_COPY_CLK + 8.0 * m * k / TF32_DRAM_BYTES_PER_CLK;
    if (n % 4 != 0 && !(direct & TF32_DIRECT_B) && !maps_b)
        p->est_cycles += TF32_COPY_CLK + 8.0 * k * n / TF32_DRAM_BYTES_PER_CLK;
    if (reduce) { /* the reduction kernel after it: simt_auto's, at its rule's estimate */
        struct simt_machine smc = {0};
        smc.sms = sms_of(mc);
        p->est_cycles += simt_reduce_cycles(&smc, m, n, p->split, tf32_plan_launch_threads(p));
    }
    return 0;
}

int tf32_plan_load(const struct tf32_plan *p)
{
    return p->copy_a   ? TF32_LOAD_COPY_A
           : p->direct ? TF32_LOAD_DIRECT
           : p->maps_b ? TF32_LOAD_MAPS_B
           : p->maps_a ? TF32_LOAD_MAPS_A
                       : TF32_LOAD_TMA;
}

int tf32_plan_load_mask(const struct tf32_plan *p)
{
    return p->direct | (p->maps_b ? TF32_MAPS_B : 0) | (p->maps_a ? TF32_MAPS_A : 0);
}

int tf32_plan_stages(const struct tf32_plan *p)
{
    const struct tf32_config *c = &tf32_configs[p->config];
    const int bn = tf32_config_block_bn(c);
    return p->maps_b   ? TF32_MAPS_B_STAGES(c->bm, bn, c->stages, c->min_blocks)
           : p->maps_a ? TF32_MAPS_A_STAGES(c->bm, bn, c->stages, c->min_blocks)
                       : c->stages;
}

long tf32_plan_launch_threads(const struct tf32_plan *p)
{
    return tf32_plan_grid_blocks(p) * tf32_config_threads(&tf32_configs[p->config]);
}

int tf32_plan_candidates(const struct tf32_machine *mc, long m, long n, long k, struct tf32_plan *out, int max)
{
    int count = 0;
    for (int reduce = 0; reduce < 2; reduce++) /* each way to load, then the reduce plans */
        for (int load = 0; load < TF32_LOADS; load++)
            for (int c = 0; c < tf32_config_count; c++)
                for (int s = 0; s < NSPLITS && count < max; s++)
                    if (tf32_plan_make_kind(mc, m, n, k, c, tf32_splits[s], load, reduce, &out[count]) == 0)
                        count++;
    return count;
}

struct tf32_plan tf32_plan_pick(const struct tf32_machine *mc, long m, long n, long k)
{
    struct tf32_plan best = {0, 1, 0, 0, 0, 0, INFINITY, INFINITY, 0, 0, 0, 0, 0, 0, 0}, p;
    for (int reduce = 0; reduce < 2; reduce++)
        for (int load = 0; load < TF32_LOADS; load++)
            for (int c = 0; c < tf32_config_count; c++)
                for (int s = 0; s < NSPLITS; s++)
                    /* strictly smaller: ties keep TMA, no copy, the fixup, the larger tile, then
                     * the smaller split */
                    if (tf32_plan_make_kind(mc, m, n, k, c, tf32_splits[s], load, reduce, &p) == 0 &&
                        p.est_cycles < best.est_cycles)
                        best = p;
    if (isinf(best.est_cycles)) /* bad sizes: still a plan the launcher can refuse */
        tf32_plan_make(mc, m > 0 ? m : 1, n > 0 ? n : 1, k > 0 ? k : 1, 0, 1, &best);
    return best;
}

size_t tf32_plan_workspace_bytes(const struct tf32_plan *p)
{
    const struct tf32_config *c = &tf32_configs[p->config];
    /* a reduce plan's split x m x n partials fit in its units' tiles */
    return p->split > 1 ? (size_t)(p->units - p->dp_tiles) * (size_t)c->bm * (size_t)tf32_config_bn(c) * sizeof(float)
                        : 0;
}

size_t tf32_plan_counter_bytes(const struct tf32_plan *p)
{
    return p->split > 1 && !p->reduce
               ? (size_t)(p->tiles - p->dp_tiles) * (size_t)tf32_configs[p->config].cluster * sizeof(unsigned)
               : 0;
}

static void describe_tile(const struct tf32_config *c, int stages, int split, char *buf, size_t len)
{
    char blocks[16] = "", cluster[24] = "";
    if (c->min_blocks > 1)
        snprintf(blocks, sizeof blocks, " b%d", c->min_blocks);
    if (c->cluster > 1)
        snprintf(cluster, sizeof cluster, " cluster%d", c->cluster);
    snprintf(buf, len, "%dx%dx32 wg%d s%d%s%s split%d", c->bm, tf32_config_block_bn(c), c->consumers, stages, blocks,
             cluster, split);
}

void tf32_config_describe(const struct tf32_config *c, int split, char *buf, size_t len)
{
    describe_tile(c, c->stages, split, buf, len);
}

void tf32_plan_describe(const struct tf32_plan *p, char *buf, size_t len)
{
    describe_tile(&tf32_configs[p->config], tf32_plan_stages(p), p->split, buf, len);
    const size_t used = strlen(buf);
    if (p->dp_tiles > 0 && used < len) /* the split is the last wave's: say how many tiles */
        snprintf(buf + used, len - used, " tail%ld", p->tiles - p->dp_tiles);
    const size_t more = strlen(buf);
    if (p->copy_a && more < len)
        snprintf(buf + more, len - more, " copyA");
    const size_t loads = strlen(buf);
    if (p->direct && loads < len)
        snprintf(buf + loads, len - loads, " direct%s%s", p->direct & TF32_DIRECT_A ? "A" : "",
                 p->direct & TF32_DIRECT_B ? "B" : "");
    const size_t maps = strlen(buf);
    if ((p->maps_b || p->maps_a) && maps < len)
        snprintf(buf + maps, len - maps, p->maps_b ? " mapsB" : " mapsA");
    const size_t last = strlen(buf);
    if (p->reduce && last < len)
        snprintf(buf + last, len - last, " reduce");
}

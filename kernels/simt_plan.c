/* simt_auto's selection rule over the tile table (see kernels/simt_plan.h for the rule
 * in words and its constants). */
#include "kernels/simt_plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct simt_config simt_configs[] = {
#define SIMT_CONFIG(name, bm, bn, bk, wm, wn, wmiter, stages, minb, akmajor, eff) \
    {#name, bm, bn, bk, wm, wn, wmiter, stages, minb, akmajor, eff, SIMT_FORM_TILE},
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG
/* then the few-columns kernel's forms: rows of ROWS x SIMT_SKINNY_WARPS, NMAX columns, k-steps
 * of 128 x USTEP */
#define SIMT_SKINNY(name, nmax, rows, ustep, eff) \
    {#name, (rows) * SIMT_SKINNY_WARPS, nmax, 128 * (ustep), rows, nmax, 1, 2, 1, 1, eff, SIMT_FORM_FEW_COLUMNS},
#include "kernels/simt_skinny_forms.def"
#undef SIMT_SKINNY
/* then the few-rows kernel's: MMAX rows, 32 x CV columns, block k-steps of 4 x USTEP a warp */
#define SIMT_SHORT(name, mmax, cv, ustep, eff) \
    {#name, mmax, 32 * (cv), 4 * (ustep) * SIMT_SHORT_WARPS, mmax, 4 * (cv), 1, 2, 1, 1, eff, SIMT_FORM_FEW_ROWS},
#include "kernels/simt_short_forms.def"
#undef SIMT_SHORT
};
const int simt_config_count = (int)(sizeof simt_configs / sizeof simt_configs[0]);

static const int simt_splits[] = SIMT_SPLITS;
#define NSPLITS ((int)(sizeof simt_splits / sizeof simt_splits[0]))
/* the splits a configuration's candidates take: the list's, then the one that fills a wave */
#define NCANDIDATE_SPLITS (NSPLITS + 1)
#define CANDIDATE_SPLIT(s) ((s) < NSPLITS ? simt_splits[s] : SIMT_SPLIT_FILL)

int simt_config_threads(const struct simt_config *c)
{
    return (c->bm / c->wm) * (c->bn / c->wn) * 32;
}

/* The lane layout of kernels/simt_gemm.cuh: 4x4 lane sub-tiles, WMITER down a warp tile,
 * as many lanes down a sub-tile as fit its rows, the rest across. */
void simt_config_thread_tile(const struct simt_config *c, int *tm, int *tn)
{
    if (c->form != SIMT_FORM_TILE) { /* a lane's accumulators: its rows by its columns */
        *tm = c->wm;
        *tn = c->form == SIMT_FORM_FEW_COLUMNS ? c->bn : c->bn / 32;
        return;
    }
    const int lanes_m = c->wm / c->wmiter / 4, lanes_n = 32 / lanes_m;
    *tm = c->wmiter * 4;
    *tn = c->wn / (lanes_n * 4) * 4;
}

int simt_config_has_streamk(int config)
{
    static const char *const names[] = {
#define SIMT_STREAMK(name) #name,
#include "kernels/simt_streamk_tiles.def"
#undef SIMT_STREAMK
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (config >= 0 && config < simt_config_count && strcmp(simt_configs[config].name, names[i]) == 0)
            return 1;
    return 0;
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

/* A split's slice of k: ceil(k / split) rounded up to a whole number of bk */
static long slice_of(long k, int split, int bk)
{
    return ceil_div(ceil_div(k, split), bk) * bk;
}

/* The fraction of the FFMA issue that W resident warps keep busy with this thread tile:
 * larger thread tiles need fewer warps, but fall off faster below them. */
static double fed(const struct simt_config *c, double warps)
{
    int tm, tn;
    simt_config_thread_tile(c, &tm, &tn);
    const double outputs = tm * tn / 32.0;
    const double full = SIMT_FEED_WARPS * pow(outputs, -SIMT_FEED_WARPS_TILE);
    return warps >= full ? 1.0 : pow(warps / full, SIMT_FEED_EXP * pow(outputs, SIMT_FEED_EXP_TILE));
}

/* The transposed-A tiles copy A by 4 bytes and transpose it: more issue per k-step, which
 * fewer than SIMT_FEED_WARPS_T warps per SM (one block of 4 warps) leave exposed. */
static double fed_transposed(const struct simt_config *c, double warps)
{
    if (c->a_kmajor || warps >= SIMT_FEED_WARPS_T)
        return 1.0;
    return pow(warps / SIMT_FEED_WARPS_T, SIMT_FEED_EXP_T);
}

/* Whether configuration c copies by 4 bytes at n x k: B's rows, or a k-major A's, are not
 * 16-byte multiples (the launcher's 16-byte test, with the operands 16-byte aligned as
 * cudaMalloc gives them) */
static int narrow_of(const struct simt_config *c, long n, long k)
{
    return n % 4 != 0 || (c->a_kmajor && k % 4 != 0);
}

/* EFF of configuration c at m x n x k: the 4-byte copies, and A's rows across sectors in
 * the transposed tiles. */
static double shape_eff(const struct simt_config *c, long n, long k)
{
    double eff = c->eff;
    if (narrow_of(c, n, k))
        eff *= c->a_kmajor ? SIMT_NARROW_K : SIMT_NARROW_T;
    if (!c->a_kmajor && k % 8 != 0)
        eff *= SIMT_A_SECTOR;
    return eff;
}

enum simt_path simt_plan_path(int config, long n, long k, int pad)
{
    if (simt_configs[config].form != SIMT_FORM_TILE) /* one kernel, whatever the widths */
        return SIMT_PATH_VEC;
    return pad ? SIMT_PATH_PADDED : narrow_of(&simt_configs[config], n, k) ? SIMT_PATH_NARROW : SIMT_PATH_VEC;
}

int *simt_machine_per_sm(struct simt_machine *mc, int streamk, enum simt_path path)
{
    return streamk                       ? mc->streamk_per_sm
           : path == SIMT_PATH_PADDED ? mc->padded_per_sm
           : path == SIMT_PATH_NARROW ? mc->narrow_per_sm
                                      : mc->blocks_per_sm;
}

/* blocks of a configuration's GEMM kernel on a path resident per SM */
static int per_sm_of(const struct simt_machine *mc, int config, int path)
{
    const int own = path == SIMT_PATH_PADDED ? mc->padded_per_sm[config]
                    : path == SIMT_PATH_NARROW ? mc->narrow_per_sm[config] : 0;
    const int b = own > 0 ? own : mc->blocks_per_sm[config] > 0 ? mc->blocks_per_sm[config]
                                                                 : simt_configs[config].min_blocks;
    return b > 0 ? b : 1;
}

/* blocks per SM of a configuration's GEMM kernel, or of its stream-K kernel where known */
static int kernel_per_sm(const struct simt_machine *mc, int config, int streamk, int path)
{
    return streamk && mc->streamk_per_sm[config] > 0 ? mc->streamk_per_sm[config] : per_sm_of(mc, config, path);
}

int simt_plan_blocks_per_sm(const struct simt_machine *mc, const struct simt_plan *p)
{
    return kernel_per_sm(mc, p->config, p->streamk, p->path);
}

int simt_plan_overlaps_copy(const struct simt_machine *mc, const struct simt_plan *p)
{
    return p->pad_n && p->blocks >= (long)(mc->sms > 0 ? mc->sms : 1) * simt_plan_blocks_per_sm(mc, p);
}

int simt_plan_regs(const struct simt_machine *mc, const struct simt_plan *p)
{
    const int own = p->streamk                      ? 0
                    : p->path == SIMT_PATH_PADDED ? mc->padded_regs[p->config]
                    : p->path == SIMT_PATH_NARROW ? mc->narrow_regs[p->config] : 0;
    return own > 0 ? own : mc->regs[p->config];
}

/* a grid's slots: SMs x resident blocks of the configuration on the path */
static long slots_of(const struct simt_machine *mc, int config, int path)
{
    return (long)(mc->sms > 0 ? mc->sms : 1) * per_sm_of(mc, config, path);
}

/* The busiest SM's time for the GEMM kernel: its L blocks in waves of up to b */
static double gemm_cycles(const struct simt_machine *mc, int ci, long n, long k, long blocks, int k_slice, int path)
{
    const struct simt_config *c = &simt_configs[ci];
    const int sms = mc->sms > 0 ? mc->sms : 1;
    const int per_sm = per_sm_of(mc, ci, path);
    const int warps = simt_config_threads(c) / 32;
    const double eff = shape_eff(c, n, k);
    const double tile_fmas = (double)c->bm * c->bn * (k_slice + SIMT_FILL_K + SIMT_FILL_K_STAGE * (c->stages - 1) * c->bk);
    /* the first wave's blocks start together: their prologues contend (SIMT_FIRST_WAVE_STAGE) */
    double fmas = tile_fmas + (double)c->bm * c->bn * SIMT_FIRST_WAVE_STAGE * (c->stages - 1) * c->bk;
    double cycles = 0;
    for (long left = ceil_div(blocks, sms); left > 0; left -= per_sm, fmas = tile_fmas) {
        const long w = left < per_sm ? left : per_sm;
        cycles += (double)w * fmas / (128.0 * eff * fed(c, (double)w * warps) * fed_transposed(c, (double)w * warps));
        if (w == 1 && k_slice >= k) /* a lone block's epilogue into C: no other block computes meanwhile */
            cycles += (double)c->bm * c->bn * 4 / SIMT_STORE_BYTES_PER_CLK;
    }
    return cycles;
}

/* A reduction grid of blocks of SIMT_REDUCE_THREADS, each taking per_block items of C
 * (float4 items where count % 4 == 0 and C is 16-byte aligned) per pass, at most the GEMM
 * kernel's threads */
static long reduce_grid(long m, long n, long gemm_threads, int c_aligned16, long per_block)
{
    const long count = m * n;
    const long items = count % 4 == 0 && c_aligned16 ? count / 4 : count;
    long blocks = ceil_div(items, per_block);
    if (blocks > gemm_threads / SIMT_REDUCE_THREADS)
        blocks = gemm_threads / SIMT_REDUCE_THREADS;
    return blocks > 0 ? blocks : 1;
}

long simt_reduce_blocks(long m, long n, long gemm_threads, int c_aligned16)
{
    return reduce_grid(m, n, gemm_threads, c_aligned16, (long)SIMT_REDUCE_THREADS * SIMT_REDUCE_ILP);
}

/* 32 items a block: a warp's loads of one slice are 32 consecutive items */
#define WIDE_ITEMS (SIMT_REDUCE_THREADS / SIMT_REDUCE_WIDE_GROUPS)

long simt_reduce_wide_blocks(long m, long n, long gemm_threads, int c_aligned16)
{
    return reduce_grid(m, n, gemm_threads, c_aligned16, WIDE_ITEMS);
}

/* A reduction's dependent L2 round trips. Each thread of the plain one sums
 * SIMT_REDUCE_ILP items per pass of the grid, loading SIMT_REDUCE_SLICES slices before it
 * adds them: the passes times the slice groups (slice 0, then the rest in groups). The
 * wide one's thread loads up to SIMT_REDUCE_WIDE_LOADS of its group's slices at once. */
static long reduce_rounds(long m, long n, int split, long gemm_threads, int vec, int wide)
{
    const long count = m * n;
    const long items = count % 4 == 0 && vec ? count / 4 : count;
    if (wide)
        return ceil_div(items, simt_reduce_wide_blocks(m, n, gemm_threads, vec) * WIDE_ITEMS) *
               ceil_div(split, (long)SIMT_REDUCE_WIDE_GROUPS * SIMT_REDUCE_WIDE_LOADS);
    const long threads = simt_reduce_blocks(m, n, gemm_threads, vec) * SIMT_REDUCE_THREADS;
    return ceil_div(items, threads * SIMT_REDUCE_ILP) * (1 + ceil_div(split - 1, SIMT_REDUCE_SLICES));
}

int simt_reduce_wide(long m, long n, int split, long gemm_threads)
{
    return reduce_rounds(m, n, split, gemm_threads, 1, 1) < reduce_rounds(m, n, split, gemm_threads, 1, 0);
}

/* The rounds, the launch, and the bytes: every partial read and C written. */
static double reduce_cycles(const struct simt_machine *mc, long m, long n, int split, long gemm_threads, int vec,
                            int wide)
{
    const int sms = mc->sms > 0 ? mc->sms : 1;
    return SIMT_REDUCE_LAUNCH_CLK + reduce_rounds(m, n, split, gemm_threads, vec, wide) * SIMT_REDUCE_ROUND_CLK +
           (double)(split + 1) * m * n * 4 / (SIMT_REDUCE_BYTES_PER_CLK * sms);
}

double simt_reduce_cycles(const struct simt_machine *mc, long m, long n, int split, long gemm_threads)
{
    return reduce_cycles(mc, m, n, split, gemm_threads, 1, simt_reduce_wide(m, n, split, gemm_threads));
}

long simt_reduce_launch_blocks(long m, long n, int split, long gemm_threads, int c_aligned16, int *wide)
{
    *wide = simt_reduce_wide(m, n, split, gemm_threads);
    return *wide ? simt_reduce_wide_blocks(m, n, gemm_threads, c_aligned16)
                 : simt_reduce_blocks(m, n, gemm_threads, c_aligned16);
}

int simt_pad_width(long n)
{
    return n % 4 == 0 ? 0 : (int)ceil_div(n, 4) * 4;
}

double simt_pad_cycles(const struct simt_machine *mc, long n, long k, int pad_n)
{
    const int sms = mc->sms > 0 ? mc->sms : 1;
    return SIMT_PAD_LAUNCH_CLK + (double)k * (n + pad_n) * 4 / (SIMT_PAD_BYTES_PER_CLK * sms);
}

long simt_strip_blocks(long n, int split)
{
    return ceil_div(n, SIMT_STRIP_COLS) * split;
}

/* A strip block's warps each walk k_slice / warps rows of B, SIMT_STRIP_UNROLL loads in
 * flight: one dependent L2 round per group, plus the block's sum; two blocks fit an SM. */
double simt_strip_cycles(const struct simt_machine *mc, long n, int split, int k_slice)
{
    const int sms = mc->sms > 0 ? mc->sms : 1;
    const long rounds = ceil_div(k_slice, (long)(SIMT_STRIP_THREADS / 32) * SIMT_STRIP_UNROLL);
    const double latency = (double)ceil_div(simt_strip_blocks(n, split), 2L * sms) * (rounds + 1) * SIMT_REDUCE_ROUND_CLK;
    const double b_bytes = 4.0 * n * k_slice * split;
    const double bytes = b_bytes > SIMT_STRIP_L2_BYTES ? b_bytes / (SIMT_STRIP_BYTES_PER_CLK * sms) : 0;
    return SIMT_STRIP_LAUNCH_CLK + fmax(latency, bytes);
}

/* A tail plan's two GEMM kernels: the head's `whole` blocks of all of K, then the split's
 * `sliced` blocks, which start on the SMs the head's blocks leave (a dependent launch that
 * does not wait). The busiest SM holds the head's ceil(waves) of blocks, or its share of
 * all the work rounded up to whole slices, whichever is longer. */
static double tail_cycles(const struct simt_machine *mc, int config, long gn, long k, long whole, long sliced,
                          int k_whole, int k_slice, int path)
{
    const long slots = slots_of(mc, config, path);
    const double head_waves = (double)whole / slots, slice_waves = (double)sliced / slots;
    const double head = gemm_cycles(mc, config, gn, k, whole, k_whole, path);
    const double per_head_wave = head / ceil(head_waves);
    /* a later wave's: the slices do not start together on cold caches */
    const double wave_of_slices = gemm_cycles(mc, config, gn, k, 2 * slots, k_slice, path) -
                                  gemm_cycles(mc, config, gn, k, slots, k_slice, path);
    const double work = ceil((head_waves * per_head_wave + slice_waves * wave_of_slices) / wave_of_slices);
    const double shared = work * wave_of_slices;
    return head > shared ? head : shared;
}

/* A tail plan's unsplit rows: the whole tile rows within the full waves of the unsplit
 * grid (gemm_m rows of tiles, gn wide); 0 when there is no full wave or nothing after it. */
static long head_rows(const struct simt_machine *mc, int config, long gemm_m, long gn, int path)
{
    const struct simt_config *c = &simt_configs[config];
    const long across = ceil_div(gn, c->bn), rows = ceil_div(gemm_m, c->bm);
    const long slots = slots_of(mc, config, path);
    const long head = (rows * across) / slots * slots / across;
    return head < rows ? head * c->bm : 0;
}

/* pad: 0, or B's padded width (the GEMM's grid then covers pad columns, its stores n);
 * peel: the strip kernel takes the last m % BM rows; tail: the head's rows run unsplit */
static int plan_make(const struct simt_machine *mc, long m, long n, long k, int config, int split, int pad,
                     int peel, int tail, struct simt_plan *p)
{
    if (config < 0 || config >= simt_config_count || split < 0 || m < 1 || n < 1 || k < 1)
        return -1;
    const struct simt_config *c = &simt_configs[config];
    if (c->form != SIMT_FORM_TILE)
        return -1;
    const long gn = pad ? pad : n;
    const int peel_m = peel ? (int)(m % c->bm) : 0;
    const int fill = split == SIMT_SPLIT_FILL;
    const int path = simt_plan_path(config, n, k, pad);
    if (fill) {
        /* as many slices as one wave of the grid's slots holds (never past the full waves:
         * this split has no tail); a slice the list already has is that split's plan */
        if (tail || (peel && peel_m >= m))
            return -1;
        split = (int)(slots_of(mc, config, path) / (ceil_div(m - peel_m, c->bm) * ceil_div(gn, c->bn)));
        if (split < 2)
            return -1;
        for (int s = 0; s < NSPLITS; s++)
            if (slice_of(k, simt_splits[s], c->bk) == slice_of(k, split, c->bk))
                return -1;
    }
    const long slice = slice_of(k, split, c->bk), whole = ceil_div(k, c->bk) * c->bk;
    if (split > 1 && slice < SIMT_MIN_K_SLICE)
        return -1;
    /* B is padded so that the 16-byte copies run; a k-major A needs k % 4 == 0 for them too
     * (the launcher refuses a padded plan on the 4-byte path) */
    if (pad && c->a_kmajor && k % 4 != 0)
        return -1;
    if (split > 1 && !fill) {
        /* the slices that hold K (the rounding to BK may leave the last of `split` empty);
         * the previous split of the list with the same slice is the same plan */
        int prev = 1;
        for (int s = 0; s < NSPLITS && simt_splits[s] < split; s++)
            prev = simt_splits[s];
        if (prev != split && slice_of(k, prev, c->bk) == slice)
            return -1;
    }
    if (split > 1)
        split = (int)ceil_div(k, slice);
    if (peel && (peel_m < 1 || peel_m > SIMT_PEEL_MAX || m < c->bm || split < 2))
        return -1;
    const long head_m = tail && !pad && split > 1 ? head_rows(mc, config, m - peel_m, gn, path) : 0;
    if (tail && head_m == 0)
        return -1;
    p->config = config;
    p->split = split;
    p->pad_n = pad;
    p->peel_m = peel_m;
    p->head_m = (int)head_m;
    p->streamk = 0;
    p->fill = fill;
    p->path = path;
    p->k_slice = (int)(split == 1 ? whole : slice);
    /* the split part: the rows after the head */
    const long rest = m - head_m;
    p->blocks = ceil_div(rest - peel_m, c->bm) * ceil_div(gn, c->bn) * split;
    const long gemm_threads = p->blocks * simt_config_threads(c);
    if (simt_plan_workspace_bytes(p, m, n, k) > (size_t)SIMT_MAX_WORKSPACE_BYTES)
        return -1;
    /* the last slice may be shorter; the busiest SM still waits for a full one */
    p->est_cycles = head_m ? tail_cycles(mc, config, gn, k, simt_plan_head_blocks(p, n), p->blocks, (int)whole,
                                         p->k_slice, path)
                           : gemm_cycles(mc, config, gn, k, p->blocks, p->k_slice, path);
    if (fill)
        p->est_cycles *= SIMT_FILL_OPTIMISM;
    if (split > 1) /* float4 items unless the strip's rows start mid-item (the launcher's test) */
        p->est_cycles += reduce_cycles(mc, rest, n, split, gemm_threads, !(peel && n % 4 != 0),
                                       simt_reduce_wide(rest, n, split, gemm_threads));
    if (pad)
        p->est_cycles += simt_pad_cycles(mc, n, k, pad);
    if (peel)
        p->est_cycles += simt_strip_cycles(mc, n, split, p->k_slice);
    return 0;
}

/* A streaming form's slice: split's ceil(k / split) rounded up to the form's k-step, never
 * past the longest whose staged slice (B's NMAX columns, or A's MMAX rows) fits its kernel's
 * shared memory */
static long form_slice(const struct simt_config *c, long k, int split)
{
    const long cap = c->form == SIMT_FORM_FEW_COLUMNS
                         ? (SIMT_SKINNY_SMEM_MAX / (4L * c->bn) - SIMT_SKINNY_PAD) / c->bk * c->bk
                         : (SIMT_SHORT_SMEM_MAX / (4L * c->bm) - SIMT_SHORT_PAD) / c->bk * c->bk;
    const long slice = slice_of(k, split, c->bk);
    return slice < cap ? slice : cap;
}

/* The few-columns kernel's busiest SM, wave by wave (kernels/simt_plan.h) */
static double skinny_cycles(const struct simt_machine *mc, int config, long blocks, long k_slice)
{
    const struct simt_config *c = &simt_configs[config];
    const int sms = mc->sms > 0 ? mc->sms : 1, per_sm = per_sm_of(mc, config, SIMT_PATH_VEC);
    const double a_bytes = 4.0 * c->bm * k_slice, fmas = (double)c->bm * c->bn * k_slice;
    const double fill = SIMT_SKINNY_FILL_CLK + 4.0 * c->bn * k_slice / SIMT_SKINNY_B_BYTES_PER_CLK;
    double cycles = 0;
    for (long left = ceil_div(blocks, sms); left > 0; left -= per_sm) {
        const long w = left < per_sm ? left : per_sm;
        const double lds = w * a_bytes * c->bn / c->wm / SIMT_SKINNY_LDS_BYTES_PER_CLK;
        cycles += fmax(fmax(w * a_bytes / SIMT_SKINNY_A_BYTES_PER_CLK, w * fmas / (128.0 * c->eff)), lds) + fill;
    }
    return cycles;
}

/* The few-rows kernel's, the same way (kernels/simt_plan.h) */
static double short_cycles(const struct simt_machine *mc, int config, long m, long blocks, long k_slice)
{
    const struct simt_config *c = &simt_configs[config];
    const int sms = mc->sms > 0 ? mc->sms : 1, per_sm = per_sm_of(mc, config, SIMT_PATH_VEC);
    const double b_bytes = 4.0 * c->bn * k_slice, fmas = (double)c->bm * c->bn * k_slice;
    const double fill = SIMT_SHORT_FILL_CLK + 4.0 * m * k_slice / SIMT_SHORT_A_BYTES_PER_CLK +
                        SIMT_SHORT_ROUND_CLK * ceil_div(m, 4);
    double cycles = 0;
    for (long left = ceil_div(blocks, sms); left > 0; left -= per_sm) {
        const long w = left < per_sm ? left : per_sm;
        cycles += fmax(w * b_bytes / SIMT_SHORT_B_BYTES_PER_CLK, w * fmas / (128.0 * c->eff)) + fill;
    }
    return cycles;
}

int simt_plan_make_skinny(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                          struct simt_plan *p)
{
    if (config < 0 || config >= simt_config_count || m < 1 || n < 1 || k < 1 || split < 0)
        return -1;
    const struct simt_config *c = &simt_configs[config];
    const int rows = c->form == SIMT_FORM_FEW_ROWS;
    if (c->form == SIMT_FORM_TILE || (rows ? m > c->bm : n > c->bn))
        return -1;
    /* the grid's units of the dimension that is not short: row blocks, or column blocks */
    const long units = rows ? ceil_div(n, c->bn) : ceil_div(m, c->bm);
    const int fill = split == SIMT_SPLIT_FILL;
    if (fill) {
        /* as many slices as one wave of the slots holds; a slice the list has is its plan */
        split = (int)(slots_of(mc, config, SIMT_PATH_VEC) / units);
        if (split < 2)
            return -1;
        for (int s = 0; s < NSPLITS; s++)
            if (form_slice(c, k, simt_splits[s]) == form_slice(c, k, split))
                return -1;
    }
    const long slice = form_slice(c, k, split);
    if (!fill) {
        int prev = 0; /* the list's split before this one: the same slice is its plan */
        for (int s = 0; s < NSPLITS && simt_splits[s] < split; s++)
            prev = simt_splits[s];
        if (prev && form_slice(c, k, prev) == slice)
            return -1;
    }
    memset(p, 0, sizeof *p);
    p->config = config;
    p->k_slice = (int)slice;
    p->split = (int)ceil_div(k, slice);
    p->fill = fill;
    p->path = SIMT_PATH_VEC;
    p->blocks = units * p->split;
    if (p->split > 1 && slice < SIMT_MIN_K_SLICE)
        return -1;
    if (simt_plan_workspace_bytes(p, m, n, k) > (size_t)SIMT_MAX_WORKSPACE_BYTES)
        return -1;
    p->est_cycles = rows ? short_cycles(mc, config, m, p->blocks, slice) : skinny_cycles(mc, config, p->blocks, slice);
    if (p->split > 1) {
        const long gemm_threads = p->blocks * simt_config_threads(c);
        p->est_cycles += reduce_cycles(mc, m, n, p->split, gemm_threads, 1, simt_reduce_wide(m, n, p->split, gemm_threads));
    }
    return 0;
}

int simt_config_in_rule(int config)
{
    static const char *const tuner_only[] = SIMT_TUNER_ONLY;
    if (config < 0 || config >= simt_config_count)
        return 0;
    for (size_t i = 0; i < sizeof tuner_only / sizeof tuner_only[0]; i++)
        if (strcmp(simt_configs[config].name, tuner_only[i]) == 0)
            return 0;
    return 1;
}

/* The fixup of a stream-K plan whose runs cut tiles: each cut tile's block adds the slots
 * of the blocks that touched it (about iters-per-tile / iters + 1 of them, one dependent L2
 * round each), then stores C. */
static double streamk_fixup_cycles(const struct simt_machine *mc, const struct simt_config *c, long tiles, long kt,
                                   long iters, long blocks)
{
    if (iters % kt == 0)
        return 0;
    const int sms = mc->sms > 0 ? mc->sms : 1;
    const long cut = tiles < blocks ? tiles : blocks;        /* tiles with a partial: at most one per cut */
    const long parts = cut + blocks;                         /* partials: a tile's pieces, one per touch */
    const double rounds = ceil_div(kt, iters) + 1;
    return SIMT_REDUCE_LAUNCH_CLK + rounds * SIMT_REDUCE_ROUND_CLK * ceil_div(cut, 2L * sms) +
           (double)(parts + cut) * c->bm * c->bn * 4 / (SIMT_REDUCE_BYTES_PER_CLK * sms);
}

int simt_plan_make_streamk(const struct simt_machine *mc, long m, long n, long k, int config, int pad,
                           struct simt_plan *p)
{
    if (!simt_config_has_streamk(config) || m < 1 || n < 1 || k < 1)
        return -1;
    const struct simt_config *c = &simt_configs[config];
    const int width = simt_pad_width(n);
    if (pad && !width)
        return -1;
    const long gn = pad ? width : n;
    const long kt = ceil_div(k, c->bk), tiles = ceil_div(m, c->bm) * ceil_div(gn, c->bn);
    if (tiles * kt > SIMT_SK_MAX_SLICES)
        return -1;
    const int path = simt_plan_path(config, n, k, pad);
    const int per_sm = kernel_per_sm(mc, config, 1, path);
    const long iters = ceil_div(tiles * kt, (long)(mc->sms > 0 ? mc->sms : 1) * per_sm);
    memset(p, 0, sizeof *p);
    p->config = config;
    p->split = 1;
    p->k_slice = (int)(kt * c->bk);
    p->pad_n = pad ? width : 0;
    p->streamk = (int)iters;
    p->path = path;
    p->blocks = ceil_div(tiles * kt, iters);
    if (simt_plan_workspace_bytes(p, m, n, k) > (size_t)SIMT_MAX_WORKSPACE_BYTES)
        return -1;
    /* the busiest SM: per_sm runs side by side (fewer when the grid is smaller) */
    const long busiest = ceil_div(p->blocks, mc->sms > 0 ? mc->sms : 1);
    const long on_sm = busiest < per_sm ? busiest : per_sm;
    const double warps = (double)on_sm * simt_config_threads(c) / 32;
    const double segments = ceil_div(iters, kt) + 1;
    const double steps = (double)iters * c->bk + SIMT_SK_FILL_K +
                         (SIMT_FILL_K_STAGE + SIMT_FIRST_WAVE_STAGE) * (c->stages - 1) * c->bk +
                         SIMT_SK_SEGMENT_K * segments;
    /* where one block has the SM, no other block covers the run's tile changes */
    const double step_cost = on_sm == 1 ? 1 + SIMT_SK_SOLO_EXTRA : 1;
    p->est_cycles = (double)on_sm * c->bm * c->bn * steps * step_cost /
                    (128.0 * shape_eff(c, gn, k) * fed(c, warps) * fed_transposed(c, warps));
    p->est_cycles += streamk_fixup_cycles(mc, c, tiles, kt, iters, p->blocks);
    if (pad)
        p->est_cycles += simt_pad_cycles(mc, n, k, width);
    return 0;
}

int simt_plan_make_any(const struct simt_machine *mc, long m, long n, long k, int config, int split, int pad,
                       int peel, int tail, struct simt_plan *p)
{
    const int width = simt_pad_width(n);
    if (pad && !width)
        return -1;
    return plan_make(mc, m, n, k, config, split, pad ? width : 0, peel, tail, p);
}

int simt_plan_make(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                   struct simt_plan *p)
{
    return simt_plan_make_any(mc, m, n, k, config, split, 0, 0, 0, p);
}

int simt_plan_make_padded(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                          struct simt_plan *p)
{
    return simt_plan_make_any(mc, m, n, k, config, split, 1, 0, 0, p);
}

/* kinds of plan, in the order candidates are listed: plain, padded, peeled, both; then
 * each split only past the full waves (bit 2; never padded) */
#define KINDS 8
#define KIND_ARGS(kind) (kind) & 1, ((kind) >> 1) & 1, (kind) >> 2

int simt_plan_candidates(const struct simt_machine *mc, long m, long n, long k, struct simt_plan *out,
                         int max)
{
    int count = 0;
    for (int kind = 0; kind < KINDS; kind++)
        for (int c = 0; c < simt_config_count; c++)
            for (int s = 0; s < NCANDIDATE_SPLITS && count < max; s++)
                if (simt_plan_make_any(mc, m, n, k, c, CANDIDATE_SPLIT(s), KIND_ARGS(kind), &out[count]) == 0)
                    count++;
    /* then the few-columns and few-rows kernels', then the stream-K plans, unpadded and padded */
    for (int c = 0; c < simt_config_count; c++)
        for (int s = 0; s < NCANDIDATE_SPLITS && count < max; s++)
            if (simt_plan_make_skinny(mc, m, n, k, c, CANDIDATE_SPLIT(s), &out[count]) == 0)
                count++;
    for (int pad = 0; pad < 2; pad++)
        for (int c = 0; c < simt_config_count && count < max; c++)
            if (simt_plan_make_streamk(mc, m, n, k, c, pad, &out[count]) == 0)
                count++;
    return count;
}

struct simt_plan simt_plan_pick(const struct simt_machine *mc, long m, long n, long k)
{
    struct simt_plan best = {0, 1, 0, 0, INFINITY, 0, 0, 0, 0, 0, 0}, p;
    for (int kind = 0; kind < KINDS; kind++)
        for (int c = 0; c < simt_config_count; c++)
            for (int s = 0; s < NCANDIDATE_SPLITS && simt_config_in_rule(c); s++)
                /* strictly smaller: ties keep the larger tile, then the smaller split, then
                 * no copy, then no strip, then the whole split */
                if (simt_plan_make_any(mc, m, n, k, c, CANDIDATE_SPLIT(s), KIND_ARGS(kind), &p) == 0 &&
                    p.est_cycles < best.est_cycles)
                    best = p;
    for (int c = 0; c < simt_config_count; c++)
        for (int s = 0; s < NCANDIDATE_SPLITS && simt_config_in_rule(c); s++)
            if (simt_plan_make_skinny(mc, m, n, k, c, CANDIDATE_SPLIT(s), &p) == 0 && p.est_cycles < best.est_cycles)
                best = p;
    for (int pad = 0; pad < 2; pad++)
        for (int c = 0; c < simt_config_count; c++)
            if (simt_config_in_rule(c) && simt_plan_make_streamk(mc, m, n, k, c, pad, &p) == 0 &&
                p.est_cycles < best.est_cycles)
                best = p;
    if (isinf(best.est_cycles))   /* bad sizes: still a plan the launcher can refuse */
        simt_plan_make(mc, m > 0 ? m : 1, n > 0 ? n : 1, k > 0 ? k : 1, 0, 1, &best);
    return best;
}

long simt_plan_head_blocks(const struct simt_plan *p, long n)
{
    const struct simt_config *c = &simt_configs[p->config];
    return p->head_m / c->bm * ceil_div(n, c->bn);
}

size_t simt_plan_workspace_bytes(const struct simt_plan *p, long m, long n, long k)
{
    const size_t padded_b = (size_t)k * (size_t)p->pad_n;
    const struct simt_config *c = &simt_configs[p->config];
    const size_t partials = p->streamk ? (size_t)p->blocks * 2 * c->bm * c->bn
                            : p->split > 1 ? (size_t)p->split * (size_t)(m - p->head_m) * (size_t)n
                                           : 0;
    return (padded_b + partials) * sizeof(float);
}

/* sliced: the tiles a tail plan splits (0: none, or all); streamk: a stream-K plan's blocks */
static void describe(const struct simt_config *c, int pad, int peel, int split, long sliced, long streamk, char *buf,
                     size_t len)
{
    int tm, tn;
    char strip[16] = "", tail[24] = "", kind[24];
    simt_config_thread_tile(c, &tm, &tn);
    if (c->form == SIMT_FORM_FEW_COLUMNS) { /* "64x8x128 skinny r8 split12": rows x columns x k-step */
        snprintf(buf, len, "%dx%dx%d skinny r%d split%d", c->bm, c->bn, c->bk, c->wm, split);
        return;
    }
    if (c->form == SIMT_FORM_FEW_ROWS) { /* "16x128x32 short c4 split8": c4, the columns a lane owns */
        snprintf(buf, len, "%dx%dx%d short c%d split%d", c->bm, c->bn, c->bk, c->bn / 32, split);
        return;
    }
    if (peel)
        snprintf(strip, sizeof strip, " peel%d", peel);
    if (sliced)
        snprintf(tail, sizeof tail, " tail%ld", sliced);
    if (streamk)
        snprintf(kind, sizeof kind, "streamk%ld", streamk);
    else
        snprintf(kind, sizeof kind, "split%d", split);
    snprintf(buf, len, "%dx%dx%d w%dx%d t%dx%d s%d%s%s%s %s%s", c->bm, c->bn, c->bk, c->wm, c->wn, tm, tn, c->stages,
             c->a_kmajor ? "" : " aT", pad ? " padB" : "", strip, kind, tail);
}

void simt_config_describe(const struct simt_config *c, int split, char *buf, size_t len)
{
    describe(c, 0, 0, split, 0, 0, buf, len);
}

void simt_plan_describe(const struct simt_plan *p, char *buf, size_t len)
{
    describe(&simt_configs[p->config], p->pad_n, p->peel_m, p->split, p->head_m ? p->blocks / p->split : 0,
             p->streamk ? p->blocks : 0, buf, len);
}

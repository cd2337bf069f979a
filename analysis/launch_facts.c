/* Launch facts: the per-SM block limits as the CUDA occupancy calculator computes them
 * (the rules of the toolkit's cuda_occupancy.h, rewritten here for one launch; shared
 * memory against the configuration the driver ran the launch with), and ncu's waves
 * and occupancy from them. */
#include "analysis/launch_facts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/results.h"

/* Allocation granularities of sm_80 and later: registers per warp, shared-memory bytes
 * per block (cuda_occupancy.h); warps are allocated whole, per block. */
#define REG_GRANULE 256
#define SMEM_GRANULE 128
#define SUB_PARTITIONS 4

static long round_up(long v, long to)
{
    return (v + to - 1) / to * to;
}

/* The carveouts (KiB) the architecture offers, ascending; 0 entries when unknown, in
 * which case only the largest (smem_per_sm) is assumed. */
static int carveouts_kib(const struct launch_device *dev, const int **sizes)
{
    static const int sm80[] = {0, 8, 16, 32, 64, 100, 132, 164};
    static const int sm86[] = {0, 8, 16, 32, 64, 100};
    static const int sm90[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    if (dev->cc_major == 9 && dev->cc_minor == 0)
        return *sizes = sm90, (int)(sizeof sm90 / sizeof sm90[0]);
    if (dev->cc_major == 8 && (dev->cc_minor == 0 || dev->cc_minor == 7))
        return *sizes = sm80, (int)(sizeof sm80 / sizeof sm80[0]);
    if (dev->cc_major == 8)
        return *sizes = sm86, (int)(sizeof sm86 / sizeof sm86[0]);
    *sizes = NULL;
    return 0;
}

/* The smallest carveout of at least `need` bytes, or the largest. */
static long carveout_at_least(const struct launch_device *dev, long need)
{
    const int *kib;
    int n = carveouts_kib(dev, &kib);
    for (int i = 0; i < n; i++) {
        long bytes = kib[i] * 1024L;
        if (bytes > dev->smem_per_sm)
            break;
        if (bytes >= need)
            return bytes;
    }
    return dev->smem_per_sm;
}

long launch_smem_config(const struct launch_device *dev, long per_block, int other_limit,
                        int carveout_pct)
{
    if (carveout_pct >= 0 && carveout_pct <= 100) {
        long pref = carveout_at_least(dev, (long)carveout_pct * dev->smem_per_sm / 100);
        return pref >= per_block ? pref : carveout_at_least(dev, per_block);
    }
    /* No preference: a carveout so that shared memory does not cost occupancy (right
     * for tiled on the H200, 8 KiB blocks limited to 2 by warps: 32 KiB; short of the
     * driver's choice for blocktile_1d and blocktile_2d, hence only a fallback) */
    return carveout_at_least(dev, per_block * (long)other_limit);
}

static void say(char *note, size_t len, const char *msg)
{
    if (note && len)
        snprintf(note, len, "%s", msg);
}

int launch_facts_fill(const struct launch_device *dev, const struct launch_kernel *k,
                      int api_blocks_per_sm, struct gp_result *row, char *note, size_t note_len)
{
    say(note, note_len, "");
    const double threads = (double)k->block[0] * k->block[1] * k->block[2];
    if (!dev || dev->sm_count <= 0 || dev->warp_size <= 0 || dev->max_warps_per_sm <= 0 ||
        dev->max_blocks_per_sm <= 0 || dev->regs_per_sm <= 0 || threads <= 0 || k->regs < 0 ||
        k->smem_static < 0 || k->smem_dynamic < 0) {
        say(note, note_len, "launch facts: the device limits or the launch are incomplete");
        return -1;
    }
    const long warps = (long)ceil(threads / dev->warp_size);

    /* registers: allocated per warp in 256-register units, each of the 4 sub-partitions
     * holding a quarter of the register file */
    long limit_regs;
    const long regs_per_warp = round_up((long)k->regs * dev->warp_size, REG_GRANULE);
    if (regs_per_warp == 0)
        limit_regs = dev->max_blocks_per_sm;
    else if (regs_per_warp * round_up(warps, SUB_PARTITIONS) > dev->regs_per_block)
        limit_regs = 0;   /* the launch itself would fail */
    else
        limit_regs = (dev->regs_per_sm / SUB_PARTITIONS / regs_per_warp) * SUB_PARTITIONS / warps;
    const long limit_warps = dev->max_warps_per_sm / warps;
    const long limit_blocks = dev->max_blocks_per_sm;

    /* shared memory: the kernel's static and dynamic bytes plus the driver's reserve,
     * in 128-byte units, against the configuration the launch ran with. That size is
     * the driver's choice and no formula reproduces it, so the model only stands in
     * when the driver's is unknown, or cannot be it (it holds no block, yet the kernel ran). */
    const long per_block = round_up(k->smem_static + k->smem_dynamic + dev->reserved_smem_per_block, SMEM_GRANULE);
    long other = limit_regs < limit_warps ? limit_regs : limit_warps;
    if (limit_blocks < other)
        other = limit_blocks;
    const int driver_config = k->smem_config > 0 && k->smem_config >= per_block;
    int rc = 0;
    if (k->smem_config > 0 && !driver_config) {
        if (note && note_len)
            snprintf(note, note_len, "%.128s: the driver's shared-memory configuration %ld B holds no block of %ld B; "
                     "block_limit_smem from gemmprof's carveout model", k->name, k->smem_config, per_block);
        rc = 1;
    }
    long limit_smem;
    if (per_block == 0)
        limit_smem = limit_blocks;
    else if (dev->smem_per_block_optin > 0 &&
             per_block > dev->smem_per_block_optin + dev->reserved_smem_per_block)
        limit_smem = 0;
    else if (driver_config)
        limit_smem = k->smem_config / per_block;
    else
        limit_smem = launch_smem_config(dev, per_block, (int)other, k->carveout_pct) / per_block;

    /* the limiter: the smallest limit; on a tie the first of registers, warps, blocks,
     * shared memory (the driver sizes the carveout to the others, so shared memory
     * ties them without being what a change must address) */
    struct { const char *name; long limit; } lim[] = {
        {"registers", limit_regs}, {"warps", limit_warps}, {"blocks", limit_blocks},
        {"shared_memory", limit_smem},
    };
    int which = 0;
    for (int i = 1; i < 4; i++)
        if (lim[i].limit < lim[which].limit)
            which = i;
    long per_sm = lim[which].limit;
    if (api_blocks_per_sm >= 0 && api_blocks_per_sm != per_sm) {
        if (note && note_len) {
            size_t used = strlen(note);   /* after the configuration's note, if any */
            snprintf(note + used, note_len - used,
                     "%s%.128s: the occupancy API allows %d blocks per SM, the limits %ld; keeping the API's",
                     used ? "; " : "", k->name, api_blocks_per_sm, per_sm);
        }
        per_sm = api_blocks_per_sm;
        which = -1;
        for (int i = 0; i < 4 && which < 0; i++)
            if (lim[i].limit == per_sm)
                which = i;
        rc = 1;
    }

    snprintf(row->launch_kernel, sizeof row->launch_kernel, "%s", k->name);
    row->grid_x = k->grid[0];
    row->grid_y = k->grid[1];
    row->grid_z = k->grid[2];
    row->block_x = k->block[0];
    row->block_y = k->block[1];
    row->block_z = k->block[2];
    row->registers_per_thread = k->regs;
    row->smem_static_bytes = (double)k->smem_static;
    row->smem_dynamic_bytes = (double)k->smem_dynamic;
    row->local_bytes_per_thread = k->local_bytes >= 0 ? (double)k->local_bytes : NAN;
    row->blocks = (double)k->grid[0] * k->grid[1] * k->grid[2];
    row->block_limit_registers = (double)limit_regs;
    row->block_limit_smem = (double)limit_smem;
    row->smem_config_bytes = driver_config ? (double)k->smem_config : NAN;
    row->block_limit_warps = (double)limit_warps;
    row->block_limit_blocks = (double)limit_blocks;
    row->blocks_per_sm = (double)per_sm;
    snprintf(row->occupancy_limiter, sizeof row->occupancy_limiter, "%s", which >= 0 ? lim[which].name : "");
    double occ = 100.0 * (double)per_sm * (double)warps / dev->max_warps_per_sm;
    row->occupancy_theoretical_pct = occ > 100 ? 100 : occ;
    /* ncu's launch__waves_per_multiprocessor; no wave fits when no block does */
    row->waves = per_sm > 0 ? row->blocks / ((double)dev->sm_count * (double)per_sm) : NAN;
    row->tail_efficiency = row->waves > 0 ? row->waves / ceil(row->waves) : NAN;
    return rc;
}

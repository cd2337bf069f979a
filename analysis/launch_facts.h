/* Launch facts of one kernel launch (ncu's Launch Statistics and Occupancy): the four
 * per-SM block limits, theoretical occupancy, waves and tail efficiency. Pure
 * arithmetic on numbers the driver reports (cupti/launch.c gathers them), so it is
 * tested on the host without a GPU (tests/test_launch.c). */
#ifndef GEMMPROF_ANALYSIS_LAUNCH_FACTS_H
#define GEMMPROF_ANALYSIS_LAUNCH_FACTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gp_result;

/* Per-SM limits of the device, as cuDeviceGetAttribute reports them. */
struct launch_device {
    int cc_major, cc_minor;
    int sm_count;
    int warp_size;
    int regs_per_sm, regs_per_block;
    int max_warps_per_sm;          /* max threads per SM / warp size */
    int max_blocks_per_sm;
    long smem_per_sm;              /* the largest shared-memory carveout, bytes */
    long smem_per_block_optin;
    long reserved_smem_per_block;  /* 1 KiB on sm_80+: the driver's own use */
};

/* One launch: what the launch API was given and what the function attributes say. */
struct launch_kernel {
    char name[128];
    unsigned grid[3], block[3];
    int regs;                      /* per thread */
    long smem_static, smem_dynamic;
    long local_bytes;              /* local memory per thread (stack frame); -1 unknown */
    int carveout_pct;              /* the function's preferred carveout, -1: none set */
    long smem_config;              /* the shared-memory configuration the driver ran the
                                    * launch with (CUPTI's sharedMemoryExecuted), bytes;
                                    * 0 when unknown: launch_smem_config stands in */
};

/* The facts of `k` on `dev` into row's launch fields (launch_kernel, grid_*, block_*,
 * registers_per_thread, smem_*, blocks, block_limit_*, blocks_per_sm,
 * occupancy_limiter, occupancy_theoretical_pct, waves, tail_efficiency).
 * block_limit_smem = floor(configuration / bytes per block) with the driver's
 * configuration, k->smem_config, which also fills smem_config_bytes; without it (0, or
 * too small to hold one block, which is noted) the carveout model's, and
 * smem_config_bytes stays unknown.
 * api_blocks_per_sm: cuOccupancyMaxActiveBlocksPerMultiprocessor's answer, or -1 when
 * unknown; when it differs from the smallest limit it wins, and the limiter is the
 * resource whose limit equals it ("" if none does).
 * Returns 0; 1 when the row is filled but `note` says something is off (the API
 * disagreed, the driver's configuration was unusable); -1 when the inputs are unusable (the row's launch fields left unknown). */
int launch_facts_fill(const struct launch_device *dev, const struct launch_kernel *k,
                      int api_blocks_per_sm, struct gp_result *row, char *note, size_t note_len);

/* The fallback when the driver's configuration is unknown (no CUPTI kernel record):
 * a model of the shared-memory configuration (carveout) in bytes for a launch needing
 * `per_block` bytes per block (reserve included, rounded to the allocation granularity)
 * when other resources allow `other_limit` blocks per SM: the smallest size the
 * architecture offers that does not lower occupancy below other_limit, or the largest.
 * With a carveout preference (pct >= 0) the preferred size, raised to fit one block.
 * The driver is known to pick larger sizes than this on the H200 (ncu: 32 KiB where
 * this gives 16 KiB), so it is only the fallback. Exposed for the tests. */
long launch_smem_config(const struct launch_device *dev, long per_block, int other_limit,
                        int carveout_pct);

#ifdef __cplusplus
}
#endif
#endif

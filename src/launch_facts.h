/* Launch facts of one kernel launch (ncu's Launch Statistics and Occupancy): the four
 * per-SM block limits, theoretical occupancy, waves and tail efficiency. Pure
 * arithmetic on numbers the driver reports (cupti/launch.cpp gathers them), so it is
 * tested on the host without a GPU (tests/test_launch.c). */
#ifndef GEMMPROF_SRC_LAUNCH_FACTS_H
#define GEMMPROF_SRC_LAUNCH_FACTS_H

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
    int carveout_pct;              /* the function's preferred carveout, -1: none set */
};

/* The facts of `k` on `dev` into row's launch fields (launch_kernel, grid_*, block_*,
 * registers_per_thread, smem_*, blocks, block_limit_*, blocks_per_sm,
 * occupancy_limiter, occupancy_theoretical_pct, waves, tail_efficiency).
 * api_blocks_per_sm: cuOccupancyMaxActiveBlocksPerMultiprocessor's answer, or -1 when
 * unknown; when it differs from the smallest limit it wins, and the limiter is the
 * resource whose limit equals it ("" if none does).
 * Returns 0; 1 when the row is filled but `note` says something is off (the API
 * disagreed); -1 when the inputs are unusable (the row's launch fields left unknown). */
int launch_facts_fill(const struct launch_device *dev, const struct launch_kernel *k,
                      int api_blocks_per_sm, struct gp_result *row, char *note, size_t note_len);

/* The shared-memory configuration (carveout) in bytes the driver picks for a launch
 * needing `per_block` bytes per block (reserve included, rounded to the allocation
 * granularity) when other resources allow `other_limit` blocks per SM: the smallest
 * size the architecture offers that does not lower occupancy below other_limit, or
 * the largest. With a carveout preference (pct >= 0) the preferred size, raised to
 * fit one block. Exposed for the tests. */
long launch_smem_config(const struct launch_device *dev, long per_block, int other_limit,
                        int carveout_pct);

#ifdef __cplusplus
}
#endif
#endif

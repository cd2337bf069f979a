/* One results table feeds every printer: the terminal table, results.csv, the JSON
 * sidecar, the roofline and the report all read `struct gp_result` rows. This is the row;
 * results.csv, its file, is analysis/results_csv.h. Host-only, no CUDA dependency. */
#ifndef GEMMPROF_ANALYSIS_RESULTS_H
#define GEMMPROF_ANALYSIS_RESULTS_H

#include "analysis/metrics.h"

#define GP_SCHEMA_VERSION 1

/* Row status: what happened to this variant x shape. */
enum gp_status {
    GP_STATUS_OK = 0,        /* verified and timed */
    GP_STATUS_VERIFY_FAILED, /* ran, but the output did not match the reference */
    GP_STATUS_CUDA_ERROR,    /* a CUDA or cuBLAS error; `error` says which */
    GP_STATUS_SKIPPED,       /* not run (e.g. too large for the device) */
};

struct gp_result {
    char variant[32];
    char precision[8];       /* "fp32", "tf32", "bf16" or "fp16" (analysis/precision.h) */
    long m, n, k;
    enum gp_status status;
    char error[192];         /* empty when status is OK */

    /* verification */
    char verify_method[24];  /* "cpu_fp64_full" or "cpu_fp64_sampled" */
    double rel_err;          /* ||C - ref||_F / ||ref||_F over the checked elements */
    double max_abs_err;
    double tolerance;        /* the relative-error bound the row was held to */
    double rel_err_vs_cublas;/* whole-matrix difference from cuBLAS at the same shape (sampled mode); NaN otherwise */

    /* timing (CUDA events, L2 flushed between repetitions unless disabled) */
    int reps, warmups, l2_flush;
    double time_median_s, time_min_s, time_max_s;
    double time_spread;      /* (max - min) / median */
    double flop_per_s;       /* 2 m n k / median */
    double sm_clock_hz;      /* measured during the timed phase; NaN if unknown */

    /* hardware counters; NaN where not collected. [GP_METRIC_COUNT + j] holds extra
     * metric j (analysis/metrics.h). */
    double metric[GP_METRIC_SLOTS];
    int counter_passes;      /* replay passes used; 0 when no counters */
    char kernels[512];       /* kernel names the counters summed, ';'-separated */
    char config[64];         /* tiles, stages and split the variant ran ("" if it does not say) */

    /* Launch facts of the call's main kernel (the one that ran longest), as
     * ncu's Launch Statistics and Occupancy sections show them; NaN / "" when unknown.
     * Theoretical occupancy from the CUDA occupancy API, for cuBLAS's kernels too. */
    char launch_kernel[128];
    double grid_x, grid_y, grid_z, block_x, block_y, block_z;
    double registers_per_thread, smem_static_bytes, smem_dynamic_bytes;
    double local_bytes_per_thread;   /* the compiler's stack frame: spills, indexed arrays */
    double blocks;                 /* thread blocks launched: grid_x * grid_y * grid_z */
    double block_limit_registers, block_limit_smem, block_limit_warps, block_limit_blocks;
    double smem_config_bytes;      /* the driver's shared-memory configuration (carveout) for
                                    * the launch, from CUPTI's kernel record; NaN when unknown */
    double blocks_per_sm;          /* resident at once: the smallest of the four limits */
    char occupancy_limiter[16];    /* registers | shared_memory | warps | blocks */
    double occupancy_theoretical_pct;
    double waves;                  /* blocks / (SMs x blocks_per_sm), ncu's Waves Per SM */
    double tail_efficiency;        /* waves / ceil(waves): how full the waves are on average */

    /* Where the row ran: set by `gemmprof merge` (analysis/merge.h); "" in a single run. */
    char host[64];
    char gpu_uuid[64];
    char rank[16];                 /* the launcher's rank, as text */
};

/* A row with every number NaN and strings empty, ready to fill. */
void gp_result_init(struct gp_result *r);

/* 2 m n k, in double so 8192^3 does not overflow. */
double gp_flops_analytic(const struct gp_result *r);

const char *gp_status_name(enum gp_status s);
int gp_status_parse(const char *s, enum gp_status *out);   /* 0 or -1 */

#endif

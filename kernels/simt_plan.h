/* simt_auto's plans: which tile configuration (kernels/simt_configs.def) and which split
 * of K run a given M x N x K, and the model that picks one. Pure host code with no CUDA
 * dependency, so the rule is tested without a GPU (tests/test_simt_plan.c); the kernels
 * (kernels/10_simt_auto.cu) and the tuner (src/tune.c) call the same functions.
 *
 * The rule, in one paragraph. For every configuration c and every split s of
 * SIMT_SPLITS whose K-slice ceil(K/s), rounded up to BK, is at least SIMT_MIN_K_SLICE
 * (and whose workspace fits SIMT_MAX_WORKSPACE_BYTES), estimate the time on the busiest
 * SM: the grid has T = ceil(M/BM) * ceil(N/BN) * s blocks, the busiest SM gets
 * L = ceil(T / SMs) of them and runs them in waves of up to b at once (b = blocks of c
 * resident per SM, from the occupancy API); a wave of w blocks takes
 * w * BM * BN * K-slice / (128 * EFF_c * min(1, w * warps_c / SIMT_FULL_WARPS)) cycles
 * (128 FP32 lanes per SM; too few warps cannot keep them busy) plus SIMT_WAVE_CLK (the
 * pipeline's fill and the epilogue). A split adds the
 * second pass, which reads s partial products and writes C ((s + 1) * M * N * 4 bytes at
 * SIMT_REDUCE_BYTES_PER_CLK per SM over all SMs) plus SIMT_LAUNCH_CLK. The smallest
 * estimate wins; ties go to the earlier configuration (larger tile), then the smaller
 * split. Nothing in it names a shape: the wave count and the last wave's fill decide. */
#ifndef GEMMPROF_KERNELS_SIMT_PLAN_H
#define GEMMPROF_KERNELS_SIMT_PLAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rule's constants (guesses to calibrate with `gemmprof --tune`; see above). */
#define SIMT_SPLITS {1, 2, 3, 4, 6, 8, 12, 16}
#define SIMT_MIN_K_SLICE 64                 /* a shorter slice is mostly pipeline fill */
#define SIMT_WAVE_CLK 3000.0                /* a wave's pipeline fill and epilogue, cycles */
#define SIMT_FULL_WARPS 8                   /* warps per SM that keep the FFMA pipe fed */
#define SIMT_REDUCE_BYTES_PER_CLK 24.0      /* split-K pass, per SM (L2-resident partials) */
#define SIMT_LAUNCH_CLK 4000.0              /* the second kernel's launch gap, cycles */
#define SIMT_MAX_WORKSPACE_BYTES (256L << 20)
#define SIMT_MODEL_SM_HZ 1.98e9             /* only to print estimates in seconds (H200) */
#define SIMT_MAX_CONFIGS 24

struct simt_config {
    const char *name;
    int bm, bn, bk, wm, wn, wmiter, stages, min_blocks;
    int a_kmajor;   /* 1: A k-major, swizzled; 0: A transposed, fragments double-buffered */
    double eff;
};

extern const struct simt_config simt_configs[];
extern const int simt_config_count;

int simt_config_threads(const struct simt_config *c);
/* Outputs per thread: (WMITER*4) rows by (WNITER*4) columns. */
void simt_config_thread_tile(const struct simt_config *c, int *tm, int *tn);
/* Index of the configuration called `name`, or -1. */
int simt_config_find(const char *name);

/* What the rule knows of the device: SM count and, per configuration, blocks resident per
 * SM (0: the table's MIN_BLOCKS); registers per thread of the 16-byte path, for the
 * tuner's table only (0: unknown). */
struct simt_machine {
    int sms;
    int blocks_per_sm[SIMT_MAX_CONFIGS];
    int regs[SIMT_MAX_CONFIGS];
};

/* One way to run a shape: configuration, split of K into `split` slices of k_slice
 * (a multiple of BK; every slice non-empty), and the rule's estimate in SM cycles. */
struct simt_plan {
    int config;
    int split;
    int k_slice;
    long blocks;          /* thread blocks of the GEMM kernel */
    double est_cycles;
};

/* The plan of configuration `config` with `split` slices at m x n x k: 0, or -1 when the
 * split is not a candidate (slice below SIMT_MIN_K_SLICE unless split is 1, an empty
 * slice, or too much workspace). */
int simt_plan_make(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                   struct simt_plan *p);

/* The rule: the candidate with the smallest estimate (see the top of this file). */
struct simt_plan simt_plan_pick(const struct simt_machine *mc, long m, long n, long k);

/* Every candidate plan, configuration by configuration, splits ascending (the tuner's
 * list); returns how many were written (at most max). */
int simt_plan_candidates(const struct simt_machine *mc, long m, long n, long k, struct simt_plan *out,
                         int max);

/* Workspace bytes a plan needs (0 without a split). */
size_t simt_plan_workspace_bytes(const struct simt_plan *p, long m, long n);

/* "128x256x16 w64x64 t16x8 s4 split1" into buf (the results' config column): a
 * configuration with a split, or a plan; a transposed-A configuration says so
 * ("128x256x16 w64x64 t16x8 s4 aT split1"). */
void simt_config_describe(const struct simt_config *c, int split, char *buf, size_t len);
void simt_plan_describe(const struct simt_plan *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif

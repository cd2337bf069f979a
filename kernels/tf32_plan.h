/* tf32_auto's plans: which tile (kernels/tf32_configs.def) and which split of K run a
 * given M x N x K, and the model that picks one. Pure host code with no CUDA dependency,
 * so the rule is tested without a GPU (tests/test_tf32_plan.c); the kernels
 * (kernels/16_tf32_auto.cu) and the tuner (src/tune_tf32.c) call the same functions.
 *
 * The rule, in one paragraph. For every tile c and every split s of TF32_SPLITS whose
 * slice of ceil(K/32) k-tiles, kts = ceil(ceil(K/32) / s), is at least TF32_MIN_KTS (split
 * 1 always) with every slice non-empty and the workspace within TF32_MAX_WORKSPACE_BYTES:
 * the grid is persistent, T = ceil(M/BM) * ceil(N/BN) tiles make U = T * s units, G =
 * min(U, SMs * b) blocks (b: blocks of c resident per SM, from the occupancy API) each run
 * L = ceil(U / G) units, and the busiest SM holds min(b, ceil(G / SMs)) blocks. Where T
 * exceeds the SMs * b slots, a split slices only the last, partial wave: the full waves'
 * D = floor(T / slots) * slots tiles run whole first, then the other T - D tiles in s
 * slices fill the SMs (U = D + (T - D) s; nothing to slice when slots divide T). A unit
 * takes max(BM * BN * 32 kts / (TF32_MACS_PER_CLK * EFF_c), its operand bytes (BM + BN) *
 * 128 kts / TF32_SM_BYTES_PER_CLK) cycles of its SM; each block adds TF32_UNIT_CLK per unit
 * (its epilogue), and a split adds each sliced unit's partial-tile store (and, with the
 * in-kernel fixup, TF32_FIXUP_UNIT_CLK) and, per tile the SM reduces (ceil((T - D) /
 * SMs)), TF32_FIXUP_CLK plus reading s partial tiles (bytes at TF32_FIXUP_BYTES_PER_CLK). A
 * reduce plan (every tile in s slices, up to TF32_MAX_SPLIT) has no fixup: its partial
 * products are summed after the kernel by simt_auto's split-K reduction, at that rule's
 * estimate (simt_reduce_cycles). A k-tile also waits for L2: the busy SMs' operand bytes
 * at TF32_L2_BYTES_PER_CLK (TF32_L2_LOCKSTEP_BYTES_PER_CLK when the blocks of a shallow
 * ring run one whole tile each, in step), A's counted twice where its rows sit 16 bytes off
 * a sector (then the plan copying A first is a candidate too) and halved where clusters of
 * 2 share it. Where k % 4 or n % 4 != 0 (rows TMA cannot address) each plan either copies
 * the operand first (its bytes read and written at the DRAM rate) or loads it in the kernel
 * (direct: those bytes at TF32_DIRECT_BYTES_PER_CLK an SM instead of TMA's rate); where
 * n % 4 != 0 a plan may also load B by TMA through four maps of its rows mod 4 (mapsB: B's
 * bytes, one 32-wide panel more per block, at TMA's rate, no copy). The SM's
 * time S and the device's DRAM time D (A, B and C once: 4 (MK + KN + MN) bytes at
 * TF32_DRAM_BYTES_PER_CLK) overlap, not perfectly: the estimate is (S^4 + D^4)^(1/4) +
 * TF32_LAUNCH_CLK. So a compute-bound shape goes by the wave count
 * and the last wave's fill, as simt_auto's rule, and a DRAM-bound one (a skinny operand of
 * 134 MB) to the plan with the most slack under the DRAM time: enough units in flight,
 * little compute wasted on a short dimension, the smallest split that gets there. The
 * smallest estimate wins; ties go to the earlier tile, then the smaller split. Nothing in
 * it names a shape. */
#ifndef GEMMPROF_KERNELS_TF32_PLAN_H
#define GEMMPROF_KERNELS_TF32_PLAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rule's constants (calibrated with `gemmprof --tune MxNxK -k tf32_auto`; the first
 * values fit wgmma_rs on the H200 at the nine shapes of issue 28 within 10%). */
#define TF32_SPLITS {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}
#define TF32_MAX_SPLIT 64                   /* the largest of TF32_SPLITS (tuner tables) */
#define TF32_MAX_FIXUP_SPLIT 32             /* the in-kernel fixup's: beyond, one SM reads too many */
#define TF32_MIN_KTS 4                      /* a slice of fewer k-tiles is mostly ring fill */
#define TF32_MACS_PER_CLK 1024.0            /* dense TF32 wgmma MACs per SM per cycle (sm_90) */
#define TF32_LAUNCH_CLK 8000.0              /* per launch: the first loads' latency, last store */
#define TF32_UNIT_CLK 3000.0                /* per unit of a block: its epilogue */
#define TF32_SM_BYTES_PER_CLK 40.0          /* operand bytes one SM's TMA brings in per cycle */
#define TF32_DRAM_BYTES_PER_CLK 1700.0      /* device DRAM bytes per SM cycle (3.36 TB/s) */
#define TF32_FIXUP_BYTES_PER_CLK 24.0       /* one SM's partial-tile stores and loads (L2) */
#define TF32_FIXUP_CLK 1500.0               /* the fixup's fences, atomic and barriers */
/* Each sliced unit of a block in a plan with the in-kernel fixup: its fences and count
 * wait in the block's path. Without it the tuner's tables (H200 and H100, 70 of them) had
 * fixup plans 5-28% slower than estimated (median by tile; reduce plans 2-7%), and the rule
 * took the fixup where the reduce plans ran faster (1x4096x4096: 79% of the best plan, 92%
 * with it; 8x4096x4096: 82%, 100%). */
#define TF32_FIXUP_UNIT_CLK 4000.0
/* A's rows 16 bytes off a 32-byte sector (k % 8 == 4; k % 4 != 0 is copied anyway, onto
 * whole lines): every 128-byte box row of A then touches two sector pairs, and with every
 * SM loading, L2 runs out first. The device's L2 delivers TF32_L2_BYTES_PER_CLK; such A
 * bytes count TF32_A_SPLIT times. A plan may copy A first onto whole lines (copy_a): it
 * reads and writes A once at TF32_DRAM_BYTES_PER_CLK, plus TF32_COPY_CLK (a dependent
 * launch). Where k % 4 or n % 4 != 0 every plan copies A or B so (TMA needs 16-byte row
 * pitches), and every estimate adds that copy the same way. Fitted on the H200 at 2500^3-5500^3, 700x700x7000, 1500x1500x4500 and 1500^3. */
#define TF32_L2_BYTES_PER_CLK 6100.0
/* One wave of whole tiles (no split, a unit per block) over a long K: every block asks L2
 * for the same k-slices of A and B at once, and a ring of few stages (the 256 x 128 tiles'
 * 4) no longer hides L2's latency. Fitted on the H200 at 1800x1800x5000 (120 tiles of
 * 256 x 128 over 157 k-tiles: 22% over the tensor-bound estimate unclustered; in clusters
 * of 2, half of A's bytes, at it). Deeper rings ran at their usual rate in one wave
 * (64 x 128, 9 stages, at 300x3000x5000), as did 32 k-tiles (128 x 64 at 1024^3). */
#define TF32_L2_LOCKSTEP_BYTES_PER_CLK 3600.0
#define TF32_LOCKSTEP_MAX_STAGES 4
#define TF32_LOCKSTEP_MIN_KTILES 64
#define TF32_A_SPLIT 2.0
#define TF32_COPY_CLK 2000.0
/* A plan may instead load the operands TMA cannot address (k % 4: A, n % 4: B) in the
 * kernel (direct: the producer warpgroup's 4-byte cp.async, kernels/sm90_ws.cuh), with no
 * copy: those bytes come in at TF32_DIRECT_BYTES_PER_CLK an SM (4-byte copies through L1,
 * far below TMA's rate), and their rows, off sectors, cost L2 TF32_DIRECT_L2_SPLIT times.
 * Unclustered tiles only. The rate is the one that put the rule's pick nearest the best
 * plan in the H100's tuner tables at eight odd shapes (results/h200/NOTES.md). */
#define TF32_DIRECT_BYTES_PER_CLK 12.0
#define TF32_DIRECT_L2_SPLIT 1.25
#define TF32_DIRECT_A 1 /* = SM90_DIRECT_A, kernels/sm90_ws.cuh */
#define TF32_DIRECT_B 2
/* Where n % 4 != 0 a plan may also load B by TMA through four tensor maps, one per residue
 * of its row index mod 4 (rows 4 apart: a pitch of 16n bytes), with no copy
 * (kernels/sm90_ws.cuh, SM90_MAPS_B). Each map's columns are shifted by up to 3 floats, so
 * a block loads one 32-wide panel of B more than its BN: B's bytes in and through L2
 * count (BN / 32 + 1) / (BN / 32) times. Unclustered tiles, k >= 4; the ring may lose a
 * stage to the larger stages (TF32_MAPS_B_STAGES: the kernel's tile asserts the same). */
#define TF32_MAPS_B 4   /* = SM90_MAPS_B: the bit of the plan's load mask */
/* Where k % 4 != 0 a plan may load A so too (mapsA): each residue of A's rows its own
 * wgmma of N = BM / 4 (four per k-step instead of one, B^T's fragments loaded four times),
 * B's stage 8 rows longer (B's bytes 40 / 32 times), ceil((k + 3) / 32) k-tiles; the
 * tensor work counts TF32_MAPS_A_MMA_COST times. No copy of A. */
#define TF32_MAPS_A 8   /* = SM90_MAPS_A */
#define TF32_MAPS_A_MMA_COST 1.5
#define TF32_MAPS_A_STAGE_BYTES(bm, bn) ((bm) * 128 + (bn) * 160)
#define TF32_SMEM_CAP(minb) ((minb) == 1 ? 232448 : 233472 / (minb) - 1024)
#define TF32_MAPS_B_STAGE_BYTES(bm, bn) ((bm) * 128 + 4 * ((bn) / 32 + 1) * 1024)
#define TF32_STAGES_FIT(stage_bytes, stages, minb)                                                         \
    ((TF32_SMEM_CAP(minb) - 1040) / ((stage_bytes) + 16) < (stages) ? (TF32_SMEM_CAP(minb) - 1040) / ((stage_bytes) + 16) \
                                                                     : (stages))
#define TF32_MAPS_B_STAGES(bm, bn, stages, minb) TF32_STAGES_FIT(TF32_MAPS_B_STAGE_BYTES(bm, bn), stages, minb)
#define TF32_MAPS_A_STAGES(bm, bn, stages, minb) TF32_STAGES_FIT(TF32_MAPS_A_STAGE_BYTES(bm, bn), stages, minb)
/* how a plan gets its operands to TMA (tf32_plan_make_kind's load) */
#define TF32_LOAD_TMA 0    /* in place, or pitch-padded copies where k % 4 or n % 4 != 0 */
#define TF32_LOAD_COPY_A 1 /* A copied onto whole lines first (only where k % 8 == 4) */
#define TF32_LOAD_DIRECT 2 /* the operands TMA cannot address loaded by the kernel */
#define TF32_LOAD_MAPS_B 3 /* B (n % 4 != 0) by its four row maps; A as TMA_LOAD's */
#define TF32_LOAD_MAPS_A 4 /* A (k % 4 != 0) by its four row maps; B as TMA_LOAD's */
#define TF32_LOADS 5
#define TF32_LOAD_MASKS 9  /* tf32_plan_load_mask's values: 0-3 direct operands, 4 B's maps, 8 A's */
#define TF32_MAX_WORKSPACE_BYTES (256L << 20)
#define TF32_MODEL_SM_HZ 1.98e9             /* only to print estimates in seconds (H200) */
#define TF32_MAX_CONFIGS 16
#define TF32_MAX_PLANS (TF32_MAX_CONFIGS * 16 * TF32_LOADS * 2) /* configurations x splits x loads x reduce */

struct tf32_config {
    const char *name;
    int bm, consumers, stages, min_blocks;
    int cluster; /* blocks per cluster (1 or 2), sharing A's tile (kernels/tf32_configs.def) */
    double eff;
};

extern const struct tf32_config tf32_configs[];
extern const int tf32_config_count;

/* n per tile (64 per consumer warpgroup, times the blocks of a cluster: the rule's tile is
 * a cluster's), n per block, and threads per block (a producer warpgroup besides the
 * consumers). */
int tf32_config_bn(const struct tf32_config *c);
int tf32_config_block_bn(const struct tf32_config *c);
int tf32_config_threads(const struct tf32_config *c);
/* Index of the configuration called `name`, or -1. */
int tf32_config_find(const char *name);

/* What the rule knows of the device: SM count and, per configuration, blocks resident per
 * SM (0: the table's MIN_BLOCKS), registers per thread (the tuner's table only; 0:
 * unknown) and, for clusters, how many can be resident at once on the whole device (0:
 * SMs / CLUSTER x blocks per SM; fewer where a GPC's SMs do not pair up). */
struct tf32_machine {
    int sms;
    int blocks_per_sm[TF32_MAX_CONFIGS];
    int regs[TF32_MAX_CONFIGS];
    int cluster_slots[TF32_MAX_CONFIGS];
};

/* One way to run a shape: tile, `split` slices of K of `kts` k-tiles (32 of K) each, the
 * last possibly shorter and none empty; its persistent grid (in clusters where the tile
 * has them: the launch has grid x CLUSTER blocks); the estimate in SM cycles
 * and its SM-time part (without the DRAM time and the launch). With a split and more
 * tiles than the grid's slots, only the last, partial wave is sliced: the first dp_tiles
 * (whole waves) run unsplit, so units = dp_tiles + (tiles - dp_tiles) x split. */
struct tf32_plan {
    int config;
    int split;
    int kts;
    long tiles, units, grid;
    double est_cycles, sm_cycles;
    long dp_tiles;
    long ktiles; /* of all of K: a whole tile's */
    int copy_a;  /* A copied onto whole 128-byte lines first (only where k % 8 == 4) */
    int direct;  /* operands the kernel loads itself (TF32_DIRECT_A | TF32_DIRECT_B), no copy */
    int reduce;  /* the slices' partial products go to split x m x n floats of workspace, which
                  * the split-K reduction kernel sums into C (kernels/splitk_reduce.cuh), instead
                  * of the in-kernel fixup; unclustered tiles, every tile sliced */
    int maps_b;  /* B by its four row maps (TF32_LOAD_MAPS_B), no copy */
    int maps_a;  /* A by its four row maps (TF32_LOAD_MAPS_A), no copy; ktiles ceil((k + 3) / 32) */
};

/* The plan of configuration `config` with `split` slices at m x n x k: 0, or -1 when it
 * is not a candidate (see the top of this file). */
int tf32_plan_make(const struct tf32_machine *mc, long m, long n, long k, int config, int split,
                   struct tf32_plan *p);
/* The same with A copied first (copy_a 1): -1 also where A's rows are not 16 bytes off a
 * sector (k % 8 != 4). */
int tf32_plan_make_any(const struct tf32_machine *mc, long m, long n, long k, int config, int split, int copy_a,
                       struct tf32_plan *p);

/* The blocks a plan launches: its grid, times CLUSTER where the tile has clusters. */
long tf32_plan_grid_blocks(const struct tf32_plan *p);

/* Any plan: `load` one of TF32_LOAD_* (DIRECT: -1 where TMA can address both operands or
 * the tile is clustered), with the slices summed by the reduction kernel (reduce 1; -1
 * also where split is 1 or the tile is clustered). The plan's split is the slices that
 * hold K: ceil(ktiles / kts), fewer than `split` where the rounding leaves the last ones
 * empty; -1 where the previous split of TF32_SPLITS has the same slice. */
int tf32_plan_make_kind(const struct tf32_machine *mc, long m, long n, long k, int config, int split, int load,
                        int reduce, struct tf32_plan *p);
/* The operands a direct plan loads in the kernel at n x k (TF32_DIRECT_*; 0: none). */
int tf32_direct_operands(long n, long k);
/* The plan's way to load (its `load` of tf32_plan_make_kind). */
int tf32_plan_load(const struct tf32_plan *p);
/* The kernel's load mask of a plan: its direct operands, TF32_MAPS_B or TF32_MAPS_A. */
int tf32_plan_load_mask(const struct tf32_plan *p);
/* The ring's stages a plan runs: the tile's, fewer with B's maps where they do not fit. */
int tf32_plan_stages(const struct tf32_plan *p);

/* Threads of the GEMM launch (every block of the grid, clusters' too). */
long tf32_plan_launch_threads(const struct tf32_plan *p);

/* The rule: the candidate with the smallest estimate. */
struct tf32_plan tf32_plan_pick(const struct tf32_machine *mc, long m, long n, long k);

/* Every candidate plan, configuration by configuration, splits ascending (the tuner's
 * list); returns how many were written (at most max). */
int tf32_plan_candidates(const struct tf32_machine *mc, long m, long n, long k, struct tf32_plan *out, int max);

/* Bytes of the partial tiles (0 without a split) and of the per-tile counters a plan
 * needs. */
size_t tf32_plan_workspace_bytes(const struct tf32_plan *p);
size_t tf32_plan_counter_bytes(const struct tf32_plan *p);

/* Operand bytes the plan's busiest SM brings in (the tuner's B/clk column). */
double tf32_plan_sm_bytes(const struct tf32_machine *mc, const struct tf32_plan *p);

/* "256x128x32 wg2 s4 split1" into buf (the results' config column): tile, consumer
 * warpgroups, stages, " b2" where MIN_BLOCKS is 2, split; a plan whose split slices only
 * the last wave adds " tail24" (its 24 sliced tiles), one that copies A " copyA", one that
 * loads operands in the kernel " directA", " directB" or " directAB", one that loads B by
 * its four row maps " mapsB", A " mapsA" (and the ring's stages it runs). */
void tf32_config_describe(const struct tf32_config *c, int split, char *buf, size_t len);
void tf32_plan_describe(const struct tf32_plan *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif

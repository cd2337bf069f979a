/* simt_auto's plans: which tile configuration (kernels/simt_configs.def) and which split
 * of K run a given M x N x K, and the model that picks one. Pure host code with no CUDA
 * dependency, so the rule is tested without a GPU (tests/test_simt_plan.c); the kernels
 * (kernels/10_simt_auto.cu) and the tuner (src/tune.c) call the same functions.
 *
 * The rule. For every configuration c and every split s of SIMT_SPLITS whose K-slice
 * ceil(K/s), rounded up to BK, is at least SIMT_MIN_K_SLICE (and whose workspace fits
 * SIMT_MAX_WORKSPACE_BYTES; the plan has ceil(K / K-slice) slices, fewer than s where the
 * rounding leaves the last ones empty, and a split whose K-slice the previous split of the
 * list already had is not a plan of its own), estimate the time on the busiest SM: the grid has
 * T = ceil(M/BM) * ceil(N/BN) * s blocks, the busiest SM gets L = ceil(T / SMs) of them and
 * runs them in waves of up to b at once (b = blocks of c resident per SM, from the
 * occupancy API). A wave of w blocks takes
 *     w * BM * BN * (K-slice + fill) / (128 * EFF_c * fed(w * warps_c))
 * cycles (128 FP32 lanes per SM): fill is a block's fixed cost (pipeline fill, epilogue) in
 * k-steps (the first wave's blocks, starting together on cold caches, pay their prologue
 * again: SIMT_FIRST_WAVE_STAGE; an unsplit block alone on its SM adds its C tile's bytes at
 * SIMT_STORE_BYTES_PER_CLK, its epilogue hidden behind no other block), and fed(W) =
 * min(1, W / W_full)^e says how much of the
 * FFMA issue W warps keep busy; larger thread tiles need fewer warps but lose more below them (W_full and e scale
 * with the thread tile's outputs; the transposed-A tiles, whose A goes through 4-byte copies
 * and a transpose, lose more again below SIMT_FEED_WARPS_T warps). EFF_c drops when the 16-byte copies cannot run (rows of
 * B, or of A in the k-major tiles, not multiples of 4 floats) and, for the transposed
 * tiles, when K % 8 leaves A's 32-byte row pieces across two sectors. A split adds the
 * second pass (simt_reduce_cycles): a launch, its rounds of dependent L2 loads and its
 * bytes (the wide reduction's rounds where C has few items). The smallest estimate wins; ties go to the earlier configuration (larger tile),
 * then the smaller split, then no copy. When N % 4 != 0 every configuration and split (of
 * the k-major ones, only where K % 4 == 0) is also a candidate with B copied first into rows padded to a multiple of 4 floats (the 16-byte
 * copies then run; simt_pad_cycles: a launch and its bytes), the GEMM reading B's padded
 * rows and writing C's (or the split's partials') rows of n as they are, unsplit with no
 * second pass. A GEMM grid that fills its slots is a dependent launch after the copy (its
 * blocks start as the copy's leave); a smaller one waits for the copy's end, since
 * dispatched beside the copy's blocks it would land packed, b blocks on each SM it uses
 * (simt_plan_overlaps_copy). When
 * M % BM leaves 1 to SIMT_PEEL_MAX rows (and M > BM), every split plan is also a candidate
 * with those rows peeled: the GEMM kernel on the whole tile rows, the strip kernel on the
 * rest (simt_strip_cycles), one reduction over both. Where the tiles fill at least one
 * wave of the grid's slots, every split plan (unpadded) is also a candidate that slices only
 * the tiles past the full waves: the whole tile rows those waves hold run unsplit first,
 * straight into C, and the split kernel's blocks start on the SMs the head's blocks leave
 * (simt_plan_make_any's tail; its estimate: the head's waves, or all the work shared over the
 * slots and rounded up to whole waves of slices, whichever is longer; the reduction covers
 * the split rows alone). Fitted to the H200's tables at six shapes with such plans
 * (tests/data/h200_simt_tune_tail.csv). Where n <= 32 or m <= 16, the forms of the kernels
 * that stream the big operand once (few columns: A; few rows: B; estimates below) are
 * candidates beside the tiles, split the same way.
 * Nothing in it names a shape: tiles, waves, the last wave's fill,
 * the warps per SM and the reduction decide. The constants were fitted to the H200's tuner
 * tables at nine shapes (results/h200/NOTES.md, "Kernel notes", simt_configs); the host
 * test replays those tables (tests/test_simt_plan.c). SIMT_FILL_K, SIMT_FILL_K_STAGE,
 * SIMT_FIRST_WAVE_STAGE and t128x256k32's EFF were refitted with six more shapes' tables
 * (1000x1000x20000, 1024x4096x1024, 127x4096x4096, 259x259x10000, 333x777x2222,
 * 96x3000x3000), the nine staying within 5% of their best plan; SIMT_PAD_BYTES_PER_CLK
 * then refitted to the padded plan's 2.7 us below. SIMT_FEED_WARPS_T and SIMT_FEED_EXP_T
 * were added, and SIMT_FILL_K_STAGE, SIMT_FEED_EXP_TILE, SIMT_REDUCE_BYTES_PER_CLK and two
 * EFFs refitted, with fifteen shapes' tables (tests/data/h200_simt_tune_extra.csv). */
#ifndef GEMMPROF_KERNELS_SIMT_PLAN_H
#define GEMMPROF_KERNELS_SIMT_PLAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rule's constants, fitted to `gemmprof --tune` tables on the H200 (see above). */
#define SIMT_SPLITS {1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 48, 64}
/* After the list, each configuration's split that fills one wave: slots / tiles slices
 * (a candidate where that is 2 or more and its slice is none of the list's). The list's
 * splits either side of it leave a part-empty wave or a second one: at 257x513x4099 the
 * 36 tiles of t64x64 take 12 slices in 432 of the 528 slots, 16 in 576. */
#define SIMT_SPLIT_FILL 0
/* The model is optimistic about one-wave plans that fill 90% of the slots or more (median
 * measured / estimated 1.065 over the recorded tables; about 0.98 for plans of two waves or
 * more). The fill candidates are such plans by construction, so without this factor on their
 * GEMM estimate the pick favours the most underestimated of them (results/h200/NOTES.md,
 * "Ninth session": 515x517x4392; tests/data/h100_simt_tune_fill.csv guards it). */
#define SIMT_FILL_OPTIMISM 1.07
#define SIMT_MIN_K_SLICE 64                 /* a shorter slice is mostly pipeline fill */
#define SIMT_FILL_K 22.0                    /* a block's fixed cost, in k-steps of its tile */
#define SIMT_FILL_K_STAGE 0.27              /* plus this x (STAGES - 1) x BK (the prologue) */
#define SIMT_FIRST_WAVE_STAGE 0.4           /* first wave's blocks: plus this x (STAGES - 1) x BK */
/* An unsplit block alone on its SM stores its C tile with nothing computing beside it: its
 * bytes at this rate are added. Fitted at 4095x4095x64 (tests/data/h200_simt_tune_shortk.csv:
 * the 128x256 tiles 0.118-0.129 ms against 64x64's 0.078, where the rule had picked a
 * 128x256 plan); any rate from 16 to 48 gives the same picks on every replayed table. */
#define SIMT_STORE_BYTES_PER_CLK 32.0
#define SIMT_FEED_WARPS 14.3981             /* warps per SM that keep 8x4 thread tiles fed */
#define SIMT_FEED_WARPS_TILE 0.3461         /* W_full x (outputs / 32)^-this */
#define SIMT_FEED_EXP 0.2323                /* e of 8x4 thread tiles */
#define SIMT_FEED_EXP_TILE 0.475            /* e x (outputs / 32)^this */
#define SIMT_FEED_WARPS_T 8.0               /* transposed-A tiles: below this many warps, */
#define SIMT_FEED_EXP_T 0.25                /* fed x (W / SIMT_FEED_WARPS_T)^this too */
#define SIMT_NARROW_T 0.8373                /* EFF of transposed-A tiles on 4-byte B copies */
#define SIMT_NARROW_K 0.7784                /* EFF of k-major tiles on 4-byte copies */
#define SIMT_A_SECTOR 0.9632                /* EFF of transposed-A tiles when K % 8 != 0 */
#define SIMT_REDUCE_LAUNCH_CLK 1000.0       /* the reduction's launch, mostly hidden: a dependent launch */
#define SIMT_REDUCE_ROUND_CLK 1202.3        /* one round of dependent loads from L2 */
#define SIMT_REDUCE_BYTES_PER_CLK 23.5      /* its traffic, per SM (L2-resident partials) */
/* B's padded copy: its launch, and its bytes (read from DRAM, written to L2) per SM per cycle.
 * The launch is the reduction's; the byte rate fitted to the H200's padded plans at
 * 257x513x4099 (t64x64 split8 2.7 us slower padded than unpadded; results/h200/NOTES.md). */
#define SIMT_PAD_LAUNCH_CLK 5045.3
#define SIMT_PAD_BYTES_PER_CLK 7.0
/* A peeled plan: when M is a few rows past a multiple of the tile (257 = 4 x 64 + 1), the
 * GEMM kernel runs the whole tile rows only (a tile row that is 1/64 full costs a whole
 * tile row of time) and a strip kernel computes the left-over rows' split partials: blocks
 * of SIMT_STRIP_THREADS over SIMT_STRIP_COLS columns of one slice, SIMT_STRIP_UNROLL k-rows
 * of loads in flight per warp; the reduction adds both. Its cost: a dependent launch and
 * the rounds of L2 loads of the busiest SM's blocks (B was just read by the GEMM), or, where
 * B is past SIMT_STRIP_L2_BYTES, B's bytes again from DRAM at SIMT_STRIP_BYTES_PER_CLK per SM
 * (the padded copy's rate) if that is longer (docs/ladders.md, "The strip where B is past L2"). */
#define SIMT_PEEL_MAX 4
#define SIMT_STRIP_THREADS 1024
#define SIMT_STRIP_COLS 32
#define SIMT_STRIP_UNROLL 8
#define SIMT_STRIP_LAUNCH_CLK 1000.0
#define SIMT_STRIP_BYTES_PER_CLK 7.0
#define SIMT_STRIP_L2_BYTES 24e6 /* the replays agree from 12 to 40 MB */
#define SIMT_MAX_WORKSPACE_BYTES (256L << 20)
/* A stream-K plan (kernels/simt_streamk.cuh, the tiles of kernels/simt_streamk_tiles.def): one
 * wave of blocks, each an equal run of the k-slices of all tiles laid end to end. Its
 * estimate: the busiest SM's blocks' runs at the tile's EFF, one pipeline fill per block
 * (SIMT_SK_FILL_K k-steps plus the prologue, as a first wave's block), SIMT_SK_SEGMENT_K
 * k-steps per tile segment of a run (its epilogue), SIMT_SK_SOLO_EXTRA more per k-step where
 * one block fills an SM, and the fixup where runs cut tiles: a dependent launch, a dependent
 * L2 round per partial it adds, and its bytes. Fitted to 60 measured stream-K plans at eleven
 * shapes (tests/data/h100_simt_tune_streamk.csv): with one block per SM the stream-K kernel ran
 * a median 12% over its split kernel's estimate ratio, with two to four 6-8%, which the fill
 * and segment terms already cover. */
#define SIMT_SK_FILL_K 22.0
#define SIMT_SK_SEGMENT_K 24.0
#define SIMT_SK_SOLO_EXTRA 0.08
#define SIMT_SK_MAX_SLICES 2000000000L      /* tiles x slices must fit the kernel's int */
#define SIMT_MODEL_SM_HZ 1.98e9             /* only to print estimates in seconds (H200) */
/* The reduction kernel's shape (kernels/10_simt_auto.cu), which the rule's estimate
 * follows: threads per block, items per thread per round, slices loaded per round. */
#define SIMT_REDUCE_THREADS 128
#define SIMT_REDUCE_ILP 4
#define SIMT_REDUCE_SLICES 4
/* Where C has too few items for that grid to cover the SMs (100 x 100: 5 blocks), the wide
 * reduction spreads the slices too: a block's SIMT_REDUCE_WIDE_GROUPS warps take the same 32
 * items, each every GROUPS-th slice with SIMT_REDUCE_WIDE_LOADS loads in flight, and their
 * sums meet in shared memory in a fixed order (where simt_reduce_wide says it takes fewer
 * rounds of loads). */
#define SIMT_REDUCE_WIDE_GROUPS 4
#define SIMT_REDUCE_WIDE_LOADS 16
/* The few-columns kernel (kernels/simt_skinny.cuh, forms in kernels/simt_skinny_forms.def): blocks
 * of SIMT_SKINNY_WARPS warps, each streaming ROWS rows of A; B's k-slice in shared memory, at
 * most SIMT_SKINNY_SMEM_MAX bytes (three blocks an SM by shared memory; the slice is capped,
 * the split raised to fit). Its estimate (simt_skinny_cycles in kernels/simt_plan.c) on the
 * busiest SM, wave by wave: the longest of A's bytes at SIMT_SKINNY_A_BYTES_PER_CLK (the SM's
 * share of DRAM), its FMAs (NMAX columns, padded ones too) at the form's EFF, and its shared
 * loads of B (each lane's float4 of a column serves ROWS rows: NMAX / ROWS bytes of them per
 * byte of A) at SIMT_SKINNY_LDS_BYTES_PER_CLK (32 banks of 4 bytes), plus a
 * block's fixed cost (SIMT_SKINNY_FILL_CLK: B's slice arriving, the first loads, the
 * epilogue) and B's slice bytes at SIMT_SKINNY_B_BYTES_PER_CLK (from L2); a split adds the
 * reduction as the tiles' does. */
/* The constants below and the forms' EFF were fitted (tools/lab/skinny_fit.py) to the tuner's 108 plans of
 * them at seven shapes with n of 7 to 32 on an H100 SXM (tests/data/h100_simt_tune_skinny.csv;
 * no H200 could be had): rms log error 0.080. A's rate is well under the DRAM share (about 2.0
 * of the H100's 2.85 TB/s measured copy rate). */
#define SIMT_SKINNY_WARPS 8
#define SIMT_SKINNY_SMEM_MAX (72 * 1024)
#define SIMT_SKINNY_PAD 4   /* floats after each column's k-run of B (banks, 16-byte rows) */
#define SIMT_SKINNY_A_BYTES_PER_CLK 12.0
#define SIMT_SKINNY_B_BYTES_PER_CLK 8.0
#define SIMT_SKINNY_LDS_BYTES_PER_CLK 128.0
#define SIMT_SKINNY_FILL_CLK 4000.0
/* The few-rows kernel (kernels/simt_short.cuh, forms in kernels/simt_short_forms.def): blocks
 * of SIMT_SHORT_WARPS warps over 32 x CV columns of B, streamed once into registers, the
 * warps taking turns along k; A's k-slice (MMAX rows) in shared memory, at most
 * SIMT_SHORT_SMEM_MAX bytes. Its estimate (short_cycles in kernels/simt_plan.c) on the
 * busiest SM, wave by wave: the longer of B's bytes at SIMT_SHORT_B_BYTES_PER_CLK (the SM's
 * share of DRAM) and its FMAs (MMAX rows, padded ones too) at the form's EFF, plus a block's
 * fixed cost (SIMT_SHORT_FILL_CLK), A's slice from L2 at SIMT_SHORT_A_BYTES_PER_CLK and a
 * round of SIMT_SHORT_ROUND_CLK per 4 rows for the warps' sums; a split adds the reduction.
 * The constants and the forms' EFF were fitted (tools/lab/short_fit.py) to the tuner's 97
 * plans of them at four shapes with m of 1 to 16 on an H100 SXM
 * (tests/data/h100_simt_tune_short.csv): rms log error 0.118. B's rate is the DRAM share
 * (2.8 TB/s at 4x16000x4000, the H100's copy rate); at 16 rows the FMAs bind. */
#define SIMT_SHORT_WARPS 8
#define SIMT_SHORT_SMEM_MAX (72 * 1024)
#define SIMT_SHORT_PAD 4   /* floats after each row of A's slice (16-byte rows) */
#define SIMT_SHORT_B_BYTES_PER_CLK 12.0
#define SIMT_SHORT_A_BYTES_PER_CLK 16.0
#define SIMT_SHORT_FILL_CLK 1000.0
#define SIMT_SHORT_ROUND_CLK 1000.0
/* Rows of the table (tiles or streaming forms) the tuner lists and the rule does not weigh
 * yet: added to kernels/simt_configs.def or a forms file with no measured table to fit them
 * (a guessed EFF would move the rule's picks on no evidence); {""} when there are none */
#define SIMT_TUNER_ONLY {"t32x32t4"}
#define SIMT_MAX_CONFIGS 40
/* candidates per shape, at most: every configuration and split, unpadded and padded,
 * peeled or not, split whole or only past the full waves */
#define SIMT_MAX_PLANS (SIMT_MAX_CONFIGS * 16 * 8 + SIMT_MAX_CONFIGS * 2)

struct simt_config {
    const char *name;
    int bm, bn, bk, wm, wn, wmiter, stages, min_blocks;
    int a_kmajor;   /* 1: A k-major, swizzled; 0: A transposed, fragments double-buffered */
    double eff;
    int form;       /* enum simt_form */
};

/* What kernel a row of the table is:
 * - SIMT_FORM_TILE: a tile of kernels/simt_gemm.cuh (kernels/simt_configs.def);
 * - SIMT_FORM_FEW_COLUMNS: a form of the few-columns kernel (kernels/simt_skinny_forms.def):
 *   BM = its rows (ROWS x SIMT_SKINNY_WARPS), BN = NMAX, BK = its k-step, WM = ROWS, WN = NMAX;
 * - SIMT_FORM_FEW_ROWS: a form of the few-rows kernel (kernels/simt_short_forms.def): BM = WM =
 *   MMAX, BN = its columns (32 x CV), WN = 4 x CV (so SIMT_SHORT_WARPS warps), BK = its block's
 *   k-step (4 x USTEP x SIMT_SHORT_WARPS). */
enum simt_form { SIMT_FORM_TILE, SIMT_FORM_FEW_COLUMNS, SIMT_FORM_FEW_ROWS };

extern const struct simt_config simt_configs[];
extern const int simt_config_count;

int simt_config_threads(const struct simt_config *c);
/* Outputs per thread: (WMITER*4) rows by (WNITER*4) columns. */
void simt_config_thread_tile(const struct simt_config *c, int *tm, int *tn);
/* Index of the configuration called `name`, or -1. */
int simt_config_find(const char *name);

/* The GEMM kernel's three instantiations (kernels/simt_gemm.cuh): 16-byte copies and
 * stores; 16-byte copies of a padded B beside 4-byte stores into C; 4-byte copies (B's rows,
 * or a k-major A's, not 16-byte multiples). ptxas gives them different registers, so they
 * may fit different blocks per SM (t64x128: 156, 156 and 180 registers, 3, 3 and 2 blocks). */
enum simt_path { SIMT_PATH_VEC, SIMT_PATH_PADDED, SIMT_PATH_NARROW };

/* What the rule knows of the device: SM count and, per configuration, blocks resident per
 * SM of the 16-byte path (0: the table's MIN_BLOCKS) and of the other two (0: as the
 * 16-byte path's); registers per thread of each path, for the tuner's table only (0: unknown). */
struct simt_machine {
    int sms;
    int blocks_per_sm[SIMT_MAX_CONFIGS];
    int regs[SIMT_MAX_CONFIGS];
    int streamk_per_sm[SIMT_MAX_CONFIGS]; /* the stream-K kernel's blocks per SM (0: as blocks_per_sm) */
    int padded_per_sm[SIMT_MAX_CONFIGS], padded_regs[SIMT_MAX_CONFIGS];
    int narrow_per_sm[SIMT_MAX_CONFIGS], narrow_regs[SIMT_MAX_CONFIGS];
};

/* One way to run a shape: configuration, split of K into `split` slices of k_slice
 * (a multiple of BK; every slice non-empty), and the rule's estimate in SM cycles;
 * pad_n: 0, or the width B is copied to first (N rounded up to 4; see above); peel_m: 0,
 * or the last rows of C (M % BM of them) left to the strip kernel (see below). */
struct simt_plan {
    int config;
    int split;
    int k_slice;
    long blocks;          /* thread blocks of the GEMM kernel */
    double est_cycles;
    int pad_n;
    int peel_m;
    int head_m;           /* 0, or C's first head_m rows (whole tile rows) run unsplit first */
    int streamk;          /* 0, or a stream-K plan: `blocks` blocks of this many k-slices each */
    int fill;             /* 1: the split is the one that fills a wave (SIMT_SPLIT_FILL) */
    int path;             /* the GEMM kernel's instantiation (enum simt_path) */
};

/* The padded width of B's rows for a padded plan at n (0 when n % 4 == 0: no copy). */
int simt_pad_width(long n);

/* The plan of configuration `config` with `split` slices at m x n x k (SIMT_SPLIT_FILL: as
 * many as fill one wave of the slots, -1 where that is under 2 or a slice the list has): 0,
 * or -1 when the split is not a candidate (slice below SIMT_MIN_K_SLICE unless split is 1,
 * an empty slice, or too much workspace). */
int simt_plan_make(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                   struct simt_plan *p);
/* The same with B's padded copy (-1 also when n % 4 == 0). */
int simt_plan_make_padded(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                          struct simt_plan *p);
/* Either, with the last M % BM rows peeled off (peel: 1), B padded or not (pad: 1): -1
 * also when no row is left over, more than SIMT_PEEL_MAX are, M < BM, or split is 1.
 * tail: 1, the split slices only the tiles past the grid's full waves: the whole tile
 * rows those waves hold run unsplit first (head_m rows, straight into C), the rest as the
 * split plan (-1 also with pad, split 1, or no full wave with rows left after it). */
int simt_plan_make_any(const struct simt_machine *mc, long m, long n, long k, int config, int split, int pad,
                       int peel, int tail, struct simt_plan *p);

/* A plan of the few-columns or the few-rows kernel, form `config` (a row whose form is not
 * a tile), `split` slices as simt_plan_make's (SIMT_SPLIT_FILL: as many as fill the slots),
 * raised until the slice it stages (B's, or A's) fits the kernel's shared memory: 0, or -1
 * when n (m) is past the form's NMAX (MMAX), the configuration is a tile, or the split
 * repeats a slice another split of the list gives. */
int simt_plan_make_skinny(const struct simt_machine *mc, long m, long n, long k, int config, int split,
                          struct simt_plan *p);

/* A stream-K plan of configuration `config` (B padded first: pad 1): 0, or -1 when the
 * configuration has no stream-K kernel or the shape does not fit one. */
int simt_plan_make_streamk(const struct simt_machine *mc, long m, long n, long k, int config, int pad,
                           struct simt_plan *p);
/* Blocks of a plan's GEMM kernel resident per SM (the stream-K kernel's own where known;
 * else its path's, or its MIN_BLOCKS where the machine does not say), and its registers per
 * thread (0: unknown). */
int simt_plan_blocks_per_sm(const struct simt_machine *mc, const struct simt_plan *p);
/* 1: a padded plan whose GEMM launches dependent on B's copy (PDL), a grid of at least its
 * slots; 0: no copy, or a smaller grid, launched after the copy ends (results/h200/NOTES.md,
 * twentieth session) */
int simt_plan_overlaps_copy(const struct simt_machine *mc, const struct simt_plan *p);
int simt_plan_regs(const struct simt_machine *mc, const struct simt_plan *p);
/* The GEMM kernel's path for configuration `config` at n x k, B padded or not. */
enum simt_path simt_plan_path(int config, long n, long k, int pad);
/* The machine's blocks-per-SM array of one kernel: the stream-K kernel's (streamk), else the
 * GEMM kernel's on `path` (for readers of tuner tables, which give each row's own kernel's). */
int *simt_machine_per_sm(struct simt_machine *mc, int streamk, enum simt_path path);
/* Whether configuration `config` has a stream-K kernel (kernels/simt_streamk_tiles.def). */
int simt_config_has_streamk(int config);

/* Whether the rule weighs configuration `config`: every row but those of SIMT_TUNER_ONLY
 * (the tuner lists them all). */
int simt_config_in_rule(int config);
/* The rule: the candidate with the smallest estimate (see the top of this file), of those it
 * weighs. */
struct simt_plan simt_plan_pick(const struct simt_machine *mc, long m, long n, long k);

/* Every candidate plan, configuration by configuration, splits ascending (the tuner's
 * list); returns how many were written (at most max). */
int simt_plan_candidates(const struct simt_machine *mc, long m, long n, long k, struct simt_plan *out,
                         int max);

/* The split-K reduction of m x n partial products in `split` slices after a GEMM kernel
 * of gemm_threads threads: its blocks of SIMT_REDUCE_THREADS (enough for every item of
 * SIMT_REDUCE_ILP, never more threads than the GEMM kernel: tests/gpu/test_ncu_launch.sh
 * takes a call's kernel with the most threads for its main one), whether it moves float4 (m * n % 4 == 0 and
 * C 16-byte aligned: c_aligned16), and the rule's estimate of its cycles. */
long simt_reduce_blocks(long m, long n, long gemm_threads, int c_aligned16);
/* The wide reduction: a block per 32 items, at most the GEMM kernel's threads; a plan
 * runs it where it takes fewer dependent rounds of L2 loads than the plain one's grid
 * (simt_reduce_wide: 1), which is where C has few items and there are many slices. */
int simt_reduce_wide(long m, long n, int split, long gemm_threads);
long simt_reduce_wide_blocks(long m, long n, long gemm_threads, int c_aligned16);
double simt_reduce_cycles(const struct simt_machine *mc, long m, long n, int split, long gemm_threads);
/* The grid a launcher runs the reduction on: its blocks, and *wide = simt_reduce_wide(...). */
long simt_reduce_launch_blocks(long m, long n, int split, long gemm_threads, int c_aligned16, int *wide);
/* A peeled plan's strip kernel: its grid (column groups of SIMT_STRIP_COLS, one row of
 * blocks per slice of K) and the rule's estimate of its cycles. */
long simt_strip_blocks(long n, int split);
double simt_strip_cycles(const struct simt_machine *mc, long n, int split, int k_slice);
/* The rule's estimate of B's padded copy (k rows of n floats into rows of pad_n). */
double simt_pad_cycles(const struct simt_machine *mc, long n, long k, int pad_n);

/* Blocks of a tail plan's unsplit kernel at width n (0 for any other plan; a tail plan is
 * never padded). */
long simt_plan_head_blocks(const struct simt_plan *p, long n);

/* Workspace bytes a plan needs (0 without a split or a copy): the padded B (k x pad_n
 * floats) first, then the split's (m - head_m) x n partials (a stream-K plan: two slots
 * of BM x BN floats per block). */
size_t simt_plan_workspace_bytes(const struct simt_plan *p, long m, long n, long k);

/* "128x256x16 w64x64 t16x8 s4 split1" into buf (the results' config column): a
 * configuration with a split, or a plan; a transposed-A configuration says so
 * ("128x256x16 w64x64 t16x8 s4 aT split1"), a padded plan too ("... aT padB split8"), a
 * peeled one with its strip's rows ("... aT peel1 split8"), one that splits only past the
 * full waves with the tiles it slices ("... aT split3 tail88", as tf32_auto's), a stream-K
 * plan with its blocks ("... aT streamk396"). */
void simt_config_describe(const struct simt_config *c, int split, char *buf, size_t len);
void simt_plan_describe(const struct simt_plan *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif

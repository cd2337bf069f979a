/* The state of one sweep, shared by the harness (src/harness.c), the shape setup
 * (src/shape.c), the measurement of a variant (src/measure.c), the counter phase
 * (src/counter_phase.c) and the tuner (src/tune.c). Internal to the sweep: types only,
 * each of those declares its functions in its own header. */
#ifndef GEMMPROF_SRC_RUN_H
#define GEMMPROF_SRC_RUN_H

#include <cuda_runtime.h>

#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/results.h"
#include "src/cli.h"
#include "src/outdir.h"
#include "src/print.h"

#define PROBE_BLOCKS 132

/* What a counter pass does to the L2 first (counter_flush_modes in counter_phase.c). */
struct counter_flush {
    int reads;         /* reads of the 2x-L2 flush buffer */
    int discard;       /* then drop the flush buffer's lines from the L2 */
    int dirty_first;   /* memset half the flush buffer before reading */
    int pause_ms;      /* sleep after the flush */
    int settle;        /* run the workload once, unprofiled, before the flush */
};

struct run {
    const struct cli_options *o;   /* &opts */
    struct cli_options opts;       /* the caller's, with the rank's device and --out */
    char rank_dir[OUTDIR_MAX_PATH + 1];   /* OUT/HOST-UUID when world size > 1 */
    struct rank_info ranks;
    /* --shard: 1 where (shape si, variant vi), item si * nvariants + vi, is another rank's */
    unsigned char not_mine[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    /* --shard: each item's cost (FLOPs, or seconds with --shard-costs), found before the GPU
     * is touched, and how many items the costs file timed */
    double shard_cost[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    int shard_timed;
    struct gp_meta meta;
    struct gp_ceilings ceilings;
    int have_ceilings;
    int counters_off, counters_announced;
    int launch_facts_off;    /* CUPTI refused the launch capture once: not asked again */
    int launch_facts_rows;   /* rows whose launch facts were filled */
    double launch_facts_s;   /* wall time of the captures and their queries */
    double counter_wall_s;   /* wall time of the counter phases, for the cost of counters */
    double counter_open_s, counter_warmup_s;
    int counter_measures;
    struct gemm_context *ctx;
    cudaStream_t stream;
    void *d_flush;
    size_t flush_bytes;
    struct counter_flush counter_flush;
    /* GEMMPROF_TEST_SLOWDOWN=VARIANT:NS, a test hook for `compare` and the fleet check: a
     * spin of NS ns after each timed launch of VARIANT, inside its events (-1: none;
     * SLOW_ALL: every variant, from all:NS, a whole GPU made slow) */
    int slow_variant;
#define SLOW_ALL (-2)
    unsigned long long slow_ns;
    /* GEMMPROF_TEST_PAD_MB=N, a test hook for the ncu comparison: N MiB of device memory
     * allocated before each shape's A, B and C, so that they lie elsewhere in physical
     * memory (the L2 re-reads of a kernel whose data fills the L2 depend on it) */
    size_t pad_bytes;
    unsigned long long *d_probe;
    cudaEvent_t *ev_start, *ev_stop;
    struct outdir out;
    struct printer printer;  /* the results table on stdout, in --format */
    int rows_written;
    int failures;
    int context_lost;
    double clocks[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    int nclocks;
};

#endif

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
#include "cupti/prof.h"
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

/* Options: what the run was asked, settled before any GPU work. */
struct run_hooks {
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
};

/* This rank's part of a multi-GPU run (src/ranks.h). */
struct run_share {
    char rank_dir[OUTDIR_MAX_PATH + 1];   /* OUT/HOST-UUID when world size > 1 */
    struct rank_info ranks;
    /* --shard: 1 where (shape si, variant vi), item si * nvariants + vi, is another rank's */
    unsigned char not_mine[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    /* --shard: each item's cost (FLOPs, or seconds with --shard-costs), found before the GPU
     * is touched, and how many items the costs file timed */
    double shard_cost[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    int shard_timed;
};

/* The GPU context: handles and buffers set up once (setup_gpu in src/harness.c). */
struct run_gpu {
    struct gemm_context *ctx;
    cudaStream_t stream;
    void *d_flush;                  /* the L2 flush buffer (2x the L2), NULL without --l2-flush */
    size_t flush_bytes;
    unsigned long long *d_probe;    /* the clock probe's output, and the L2 flush's sink */
    cudaEvent_t *ev_start, *ev_stop;   /* one pair per timed repetition */
};

/* The verify and timing phases' state (src/measure.c). */
struct run_measure {
    int launch_facts_off;    /* CUPTI refused the launch capture once: not asked again */
    int launch_facts_rows;   /* rows whose launch facts were filled */
    double launch_facts_s;   /* wall time of the captures and their queries */
    double clocks[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];   /* each row's SM clock, for the median */
    int nclocks;
};

/* The counter phase's state (src/counter_phase.c). */
struct run_counters {
    int off;                 /* turned off after a failure, said once */
    int announced;           /* the metrics and passes said (once per run) */
    struct counter_flush flush;   /* GEMMPROF_COUNTER_FLUSH */
    int per_shape;           /* GEMMPROF_COUNTER_SESSIONS=shape: no session kept across shapes */
    int pdl;                 /* GEMMPROF_COUNTER_PDL=on: dependent launches while counting */
    /* the session kept across shapes (all metrics in one, src/counter_phase.c), or NULL;
     * closed by counter_phase_end */
    struct prof_session *session;
    int sessions_opened;
    int combined;            /* 1 one session for all metrics, 0 two groups, -1 not decided yet */
    double wall_s;           /* wall time of the counter phases, for the cost of counters */
    double open_s, warmup_s;
    struct prof_cost cost;   /* summed over the sessions: where the wall time went */
    int measures;
};

struct run {
    /* options */
    const struct cli_options *o;   /* &opts */
    struct cli_options opts;       /* the caller's, with the rank's device and --out */
    struct run_hooks hooks;
    struct run_share share;
    /* the GPU context */
    struct run_gpu gpu;
    /* per-phase state */
    struct run_measure measure;
    struct run_counters counters;
    /* the results and where they go */
    struct gp_meta meta;
    struct gp_ceilings ceilings;
    int have_ceilings;
    struct outdir out;
    struct printer printer;  /* the results table on stdout, in --format */
    int rows_written;
    int failures;
    int context_lost;        /* a sticky CUDA error: no later variant can run */
};

#endif

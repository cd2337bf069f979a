/* Command-line options and their parsing. Host-only: tested without a GPU. */
#ifndef GEMMPROF_SRC_CLI_H
#define GEMMPROF_SRC_CLI_H

#include <stddef.h>

#include "src/ranks.h"

#define CLI_MAX_SHAPES 256
#define CLI_MAX_VARIANTS 64
#define CLI_MAX_METRICS 128
#define CLI_MAX_MATRIX_ELEMS 2147483647L   /* per matrix: kernels index with int */

/* gemmprof's exit statuses (the verbs of src/cmd.h have their own). */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_DEVICE = 3 };

struct shape { long m, n, k; };

enum cli_action { CLI_RUN, CLI_HELP, CLI_VERSION, CLI_LIST, CLI_LIST_METRICS };

/* What goes to stdout: the results table in one of these forms; progress, warnings and
 * everything else go to stderr, so `gemmprof --format csv | ...` works. */
enum cli_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_MD };
/* --tune: whose plans (0: no tuning) */
enum cli_tune { CLI_TUNE_SIMT = 1, CLI_TUNE_TF32 = 2 };

struct cli_options {
    enum cli_action action;
    int variants[CLI_MAX_VARIANTS];
    int nvariants;
    struct shape shapes[CLI_MAX_SHAPES];
    int nshapes;
    int reps, warmups;
    int reps_given;              /* -r given: exactly that many, no time budget */
    int l2_flush;
    int counters;                /* collect hardware counters */
    int metrics[CLI_MAX_METRICS];/* metric ids: gp_metrics[] or extra (analysis/metrics.h) */
    int nmetrics;
    int device;
    int device_given;            /* --device given: it wins over the local rank */
    enum rank_mode mode;         /* --shard, --fleet, or RANK_SINGLE */
    const char *shard_costs;     /* --shard-costs: an earlier run's results.csv (NULL: by FLOPs) */
    unsigned long long seed;
    const char *out_dir;
    int dump_npy;
    int trace;
    int ceilings;                /* measure / load ceilings */
    int force_ceilings;
    int report;                  /* end with the report */
    enum cli_format format;      /* --format */
    int launch_facts;            /* capture grid, block, registers, occupancy (--no-launch-facts) */
    int tune;                    /* --tune MxNxK: time every plan of an auto variant at shapes[0]:
                                    CLI_TUNE_SIMT (src/tune.c) or CLI_TUNE_TF32 (src/tune_tf32.c) */
};

/* Parses argv into opts (defaults first). Returns 0, or -1 with a one-line message
 * naming the bad argument in err. */
int cli_parse(int argc, char **argv, struct cli_options *opts, char *err, size_t errlen);

/* Appends the shapes of one size spec to opts: "N" (square), "MxNxK", a comma list of
 * those, or ranges "A:B:xF" (geometric) and "A:B:+S" (arithmetic) of square sizes.
 * Returns 0 or -1 with err ("size 0 in '0': sizes must be >= 1"). */
int cli_parse_sizes(const char *spec, struct shape *shapes, int *nshapes, int max, char *err,
                    size_t errlen);

/* Bytes of A + B + C for a shape; -1 when it overflows. */
long long shape_bytes(const struct shape *s);

#include <stdio.h>
void cli_usage(FILE *f);
#endif

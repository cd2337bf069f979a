/* Rank awareness without MPI: the rank, world size and local rank a launcher (Slurm,
 * Open MPI, torchrun-style) puts in the environment, the GPU a rank picks, and the
 * --shard split of the variant x shape work list. Host-only: tested without a GPU. */
#ifndef GEMMPROF_SRC_RANKS_H
#define GEMMPROF_SRC_RANKS_H

#include <stddef.h>

enum rank_mode { RANK_SINGLE, RANK_SHARD, RANK_FLEET };

struct rank_info {
    int rank, world_size, local_rank;
    const char *source;   /* "slurm", "openmpi", "generic" or "none" (single process) */
};

/* getenv-like lookup, so tests can feed a fake environment. */
typedef const char *(*rank_getenv_fn)(const char *name, void *ctx);

/* Reads the launcher's variables. Precedence: Slurm (SLURM_PROCID, SLURM_NTASKS,
 * SLURM_LOCALID), then Open MPI (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK), then
 * RANK/WORLD_SIZE/LOCAL_RANK; the first launcher whose rank variable is set is used, and
 * then all three of its variables must be set. None set: rank 0 of 1. 0, or -1 with a
 * one-line reason (a malformed number, rank or local rank >= world size). */
int ranks_detect(rank_getenv_fn get, void *ctx, struct rank_info *ri, char *err, size_t errlen);
/* ranks_detect on the process environment. */
int ranks_from_env(struct rank_info *ri, char *err, size_t errlen);

/* The CUDA device index of a rank that gave no --device: local rank modulo the visible
 * device count (so one visible GPU per rank, as srun --gpus-per-task sets
 * CUDA_VISIBLE_DEVICES, gives device 0). -1 when visible < 1. */
int ranks_pick_device(int local_rank, int visible);

/* --shard: assigns each of n items of cost cost[i] to one of nranks ranks by greedy
 * longest-processing-time (largest cost first onto the least-loaded rank, ties to the
 * lower index, equal costs in item order), so every rank computes the same split
 * alone. owner[i] gets the rank; load[r] (may be NULL) the summed cost. 0, or -1 on bad
 * arguments or out of memory. */
int ranks_shard(const double *cost, int n, int nranks, int *owner, double *load);

/* --shard-costs: the expected cost of each work item from an earlier run of it. An item
 * is a variant at a shape; a prior is a row of an earlier results.csv with the GPU seconds
 * that row took (its median time x its launches: timed, warm-up, verify and counter
 * passes). An item with a prior costs those seconds; one without costs its FLOPs x the
 * median seconds per FLOP of the items that had one (its FLOPs alone when none had), so
 * a new variant or shape still lands somewhere sensible. cost[] gets n values; returns
 * how many items had a prior (the first prior of an item counts), or -1 on bad arguments
 * or out of memory. */
struct shard_item {
    const char *variant;
    long m, n, k;
};
struct shard_prior {
    const char *variant;
    long m, n, k;
    double seconds;   /* > 0 and finite, else the prior is ignored */
};
int ranks_costs(const struct shard_item *items, int n, const struct shard_prior *prior, int nprior,
                double *cost);
/* ranks_costs with an earlier run's rows as the priors: each verified row costs its median
 * time x its launches (1 verify + reps + warm-ups + counter passes). */
struct gp_result;
int ranks_costs_from_rows(const struct shard_item *items, int n, const struct gp_result *rows, int nrows,
                          double *cost);

/* A rank's results directory under --out: OUT/HOST-UUID (the GPU's UUID as device_open
 * reports it, "GPU-..."), or OUT/HOST-rankN when the UUID is empty. Characters other
 * than letters, digits, '.', '-' and '_' become '_', so no name escapes OUT. 0, or -1
 * when it does not fit in len. */
int ranks_dir_name(const char *out, const char *host, const char *uuid, int rank, char *buf, size_t len);

const char *rank_mode_name(enum rank_mode m);

#endif

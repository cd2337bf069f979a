/* The fleet check: the same sweep run on many GPUs (gemmprof --fleet, then merge), each
 * GPU's TFLOP/s against the fleet median, and the GPUs outside the noise band flagged
 * with the clock or counter that differs most. Host-only; rows come from a merged
 * results.csv (columns host, gpu_uuid, rank). */
#ifndef GEMMPROF_ANALYSIS_FLEET_H
#define GEMMPROF_ANALYSIS_FLEET_H

#include "analysis/results.h"

#define FLEET_MAX_GPUS     256
#define FLEET_MAX_VARIANTS 64
/* Noise band: a GPU is flagged when its median ratio to the fleet median lies more than
 * max(FLEET_BAND_MIN, FLEET_BAND_SPREADS x the median over the other GPUs of their rows'
 * median time spread) below 1. Its own spread does not widen its band: a GPU shared with
 * another process is both slow and noisy. It is called noisy when FLEET_BAND_SPREADS x its
 * own spread exceeds its band. */
#define FLEET_BAND_MIN     0.03
#define FLEET_BAND_SPREADS 3.0
/* A clock or counter is named as differing only when its median deviation from the
 * fleet median is at least this large. */
#define FLEET_CAUSE_MIN    0.02

/* One variant on one GPU. */
struct fleet_variant {
    char variant[32];
    long m, n, k;          /* the largest shape this GPU measured the variant at */
    double flop_per_s;     /* this GPU's FLOP/s there */
    double fleet_median;   /* the fleet's median FLOP/s there (NaN when no other GPU ran it) */
    double ratio;          /* median over the variant's shapes of FLOP/s / fleet median */
};

struct fleet_gpu {
    char host[64], uuid[64], rank[16];
    int nrows;             /* usable rows (status ok, FLOP/s > 0) */
    int ncompared;         /* of those, rows another GPU also measured */
    double ratio;          /* median over compared rows of FLOP/s / fleet median */
    double spread;         /* median time_spread of its rows; NaN when unknown */
    double band;           /* the noise band it is held to (from the other GPUs' spreads) */
    int noisy;             /* its own spread, x FLEET_BAND_SPREADS, exceeds the band */
    double sm_clock_hz;    /* median sm_clock_hz of its rows */
    int flagged;           /* ratio < 1 - band */
    char cause[96];        /* the clock or counter that differs most ("" when none does) */
    double cause_dev;      /* its median relative deviation from the fleet median */
    int nvariants;
    struct fleet_variant v[FLEET_MAX_VARIANTS];
};

struct fleet {
    int ngpus;
    int nflagged;
    struct fleet_gpu *gpu;  /* ngpus of them, in first-row order (free with fleet_free) */
};

/* Groups usable rows by host + gpu_uuid and compares each GPU with the fleet median at
 * the same variant and shape. Rows without a gpu_uuid count as one GPU named "". 0, or
 * -1 when out of memory or past FLEET_MAX_GPUS. */
int fleet_analyze(const struct gp_result *rows, int nrows, struct fleet *fl);
void fleet_free(struct fleet *fl);

/* The median of v[0..n) ignoring NaN (v is reordered); NaN when nothing is left. */
double fleet_median(double *v, int n);

#endif

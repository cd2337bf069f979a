/* The limits model beyond the memory and compute roofs, host-only: per result row, an
 * instruction-issue roof, a parallelism factor (SMs busy, wave tail) and, for a kernel
 * far below every limit, the warp-stall reasons that dominate. Every limit comes from a
 * counter, a launch attribute or a measured ceiling; README.md ("The limits model")
 * writes each formula out.
 *
 *   struct gp_roof ro;  roof_derive(&row, &cs, &ro);
 *   struct gp_limits li; limits_derive(&row, &ro, &machine, &li);
 *   li.limiter, li.allows, li.share, li.stall[0..nstalls) */
#ifndef GEMMPROF_ANALYSIS_LIMITS_H
#define GEMMPROF_ANALYSIS_LIMITS_H

#include "analysis/results.h"
#include "analysis/roofline.h"

/* What limits a row. The first five equal gp_level / GP_BOUND_COMPUTE. */
enum gp_limiter {
    GP_LIM_NONE = -1,
    GP_LIM_DRAM = GP_LEVEL_DRAM, GP_LIM_L2 = GP_LEVEL_L2, GP_LIM_L1 = GP_LEVEL_L1,
    GP_LIM_SHARED = GP_LEVEL_SHARED, GP_LIM_COMPUTE = GP_BOUND_COMPUTE,
    GP_LIM_ISSUE,        /* one warp instruction per SM sub-partition per cycle */
    GP_LIM_PARALLELISM,  /* idle SMs or a partial last wave take the largest cut */
    GP_LIM_LATENCY,      /* far below every limit: warps stalled, see the stall reasons */
    GP_LIM_COUNT
};
extern const char *const gp_limiter_name[GP_LIM_COUNT];   /* "dram" ... "latency" */

/* Below this share of what the roofs and the parallelism factor allow, the row gets the
 * latency verdict (when its stall reasons were collected). A verdict threshold, not a
 * fitted constant: "far below" is read as less than half. */
#define GP_LATENCY_BELOW 0.5
/* A parallelism factor under this names parallelism as the limiter: it takes away at
 * least a fifth of the roof (the same 0.8 the report reads as "limits it"). */
#define GP_PARALLEL_LIMITS 0.8
#define GP_STALL_TOP 3

/* Machine facts the model needs (results.json and the row's measured clock). */
struct gp_machine {
    int sm_count;              /* 0: unknown */
    int cc_major;              /* 0: unknown */
    double sm_clock_hz;        /* run median, used when a row has no clock of its own */
    double smem_per_sm;        /* bytes at the largest carveout (opt-in per block + 1 KiB
                                * reserved); NaN unknown */
};

struct gp_stall { int metric; double ratio, share; };   /* warps/issue and ratio / sum */

struct gp_limits {
    /* instruction issue */
    double inst_executed;      /* warp instructions; NaN unknown */
    double flop_per_inst;      /* flops_analytic / inst_executed */
    double subpartitions;      /* issue slots per SM per cycle: 4 from Volta on; NaN unknown */
    double clock_hz;           /* the row's SM clock, else the counters', else the run's */
    double issue_peak;         /* warp instructions per second: subpartitions x SMs x clock */
    double issue_roof;         /* flop/s the issue rate allows: flop_per_inst x issue_peak */
    double issue_active_pct;   /* ncu's issue-slot utilisation, % (evidence only) */
    /* parallelism */
    double blocks, sms, blocks_per_sm, waves;
    double sm_busy;            /* min(1, blocks / SMs) */
    double tail;               /* waves / ceil(waves) from one wave on; 1 below one wave */
    double parallel;           /* sm_busy x tail; NaN when the launch facts are unknown */
    double occupancy_pct, achieved_occupancy_pct;
    /* the verdict */
    int roof;                  /* binding roof: a gp_limiter up to GP_LIM_ISSUE, or NONE */
    double roof_allows;        /* flop/s of that roof */
    double roof_scale;         /* the part of it the launch can use: parallel for a roof of
                                * the SMs' own (compute, issue, L1, shared), 1 for DRAM and
                                * L2 (or when parallel is unknown) */
    double allows;             /* roof_allows x roof_scale: the lowest over the roofs */
    double achieved, share;    /* flop/s, achieved / allows */
    int limiter;               /* enum gp_limiter */
    int nstalls;               /* reasons known (all of them count in the shares) */
    double stall_sum;          /* sum of the known ratios, warps per issued instruction */
    struct gp_stall stall[GP_STALL_TOP];   /* the largest, largest first */
    int have_launch, have_issue, have_stalls;
};

/* Fills `out` from a row, its roofs and the machine. Missing inputs -> NaN / NONE. */
void limits_derive(const struct gp_result *r, const struct gp_roof *ro, const struct gp_machine *m,
                   struct gp_limits *out);

/* Plain words for a stall reason's metric id ("shared-memory (MIO) queue full"), and
 * its short name ("mio_throttle"); NULL for a metric that is not a stall reason. */
const char *limits_stall_words(int metric);
/* The change that shortens a stall reason, for a row under every roof; NULL when none is named. */
const char *limits_stall_next(int metric);
const char *limits_stall_name(int metric);
/* 1 for the metric ids of the stall reasons. */
int limits_is_stall(int metric);
/* The stall reasons in a fixed order: how many, and the metric id of the i-th. */
int limits_stall_count(void);
int limits_stall_metric(int i);

#endif

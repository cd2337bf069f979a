/* The diagnosis engine: per row, the causes the counters and launch facts show (the
 * rules of analysis/rules.def), each with its evidence, its fix and the speedup removing
 * it would buy, ranked against the binding roof.
 *
 *   struct gp_diagnosis d;  diagnose_row(&row, &roof, &limits, &machine, &d);
 *   d.top: the first finding: a cause (d.cause[0]) or, when no cause explains a quarter of
 *   the time nor makes a quarter of the binding roof's traffic, the binding roof itself
 *   (d.top_is_roof).
 *
 * Every estimate is "the limit without the cause": time-based causes (idle SMs, uneven
 * blocks, uncoalesced sectors, FP64, unfused FP32, divergence, barriers, occupancy) remove
 * their share of the time, traffic causes (bank conflicts, local memory) raise the roof
 * they inflate; either is capped by the roofs the fix leaves as they are. A cause's weight
 * is the share of the time it explains, 1 - 1/speedup; the roof's is the row's share of
 * its limit with the causes' excess traffic taken out. */
#ifndef GEMMPROF_ANALYSIS_DIAGNOSE_H
#define GEMMPROF_ANALYSIS_DIAGNOSE_H

#include <stdio.h>

#include "analysis/limits.h"
#include "analysis/results.h"
#include "analysis/roofline.h"

/* A cause is named before the roof when it explains at least this share of the time
 * (a speedup of a third or more). */
#define GP_DIAG_CAUSE_MIN 0.25
/* A cause whose own traffic makes up this share of the binding roof's bytes or more is
 * named before that roof whatever its estimated speedup: the roof is its doing. */
#define GP_DIAG_ROOF_TRAFFIC_MIN 0.25
/* Causes that would buy less than this speedup are not listed. */
#define GP_DIAG_GAIN_MIN 1.05

enum gp_rule {
#define RULE(id, cause, fix, gain, q1, o1, t1, q2, o2, t2, q3, o3, t3, q4, o4, t4, q5, o5, t5) GP_RULE_##id,
#include "analysis/rules.def"
#undef RULE
    GP_RULE_COUNT
};

struct gp_rule_info {
    const char *id, *cause, *fix;
};
extern const struct gp_rule_info gp_rules[GP_RULE_COUNT];

/* The evidence the rules read, per row; NaN where a counter or launch fact is missing. */
struct gp_evidence {
    double sm_busy;                         /* blocks / SMs, at most 1 */
    double tail;                            /* blocks per SM / its ceiling: the SMs' mean
                                             * work over the busiest one's (blocks >= SMs) */
    double waves, blocks_per_sm;
    double roof_share;                      /* achieved / the binding roof, unscaled */
    double occ_theoretical, occ_achieved;   /* % */
    double occ_without_limiter;             /* % the other block limits would allow */
    int occ_by_regs, occ_by_smem, occ_by_blocks;   /* binding block limits (ties: several) */
    double issue;                           /* issue slots busy, 0..1 */
    double warps_per_scheduler, stalls_per_issue;   /* resident warps, and all of them per issue */
    double warps_simt;                      /* warps_per_scheduler; NaN for tensor-core kernels
                                             * and where SMs sit idle */
    double barrier_share;                   /* of the stalled time */
    double smem_by_threads;                 /* 1: threads store the operands to shared memory (or
                                               unmeasured), 0: copies (cp.async, TMA) do */
    double latency_simt;                    /* long-scoreboard share of the stalled time;
                                             * NaN where warps_simt is */
    double ld_eff, st_eff;                  /* bytes asked for / 32 B per sector looked up */
    double ld_excess_sectors, st_excess_sectors;
    double local_ratio;                     /* local bytes asked for / global bytes moved */
    double local_hw_bytes;                  /* local traffic as the L2 sees it (estimate) */
    double local_l2_share;                  /* local_hw_bytes / the L2's bytes */
    double fp64_share;                      /* FP64 flops / 2mnk */
    double fp64_time;                       /* seconds the FP64 pipe and conversions need */
    double unfused;                         /* min(FADD, FMUL) thread instructions / mnk: the
                                             * GEMM's multiply-adds that issue as two */
    double unfused_removed;                 /* those FMULs' share of all thread instructions */
    double lanes;                           /* active lanes per warp instruction / 32 */
    double balance;                         /* SM active cycles, the mean over the busiest SM's */
    double balance_beyond;                  /* balance over what the blocks per SM explain
                                             * (parallel): blocks of unequal work */
    double conflict_ratio;                  /* conflict wavefronts / shared wavefronts */
    int tensor;                             /* the counters saw tensor-core work */
    double time, clock_hz, sms;
    int cc_major;
};

struct gp_cause {
    int rule;               /* enum gp_rule */
    double value;           /* the first clause's quantity, the evidence */
    double speedup;         /* estimated, >= 1 */
    double weight;          /* share of the time it explains: 1 - 1/speedup */
};

struct gp_diagnosis {
    struct gp_evidence ev;
    int ncauses;
    struct gp_cause cause[GP_RULE_COUNT];   /* heaviest first */
    int roof;                /* the binding roof (gp_limiter), or GP_LIM_NONE */
    double roof_share;       /* achieved / that roof, the causes' excess traffic taken out */
    int top_is_roof;         /* no cause reaches GP_DIAG_CAUSE_MIN or GP_DIAG_ROOF_TRAFFIC_MIN */
};

/* The quantities the rules test, in rules.def's Q_ names. */
enum gp_quantity {
    Q_ALWAYS, Q_SM_BUSY, Q_TAIL, Q_BALANCE, Q_LD_EFF, Q_ST_EFF, Q_CONFLICT, Q_LOCAL, Q_FP64, Q_UNFUSED, Q_LANES,
    Q_BAR_SHARE, Q_SMEM_BY_THREADS, Q_ISSUE, Q_OCC_BY_SMEM, Q_OCC_BY_REGS, Q_OCC_BY_BLOCKS, Q_WARPS_SIMT, Q_LATENCY, Q_ROOF_SHARE, Q_COUNT
};
double diagnose_quantity(const struct gp_evidence *ev, int q);
/* 1 when every clause of rule (enum gp_rule) holds on ev. */
int diagnose_rule_holds(const struct gp_evidence *ev, int rule);

void diagnose_evidence(const struct gp_result *r, const struct gp_roof *ro, const struct gp_limits *li,
                       const struct gp_machine *m, struct gp_evidence *ev);
void diagnose_row(const struct gp_result *r, const struct gp_roof *ro, const struct gp_limits *li,
                  const struct gp_machine *m, struct gp_diagnosis *d);
/* diagnose_row for row i of ds, with the machine facts of its results.json. */
struct gp_dataset;
void diagnose_dataset_row(const struct gp_dataset *ds, int i, const struct gp_roof *ro, const struct gp_limits *li,
                          struct gp_diagnosis *d);

/* The top finding's id: a rule's id, or "bound_<limiter>" ("bound_dram", ...) when the
 * roof comes first; "none" without data. */
const char *diagnose_top_id(const struct gp_diagnosis *d);

/* Cause i of d in words with its numbers ("global loads use 12% of the bytes ..."); r is
 * the row d was made from. */
void diagnose_evidence_text(const struct gp_diagnosis *d, int i, const struct gp_result *r, char *buf, size_t len);

/* One line per usable row of ds: variant, shape, the top finding's id, the binding roof
 * and the row's share of it, and every cause as id:speedup(evidence); tab-separated, with
 * a header. 0, or -1 with the reason in err. */
int diagnose_write(const struct gp_dataset *ds, FILE *f, char *err, size_t errlen);

#endif

/* The findings layer: every conclusion the report draws, as typed structs, computed
 * once from the rows, the roofs and the limits model. report.c only renders these;
 * tests check them, not sentences.
 *
 *   struct gp_findings F;
 *   findings_build(ds, roofs, usable, &F);     roofs/usable: one per row (report.c's)
 *   F.row[i].lim.limiter, F.step[k].verdict, F.hist_new[b] ...
 *   findings_free(&F); */
#ifndef GEMMPROF_ANALYSIS_FINDINGS_H
#define GEMMPROF_ANALYSIS_FINDINGS_H

#include "analysis/dataset.h"
#include "analysis/limits.h"
#include "analysis/roofline.h"

/* Bank-conflict wavefronts / load wavefronts at or above this are an anomaly. */
#define GP_CONFLICT_SIG 0.10
/* Read sectors the L2 Request Coalescer merged / the L2 demand (lookups + merged) at or
 * above this are worth saying: the L2 bytes then move with how closely the SMs run in step. */
#define GP_L2_MERGED_SIG 0.10
/* Without the runs' spread, a step is "explained by the change of limit" only when the
 * measured speedup is within this factor of the predicted one. */
#define GP_STEP_TOL_DEFAULT 0.02

enum gp_anomaly { GP_ANOM_BANK_CONFLICTS = 1, GP_ANOM_IDLE_SMS = 2, GP_ANOM_TAIL = 4, GP_ANOM_L2_MERGED = 8 };

struct gp_row_finding {
    int usable;                 /* verified, with a time: the only rows with findings */
    int has_counters;
    struct gp_limits lim;
    double share_old;           /* today's model: achieved / min(memory, compute roofs) */
    double conflict_ratio;      /* shared load bank conflicts / load wavefronts; NaN */
    double l2_merged_bytes;     /* 32 B x the read sectors the L2 Request Coalescer merged; NaN */
    double l2_merged_ratio;     /* l2_merged_bytes / (L2 bytes + l2_merged_bytes); NaN */
    unsigned anomalies;         /* enum gp_anomaly bits; the causes are analysis/diagnose.h's */
};

enum gp_step_verdict {
    GP_STEP_UNKNOWN,            /* a limit missing on either side */
    GP_STEP_EXPLAINED,          /* measured within the tolerance of the predicted factor */
    GP_STEP_ABOVE,              /* gains more than the limits predict: it reaches more of its limit */
    GP_STEP_BELOW,              /* gains less than the limits allow */
};

/* A counter a step can move, per FMA so different shapes and variants compare. */
enum gp_step_counter { GP_SC_DRAM, GP_SC_L2, GP_SC_L1, GP_SC_SHARED, GP_SC_INST, GP_SC_COUNT };
extern const char *const gp_step_counter_name[GP_SC_COUNT];   /* "DRAM bytes", ... "warp instructions" */

struct gp_step_finding {
    int from, to;               /* row indexes: the variant and the next one at the same shape */
    int comparable;             /* both rows usable */
    double speedup;             /* time(from) / time(to) */
    double predicted;           /* allows(to) / allows(from), the limits model */
    double tolerance;           /* relative: spread(from) + spread(to), or GP_STEP_TOL_DEFAULT */
    int verdict;                /* enum gp_step_verdict */
    int limiter_from, limiter_to;
    int binding_level;          /* the memory level that binds `from` (else `to`); -1 neither */
    int binding_level_to;       /* the one that binds `to` (else binding_level): a step that
                                 * moves the traffic to another level (naive's L1 to tiled's
                                 * shared memory) compares each side's own binding bytes */
    double binding_factor;      /* bytes per FMA, from's at binding_level over to's at
                                 * binding_level_to (> 1: cut) */
    int moved;                  /* the counter per FMA that changed most among those that can
                                 * bind either side (gp_step_counter), -1 */
    double moved_factor;        /* its from / to */
};

/* Today's (roofs only) and the new model's shares, in these buckets. */
#define GP_SHARE_BUCKETS 6
extern const double gp_share_bucket_hi[GP_SHARE_BUCKETS];   /* upper edges: 0.3 0.5 0.7 0.9 1.05 inf */

struct gp_findings {
    int nrows;
    struct gp_row_finding *row;
    int nsteps;
    struct gp_step_finding *step;
    int *step_of;               /* per row: its step in `step` (to the next variant), or -1 */
    int hist_old[GP_SHARE_BUCKETS], hist_new[GP_SHARE_BUCKETS];
    int n_old, n_new;           /* rows with a share under each model */
    int rows_launch, rows_issue, rows_stalls;   /* usable rows with those facts */
    int n_usable;
};

/* The machine facts of a dataset (results.json), for limits_derive. */
void findings_machine(const struct gp_dataset *ds, struct gp_machine *m);

/* 0, or -1 when out of memory. roofs and usable are per row, as report.c derives them
 * (cleaned values; rows without counters have no bound). */
int findings_build(const struct gp_dataset *ds, const struct gp_roof *roofs, const unsigned char *usable,
                   struct gp_findings *F);
void findings_free(struct gp_findings *F);

/* One step's verdict from its numbers: exposed so the rule itself is tested. */
int findings_step_verdict(double speedup, double predicted, double tolerance);

#endif

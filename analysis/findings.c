/* The findings layer (see analysis/findings.h): per-row limiter and evidence, ladder
 * steps, anomalies and the share distributions, computed once for report.c (the causes
 * and their fixes are analysis/diagnose.h's). */
#include "analysis/findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/row_index.h"

const char *const gp_step_counter_name[GP_SC_COUNT] = {"DRAM bytes", "L2 bytes", "L1 bytes",
                                                       "shared-memory bytes", "warp instructions"};
const double gp_share_bucket_hi[GP_SHARE_BUCKETS] = {0.3, 0.5, 0.7, 0.9, 1.05, INFINITY};

void findings_machine(const struct gp_dataset *ds, struct gp_machine *m)
{
    memset(m, 0, sizeof *m);
    m->sm_clock_hz = m->smem_per_sm = NAN;
    if (!ds->have_meta)
        return;
    if (ds->meta.smem_per_block_optin_bytes > 0)
        m->smem_per_sm = ds->meta.smem_per_block_optin_bytes + 1024;
    m->sm_count = ds->meta.sm_count > 0 ? ds->meta.sm_count : 0;
    m->cc_major = ds->meta.cc_major > 0 ? ds->meta.cc_major : 0;
    m->sm_clock_hz = ds->meta.sm_clock_measured_hz;
}

int findings_step_verdict(double speedup, double predicted, double tolerance)
{
    if (!(speedup > 0) || !(predicted > 0) || !isfinite(speedup) || !isfinite(predicted) ||
        !(tolerance >= 0))
        return GP_STEP_UNKNOWN;
    double r = speedup / predicted;
    if (fabs(r - 1.0) <= tolerance)
        return GP_STEP_EXPLAINED;
    return r > 1.0 ? GP_STEP_ABOVE : GP_STEP_BELOW;
}

static int bucket(double share)
{
    for (int b = 0; b < GP_SHARE_BUCKETS; b++)
        if (share < gp_share_bucket_hi[b])
            return b;
    return GP_SHARE_BUCKETS - 1;
}

/* Per FMA (m n k of them): counter c of a row, NaN when not collected. */
static double per_fma(const struct gp_roof *ro, const struct gp_limits *li, int c)
{
    double v = c == GP_SC_INST ? li->inst_executed : ro->bytes[c];
    return v / (ro->flops_analytic / 2.0);
}

static void row_finding(const struct gp_result *r, const struct gp_roof *ro, const struct gp_machine *m,
                        struct gp_row_finding *f)
{
    limits_derive(r, ro, m, &f->lim);
    f->share_old = ro->bound_share;
    double wf = r->metric[GP_M_smem_ld_wf], cf = r->metric[GP_M_smem_ld_confl];
    f->conflict_ratio = wf > 0 && cf >= 0 ? cf / wf : NAN;
    /* the coalescer merges reads of one sector by several SMs before the L2 lookup, so the
     * L2 bytes (lookups) are the demand minus these */
    double l2 = r->metric[GP_M_l2_bytes], merged = 32.0 * r->metric[GP_M_l2_merged];
    f->l2_merged_bytes = merged >= 0 ? merged : NAN;
    f->l2_merged_ratio = l2 >= 0 && merged >= 0 && l2 + merged > 0 ? merged / (l2 + merged) : NAN;
    f->anomalies = 0;
    if (f->l2_merged_ratio >= GP_L2_MERGED_SIG)
        f->anomalies |= GP_ANOM_L2_MERGED;
    if (f->conflict_ratio >= GP_CONFLICT_SIG)
        f->anomalies |= GP_ANOM_BANK_CONFLICTS;
    if (f->lim.sm_busy < 1.0)
        f->anomalies |= GP_ANOM_IDLE_SMS;
    if (f->lim.waves >= 1 && f->lim.tail < GP_PARALLEL_LIMITS)
        f->anomalies |= GP_ANOM_TAIL;
}

static void step_finding(const struct gp_dataset *ds, const struct gp_roof *roofs,
                         const struct gp_findings *F, int i, int j, struct gp_step_finding *s)
{
    const struct gp_result *a = &ds->rows[i], *b = &ds->rows[j];
    const struct gp_row_finding *fa = &F->row[i], *fb = &F->row[j];
    const struct gp_roof *ra = &roofs[i], *rb = &roofs[j];
    memset(s, 0, sizeof *s);
    s->from = i;
    s->to = j;
    s->comparable = fa->usable && fb->usable;
    s->speedup = s->predicted = s->tolerance = s->binding_factor = s->moved_factor = NAN;
    s->limiter_from = fa->lim.limiter;
    s->limiter_to = fb->lim.limiter;
    s->binding_level = s->binding_level_to = s->moved = -1;
    s->verdict = GP_STEP_UNKNOWN;
    if (!s->comparable)
        return;
    s->speedup = a->time_median_s / b->time_median_s;
    s->predicted = fb->lim.allows / fa->lim.allows;
    /* the runs' own spread: a step within it cannot be told from "as predicted" */
    double sa = a->time_spread, sb = b->time_spread;
    s->tolerance = isfinite(sa) && isfinite(sb) && sa >= 0 && sb >= 0 ? sa + sb : GP_STEP_TOL_DEFAULT;
    s->verdict = findings_step_verdict(s->speedup, s->predicted, s->tolerance);
    /* the traffic that matters is the binding level's, not the one that changed most */
    int la = ra->bound_level, lb = rb->bound_level;
    s->binding_level = la >= 0 && la < GP_LEVEL_COUNT ? la : lb >= 0 && lb < GP_LEVEL_COUNT ? lb : -1;
    s->binding_level_to = lb >= 0 && lb < GP_LEVEL_COUNT ? lb : s->binding_level;
    if (s->binding_level >= 0)
        s->binding_factor = per_fma(ra, &fa->lim, s->binding_level) / per_fma(rb, &fb->lim, s->binding_level_to);
    /* the counter that moved most among those that can bind either side: the binding
     * levels' traffic, and warp instructions where issue limits (DRAM bytes that moved 10x
     * on a step whose DRAM roof is 20x away said nothing) */
    for (int c = 0; c < GP_SC_COUNT; c++) {
        int relevant = c == s->binding_level || c == s->binding_level_to ||
                       (c == GP_SC_INST && (fa->lim.limiter == GP_LIM_ISSUE || fb->lim.limiter == GP_LIM_ISSUE ||
                                            fa->lim.roof == GP_LIM_ISSUE || fb->lim.roof == GP_LIM_ISSUE));
        if (!relevant)
            continue;
        double x = per_fma(ra, &fa->lim, c), y = per_fma(rb, &fb->lim, c);
        if (!(x > 0) || !(y > 0) || !isfinite(x / y))
            continue;
        if (s->moved < 0 || fabs(log(x / y)) > fabs(log(s->moved_factor))) {
            s->moved = c;
            s->moved_factor = x / y;
        }
    }
}

static int row_has_counters(const struct gp_result *r)
{
    static const int any[] = {GP_M_dram_read, GP_M_l2_bytes, GP_M_l1_bytes, GP_M_smem_ld_wf, GP_M_ffma};
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++)
        if (isfinite(r->metric[any[i]]) && r->metric[any[i]] >= 0)
            return 1;
    return 0;
}

int findings_build(const struct gp_dataset *ds, const struct gp_roof *roofs, const unsigned char *usable,
                   struct gp_findings *F)
{
    memset(F, 0, sizeof *F);
    size_t n = (size_t)(ds->nrows > 0 ? ds->nrows : 0) + 1;
    F->row = calloc(n, sizeof *F->row);
    F->step = calloc(n, sizeof *F->step);
    F->step_of = calloc(n, sizeof *F->step_of);
    if (!F->row || !F->step || !F->step_of) {
        findings_free(F);
        return -1;
    }
    F->nrows = ds->nrows;
    struct gp_machine m;
    findings_machine(ds, &m);
    for (int i = 0; i < ds->nrows; i++) {
        struct gp_row_finding *f = &F->row[i];
        f->usable = usable[i];
        f->has_counters = row_has_counters(&ds->rows[i]);
        row_finding(&ds->rows[i], &roofs[i], &m, f);
        if (!f->usable)
            continue;
        F->n_usable++;
        F->rows_launch += f->lim.have_launch;
        F->rows_issue += f->lim.have_issue;
        F->rows_stalls += f->lim.have_stalls;
        if (isfinite(f->share_old)) {
            F->hist_old[bucket(f->share_old)]++;
            F->n_old++;
        }
        if (isfinite(f->lim.share)) {
            F->hist_new[bucket(f->lim.share)]++;
            F->n_new++;
        }
    }
    /* ladder steps: each row to the next row of another variant at its shape */
    struct row_groups shapes, vars;
    if (row_groups_build(ds->rows, ds->nrows, ROW_KEY_SHAPE, &shapes) ||
        row_groups_build(ds->rows, ds->nrows, ROW_KEY_VARIANT, &vars)) {
        row_groups_free(&shapes);
        row_groups_free(&vars);
        findings_free(F);
        return -1;
    }
    for (int i = 0; i < ds->nrows; i++) {
        int cnt, j = -1, lo = 0, hi;
        const int *idx = row_group(&shapes, shapes.group_of[i], &cnt);
        /* the group is in table order: find i by bisection, then the next other variant,
         * so a shape of 100,000 rows costs no more than a small one */
        for (hi = cnt; lo < hi;) {
            int mid = lo + (hi - lo) / 2;
            if (idx[mid] <= i)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int k = lo; k < cnt && j < 0; k++)
            if (vars.group_of[idx[k]] != vars.group_of[i])
                j = idx[k];
        F->step_of[i] = -1;
        if (j >= 0) {
            step_finding(ds, roofs, F, i, j, &F->step[F->nsteps]);
            F->step_of[i] = F->nsteps++;
        }
    }
    row_groups_free(&shapes);
    row_groups_free(&vars);
    return 0;
}

void findings_free(struct gp_findings *F)
{
    free(F->row);
    free(F->step);
    free(F->step_of);
    F->step_of = NULL;
    F->row = NULL;
    F->step = NULL;
}

/* The limits model, the findings layer and the claims module, checked as structs.
 * tests/data/insight_crafted has a one-wave-short, an issue-bound, a stall-dominated and a
 * bank-conflicted kernel (see its README.md): each must come out as it was built. The
 * recorded H200 run (tests/data/h200_da80385, no launch facts or stalls) must keep its roof verdicts.
 * And the two report errors of issue 10 must not come back: a step is not "explained"
 * outside the runs' spread, and a step's traffic is the binding level's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/claims.h"
#include "analysis/dataset.h"
#include "analysis/diagnose.h"
#include "analysis/findings.h"
#include "analysis/limits.h"
#include "analysis/report.h"
#include "tests/test.h"

struct loaded {
    struct gp_dataset ds;
    struct gp_roof *roof;
    unsigned char *usable;
    struct gp_findings F;
};

/* As report.c derives them: roofs from the ceilings, usable = ok with a time. */
static int derive(struct loaded *L)
{
    int n = L->ds.nrows;
    L->roof = calloc((size_t)n + 1, sizeof *L->roof);
    L->usable = calloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) {
        const struct gp_result *r = &L->ds.rows[i];
        roof_derive(r, L->ds.have_ceilings ? &L->ds.ceilings : NULL, &L->roof[i]);
        L->usable[i] = r->status == GP_STATUS_OK && r->time_median_s > 0;
    }
    return findings_build(&L->ds, L->roof, L->usable, &L->F);
}

/* The diagnosis engine's top finding for row i (analysis/diagnose.h), as report.c makes it. */
static const char *top_of(const struct loaded *L, int i)
{
    static struct gp_diagnosis d;
    diagnose_dataset_row(&L->ds, i, &L->roof[i], &L->F.row[i].lim, &d);
    return diagnose_top_id(&d);
}

static int load(const char *dir, struct loaded *L)
{
    char err[512];
    memset(L, 0, sizeof *L);
    if (dataset_load(dir, &L->ds, err, sizeof err)) {
        printf("dataset_load(%s): %s\n", dir, err);
        return -1;
    }
    return derive(L);
}

static void unload(struct loaded *L)
{
    findings_free(&L->F);
    free(L->roof);
    free(L->usable);
    dataset_free(&L->ds);
}

/* The metric id of a stall reason, by ncu's name (-1 when analysis/metrics.def lacks it). */
static int stall_id(const char *reason)
{
    char name[128];
    snprintf(name, sizeof name, "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio", reason);
    return gp_metric_find(name);
}

/* 1 when the line that starts at `line` holds `needle`. */
static int in_line(const char *line, const char *needle)
{
    const char *eol = strchr(line, '\n'), *hit = strstr(line, needle);
    return hit && (!eol || hit < eol);
}

/* The report of a loaded dataset, as a malloc'd string ("" when it could not be written). */
static char *render_text(const struct gp_dataset *ds)
{
    char tmp[] = "/tmp/gp_test_findings.XXXXXX", path[128], err[512];
    char *text = calloc(1, 1 << 20);
    if (!text || !mkdtemp(tmp))
        return text;
    snprintf(path, sizeof path, "%s/report.md", tmp);
    /* the report and its detail file, one after the other */
    size_t got = 0;
    if (report_write(ds, path, 1, NULL, err, sizeof err) != 0)
        printf("report_write: %s\n", err);
    for (int f = 0; f < 2; f++) {
        if (f)
            snprintf(path, sizeof path, "%s/report-detail.md", tmp);
        FILE *fp = fopen(path, "r");
        if (fp) {
            got += fread(text + got, 1, (1 << 20) - 1 - got, fp);
            fclose(fp);
        }
        unlink(path);
    }
    text[got] = '\0';
    rmdir(tmp);
    return text;
}

static int row_of(const struct gp_dataset *ds, const char *variant, long n)
{
    for (int i = 0; i < ds->nrows; i++)
        if (strcmp(ds->rows[i].variant, variant) == 0 && ds->rows[i].m == n && ds->rows[i].n == n &&
            ds->rows[i].k == n)
            return i;
    return -1;
}

static void test_crafted(void)
{
    struct loaded L;
    if (load("tests/data/insight_crafted", &L)) {
        CHECK(0, "insight_crafted loads");
        return;
    }
    const double issue_peak = 4.0 * 132 * 1.755e9;
    int a = row_of(&L.ds, "oneshort", 1024), b = row_of(&L.ds, "issuebound", 1024);
    int c = row_of(&L.ds, "stalled", 1024), d = row_of(&L.ds, "conflicted", 1024);
    CHECK(a >= 0 && b >= 0 && c >= 0 && d >= 0, "the four crafted rows are there");
    if (a < 0 || b < 0 || c < 0 || d < 0) {
        unload(&L);
        return;
    }
    CHECK(L.F.rows_launch == 4 && L.F.rows_issue == 4 && L.F.rows_stalls == 4,
          "launch facts, issue and stalls known for every row (%d %d %d)", L.F.rows_launch,
          L.F.rows_issue, L.F.rows_stalls);

    const struct gp_row_finding *f = &L.F.row[a];
    CHECK(f->lim.limiter == GP_LIM_PARALLELISM, "one wave short: parallelism limits it (got %s)",
          f->lim.limiter >= 0 ? gp_limiter_name[f->lim.limiter] : "none");
    CHECK(f->lim.roof == GP_LIM_SHARED, "one wave short: under the shared-memory roof");
    CHECK_NEAR(f->lim.sm_busy, 64.0 / 132, 1e-9, "one wave short: 64 of 132 SMs busy");
    CHECK_NEAR(f->lim.waves, 64.0 / 264, 1e-6, "one wave short: 0.242 waves");
    CHECK_NEAR(f->lim.allows, 40e12 * 64 / 132, 1e-6, "one wave short: allows 40 TFLOP/s x 64/132");
    CHECK_NEAR(f->lim.share, 0.93, 1e-6, "one wave short: 93%% of what it allows");
    CHECK_NEAR(f->share_old, 0.93 * 64 / 132, 1e-6, "one wave short: 45%% of the roofs-only bound");
    CHECK((f->anomalies & GP_ANOM_IDLE_SMS) && strcmp(top_of(&L, a), "few_blocks") == 0,
          "one wave short: idle SMs flagged, diagnosis few_blocks (%s)", top_of(&L, a));

    f = &L.F.row[b];
    CHECK(f->lim.limiter == GP_LIM_ISSUE && f->lim.roof == GP_LIM_ISSUE, "issue-bound: issue limits it");
    CHECK_NEAR(f->lim.flop_per_inst, 20, 1e-6, "issue-bound: 20 FLOP per warp instruction");
    CHECK_NEAR(f->lim.issue_roof, 20 * issue_peak, 1e-6, "issue-bound: roof = 20 x 4 x 132 x clock");
    CHECK_NEAR(f->lim.share, 0.9, 1e-6, "issue-bound: 90%% of the issue roof");
    CHECK_NEAR(f->lim.parallel, 1.0, 1e-12, "issue-bound: 4 full waves, nothing idle");
    CHECK(strcmp(top_of(&L, b), "bound_issue") == 0, "issue-bound: diagnosis bound_issue (%s)", top_of(&L, b));

    f = &L.F.row[c];
    double sum = 17.85 + 7.00 + 3.01 + 2.89 + 0.5 + 0.5 + 1.0 + 0.1 + 10 * 0.01;
    CHECK(f->lim.limiter == GP_LIM_LATENCY && f->lim.roof == GP_LIM_SHARED,
          "stall-dominated: the latency verdict under the shared roof");
    CHECK(f->lim.nstalls == 18, "stall-dominated: all 18 reasons read (%d)", f->lim.nstalls);
    CHECK_NEAR(f->lim.stall_sum, sum, 1e-9, "stall-dominated: the ratios' sum");
    CHECK(f->lim.stall[0].metric == stall_id("mio_throttle") && f->lim.stall[1].metric == stall_id("not_selected") &&
              f->lim.stall[2].metric == stall_id("long_scoreboard"),
          "stall-dominated: top three mio_throttle, not_selected, long_scoreboard (ncu's order)");
    CHECK_NEAR(f->lim.stall[0].share, 17.85 / sum, 1e-9, "stall-dominated: mio_throttle's share");
    CHECK_NEAR(f->lim.stall[2].share, 3.01 / sum, 1e-9, "stall-dominated: long_scoreboard's share");
    CHECK(strcmp(top_of(&L, c), "bound_shared") == 0,
          "stall-dominated on mio_throttle, which no rule reads: the roof comes first (%s)", top_of(&L, c));

    f = &L.F.row[d];
    CHECK(f->lim.limiter == GP_LIM_SHARED, "conflicted: shared memory limits it");
    CHECK_NEAR(f->conflict_ratio, 0.4, 1e-9, "conflicted: 40%% bank conflicts");
    CHECK((f->anomalies & GP_ANOM_BANK_CONFLICTS) && strcmp(top_of(&L, d), "bank_conflicts") == 0,
          "conflicted: anomaly flagged, diagnosis bank_conflicts (%s)", top_of(&L, d));

    CHECK(L.F.n_old == 4 && L.F.n_new == 4, "shares under both models for every row");

    /* bank conflicts where shared memory does not bind (an issue-bound row): an anomaly,
     * but the advice stays the limiter's (on the H200 wgmma_rs, tensor-bound at 82% of the
     * ceiling with 25% conflicts, was told to pad its shared memory) */
    L.ds.rows[b].metric[GP_M_smem_ld_confl] = 0.4 * L.ds.rows[b].metric[GP_M_smem_ld_wf];
    findings_free(&L.F);
    if (findings_build(&L.ds, L.roof, L.usable, &L.F) == 0) {
        f = &L.F.row[b];
        CHECK((f->anomalies & GP_ANOM_BANK_CONFLICTS) && f->lim.limiter == GP_LIM_ISSUE &&
                  strcmp(top_of(&L, b), "bound_issue") == 0,
              "issue-bound with 40%% bank conflicts: flagged, but shared memory does not bind: bound_issue (%s)",
              top_of(&L, b));
    }
    L.ds.rows[b].metric[GP_M_smem_ld_confl] = 0;

    /* idle SMs and bank conflicts together: the idle SMs come first (they scale every limit) */
    L.ds.rows[a].metric[GP_M_smem_ld_confl] = 0.4 * L.ds.rows[a].metric[GP_M_smem_ld_wf];
    findings_free(&L.F);
    if (findings_build(&L.ds, L.roof, L.usable, &L.F) == 0) {
        f = &L.F.row[a];
        CHECK((f->anomalies & GP_ANOM_IDLE_SMS) && (f->anomalies & GP_ANOM_BANK_CONFLICTS) &&
                  strcmp(top_of(&L, a), "few_blocks") == 0,
              "idle SMs and bank conflicts: both flagged, few_blocks first (%s)", top_of(&L, a));
    }
    L.ds.rows[a].metric[GP_M_smem_ld_confl] = 0;
    findings_free(&L.F);
    findings_build(&L.ds, L.roof, L.usable, &L.F);

    /* the L2 Request Coalescer: 60 MB merged against 240 MB of lookups is 20% of the demand,
     * flagged and said; 20 MB against 240 is 7.7%, below GP_L2_MERGED_SIG; none collected: NaN */
    CHECK(isnan(L.F.row[b].l2_merged_ratio) && !(L.F.row[b].anomalies & GP_ANOM_L2_MERGED),
          "no merged count in the crafted CSV: ratio NaN, nothing flagged");
    L.ds.rows[b].metric[GP_M_l2_bytes] = 240e6;
    L.ds.rows[b].metric[GP_M_l2_merged] = 60e6 / 32;
    L.ds.rows[c].metric[GP_M_l2_bytes] = 240e6;
    L.ds.rows[c].metric[GP_M_l2_merged] = 20e6 / 32;
    findings_free(&L.F);
    if (findings_build(&L.ds, L.roof, L.usable, &L.F) == 0) {
        CHECK_NEAR(L.F.row[b].l2_merged_ratio, 0.2, 1e-12, "60 MB merged, 240 MB looked up: 20%% of the demand");
        CHECK(L.F.row[b].anomalies & GP_ANOM_L2_MERGED, "20%% merged: flagged");
        CHECK_NEAR(L.F.row[c].l2_merged_ratio, 20.0 / 260, 1e-12, "20 MB merged, 240 MB looked up: 7.7%%");
        CHECK(!(L.F.row[c].anomalies & GP_ANOM_L2_MERGED), "7.7%% merged: not flagged");
        char *t = render_text(&L.ds);
        CHECK(t && strstr(t, "The L2 Request Coalescer merged 20.0% of its L2 demand (60.0 of 300 MB)") &&
                  !strstr(t, "merged 7.69%"),
              "report: the 20%% row's paragraph says what the coalescer merged; the 7.7%% row's does not");
        free(t);
    }
    L.ds.rows[b].metric[GP_M_l2_merged] = L.ds.rows[c].metric[GP_M_l2_merged] = NAN;
    findings_free(&L.F);
    findings_build(&L.ds, L.roof, L.usable, &L.F);

    /* rendered: each crafted row's table line carries its limiter and evidence */
    char *text = render_text(&L.ds);
    const char *one = text ? strstr(text, "| 1024x1024x1024 | 18.0 | parallelism (shared memory roof x 48.5% busy) | 19.4 | 93.0% |") : NULL;
    CHECK(one && in_line(one, "64 blocks on 132 SMs: 0.242 waves, 51.5% of SMs idle"),
          "report: the one-wave-short row says 64 blocks on 132 SMs, 51.5%% idle");
    const char *st = text ? strstr(text, "| 1024x1024x1024 | 10.0 | latency") : NULL;
    CHECK(st && in_line(st, "54.2% of stalls on mio_throttle"), "report: the stalled row names mio_throttle, 54.2%%");
    CHECK(text && strstr(text, "| + issue, parallelism | 1 | 0 | 1 |"), "report: the share distribution after");
    free(text);
    CHECK(L.F.hist_old[1] == 2 && L.F.hist_old[0] == 1 && L.F.hist_old[2] == 1,
          "roofs-only shares: 0.25 | 0.45, 0.42 | 0.6");
    CHECK(L.F.hist_new[0] == 1 && L.F.hist_new[2] == 1 && L.F.hist_new[3] + L.F.hist_new[4] == 2,
          "new shares: 0.25 | 0.6 | 0.90, 0.93");

    /* the steps in row order: oneshort -> issuebound -> stalled -> conflicted */
    CHECK(L.F.nsteps == 3 && L.F.step_of[a] == 0 && L.F.step_of[d] == -1, "three ladder steps");
    const struct gp_step_finding *s = &L.F.step[L.F.step_of[a]];
    CHECK(s->to == b && s->limiter_from == GP_LIM_PARALLELISM && s->limiter_to == GP_LIM_ISSUE,
          "step oneshort -> issuebound: limiter parallelism -> issue");
    CHECK(s->moved == GP_SC_INST && s->moved_factor < 1, "step: warp instructions per FMA moved most (up)");
    CHECK_NEAR(s->tolerance, 0.02, 1e-9, "step tolerance: the two runs' spreads, 1%% + 1%%");
    unload(&L);
}

/* limits_derive on rows built here: the edges of the parallelism factor and of the verdicts. */
static void test_limits_edges(void)
{
    struct gp_machine m = {132, 9, 1.8e9, NAN};
    struct gp_result r;
    struct gp_roof ro;
    struct gp_limits li;
    gp_result_init(&r);
    strcpy(r.precision, "fp32");
    r.m = r.n = r.k = 4096;
    r.status = GP_STATUS_OK;
    memset(&ro, 0, sizeof ro);
    ro.flops_analytic = 2.0 * 4096 * 4096 * 4096;
    ro.bound_level = GP_LEVEL_SHARED;
    ro.bound_attainable = 40e12;
    ro.achieved = 20e12;
    ro.peak_compute = 60e12;
    for (int l = 0; l < GP_LEVEL_COUNT; l++)
        ro.ai[l] = ro.roof_bw[l] = NAN;   /* no bytes counted but shared memory's */
    ro.ai[GP_LEVEL_SHARED] = 1.0;       /* 1 FLOP/B at 40 TB/s: 40 TFLOP/s */
    ro.roof_bw[GP_LEVEL_SHARED] = 40e12;

    /* 2 blocks resident per SM, 396 blocks: 1.5 waves, but 3 blocks per SM, even work */
    r.blocks = 396;
    r.blocks_per_sm = 2;
    limits_derive(&r, &ro, &m, &li);
    CHECK_NEAR(li.waves, 1.5, 1e-12, "396 blocks, 2 per SM on 132 SMs: 1.5 waves");
    CHECK_NEAR(li.tail, 1.0, 1e-12, "1.5 waves of 2 blocks an SM: 3 blocks on every SM, tail 1 (was 0.75 by waves)");
    /* one block per SM, 198 blocks: 1.5 blocks per SM, the busiest SMs run 2: tail 0.75 */
    r.blocks = 198;
    r.blocks_per_sm = 1;
    limits_derive(&r, &ro, &m, &li);
    CHECK_NEAR(li.tail, 0.75, 1e-12, "1.5 blocks per SM: tail 0.75");
    CHECK(li.sm_busy == 1 && li.limiter == GP_LIM_PARALLELISM, "every SM busy, the tail limits (P 0.75 < 0.8)");
    CHECK_NEAR(li.allows, 30e12, 1e-12, "allows 40 x 0.75 TFLOP/s");

    /* DRAM and L2 serve all SMs: P does not cut them, only the SMs' own roofs */
    ro.ai[GP_LEVEL_DRAM] = 5.0;           /* 5 FLOP/B at 4 TB/s: 20 TFLOP/s, below shared's 40 */
    ro.roof_bw[GP_LEVEL_DRAM] = 4e12;
    ro.bound_level = GP_LEVEL_DRAM;
    ro.bound_attainable = 20e12;
    ro.achieved = 15e12;
    r.blocks = 33; /* a quarter of the SMs busy: shared x 0.25 = 10, compute x 0.25 = 15 */
    r.blocks_per_sm = 1;
    limits_derive(&r, &ro, &m, &li);
    CHECK(li.roof == GP_LIM_SHARED && li.limiter == GP_LIM_PARALLELISM, "33 blocks: shared x 0.25 binds under DRAM's 20");
    CHECK_NEAR(li.allows, 10e12, 1e-12, "allows 40 x 0.25 TFLOP/s");
    CHECK(li.share > 1, "15 TFLOP/s measured is above it: the model says so (share %.2f)", li.share);
    ro.ai[GP_LEVEL_SHARED] = 4.0;         /* shared at 160 x 0.25 = 40, compute 60 x 0.25 = 15 */
    ro.peak_compute = 200e12;             /* compute 200 x 0.25 = 50: DRAM's 20 is the lowest */
    limits_derive(&r, &ro, &m, &li);
    CHECK(li.roof == GP_LIM_DRAM && li.roof_scale == 1 && li.limiter == GP_LIM_DRAM,
          "a quarter of the SMs busy, DRAM binds uncut (limiter %s, scale %.2f)", gp_limiter_name[li.limiter],
          li.roof_scale);
    CHECK_NEAR(li.allows, 20e12, 1e-12, "allows DRAM's 20 TFLOP/s, not 20 x 0.25");
    ro.ai[GP_LEVEL_SHARED] = 1.0, ro.peak_compute = 60e12;
    ro.ai[GP_LEVEL_DRAM] = ro.roof_bw[GP_LEVEL_DRAM] = NAN;
    ro.bound_level = GP_LEVEL_SHARED, ro.bound_attainable = 40e12, ro.achieved = 20e12;

    /* blocks known, blocks per SM not: the busy SMs alone */
    r.blocks = 66;
    r.blocks_per_sm = NAN;
    limits_derive(&r, &ro, &m, &li);
    CHECK(isnan(li.waves) && li.sm_busy == 0.5 && li.parallel == 0.5, "66 blocks, residency unknown: P = 66/132");

    /* nothing about the launch: the roof alone, no parallelism claimed */
    r.blocks = NAN;
    limits_derive(&r, &ro, &m, &li);
    CHECK(!li.have_launch && isnan(li.parallel) && li.allows == 40e12 && li.limiter == GP_LIM_SHARED,
          "no launch facts: limit = the roof, limiter the roof");

    /* far below, but no stall reasons: no latency verdict without its evidence */
    ro.achieved = 10e12;
    limits_derive(&r, &ro, &m, &li);
    CHECK(li.limiter == GP_LIM_SHARED && !li.have_stalls, "25%% of the roof, no stalls: the roof stays the limiter");
    int lsb = stall_id("long_scoreboard"), wt = stall_id("wait");
    if (lsb < 0 || wt < 0) {
        SKIP("analysis/metrics.def lacks long_scoreboard or wait", "latency verdict edges");
        return;
    }
    r.metric[lsb] = 5;
    r.metric[wt] = 1;
    limits_derive(&r, &ro, &m, &li);
    CHECK(li.limiter == GP_LIM_SHARED && !li.have_stalls,
          "25%% of the roof, two stall reasons alone (the default set's): no breakdown, no latency verdict");
    for (int k = 0; k < limits_stall_count(); k++)
        r.metric[limits_stall_metric(k)] = 0;
    r.metric[lsb] = 5;
    r.metric[wt] = 1;
    limits_derive(&r, &ro, &m, &li);
    CHECK(li.limiter == GP_LIM_LATENCY && li.nstalls == limits_stall_count() &&
              li.stall[0].metric == stall_id("long_scoreboard") && li.stall[2].metric == -1,
          "25%% of the roof, every stall reason known, two of them non-zero: latency, long_scoreboard first, no third");
    CHECK_NEAR(li.stall[0].share, 5.0 / 6.0, 1e-12, "long_scoreboard's share 5/6");

    /* the issue roof needs the architecture: not assumed before Volta or when unknown */
    r.metric[GP_M_inst_executed] = ro.flops_analytic / 10;
    m.cc_major = 0;
    limits_derive(&r, &ro, &m, &li);
    CHECK(!li.have_issue && li.roof == GP_LIM_SHARED, "compute capability unknown: no issue roof");
    m.cc_major = 9;
    limits_derive(&r, &ro, &m, &li);
    CHECK(li.have_issue && li.roof == GP_LIM_ISSUE, "cc 9.0, 10 FLOP per instruction: issue binds");
    CHECK_NEAR(li.issue_roof, 10.0 * 4 * 132 * 1.8e9, 1e-12, "issue roof 10 x 4 x 132 x 1.8 GHz (the run's clock)");
    r.sm_clock_hz = 1.5e9;
    limits_derive(&r, &ro, &m, &li);
    CHECK_NEAR(li.issue_roof, 10.0 * 4 * 132 * 1.5e9, 1e-12, "the row's own clock comes first");
}

static void test_verdict_rule(void)
{
    /* the issue's case: the limits predict 1.00x, 1.09x measured */
    CHECK(findings_step_verdict(1.09, 1.00, 0.02) == GP_STEP_ABOVE, "1.09x against 1.00x, 2%% spread: not explained");
    CHECK(findings_step_verdict(1.09, 1.00, 0.0145) == GP_STEP_ABOVE, "1.09x against 1.00x, 1.45%% spread: not explained");
    CHECK(findings_step_verdict(1.015, 1.00, 0.02) == GP_STEP_EXPLAINED, "1.015x against 1.00x, 2%% spread: explained");
    CHECK(findings_step_verdict(0.90, 1.00, 0.02) == GP_STEP_BELOW, "0.90x against 1.00x: below");
    CHECK(findings_step_verdict(NAN, 1.00, 0.02) == GP_STEP_UNKNOWN, "unknown speedup: unknown");
    CHECK(GP_STEP_TOL_DEFAULT < 0.05, "without spreads the stated tolerance is tight (%g)", GP_STEP_TOL_DEFAULT);
}

static void test_recorded_h200(void)
{
    struct loaded L;
    if (access("tests/data/h200_da80385/results.csv", R_OK) != 0) {
        SKIP("no tests/data/h200_da80385", "recorded H200 run");
        return;
    }
    if (load("tests/data/h200_da80385", &L)) {
        CHECK(0, "tests/data/h200_da80385 loads");
        return;
    }
    CHECK(L.F.rows_launch == 0 && L.F.rows_issue == 0 && L.F.rows_stalls == 0,
          "recorded H200 run: no launch facts, issue counts or stalls");
    int same = 1, named = 0;
    for (int i = 0; i < L.ds.nrows; i++) {
        if (!L.usable[i] || L.roof[i].bound_level < 0)
            continue;
        named++;
        same &= L.F.row[i].lim.limiter == L.roof[i].bound_level &&
                L.F.row[i].lim.allows == L.roof[i].bound_attainable;
    }
    CHECK(named > 0 && same, "recorded H200 run: the limiter is the roofs' binding level (%d rows)", named);

    /* error 1: warptile -> cublas, the limits predict 1.00x, measured 1.09x (8192^3) */
    int w = row_of(&L.ds, "warptile", 8192);
    const struct gp_step_finding *s = w >= 0 && L.F.step_of[w] >= 0 ? &L.F.step[L.F.step_of[w]] : NULL;
    CHECK(s && strcmp(L.ds.rows[s->to].variant, "cublas") == 0, "the step warptile -> cublas at 8192");
    if (s) {
        CHECK(fabs(s->predicted - 1.0) < 0.005 && s->speedup > 1.05, "predicted %.3fx, measured %.3fx",
              s->predicted, s->speedup);
        CHECK(s->verdict == GP_STEP_ABOVE, "warptile -> cublas is not 'explained by the change of limit'");
    }
    /* error 2: tiled -> blocktile_1d, both shared-bound; DRAM moves most but shared binds,
     * and DRAM (20x away) is not named as the counter that moved */
    int t = row_of(&L.ds, "tiled", 8192);
    s = t >= 0 && L.F.step_of[t] >= 0 ? &L.F.step[L.F.step_of[t]] : NULL;
    CHECK(s && strcmp(L.ds.rows[s->to].variant, "blocktile_1d") == 0, "the step tiled -> blocktile_1d at 8192");
    if (s) {
        CHECK(s->binding_level == GP_LEVEL_SHARED, "its traffic is the binding level's: shared memory");
        CHECK(s->moved == GP_SC_SHARED, "the counter that moved is the binding shared traffic, not DRAM's (%s)",
              s->moved >= 0 ? gp_step_counter_name[s->moved] : "none");
    }

    /* the report still renders, and says what was not collected */
    char *text = render_text(&L.ds);
    CHECK(text && *text, "recorded H200 run: report written");
    CHECK(text && strstr(text, "were not collected in this run"), "it notes launch facts and stalls were not collected");
    /* the issue's two sentences, as rendered: neither may come back */
    const char *tb = text ? strstr(text, "| `tiled` -> `blocktile_1d` | 8192x8192x8192 |") : NULL;
    CHECK(tb && in_line(tb, "| shared memory 6.29 -> 2.64 B (cuts 2.38x) | - |") && !in_line(tb, "DRAM bytes"),
          "tiled -> blocktile_1d: the binding shared traffic; DRAM's 3.89x, on a roof 20x away, is not named");
    const char *cb = text ? strstr(text, "| `warptile` -> `cublas` | 8192x8192x8192 |") : NULL;
    CHECK(cb && !in_line(cb, "explained") &&
              in_line(cb, "| 1.09x | 1.00x | gains more than predicted"),
          "warptile -> cublas: 1.00x against 1.09x is not said to be explained");
    free(text);
    unload(&L);
}

static void test_claims_by_parameter(void)
{
    struct loaded L;
    if (access("tests/data/h200_da80385/results.csv", R_OK) != 0 || load("tests/data/h200_da80385", &L)) {
        SKIP("no tests/data/h200_da80385", "claims by parameter");
        return;
    }
    struct gp_claims seed, renamed;
    claims_check(&L.ds, L.roof, L.usable, &gp_seed_claims, &seed);
    for (int i = 0; i < L.ds.nrows; i++) {
        if (strcmp(L.ds.rows[i].variant, "naive") == 0)
            strcpy(L.ds.rows[i].variant, "first");
        else if (strcmp(L.ds.rows[i].variant, "tiled") == 0)
            strcpy(L.ds.rows[i].variant, "second");
    }
    struct gp_claim_spec spec = gp_seed_claims;
    spec.base = "first";
    spec.improved = "second";
    claims_check(&L.ds, L.roof, L.usable, &spec, &renamed);
    CHECK(seed.speedup[0].outcome == GP_CLAIM_FAILS && seed.speedup[1].outcome == GP_CLAIM_FAILS,
          "seed claim: naive -> tiled 5-10x does not hold on the H200 (%.2fx, %.2fx)", seed.speedup[0].ratio,
          seed.speedup[1].ratio);
    CHECK(renamed.speedup[0].outcome == seed.speedup[0].outcome &&
              renamed.speedup[1].ratio == seed.speedup[1].ratio && renamed.nbase == seed.nbase &&
              renamed.nbase > 0,
          "the same claims under other variant names give the same outcomes");
    struct gp_claims none;
    claims_check(&L.ds, L.roof, L.usable, &gp_seed_claims, &none);
    CHECK(none.nbase == 0 && none.speedup[0].outcome == GP_CLAIM_NOT_MEASURED,
          "with the names gone, the seed spec finds nothing to check");
    /* the speedup range comes from the spec: 1.2-2x holds for the H200's 1.4-1.5x */
    spec.speedup_lo = 1.2;
    spec.speedup_hi = 2.0;
    claims_check(&L.ds, L.roof, L.usable, &spec, &renamed);
    CHECK(renamed.speedup[1].outcome == GP_CLAIM_HOLDS, "a claim of 1.2-2x holds");
    unload(&L);
}

int main(void)
{
    test_crafted();
    test_limits_edges();
    test_verdict_rule();
    test_recorded_h200();
    test_claims_by_parameter();
    TEST_EXIT();
}

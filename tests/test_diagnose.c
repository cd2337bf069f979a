/* The diagnosis rules (analysis/rules.def, analysis/diagnose.h): each rule's threshold on
 * both sides, the GEMM guards of the occupancy rules, and the ranking on the recorded H200
 * ladder, where no register-tiled kernel that keeps its issue slots busy may be told to
 * raise its occupancy. */
#include <math.h>
#include <string.h>

#include "analysis/dataset.h"
#include "analysis/diagnose.h"
#include "analysis/findings.h"
#include "tests/test.h"

/* A healthy row: every SM busy with even work, coalesced, conflict-free, no local memory,
 * no FP64, full warps, few barrier stalls, 8 warps per scheduler, near its roof. */
static struct gp_evidence healthy(void)
{
    struct gp_evidence ev;
    memset(&ev, 0, sizeof ev);
    ev.sm_busy = 1;
    ev.tail = 1;
    ev.balance = ev.balance_beyond = 1;
    ev.ld_eff = ev.st_eff = 1;
    ev.conflict_ratio = 0;
    ev.local_ratio = 0;
    ev.fp64_share = 0;
    ev.unfused = 0;
    ev.lanes = 1;
    ev.barrier_share = 0.05;
    ev.smem_by_threads = 1;
    ev.issue = 0.8;
    ev.warps_simt = 8;
    ev.latency_simt = 0.4;
    ev.roof_share = 0.8;
    return ev;
}

static int fires(const struct gp_evidence *ev)
{
    int n = 0;
    for (int k = 0; k < GP_RULE_COUNT; k++)
        n += diagnose_rule_holds(ev, k);
    return n;
}

/* One quantity just past its threshold and just short of it. */
#define EDGE(rule, field, past, short_of)                                                          \
    do {                                                                                           \
        struct gp_evidence e = healthy();                                                          \
        e.field = past;                                                                            \
        int on = diagnose_rule_holds(&e, GP_RULE_##rule) && fires(&e) == 1;                        \
        e.field = short_of;                                                                        \
        int off = !diagnose_rule_holds(&e, GP_RULE_##rule);                                        \
        e.field = NAN;                                                                             \
        int unknown = !diagnose_rule_holds(&e, GP_RULE_##rule);                                    \
        CHECK(on && off && unknown, #rule ": " #field " %g fires it (alone), %g does not, unmeasured does not", \
              (double)(past), (double)(short_of));                                                 \
    } while (0)

static void test_thresholds(void)
{
    struct gp_evidence ev = healthy();
    CHECK(fires(&ev) == 0, "a healthy row fires no rule");
    EDGE(few_blocks, sm_busy, 0.74, 0.76);
    EDGE(tail_wave, tail, 0.79, 0.81);
    EDGE(imbalance, balance_beyond, 0.74, 0.76);
    EDGE(uncoalesced_loads, ld_eff, 0.49, 0.51);
    EDGE(uncoalesced_stores, st_eff, 0.49, 0.51);
    EDGE(bank_conflicts, conflict_ratio, 0.11, 0.09);
    EDGE(local_memory, local_ratio, 0.11, 0.09);
    EDGE(fp64, fp64_share, 0.11, 0.09);
    EDGE(unfused_fp32, unfused, 0.26, 0.24);
    EDGE(divergence, lanes, 0.74, 0.76);
    EDGE(barriers, barrier_share, 0.31, 0.29);

    /* the same barrier share reads as a wait for copies where no thread stores to shared memory */
    ev = healthy();
    ev.barrier_share = 0.4;
    ev.smem_by_threads = 0;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_barriers_async) && !diagnose_rule_holds(&ev, GP_RULE_barriers) &&
              fires(&ev) == 1,
          "barrier stalls without thread stores to shared memory: barriers_async, not barriers");
    ev.smem_by_threads = 1;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_barriers) && !diagnose_rule_holds(&ev, GP_RULE_barriers_async),
          "barrier stalls with thread stores to shared memory: barriers, not barriers_async");
    ev.smem_by_threads = 0;
    ev.barrier_share = 0.29;
    CHECK(fires(&ev) == 0, "barriers_async: a barrier share of 0.29 does not fire it");
    ev.barrier_share = NAN;
    CHECK(fires(&ev) == 0, "barriers_async: an unmeasured barrier share does not fire it");

    /* a partial wave and idle SMs are one cause at a time: with a quarter idle, the tail is not asked */
    ev = healthy();
    ev.sm_busy = 0.5;
    ev.tail = 0.5;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_few_blocks) && !diagnose_rule_holds(&ev, GP_RULE_tail_wave),
          "half the SMs idle: few_blocks, not tail_wave");
}

/* The occupancy rules: few warps, issue slots idle, far below the roof, the right limiter. */
static void test_occupancy_guards(void)
{
    struct gp_evidence ev = healthy();
    ev.warps_simt = 2;
    ev.latency_simt = 0.8;
    ev.issue = 0.38;
    ev.roof_share = 0.4;
    ev.occ_by_smem = 1;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_occupancy_smem) && !diagnose_rule_holds(&ev, GP_RULE_occupancy_regs),
          "2 warps per scheduler, slots 38%% busy, 40%% of the roof, shared memory binds: occupancy_smem only");
    ev.issue = 0.84;   /* dbuf, simt_auto, cuBLAS on the H200: 12.5% occupancy, 84-90% of the slots */
    CHECK(!diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "the same with the issue slots 84%% busy: no occupancy verdict");
    ev.issue = 0.38;
    ev.roof_share = 0.6;
    CHECK(!diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "at 60%% of its roof: no occupancy verdict");
    ev.roof_share = 0.4;
    ev.warps_simt = 10;
    CHECK(!diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "10 warps per scheduler: over half the slots, no occupancy verdict");
    ev.warps_simt = 2;
    ev.latency_simt = 0.24;   /* the FP64 case: its warps wait on the FP64 pipe, not on memory */
    CHECK(!diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "warps waiting on memory 24%% of their time: no occupancy verdict");
    ev.latency_simt = 0.26;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "26%%: occupancy_smem");
    ev.latency_simt = NAN;   /* no long-scoreboard counter */
    CHECK(!diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "latency share unmeasured: no occupancy verdict");
    ev.latency_simt = 0.8;
    ev.warps_simt = NAN;   /* a tensor-core kernel, or idle SMs */
    CHECK(!diagnose_rule_holds(&ev, GP_RULE_occupancy_smem), "tensor-core kernel (or idle SMs): no occupancy verdict");
    ev.warps_simt = 2;
    ev.occ_by_smem = 0;
    ev.occ_by_regs = 1;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_occupancy_regs) && !diagnose_rule_holds(&ev, GP_RULE_occupancy_smem),
          "registers bind: occupancy_regs");
    /* the blocks-per-SM limit caps a warp-sized block at half of Hopper's warps: 8 per
     * scheduler, which a kernel waiting on memory cannot use to hide its latency */
    ev.occ_by_regs = 0;
    ev.occ_by_blocks = 1;
    ev.warps_simt = 8;
    ev.latency_simt = 0.9;
    ev.issue = 0.1;
    CHECK(diagnose_rule_holds(&ev, GP_RULE_occupancy_blocks) && fires(&ev) == 1,
          "8 warps per scheduler, 90%% of stalls on memory, blocks bind: occupancy_blocks alone");
}

/* A recorded run with its roofs and machine, as `report` derives them. */
struct recorded {
    struct gp_dataset ds;
    struct gp_roof *roof;
    unsigned char *usable;
    struct gp_machine m;
};

static int recorded_load(const char *dir, struct recorded *r)
{
    char err[512];
    if (dataset_load(dir, &r->ds, err, sizeof err)) {
        CHECK(0, "%s loads: %s", dir, err);
        return -1;
    }
    r->roof = calloc((size_t)r->ds.nrows, sizeof *r->roof);
    r->usable = calloc((size_t)r->ds.nrows, 1);
    roof_derive_rows(&r->ds, r->roof, r->usable, NULL, NULL);
    findings_machine(&r->ds, &r->m);
    return 0;
}

static void recorded_free(struct recorded *r)
{
    free(r->roof);
    free(r->usable);
    dataset_free(&r->ds);
}

/* The index of the one usable row of `variant` in a recorded run; -1 (and a FAIL line) when
 * there is none or more than one. */
static int recorded_row(const struct recorded *rec, const char *where, const char *variant)
{
    int found = -1, n = 0;
    for (int i = 0; i < rec->ds.nrows; i++)
        if (rec->usable[i] && strcmp(rec->ds.rows[i].variant, variant) == 0)
            found = i, n++;
    CHECK(n == 1, "%s: the %s row found (%d)", where, variant, n);
    return n == 1 ? found : -1;
}

/* The recorded H200 run: its register-tiled kernels (200+ registers, 12.5% occupancy) keep
 * their issue slots busy and are never told to raise occupancy; every top finding is a roof
 * or a cause the launch shows (few blocks at 1024^3, bank conflicts). */
static void test_ladder(void)
{
    struct recorded rec;
    if (recorded_load("results/h200", &rec))
        return;
    const struct gp_dataset *ds = &rec.ds;
    struct gp_roof *roof = rec.roof;
    int tiled = 0, occ = 0, rows = 0, uncoalesced = 0;
    for (int i = 0; i < ds->nrows; i++) {
        if (!rec.usable[i])
            continue;
        struct gp_limits li;
        struct gp_diagnosis d;
        limits_derive(&ds->rows[i], &roof[i], &rec.m, &li);
        diagnose_row(&ds->rows[i], &roof[i], &li, &rec.m, &d);
        rows++;
        int register_tiled = ds->rows[i].registers_per_thread >= 200 && li.issue_active_pct >= 60;
        tiled += register_tiled;
        for (int c = 0; c < d.ncauses; c++)
            if (d.cause[c].rule == GP_RULE_occupancy_regs || d.cause[c].rule == GP_RULE_occupancy_smem ||
                d.cause[c].rule == GP_RULE_occupancy_blocks)
                occ++;
        for (int c = 0; c < d.ncauses; c++)
            uncoalesced += d.cause[c].rule == GP_RULE_uncoalesced_loads;
    }
    /* cuBLAS SGEMM (every size) and simt_auto at 1024^3 load through cp.async, whose sectors
     * the L1 counts as loads while only the plain loads count as requests (24576 and 57.6
     * sectors per request): no instruction touches that many, so coalescing is not judged */
    CHECK(uncoalesced == 0, "recorded ladder: %d rows told their loads are uncoalesced (want 0)", uncoalesced);
    CHECK(rows > 40 && tiled >= 10 && occ == 0,
          "recorded ladder: %d rows, %d register-tiled and issue-busy, %d occupancy verdicts (want 0)", rows, tiled, occ);
    recorded_free(&rec);
}

/* A roof made of a cause's own traffic names the cause, whatever the next roof leaves of
 * its gain: the recorded H200 bn_local_spill row (L2-bound, 94% of its L2 bytes spill traffic)
 * with a compute peak 1.2x its binding roof, so removing the spill buys 1.2x at most, under the
 * quarter of the time that names a cause on its gain alone. bn_stream_control (the same
 * kernel without the spill, L2-bound) keeps its roof. */
static void test_roof_made_of_cause(void)
{
    struct recorded rec;
    if (recorded_load("tests/data/diagnosis_h200/2048x2048x2048", &rec))
        return;
    const struct gp_dataset *ds = &rec.ds;
    struct gp_roof *roof = rec.roof;
    int seen = 0;
    for (int i = 0; i < ds->nrows; i++) {
        int spill = strcmp(ds->rows[i].variant, "bn_local_spill") == 0;
        if (!rec.usable[i] || (!spill && strcmp(ds->rows[i].variant, "bn_stream_control") != 0))
            continue;
        seen++;
        struct gp_limits li;
        struct gp_diagnosis d;
        limits_derive(&ds->rows[i], &roof[i], &rec.m, &li);
        roof[i].peak_compute = 1.2 * li.allows; /* after the limits: only what a fix can reach moves */
        diagnose_row(&ds->rows[i], &roof[i], &li, &rec.m, &d);
        const double gain = d.ncauses ? d.cause[0].speedup : 1;
        if (spill)
            CHECK(strcmp(diagnose_top_id(&d), "local_memory") == 0 && gain <= 1.2 + 1e-9 && li.roof == GP_LIM_L2,
                  "an L2 roof made of spills (%.0f%% of its bytes) names local_memory first (gain capped at %.2fx), "
                  "top: %s", 100 * d.ev.local_l2_share, gain, diagnose_top_id(&d));
        else
            CHECK(strcmp(diagnose_top_id(&d), "bound_l2") == 0, "the same kernel without spills stays bound_l2 (%s)",
                  diagnose_top_id(&d));
    }
    CHECK(seen == 2, "both rows found (%d)", seen);
    recorded_free(&rec);
}

/* Uncoalesced stores at an L2 roof: the recorded bn_uncoalesced_st rows (8192x8192x16, H100
 * and H200) are estimated as the L2's time shrunk with the partial sectors' bytes, bytes_l2 /
 * (bytes_l2 - 32 x excess sectors), not as the row's share of the roof carried over; with a
 * compute peak 1.2x the row's current limit, the estimate is capped where that roof allows
 * at full share (1.2 x limit x the launch's parallel share / achieved). */
static void test_store_gain(void)
{
    const char *const sets[] = {"tests/data/diagnosis_h100/8192x8192x16", "tests/data/diagnosis_h200/8192x8192x16"};
    for (int s = 0; s < 2; s++) {
        struct recorded rec;
        if (recorded_load(sets[s], &rec))
            continue;
        const int i = recorded_row(&rec, sets[s], "bn_uncoalesced_st");
        if (i >= 0) {
            struct gp_roof *ro = &rec.roof[i];
            struct gp_limits li;
            struct gp_diagnosis d;
            limits_derive(&rec.ds.rows[i], ro, &rec.m, &li);
            diagnose_row(&rec.ds.rows[i], ro, &li, &rec.m, &d);
            const double b = ro->bytes[GP_LEVEL_L2], ex = 32 * d.ev.st_excess_sectors;
            const double want = b / (b - ex);
            const double got = d.ncauses && d.cause[0].rule == GP_RULE_uncoalesced_stores ? d.cause[0].speedup : NAN;
            CHECK(li.roof == GP_LIM_L2 && fabs(got / want - 1) < 1e-6,
                  "%s: uncoalesced stores at the L2 roof estimated %.3fx, the L2's bytes over those without the "
                  "partial sectors' %.3fx (%.3g of %.3g bytes)", sets[s], got, want, ex, b);
            ro->peak_compute = 1.2 * li.allows;
            diagnose_row(&rec.ds.rows[i], ro, &li, &rec.m, &d);
            /* the SMs' own roofs count at the share of the GPU the launch keeps busy */
            const double cap = 1.2 * li.allows * (li.parallel > 0 ? li.parallel : 1) / ro->achieved;
            const double capped = d.ncauses ? d.cause[0].speedup : NAN;
            CHECK(cap < want && fabs(capped / cap - 1) < 1e-6,
                  "%s: with a compute roof 1.2x the limit the estimate is %.3fx, that roof at full share %.3fx",
                  sets[s], capped, cap);
        }
        recorded_free(&rec);
    }
}

/* The default counter set's two stall reasons, read as the share of all: the recorded H200
 * bn_barriers row (every reason collected) and the same row with only the default set's
 * (long scoreboard, barrier) give the same barrier share within 5% (the achieved warps per
 * scheduler over the issue rate stand in for the sum of all the reasons). */
static void test_default_stall_share(void)
{
    const char *const set = "tests/data/diagnosis_h200/2048x2048x2048";
    struct recorded rec;
    if (recorded_load(set, &rec))
        return;
    const int i = recorded_row(&rec, set, "bn_barriers");
    if (i >= 0) {
        struct gp_limits li;
        struct gp_diagnosis all, dflt;
        limits_derive(&rec.ds.rows[i], &rec.roof[i], &rec.m, &li);
        diagnose_row(&rec.ds.rows[i], &rec.roof[i], &li, &rec.m, &all);
        struct gp_result r = rec.ds.rows[i];
        int dropped = 0;
        for (int k = 0; k < GP_METRIC_COUNT; k++)
            if (strstr(gp_metrics[k].name, "_issue_stalled_") && !gp_metrics[k].in_default) {
                r.metric[k] = NAN;
                dropped++;
            }
        limits_derive(&r, &rec.roof[i], &rec.m, &li);
        diagnose_row(&r, &rec.roof[i], &li, &rec.m, &dflt);
        CHECK(li.have_stalls == 0 && dropped >= 10 && fabs(dflt.ev.barrier_share / all.ev.barrier_share - 1) < 0.05,
              "bn_barriers (H200): barrier share %.3f from the default set's two reasons, %.3f of every reason "
              "(%d dropped)", dflt.ev.barrier_share, all.ev.barrier_share, dropped);
    }
    recorded_free(&rec);
}

/* A recorded row, made over by a test, diagnosed afresh (roofs and limits from its counters);
 * the top cause's evidence in words into text */
static void diagnose_crafted(const struct recorded *rec, const struct gp_result *r, struct gp_limits *li,
                             struct gp_diagnosis *d, char *text, size_t len)
{
    struct gp_roof ro;
    roof_derive(r, rec->ds.have_ceilings ? &rec->ds.ceilings : NULL, &ro);
    limits_derive(r, &ro, &rec->m, li);
    diagnose_row(r, &ro, li, &rec->m, d);
    text[0] = '\0';
    if (d->ncauses)
        diagnose_evidence_text(d, 0, r, text, len);
}

/* Unfused FP32, on rows of the recorded runs: the diagnosis benchmark's control at 2048^3
 * (H200) made over into what its unfused twin would count (each FFMA an FMUL and an FADD, one
 * more thread and warp instruction per pair, the time grown as the instructions) names
 * unfused_fp32 first; the recorded ladder, whose 3xTF32 kernels split operands with FADDs and
 * whose epilogues scale with FMULs, names it nowhere. */
static void test_unfused(void)
{
    const char *const set = "tests/data/diagnosis_h200/2048x2048x2048";
    struct recorded rec;
    if (recorded_load(set, &rec))
        return;
    const int i = recorded_row(&rec, set, "bn_control");
    if (i >= 0) {
        struct gp_result r = rec.ds.rows[i];
        const double ffma = r.metric[GP_M_ffma];
        r.metric[GP_M_fmul] += ffma;
        r.metric[GP_M_fadd] += ffma;
        r.metric[GP_M_ffma] = 0;
        r.metric[GP_M_thread_inst] += ffma;
        r.metric[GP_M_inst_executed] += ffma / 32;
        /* as many issue cycles per instruction as before: the time grows with the instructions */
        const double grow = r.metric[GP_M_thread_inst] / rec.ds.rows[i].metric[GP_M_thread_inst];
        r.time_median_s *= grow;
        r.flop_per_s /= grow;
        struct gp_limits li;
        struct gp_diagnosis d;
        char text[256];
        diagnose_crafted(&rec, &r, &li, &d, text, sizeof text);
        CHECK(strcmp(diagnose_top_id(&d), "unfused_fp32") == 0 && d.cause[0].speedup > 1.3 &&
                  strstr(text, "1.00 FMUL + FADD pairs per multiply-add"),
              "the control made unfused names unfused_fp32 first (top %s, %.2fx: %s)", diagnose_top_id(&d),
              d.ncauses ? d.cause[0].speedup : 0, text);
        limits_derive(&rec.ds.rows[i], &rec.roof[i], &rec.m, &li);
        diagnose_row(&rec.ds.rows[i], &rec.roof[i], &li, &rec.m, &d);
        CHECK(d.ev.unfused < 0.01 && !diagnose_rule_holds(&d.ev, GP_RULE_unfused_fp32),
              "the control itself: %.4f pairs per multiply-add, no verdict", d.ev.unfused);
    }
    recorded_free(&rec);

    if (recorded_load("results/h200", &rec))
        return;
    int rows = 0, named = 0;
    double most = 0;
    for (int i = 0; i < rec.ds.nrows; i++) {
        if (!rec.usable[i])
            continue;
        struct gp_limits li;
        struct gp_diagnosis d;
        limits_derive(&rec.ds.rows[i], &rec.roof[i], &rec.m, &li);
        diagnose_row(&rec.ds.rows[i], &rec.roof[i], &li, &rec.m, &d);
        rows++;
        named += diagnose_rule_holds(&d.ev, GP_RULE_unfused_fp32);
        if (d.ev.unfused > most)
            most = d.ev.unfused;
    }
    CHECK(rows > 40 && named == 0, "recorded ladder: %d rows, %d told their FP32 is unfused (want 0; most %.4f "
          "pairs per multiply-add)", rows, named, most);
    recorded_free(&rec);
}

/* Uneven blocks, on rows of the recorded H200 benchmark (whose counters predate the SMs'
 * active cycles): the control given what a grid of one block per SM, every fourth with four
 * times the work, would count (the SMs active 44% of the busiest one's cycles on average,
 * the time grown by the busiest SM's excess) names imbalance first with about that gain;
 * tail_wave's row given its own partial wave as the SMs' balance (what its blocks per SM
 * explain) stays tail_wave, and no imbalance is read into it. */
static void test_imbalance(void)
{
    struct recorded rec;
    int seen = 0;
    const char *dirs[] = {"tests/data/diagnosis_h200/2048x2048x2048", "tests/data/diagnosis_h200/8192x8192x512"};
    for (int s = 0; s < 2; s++) {
        if (recorded_load(dirs[s], &rec))
            return;
        for (int i = 0; i < rec.ds.nrows; i++) {
            const int control = strcmp(rec.ds.rows[i].variant, "bn_control") == 0;
            if (!rec.usable[i] || !(control || strcmp(rec.ds.rows[i].variant, "bn_tail_wave") == 0))
                continue;
            seen++;
            struct gp_result r = rec.ds.rows[i];
            struct gp_roof ro;
            struct gp_limits li;
            struct gp_diagnosis d;
            roof_derive(&r, rec.ds.have_ceilings ? &rec.ds.ceilings : NULL, &ro);
            limits_derive(&r, &ro, &rec.m, &li);
            const double balance = control ? 0.44 : li.parallel, busiest = 1e6;
            r.metric[GP_M_sm_active_max] = busiest;
            r.metric[GP_M_sm_active_avg] = balance * busiest;
            if (control) { /* the mean SM did the control's work; the busiest ran 1 / 0.44 as long */
                r.time_median_s /= balance;
                r.flop_per_s *= balance;
            }
            char text[256];
            diagnose_crafted(&rec, &r, &li, &d, text, sizeof text);
            if (control)
                CHECK(strcmp(diagnose_top_id(&d), "imbalance") == 0 && d.cause[0].speedup > 2.0 &&
                          d.cause[0].speedup < 2.4 && strstr(text, "44% of the busiest SM's cycles"),
                      "the control with uneven blocks names imbalance first (top %s, %.2fx: %s)",
                      diagnose_top_id(&d), d.ncauses ? d.cause[0].speedup : 0, text);
            else
                CHECK(strcmp(diagnose_top_id(&d), "tail_wave") == 0 && !diagnose_rule_holds(&d.ev, GP_RULE_imbalance),
                      "tail_wave with the balance its blocks per SM explain (%.2f): tail_wave, no imbalance (top %s)",
                      li.parallel, diagnose_top_id(&d));
        }
        recorded_free(&rec);
    }
    CHECK(seen == 2, "the control and tail_wave found (%d)", seen);
}

int main(void)
{
    test_imbalance();
    test_unfused();
    test_roof_made_of_cause();
    test_store_gain();
    test_default_stall_share();
    test_thresholds();
    test_occupancy_guards();
    test_ladder();
    TEST_EXIT();
}

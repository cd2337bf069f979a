/* The diagnosis engine (analysis/diagnose.h): evidence from one row's counters and launch
 * facts, the rules of analysis/rules.def tested on it, a speedup estimated for each cause
 * that holds, and the causes ranked against the binding roof. */
#include "analysis/diagnose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"

const struct gp_rule_info gp_rules[GP_RULE_COUNT] = {
#define RULE(id, cause, fix, gain, q1, o1, t1, q2, o2, t2, q3, o3, t3, q4, o4, t4, q5, o5, t5) {#id, cause, fix},
#include "analysis/rules.def"
#undef RULE
};

enum gp_gain {
    GAIN_PARALLEL, GAIN_TAIL, GAIN_BALANCE, GAIN_SECTORS_LD, GAIN_SECTORS_ST, GAIN_CONFLICTS, GAIN_LOCAL,
    GAIN_FP64, GAIN_FUSE, GAIN_LANES, GAIN_STALL_BARRIER, GAIN_OCCUPANCY
};
enum gp_op { LT, GE };

#define NCLAUSES 5
struct rule_cond {
    int gain;
    int q[NCLAUSES], op[NCLAUSES];
    double t[NCLAUSES];
};
static const struct rule_cond conds[GP_RULE_COUNT] = {
#define RULE(id, cause, fix, gain, q1, o1, t1, q2, o2, t2, q3, o3, t3, q4, o4, t4, q5, o5, t5) \
    {gain, {q1, q2, q3, q4, q5}, {o1, o2, o3, o4, o5}, {t1, t2, t3, t4, t5}},
#include "analysis/rules.def"
#undef RULE
};

/* Rates the time-based estimates need, per SM per cycle. An uncoalesced request costs
 * the L1 one tag lookup per 128-byte line it touches, one line a cycle. FP64 FMAs: 64 on
 * GH100 and GA100, 32 on GV100 (consumer parts have 2, which only makes the estimate
 * low); float<->double conversions 16 (CUDA's arithmetic-throughput table). */
#define L1_LINES_PER_CYCLE 1.0
#define CONVERSIONS_PER_CYCLE 16.0
static double fp64_fma_per_cycle(int cc_major) { return cc_major >= 8 ? 64.0 : cc_major == 7 ? 32.0 : NAN; }
static double fp32_fma_per_cycle(int cc_major) { return cc_major >= 8 ? 128.0 : cc_major == 7 ? 64.0 : NAN; }

static double metric(const struct gp_result *r, int id)
{
    double v = r->metric[id];
    return isfinite(v) && v >= 0 ? v : NAN;
}

static double ratio(double a, double b) { return b > 0 && isfinite(a) && isfinite(b) ? a / b : NAN; }

/* Coalescing: the sectors the L1 looked up per request against the fewest the request
 * could touch. With the bytes the threads asked for (SASS-instrumented, outside the default
 * set) that is exact; without them, more than 16 sectors per request is more than any
 * coalesced access of up to 16 bytes a lane touches, and 4-byte lanes are assumed (the
 * SIMT GEMMs' scalar loads); at 16 or fewer the efficiency is not judged. */
#define MAX_SECTORS_PER_REQUEST 32   /* see one_direction */

static void one_direction(double sectors, double requests, double bytes, double *eff, double *excess)
{
    *eff = *excess = NAN;
    if (!(sectors > 0) || !(requests > 0))
        return;
    /* a warp instruction touches at most 32 sectors (a lane's access, at most 16 bytes and
     * naturally aligned, lies in one): more per request means sectors of instructions not
     * counted as requests (cp.async, whose sectors the L1 counts as loads), which the
     * requests say nothing of */
    if (sectors / requests > MAX_SECTORS_PER_REQUEST)
        return;
    double ideal = NAN;
    if (bytes > 0)
        ideal = bytes / 32;
    else if (sectors / requests > 16)
        ideal = 4 * requests;
    if (isnan(ideal)) {
        *eff = 1;
        *excess = 0;
        return;
    }
    *eff = fmin(1, ideal / sectors);
    *excess = fmax(0, sectors - ideal);
}

static void coalescing(const struct gp_result *r, struct gp_evidence *ev)
{
    one_direction(metric(r, GP_M_gld_sectors), metric(r, GP_M_gld_inst), metric(r, GP_M_gld_bytes), &ev->ld_eff,
                  &ev->ld_excess_sectors);
    one_direction(metric(r, GP_M_gst_sectors), metric(r, GP_M_gst_inst), metric(r, GP_M_gst_bytes), &ev->st_eff,
                  &ev->st_excess_sectors);
}

/* Resident blocks per SM the block limits allow, and which of them bind. The driver picks
 * the shared-memory carveout after the other limits, so a kernel held to one block by its
 * registers may show a carveout that fits one block too: shared memory binds only where
 * it would at the largest carveout. */
static void occupancy(const struct gp_result *r, const struct gp_machine *m, struct gp_evidence *ev)
{
    double smem_lim = r->block_limit_smem, per_block = r->smem_static_bytes + r->smem_dynamic_bytes + 1024;
    if (m->smem_per_sm > 0 && per_block > 0)
        smem_lim = fmax(smem_lim, floor(m->smem_per_sm / per_block));
    double lim[3] = {r->block_limit_registers, smem_lim, r->block_limit_blocks};
    double warps_lim = r->block_limit_warps;
    ev->occ_by_regs = ev->occ_by_smem = ev->occ_by_blocks = 0;
    ev->occ_without_limiter = NAN;
    if (!(ev->blocks_per_sm > 0) || !(ev->occ_theoretical > 0) || isnan(warps_lim))
        return;
    double per_sm = fmin(fmin(lim[0], lim[1]), fmin(lim[2], warps_lim));
    ev->occ_by_regs = lim[0] == per_sm;
    ev->occ_by_smem = lim[1] == per_sm;
    ev->occ_by_blocks = lim[2] == per_sm && warps_lim > per_sm;
    /* without the binding limits: the next one (warps always stays) */
    double next = warps_lim;
    for (int i = 0; i < 3; i++)
        if (lim[i] > per_sm && lim[i] < next)
            next = lim[i];
    ev->occ_without_limiter = fmin(100, ev->occ_theoretical * next / per_sm);
}

void diagnose_evidence(const struct gp_result *r, const struct gp_roof *ro, const struct gp_limits *li,
                       const struct gp_machine *m, struct gp_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->cc_major = m->cc_major;
    ev->tensor = ro->compute_path == GP_PATH_TENSOR;
    ev->time = r->time_median_s;
    ev->clock_hz = li->clock_hz;
    ev->sms = li->sms;
    ev->sm_busy = li->sm_busy;
    ev->waves = li->waves;
    ev->tail = li->blocks >= li->sms ? li->tail : NAN;   /* below: few_blocks' matter */
    ev->roof_share = ratio(ro->achieved, li->roof_allows);
    ev->blocks_per_sm = li->blocks_per_sm;
    ev->occ_theoretical = li->occupancy_pct;
    ev->occ_achieved = li->achieved_occupancy_pct;
    occupancy(r, m, ev);
    ev->issue = li->issue_active_pct / 100;
    /* warps per scheduler: resident warps per SM over its 4 sub-partitions; each issue
     * cycle, every one of them is either the one issuing or stalled, so all of them per
     * issue is the sum of the stall ratios (selected included) */
    double max_warps = ev->blocks_per_sm > 0 && ev->occ_theoretical > 0 && r->block_x > 0
                           ? ev->blocks_per_sm * ceil(r->block_x * r->block_y * r->block_z / 32) /
                                 (ev->occ_theoretical / 100)
                           : NAN;
    /* warps resident per scheduler as the launch allows (the achieved count also drops
     * when there are too few blocks, which is another cause) */
    ev->warps_per_scheduler = ev->occ_theoretical / 100 * max_warps / li->subpartitions;
    /* tensor-core kernels are built for one block per SM, and with SMs idle the few blocks
     * are the cause: neither is an occupancy matter */
    ev->warps_simt = ev->tensor || !(ev->sm_busy >= 0.75) ? NAN : ev->warps_per_scheduler;
    /* the stall ratios average over the warps resident while the SM is active, so all of
     * them sum to the achieved warps per scheduler over the issue rate (on the recorded H200
     * rows with every reason collected, within 0.975-1.055 of it; the launch's warps read up
     * to 5x high where fewer are resident); the launch's count where achieved is unknown */
    const double achieved_warps = ev->occ_achieved > 0 && ev->occ_theoretical > 0
                                      ? ev->warps_per_scheduler * ev->occ_achieved / ev->occ_theoretical
                                      : ev->warps_per_scheduler;
    ev->stalls_per_issue = ratio(achieved_warps, ev->issue);
    /* with every reason collected (--stalls) their sum is exact; the default set has two,
     * and the warps per issue stand in for the sum */
    double all = li->have_stalls ? li->stall_sum : ev->stalls_per_issue;
    ev->barrier_share = ratio(metric(r, GP_M_stall_barrier), all);
    /* no shared-memory store wavefront at all, or only C on its way out through a TMA store
     * (under half of C's bytes stored through the LSU): cp.async or TMA fill shared memory
     * with the operands, and a barrier wait is a wait for their data; unmeasured reads as
     * threads storing them */
    const double c_bytes = 4.0 * r->m * r->n, lsu_st_bytes = 32 * metric(r, GP_M_gst_sectors);
    ev->smem_by_threads = metric(r, GP_M_smem_st_wf) == 0 || (c_bytes > 0 && lsu_st_bytes < 0.5 * c_bytes) ? 0 : 1;
    /* waiting on global or local memory: the latency more warps would cover (as
     * warps_simt, not asked of tensor-core kernels or where SMs sit idle) */
    ev->latency_simt = isnan(ev->warps_simt) ? NAN : ratio(metric(r, GP_M_stall_long_scoreboard), all);
    coalescing(r, ev);
    double local = metric(r, GP_M_local_ld_bytes) + metric(r, GP_M_local_st_bytes);
    ev->local_ratio = ratio(local, 32 * (metric(r, GP_M_gld_sectors) + metric(r, GP_M_gst_sectors)));
    /* what local memory costs the L1 (and the L2 behind it): the L1's bytes beyond the
     * global sectors (the threads ask for far fewer bytes than move: a spilled value's
     * line is fetched and written back whole) */
    double gsec = metric(r, GP_M_gld_sectors) + metric(r, GP_M_gst_sectors);
    ev->local_hw_bytes = local > 0 ? fmax(0, metric(r, GP_M_l1_bytes) - 32 * gsec) : 0;
    ev->local_l2_share = ratio(ev->local_hw_bytes, ro->bytes[GP_LEVEL_L2]);
    double dfma = metric(r, GP_M_dfma), dadd = metric(r, GP_M_dadd), dmul = metric(r, GP_M_dmul);
    double fp64 = 2 * dfma + dadd + dmul;
    ev->fp64_share = ratio(fp64, ro->flops_analytic);
    double cyc = ev->sms * ev->clock_hz;
    ev->fp64_time = NAN;
    if (fp64 > 0 && cyc > 0)
        ev->fp64_time = (dfma + dadd + dmul) / (cyc * fp64_fma_per_cycle(ev->cc_major)) +
                        (isnan(metric(r, GP_M_conversions)) ? 0 : metric(r, GP_M_conversions)) /
                            (cyc * CONVERSIONS_PER_CYCLE);
    /* a multiply and an add that could be one FFMA: as many pairs as the fewer of the two;
     * a GEMM's own epilogue (alpha, beta) is one or two per output, 1/k of the multiply-adds */
    const double pairs = fmin(metric(r, GP_M_fadd), metric(r, GP_M_fmul));
    ev->unfused = ratio(pairs, (double)r->m * r->n * r->k);
    ev->unfused_removed = ratio(pairs, metric(r, GP_M_thread_inst));
    ev->lanes = ratio(metric(r, GP_M_thread_inst), 32 * metric(r, GP_M_inst_executed));
    /* the SMs' active cycles, the mean over the busiest SM's; what the blocks per SM
     * already explain (too few blocks, a partial wave) is those causes' share */
    ev->balance = ratio(metric(r, GP_M_sm_active_avg), metric(r, GP_M_sm_active_max));
    ev->balance_beyond = li->parallel > 0 ? fmin(1, ev->balance / li->parallel) : NAN;
    double wf = metric(r, GP_M_smem_ld_wf) + metric(r, GP_M_smem_st_wf);
    ev->conflict_ratio = ratio(metric(r, GP_M_smem_ld_confl) + metric(r, GP_M_smem_st_confl), wf);
}

double diagnose_quantity(const struct gp_evidence *ev, int q)
{
    switch (q) {
    case Q_ALWAYS: return 0;
    case Q_SM_BUSY: return ev->sm_busy;
    case Q_TAIL: return ev->tail;
    case Q_BALANCE: return ev->balance_beyond;
    case Q_LD_EFF: return ev->ld_eff;
    case Q_ST_EFF: return ev->st_eff;
    case Q_CONFLICT: return ev->conflict_ratio;
    case Q_LOCAL: return ev->local_ratio;
    case Q_FP64: return ev->fp64_share;
    case Q_UNFUSED: return ev->unfused;
    case Q_LANES: return ev->lanes;
    case Q_BAR_SHARE: return ev->barrier_share;
    case Q_SMEM_BY_THREADS: return ev->smem_by_threads;
    case Q_ISSUE: return ev->issue;
    case Q_OCC_BY_SMEM: return ev->occ_by_smem;
    case Q_OCC_BY_REGS: return ev->occ_by_regs;
    case Q_OCC_BY_BLOCKS: return ev->occ_by_blocks;
    case Q_WARPS_SIMT: return ev->warps_simt;
    case Q_LATENCY: return ev->latency_simt;
    case Q_ROOF_SHARE: return ev->roof_share;
    default: return NAN;
    }
}

static int holds(const struct gp_evidence *ev, const struct rule_cond *c)
{
    for (int i = 0; i < NCLAUSES; i++) {
        if (c->q[i] == Q_ALWAYS)
            continue;
        double v = diagnose_quantity(ev, c->q[i]);
        if (isnan(v) || !(c->op[i] == LT ? v < c->t[i] : v >= c->t[i]))
            return 0;
    }
    return 1;
}

int diagnose_rule_holds(const struct gp_evidence *ev, int rule)
{
    return rule >= 0 && rule < GP_RULE_COUNT && holds(ev, &conds[rule]);
}

/* Time that would go: the speedup of removing `saved` seconds of `time`. */
static double time_gain(double time, double saved)
{
    if (!(time > 0) || !(saved > 0))
        return 1;
    return time / fmax(time - saved, 0.05 * time);
}

/* The lowest roof, flop/s, with excess[l] bytes taken out of each memory level (those
 * roofs raised) and the issue roof scaled by issue_scale. */
static double new_limit(const struct gp_roof *ro, const struct gp_limits *li, const double excess[GP_LEVEL_COUNT],
                        double issue_scale)
{
    /* the SMs' own roofs scaled by the share of the GPU the launch keeps busy, DRAM and L2
     * as they are: the limits model's rule (analysis/limits.h) */
    const double p = li->parallel > 0 ? li->parallel : 1;
    double lim = ro->peak_compute > 0 ? ro->peak_compute * p : INFINITY;
    for (int l = 0; l < GP_LEVEL_COUNT; l++) {
        double b = ro->bytes[l], att = ro->attainable[l];
        if (!(att > 0))
            continue;
        if (b > 0 && excess[l] > 0)
            att *= b / fmax(b - excess[l], 0.01 * b);
        lim = fmin(lim, l == GP_LEVEL_DRAM || l == GP_LEVEL_L2 ? att : att * p);
    }
    if (li->have_issue && li->issue_roof > 0)
        lim = fmin(lim, li->issue_roof * issue_scale * p);
    return lim;
}

/* The speedup of taking excess[l] bytes out of each memory level: the new limit against
 * the row's current one (the row keeps its share of whichever roof binds). */
static double roof_gain_issue(const struct gp_roof *ro, const struct gp_limits *li,
                              const double excess[GP_LEVEL_COUNT], double issue_scale)
{
    return li->allows > 0 ? fmax(1, new_limit(ro, li, excess, issue_scale) / li->allows) : 1;
}

static double roof_gain(const struct gp_roof *ro, const struct gp_limits *li, const double excess[GP_LEVEL_COUNT])
{
    return roof_gain_issue(ro, li, excess, 1);
}

/* One level's excess alone. */
static double level_gain(const struct gp_roof *ro, const struct gp_limits *li, int level, double excess)
{
    double ex[GP_LEVEL_COUNT] = {0};
    ex[level] = excess;
    return roof_gain(ro, li, ex);
}

/* Excess bytes at the level whose roof binds the row: that level goes on moving the bytes
 * that stay at the rate it moves them now, so its time shrinks with them; the other roofs
 * cap the speedup. The row's share of the level's roof is not carried over as roof_gain
 * carries it: partial-sector stores are slower for the L2 than the full sectors its roof
 * was measured with, so the low share is the cause's own symptom. Where another roof
 * binds, roof_gain's estimate. */
static double binding_level_gain(const struct gp_roof *ro, const struct gp_limits *li, int level, double excess)
{
    double b = ro->bytes[level];
    if (li->roof != level || !(b > 0) || !(excess > 0) || !(ro->achieved > 0))
        return level_gain(ro, li, level, excess);
    double ex[GP_LEVEL_COUNT] = {0};
    ex[level] = excess;
    return fmax(1, fmin(b / fmax(b - excess, 0.01 * b), new_limit(ro, li, ex, 1) / ro->achieved));
}

/* Time-based estimates: capped by the binding roof, which the cause leaves as it is. */
static double time_capped(double s, const struct gp_evidence *ev)
{
    return ev->roof_share > 0 ? fmin(s, fmax(1, 1 / ev->roof_share)) : s;
}

static double estimate(int gain, const struct gp_evidence *ev, const struct gp_roof *ro,
                       const struct gp_limits *li)
{
    double cyc = ev->sms * ev->clock_hz;
    switch (gain) {
    case GAIN_PARALLEL: return time_capped(1 / ev->sm_busy, ev);
    /* the blocks per SM's ratio, or the SMs' measured one where the busiest SM runs its
     * extra block beside the others (the two share it) and so loses less */
    case GAIN_TAIL: return time_capped(1 / fmax(ev->tail, ev->balance), ev);
    /* every SM busy as long as the mean one */
    case GAIN_BALANCE: return time_capped(1 / ev->balance_beyond, ev);
    case GAIN_SECTORS_LD:
    case GAIN_SECTORS_ST: {
        double excess = gain == GAIN_SECTORS_LD ? ev->ld_excess_sectors : ev->st_excess_sectors;
        double eff = gain == GAIN_SECTORS_LD ? ev->ld_eff : ev->st_eff;
        /* excess sectors in lines of their own cost a lookup each; a half-used line's
         * sectors share lookups: weigh by the waste */
        double s = time_capped(time_gain(ev->time, excess * (1 - eff) / (cyc * L1_LINES_PER_CYCLE)), ev);
        if (gain == GAIN_SECTORS_ST)   /* partial sectors also reach the L2 */
            s = fmax(s, binding_level_gain(ro, li, GP_LEVEL_L2, 32 * excess));
        return s;
    }
    case GAIN_CONFLICTS: {
        double c = ev->conflict_ratio;
        return level_gain(ro, li, GP_LEVEL_SHARED, ro->bytes[GP_LEVEL_SHARED] * c);
    }
    case GAIN_LOCAL: {
        /* local traffic passes the L1 and the L2, and what the L2 evicts of it goes on to
         * DRAM: DRAM's bytes in the share local traffic has of the L2's */
        double ex[GP_LEVEL_COUNT] = {0};
        ex[GP_LEVEL_L1] = ex[GP_LEVEL_L2] = ev->local_hw_bytes;
        ex[GP_LEVEL_DRAM] = ro->bytes[GP_LEVEL_DRAM] * fmin(1, ev->local_l2_share);
        return roof_gain(ro, li, ex);
    }
    case GAIN_FP64: {
        /* the FP64 work at the FP32 rate instead, conversions gone */
        double fp32 = ev->fp64_share * ro->flops_analytic / 2 / (cyc * fp32_fma_per_cycle(ev->cc_major));
        return time_capped(time_gain(ev->time, fmin(ev->fp64_time, ev->time) - fp32), ev);
    }
    case GAIN_FUSE: {
        /* one instruction fewer per pair: the issue roof rises by the FMULs' share of the
         * instructions, the other roofs stay */
        const double scale = 1 / (1 - fmin(ev->unfused_removed, 0.95));
        const double none[GP_LEVEL_COUNT] = {0};
        return fmin(scale, roof_gain_issue(ro, li, none, scale));
    }
    case GAIN_LANES: {
        /* both paths issue their own instructions and shared loads: with the warp on one
         * path those shrink by the lanes' share, and so does the roof they bind */
        double ex[GP_LEVEL_COUNT] = {0};
        ex[GP_LEVEL_SHARED] = ro->bytes[GP_LEVEL_SHARED] * (1 - ev->lanes);
        return fmin(1 / ev->lanes, roof_gain_issue(ro, li, ex, 1 / ev->lanes));
    }
    case GAIN_STALL_BARRIER: return time_capped(1 / (1 - fmin(ev->barrier_share, 0.95)), ev);
    case GAIN_OCCUPANCY: {
        /* more warps hide latency until the issue slots fill */
        double more = ratio(ev->occ_without_limiter, ev->occ_achieved);
        return time_capped(fmin(more, 1 / ev->issue), ev);
    }
    default: return 1;
    }
}

/* The level whose bytes a cause inflates (-1: none). */
static int cause_level(int rule)
{
    return rule == GP_RULE_bank_conflicts                                      ? GP_LEVEL_SHARED
           : rule == GP_RULE_local_memory || rule == GP_RULE_uncoalesced_stores ? GP_LEVEL_L2
                                                                                : -1;
}

/* The roof's share without the causes' excess traffic. */
static double cleaned_roof_share(const struct gp_diagnosis *d, const struct gp_roof *ro, const struct gp_limits *li)
{
    if (li->roof < 0 || !(li->allows > 0) || !(ro->achieved > 0))
        return NAN;
    double share = ro->achieved / li->allows;
    for (int i = 0; i < d->ncauses; i++) {
        int level = cause_level(d->cause[i].rule);
        if (level >= 0 && level == li->roof)
            share /= d->cause[i].speedup;
    }
    return share;
}

/* The share of the binding roof's bytes that are a cause's own traffic (0 where the cause
 * does not load that level or its bytes are not counted). */
static double cause_roof_traffic(const struct gp_evidence *ev, int rule, int roof)
{
    if (roof < 0 || cause_level(rule) != roof)
        return 0;
    double share = rule == GP_RULE_bank_conflicts ? ev->conflict_ratio
                   : rule == GP_RULE_local_memory ? ev->local_l2_share
                                                  : 0;
    return share > 0 ? share : 0;
}

static int heavier(const void *a, const void *b)
{
    const struct gp_cause *x = a, *y = b;
    return (x->weight < y->weight) - (x->weight > y->weight);
}

void diagnose_row(const struct gp_result *r, const struct gp_roof *ro, const struct gp_limits *li,
                  const struct gp_machine *m, struct gp_diagnosis *d)
{
    memset(d, 0, sizeof *d);
    diagnose_evidence(r, ro, li, m, &d->ev);
    /* no cause buys more than the compute roof */
    double cap = ro->peak_compute > 0 && ro->achieved > 0 ? ro->peak_compute / ro->achieved : INFINITY;
    for (int k = 0; k < GP_RULE_COUNT; k++) {
        if (!holds(&d->ev, &conds[k]))
            continue;
        double s = estimate(conds[k].gain, &d->ev, ro, li);
        if (!(s >= GP_DIAG_GAIN_MIN))
            continue;
        s = fmin(s, fmax(cap, 1));
        struct gp_cause *c = &d->cause[d->ncauses++];
        c->rule = k;
        c->value = diagnose_quantity(&d->ev, conds[k].q[0]);
        c->speedup = s;
        c->weight = 1 - 1 / s;
    }
    qsort(d->cause, (size_t)d->ncauses, sizeof d->cause[0], heavier);
    d->roof = li->roof;
    d->roof_share = cleaned_roof_share(d, ro, li);
    d->top_is_roof = d->ncauses == 0 || d->cause[0].weight < GP_DIAG_CAUSE_MIN;
    /* a roof made of a cause's own traffic is that cause's doing: name the cause first, though
     * the next roof caps what removing it buys */
    for (int i = 0; i < d->ncauses && d->top_is_roof; i++)
        if (cause_roof_traffic(&d->ev, d->cause[i].rule, li->roof) >= GP_DIAG_ROOF_TRAFFIC_MIN) {
            struct gp_cause c = d->cause[i];
            memmove(&d->cause[1], &d->cause[0], (size_t)i * sizeof c);
            d->cause[0] = c;
            d->top_is_roof = 0;
        }
}

void diagnose_dataset_row(const struct gp_dataset *ds, int i, const struct gp_roof *ro, const struct gp_limits *li,
                          struct gp_diagnosis *d)
{
    struct gp_machine m;
    findings_machine(ds, &m);
    diagnose_row(&ds->rows[i], ro, li, &m, d);
}

const char *diagnose_top_id(const struct gp_diagnosis *d)
{
    static const char *const bound[GP_LIM_COUNT] = {"bound_dram", "bound_l2", "bound_l1", "bound_shared",
                                                   "bound_compute", "bound_issue", "bound_parallelism",
                                                   "bound_latency"};
    if (!d->top_is_roof)
        return gp_rules[d->cause[0].rule].id;
    return d->roof >= 0 && d->roof < GP_LIM_COUNT ? bound[d->roof] : "none";
}

/* ---- the table `report DIR --causes` prints ---- */

int diagnose_write(const struct gp_dataset *ds, FILE *f, char *err, size_t errlen)
{
    struct gp_roof *roof = calloc((size_t)ds->nrows + 1, sizeof *roof);
    unsigned char *usable = calloc((size_t)ds->nrows + 1, 1);
    if (!roof || !usable) {
        free(roof);
        free(usable);
        snprintf(err, errlen, "%s: out of memory for %d rows", ds->dir, ds->nrows);
        return -1;
    }
    roof_derive_rows(ds, roof, usable, NULL, NULL);
    struct gp_machine m;
    findings_machine(ds, &m);
    fprintf(f, "variant\tm\tn\tk\ttop\troof\troof_share\tcauses\n");
    for (int i = 0; i < ds->nrows; i++) {
        if (!usable[i])
            continue;
        const struct gp_result *r = &ds->rows[i];
        struct gp_limits li;
        struct gp_diagnosis d;
        limits_derive(r, &roof[i], &m, &li);
        diagnose_row(r, &roof[i], &li, &m, &d);
        fprintf(f, "%s\t%ld\t%ld\t%ld\t%s\t%s\t%.3f\t", r->variant, r->m, r->n, r->k, diagnose_top_id(&d),
                d.roof >= 0 ? gp_limiter_name[d.roof] : "none", d.roof_share);
        for (int c = 0; c < d.ncauses; c++)
            fprintf(f, "%s%s:%.2fx(%.3g)", c ? "," : "", gp_rules[d.cause[c].rule].id, d.cause[c].speedup,
                    d.cause[c].value);
        fprintf(f, "%s\n", d.ncauses ? "" : "-");
    }
    free(roof);
    free(usable);
    return ferror(f) ? -1 : 0;
}

static const char *pct_text(double v, char *b, size_t n)
{
    snprintf(b, n, isfinite(v) ? "%.0f%%" : "n/a", 100 * v);
    return b;
}

void diagnose_evidence_text(const struct gp_diagnosis *d, int i, const struct gp_result *r, char *buf, size_t len)
{
    const struct gp_evidence *ev = &d->ev;
    char p[32];
    switch (d->cause[i].rule) {
    case GP_RULE_few_blocks:
        snprintf(buf, len, "%.0f blocks for %.0f SMs: %s of the SMs idle", r->blocks, ev->sms,
                 pct_text(1 - ev->sm_busy, p, sizeof p));
        break;
    case GP_RULE_tail_wave:
        snprintf(buf, len, "%.2f blocks per SM: the busiest SMs run %.0f, so the others idle %s of the time",
                 ev->tail * ceil(r->blocks / ev->sms), ceil(r->blocks / ev->sms), pct_text(1 - ev->tail, p, sizeof p));
        break;
    case GP_RULE_imbalance: {
        char q[32];
        snprintf(buf, len, "the SMs are active %s of the busiest SM's cycles on average, where the blocks per SM "
                 "would give %s", pct_text(ev->balance, p, sizeof p),
                 pct_text(ev->balance / ev->balance_beyond, q, sizeof q));
        break;
    }
    case GP_RULE_uncoalesced_loads:
    case GP_RULE_uncoalesced_stores:
        snprintf(buf, len, "global %s use %s of the bytes of the sectors they touch",
                 d->cause[i].rule == GP_RULE_uncoalesced_loads ? "loads" : "stores", pct_text(d->cause[i].value, p, sizeof p));
        break;
    case GP_RULE_bank_conflicts:
        snprintf(buf, len, "%s of the shared-memory wavefronts are conflict replays", pct_text(ev->conflict_ratio, p, sizeof p));
        break;
    case GP_RULE_local_memory:
        snprintf(buf, len, "%.2f bytes of local memory per byte of global memory asked for, %.0f bytes of stack per "
                 "thread, %s of the L2's bytes", ev->local_ratio, r->local_bytes_per_thread,
                 pct_text(ev->local_l2_share, p, sizeof p));
        break;
    case GP_RULE_fp64:
        snprintf(buf, len, "%s of the FLOPs are FP64", pct_text(ev->fp64_share, p, sizeof p));
        break;
    case GP_RULE_unfused_fp32:
        snprintf(buf, len, "%.2f FMUL + FADD pairs per multiply-add of the GEMM, %s of the thread instructions",
                 ev->unfused, pct_text(ev->unfused_removed, p, sizeof p));
        break;
    case GP_RULE_divergence:
        snprintf(buf, len, "%s of a warp's lanes active per instruction", pct_text(ev->lanes, p, sizeof p));
        break;
    case GP_RULE_barriers:
        snprintf(buf, len, "%s of the stalled warps wait at a barrier", pct_text(ev->barrier_share, p, sizeof p));
        break;
    case GP_RULE_barriers_async:
        snprintf(buf, len, "%s of the stalled warps wait at a barrier; copies, not the threads' stores, fill shared memory",
                 pct_text(ev->barrier_share, p, sizeof p));
        break;
    default: {   /* the occupancy rules */
        char q[32], w[32];
        snprintf(buf, len, "%.1f warps per scheduler (theoretical occupancy %s), issue slots %s busy, "
                 "warps waiting on memory %s of the time",
                 ev->warps_per_scheduler, pct_text(ev->occ_theoretical / 100, p, sizeof p),
                 pct_text(ev->issue, q, sizeof q), pct_text(ev->latency_simt, w, sizeof w));
        break;
    }
    }
}

/* The limits model (see analysis/limits.h and README.md, "The limits model").
 * No constant here is fitted to measurements: the issue width is the architecture's
 * (one warp instruction per sub-partition per cycle, four sub-partitions per SM from
 * Volta on), everything else is a counter, a launch attribute or a measured ceiling. */
#include "analysis/limits.h"

#include <math.h>
#include <string.h>

const char *const gp_limiter_name[GP_LIM_COUNT] = {"dram", "l2", "l1", "shared", "compute",
                                                   "issue", "parallelism", "latency"};

/* The stall reasons of ncu's WarpStateStats section, with what each means for GEMM code. */
static const struct { int id; const char *name, *words; } stalls[] = {
    {GP_M_stall_barrier, "barrier", "waiting at a block barrier (__syncthreads)"},
    {GP_M_stall_branch_resolving, "branch_resolving", "waiting for a branch target"},
    {GP_M_stall_dispatch_stall, "dispatch_stall", "dispatcher stalled"},
    {GP_M_stall_drain, "drain", "draining memory stores at exit"},
    {GP_M_stall_imc_miss, "imc_miss", "immediate-constant cache miss"},
    {GP_M_stall_lg_throttle, "lg_throttle", "global/local memory queue full"},
    {GP_M_stall_long_scoreboard, "long_scoreboard", "waiting on global/local memory data"},
    {GP_M_stall_math_pipe_throttle, "math_pipe_throttle", "math pipe busy"},
    {GP_M_stall_membar, "membar", "waiting at a memory barrier"},
    {GP_M_stall_mio_throttle, "mio_throttle", "shared-memory (MIO) queue full"},
    {GP_M_stall_misc, "misc", "miscellaneous"},
    {GP_M_stall_no_instruction, "no_instruction", "instruction cache miss"},
    {GP_M_stall_not_selected, "not_selected", "ready, but another warp issued (issue-bound)"},
    {GP_M_stall_selected, "selected", "issuing"},
    {GP_M_stall_short_scoreboard, "short_scoreboard", "waiting on shared-memory data"},
    {GP_M_stall_sleeping, "sleeping", "sleeping"},
    {GP_M_stall_tex_throttle, "tex_throttle", "texture queue full"},
    {GP_M_stall_wait, "wait", "fixed-latency dependency"},
};
#define NSTALLS (int)(sizeof stalls / sizeof stalls[0])

static int stall_index(int metric)
{
    for (int i = 0; i < NSTALLS; i++)
        if (stalls[i].id == metric)
            return i;
    return -1;
}

int limits_is_stall(int metric) { return stall_index(metric) >= 0; }
int limits_stall_count(void) { return NSTALLS; }
int limits_stall_metric(int i) { return i >= 0 && i < NSTALLS ? stalls[i].id : -1; }

const char *limits_stall_words(int metric)
{
    int i = stall_index(metric);
    return i < 0 ? NULL : stalls[i].words;
}

const char *limits_stall_name(int metric)
{
    int i = stall_index(metric);
    return i < 0 ? NULL : stalls[i].name;
}

/* A measured amount: finite and >= 0, else NaN. */
static double known(double v) { return isfinite(v) && v >= 0 ? v : NAN; }
static double positive(double v) { return isfinite(v) && v > 0 ? v : NAN; }

static void derive_issue(const struct gp_result *r, const struct gp_roof *ro, const struct gp_machine *m,
                         struct gp_limits *o)
{
    o->inst_executed = positive(r->metric[GP_M_inst_executed]);
    o->issue_active_pct = known(r->metric[GP_M_issue_active]);
    o->flop_per_inst = ro->flops_analytic / o->inst_executed;
    /* every SM since Volta (cc 7.0) has four sub-partitions, each issuing at most one
     * warp instruction per cycle; for older or unknown parts the width is not assumed */
    o->subpartitions = m->cc_major >= 7 ? 4.0 : NAN;
    o->clock_hz = positive(r->sm_clock_hz);
    if (isnan(o->clock_hz))
        o->clock_hz = positive(r->metric[GP_M_sm_clock]);
    if (isnan(o->clock_hz))
        o->clock_hz = positive(m->sm_clock_hz);
    o->issue_peak = o->subpartitions * (m->sm_count > 0 ? m->sm_count : NAN) * o->clock_hz;
    o->issue_roof = o->flop_per_inst * o->issue_peak;
    o->have_issue = !isnan(o->issue_roof);
}

static void derive_parallelism(const struct gp_result *r, const struct gp_machine *m, struct gp_limits *o)
{
    o->sms = m->sm_count > 0 ? m->sm_count : NAN;
    o->blocks = positive(r->blocks);
    if (isnan(o->blocks))
        o->blocks = positive(r->grid_x * r->grid_y * r->grid_z);
    o->blocks_per_sm = positive(r->blocks_per_sm);
    o->waves = positive(r->waves);
    if (isnan(o->waves))
        o->waves = o->blocks / (o->sms * o->blocks_per_sm);
    o->occupancy_pct = known(r->occupancy_theoretical_pct);
    o->achieved_occupancy_pct = known(r->metric[GP_M_warps_active]);
    /* below one wave every block is resident at once: the SMs without one are idle, and
     * how many blocks the busy ones hold is an occupancy matter, not idle hardware */
    o->sm_busy = o->blocks / o->sms;   /* NaN stays NaN: fmin would turn it into 1 */
    if (o->sm_busy > 1)
        o->sm_busy = 1;
    o->tail = o->waves >= 1 ? o->waves / ceil(o->waves) : isnan(o->waves) ? NAN : 1.0;
    /* without waves (no blocks per SM) the busy SMs alone are still known */
    o->parallel = isnan(o->sm_busy) ? NAN : isnan(o->tail) ? o->sm_busy : o->sm_busy * o->tail;
    o->have_launch = !isnan(o->parallel);
}

static void derive_stalls(const struct gp_result *r, struct gp_limits *o)
{
    o->nstalls = 0;
    o->stall_sum = 0;
    for (int i = 0; i < NSTALLS; i++) {
        double v = known(r->metric[stalls[i].id]);
        if (!isnan(v)) {
            o->nstalls++;
            o->stall_sum += v;
        }
    }
    for (int k = 0; k < GP_STALL_TOP; k++)
        o->stall[k] = (struct gp_stall){-1, NAN, NAN};
    o->have_stalls = o->nstalls > 0 && o->stall_sum > 0;
    if (!o->have_stalls)
        return;
    /* the GP_STALL_TOP largest, by insertion: 18 reasons, no sort needed */
    for (int i = 0; i < NSTALLS; i++) {
        double v = known(r->metric[stalls[i].id]);
        if (isnan(v) || v <= 0)
            continue;
        struct gp_stall s = {stalls[i].id, v, v / o->stall_sum};
        for (int k = 0; k < GP_STALL_TOP; k++)
            if (o->stall[k].metric < 0 || v > o->stall[k].ratio) {
                struct gp_stall t = o->stall[k];
                o->stall[k] = s;
                s = t;
                if (s.metric < 0)
                    break;
                v = s.ratio;
            }
    }
}

void limits_derive(const struct gp_result *r, const struct gp_roof *ro, const struct gp_machine *m,
                   struct gp_limits *o)
{
    memset(o, 0, sizeof *o);
    derive_issue(r, ro, m, o);
    derive_parallelism(r, m, o);
    derive_stalls(r, o);

    /* the binding roof: the lowest of the memory and compute roofs and the issue roof */
    o->roof = GP_LIM_NONE;
    o->roof_allows = NAN;
    if (ro->bound_level >= 0) {
        o->roof = ro->bound_level;
        o->roof_allows = ro->bound_attainable;
    }
    if (o->have_issue && (o->roof == GP_LIM_NONE || o->issue_roof < o->roof_allows)) {
        o->roof = GP_LIM_ISSUE;
        o->roof_allows = o->issue_roof;
    }
    o->allows = o->roof_allows * (isnan(o->parallel) ? 1.0 : o->parallel);
    o->achieved = ro->achieved;
    o->share = o->achieved / o->allows;

    o->limiter = o->roof;
    if (o->roof == GP_LIM_NONE)
        return;
    if (o->share < GP_LATENCY_BELOW && o->have_stalls)
        o->limiter = GP_LIM_LATENCY;
    else if (o->parallel < GP_PARALLEL_LIMITS)
        o->limiter = GP_LIM_PARALLELISM;
}

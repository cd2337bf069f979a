/* The limits model (see analysis/limits.h and README.md, "The limits model").
 * No constant here is fitted to measurements: the issue width is the architecture's
 * (one warp instruction per sub-partition per cycle, four sub-partitions per SM from
 * Volta on), everything else is a counter, a launch attribute or a measured ceiling. */
#include "analysis/limits.h"

#include <math.h>
#include <string.h>

const char *const gp_limiter_name[GP_LIM_COUNT] = {"dram", "l2", "l1", "shared", "compute",
                                                   "issue", "parallelism", "latency"};

/* The stall reasons are the metrics named STALL_PREFIX<reason>STALL_SUFFIX in
 * analysis/metrics.def, found by name, so a reason added to or dropped from that file (some
 * do not exist on every GPU) needs no change here. */
#define STALL_PREFIX "smsp__average_warps_issue_stalled_"
#define STALL_SUFFIX "_per_issue_active.ratio"

/* What each reason means for GEMM code, and the change that shortens it where a row runs
 * far under every roof (the latency limiter); a reason not listed is shown by its name
 * alone, with no change named. */
static const struct { const char *name, *words, *next; } stall_words[] = {
    {"barrier", "waiting at a barrier (__syncthreads, or the mbarrier of a copy pipeline)",
     "fewer barriers per tile, or, where copies fill shared memory, the copies started earlier"},
    {"branch_resolving", "waiting for a branch target", "fewer branches: predication, loops with uniform bounds"},
    {"dispatch_stall", "dispatcher stalled", NULL},
    {"drain", "draining memory stores at exit", "fewer, wider stores of C"},
    {"imc_miss", "immediate-constant cache miss", "kernel parameters and constants read once, kept in registers"},
    {"lg_throttle", "global/local memory queue full", "fewer, wider global accesses (vector loads, cp.async or TMA)"},
    {"long_scoreboard", "waiting on global/local memory data",
     "more loads in flight: more pipeline stages, or the next tile prefetched while this one computes"},
    {"math_pipe_throttle", "math pipe busy", "less work on the busy pipe, or a faster one (the tensor cores)"},
    {"membar", "waiting at a memory barrier", "fewer memory fences"},
    {"mio_throttle", "shared-memory (MIO) queue full",
     "fewer shared-memory instructions per FMA: wider shared loads, a larger register tile"},
    {"misc", "miscellaneous", NULL},
    {"no_instruction", "instruction cache miss", "a smaller loop body (less unrolling)"},
    {"not_selected", "ready, but another warp issued (issue-bound)", "fewer instructions per FMA"},
    {"selected", "issuing", "fewer instructions per FMA"},
    {"short_scoreboard", "waiting on shared-memory data",
     "fewer shared-memory round trips per FMA: wider shared loads, a larger register tile"},
    {"sleeping", "sleeping", NULL},
    {"tex_throttle", "texture queue full", NULL},
    {"wait", "fixed-latency dependency",
     "more independent instructions between dependent ones: more accumulators per warp, unrolled k-steps"},
};

static struct { int id; char name[48]; } stalls[GP_METRIC_COUNT];
static int nstalls = -1;

static void find_stalls(void)
{
    if (nstalls >= 0)
        return;
    int n = 0;
    size_t lp = strlen(STALL_PREFIX), ls = strlen(STALL_SUFFIX);
    for (int i = 0; i < GP_METRIC_COUNT; i++) {
        const char *m = gp_metrics[i].name;
        size_t len = strlen(m);
        if (len <= lp + ls || strncmp(m, STALL_PREFIX, lp) != 0 || strcmp(m + len - ls, STALL_SUFFIX) != 0 ||
            len - lp - ls >= sizeof stalls[0].name)
            continue;
        stalls[n].id = i;
        snprintf(stalls[n].name, sizeof stalls[n].name, "%.*s", (int)(len - lp - ls), m + lp);
        n++;
    }
    nstalls = n;
}
#define NSTALLS (find_stalls(), nstalls)

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

const char *limits_stall_name(int metric)
{
    int i = stall_index(metric);
    return i < 0 ? NULL : stalls[i].name;
}

static int stall_words_index(int metric)
{
    const char *n = limits_stall_name(metric);
    for (size_t k = 0; n && k < sizeof stall_words / sizeof stall_words[0]; k++)
        if (strcmp(stall_words[k].name, n) == 0)
            return (int)k;
    return -1;
}

const char *limits_stall_words(int metric)
{
    int k = stall_words_index(metric);
    return k >= 0 ? stall_words[k].words : limits_stall_name(metric);
}

const char *limits_stall_next(int metric)
{
    int k = stall_words_index(metric);
    return k >= 0 ? stall_words[k].next : NULL;
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
    /* the tail: the SMs' mean work over the busiest SM's, blocks per SM against their
     * ceiling. With one block resident per SM this is waves / ceil(waves); with several,
     * an SM of the last wave runs its few blocks faster, so what is lost is the uneven
     * count of blocks per SM, not of resident slots (1.29 waves of 6 blocks an SM: 7.8
     * blocks per SM, 97% of the busiest SM's 8, not 65%) */
    const double per_sm = o->blocks / o->sms;
    o->tail = per_sm >= 1 ? per_sm / ceil(per_sm) : isnan(per_sm) ? NAN : 1.0;
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
    /* a breakdown needs (nearly) every reason: the default set holds two of them, whose
     * shares of each other would read as shares of all stalls */
    o->have_stalls = o->nstalls >= NSTALLS - 2 && o->stall_sum > 0;
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

/* A roof that allows `allows` flop/s, of which the launch can use `scale`: binding when
 * it allows the least so far (ties keep the earlier). */
static void consider(struct gp_limits *o, int roof, double allows, double scale)
{
    if (o->roof == GP_LIM_NONE || allows * scale < o->allows) {
        o->roof = roof;
        o->roof_allows = allows;
        o->roof_scale = scale;
        o->allows = allows * scale;
    }
}

void limits_derive(const struct gp_result *r, const struct gp_roof *ro, const struct gp_machine *m,
                   struct gp_limits *o)
{
    memset(o, 0, sizeof *o);
    derive_issue(r, ro, m, o);
    derive_parallelism(r, m, o);
    derive_stalls(r, o);

    /* the binding roof: the lowest of the memory, compute and issue roofs, each times the
     * share of it the launch can use. P scales what every SM brings of its own (compute,
     * issue slots, L1, shared memory); DRAM and L2 serve all SMs, and a few busy SMs can
     * draw more than their share of them (on the H200, 32 blocks of wgmma_rs on 132 SMs,
     * 24% of them, drew 37% of the DRAM ceiling), so P leaves those two roofs alone */
    const double p = isnan(o->parallel) ? 1.0 : o->parallel;
    o->roof = GP_LIM_NONE;
    o->roof_allows = o->allows = o->roof_scale = NAN;
    if (ro->bound_level >= 0) { /* the roofs with data: the roofline found a binding one */
        for (int l = 0; l < GP_LEVEL_COUNT; l++) {
            const double v = ro->ai[l] * ro->roof_bw[l];
            if (v > 0 && isfinite(v))
                consider(o, l, v, l == GP_LEVEL_DRAM || l == GP_LEVEL_L2 ? 1.0 : p);
        }
        if (ro->peak_compute > 0)
            consider(o, GP_LIM_COMPUTE, ro->peak_compute, p);
    }
    if (o->have_issue)
        consider(o, GP_LIM_ISSUE, o->issue_roof, p);
    o->achieved = ro->achieved;
    o->share = o->achieved / o->allows;

    o->limiter = o->roof;
    if (o->roof == GP_LIM_NONE)
        return;
    if (o->share < GP_LATENCY_BELOW && o->have_stalls)
        o->limiter = GP_LIM_LATENCY;
    else if (o->roof_scale < GP_PARALLEL_LIMITS)
        o->limiter = GP_LIM_PARALLELISM;
}

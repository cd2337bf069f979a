/* The counter phase of a shape: the CUPTI range profiler measures only after every
 * variant of the shape has been timed, so it never runs during a timed launch. Each pass
 * starts from the L2 state chosen by GEMMPROF_COUNTER_FLUSH; all variants of the shape
 * are measured in one batch, one range each.
 *
 * Sessions (GEMMPROF_COUNTER_SESSIONS): `run`, the default, measures all metrics in one
 * session, opened at the first shape and kept for later shapes, when CUPTI schedules them in
 * no more passes than the hardware and SASS-instrumented groups apart (the default set: 5
 * passes on GH100 either way); it is closed when the run ends (counter_phase_end) or at
 * once after a failed measure, so the next shape reopens it fresh. Only one is kept: CUPTI
 * refused a second session beside a kept one on the H200. Otherwise, and with `shape`, each
 * group has a session of its own per shape. Opening and warming up sessions per shape was
 * about a fifth of the default sweep's counter phase (results/h200/NOTES.md). Between
 * shapes only the range profiler stays enabled: no pass, range, callback or subscriber is
 * active while the next shape is timed. */
#include "src/counter_phase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "analysis/message.h"
#include "analysis/metrics.h"
#include "cupti/prof.h"
#include "kernels/l2_flush.h"
#include "kernels/pdl.h"
#include "src/interrupt.h"
#include "src/measure.h"
#include "src/nvtx.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"

struct workload {
    const struct gemm_variant *v;
    struct run *run;
    struct shape_data *s;
};

/* How the L2 is flushed before each counter pass. The default, a read of 2x the L2 and
 * then a discard of the flush buffer's own (clean) lines, leaves the L2 nearly empty, as
 * ncu's cache control does; on the H200 it matched ncu's DRAM writes best
 * (tools/lab/diag_dram_write.sh): 21-32 KB at 1000x1500x700 where ncu sees 0 and reading
 * alone left 40-75 KB of the last pass's dirty lines; at 2048^3 naive 9.06-9.57 MB over
 * 6 runs against ncu's 9.24-9.60, where reading twice gave 2-3% fewer. The others stay
 * for that comparison, chosen with GEMMPROF_COUNTER_FLUSH. */
static const struct counter_flush_mode {
    const char *name;
    struct counter_flush how;
} counter_flush_modes[] = {
    {"read-discard", {1, 1, 0, 0, 0}},
    {"settle-read-discard", {1, 1, 0, 0, 1}},   /* the workload once, then as read-discard */
    {"read", {1, 0, 0, 0, 0}},
    {"read2", {2, 0, 0, 0, 0}},
    {"read2-discard", {2, 1, 0, 0, 0}},
    {"write-read", {1, 0, 1, 0, 0}},   /* dirties the L2 with a memset first */
    {"read-wait", {1, 0, 0, 2, 0}},    /* pauses 2 ms after */
    {"none", {0, 0, 0, 0, 0}},         /* keeps the cache warm */
};

/* When the sessions are closed, by index: after the run (the default) or after each shape. */
static const char *const counter_session_modes[] = {"run", "shape"};
/* Dependent launches while the counters measure, by index: off (the default), as ncu runs the
 * kernels, or on, as the timed calls run them (kernels/pdl.h says why off). */
static const char *const counter_pdl_modes[] = {"off", "on"};

/* The choice of table entry named by environment variable `var` (the first entry when it
 * is unset), the name being the first member of entries `stride` bytes apart: its index,
 * or -1 with err naming the choices. */
static int env_choice(const char *var, const void *table, size_t stride, size_t n, char *err, size_t errlen)
{
    const char *value = getenv(var);
    const char *base = table;
    for (size_t i = 0; i < n; i++)
        if (!value || strcmp(value, *(const char *const *)(base + i * stride)) == 0)
            return (int)i;
    int used = snprintf(err, errlen, "%s=%s: unknown; one of", var, value);
    for (size_t i = 0; i < n && used > 0 && (size_t)used < errlen; i++)
        used += snprintf(err + used, errlen - (size_t)used, "%s %s", i ? "," : "",
                         *(const char *const *)(base + i * stride));
    return -1;
}
#define ENV_CHOICE(var, table, err, errlen) \
    env_choice(var, table, sizeof table[0], sizeof table / sizeof table[0], err, errlen)

/* GEMMPROF_COUNTER_FLUSH, read once before any GPU work: 0, or -1 naming the choices. */
int counter_flush_from_env(struct counter_flush *how, char *err, size_t errlen)
{
    int i = ENV_CHOICE("GEMMPROF_COUNTER_FLUSH", counter_flush_modes, err, errlen);
    if (i < 0)
        return -1;
    *how = counter_flush_modes[i].how;
    return 0;
}

/* The index of the name a two-way switch's variable holds (0 when unset): 0, or -1 naming
 * the choices. */
static int env_switch(const char *var, const char *const names[2], int *out, char *err, size_t errlen)
{
    const int i = env_choice(var, names, sizeof names[0], 2, err, errlen);
    if (i < 0)
        return -1;
    *out = i;
    return 0;
}

/* GEMMPROF_COUNTER_SESSIONS and GEMMPROF_COUNTER_PDL, read with the flush. */
int counter_sessions_from_env(int *per_shape, char *err, size_t errlen)
{
    return env_switch("GEMMPROF_COUNTER_SESSIONS", counter_session_modes, per_shape, err, errlen);
}

int counter_pdl_from_env(int *on, char *err, size_t errlen)
{
    return env_switch("GEMMPROF_COUNTER_PDL", counter_pdl_modes, on, err, errlen);
}

static int launch_once(void *arg);

static void flush_before_pass(void *arg)
{
    struct workload *w = arg;
    struct run *r = w->run;
    const struct counter_flush *how = &r->counters.flush;
    if (how->settle)
        launch_once(w);
    if (r->gpu.d_flush) {
        if (how->dirty_first)
            cudaMemsetAsync(r->gpu.d_flush, 0, r->gpu.flush_bytes / 2, r->gpu.stream);
        for (int i = 0; i < how->reads; i++)
            run_flush_l2(r);
        if (how->discard)
            l2_discard_launch(r->gpu.d_flush, r->gpu.flush_bytes, r->meta.sm_count, r->gpu.stream);
    }
    cudaStreamSynchronize(r->gpu.stream);
    if (how->pause_ms) {
        struct timespec pause = {0, how->pause_ms * 1000000L};
        nanosleep(&pause, NULL);
    }
}

static int launch_once(void *arg)
{
    struct workload *w = arg;
    return gemm_variant_launch(w->v, w->run->gpu.ctx, (int)w->s->m, (int)w->s->n, (int)w->s->k, w->s->d_a,
                        w->s->d_b, w->s->d_c, w->run->gpu.stream) == cudaSuccess ? 0 : -1;
}

/* Stores one measure's values of the group `ids` into the row, and its kernel names if
 * the row has none yet (the first group names them). */
static void keep_counts(struct gp_result *row, const int *ids, int nids, const double *values,
                        const char *kernels)
{
    for (int j = 0; j < nids; j++)
        row->metric[ids[j]] = values[ids[j]];
    if (!row->kernels[0])
        snprintf(row->kernels, sizeof row->kernels, "%s", kernels);
}

/* A workload of one tiny kernel (64 KiB through the L2), to absorb a session's
 * first-measure effects cheaply. */
static int tiny_workload(void *arg)
{
    struct run *r = arg;
    return l2_flush_launch(r->gpu.d_flush ? r->gpu.d_flush : (void *)r->gpu.d_probe,
                           r->gpu.d_flush ? 65536 : 2 * PROBE_BLOCKS * sizeof(unsigned long long),
                           (float *)r->gpu.d_probe, 1, r->gpu.stream) == cudaSuccess ? 0 : -1;
}

/* Closes the run's kept session, if open: its costs summed into the run's. */
static void close_session(struct run *r)
{
    struct prof_session *prof = r->counters.session;
    if (!prof)
        return;
    struct prof_cost c;
    prof_cost_get(prof, &c);
    r->counters.cost.prepare_s += c.prepare_s;
    r->counters.cost.ranges_s += c.ranges_s;
    r->counters.cost.pass_end_s += c.pass_end_s;
    r->counters.cost.decode_s += c.decode_s;
    r->counters.cost.passes += c.passes;
    r->counters.cost.ranges += c.ranges;
    const double t0 = now_s();
    prof_close(prof);
    r->counters.open_s += now_s() - t0;
    r->counters.session = NULL;
}

void counter_phase_end(struct run *r)
{
    const double t0 = now_s();
    close_session(r);
    r->counters.wall_s += now_s() - t0;   /* the close the shapes' phases left to the end */
}

/* One session over metrics `ids`, measuring every row of the shape: the run's kept session
 * when `keep` (opened now if none is open, and left open), else one of its own, closed
 * after the shape. A hardware group's new session starts with a warm-up measure. */
static int count_group(struct run *r, struct shape_data *s, struct gp_result *rows, int nrows,
                       const int *ids, int nids, int hardware, int keep, int *passes)
{
    char why[512], range[128];
    struct prof_session *prof = keep ? r->counters.session : NULL;
    const int fresh = !prof;
    if (fresh) {
        const double t0 = now_s();
        prof = prof_open(r->o->device, ids, nids, why, sizeof why);
        r->counters.open_s += now_s() - t0;
        if (!prof) {
            gp_message("warning: no hardware counters: %s", why);
            gp_message("carrying on with timing only");
            snprintf(r->meta.counters, sizeof r->meta.counters, "not collected: %.200s", why);
            r->counters.off = 1;   /* one warning, not one per shape */
            return -1;
        }
        r->counters.sessions_opened++;
        r->counters.session = prof;   /* closed below unless kept */
    }
    *passes += prof_num_passes(prof);
    /* A throwaway first measure of a tiny kernel in a new session: on the H200 the first
     * measure of a session carried extra DRAM writes (38 MB instead of ncu's 12 MB for
     * naive at 2048, while the same kernel measured second agreed with ncu), as if the
     * profiler's own set-up writes were still in the L2. Hardware counters only:
     * instrumented counts do not depend on the cache. */
    if (fresh && hardware) {
        double values[GP_METRIC_SLOTS];
        char kernels[64];
        const double t0 = now_s();
        gp_nvtx_push("counters warm-up", -1);
        prof_measure(prof, NULL, tiny_workload, r, values, kernels, sizeof kernels, why, sizeof why);
        gp_nvtx_pop();
        r->counters.warmup_s += now_s() - t0;
    }
    /* every variant of the shape in one batch: one pass sequence, one range each */
    struct workload work[CLI_MAX_VARIANTS];
    void *args[CLI_MAX_VARIANTS];
    double values_store[CLI_MAX_VARIANTS][GP_METRIC_SLOTS], *values[CLI_MAX_VARIANTS];
    char kernels_store[CLI_MAX_VARIANTS][sizeof rows[0].kernels], *kernels[CLI_MAX_VARIANTS];
    struct gp_result *batch_rows[CLI_MAX_VARIANTS];
    int n = 0;
    for (int i = 0; i < nrows; i++) {
        if (rows[i].status == GP_STATUS_CUDA_ERROR)
            continue;
        work[n] = (struct workload){registry_variant(registry_find(rows[i].variant)), r, s};
        args[n] = &work[n];
        values[n] = values_store[n];
        kernels[n] = kernels_store[n];
        batch_rows[n++] = &rows[i];
    }
    snprintf(range, sizeof range, "counters %s", s->label);
    gp_nvtx_push(range, -1);
    const int rc = n ? prof_measure_batch(prof, n, flush_before_pass, launch_once, args, values, kernels,
                                    sizeof kernels_store[0], why, sizeof why)
               : 0;
    gp_nvtx_pop();
    for (int i = 0; i < n && rc == 0; i++)
        keep_counts(batch_rows[i], ids, nids, values[i], kernels[i]);
    if (rc != 0) {
        /* one variant failing under the profiler should not cost the others their
         * counters: measure them one at a time (and then close the session: a failed
         * profiler session should not poison the later shapes) */
        gp_message("counters for %s as a batch: %s; measuring one by one", s->label, why);
        cudaGetLastError();
        for (int i = 0; i < n; i++) {
            struct gp_result *row = batch_rows[i];
            snprintf(range, sizeof range, "counters %s %s", row->variant, s->label);
            gp_nvtx_push(range, -1);
            if (prof_measure(prof, flush_before_pass, launch_once, &work[i], values[i], kernels[i],
                             sizeof kernels_store[0], why, sizeof why) == 0) {
                keep_counts(row, ids, nids, values[i], kernels[i]);
            } else {
                gp_message("counters for %s %s: %s", row->variant, s->label, why);
                cudaGetLastError();
            }
            gp_nvtx_pop();
        }
    }
    if (rc != 0 || !keep)
        close_session(r);
    return 0;
}

/* Whether all metrics go into one session, kept for the run: `run` mode, and either one
 * group only or CUPTI's offline pass count for the whole set no more than the two groups'
 * (decided once per run). */
static int one_session(struct run *r, const int *all, int n, const int *hw, int nhw, const int *sass, int nsass)
{
    if (r->counters.combined < 0) {
        char chip[64], why[256];
        int together = -1, apart = -1;
        if (r->counters.per_shape)
            r->counters.combined = 0;
        else if (!nhw || !nsass)
            r->counters.combined = 1;
        else {
            if (prof_device_chip(r->o->device, chip, sizeof chip, why, sizeof why) == 0) {
                together = prof_count_passes_offline(chip, all, n);
                const int a = prof_count_passes_offline(chip, hw, nhw), b = prof_count_passes_offline(chip, sass, nsass);
                apart = a < 0 || b < 0 ? -1 : a + b;
            }
            r->counters.combined = together > 0 && apart > 0 && together <= apart;
        }
    }
    return r->counters.combined;
}

/* The counter phase of one shape: the profiler measures only here, after every variant
 * of the shape has been timed, so it never runs during a timed launch. Hardware counters
 * and SASS-instrumented counts share one kept session when that costs no pass (above),
 * else each group has a session of its own per shape. */
void count_shape(struct run *r, struct shape_data *s, struct gp_result *rows, int nrows)
{
    if (!r->o->counters || r->o->trace || r->counters.off)
        return;
    const double t0 = now_s();
    int hw[CLI_MAX_METRICS], sass[CLI_MAX_METRICS], nhw = 0, nsass = 0, passes = 0;
    for (int i = 0; i < r->o->nmetrics; i++) {
        if (gp_metric_is_instrumented(r->o->metrics[i]))
            sass[nsass++] = r->o->metrics[i];
        else
            hw[nhw++] = r->o->metrics[i];
    }
    /* progress, and the phase a signal would interrupt */
    gp_message("%s: counters for %d variant%s", s->label, nrows, nrows == 1 ? "" : "s");
    gp_nvtx_push("counters", -1);
    const int pdl_was = pdl_allowed();
    pdl_allow(r->counters.pdl);
    int ok = 1;
    if (one_session(r, r->o->metrics, r->o->nmetrics, hw, nhw, sass, nsass)) {
        ok = count_group(r, s, rows, nrows, r->o->metrics, r->o->nmetrics, nhw > 0, 1, &passes) == 0;
    } else {
        /* two groups, each in a session of its own per shape: CUPTI refuses a second
         * session beside a kept one */
        if (nhw)
            ok = count_group(r, s, rows, nrows, hw, nhw, 1, 0, &passes) == 0;
        if (ok && nsass && !interrupt_pending())   /* a signal: stop here, keep what was counted */
            ok = count_group(r, s, rows, nrows, sass, nsass, 0, 0, &passes) == 0;
    }
    pdl_allow(pdl_was);
    gp_nvtx_pop();
    if (!ok)
        return;
    for (int i = 0; i < nrows; i++)
        if (rows[i].status != GP_STATUS_CUDA_ERROR)
            rows[i].counter_passes = passes;
    if (!r->counters.announced) {
        /* the passes cover the extra metrics (--metrics outside the table) too */
        fprintf(stderr, "counters: %d metrics (%d outside the table) in %d replay pass%s per kernel (%d hardware, "
                "%d SASS-instrumented)\n", r->o->nmetrics, gp_extra_count(), passes, passes == 1 ? "" : "es", nhw, nsass);
        snprintf(r->meta.counters, sizeof r->meta.counters, "collected: %d metrics, %d passes",
                 r->o->nmetrics, passes);
        r->counters.announced = 1;
    }
    r->counters.wall_s += now_s() - t0;
    r->counters.measures += nrows;
}


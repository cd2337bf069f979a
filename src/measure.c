/* One variant at one shape, verified and timed as the sweep does it (the harness, the
 * tuner and the counter phase share it): the output poisoned, computed once and compared
 * with the reference (the launch facts captured around that launch), warm-ups, timed
 * launches between CUDA events with the L2 flushed before each, then the SM clock probe.
 * Each phase sits in an NVTX range nested in "<variant> MxNxK". */
#include "src/measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "analysis/message.h"
#include "analysis/verify.h"
#include "cupti/launch.h"
#include "kernels/clock_probe.h"
#include "kernels/l2_flush.h"
#include "src/cuda_try.h"
#include "src/npy.h"
#include "src/nvtx.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double measure_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Runs the clock probe and returns the median SM clock of its blocks, NaN on failure. */
static double probe_sm_clock(struct run *r)
{
    unsigned long long h[2 * PROBE_BLOCKS];
    double hz[PROBE_BLOCKS];
    if (clock_probe_launch(PROBE_BLOCKS, 200000ULL, r->gpu.d_probe, r->gpu.stream) != cudaSuccess ||
        cudaMemcpyAsync(h, r->gpu.d_probe, sizeof h, cudaMemcpyDeviceToHost, r->gpu.stream) != cudaSuccess ||
        cudaStreamSynchronize(r->gpu.stream) != cudaSuccess)
        return NAN;
    for (int i = 0; i < PROBE_BLOCKS; i++)
        hz[i] = h[2 * i + 1] ? (double)h[2 * i] / ((double)h[2 * i + 1] * 1e-9) : NAN;
    return measure_median(hz, PROBE_BLOCKS);
}

cudaError_t run_flush_l2(struct run *r)
{
    return l2_flush_launch(r->gpu.d_flush, r->gpu.flush_bytes, (float *)r->gpu.d_probe, r->meta.sm_count, r->gpu.stream);
}

/* Records a CUDA failure in the row. Clears the error; if the context is broken for
 * good (a sticky error such as an illegal address), later variants cannot run. */
static void cuda_failure(struct run *r, struct gp_result *row, const char *phase, cudaError_t e)
{
    row->status = GP_STATUS_CUDA_ERROR;
    snprintf(row->error, sizeof row->error, "%s %ldx%ldx%ld: %s: %s", row->variant, row->m,
             row->n, row->k, phase, cudaGetErrorString(e));
    cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess) {
        r->context_lost = 1;
        gp_message("the CUDA context is lost after %s; stopping the sweep",
                row->variant);
    }
}

/* A failed call of a variant's phase is the row's error (cuda_failure), by the phase's
 * name: the row says which step of the measurement failed. */
#define TRY(phase, call) CUDA_TRY_ELSE(call, cuda_failure(r, row, (phase), cuda_try_e_), done)

/* The launch facts come from the verify launch, never a timed one: a CUPTI callback
 * subscription and kernel activity records held only around it (cupti/launch.h). 1 when
 * capturing. When CUPTI is held by another tool (ncu, compute-sanitizer) that is said
 * once and the columns stay empty. */
static int launch_facts_start(struct run *r)
{
    char why[512];
    if (r->measure.launch_facts_off)
        return 0;
    const double t0 = now_s();
    int ok = launch_capture_begin(why, sizeof why) == 0;
    r->measure.launch_facts_s += now_s() - t0;
    if (ok)
        return 1;
    gp_message("warning: no launch facts (grid, block, registers, occupancy, waves): %s", why);
    r->measure.launch_facts_off = 1;
    return 0;
}

static void launch_facts_finish(struct run *r, struct gp_result *row, int quiet)
{
    char why[512];
    const double t0 = now_s();
    int rc = launch_capture_end(row, why, sizeof why);
    r->measure.launch_facts_s += now_s() - t0;
    if (rc >= 0 && !quiet)
        r->measure.launch_facts_rows++;
    if (rc != 0 && !quiet)
        gp_message("%s %ldx%ldx%ld: %s", row->variant, row->m, row->n, row->k, why);
}

static void verify_variant(struct run *r, struct shape_data *s, const struct gemm_variant *v,
                           struct gp_result *row)
{
    const long count = s->m * s->n;
    struct verify_stats st;
    int capturing = 0;

    gp_nvtx_push("verify", -1);
    /* 0xFF bytes are NaN floats: an element the kernel never writes cannot pass */
    TRY("poison", cudaMemsetAsync(s->d_c, 0xFF, (size_t)count * sizeof(float), r->gpu.stream));
    capturing = launch_facts_start(r);
    TRY("launch", gemm_variant_launch(v, r->gpu.ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b, s->d_c, r->gpu.stream));
    TRY("run", cudaStreamSynchronize(r->gpu.stream));
    if (capturing)
        launch_facts_finish(r, row, 0);
    capturing = 0;
    TRY("copy back", cudaMemcpy(s->h_c, s->d_c, (size_t)count * sizeof(float), cudaMemcpyDeviceToHost));

    /* BF16 and FP16 against the reference of their rounded inputs (src/shape.c) */
    const double *ref = shape_reference(s, v->precision);
    row->tolerance = verify_tolerance(v->precision, v->tol_factor, s->k);
    if (!ref) {
        row->status = GP_STATUS_VERIFY_FAILED;
        snprintf(row->error, sizeof row->error, "no %s reference at this shape", gp_precision_name(v->precision));
        goto done;
    }
    verify_compare(s->h_c, count, ref, s->idx, s->nidx, &st);
    /* unwritten (poisoned) elements anywhere in C; a full comparison already counted them */
    long nonfinite = s->idx ? verify_count_nonfinite(s->h_c, count) : st.n_nonfinite;
    row->rel_err = st.rel_err;
    row->max_abs_err = st.max_abs_err;
    snprintf(row->verify_method, sizeof row->verify_method, "%s",
             s->idx ? "cpu_fp64_sampled" : "cpu_fp64_full");
    int ok = nonfinite == 0 && st.rel_err <= row->tolerance;
    if (s->h_cublas && strcmp(v->name, "cublas") != 0) {
        /* the sample misses most elements: compare the whole matrix with cuBLAS too,
         * allowing both sides' error (cuBLAS SGEMM's inputs were not rounded: a 16-bit
         * row's input rounding counts on its side) */
        row->rel_err_vs_cublas = verify_rel_diff(s->h_c, s->h_cublas, count);
        double tol = verify_tolerance_fp32_inputs(v->precision, v->tol_factor, s->k) +
                     verify_tolerance(GP_FP32, 4.0, s->k);
        ok = ok && row->rel_err_vs_cublas <= tol;
    }
    if (!ok) {
        row->status = GP_STATUS_VERIFY_FAILED;
        if (nonfinite)
            snprintf(row->error, sizeof row->error, "%ld of %ld elements NaN/Inf (unwritten or overflow)",
                     nonfinite, count);
        else
            snprintf(row->error, sizeof row->error,
                     "relative error %.3g (vs cuBLAS %.3g) above tolerance %.3g", row->rel_err,
                     row->rel_err_vs_cublas, row->tolerance);
    }
    if (r->o->dump_npy) {
        char path[1100], err[256];
        snprintf(path, sizeof path, "%s/npy/%s_%s_C.npy", r->o->out_dir, v->name, s->label);
        if (npy_write_f32(path, s->h_c, s->m, s->n, err, sizeof err))
            gp_message("%s", err);
    }
done:
    if (capturing)   /* the launch failed: end the subscription, the row has its error */
        launch_facts_finish(r, row, 1);
    gp_nvtx_pop();
}

/* Without -r, a row's timed launches stop at about this much kernel time: the slow
 * kernels at 8192^3 (naive 0.2 s a launch) would otherwise take most of a default run,
 * and their spread is 0.0-0.1%, so 3 launches tell as much as 10. */
#define ROW_TIME_BUDGET_S 0.5
#define MIN_BUDGET_REPS 3

static void time_variant(struct run *r, struct shape_data *s, const struct gemm_variant *v,
                         struct gp_result *row)
{
    const struct cli_options *o = r->o;
    int reps = o->reps;
    double *ms = calloc((size_t)o->reps, sizeof *ms);
    if (!ms) {
        snprintf(row->error, sizeof row->error, "out of host memory");
        row->status = GP_STATUS_CUDA_ERROR;
        return;
    }
    int open = 1;   /* a phase range is open: a failure must close it */
    gp_nvtx_push("warmup", -1);
    const double t_warm = now_s();
    for (int i = 0; i < o->warmups; i++)
        TRY("warm-up launch", gemm_variant_launch(v, r->gpu.ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b, s->d_c, r->gpu.stream));
    TRY("warm-up", cudaStreamSynchronize(r->gpu.stream));
    gp_nvtx_pop();
    if (!o->reps_given && o->warmups > 0) {
        const double per_launch = (now_s() - t_warm) / o->warmups;
        const double fit = ROW_TIME_BUDGET_S / per_launch;
        if (fit < reps)
            reps = fit < MIN_BUDGET_REPS ? (reps < MIN_BUDGET_REPS ? reps : MIN_BUDGET_REPS) : (int)fit;
    }

    /* decided before the events: nothing but launches between a start and a stop event */
    const int slowed = r->hooks.slow_variant == SLOW_ALL ||
                       (r->hooks.slow_variant >= 0 && v == registry_variant(r->hooks.slow_variant));
    gp_nvtx_push("timed", -1);
    for (int i = 0; i < reps; i++) {
        /* reading 2x the L2 evicts A, B and C, so each repetition starts cold;
         * the flush sits outside the event pair */
        if (r->gpu.d_flush)
            TRY("L2 flush", run_flush_l2(r));
        TRY("event", cudaEventRecord(r->gpu.ev_start[i], r->gpu.stream));
        TRY("timed launch", gemm_variant_launch(v, r->gpu.ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b, s->d_c, r->gpu.stream));
        if (slowed)
            TRY("test slowdown", clock_probe_launch(1, r->hooks.slow_ns, r->gpu.d_probe, r->gpu.stream));
        TRY("event", cudaEventRecord(r->gpu.ev_stop[i], r->gpu.stream));
    }
    TRY("timed run", cudaStreamSynchronize(r->gpu.stream));
    gp_nvtx_pop();
    open = 0;

    for (int i = 0; i < reps; i++) {
        float t;
        TRY("event time", cudaEventElapsedTime(&t, r->gpu.ev_start[i], r->gpu.ev_stop[i]));
        ms[i] = t;
    }
    row->reps = reps;
    row->warmups = o->warmups;
    row->l2_flush = r->gpu.d_flush != NULL;
    row->time_median_s = measure_median(ms, reps) * 1e-3;   /* sorts ms */
    row->time_min_s = ms[0] * 1e-3;
    row->time_max_s = ms[reps - 1] * 1e-3;
    row->time_spread = (row->time_max_s - row->time_min_s) / row->time_median_s;
    row->flop_per_s = gp_flops_analytic(row) / row->time_median_s;
    free(ms);
    return;
done:
    if (open)
        gp_nvtx_pop();
    free(ms);
}

void measure_variant(struct run *r, struct shape_data *s, const struct gemm_variant *v, int nvtx_id,
                     struct gp_result *row)
{
    char range[128];

    gp_result_init(row);
    snprintf(row->variant, sizeof row->variant, "%s", v->name);
    snprintf(row->precision, sizeof row->precision, "%s", gp_precision_name(v->precision));
    row->m = s->m;
    row->n = s->n;
    row->k = s->k;
    if (v->config)
        v->config((int)s->m, (int)s->n, (int)s->k, row->config, sizeof row->config);
    snprintf(range, sizeof range, "%s %s", v->name, s->label);
    gp_nvtx_push(range, nvtx_id);
    verify_variant(r, s, v, row);
    if (row->status != GP_STATUS_CUDA_ERROR)
        time_variant(r, s, v, row);
    gp_nvtx_pop();
    /* the probe runs outside the variant's range, so an NVTX filter on the variant
     * selects only its own kernels; the GPU is still at its working clock */
    if (row->status != GP_STATUS_CUDA_ERROR) {
        row->sm_clock_hz = probe_sm_clock(r);
        struct run_measure *ms = &r->measure;
        if (!isnan(row->sm_clock_hz) && ms->nclocks < (int)(sizeof ms->clocks / sizeof ms->clocks[0]))
            ms->clocks[ms->nclocks++] = row->sm_clock_hz;
    }
}

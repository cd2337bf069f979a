/* The sweep. Per shape: fresh random inputs, a double-precision reference; per variant:
 *   verify (poisoned output, compared with the reference) -> warm-up -> timed (CUDA
 *   events, L2 flushed between repetitions, nothing else inside the events) -> SM clock
 *   probe -> hardware counters (CUPTI range profiler, a separate phase so counters
 *   never distort times) -> the row, written and flushed at once.
 * Each phase sits in an NVTX range nested in "<variant> MxNxK". */
#include "src/harness.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/results.h"
#include "analysis/verify.h"
#include "cupti/prof.h"
#include "cupti/trace.h"
#include "kernels/clock_probe.h"
#include "kernels/l2_flush.h"
#include "src/ceilings_measure.h"
#include "src/device.h"
#include "src/npy.h"
#include "src/nvtx.h"
#include "src/paths.h"
#include "src/print.h"
#include "src/registry.h"

#define PROBE_BLOCKS 132

/* What a counter pass does to the L2 first (counter_flush_modes below). */
struct counter_flush {
    int reads;         /* reads of the 2x-L2 flush buffer */
    int discard;       /* then drop the flush buffer's lines from the L2 */
    int dirty_first;   /* memset half the flush buffer before reading */
    int pause_ms;      /* sleep after the flush */
};

struct run {
    const struct cli_options *o;
    struct gp_meta meta;
    struct gp_ceilings ceilings;
    int have_ceilings;
    int counters_off, counters_announced;
    double counter_wall_s;   /* wall time of the counter phases, for the cost of counters */
    double counter_open_s, counter_warmup_s;
    int counter_measures;
    struct gemm_context *ctx;
    cudaStream_t stream;
    void *d_flush;
    size_t flush_bytes;
    struct counter_flush counter_flush;
    unsigned long long *d_probe;
    cudaEvent_t *ev_start, *ev_stop;
    FILE *csv;
    int failures;
    int context_lost;
    double clocks[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    int nclocks;
};

/* The inputs and reference of one shape, shared by every variant. */
struct shape_data {
    long m, n, k;
    float *h_a, *h_b, *h_c, *h_cublas;   /* h_cublas: whole-matrix comparison, sampled mode */
    float *d_a, *d_b, *d_c;
    double *ref;                         /* m*n (full) or nsamples entries */
    long *idx;                           /* NULL in full mode */
    long nidx;
    char label[64];                      /* "2048x2048x2048" */
};

/* mkdir -p with a one-line reason for the user. */
static int make_dir(const char *path, char *err, size_t errlen)
{
    if (mkdir_p(path) == 0)
        return 0;
    snprintf(err, errlen, "cannot create directory '%.400s': %s", path, strerror(errno));
    return -1;
}

/* Uniform in [-0.5, 0.5), counter-based so the fill is parallel and reproducible. */
static void fill_random(float *x, long count, uint64_t seed)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; i++)
        x[i] = (float)((double)(gp_splitmix64(seed + (uint64_t)i) >> 40) * 0x1p-24 - 0.5);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Runs the clock probe and returns the median SM clock of its blocks, NaN on failure. */
static double probe_sm_clock(struct run *r)
{
    unsigned long long h[2 * PROBE_BLOCKS];
    double hz[PROBE_BLOCKS];
    if (clock_probe_launch(PROBE_BLOCKS, 200000ULL, r->d_probe, r->stream) != cudaSuccess ||
        cudaMemcpyAsync(h, r->d_probe, sizeof h, cudaMemcpyDeviceToHost, r->stream) != cudaSuccess ||
        cudaStreamSynchronize(r->stream) != cudaSuccess)
        return NAN;
    for (int i = 0; i < PROBE_BLOCKS; i++)
        hz[i] = h[2 * i + 1] ? (double)h[2 * i] / ((double)h[2 * i + 1] * 1e-9) : NAN;
    return median(hz, PROBE_BLOCKS);
}

static cudaError_t flush_l2(struct run *r)
{
    return l2_flush_launch(r->d_flush, r->flush_bytes, (float *)r->d_probe, r->meta.sm_count, r->stream);
}

struct workload {
    const struct gemm_variant *v;
    struct run *run;
    struct shape_data *s;
};

/* How the L2 is flushed before each counter pass. The default, a read of 2x the L2 and
 * then a discard of the flush buffer's own (clean) lines, leaves the L2 nearly empty, as
 * ncu's cache control does; on the H200 it matched ncu's DRAM writes best
 * (tests/gpu/diag_dram_write.sh): 21-32 KB at 1000x1500x700 where ncu sees 0 and reading
 * alone left 40-75 KB of the last pass's dirty lines; at 2048^3 naive 9.06-9.57 MB over
 * 6 runs against ncu's 9.24-9.60, where reading twice gave 2-3% fewer. The others stay
 * for that comparison, chosen with GEMMPROF_COUNTER_FLUSH. */
static const struct counter_flush_mode {
    const char *name;
    struct counter_flush how;
} counter_flush_modes[] = {
    {"read-discard", {1, 1, 0, 0}},
    {"read", {1, 0, 0, 0}},
    {"read2", {2, 0, 0, 0}},
    {"read2-discard", {2, 1, 0, 0}},
    {"write-read", {1, 0, 1, 0}},   /* dirties the L2 with a memset first */
    {"read-wait", {1, 0, 0, 2}},    /* pauses 2 ms after */
    {"none", {0, 0, 0, 0}},         /* keeps the cache warm */
};

/* GEMMPROF_COUNTER_FLUSH, read once before any GPU work: 0, or -1 naming the choices. */
static int counter_flush_from_env(struct counter_flush *how, char *err, size_t errlen)
{
    const char *mode = getenv("GEMMPROF_COUNTER_FLUSH");
    size_t n = sizeof counter_flush_modes / sizeof counter_flush_modes[0];
    for (size_t i = 0; i < n; i++)
        if (!mode || strcmp(mode, counter_flush_modes[i].name) == 0) {
            *how = counter_flush_modes[i].how;
            return 0;
        }
    int used = snprintf(err, errlen, "GEMMPROF_COUNTER_FLUSH=%s: unknown; one of", mode);
    for (size_t i = 0; i < n && used > 0 && (size_t)used < errlen; i++)
        used += snprintf(err + used, errlen - (size_t)used, "%s %s", i ? "," : "", counter_flush_modes[i].name);
    return -1;
}

static void flush_before_pass(void *arg)
{
    struct workload *w = arg;
    struct run *r = w->run;
    const struct counter_flush *how = &r->counter_flush;
    if (r->d_flush) {
        if (how->dirty_first)
            cudaMemsetAsync(r->d_flush, 0, r->flush_bytes / 2, r->stream);
        for (int i = 0; i < how->reads; i++)
            flush_l2(r);
        if (how->discard)
            l2_discard_launch(r->d_flush, r->flush_bytes, r->meta.sm_count, r->stream);
    }
    cudaStreamSynchronize(r->stream);
    if (how->pause_ms) {
        struct timespec pause = {0, how->pause_ms * 1000000L};
        nanosleep(&pause, NULL);
    }
}

static int launch_once(void *arg)
{
    struct workload *w = arg;
    return w->v->launch(w->run->ctx, (int)w->s->m, (int)w->s->n, (int)w->s->k, w->s->d_a,
                        w->s->d_b, w->s->d_c, w->run->stream) == cudaSuccess ? 0 : -1;
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
        fprintf(stderr, "gemmprof: the CUDA context is lost after %s; stopping the sweep\n",
                row->variant);
    }
}

#define TRY(phase, call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            cuda_failure(r, row, phase, e_);                                              \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

static void verify_variant(struct run *r, struct shape_data *s, const struct gemm_variant *v,
                           struct gp_result *row)
{
    const long count = s->m * s->n;
    struct verify_stats st;

    gp_nvtx_push("verify", -1);
    /* 0xFF bytes are NaN floats: an element the kernel never writes cannot pass */
    TRY("poison", cudaMemsetAsync(s->d_c, 0xFF, (size_t)count * sizeof(float), r->stream));
    TRY("launch", v->launch(r->ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b, s->d_c, r->stream));
    TRY("run", cudaStreamSynchronize(r->stream));
    TRY("copy back", cudaMemcpy(s->h_c, s->d_c, (size_t)count * sizeof(float), cudaMemcpyDeviceToHost));

    row->tolerance = verify_tolerance(v->precision, v->tol_factor, s->k);
    verify_compare(s->h_c, count, s->ref, s->idx, s->nidx, &st);
    /* unwritten (poisoned) elements anywhere in C; a full comparison already counted them */
    long nonfinite = s->idx ? verify_count_nonfinite(s->h_c, count) : st.n_nonfinite;
    row->rel_err = st.rel_err;
    row->max_abs_err = st.max_abs_err;
    snprintf(row->verify_method, sizeof row->verify_method, "%s",
             s->idx ? "cpu_fp64_sampled" : "cpu_fp64_full");
    int ok = nonfinite == 0 && st.rel_err <= row->tolerance;
    if (s->h_cublas && strcmp(v->name, "cublas") != 0) {
        /* the sample misses most elements: compare the whole matrix with cuBLAS too,
         * allowing both sides' error */
        row->rel_err_vs_cublas = verify_rel_diff(s->h_c, s->h_cublas, count);
        double tol = row->tolerance + verify_tolerance(GP_FP32, 4.0, s->k);
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
            fprintf(stderr, "gemmprof: %s\n", err);
    }
done:
    gp_nvtx_pop();
}

static void time_variant(struct run *r, struct shape_data *s, const struct gemm_variant *v,
                         struct gp_result *row)
{
    const struct cli_options *o = r->o;
    double *ms = calloc((size_t)o->reps, sizeof *ms);
    if (!ms) {
        snprintf(row->error, sizeof row->error, "out of host memory");
        row->status = GP_STATUS_CUDA_ERROR;
        return;
    }
    int open = 1;   /* a phase range is open: a failure must close it */
    gp_nvtx_push("warmup", -1);
    for (int i = 0; i < o->warmups; i++)
        TRY("warm-up launch", v->launch(r->ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b, s->d_c, r->stream));
    TRY("warm-up", cudaStreamSynchronize(r->stream));
    gp_nvtx_pop();

    gp_nvtx_push("timed", -1);
    for (int i = 0; i < o->reps; i++) {
        /* reading 2x the L2 evicts A, B and C, so each repetition starts cold;
         * the flush sits outside the event pair */
        if (r->d_flush)
            TRY("L2 flush", flush_l2(r));
        TRY("event", cudaEventRecord(r->ev_start[i], r->stream));
        TRY("timed launch", v->launch(r->ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b, s->d_c, r->stream));
        TRY("event", cudaEventRecord(r->ev_stop[i], r->stream));
    }
    TRY("timed run", cudaStreamSynchronize(r->stream));
    gp_nvtx_pop();
    open = 0;

    for (int i = 0; i < o->reps; i++) {
        float t;
        TRY("event time", cudaEventElapsedTime(&t, r->ev_start[i], r->ev_stop[i]));
        ms[i] = t;
    }
    row->reps = o->reps;
    row->warmups = o->warmups;
    row->l2_flush = r->d_flush != NULL;
    row->time_median_s = median(ms, o->reps) * 1e-3;   /* sorts ms */
    row->time_min_s = ms[0] * 1e-3;
    row->time_max_s = ms[o->reps - 1] * 1e-3;
    row->time_spread = (row->time_max_s - row->time_min_s) / row->time_median_s;
    row->flop_per_s = gp_flops_analytic(row) / row->time_median_s;
    free(ms);
    return;
done:
    if (open)
        gp_nvtx_pop();
    free(ms);
}

/* Verify and time one variant; the row is completed by the counter phase. */
static void run_variant(struct run *r, struct shape_data *s, int vi, struct gp_result *row)
{
    const struct gemm_variant *v = &gemm_variants[vi];
    char range[128];

    gp_result_init(row);
    snprintf(row->variant, sizeof row->variant, "%s", v->name);
    snprintf(row->precision, sizeof row->precision, "%s", gp_precision_name(v->precision));
    row->m = s->m;
    row->n = s->n;
    row->k = s->k;
    snprintf(range, sizeof range, "%s %s", v->name, s->label);
    gp_nvtx_push(range, vi);
    verify_variant(r, s, v, row);
    if (row->status != GP_STATUS_CUDA_ERROR)
        time_variant(r, s, v, row);
    gp_nvtx_pop();
    /* the probe runs outside the variant's range, so an NVTX filter on the variant
     * selects only its own kernels; the GPU is still at its working clock */
    if (row->status != GP_STATUS_CUDA_ERROR) {
        row->sm_clock_hz = probe_sm_clock(r);
        if (!isnan(row->sm_clock_hz) && r->nclocks < (int)(sizeof r->clocks / sizeof r->clocks[0]))
            r->clocks[r->nclocks++] = row->sm_clock_hz;
    }
}

/* The counter phase of one shape: the profiler is enabled only here, after every
 * variant of the shape has been timed, so it can never slow a timed launch. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
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
    return l2_flush_launch(r->d_flush ? r->d_flush : (void *)r->d_probe,
                           r->d_flush ? 65536 : 2 * PROBE_BLOCKS * sizeof(unsigned long long),
                           (float *)r->d_probe, 1, r->stream) == cudaSuccess ? 0 : -1;
}

/* One profiler session over a group of metrics, measuring every row of the shape. */
static int count_group(struct run *r, struct shape_data *s, struct gp_result *rows, int nrows,
                       const int *ids, int nids, int warm_up, int *passes)
{
    char why[512], range[128];
    double t_open = now_s();
    struct prof_session *prof = prof_open(r->o->device, ids, nids, why, sizeof why);
    r->counter_open_s += now_s() - t_open;
    if (!prof) {
        fprintf(stderr, "gemmprof: warning: no hardware counters: %s\n"
                        "gemmprof: carrying on with timing only\n", why);
        snprintf(r->meta.counters, sizeof r->meta.counters, "not collected: %.200s", why);
        r->counters_off = 1;   /* one warning, not one per shape */
        return -1;
    }
    *passes += prof_num_passes(prof);
    /* A throwaway first measure of a tiny kernel: on the H200 the first measure of a
     * session carried extra DRAM writes (38 MB instead of ncu's 12 MB for naive at 2048,
     * while the same kernel measured second agreed with ncu), as if the profiler's own
     * set-up writes were still in the L2. Hardware counters only: instrumented counts
     * do not depend on the cache. */
    if (warm_up) {
        double values[GP_METRIC_COUNT];
        char kernels[64];
        const double t0 = now_s();
        gp_nvtx_push("counters warm-up", -1);
        prof_measure(prof, NULL, tiny_workload, r, values, kernels, sizeof kernels, why, sizeof why);
        gp_nvtx_pop();
        r->counter_warmup_s += now_s() - t0;
    }
    /* every variant of the shape in one batch: one pass sequence, one range each */
    struct workload work[CLI_MAX_VARIANTS];
    void *args[CLI_MAX_VARIANTS];
    double values_store[CLI_MAX_VARIANTS][GP_METRIC_COUNT], *values[CLI_MAX_VARIANTS];
    char kernels_store[CLI_MAX_VARIANTS][sizeof rows[0].kernels], *kernels[CLI_MAX_VARIANTS];
    struct gp_result *batch_rows[CLI_MAX_VARIANTS];
    int n = 0;
    for (int i = 0; i < nrows; i++) {
        if (rows[i].status == GP_STATUS_CUDA_ERROR)
            continue;
        work[n] = (struct workload){&gemm_variants[registry_find(rows[i].variant)], r, s};
        args[n] = &work[n];
        values[n] = values_store[n];
        kernels[n] = kernels_store[n];
        batch_rows[n++] = &rows[i];
    }
    snprintf(range, sizeof range, "counters %s", s->label);
    gp_nvtx_push(range, -1);
    int rc = n ? prof_measure_batch(prof, n, flush_before_pass, launch_once, args, values, kernels,
                                    sizeof kernels_store[0], why, sizeof why)
               : 0;
    gp_nvtx_pop();
    for (int i = 0; i < n && rc == 0; i++)
        keep_counts(batch_rows[i], ids, nids, values[i], kernels[i]);
    if (rc != 0) {
        /* one variant failing under the profiler should not cost the others their
         * counters: measure them one at a time */
        fprintf(stderr, "gemmprof: counters for %s as a batch: %s; measuring one by one\n", s->label, why);
        cudaGetLastError();
        for (int i = 0; i < n; i++) {
            struct gp_result *row = batch_rows[i];
            snprintf(range, sizeof range, "counters %s %s", row->variant, s->label);
            gp_nvtx_push(range, -1);
            if (prof_measure(prof, flush_before_pass, launch_once, &work[i], values[i], kernels[i],
                             sizeof kernels_store[0], why, sizeof why) == 0) {
                keep_counts(row, ids, nids, values[i], kernels[i]);
            } else {
                fprintf(stderr, "gemmprof: counters for %s %s: %s\n", row->variant, s->label, why);
                cudaGetLastError();
            }
            gp_nvtx_pop();
        }
    }
    t_open = now_s();
    prof_close(prof);
    r->counter_open_s += now_s() - t_open;
    return 0;
}

/* The counter phase of one shape: the profiler is enabled only here, after every
 * variant of the shape has been timed, so it can never slow a timed launch. Hardware
 * counters and SASS-instrumented counts are collected in separate sessions (the same
 * number of passes in total), so instrumentation traffic never pollutes the bytes. */
static void count_shape(struct run *r, struct shape_data *s, struct gp_result *rows, int nrows)
{
    if (!r->o->counters || r->o->trace || r->counters_off)
        return;
    const double t0 = now_s();
    int hw[CLI_MAX_METRICS], sass[CLI_MAX_METRICS], nhw = 0, nsass = 0, passes = 0;
    for (int i = 0; i < r->o->nmetrics; i++) {
        if (gp_metric_is_instrumented(r->o->metrics[i]))
            sass[nsass++] = r->o->metrics[i];
        else
            hw[nhw++] = r->o->metrics[i];
    }
    gp_nvtx_push("counters", -1);
    int ok = 1;
    if (nhw)
        ok = count_group(r, s, rows, nrows, hw, nhw, 1, &passes) == 0;
    if (ok && nsass)
        ok = count_group(r, s, rows, nrows, sass, nsass, 0, &passes) == 0;
    gp_nvtx_pop();
    if (!ok)
        return;
    for (int i = 0; i < nrows; i++)
        if (rows[i].status != GP_STATUS_CUDA_ERROR)
            rows[i].counter_passes = passes;
    if (!r->counters_announced) {
        printf("counters: %d metrics in %d replay pass%s per kernel (%d hardware, %d SASS-instrumented)\n",
               r->o->nmetrics, passes, passes == 1 ? "" : "es", nhw, nsass);
        snprintf(r->meta.counters, sizeof r->meta.counters, "collected: %d metrics, %d passes",
                 r->o->nmetrics, passes);
        r->counters_announced = 1;
    }
    r->counter_wall_s += now_s() - t0;
    r->counter_measures += nrows;
}

static void write_row(struct run *r, const struct gp_result *row)
{
    if (row->status != GP_STATUS_OK)
        r->failures++;
    if (results_csv_write_row(r->csv, row, r->have_ceilings ? &r->ceilings : NULL))
        fprintf(stderr, "gemmprof: writing %s/results.csv failed: %s\n", r->o->out_dir, strerror(errno));
    print_table_row(stdout, row);
}

static void free_shape(struct shape_data *s)
{
    free(s->h_a);
    free(s->h_b);
    free(s->h_c);
    free(s->h_cublas);
    free(s->ref);
    free(s->idx);
    cudaFree(s->d_a);
    cudaFree(s->d_b);
    cudaFree(s->d_c);
}

/* Inputs, device buffers and the reference of one shape. 0, or -1 with the reason. */
static int prepare_shape(struct run *r, struct shape_data *s, int shape_index, char *err, size_t errlen)
{
    const struct shape *sh = &r->o->shapes[shape_index];
    memset(s, 0, sizeof *s);
    s->m = sh->m;
    s->n = sh->n;
    s->k = sh->k;
    snprintf(s->label, sizeof s->label, "%ldx%ldx%ld", s->m, s->n, s->k);
    const size_t na = (size_t)(s->m * s->k), nb = (size_t)(s->k * s->n), nc = (size_t)(s->m * s->n);
    const int full = (double)s->m * s->n * s->k <= (double)VERIFY_FULL_MAX_FMAS && nc <= (1u << 26);

    gp_nvtx_push("setup", -1);
    s->h_a = malloc(na * sizeof(float));
    s->h_b = malloc(nb * sizeof(float));
    s->h_c = malloc(nc * sizeof(float));
    s->nidx = full ? (long)nc : (nc < VERIFY_SAMPLES ? (long)nc : VERIFY_SAMPLES);
    s->ref = malloc((size_t)s->nidx * sizeof(double));
    if (!full)
        s->idx = malloc((size_t)s->nidx * sizeof(long));
    if (!s->h_a || !s->h_b || !s->h_c || !s->ref || (!full && !s->idx)) {
        snprintf(err, errlen, "%s: out of host memory", s->label);
        goto fail;
    }
    /* fresh inputs per shape: the seed mixes in the shape, so no two shapes share data */
    const uint64_t seed = gp_splitmix64(r->o->seed ^ gp_splitmix64((uint64_t)shape_index * 0x1000193ULL +
                                                         (uint64_t)s->m * 31 + (uint64_t)s->n * 17 +
                                                         (uint64_t)s->k));
    fill_random(s->h_a, (long)na, seed);
    fill_random(s->h_b, (long)nb, gp_splitmix64(seed + 1));

    cudaError_t e;
    if ((e = cudaMalloc((void **)&s->d_a, na * sizeof(float))) ||
        (e = cudaMalloc((void **)&s->d_b, nb * sizeof(float))) ||
        (e = cudaMalloc((void **)&s->d_c, nc * sizeof(float))) ||
        (e = cudaMemcpy(s->d_a, s->h_a, na * sizeof(float), cudaMemcpyHostToDevice)) ||
        (e = cudaMemcpy(s->d_b, s->h_b, nb * sizeof(float), cudaMemcpyHostToDevice))) {
        snprintf(err, errlen, "%s: device buffers: %s", s->label, cudaGetErrorString(e));
        cudaGetLastError();
        goto fail;
    }
    if (!full)
        verify_sample_indices(s->m, s->n, s->nidx, seed, s->idx);
    verify_reference(s->h_a, s->h_b, s->m, s->n, s->k, s->idx, s->nidx, s->ref);

    if (!full) {
        /* cuBLAS's output as a whole-matrix second opinion where the CPU only samples */
        int ci = registry_find("cublas");
        s->h_cublas = malloc(nc * sizeof(float));
        if (ci >= 0 && s->h_cublas &&
            gemm_variants[ci].launch(r->ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b,
                                     s->d_c, r->stream) == cudaSuccess &&
            cudaStreamSynchronize(r->stream) == cudaSuccess &&
            cudaMemcpy(s->h_cublas, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess) {
            struct verify_stats st;
            verify_compare(s->h_cublas, (long)nc, s->ref, s->idx, s->nidx, &st);
            if (!(st.rel_err <= verify_tolerance(GP_FP32, 4.0, s->k))) {
                /* a wrong second opinion would fail every variant: drop it instead */
                fprintf(stderr, "gemmprof: %s: cuBLAS disagrees with the CPU sample (%.3g); "
                                "checking against the sample only\n", s->label, st.rel_err);
                free(s->h_cublas);
                s->h_cublas = NULL;
            }
        } else {
            cudaGetLastError();
            free(s->h_cublas);
            s->h_cublas = NULL;
        }
    }
    if (r->o->dump_npy) {
        char path[1100];
        snprintf(path, sizeof path, "%s/npy/A_%s.npy", r->o->out_dir, s->label);
        if (npy_write_f32(path, s->h_a, s->m, s->k, err, errlen))
            goto fail;
        snprintf(path, sizeof path, "%s/npy/B_%s.npy", r->o->out_dir, s->label);
        if (npy_write_f32(path, s->h_b, s->k, s->n, err, errlen))
            goto fail;
    }
    gp_nvtx_pop();
    return 0;
fail:
    gp_nvtx_pop();
    free_shape(s);
    return -1;
}

static void now_iso(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void fill_run_meta(struct run *r, int argc, char **argv)
{
    struct gp_meta *m = &r->meta;
    size_t off = 0;
    for (int i = 0; i < argc && off < sizeof m->command; i++)
        off += (size_t)snprintf(m->command + off, sizeof m->command - off, "%s%s", i ? " " : "", argv[i]);
    snprintf(m->git_rev, sizeof m->git_rev, "%s", GP_GIT_REV);
    snprintf(m->tool_version, sizeof m->tool_version, "%s", GP_VERSION);
    now_iso(m->date, sizeof m->date);
    gethostname(m->hostname, sizeof m->hostname - 1);
    m->l2_flush = r->o->l2_flush;
    m->reps = r->o->reps;
    m->warmups = r->o->warmups;
    m->seed = r->o->seed;
}

static void write_meta(struct run *r)
{
    char path[1100], err[256];
    if (r->nclocks) {
        double tmp[sizeof r->clocks / sizeof r->clocks[0]];
        memcpy(tmp, r->clocks, (size_t)r->nclocks * sizeof *tmp);
        r->meta.sm_clock_measured_hz = median(tmp, r->nclocks);
    }
    snprintf(path, sizeof path, "%s/results.json", r->o->out_dir);
    if (meta_write_json(path, &r->meta, err, sizeof err))
        fprintf(stderr, "gemmprof: %s\n", err);
}

/* Device memory check before any GPU work: "needs X GiB, the device has Y". */
static int check_memory(const struct run *r, char *err, size_t errlen)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
        return 0;   /* cannot tell; allocation errors will say it later */
    for (int i = 0; i < r->o->nshapes; i++) {
        const struct shape *s = &r->o->shapes[i];
        double need = (double)shape_bytes(s) + (r->o->l2_flush ? 2.0 * r->meta.l2_bytes : 0);
        if (need > (double)free_b * 0.95) {
            snprintf(err, errlen, "size %ldx%ldx%ld needs %.2f GiB of device memory, the device has %.2f GiB free (%.2f GiB total)",
                     s->m, s->n, s->k, need / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0);
            return -1;
        }
    }
    return 0;
}

static void setup_counters(struct run *r)
{
    const struct cli_options *o = r->o;
    if (!o->counters)
        snprintf(r->meta.counters, sizeof r->meta.counters, "not collected (--no-counters)");
    else if (o->trace) {
        snprintf(r->meta.counters, sizeof r->meta.counters,
                 "not collected (--trace: activity tracing and the range profiler are not combined)");
        fprintf(stderr, "gemmprof: --trace: hardware counters off for this run\n");
    }
}

static void setup_ceilings(struct run *r)
{
    char err[512], cache[1024], path[1100];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (!r->o->ceilings)
        return;
    if (xdg && *xdg)
        snprintf(cache, sizeof cache, "%s/gemmprof", xdg);
    else
        snprintf(cache, sizeof cache, "%s/.cache/gemmprof", home && *home ? home : "/tmp");
    if (make_dir(cache, err, sizeof err))
        snprintf(cache, sizeof cache, "%s", r->o->out_dir);
    gp_nvtx_push("ceilings", -1);
    int got = ceilings_get(r->o->device, cache, r->o->force_ceilings, &r->ceilings, stdout, err, sizeof err);
    if (got == 0) {
        /* freshly measured: the peak benchmarks heat the GPU and lower its clock for a
         * while (1.94 vs 1.98 GHz on the H200); let it recover before anything is timed */
        struct timespec pause = {1, 500000000};
        nanosleep(&pause, NULL);
    }
    if (got < 0) {
        fprintf(stderr, "gemmprof: warning: no machine ceilings: %s\n", err);
    } else {
        r->have_ceilings = 1;
        snprintf(path, sizeof path, "%s/ceilings.csv", r->o->out_dir);
        if (ceilings_write_csv(path, &r->ceilings, err, sizeof err))
            fprintf(stderr, "gemmprof: %s\n", err);
    }
    gp_nvtx_pop();
}

int harness_run(const struct cli_options *o, int argc, char **argv)
{
    struct run *r = calloc(1, sizeof *r);
    char err[1024], path[1100];
    int no_device = 0, rc = EXIT_FAILED;
    struct trace *trace = NULL;

    if (!r) {
        fprintf(stderr, "gemmprof: out of host memory\n");
        return EXIT_FAILED;
    }
    r->o = o;
    meta_init(&r->meta);
    ceilings_init(&r->ceilings);
    fill_run_meta(r, argc, argv);

    if (counter_flush_from_env(&r->counter_flush, err, sizeof err)) {
        fprintf(stderr, "gemmprof: %s\n", err);
        free(r);
        return EXIT_USAGE;
    }
    /* the output directory first: a bad path is bad input, reported before GPU work */
    if (make_dir(o->out_dir, err, sizeof err)) {
        fprintf(stderr, "gemmprof: --out: %s\n", err);
        free(r);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof path, "%s/npy", o->out_dir);
    if (o->dump_npy && make_dir(path, err, sizeof err)) {
        fprintf(stderr, "gemmprof: %s\n", err);
        free(r);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof path, "%s/results.csv", o->out_dir);
    r->csv = fopen(path, "w");
    if (!r->csv) {
        fprintf(stderr, "gemmprof: --out: cannot write '%s': %s\n", path, strerror(errno));
        free(r);
        return EXIT_USAGE;
    }

    if (device_open(o->device, &r->meta, &no_device, err, sizeof err)) {
        fprintf(stderr, "gemmprof: %s\n", err);
        fclose(r->csv);
        remove(path);   /* no header-only file pretending to be a run */
        free(r);
        return no_device ? EXIT_NO_DEVICE : EXIT_FAILED;
    }
    if (check_memory(r, err, sizeof err)) {
        fprintf(stderr, "gemmprof: %s\n", err);
        fclose(r->csv);
        remove(path);
        free(r);
        return EXIT_USAGE;
    }
    printf("gemmprof %s on %s (%d SMs, sm_%d%d), %d variant%s x %d shape%s -> %s/\n", GP_GIT_REV,
           r->meta.gpu_name, r->meta.sm_count, r->meta.cc_major, r->meta.cc_minor, o->nvariants,
           o->nvariants == 1 ? "" : "s", o->nshapes, o->nshapes == 1 ? "" : "s", o->out_dir);

    if (cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMalloc((void **)&r->d_probe, 2 * PROBE_BLOCKS * sizeof(unsigned long long)) != cudaSuccess) {
        fprintf(stderr, "gemmprof: cannot create a stream: %s\n", cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    r->ctx = gemm_context_create(r->stream, err, sizeof err);
    if (!r->ctx) {
        fprintf(stderr, "gemmprof: %s\n", err);
        goto out;
    }
    r->ev_start = calloc((size_t)o->reps, sizeof *r->ev_start);
    r->ev_stop = calloc((size_t)o->reps, sizeof *r->ev_stop);
    if (!r->ev_start || !r->ev_stop)
        goto out;
    for (int i = 0; i < o->reps; i++)
        if (cudaEventCreate(&r->ev_start[i]) != cudaSuccess || cudaEventCreate(&r->ev_stop[i]) != cudaSuccess) {
            fprintf(stderr, "gemmprof: cannot create CUDA events\n");
            goto out;
        }
    if (o->l2_flush) {
        r->flush_bytes = (size_t)(2 * r->meta.l2_bytes);
        r->flush_bytes &= ~(size_t)15;
        /* filled once so the flush reads defined data */
        if (cudaMalloc(&r->d_flush, r->flush_bytes) != cudaSuccess ||
            cudaMemset(r->d_flush, 0, r->flush_bytes) != cudaSuccess) {
            fprintf(stderr, "gemmprof: cannot allocate the L2 flush buffer\n");
            goto out;
        }
    }

    setup_ceilings(r);
    setup_counters(r);
    r->meta.planned_rows = o->nshapes * o->nvariants;
    write_meta(r);   /* now, so a sweep that dies still has its metadata */
    if (o->trace && !(trace = trace_start(err, sizeof err)))
        fprintf(stderr, "gemmprof: warning: no timeline: %s\n", err);

    if (results_csv_write_header(r->csv)) {
        fprintf(stderr, "gemmprof: cannot write %s/results.csv: %s\n", o->out_dir, strerror(errno));
        goto out;
    }
    print_table_header(stdout);
    for (int si = 0; si < o->nshapes && !r->context_lost; si++) {
        struct shape_data s;
        if (prepare_shape(r, &s, si, err, sizeof err)) {
            fprintf(stderr, "gemmprof: %s; skipping this shape\n", err);
            r->failures++;
            continue;
        }
        struct gp_result rows[CLI_MAX_VARIANTS];
        int nrows = 0;
        /* Without counters a row is complete once timed, and is written at once; with
         * counters it waits for its shape's counter phase (one batch for all variants). */
        const int counting = o->counters && !o->trace && !r->counters_off;
        for (int vi = 0; vi < o->nvariants && !r->context_lost; vi++) {
            run_variant(r, &s, o->variants[vi], &rows[nrows]);
            if (!counting)
                write_row(r, &rows[nrows]);
            nrows++;
        }
        if (counting) {
            if (!r->context_lost)
                count_shape(r, &s, rows, nrows);
            for (int i = 0; i < nrows; i++)
                write_row(r, &rows[i]);
        }
        free_shape(&s);
    }
    if (trace) {
        cudaDeviceSynchronize();
        snprintf(path, sizeof path, "%s/trace.json", o->out_dir);
        err[0] = '\0';
        if (trace_finish(trace, path, err, sizeof err))
            fprintf(stderr, "gemmprof: timeline: %s\n", err);
        else
            printf("timeline: %s (open in https://ui.perfetto.dev)%s%s\n", path, err[0] ? "; " : "", err);
    }
    write_meta(r);
    rc = r->failures || r->context_lost ? EXIT_FAILED : EXIT_OK;
    if (r->counter_measures)
        printf("counter phase: %.2f s wall for %d variant x shape measurements (%.1f ms each; "
               "opening and closing sessions %.2f s, warm-up measures %.2f s)\n",
               r->counter_wall_s, r->counter_measures, 1e3 * r->counter_wall_s / r->counter_measures,
               r->counter_open_s, r->counter_warmup_s);
    printf("%s/results.csv: %d failure%s\n", o->out_dir, r->failures, r->failures == 1 ? "" : "s");
out:
    if (r->ev_start)
        for (int i = 0; i < o->reps; i++) {
            if (r->ev_start[i]) cudaEventDestroy(r->ev_start[i]);
            if (r->ev_stop[i]) cudaEventDestroy(r->ev_stop[i]);
        }
    free(r->ev_start);
    free(r->ev_stop);
    gemm_context_destroy(r->ctx);
    cudaFree(r->d_flush);
    cudaFree(r->d_probe);
    if (r->stream)
        cudaStreamDestroy(r->stream);
    if (r->csv)
        fclose(r->csv);
    free(r);
    return rc;
}

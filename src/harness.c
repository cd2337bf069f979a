/* The sweep. Per shape: fresh random inputs, a double-precision reference; per variant:
 *   verify (poisoned output, compared with the reference) -> warm-up -> timed (CUDA
 *   events, L2 flushed between repetitions, nothing else inside the events) -> SM clock
 *   probe -> hardware counters (CUPTI range profiler, a separate phase so counters
 *   never distort times) -> the row, written and flushed at once.
 * Each phase sits in an NVTX range nested in "<variant> MxNxK". The shape setup is in
 * src/shape.c, a variant's verify, timing and clock probe in src/measure.c, the counter
 * phase in src/counter_phase.c, the results directory in src/outdir.c. */
#include "analysis/message.h"
#include "src/harness.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/numparse.h"
#include "analysis/report.h"
#include "analysis/results_csv.h"
#include "analysis/version.h"
#include "cupti/prof.h"
#include "cupti/trace.h"
#include "kernels/l2_flush.h"
#include "src/ceilings_measure.h"
#include "src/cuda_try.h"
#include "src/device.h"
#include "src/interrupt.h"
#include "src/counter_phase.h"
#include "src/measure.h"
#include "src/nvtx.h"
#include "analysis/paths.h"
#include "src/print.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"
#include "src/tune.h"

/* Verify and time one variant; the row is completed by the counter phase. */
static void run_variant(struct run *r, struct shape_data *s, int vi, struct gp_result *row)
{
    measure_variant(r, s, registry_variant(vi), vi, row);
}

/* The meta sidecar and the ceilings go with the first row: until then the directory
 * still holds the previous run, whole. */
static void write_meta(struct run *r);

static void publish(struct run *r)
{
    char err[1200], path[1100];
    if (outdir_publish(&r->out, err, sizeof err)) {
        gp_message("%s", err);
        return;
    }
    if (r->have_ceilings) {
        snprintf(path, sizeof path, "%s/ceilings.csv", r->o->out_dir);
        if (ceilings_write_csv(path, &r->ceilings, err, sizeof err))
            gp_message("%s", err);
    }
    write_meta(r);
}

static void write_row(struct run *r, const struct gp_result *row)
{
    if (row->status != GP_STATUS_OK)
        r->failures++;
    if (results_csv_write_row(r->out.csv, row, r->have_ceilings ? &r->ceilings : NULL))
        gp_message("writing %s/results.csv failed: %s", r->o->out_dir, strerror(errno));
    else if (r->rows_written++ == 0)
        publish(r);
    print_row(&r->printer, row);
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
    snprintf(m->tool_version, sizeof m->tool_version, "%s", GP_VERSION_STRING);
    now_iso(m->date, sizeof m->date);
    gethostname(m->hostname, sizeof m->hostname - 1);
    m->l2_flush = r->o->l2_flush;
    m->reps = r->o->reps;
    m->warmups = r->o->warmups;
    m->seed = r->o->seed;
    /* each variant as this build describes it, so that the report of these results
     * describes what was measured, whichever build renders it */
    _Static_assert(CLI_MAX_VARIANTS <= GP_META_VARIANTS, "results.json holds every variant a run selects");
    for (int i = 0; i < r->o->nvariants; i++) {
        const struct gemm_variant *v = registry_variant(r->o->variants[i]);
        struct gp_meta_variant *e = &m->variants.v[m->variants.n++];
        snprintf(e->name, sizeof e->name, "%s", v->name);
        snprintf(e->precision, sizeof e->precision, "%s", gp_precision_name(v->precision));
        snprintf(e->description, sizeof e->description, "%s", v->desc ? v->desc : "");
    }
}

static void write_meta(struct run *r)
{
    char path[1100], err[256];
    if (r->measure.nclocks) {
        double tmp[sizeof r->measure.clocks / sizeof r->measure.clocks[0]];
        memcpy(tmp, r->measure.clocks, (size_t)r->measure.nclocks * sizeof *tmp);
        r->meta.sm_clock_measured_hz = measure_median(tmp, r->measure.nclocks);
    }
    snprintf(path, sizeof path, "%s/results.json", r->o->out_dir);
    if (meta_write_json(path, &r->meta, err, sizeof err))
        gp_message("%s", err);
}

/* --metrics names outside the table, checked against the chip's counter library before
 * any GPU work: 0, or -1 with err naming the metric and the chip. When the chip cannot be
 * asked, the check is left to the profiler's own (it warns and times only). */
static int check_extra_metrics(const struct cli_options *o, char *err, size_t errlen)
{
    char chip[64], why[512];
    if (!o->counters || o->trace || gp_extra_count() == 0)
        return 0;
    if (prof_device_chip(o->device, chip, sizeof chip, why, sizeof why)) {
        gp_message("warning: --metrics not checked before the sweep: %s", why);
        return 0;
    }
    /* the extras alone: a table metric the chip lacks (AD102 has no
     * l1tex__lsu_writeback_active_mem_lgds) stays the profiler's warning, as without -m */
    int extra[CLI_MAX_METRICS], n = 0;
    for (int i = 0; i < o->nmetrics; i++)
        if (o->metrics[i] >= GP_METRIC_COUNT)
            extra[n++] = o->metrics[i];
    return prof_check_metric_names(chip, extra, n, err, errlen);
}

static void setup_counters(struct run *r)
{
    const struct cli_options *o = r->o;
    if (!o->counters)
        snprintf(r->meta.counters, sizeof r->meta.counters, "not collected (--no-counters)");
    else if (o->trace) {
        snprintf(r->meta.counters, sizeof r->meta.counters,
                 "not collected (--trace: activity tracing and the range profiler are not combined)");
        gp_message("--trace: hardware counters off for this run");
    }
}

static void setup_ceilings(struct run *r)
{
    char err[512], cache[1024];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (!r->o->ceilings)
        return;
    if (xdg && *xdg)
        snprintf(cache, sizeof cache, "%s/gemmprof", xdg);
    else
        snprintf(cache, sizeof cache, "%s/.cache/gemmprof", home && *home ? home : "/tmp");
    if (mkdir_p(cache) != 0)
        snprintf(cache, sizeof cache, "%s", r->o->out_dir);
    gp_nvtx_push("ceilings", -1);
    int got = ceilings_get(r->o->device, cache, r->o->force_ceilings, &r->ceilings, stderr, err, sizeof err);
    if (got == 0) {
        /* freshly measured: the peak benchmarks heat the GPU and lower its clock for a
         * while (1.94 vs 1.98 GHz on the H200); let it recover before anything is timed */
        struct timespec pause = {1, 500000000};
        nanosleep(&pause, NULL);
    }
    if (got < 0)
        gp_message("warning: no machine ceilings: %s", err);
    else
        r->have_ceilings = 1;   /* written into the results directory with the first row */
    gp_nvtx_pop();
}

/* GEMMPROF_TEST_SLOWDOWN=VARIANT:NS (or all:NS, every variant), read once before GPU work:
 * 0, or -1 naming the problem. */
static int slowdown_from_env(struct run *r, char *err, size_t errlen)
{
    const char *spec = getenv("GEMMPROF_TEST_SLOWDOWN");
    char name[64];
    r->hooks.slow_variant = -1;
    if (!spec || !*spec)
        return 0;
    const char *colon = strchr(spec, ':');
    if (colon && (size_t)(colon - spec) < sizeof name) {
        memcpy(name, spec, (size_t)(colon - spec));
        name[colon - spec] = '\0';
        r->hooks.slow_variant = strcmp(name, "all") == 0 ? SLOW_ALL : registry_find(name);
        if (r->hooks.slow_variant != -1 && parse_ull(colon + 1, 1000000000ULL, &r->hooks.slow_ns) == 0) {
            gp_message("warning: GEMMPROF_TEST_SLOWDOWN: %s's timed launches get %llu ns more (a test hook)",
                       r->hooks.slow_variant == SLOW_ALL ? "every variant" : name, r->hooks.slow_ns);
            return 0;
        }
    }
    r->hooks.slow_variant = -1;
    snprintf(err, errlen, "GEMMPROF_TEST_SLOWDOWN=%.100s: expected VARIANT:NANOSECONDS (a known variant or 'all', at most 1e9 ns)",
             spec);
    return -1;
}

/* GEMMPROF_TEST_PAD_MB=N (0..65536), read once before GPU work: 0, or -1 naming the problem. */
static int pad_from_env(struct run *r, char *err, size_t errlen)
{
    const char *spec = getenv("GEMMPROF_TEST_PAD_MB");
    unsigned long long mb;
    r->hooks.pad_bytes = 0;
    if (!spec || !*spec)
        return 0;
    if (parse_ull(spec, 65536, &mb)) {
        snprintf(err, errlen, "GEMMPROF_TEST_PAD_MB=%.100s: expected a whole number of MiB, 0 to 65536", spec);
        return -1;
    }
    r->hooks.pad_bytes = (size_t)mb << 20;
    if (mb)
        gp_message("warning: GEMMPROF_TEST_PAD_MB: %llu MiB of device memory before each shape's matrices "
                   "(a test hook)", mb);
    return 0;
}

/* The GPU resources of the sweep. 0, or -1 with the failing call named in err. */
static int setup_gpu(struct run *r, char *err, size_t errlen)
{
    const struct cli_options *o = r->o;
    CUDA_TRY(cudaStreamCreateWithFlags(&r->gpu.stream, cudaStreamNonBlocking), "stream", err, errlen, fail);
    CUDA_TRY(cudaMalloc((void **)&r->gpu.d_probe, 2 * PROBE_BLOCKS * sizeof(unsigned long long)),
             "clock probe buffer", err, errlen, fail);
    if (!(r->gpu.ctx = gemm_context_create(r->gpu.stream, err, errlen)))
        return -1;
    r->gpu.ev_start = calloc((size_t)o->reps, sizeof *r->gpu.ev_start);
    r->gpu.ev_stop = calloc((size_t)o->reps, sizeof *r->gpu.ev_stop);
    if (!r->gpu.ev_start || !r->gpu.ev_stop) {
        snprintf(err, errlen, "out of host memory for %d timing events", o->reps);
        return -1;
    }
    for (int i = 0; i < o->reps; i++) {
        CUDA_TRY(cudaEventCreate(&r->gpu.ev_start[i]), "timing events", err, errlen, fail);
        CUDA_TRY(cudaEventCreate(&r->gpu.ev_stop[i]), "timing events", err, errlen, fail);
    }
    if (o->l2_flush) {
        r->gpu.flush_bytes = (size_t)(2 * r->meta.l2_bytes) & ~(size_t)15;
        CUDA_TRY(cudaMalloc(&r->gpu.d_flush, r->gpu.flush_bytes), "L2 flush buffer", err, errlen, fail);
        /* filled once so the flush reads defined data */
        CUDA_TRY(cudaMemset(r->gpu.d_flush, 0, r->gpu.flush_bytes), "L2 flush buffer", err, errlen, fail);
    }
    return 0;
fail:
    return -1;
}

static void teardown_gpu(struct run *r)
{
    counter_phase_end(r);   /* early exits: the profiler off before the buffers go */
    for (int i = 0; r->gpu.ev_start && i < r->o->reps; i++)
        if (r->gpu.ev_start[i])
            cudaEventDestroy(r->gpu.ev_start[i]);
    for (int i = 0; r->gpu.ev_stop && i < r->o->reps; i++)
        if (r->gpu.ev_stop[i])
            cudaEventDestroy(r->gpu.ev_stop[i]);
    free(r->gpu.ev_start);
    free(r->gpu.ev_stop);
    gemm_context_destroy(r->gpu.ctx);
    cudaFree(r->gpu.d_flush);
    cudaFree(r->gpu.d_probe);
    if (r->gpu.stream)
        cudaStreamDestroy(r->gpu.stream);
}

/* One line on stderr once a variant is verified and timed. */
static void announce_timed(const struct gp_result *row)
{
    if (row->status == GP_STATUS_CUDA_ERROR)
        gp_message("%s %ldx%ldx%ld: %s", row->variant, row->m, row->n, row->k, row->error);
    else
        gp_message("%s %ldx%ldx%ld: %s, %.4f ms, %.2f TFLOP/s (counters next)", row->variant, row->m, row->n,
                   row->k, gp_status_name(row->status), row->time_median_s * 1e3, row->flop_per_s * 1e-12);
}

/* Every shape: setup, then each variant verified and timed, then the counter phase. A
 * signal stops it at the next whole row; rows measured by then are written. */
static void sweep(struct run *r)
{
    const struct cli_options *o = r->o;
    char err[1024];
    for (int si = 0; si < o->nshapes && !r->context_lost && !interrupt_pending(); si++) {
        int mine = 0;
        for (int vi = 0; vi < o->nvariants; vi++)
            mine += !r->share.not_mine[si * o->nvariants + vi];
        if (!mine)
            continue;   /* --shard: no setup for a shape whose rows are all other ranks' */
        struct shape_data s;
        if (shape_prepare(r, &s, si, err, sizeof err)) {
            gp_message("%s; skipping this shape", err);
            r->failures++;
            continue;
        }
        struct gp_result rows[CLI_MAX_VARIANTS];
        int nrows = 0;
        /* Without counters a row is complete once timed, and is written at once; with
         * counters it waits for its shape's counter phase (one batch for all variants). */
        const int counting = o->counters && !o->trace && !r->counters.off;
        for (int vi = 0; vi < o->nvariants && !r->context_lost && !interrupt_pending(); vi++) {
            if (r->share.not_mine[si * o->nvariants + vi])
                continue;
            run_variant(r, &s, o->variants[vi], &rows[nrows]);
            if (!counting)
                write_row(r, &rows[nrows]);
            else   /* progress: its row waits for the shape's counter phase */
                announce_timed(&rows[nrows]);
            nrows++;
        }
        if (counting) {
            if (!r->context_lost && !interrupt_pending())
                count_shape(r, &s, rows, nrows);
            for (int i = 0; i < nrows; i++)
                write_row(r, &rows[i]);
        }
        shape_free(&s);
    }
}

static void finish_trace(struct run *r, struct trace *trace)
{
    char err[1024], path[1100];
    cudaDeviceSynchronize();
    snprintf(path, sizeof path, "%s/trace.json", r->o->out_dir);
    err[0] = '\0';
    if (trace_finish(trace, path, err, sizeof err))
        gp_message("timeline: %s", err);
    else
        fprintf(stderr, "timeline: %s (open in https://ui.perfetto.dev)%s%s\n", path, err[0] ? "; " : "", err);
}

static void print_summary(const struct run *r)
{
    if (r->counters.measures)
        fprintf(stderr, "counter phase: %.2f s wall for %d variant x shape measurements (%.1f ms each; "
               "%d session%s opened and closed, %.2f s, warm-up measures %.2f s)\n",
               r->counters.wall_s, r->counters.measures, 1e3 * r->counters.wall_s / r->counters.measures,
               r->counters.sessions_opened, r->counters.sessions_opened == 1 ? "" : "s", r->counters.open_s,
               r->counters.warmup_s);
    if (r->counters.cost.ranges) {
        const struct prof_cost *c = &r->counters.cost;
        fprintf(stderr, "counter phase by part: %ld ranges in %ld passes; flushes (each waiting for the range "
                        "before) %.2f s, ranges %.2f s (%.2f ms each), pass ends %.2f s, counter data %.2f s\n",
                c->ranges, c->passes, c->prepare_s, c->ranges_s, 1e3 * c->ranges_s / (double)c->ranges, c->pass_end_s,
                c->decode_s);
    }
    if (r->measure.launch_facts_rows)
        fprintf(stderr, "launch facts: %d row%s, %.1f ms of capture and queries around the verify launches\n",
               r->measure.launch_facts_rows, r->measure.launch_facts_rows == 1 ? "" : "s", 1e3 * r->measure.launch_facts_s);
    fprintf(stderr, "%s/results.csv: %d row%s, %d failure%s\n", r->o->out_dir, r->rows_written,
           r->rows_written == 1 ? "" : "s", r->failures, r->failures == 1 ? "" : "s");
}

/* The launcher's ranks into the meta; the device by local rank unless --device was
 * given. 0, or -1 with err (malformed launcher variables, no mode with several ranks). */
static int setup_ranks(struct run *r, char *err, size_t errlen)
{
    struct cli_options *o = &r->opts;
    if (ranks_from_env(&r->share.ranks, err, errlen))
        return -1;
    const struct rank_info *ri = &r->share.ranks;
    r->meta.rank = ri->rank;
    r->meta.world_size = ri->world_size;
    r->meta.local_rank = ri->local_rank;
    if (ri->world_size == 1)
        return 0;   /* mode "single": --shard and --fleet alone are a normal run */
    if (o->mode == RANK_SINGLE) {
        snprintf(err, errlen, "%d ranks (%s): give --shard (split the sweep) or --fleet (every rank runs it)",
                 ri->world_size, ri->source);
        return -1;
    }
    snprintf(r->meta.mode, sizeof r->meta.mode, "%s", rank_mode_name(o->mode));
    int visible = 0;
    if (!o->device_given && cudaGetDeviceCount(&visible) == cudaSuccess && visible > 0)
        o->device = ranks_pick_device(ri->local_rank, visible);
    return 0;
}

/* --shard's item costs, before the GPU is touched (so a bad --shard-costs file is bad input):
 * FLOPs, or with --shard-costs the GPU seconds each item took in that earlier results.csv
 * (ranks_costs_from_rows), the file read here once. 0, or -1 with a one-line reason. */
static int plan_shard_costs(struct run *r, char *err, size_t errlen)
{
    const struct cli_options *o = r->o;
    const int n = o->nshapes * o->nvariants;
    static struct shard_item items[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    for (int si = 0; si < o->nshapes; si++)
        for (int vi = 0; vi < o->nvariants; vi++) {
            const struct shape *sh = &o->shapes[si];
            const char *name = registry_name(o->variants[vi]);
            items[si * o->nvariants + vi] = (struct shard_item){name ? name : "", sh->m, sh->n, sh->k};
        }
    r->share.shard_timed = 0;
    if (!o->shard_costs)
        return ranks_costs(items, n, NULL, 0, r->share.shard_cost) < 0 ? -1 : 0;
    struct gp_result *rows = NULL;
    int nrows = 0;
    char why[600];
    if (results_csv_read(o->shard_costs, &rows, &nrows, why, sizeof why)) {
        snprintf(err, errlen, "--shard-costs: %s", why);
        return -1;
    }
    r->share.shard_timed = ranks_costs_from_rows(items, n, rows, nrows, r->share.shard_cost);
    free(rows);
    if (r->share.shard_timed < 0) {
        snprintf(err, errlen, "--shard-costs: out of host memory");
        return -1;
    }
    return 0;
}

/* --shard: this rank's items of the deterministic split, the others marked not_mine.
 * Every rank computes the same split from the same command line. 0, or -1 (memory). */
static int setup_shard(struct run *r, char *err, size_t errlen)
{
    const struct cli_options *o = r->o;
    int n = o->nshapes * o->nvariants;
    if (r->share.ranks.world_size == 1 || o->mode != RANK_SHARD)
        return 0;
    static int owner[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    const double *cost = r->share.shard_cost;   /* plan_shard_costs */
    double total = 0, load = 0;
    for (int i = 0; i < n; i++)
        total += cost[i];
    if (ranks_shard(cost, n, r->share.ranks.world_size, owner, NULL)) {
        snprintf(err, errlen, "--shard: cannot split %d rows over %d ranks (out of memory)", n, r->share.ranks.world_size);
        return -1;
    }
    int mine = 0;
    for (int i = 0; i < n; i++) {
        r->share.not_mine[i] = owner[i] != r->share.ranks.rank;
        if (!r->share.not_mine[i]) {
            mine++;
            load += cost[i];
        }
    }
    if (o->shard_costs)
        fprintf(stderr, "rank %d of %d (%s): %d of %d rows, %.1f%% of the sweep's expected GPU time "
                        "(%d of %d rows timed in %s)\n", r->share.ranks.rank, r->share.ranks.world_size, r->share.ranks.source, mine,
                n, total > 0 ? 100 * load / total : 0.0, r->share.shard_timed, n, o->shard_costs);
    else
        fprintf(stderr, "rank %d of %d (%s): %d of %d rows, %.1f%% of the sweep's FLOPs\n", r->share.ranks.rank,
                r->share.ranks.world_size, r->share.ranks.source, mine, n, total > 0 ? 100 * load / total : 0.0);
    return 0;
}

int harness_run(const struct cli_options *caller_opts, int argc, char **argv)
{
    char err[1200];
    int rc = EXIT_FAILED;
    struct trace *trace = NULL;
    struct run *r = calloc(1, sizeof *r);
    if (!r) {
        gp_message("out of host memory");
        return EXIT_FAILED;
    }
    r->opts = *caller_opts;
    r->o = &r->opts;
    const struct cli_options *o = r->o;
    r->measure.launch_facts_off = !o->launch_facts;
    r->out.lock_fd = -1;
    meta_init(&r->meta);
    ceilings_init(&r->ceilings);
    r->counters.combined = -1;   /* one session or two: decided at the first counter phase */
    fill_run_meta(r, argc, argv);
    interrupt_install();

    /* bad input first, before anything is created or the GPU is touched */
    rc = EXIT_USAGE;
    if (counter_flush_from_env(&r->counters.flush, err, sizeof err) ||
        counter_sessions_from_env(&r->counters.per_shape, err, sizeof err) ||
        counter_pdl_from_env(&r->counters.pdl, err, sizeof err) || slowdown_from_env(r, err, sizeof err) ||
        pad_from_env(r, err, sizeof err) || setup_ranks(r, err, sizeof err) || outdir_check(o->out_dir, err, sizeof err) ||
        plan_shard_costs(r, err, sizeof err))
        goto fail;
    switch (device_open(o->device, &r->meta, err, sizeof err)) {
    case DEVICE_OK: break;
    case DEVICE_NONE: rc = EXIT_NO_DEVICE; goto fail;
    case DEVICE_BAD_INDEX: rc = EXIT_USAGE; goto fail;
    default: rc = EXIT_FAILED; goto fail;
    }
    if (check_extra_metrics(o, err, sizeof err))
        goto fail;   /* EXIT_USAGE */
    if (r->share.ranks.world_size > 1) {
        /* each rank its own directory, named once the GPU's UUID is known */
        if (ranks_dir_name(o->out_dir, r->meta.hostname, r->meta.gpu_uuid, r->share.ranks.rank, r->share.rank_dir,
                           sizeof r->share.rank_dir)) {
            snprintf(err, sizeof err, "--out '%.900s': too long for the per-rank directories under it", o->out_dir);
            goto fail;
        }
        r->opts.out_dir = r->share.rank_dir;
        if (outdir_check(o->out_dir, err, sizeof err))
            goto fail;
        fprintf(stderr, "rank %d of %d (%s, local rank %d), --%s: device %d -> %s/\n", r->share.ranks.rank,
                r->share.ranks.world_size, r->share.ranks.source, r->share.ranks.local_rank, r->meta.mode, o->device, o->out_dir);
    }
    if (setup_shard(r, err, sizeof err))
        goto fail;
    if (shapes_check_memory(r, err, sizeof err) || outdir_open(&r->out, o->out_dir, err, sizeof err))
        goto fail;
    interrupt_set_temp_file(r->out.partial);
    if (o->dump_npy) {
        char npy[1100];
        snprintf(npy, sizeof npy, "%s/npy", o->out_dir);
        if (mkdir_p(npy) != 0) {
            snprintf(err, sizeof err, "--dump-npy: cannot create directory '%s': %s", npy, strerror(errno));
            goto fail;
        }
    }
    rc = EXIT_FAILED;
    fprintf(stderr, "gemmprof %s on %s (%d SMs, sm_%d%d), %d variant%s x %d shape%s -> %s/\n", GP_GIT_REV,
           r->meta.gpu_name, r->meta.sm_count, r->meta.cc_major, r->meta.cc_minor, o->nvariants,
           o->nvariants == 1 ? "" : "s", o->nshapes, o->nshapes == 1 ? "" : "s", o->out_dir);
    if (setup_gpu(r, err, sizeof err))
        goto fail;
    setup_ceilings(r);
    setup_counters(r);
    r->meta.planned_rows = 0;
    for (int i = 0; i < o->nshapes * o->nvariants; i++)
        r->meta.planned_rows += !r->share.not_mine[i];
    if (o->tune) {   /* the tuner's own table and tune.csv; results.csv stays as it was */
        rc = o->tune == CLI_TUNE_TF32 ? tune_tf32_run(r) : tune_run(r);
        if (interrupt_pending())
            rc = 128 + interrupt_pending();
        goto done;
    }
    if (o->trace && !(trace = trace_start(err, sizeof err)))
        gp_message("warning: no timeline: %s", err);
    if (results_csv_write_header(r->out.csv)) {
        snprintf(err, sizeof err, "cannot write %.1000s: %s", r->out.partial, strerror(errno));
        goto fail;
    }
    r->printer = (struct printer){stdout, o->format, r->have_ceilings ? &r->ceilings : NULL, 0};
    print_begin(&r->printer);
    sweep(r);
    counter_phase_end(r);   /* kept sessions closed before the cost line counts them */
    print_end(&r->printer);
    if (trace)
        finish_trace(r, trace);
    if (r->rows_written)
        write_meta(r);
    print_summary(r);
    rc = r->failures || r->context_lost ? EXIT_FAILED : EXIT_OK;
    if (interrupt_pending()) {
        const int sig = interrupt_pending();
        gp_message("stopped by %s: %d complete row%s kept in %s/results.csv%s",
                sig == SIGINT ? "SIGINT" : "SIGTERM", r->rows_written, r->rows_written == 1 ? "" : "s",
                o->out_dir, r->rows_written ? "; 'gemmprof report DIR' renders them" : " (none: the directory is as it was)");
        rc = 128 + sig;
    } else if (o->report && r->rows_written) {
        /* the main job ends with the report of what it just measured, under the lock.
         * report_render says what failed (a chart, the file) itself; the sweep's status
         * stands. Its lines are progress, so they go to stderr with the rest (the table
         * flushed first, to come before them): stdout holds the results table alone. */
        const struct report_options ropt = {NULL, 0, -1, 0, 1, stderr};
        fflush(stdout);
        report_render(o->out_dir, &ropt);
    }
    goto done;
fail:
    if (r->share.ranks.world_size > 1 && strcmp(r->meta.mode, "single") != 0)   /* name the rank that failed */
        gp_message("rank %d of %d: %s", r->share.ranks.rank, r->share.ranks.world_size, err);
    else
        gp_message("%s", err);
done:
    teardown_gpu(r);
    interrupt_set_temp_file(NULL);
    outdir_close(&r->out);
    interrupt_uninstall();
    free(r);
    return rc;
}

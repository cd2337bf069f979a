/* gemmprof --tune MxNxK: every plan simt_auto could run at one shape (each tile
 * configuration of kernels/simt_configs.def with each split of K the rule considers),
 * verified and timed exactly as the sweep times a variant (measure_variant: poisoned
 * output checked against the fp64 reference, warm-ups, CUDA events around each launch,
 * L2 flushed between repetitions, median). Prints a table with the rule's pick marked and
 * writes it to DIR/tune.csv; then, for reference, the fixed variants warptile, bigtile,
 * dbuf and cuBLAS SGEMM at the same shape, timed the same way. Each row has the
 * configuration's registers per thread and resident blocks per SM, and "eff": the measured
 * FLOP/s as a fraction of the FFMA peak at SIMT_MODEL_SM_HZ, the number to copy into the
 * EFF column of kernels/simt_configs.def (from a large shape's split1 rows). It is how the
 * rule is checked on a device (and its efficiencies calibrated), not how it decides. */
#include "src/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"
#include "analysis/message.h"
#include "kernels/simt_plan.h"
#include "kernels/simt.h"
#include "src/interrupt.h"
#include "src/measure.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"

/* The plan the tuner's launcher runs: measure_variant takes a launcher of the variants'
 * signature, which has no room for a plan. Single-threaded, set before each measurement. */
static struct simt_plan tune_current;

static cudaError_t tune_launch(struct gemm_context *ctx, int m, int n, int k, const float *a, const float *b,
                               float *c, cudaStream_t stream)
{
    (void)ctx;
    return simt_plan_launch(&tune_current, m, n, k, a, b, c, stream);
}

struct tune_row {
    struct simt_plan plan;
    struct gp_result res;
    double waves;   /* blocks / (SMs x resident blocks per SM) */
    int picked;
};

/* the fixed variants timed after the plans, for reference */
static const char *const tune_references[] = {"warptile", "bigtile", "dbuf", "cublas"};
#define NREFS ((int)(sizeof tune_references / sizeof tune_references[0]))

/* measured FLOP/s as a fraction of the FFMA peak (SMs x 128 FMA x 2 at SIMT_MODEL_SM_HZ) */
static double tune_eff(const struct run *r, const struct gp_result *res)
{
    return res->flop_per_s / ((double)r->meta.sm_count * 256.0 * SIMT_MODEL_SM_HZ);
}

static int blocks_per_sm(const struct simt_machine *mc, int config)
{
    return mc->blocks_per_sm[config] > 0 ? mc->blocks_per_sm[config] : simt_configs[config].min_blocks;
}

static void print_table(FILE *f, const struct run *r, const struct shape_data *s, const struct simt_machine *mc,
                        const struct tune_row *rows, int n, const struct gp_result *refs, int nrefs, double best_s)
{
    fprintf(f, "simt_auto plans at %s on %s (%d SMs): median of %d, L2 %s; * = the rule's pick\n", s->label,
            r->meta.gpu_name, r->meta.sm_count, r->o->reps, r->o->l2_flush ? "flushed" : "warm");
    fprintf(f, "  %-39s %4s %6s %7s %6s %-13s %10s %8s %7s %5s %9s\n", "config", "regs", "blk/SM", "blocks", "waves",
            "status", "median ms", "TFLOP/s", "% best", "eff", "model ms");
    for (int i = 0; i < n; i++) {
        const struct tune_row *t = &rows[i];
        fprintf(f, "%c %-39s %4d %6d %7ld %6.2f %-13s", t->picked ? '*' : ' ', t->res.config, mc->regs[t->plan.config],
                blocks_per_sm(mc, t->plan.config), t->plan.blocks, t->waves, gp_status_name(t->res.status));
        if (isnan(t->res.time_median_s) || isinf(best_s))
            fprintf(f, " %10s %8s %7s %5s", "-", "-", "-", "-");
        else
            fprintf(f, " %10.4f %8.2f %6.1f%% %5.3f", t->res.time_median_s * 1e3, t->res.flop_per_s * 1e-12,
                    100 * best_s / t->res.time_median_s, tune_eff(r, &t->res));
        fprintf(f, " %9.4f\n", 1e3 * t->plan.est_cycles / SIMT_MODEL_SM_HZ);
    }
    for (int i = 0; i < nrefs; i++)
        tune_print_reference(f, 10, 28, tune_references[i], &refs[i], best_s, tune_eff(r, &refs[i]));
    fflush(f);
}

/* DIR/tune.csv, written whole or not at all. 0, or -1 with the reason. */
static int write_csv(const struct run *r, const struct shape_data *s, const struct simt_machine *mc,
                     const struct tune_row *rows, int n, double best_s, char *err, size_t errlen)
{
    char path[1100], num[64];
    struct atomic_file af;
    snprintf(path, sizeof path, "%s/tune.csv", r->o->out_dir);
    FILE *f = atomic_open(&af, path, err, errlen);
    if (!f)
        return -1;
    fputs("m,n,k,config,config_name,block_m,block_n,block_k,warp_m,warp_n,thread_m,thread_n,stages,threads,"
          "a_kmajor,split,k_slice,blocks,registers,blocks_per_sm,waves,picked,status,rel_err,time_median_s,"
          "time_min_s,time_max_s,flop_per_s,pct_of_best,eff,model_s\n", f);
    for (int i = 0; i < n; i++) {
        const struct tune_row *t = &rows[i];
        const struct simt_config *c = &simt_configs[t->plan.config];
        int tm, tn;
        simt_config_thread_tile(c, &tm, &tn);
        fprintf(f, "%ld,%ld,%ld,", s->m, s->n, s->k);
        csv_write_field(f, t->res.config);
        fprintf(f, ",%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%ld,%d,%d,", c->name, c->bm, c->bn, c->bk, c->wm, c->wn,
                tm, tn, c->stages, simt_config_threads(c), c->a_kmajor, t->plan.split, t->plan.k_slice, t->plan.blocks,
                mc->regs[t->plan.config], blocks_per_sm(mc, t->plan.config));
        const double cells[] = {t->waves, t->picked, NAN /* status */, t->res.rel_err, t->res.time_median_s,
                                t->res.time_min_s, t->res.time_max_s, t->res.flop_per_s,
                                100 * best_s / t->res.time_median_s, tune_eff(r, &t->res),
                                t->plan.est_cycles / SIMT_MODEL_SM_HZ};
        for (size_t j = 0; j < sizeof cells / sizeof cells[0]; j++) {
            if (j == 2)
                fputs(gp_status_name(t->res.status), f);
            else {
                csv_format_double(num, sizeof num, cells[j]);
                fputs(num, f);
            }
            fputc(j + 1 < sizeof cells / sizeof cells[0] ? ',' : '\n', f);
        }
    }
    return atomic_commit(&af, err, errlen);
}

int tune_time_references(struct run *r, struct shape_data *s, const char *const *names, int n,
                         struct gp_result *refs)
{
    int i = 0;
    for (; i < n && !r->context_lost && !interrupt_pending(); i++) {
        const int vi = registry_find(names[i]);
        const struct gemm_variant *ref = vi >= 0 ? registry_variant(vi) : NULL;
        gp_result_init(&refs[i]);
        if (ref)
            measure_variant(r, s, ref, -1, &refs[i]);
        gp_message("tune reference %s: %s", names[i], gp_status_name(refs[i].status));
    }
    return i;
}

void tune_print_reference(FILE *f, int name_width, int config_width, const char *name, const struct gp_result *x,
                          double best_s, double eff)
{
    fprintf(f, "  (variant %-*s) %-*s %-13s", name_width, name, config_width, x->config, gp_status_name(x->status));
    if (x->status == GP_STATUS_OK && !isinf(best_s))
        fprintf(f, " %10.4f %8.2f %6.1f%% %5.3f\n", x->time_median_s * 1e3, x->flop_per_s * 1e-12,
                100 * best_s / x->time_median_s, eff);
    else
        fputc('\n', f);
}

void tune_account(const struct gp_result *res, int i, int nplans, double *best_s, int *best, int *failures)
{
    if (res->status != GP_STATUS_OK)
        (*failures)++;
    else if (res->time_median_s < *best_s) {
        *best_s = res->time_median_s;
        *best = i;
    }
    gp_message("tune %d/%d %s: %s%s%s", i + 1, nplans, res->config, gp_status_name(res->status),
               res->error[0] ? ": " : "", res->error);
}

void tune_say_pick(const struct gp_result *pick, const struct gp_result *best)
{
    if (pick->status == GP_STATUS_OK && best->status == GP_STATUS_OK && pick->time_median_s > 0)
        fprintf(stderr, "the rule's pick %s runs at %.1f%% of the best plan (%s)\n", pick->config,
                100 * best->time_median_s / pick->time_median_s, best->config);
}

int tune_run(struct run *r)
{
    char err[1200];
    struct shape_data s;
    struct simt_machine mc;
    static struct simt_plan plans[SIMT_MAX_PLANS];
    struct tune_row *rows = NULL;
    int rc = EXIT_FAILED, failures = 0, n = 0;
    const struct gemm_variant v = {"simt_auto", GP_FP32, 4.0, "one simt_auto plan", tune_launch, NULL, NULL};

    if (shape_prepare(r, &s, 0, err, sizeof err)) {
        gp_message("%s", err);
        return EXIT_FAILED;
    }
    const cudaError_t e = simt_machine_query(&mc);
    if (e != cudaSuccess) {
        gp_message("--tune: cannot query the device: %s", cudaGetErrorString(e));
        goto out;
    }
    const struct simt_plan pick = simt_plan_pick(&mc, s.m, s.n, s.k);
    int nplans = simt_plan_candidates(&mc, s.m, s.n, s.k, plans, (int)(sizeof plans / sizeof plans[0]));
    /* GEMMPROF_TUNE_ONLY=PREFIX: only the configurations whose name starts with PREFIX, and
     * no reference variants (the sanitizer runs of tools/lab/simt_probe.sh) */
    const char *only = getenv("GEMMPROF_TUNE_ONLY");
    if (only && *only) {
        int kept = 0;
        for (int i = 0; i < nplans; i++)
            if (strncmp(simt_configs[plans[i].config].name, only, strlen(only)) == 0)
                plans[kept++] = plans[i];
        nplans = kept;
    }
    if (!(rows = calloc((size_t)(nplans > 0 ? nplans : 1), sizeof *rows))) {
        gp_message("out of host memory");
        goto out;
    }
    double best_s = INFINITY;
    int best = -1;
    for (; n < nplans && !r->context_lost && !interrupt_pending(); n++) {
        struct tune_row *t = &rows[n];
        t->plan = tune_current = plans[n];
        t->picked = plans[n].config == pick.config && plans[n].split == pick.split && plans[n].pad_n == pick.pad_n &&
                    plans[n].peel_m == pick.peel_m;
        t->waves = (double)t->plan.blocks / ((double)mc.sms * blocks_per_sm(&mc, t->plan.config));
        measure_variant(r, &s, &v, -1, &t->res);
        simt_plan_describe(&t->plan, t->res.config, sizeof t->res.config);
        tune_account(&t->res, n, nplans, &best_s, &best, &failures);
    }
    struct gp_result refs[NREFS];
    const int nrefs = only && *only ? 0 : tune_time_references(r, &s, tune_references, NREFS, refs);
    print_table(stdout, r, &s, &mc, rows, n, refs, nrefs, best_s);
    if (write_csv(r, &s, &mc, rows, n, best_s, err, sizeof err))
        gp_message("%s", err);
    else
        fprintf(stderr, "%s/tune.csv: %d plan%s\n", r->o->out_dir, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        if (rows[i].picked && best >= 0)
            tune_say_pick(&rows[i].res, &rows[best].res);
    rc = failures || n < nplans ? EXIT_FAILED : EXIT_OK;
out:
    free(rows);
    shape_free(&s);
    return rc;
}

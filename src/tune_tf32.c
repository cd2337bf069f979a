/* gemmprof --tune MxNxK -k tf32_auto: every plan tf32_auto could run at one shape (each
 * tile of kernels/tf32_configs.def with each split of K its rule considers), verified and
 * timed exactly as the sweep times a variant (measure_variant), as src/tune.c does for
 * simt_auto. Prints a table with the rule's pick marked and writes it to DIR/tune.csv
 * (first column: the variant; `gemmprof tune-check` reads it back without a GPU to judge
 * a recalibrated rule against these times); then, for reference, wgmma_rs and cuBLAS TF32
 * at the same shape. The columns that calibrate the rule: "eff", the measured FLOP/s as a fraction of
 * the TF32 tensor peak (SMs x TF32_MACS_PER_CLK x 2 at TF32_MODEL_SM_HZ), the number for
 * the EFF column of kernels/tf32_configs.def (from a large shape's split1 rows), "B/clk",
 * the operand bytes the busiest SM brought in per cycle (against TF32_SM_BYTES_PER_CLK),
 * and "model ms", the rule's estimate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"
#include "analysis/message.h"
#include "kernels/tf32_auto.h"
#include "kernels/tf32_plan.h"
#include "src/interrupt.h"
#include "src/measure.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"
#include "src/tune.h"

/* The plan the launcher runs (measure_variant takes a launcher of the variants' signature,
 * which has no room for a plan). Single-threaded, set before each measurement. */
static struct tf32_plan tf32_tune_current;

static cudaError_t tf32_tune_launch(struct gemm_context *ctx, int m, int n, int k, const float *a, const float *b,
                                    float *c, cudaStream_t stream)
{
    (void)ctx;
    return tf32_plan_launch(&tf32_tune_current, m, n, k, a, b, c, stream);
}

struct tf32_row {
    struct tf32_plan plan;
    struct gp_result res;
    double waves;   /* units / (SMs x resident blocks per SM) */
    int picked;
};

static const char *const tf32_references[] = {"wgmma_rs", "cublas_tf32"};
#define NREFS ((int)(sizeof tf32_references / sizeof tf32_references[0]))

static double tf32_eff(const struct run *r, const struct gp_result *res)
{
    return res->flop_per_s / ((double)r->meta.sm_count * 2.0 * TF32_MACS_PER_CLK * TF32_MODEL_SM_HZ);
}

static int tf32_blocks(const struct tf32_machine *mc, int config)
{
    return mc->blocks_per_sm[config] > 0 ? mc->blocks_per_sm[config] : tf32_configs[config].min_blocks;
}

/* operand bytes per cycle into the busiest SM, measured */
static double tf32_bytes_per_clk(const struct tf32_machine *mc, const struct tf32_row *t)
{
    return tf32_plan_sm_bytes(mc, &t->plan) / (t->res.time_median_s * TF32_MODEL_SM_HZ);
}

static void tf32_print(FILE *f, const struct run *r, const struct shape_data *s, const struct tf32_machine *mc,
                       const struct tf32_row *rows, int n, const struct gp_result *refs, int nrefs, double best_s)
{
    fprintf(f, "tf32_auto plans at %s on %s (%d SMs): median of %d, L2 %s; * = the rule's pick\n", s->label,
            r->meta.gpu_name, r->meta.sm_count, r->o->reps, r->o->l2_flush ? "flushed" : "warm");
    fprintf(f, "  %-30s %4s %6s %6s %5s %6s %-13s %10s %8s %7s %5s %6s %9s\n", "config", "regs", "blk/SM", "units",
            "grid", "waves", "status", "median ms", "TFLOP/s", "% best", "eff", "B/clk", "model ms");
    for (int i = 0; i < n; i++) {
        const struct tf32_row *t = &rows[i];
        fprintf(f, "%c %-30s %4d %6d %6ld %5ld %6.2f %-13s", t->picked ? '*' : ' ', t->res.config,
                mc->regs[t->plan.config], tf32_blocks(mc, t->plan.config), t->plan.units, t->plan.grid, t->waves,
                gp_status_name(t->res.status));
        if (isnan(t->res.time_median_s) || isinf(best_s))
            fprintf(f, " %10s %8s %7s %5s %6s", "-", "-", "-", "-", "-");
        else
            fprintf(f, " %10.4f %8.2f %6.1f%% %5.3f %6.1f", t->res.time_median_s * 1e3, t->res.flop_per_s * 1e-12,
                    100 * best_s / t->res.time_median_s, tf32_eff(r, &t->res), tf32_bytes_per_clk(mc, t));
        fprintf(f, " %9.4f\n", 1e3 * t->plan.est_cycles / TF32_MODEL_SM_HZ);
    }
    for (int i = 0; i < nrefs; i++)
        tune_print_reference(f, 11, 36, tf32_references[i], &refs[i], best_s, tf32_eff(r, &refs[i]));
    fflush(f);
}

/* DIR/tune.csv, written whole or not at all. 0, or -1 with the reason. */
static int tf32_write_csv(const struct run *r, const struct shape_data *s, const struct tf32_machine *mc,
                          const struct tf32_row *rows, int n, double best_s, char *err, size_t errlen)
{
    char path[1100], num[64];
    struct atomic_file af;
    snprintf(path, sizeof path, "%s/tune.csv", r->o->out_dir);
    FILE *f = atomic_open(&af, path, err, errlen);
    if (!f)
        return -1;
    fputs(TUNE_TF32_CSV_HEADER "\n", f);
    for (int i = 0; i < n; i++) {
        const struct tf32_row *t = &rows[i];
        const struct tf32_config *c = &tf32_configs[t->plan.config];
        fprintf(f, "tf32_auto,%ld,%ld,%ld,%d,", s->m, s->n, s->k, mc->sms);
        csv_write_field(f, t->res.config);
        fprintf(f, ",%s,%d,%d,32,%d,%d,%d,%d,%d,%d,%ld,%ld,%ld,%d,%d,", c->name, c->bm, tf32_config_bn(c),
                c->consumers, c->stages, c->min_blocks, tf32_config_threads(c), t->plan.split, t->plan.kts,
                t->plan.tiles, t->plan.units, t->plan.grid, mc->regs[t->plan.config], tf32_blocks(mc, t->plan.config));
        const double cells[] = {t->waves, t->picked, NAN /* status */, t->res.rel_err, t->res.time_median_s,
                                t->res.time_min_s, t->res.time_max_s, t->res.flop_per_s,
                                100 * best_s / t->res.time_median_s, tf32_eff(r, &t->res), tf32_bytes_per_clk(mc, t),
                                t->plan.est_cycles / TF32_MODEL_SM_HZ};
        const size_t ncells = sizeof cells / sizeof cells[0];
        for (size_t j = 0; j < ncells; j++) {
            if (j == 2)
                fputs(gp_status_name(t->res.status), f);
            else {
                csv_format_double(num, sizeof num, cells[j]);
                fputs(num, f);
            }
            fputc(j + 1 < ncells ? ',' : '\n', f);
        }
    }
    return atomic_commit(&af, err, errlen);
}

/* `name` starts with one of the comma-separated prefixes of `list` */
static int tf32_name_listed(const char *name, const char *list)
{
    for (const char *p = list; *p;) {
        const size_t len = strcspn(p, ",");
        if (len > 0 && strncmp(name, p, len) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

int tune_tf32_run(struct run *r)
{
    char err[1200];
    struct shape_data s;
    struct tf32_machine mc;
    static struct tf32_plan plans[TF32_MAX_CONFIGS * 16];
    struct tf32_row *rows = NULL;
    int rc = EXIT_FAILED, failures = 0, n = 0;
    const struct gemm_variant v = {"tf32_auto", GP_TF32, 4.0, "one tf32_auto plan", tf32_tune_launch, NULL, NULL};

    if (shape_prepare(r, &s, 0, err, sizeof err)) {
        gp_message("%s", err);
        return EXIT_FAILED;
    }
    const cudaError_t e = tf32_machine_query(&mc);
    if (e != cudaSuccess) {
        gp_message("--tune -k tf32_auto: cannot query the device for its plans: %s", cudaGetErrorString(e));
        goto out;
    }
    const struct tf32_plan pick = tf32_plan_pick(&mc, s.m, s.n, s.k);
    int nplans = tf32_plan_candidates(&mc, s.m, s.n, s.k, plans, (int)(sizeof plans / sizeof plans[0]));
    /* GEMMPROF_TUNE_ONLY=PREFIX[,PREFIX...]: only the tiles whose name starts with one of
     * them, and no reference variants (the sanitizer runs of tools/h200_session.sh tf32tune) */
    const char *only = getenv("GEMMPROF_TUNE_ONLY");
    if (only && *only) {
        int kept = 0;
        for (int i = 0; i < nplans; i++)
            if (tf32_name_listed(tf32_configs[plans[i].config].name, only))
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
        struct tf32_row *t = &rows[n];
        t->plan = tf32_tune_current = plans[n];
        t->picked = plans[n].config == pick.config && plans[n].split == pick.split;
        t->waves = (double)t->plan.units / ((double)mc.sms * tf32_blocks(&mc, t->plan.config));
        measure_variant(r, &s, &v, -1, &t->res);
        tf32_plan_describe(&t->plan, t->res.config, sizeof t->res.config);
        tune_account(&t->res, n, nplans, &best_s, &best, &failures);
    }
    struct gp_result refs[NREFS];
    const int nrefs = only && *only ? 0 : tune_time_references(r, &s, tf32_references, NREFS, refs);
    tf32_print(stdout, r, &s, &mc, rows, n, refs, nrefs, best_s);
    if (tf32_write_csv(r, &s, &mc, rows, n, best_s, err, sizeof err))
        gp_message("%s", err);
    else
        fprintf(stderr, "%s/tune.csv: %d tf32_auto plan%s\n", r->o->out_dir, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        if (rows[i].picked && best >= 0)
            tune_say_pick(&rows[i].res, &rows[best].res);
    rc = failures || n < nplans ? EXIT_FAILED : EXIT_OK;
out:
    free(rows);
    shape_free(&s);
    return rc;
}

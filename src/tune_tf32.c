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
#include <stdio.h>

#include "analysis/csv.h"
#include "analysis/message.h"
#include "kernels/tf32_auto.h"
#include "kernels/tf32_plan.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"
#include "src/tune.h"

/* The machine, the plans and the one the launcher runs (measure_variant takes a launcher
 * of the variants' signature, which has no room for a plan). Single-threaded. */
static struct tf32_machine tf32_mc;
static struct tf32_plan tf32_plans[TF32_MAX_PLANS], tf32_pick, tf32_tune_current;

static cudaError_t tf32_tune_launch(struct gemm_context *ctx, int m, int n, int k, const float *a, const float *b,
                                    float *c, cudaStream_t stream)
{
    (void)ctx;
    return tf32_plan_launch(&tf32_tune_current, m, n, k, a, b, c, stream);
}

static double tf32_eff(const struct run *r, const struct gp_result *res)
{
    return res->flop_per_s / ((double)r->meta.sm_count * 2.0 * TF32_MACS_PER_CLK * TF32_MODEL_SM_HZ);
}

static int tf32_blocks(int config)
{
    return tf32_mc.blocks_per_sm[config] > 0 ? tf32_mc.blocks_per_sm[config] : tf32_configs[config].min_blocks;
}

/* operand bytes per cycle into the busiest SM, measured */
static double tf32_bytes_per_clk(const struct tune_row *t)
{
    return tf32_plan_sm_bytes(&tf32_mc, &tf32_plans[t->plan]) / (t->res.time_median_s * TF32_MODEL_SM_HZ);
}

static int tf32_list(const struct shape_data *s)
{
    const cudaError_t e = tf32_machine_query(&tf32_mc);
    if (e != cudaSuccess) {
        gp_message("--tune -k tf32_auto: cannot query the device for its plans: %s", cudaGetErrorString(e));
        return -1;
    }
    tf32_pick = tf32_plan_pick(&tf32_mc, s->m, s->n, s->k);
    return tf32_plan_candidates(&tf32_mc, s->m, s->n, s->k, tf32_plans,
                                (int)(sizeof tf32_plans / sizeof tf32_plans[0]));
}

static const char *tf32_tile(int plan)
{
    return tf32_configs[tf32_plans[plan].config].name;
}

static void tf32_select(int plan, struct tune_row *t)
{
    const struct tf32_plan *p = &tf32_plans[plan];
    tf32_tune_current = *p;
    t->picked = p->config == tf32_pick.config && p->split == tf32_pick.split && p->copy_a == tf32_pick.copy_a &&
                tf32_plan_load_mask(p) == tf32_plan_load_mask(&tf32_pick) && p->reduce == tf32_pick.reduce;
    /* a unit of a clustered tile holds CLUSTER blocks, one per SM */
    t->waves = (double)p->units * tf32_configs[p->config].cluster / ((double)tf32_mc.sms * tf32_blocks(p->config));
}

static void tf32_describe(int plan, char *buf, size_t len)
{
    tf32_plan_describe(&tf32_plans[plan], buf, len);
}

static void tf32_print(FILE *f, const struct run *r, const struct tune_row *rows, int n, double best_s)
{
    fprintf(f, "  %-30s %4s %6s %6s %5s %6s %-13s %10s %8s %7s %5s %6s %9s\n", "config", "regs", "blk/SM", "units",
            "grid", "waves", "status", "median ms", "TFLOP/s", "% best", "eff", "B/clk", "model ms");
    for (int i = 0; i < n; i++) {
        const struct tune_row *t = &rows[i];
        const struct tf32_plan *p = &tf32_plans[t->plan];
        fprintf(f, "%c %-30s %4d %6d %6ld %5ld %6.2f %-13s", t->picked ? '*' : ' ', t->res.config,
                tf32_mc.regs[p->config], tf32_blocks(p->config), p->units, tf32_plan_grid_blocks(p), t->waves,
                gp_status_name(t->res.status));
        tune_print_times(f, &t->res, best_s, tf32_eff(r, &t->res));
        if (isnan(t->res.time_median_s) || isinf(best_s))
            fprintf(f, " %6s", "-");
        else
            fprintf(f, " %6.1f", tf32_bytes_per_clk(t));
        fprintf(f, " %9.4f\n", 1e3 * p->est_cycles / TF32_MODEL_SM_HZ);
    }
}

static void tf32_csv_row(FILE *f, const struct run *r, const struct shape_data *s, const struct tune_row *t,
                         double best_s)
{
    const struct tf32_plan *p = &tf32_plans[t->plan];
    const struct tf32_config *c = &tf32_configs[p->config];
    fprintf(f, "tf32_auto,%ld,%ld,%ld,%d,", s->m, s->n, s->k, tf32_mc.sms);
    csv_write_field(f, t->res.config);
    fprintf(f, ",%s,%d,%d,32,%d,%d,%d,%d,%d,%d,%ld,%ld,%ld,%d,%d,", c->name, c->bm, tf32_config_block_bn(c), c->consumers,
            c->stages, c->min_blocks, tf32_config_threads(c), p->split, p->kts, p->tiles, p->units, tf32_plan_grid_blocks(p),
            tf32_mc.regs[p->config], tf32_blocks(p->config));
    const double more[] = {tf32_bytes_per_clk(t), p->est_cycles / TF32_MODEL_SM_HZ, (double)c->cluster,
                           (double)p->reduce};
    tune_csv_cells(f, t, best_s, tf32_eff(r, &t->res), more, 4);
}

static const char *const tf32_references[] = {"wgmma_rs", "cublas_tf32"};

int tune_tf32_run(struct run *r)
{
    const struct gemm_variant v = {"tf32_auto", GP_TF32, 4.0, "one tf32_auto plan", tf32_tune_launch, NULL, NULL};
    const struct tune_spec spec = {
        .v = &v,
        .refs = tf32_references,
        .nrefs = (int)(sizeof tf32_references / sizeof tf32_references[0]),
        .name_width = 11,
        .config_width = 36,
        .csv_header = TUNE_TF32_CSV_HEADER,
        .plans = tf32_list,
        .tile = tf32_tile,
        .select = tf32_select,
        .describe = tf32_describe,
        .eff = tf32_eff,
        .print = tf32_print,
        .csv_row = tf32_csv_row,
    };
    return tune_drive(r, &spec);
}

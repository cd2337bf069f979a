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
#include <stdio.h>

#include "analysis/csv.h"
#include "analysis/message.h"
#include "kernels/simt_plan.h"
#include "kernels/simt.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"

/* The machine, the plans and the one the launcher runs: measure_variant takes a launcher
 * of the variants' signature, which has no room for a plan. Single-threaded. */
static struct simt_machine tune_mc;
static struct simt_plan tune_plans[SIMT_MAX_PLANS], tune_pick, tune_current;
static long tune_n; /* the shape's n */

static cudaError_t tune_launch(struct gemm_context *ctx, int m, int n, int k, const float *a, const float *b,
                               float *c, cudaStream_t stream)
{
    (void)ctx;
    return simt_plan_launch(&tune_current, m, n, k, a, b, c, stream);
}

/* measured FLOP/s as a fraction of the FFMA peak (SMs x 128 FMA x 2 at SIMT_MODEL_SM_HZ) */
static double tune_eff(const struct run *r, const struct gp_result *res)
{
    return res->flop_per_s / ((double)r->meta.sm_count * 256.0 * SIMT_MODEL_SM_HZ);
}

static int tune_list(const struct shape_data *s)
{
    const cudaError_t e = simt_machine_query(&tune_mc);
    if (e != cudaSuccess) {
        gp_message("--tune: cannot query the device: %s", cudaGetErrorString(e));
        return -1;
    }
    tune_pick = simt_plan_pick(&tune_mc, s->m, s->n, s->k);
    tune_n = s->n;
    return simt_plan_candidates(&tune_mc, s->m, s->n, s->k, tune_plans, SIMT_MAX_PLANS);
}

static const char *tune_tile(int plan)
{
    return simt_configs[tune_plans[plan].config].name;
}

static void tune_select(int plan, struct tune_row *t)
{
    const struct simt_plan *p = &tune_plans[plan];
    tune_current = *p;
    t->picked = p->config == tune_pick.config && p->split == tune_pick.split && p->pad_n == tune_pick.pad_n &&
                p->peel_m == tune_pick.peel_m && p->head_m == tune_pick.head_m && p->streamk == tune_pick.streamk;
    /* a tail plan's unsplit tiles count too */
    t->waves = (double)(p->blocks + simt_plan_head_blocks(p, tune_n)) /
               ((double)tune_mc.sms * simt_plan_blocks_per_sm(&tune_mc, p));
}

static void tune_describe(int plan, char *buf, size_t len)
{
    simt_plan_describe(&tune_plans[plan], buf, len);
}

static void tune_print(FILE *f, const struct run *r, const struct tune_row *rows, int n, double best_s)
{
    fprintf(f, "  %-39s %4s %6s %7s %6s %-13s %10s %8s %7s %5s %9s\n", "config", "regs", "blk/SM", "blocks", "waves",
            "status", "median ms", "TFLOP/s", "% best", "eff", "model ms");
    for (int i = 0; i < n; i++) {
        const struct tune_row *t = &rows[i];
        const struct simt_plan *p = &tune_plans[t->plan];
        fprintf(f, "%c %-39s %4d %6d %7ld %6.2f %-13s", t->picked ? '*' : ' ', t->res.config, simt_plan_regs(&tune_mc, p),
                simt_plan_blocks_per_sm(&tune_mc, p), p->blocks, t->waves, gp_status_name(t->res.status));
        tune_print_times(f, &t->res, best_s, tune_eff(r, &t->res));
        fprintf(f, " %9.4f\n", 1e3 * p->est_cycles / SIMT_MODEL_SM_HZ);
    }
}

static void tune_csv_row(FILE *f, const struct run *r, const struct shape_data *s, const struct tune_row *t,
                         double best_s)
{
    const struct simt_plan *p = &tune_plans[t->plan];
    const struct simt_config *c = &simt_configs[p->config];
    int tm, tn;
    simt_config_thread_tile(c, &tm, &tn);
    fprintf(f, "%ld,%ld,%ld,", s->m, s->n, s->k);
    csv_write_field(f, t->res.config);
    fprintf(f, ",%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%ld,%d,%d,", c->name, c->bm, c->bn, c->bk, c->wm, c->wn, tm,
            tn, c->stages, simt_config_threads(c), c->a_kmajor, p->split, p->k_slice, p->blocks,
            simt_plan_regs(&tune_mc, p), simt_plan_blocks_per_sm(&tune_mc, p));
    const double model_s = p->est_cycles / SIMT_MODEL_SM_HZ;
    tune_csv_cells(f, t, best_s, tune_eff(r, &t->res), &model_s, 1);
}

/* the fixed variants timed after the plans, for reference */
static const char *const tune_references[] = {"warptile", "bigtile", "dbuf", "cublas"};

int tune_run(struct run *r)
{
    const struct gemm_variant v = {"simt_auto", GP_FP32, 4.0, "one simt_auto plan", tune_launch, NULL, NULL};
    const struct tune_spec spec = {
        .v = &v,
        .refs = tune_references,
        .nrefs = (int)(sizeof tune_references / sizeof tune_references[0]),
        .name_width = 10,
        .config_width = 28,
        .csv_header = "m,n,k,config,config_name,block_m,block_n,block_k,warp_m,warp_n,thread_m,thread_n,stages,"
                      "threads,a_kmajor,split,k_slice,blocks,registers,blocks_per_sm,waves,picked,status,rel_err,"
                      "time_median_s,time_min_s,time_max_s,flop_per_s,pct_of_best,eff,model_s",
        .plans = tune_list,
        .tile = tune_tile,
        .select = tune_select,
        .describe = tune_describe,
        .eff = tune_eff,
        .print = tune_print,
        .csv_row = tune_csv_row,
    };
    return tune_drive(r, &spec);
}

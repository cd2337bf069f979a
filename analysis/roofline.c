/* Roofline math for one result row (see analysis/roofline.h).
 *
 *   struct gp_roof roof;
 *   roof_derive(&row, &ceilings, &roof);     row or ceilings may lack data: fields become NaN
 *   roof.bound_level, roof.bound_share ...   or the derived CSV columns, roof_column_*()
 *
 * Work is the analytic 2 m n k, so every level's arithmetic intensity uses the same
 * numerator and the points of one kernel line up vertically; the counted FLOPs are
 * reported beside it as a check (tensor work does not show in the FFMA counters).
 * Roofs are the *measured* ceilings only: a datasheet number the machine never reaches
 * would make every kernel look worse than it is. Missing measurement -> NaN, not a guess. */
#include "analysis/roofline.h"
#include "analysis/precision.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


const char *const gp_level_name[GP_LEVEL_COUNT + 1] = {"dram", "l2", "l1", "shared", "compute"};

/* A shared-memory wavefront moves at most 128 bytes (32 banks x 4 bytes), so
 * 128 x wavefronts is an upper bound on shared traffic: exact for conflict-free
 * full-width accesses, an overestimate for narrower ones. Bank conflicts add
 * wavefronts, which is right: they cost bandwidth just like real bytes. */
#define GP_SMEM_WAVEFRONT_BYTES 128.0
#define GP_L1_CYCLE_BYTES 128.0

static double metric(const struct gp_result *r, enum gp_metric_id id)
{
    return r->metric[id];
}

/* A ceiling of the SMs' own (L1, shared memory, the FP32 and tensor pipes) at the row's
 * clock: it was measured at one SM clock and the row may have run at another (the H200's
 * wgmma ceiling at 1.77 GHz, its rows at 1.65-1.96), and these roofs scale with it, as the
 * issue roof does. DRAM and L2 are not scaled. Either clock unknown: as measured. */
static double at_row_clock(const struct gp_ceiling *c, const struct gp_result *r)
{
    double f = r->sm_clock_hz / c->sm_clock_hz;
    return isfinite(f) && f > 0 ? c->measured * f : c->measured;
}

/* A compute pipe's ceiling at the row's clock, but never above the value measured: a loop
 * that keeps a pipe full can be held to a lower clock than a row that does not (the H200's
 * BF16 wgmma loop ran at 1.79 GHz), and so would the row that filled the pipe. */
static double pipe_at_row_clock(const struct gp_ceiling *c, const struct gp_result *r)
{
    return fmin(at_row_clock(c, r), c->measured);
}

/* The tensor counters and ceilings of each input type (a TF32 roof of our own; BF16 and
 * FP16 have only our loops, no cuBLAS ceiling). */
static const struct tensor_path {
    enum gp_precision type;
    const char *name;
    enum gp_metric_id all, hmma;        /* its tensor ops; those of mma.sync */
    enum gp_ceiling_id mma, wgmma;      /* our mma.sync and wgmma loops */
} tensor_paths[] = {
    {GP_TF32, "TF32", GP_M_tensor_tf32, GP_M_tensor_hmma, GP_CEIL_tf32_mma, GP_CEIL_tf32_wgmma},
    {GP_BF16, "BF16", GP_M_tensor_bf16, GP_M_tensor_hmma_bf16, GP_CEIL_bf16, GP_CEIL_bf16_wgmma},
    {GP_FP16, "FP16", GP_M_tensor_fp16, GP_M_tensor_hmma_fp16, GP_CEIL_fp16, GP_CEIL_fp16_wgmma},
};
#define N_TENSOR_PATHS (int)(sizeof tensor_paths / sizeof tensor_paths[0])

static int row_precision(const struct gp_result *r)
{
    return gp_precision_parse(r->precision);
}

/* The input type of row r's tensor work (an index into tensor_paths): the type whose
 * counter saw the most ops; with none seen, the row's precision where it is a tensor one
 * (the BF16/FP16 counters are not in the default set); else TF32 (3xTF32, or no tensor
 * work at all). */
static int tensor_path_of(const struct gp_result *r)
{
    int best = -1;
    for (int t = 0; t < N_TENSOR_PATHS; t++)
        if (metric(r, tensor_paths[t].all) > 0 && (best < 0 || metric(r, tensor_paths[t].all) > metric(r, tensor_paths[best].all)))
            best = t;
    const int p = row_precision(r);
    for (int t = 0; best < 0 && t < N_TENSOR_PATHS; t++)
        if ((int)tensor_paths[t].type == p)
            best = t;
    return best < 0 ? 0 : best;
}

/* Sum of terms; NaN if any is NaN, so a partly collected set never undercounts silently.
 * FP64 work counts where it was collected (a kernel that accumulates in double does its
 * GEMM's FLOPs there); runs from before those counters have none. So do the BF16/FP16
 * tensor ops, outside the default set: missing, they count none, except in a row of that
 * precision, whose work is surely there uncounted (NaN). */
static double counted_flops(const struct gp_result *r)
{
    double fp64 = 2.0 * metric(r, GP_M_dfma) + metric(r, GP_M_dadd) + metric(r, GP_M_dmul);
    double t16 = 0.0;
    for (int t = 1; t < N_TENSOR_PATHS; t++) {
        const double v = metric(r, tensor_paths[t].all);
        if (isnan(v) && row_precision(r) == (int)tensor_paths[t].type)
            return NAN;
        t16 += isnan(v) ? 0.0 : v;
    }
    return 2.0 * metric(r, GP_M_ffma) + metric(r, GP_M_fadd) + metric(r, GP_M_fmul) +
           metric(r, GP_M_tensor_tf32) + t16 + (isnan(fp64) ? 0 : fp64);
}

void roof_derive(const struct gp_result *r, const struct gp_ceilings *cs, struct gp_roof *out)
{
    out->flops_analytic = gp_flops_analytic(r);
    out->flops_counted = counted_flops(r);

    out->bytes[GP_LEVEL_DRAM] = metric(r, GP_M_dram_read) + metric(r, GP_M_dram_write);
    out->bytes[GP_LEVEL_L2] = metric(r, GP_M_l2_bytes);
    /* L1: the larger of two lower bounds on the L1's work. Nsight Compute's hierarchical
     * roofline (cc >= 9.0) counts 128 bytes per cycle the LSU data path spends writing
     * back global/local results; unlike the bytes requested (l1tex__t_bytes) it charges
     * a 4-byte broadcast a full cycle, which is what such a load costs (the naive
     * kernel's A loads: 8 B/FMA against 5 B/FMA requested). But asynchronous copies
     * into shared memory (cp.async, LDGSTS) never use that writeback path: for warptile
     * and cuBLAS it sees almost nothing while l1tex__t_bytes sees all of it (measured on
     * the H200). Either alone misplaces some kernel; the maximum places both kinds. */
    {
        const double wb = GP_L1_CYCLE_BYTES * metric(r, GP_M_l1_lgds_wb);
        const double req = metric(r, GP_M_l1_bytes);
        out->bytes[GP_LEVEL_L1] = isnan(wb) ? req : isnan(req) ? wb : fmax(wb, req);
    }
    out->bytes[GP_LEVEL_SHARED] =
        GP_SMEM_WAVEFRONT_BYTES * (metric(r, GP_M_smem_ld_wf) + metric(r, GP_M_smem_st_wf));

    for (int l = 0; l < GP_LEVEL_COUNT; l++)
        out->roof_bw[l] = NAN;
    out->peak_compute = NAN;
    /* The pipe that did the work, from the counters where they are: 3xTF32 is FP32 by
     * accuracy but runs three tensor products per FMA, so its roof is the tensor ceiling
     * over that ratio, not the FP32 FMA ceiling (nor the tensor ceiling itself). Without
     * the tensor counter the row's precision says. The tensor input type (TF32, BF16,
     * FP16) picks the counter and the ceilings. */
    const int tp = tensor_path_of(r);
    const double tensor = metric(r, tensor_paths[tp].all), W = out->flops_analytic;
    out->tensor_type = tensor_paths[tp].type;
    out->tensor_per_flop = tensor / W;
    const int prec = gp_precision_parse(r->precision);
    out->compute_path = tensor > 0 || (prec >= 0 && gp_precision_is_tensor((enum gp_precision)prec)) ? GP_PATH_TENSOR
                                                                                                   : GP_PATH_FP32;
    out->tensor_ceiling = -1;
    if (cs) {
        /* fmax ignores a NaN operand: either DRAM measurement alone is enough. A copy
         * counts read + write bytes, and GEMM traffic is mostly reads, so the larger of
         * the two is the roof the kernel could actually reach. */
        out->roof_bw[GP_LEVEL_DRAM] =
            fmax(cs->c[GP_CEIL_dram_copy].measured, cs->c[GP_CEIL_dram_read].measured);
        out->roof_bw[GP_LEVEL_L2] = cs->c[GP_CEIL_l2].measured;
        out->roof_bw[GP_LEVEL_L1] = at_row_clock(&cs->c[GP_CEIL_l1], r);
        out->roof_bw[GP_LEVEL_SHARED] = at_row_clock(&cs->c[GP_CEIL_shared], r);
        out->tensor_ceiling = roof_tensor_ceiling(cs, r);
        const double tc = pipe_at_row_clock(&cs->c[out->tensor_ceiling], r);
        const double fc = pipe_at_row_clock(&cs->c[GP_CEIL_fp32_fma], r);
        if (tensor > 0 && W > 0) {
            /* tensor and FP32 pipes run side by side: the roof is the slower of the two */
            const double simt = 2.0 * metric(r, GP_M_ffma) + metric(r, GP_M_fadd) + metric(r, GP_M_fmul);
            out->peak_compute = W / fmax(tensor / tc, simt > 0 ? simt / fc : 0.0);   /* NaN simt: tensor alone */
        } else if (out->compute_path == GP_PATH_TENSOR) {
            out->peak_compute = tc;
        } else if (strcmp(r->precision, "fp32") == 0) {
            out->peak_compute = fc;
        }
    }

    /* Memory roof of each level; the lowest one binds unless compute is lower still. */
    double min_mem = INFINITY;
    int min_level = -1;
    for (int l = 0; l < GP_LEVEL_COUNT; l++) {
        double b = out->bytes[l];
        /* A level that moved no bytes has no intensity and cannot bind: leave it empty
         * rather than write an infinity nobody can plot. */
        out->ai[l] = (b > 0) ? out->flops_analytic / b : NAN;
        double mem = out->ai[l] * out->roof_bw[l];   /* NaN when either is missing */
        out->attainable[l] = isnan(mem) ? NAN : fmin(mem, out->peak_compute);
        if (!isnan(mem) && mem < min_mem) {
            min_mem = mem;
            min_level = l;
        }
    }

    out->bound_level = -1;
    out->bound_attainable = NAN;
    /* Without any memory data nothing can be said about what binds, not even compute. */
    if (min_level >= 0 && out->peak_compute < min_mem) {
        out->bound_level = GP_BOUND_COMPUTE;
        out->bound_attainable = out->peak_compute;
    } else if (min_level >= 0) {
        out->bound_level = min_level;
        out->bound_attainable = out->attainable[min_level];
    }

    if (r->time_median_s > 0)
        out->achieved = out->flops_analytic / r->time_median_s;
    else
        out->achieved = r->flop_per_s;   /* NaN for a row that never ran */
    out->bound_share = out->achieved / out->bound_attainable;
}

/* Derived columns, in CSV order. Units are in the names, values SI. */
enum roof_col {
    RC_FLOPS_ANALYTIC, RC_FLOPS_COUNTED,
    RC_BYTES, /* 4 */
    RC_AI = RC_BYTES + GP_LEVEL_COUNT,
    RC_ATTAINABLE = RC_AI + GP_LEVEL_COUNT,
    RC_BOUND_LEVEL = RC_ATTAINABLE + GP_LEVEL_COUNT,
    RC_BOUND_SHARE,
    RC_COUNT
};

static const char *const roof_names[RC_COUNT] = {
    "flops_analytic", "flops_counted",
    "bytes_dram", "bytes_l2", "bytes_l1", "bytes_shared",
    "ai_dram_flop_per_byte", "ai_l2_flop_per_byte", "ai_l1_flop_per_byte", "ai_shared_flop_per_byte",
    "attainable_dram_flop_per_s", "attainable_l2_flop_per_s", "attainable_l1_flop_per_s",
    "attainable_shared_flop_per_s",
    "bound_level", "bound_share",
};

int roof_column_count(void)
{
    return RC_COUNT;
}

const char *roof_column_name(int i)
{
    return (i >= 0 && i < RC_COUNT) ? roof_names[i] : NULL;
}

enum gp_ceiling_id roof_tf32_ceiling(const struct gp_ceilings *cs)
{
    return cs && cs->c[GP_CEIL_tf32_wgmma].measured > 0 ? GP_CEIL_tf32_wgmma : GP_CEIL_tf32;
}

enum gp_ceiling_id roof_type_ceiling(const struct gp_ceilings *cs, enum gp_precision type)
{
    for (int t = 1; t < N_TENSOR_PATHS; t++)
        if (tensor_paths[t].type == type)
            return cs && cs->c[tensor_paths[t].wgmma].measured > 0 ? tensor_paths[t].wgmma : tensor_paths[t].mma;
    return roof_tf32_ceiling(cs);
}

enum gp_ceiling_id roof_tensor_ceiling(const struct gp_ceilings *cs, const struct gp_result *r)
{
    /* on Hopper mma.sync peaks well below wgmma: a kernel that did most of its tensor
     * work through it is held to that path's own ceiling */
    const struct tensor_path *t = &tensor_paths[tensor_path_of(r)];
    const double all = metric(r, t->all), hmma = metric(r, t->hmma);
    if (cs && cs->c[t->mma].measured > 0 && all > 0 && hmma > 0.5 * all)
        return t->mma;
    return roof_type_ceiling(cs, t->type);
}

/* The tensor path of a derived row (an index into tensor_paths), TF32's for any other. */
static int roof_path(const struct gp_roof *roof)
{
    for (int t = 0; t < N_TENSOR_PATHS; t++)
        if (tensor_paths[t].type == (enum gp_precision)roof->tensor_type)
            return t;
    return 0;
}

const char *roof_tensor_name(const struct gp_roof *roof)
{
    static const char *const names[][2] = {{"TF32 tensor", "TF32 tensor (mma.sync)"},
                                           {"BF16 tensor", "BF16 tensor (mma.sync)"},
                                           {"FP16 tensor", "FP16 tensor (mma.sync)"}};
    const int t = roof_path(roof);
    return names[t][roof->tensor_ceiling == (int)tensor_paths[t].mma];
}

int roof_column_is_text(int i)
{
    return i == RC_BOUND_LEVEL;
}

static void fmt_double(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%.9g", v);
}

void roof_compute_name(const struct gp_roof *roof, char *buf, size_t len)
{
    /* short: legends hold about 30 characters with the figure */
    const int t = roof_path(roof), mma_sync = roof->tensor_ceiling == (int)tensor_paths[t].mma;
    const char *type = tensor_paths[t].name;
    if (roof->compute_path != GP_PATH_TENSOR)
        snprintf(buf, len, "FP32 FMA");
    else if (!(roof->tensor_per_flop > 1.05))   /* NaN (no counter) too: one product per FMA */
        snprintf(buf, len, "%s %s", type, mma_sync ? "mma.sync" : "tensor");
    else if (roof->tensor_type != GP_TF32)
        snprintf(buf, len, "%s %s / %.2g", type, mma_sync ? "mma" : "tensor", roof->tensor_per_flop);
    else if (mma_sync)
        snprintf(buf, len, "3xTF32 mma/%.2g", roof->tensor_per_flop);
    else
        snprintf(buf, len, "3xTF32: TF32 / %.2g", roof->tensor_per_flop);
}

void roof_column_format(const struct gp_roof *roof, int i, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (i == RC_FLOPS_ANALYTIC)
        fmt_double(buf, len, roof->flops_analytic);
    else if (i == RC_FLOPS_COUNTED)
        fmt_double(buf, len, roof->flops_counted);
    else if (i >= RC_BYTES && i < RC_AI)
        fmt_double(buf, len, roof->bytes[i - RC_BYTES]);
    else if (i >= RC_AI && i < RC_ATTAINABLE)
        fmt_double(buf, len, roof->ai[i - RC_AI]);
    else if (i >= RC_ATTAINABLE && i < RC_BOUND_LEVEL)
        fmt_double(buf, len, roof->attainable[i - RC_ATTAINABLE]);
    else if (i == RC_BOUND_LEVEL) {
        if (roof->bound_level >= 0 && roof->bound_level <= GP_BOUND_COMPUTE)
            snprintf(buf, len, "%s", gp_level_name[roof->bound_level]);
    } else if (i == RC_BOUND_SHARE)
        fmt_double(buf, len, roof->bound_share);
}

int roof_row_has_counters(const struct gp_result *r)
{
    static const int any[] = {GP_M_dram_read, GP_M_l2_bytes, GP_M_l1_bytes, GP_M_smem_ld_wf, GP_M_ffma};
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++)
        if (isfinite(r->metric[any[i]]) && r->metric[any[i]] >= 0)
            return 1;
    return 0;
}

/* v when finite and > 0 (positive) or >= 0, else NaN; *bad counts a set-aside value. */
static double keep(double v, int positive, int *bad)
{
    if (isfinite(v) && (positive ? v > 0 : v >= 0))
        return v;
    *bad += !isnan(v);
    return NAN;
}

void roof_clean_ceilings(const struct gp_ceilings *cs, struct gp_ceilings *out, int *bad)
{
    *out = *cs;
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        out->c[i].measured = keep(out->c[i].measured, 1, bad);
        out->c[i].theoretical = keep(out->c[i].theoretical, 1, bad);
        out->c[i].sm_clock_hz = keep(out->c[i].sm_clock_hz, 1, bad);
    }
}

int roof_clean_row(const struct gp_result *r, struct gp_result *out, int *bad)
{
    int ignored = 0;
    *out = *r;
    for (int m = 0; m < GP_METRIC_COUNT; m++)
        out->metric[m] = keep(out->metric[m], 0, bad);
    out->time_median_s = keep(out->time_median_s, 1, &ignored);   /* said per row instead */
    if (isnan(out->time_median_s))
        out->flop_per_s = NAN;   /* roof_derive falls back to it without a time */
    return out->status == GP_STATUS_OK && out->m > 0 && out->n > 0 && out->k > 0 && !isnan(out->time_median_s);
}

int roof_derive_rows(const struct gp_dataset *ds, struct gp_roof *roof, unsigned char *usable, int *bad_time,
                     struct gp_ceilings *clean_cs)
{
    int bad = 0, no_time = 0;
    struct gp_ceilings clean;
    roof_clean_ceilings(&ds->ceilings, &clean, &bad);
    for (int i = 0; i < ds->nrows; i++) {
        struct gp_result c;
        int timed = roof_clean_row(&ds->rows[i], &c, &bad);
        roof_derive(&c, ds->have_ceilings ? &clean : NULL, &roof[i]);
        /* an implausible row is said apart (analysis/plausible.h), not as a missing time */
        usable[i] = timed && plausible_row(ds, i);
        no_time += c.status == GP_STATUS_OK && !timed;
        if (!roof_row_has_counters(&ds->rows[i])) {
            roof[i].bound_level = -1;
            roof[i].bound_attainable = roof[i].bound_share = NAN;
        }
    }
    if (bad_time)
        *bad_time = no_time;
    if (clean_cs)
        *clean_cs = clean;
    return bad;
}

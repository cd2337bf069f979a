/* Roofline math (analysis/roofline.c) against hand-computed cases, and the ceilings.csv
 * reader and writer (analysis/ceilings.c) including every kind of bad input.
 * Host-only, no GPU. Run from the repository root (reads tests/data/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/ceilings.h"
#include "analysis/precision.h"
#include "analysis/roofline.h"
#include "tests/test.h"

/* Ceilings for the hand cases: DRAM copy 3.0 TB/s, read 3.5 TB/s, L2 10, L1 20,
 * shared 30 TB/s, FP32 FMA 60 TFLOP/s, TF32 400 TFLOP/s. */
static void hand_ceilings(struct gp_ceilings *cs)
{
    ceilings_init(cs);
    cs->c[GP_CEIL_dram_copy].measured = 3.0e12;
    cs->c[GP_CEIL_dram_read].measured = 3.5e12;
    cs->c[GP_CEIL_l2].measured = 10e12;
    cs->c[GP_CEIL_l1].measured = 20e12;
    cs->c[GP_CEIL_shared].measured = 30e12;
    cs->c[GP_CEIL_fp32_fma].measured = 60e12;
    cs->c[GP_CEIL_tf32].measured = 400e12;
    /* theoretical values must never be used as roofs */
    cs->c[GP_CEIL_l1].theoretical = 1e15;
    cs->c[GP_CEIL_fp32_fma].theoretical = 1e15;
}

/* 1024^3 FP32, 1 ms: 2147483648 flop, 2.147483648e12 flop/s. */
static void hand_row(struct gp_result *r)
{
    gp_result_init(r);
    strcpy(r->variant, "hand");
    strcpy(r->precision, "fp32");
    r->m = r->n = r->k = 1024;
    r->status = GP_STATUS_OK;
    r->time_median_s = 1e-3;
    r->flop_per_s = 2147483648.0 / 1e-3;
    r->metric[GP_M_dram_read] = 8e6;
    r->metric[GP_M_dram_write] = 4e6;
    r->metric[GP_M_l2_bytes] = 1e8;
    r->metric[GP_M_l1_bytes] = 2e9;
    r->metric[GP_M_smem_ld_wf] = 1e6;
    r->metric[GP_M_smem_st_wf] = 1e5;
    r->metric[GP_M_ffma] = 1e9;
    r->metric[GP_M_fadd] = 1e6;
    r->metric[GP_M_fmul] = 2e6;
    r->metric[GP_M_tensor_tf32] = 0;
}

static int col_index(const char *name)
{
    for (int i = 0; i < roof_column_count(); i++)
        if (strcmp(roof_column_name(i), name) == 0)
            return i;
    return -1;
}

static void test_memory_bound(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;
    hand_ceilings(&cs);
    hand_row(&r);
    roof_derive(&r, &cs, &o);

    CHECK_NEAR(o.flops_analytic, 2147483648.0, 1e-12, "analytic FLOPs = 2 m n k");
    CHECK_NEAR(o.flops_counted, 2.003e9, 1e-12, "counted FLOPs = 2 ffma + fadd + fmul + tensor");
    CHECK_NEAR(o.bytes[GP_LEVEL_DRAM], 12e6, 1e-12, "DRAM bytes = read + write");
    CHECK_NEAR(o.bytes[GP_LEVEL_L2], 1e8, 1e-12, "L2 bytes");
    CHECK_NEAR(o.bytes[GP_LEVEL_L1], 2e9, 1e-12, "L1 bytes");
    CHECK_NEAR(o.bytes[GP_LEVEL_SHARED], 1.408e8, 1e-12, "shared bytes = 128 x (ld + st wavefronts)");
    CHECK_NEAR(o.ai[GP_LEVEL_DRAM], 178.956970666667, 1e-9, "DRAM AI 178.96 FLOP/byte");
    CHECK_NEAR(o.ai[GP_LEVEL_L2], 21.47483648, 1e-9, "L2 AI");
    CHECK_NEAR(o.ai[GP_LEVEL_L1], 1.073741824, 1e-9, "L1 AI");
    CHECK_NEAR(o.ai[GP_LEVEL_SHARED], 15.252014545454, 1e-9, "shared AI");
    CHECK_NEAR(o.roof_bw[GP_LEVEL_DRAM], 3.5e12, 1e-12, "DRAM roof = max(copy, read)");
    CHECK_NEAR(o.peak_compute, 60e12, 1e-12, "fp32 row uses the measured FP32 FMA ceiling");
    CHECK_NEAR(o.attainable[GP_LEVEL_DRAM], 60e12, 1e-12, "DRAM attainable capped by compute");
    CHECK_NEAR(o.attainable[GP_LEVEL_L1], 2.147483648e13, 1e-9, "L1 attainable = AI x 20 TB/s");
    CHECK_NEAR(o.attainable[GP_LEVEL_SHARED], 60e12, 1e-12, "shared attainable capped by compute");
    CHECK(o.bound_level == GP_LEVEL_L1, "bound level is L1 (got %d)", o.bound_level);
    CHECK_NEAR(o.bound_attainable, 2.147483648e13, 1e-9, "bound attainable");
    CHECK_NEAR(o.achieved, 2.147483648e12, 1e-12, "achieved = 2mnk / median time");
    CHECK_NEAR(o.bound_share, 0.1, 1e-9, "share of the bound achieved = 10%%");

    char buf[64];
    roof_column_format(&o, col_index("bound_level"), buf, sizeof buf);
    CHECK(strcmp(buf, "l1") == 0, "bound_level column writes the name 'l1' (got '%s')", buf);
    roof_column_format(&o, col_index("bound_share"), buf, sizeof buf);
    CHECK(fabs(atof(buf) - 0.1) < 1e-9, "bound_share column '%s'", buf);
    roof_column_format(&o, col_index("bytes_shared"), buf, sizeof buf);
    CHECK(strcmp(buf, "140800000") == 0, "bytes_shared column '%s'", buf);
}

static void test_compute_bound(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;
    hand_ceilings(&cs);
    hand_row(&r);
    strcpy(r.precision, "tf32");
    r.metric[GP_M_l1_bytes] = 1e6;     /* L1 AI 2147 -> 42.9 PFLOP/s, far above 400 TF */
    r.time_median_s = 2147483648.0 / 200e12;
    roof_derive(&r, &cs, &o);
    /* memory roofs: DRAM 626 TF, L2 215 TF, shared 458 TF: L2 is lowest but TF32 peak 400
     * is not below 215, so L2 binds; raise L2 and compute binds. */
    CHECK(o.bound_level == GP_LEVEL_L2, "tf32 row with a low L2 roof: L2 binds (got %d)", o.bound_level);
    r.metric[GP_M_l2_bytes] = 1e7;     /* L2 roof now 2.15 PF */
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.peak_compute, 400e12, 1e-12, "tf32 row uses the measured TF32 ceiling");
    CHECK(o.bound_level == GP_BOUND_COMPUTE, "compute binds when below every memory roof (got %d)",
          o.bound_level);
    CHECK_NEAR(o.bound_attainable, 400e12, 1e-12, "compute bound attainable = TF32 peak");
    CHECK_NEAR(o.bound_share, 0.5, 1e-9, "200 of 400 TFLOP/s = 50%%");
    char buf[32];
    roof_column_format(&o, col_index("bound_level"), buf, sizeof buf);
    CHECK(strcmp(buf, "compute") == 0, "bound_level column 'compute' (got '%s')", buf);
}

/* The compute roof follows the pipe the counters saw: 3xTF32 is an fp32 row with three
 * tensor products per FMA, so its roof is the TF32 ceiling / 3, not the FP32 FMA ceiling. */
static void test_tensor_path(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;
    hand_ceilings(&cs);
    hand_row(&r);
    const double W = 2147483648.0;
    r.metric[GP_M_l1_bytes] = 1e6;
    r.metric[GP_M_l2_bytes] = 1e7;
    r.metric[GP_M_ffma] = 0;
    r.metric[GP_M_fadd] = 1e6;
    r.metric[GP_M_fmul] = 0;
    r.metric[GP_M_tensor_tf32] = 3 * W;
    roof_derive(&r, &cs, &o);
    CHECK(o.compute_path == GP_PATH_TENSOR, "3xTF32 (fp32 precision, tensor ops 3W): tensor path");
    CHECK_NEAR(o.tensor_per_flop, 3.0, 1e-12, "three tensor ops per GEMM FLOP");
    CHECK_NEAR(o.peak_compute, 400e12 / 3, 1e-12, "roof = TF32 ceiling / 3 (got %g)", o.peak_compute);
    strcpy(r.precision, "tf32");
    r.metric[GP_M_tensor_tf32] = W;
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.peak_compute, 400e12, 1e-12, "a TF32 GEMM (tensor ops = W): the TF32 ceiling");
    /* FP32 work that takes longer than the tensor work: the slower pipe is the roof */
    r.metric[GP_M_tensor_tf32] = W / 10;
    r.metric[GP_M_ffma] = W / 4;   /* W/2 FP32 FLOPs at 60 TF: longer than W/10 at 400 TF */
    r.metric[GP_M_fadd] = 0;
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.peak_compute, W / ((W / 2) / 60e12), 1e-12, "FP32 pipe slower: W / (S / F) (got %g)",
               o.peak_compute);
    /* no tensor counter: the precision decides, as before */
    hand_row(&r);
    r.metric[GP_M_tensor_tf32] = NAN;
    roof_derive(&r, &cs, &o);
    CHECK(o.compute_path == GP_PATH_FP32 && o.peak_compute == 60e12, "fp32 without the tensor counter: FP32 FMA");
}

/* A kernel whose tensor work went through mma.sync is held to the mma.sync loop's ceiling,
 * not to wgmma's (Hopper's mma.sync peaks well below wgmma); wgmma work, or no mma.sync
 * ceiling, keeps the wgmma roof. */
static void test_mma_sync_path(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;
    char name[64];
    hand_ceilings(&cs);
    cs.c[GP_CEIL_tf32_wgmma].measured = 470e12;
    cs.c[GP_CEIL_tf32_mma].measured = 310e12;
    hand_row(&r);
    const double W = 2147483648.0;
    strcpy(r.precision, "tf32");
    r.metric[GP_M_ffma] = 0;
    r.metric[GP_M_fadd] = 0;
    r.metric[GP_M_fmul] = 0;
    r.metric[GP_M_tensor_tf32] = W;
    r.metric[GP_M_tensor_hmma] = W;
    roof_derive(&r, &cs, &o);
    roof_compute_name(&o, name, sizeof name);
    CHECK(o.tensor_ceiling == GP_CEIL_tf32_mma && o.peak_compute == 310e12 && strstr(name, "mma.sync"),
          "mma.sync work: the mma.sync ceiling (got %g, '%s')", o.peak_compute, name);
    r.metric[GP_M_tensor_tf32] = 3 * W;   /* 3xTF32 on mma.sync */
    r.metric[GP_M_tensor_hmma] = 3 * W;
    strcpy(r.precision, "fp32");
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.peak_compute, 310e12 / 3, 1e-12, "3xTF32 on mma.sync: its ceiling / 3 (got %g)", o.peak_compute);
    r.metric[GP_M_tensor_hmma] = 0;       /* the same work through wgmma */
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.peak_compute, 470e12 / 3, 1e-12, "wgmma work: the wgmma ceiling / 3 (got %g)", o.peak_compute);
    r.metric[GP_M_tensor_hmma] = 3 * W;   /* an older ceilings.csv without the mma.sync row */
    cs.c[GP_CEIL_tf32_mma].measured = NAN;
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.peak_compute, 470e12 / 3, 1e-12, "no mma.sync ceiling: the wgmma one (got %g)", o.peak_compute);
    r.metric[GP_M_tensor_hmma] = NAN;     /* a run without the path counter */
    cs.c[GP_CEIL_tf32_mma].measured = 310e12;
    roof_derive(&r, &cs, &o);
    CHECK(o.tensor_ceiling == GP_CEIL_tf32_wgmma, "no path counter: the wgmma ceiling");
}

/* BF16 and FP16 rows are held to their own type's ceilings: by their path counter where it
 * was collected (-m, not in the default set), else by their precision; never to TF32's. */
static void test_16bit_path(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;
    char name[64];
    hand_ceilings(&cs);
    cs.c[GP_CEIL_tf32_wgmma].measured = 470e12;
    cs.c[GP_CEIL_bf16].measured = 640e12;          /* mma.sync loops */
    cs.c[GP_CEIL_fp16].measured = 650e12;
    cs.c[GP_CEIL_bf16_wgmma].measured = 900e12;    /* wgmma loops */
    cs.c[GP_CEIL_fp16_wgmma].measured = 910e12;
    const double W = 2147483648.0;
    static const struct { const char *prec; int all, hmma, mma, wgmma; const char *label; } t[] = {
        {"bf16", GP_M_tensor_bf16, GP_M_tensor_hmma_bf16, GP_CEIL_bf16, GP_CEIL_bf16_wgmma, "BF16 tensor"},
        {"fp16", GP_M_tensor_fp16, GP_M_tensor_hmma_fp16, GP_CEIL_fp16, GP_CEIL_fp16_wgmma, "FP16 tensor"},
    };
    for (int i = 0; i < 2; i++) {
        hand_row(&r);
        strcpy(r.precision, t[i].prec);
        r.metric[GP_M_ffma] = r.metric[GP_M_fadd] = r.metric[GP_M_fmul] = 0;
        r.metric[GP_M_tensor_tf32] = 0;   /* the default set: TF32's counters, none of its own */
        r.metric[GP_M_tensor_hmma] = 0;
        roof_derive(&r, &cs, &o);
        roof_compute_name(&o, name, sizeof name);
        CHECK(o.compute_path == GP_PATH_TENSOR && o.tensor_type == gp_precision_parse(t[i].prec) &&
                  o.tensor_ceiling == t[i].wgmma && o.peak_compute == cs.c[t[i].wgmma].measured &&
                  strcmp(name, t[i].label) == 0 && isnan(o.flops_counted),
              "%s row, default counters (TF32's zero, its own not collected): its wgmma ceiling, '%s', "
              "counted FLOPs unknown, not 0 (got %g, %g)", t[i].prec, name, o.peak_compute, o.flops_counted);
        r.metric[t[i].all] = W;   /* -m: its own path counters */
        r.metric[t[i].hmma] = 0;
        roof_derive(&r, &cs, &o);
        CHECK(o.tensor_ceiling == t[i].wgmma && fabs(o.peak_compute / cs.c[t[i].wgmma].measured - 1) < 1e-12 &&
                  o.tensor_per_flop == 1.0 && o.flops_counted == W,
              "%s row with its counters, wgmma work: the wgmma ceiling, one op per FLOP, all FLOPs counted",
              t[i].prec);
        r.metric[t[i].hmma] = W;
        roof_derive(&r, &cs, &o);
        roof_compute_name(&o, name, sizeof name);
        CHECK(o.tensor_ceiling == t[i].mma && fabs(o.peak_compute / cs.c[t[i].mma].measured - 1) < 1e-12 &&
                  strstr(name, "mma.sync"),
              "%s row whose work went through mma.sync: the mma.sync loop (%g, '%s')", t[i].prec, o.peak_compute,
              name);
        cs.c[t[i].wgmma].measured = NAN;   /* no sm_90a build: the mma.sync loop is all there is */
        r.metric[t[i].hmma] = 0;
        roof_derive(&r, &cs, &o);
        CHECK(o.tensor_ceiling == t[i].mma && fabs(o.peak_compute / cs.c[t[i].mma].measured - 1) < 1e-12,
              "%s without a wgmma ceiling: the mma.sync one, never TF32's", t[i].prec);
        /* the counters decide over the name: an fp32-precision row that did this type's work */
        strcpy(r.precision, "fp32");
        roof_derive(&r, &cs, &o);
        CHECK(o.compute_path == GP_PATH_TENSOR && o.tensor_type == gp_precision_parse(t[i].prec) &&
                  o.flops_counted == W,
              "fp32-precision row with %s tensor ops: that type's path", t[i].prec);
    }
    /* a TF32 or FP32 row without the 16-bit counters still counts its FLOPs */
    hand_row(&r);
    roof_derive(&r, &cs, &o);
    CHECK(!isnan(o.flops_counted) && o.tensor_type == GP_TF32 && o.compute_path == GP_PATH_FP32,
          "fp32 row without the BF16/FP16 counters: FLOPs counted, FP32 path");
}

static void test_no_counters(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;
    hand_ceilings(&cs);
    gp_result_init(&r);
    strcpy(r.precision, "fp32");
    r.m = 512, r.n = 256, r.k = 128;
    r.time_median_s = 1e-4;
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.flops_analytic, 2.0 * 512 * 256 * 128, 1e-12, "no counters: analytic FLOPs still there");
    CHECK(isnan(o.flops_counted), "no counters: counted FLOPs NaN");
    int all_nan = 1;
    for (int l = 0; l < GP_LEVEL_COUNT; l++)
        all_nan &= isnan(o.bytes[l]) && isnan(o.ai[l]) && isnan(o.attainable[l]);
    CHECK(all_nan, "no counters: bytes, AI and attainable NaN at every level");
    CHECK(o.bound_level == -1, "no counters: no bound level, not even compute (got %d)", o.bound_level);
    CHECK(isnan(o.bound_share), "no counters: bound share NaN");
    CHECK_NEAR(o.achieved, 2.0 * 512 * 256 * 128 / 1e-4, 1e-12, "no counters: achieved from time");
    int empty = 0;
    char buf[64];
    for (int i = 2; i < roof_column_count(); i++) {
        roof_column_format(&o, i, buf, sizeof buf);
        empty += buf[0] == '\0';
    }
    CHECK(empty == roof_column_count() - 2, "no counters: every derived column but the FLOPs is empty (%d)",
          empty);
}

static void test_partial_data(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof o;

    /* No ceilings at all: traffic and AI, but no roofs and no bound. */
    hand_row(&r);
    roof_derive(&r, NULL, &o);
    CHECK_NEAR(o.ai[GP_LEVEL_L1], 1.073741824, 1e-9, "no ceilings: AI still computed");
    CHECK(isnan(o.attainable[GP_LEVEL_L1]) && o.bound_level == -1 && isnan(o.bound_share),
          "no ceilings: attainable NaN, no bound");

    /* Only DRAM copy measured (read NaN); no L1 measurement: that level cannot bind. */
    ceilings_init(&cs);
    cs.c[GP_CEIL_dram_copy].measured = 3.0e12;
    cs.c[GP_CEIL_l1].theoretical = 1e9;   /* would bind if theoretical were (wrongly) used */
    cs.c[GP_CEIL_fp32_fma].measured = 60e12;
    roof_derive(&r, &cs, &o);
    CHECK_NEAR(o.roof_bw[GP_LEVEL_DRAM], 3.0e12, 1e-12, "DRAM roof falls back to copy when read is absent");
    CHECK(isnan(o.roof_bw[GP_LEVEL_L1]) && isnan(o.attainable[GP_LEVEL_L1]),
          "unmeasured L1: no roof, theoretical not used");
    CHECK(o.bound_level == GP_LEVEL_DRAM || o.bound_level == GP_BOUND_COMPUTE,
          "bound chosen among levels with data (got %d)", o.bound_level);
    /* DRAM roof 178.96 x 3 TB/s = 537 TF > 60 TF: compute binds */
    CHECK(o.bound_level == GP_BOUND_COMPUTE, "DRAM roof above the FP32 peak: compute binds");

    /* A level that moved zero bytes has no AI and cannot bind. */
    hand_ceilings(&cs);
    hand_row(&r);
    r.metric[GP_M_smem_ld_wf] = 0;
    r.metric[GP_M_smem_st_wf] = 0;
    roof_derive(&r, &cs, &o);
    CHECK(o.bytes[GP_LEVEL_SHARED] == 0 && isnan(o.ai[GP_LEVEL_SHARED]) && o.bound_level == GP_LEVEL_L1,
          "zero shared bytes: AI empty, L1 still binds");

    /* One missing FLOP counter makes the counted total unknown rather than too small. */
    r.metric[GP_M_tensor_tf32] = NAN;
    roof_derive(&r, &cs, &o);
    CHECK(isnan(o.flops_counted), "a missing FLOP counter: counted FLOPs NaN");

    /* Unknown precision: no compute roof; the lowest memory roof binds. */
    hand_row(&r);
    strcpy(r.precision, "fp64");
    roof_derive(&r, &cs, &o);
    CHECK(isnan(o.peak_compute) && o.bound_level == GP_LEVEL_L1,
          "unknown precision: no compute peak, memory bound at L1");
    CHECK_NEAR(o.attainable[GP_LEVEL_DRAM], 178.956970666667 * 3.5e12, 1e-9,
               "no compute peak: attainable is the memory roof alone");

    /* A row that never ran: no time, no achieved, no share. */
    hand_row(&r);
    r.time_median_s = NAN;
    r.flop_per_s = NAN;
    r.status = GP_STATUS_SKIPPED;
    roof_derive(&r, &cs, &o);
    CHECK(isnan(o.achieved) && isnan(o.bound_share) && o.bound_level == GP_LEVEL_L1,
          "row without a time: achieved and share NaN, bound still known");
}

static void test_columns(void)
{
    static const char *const want[] = {
        "flops_analytic", "flops_counted", "bytes_dram", "bytes_l2", "bytes_l1", "bytes_shared",
        "ai_dram_flop_per_byte", "ai_l2_flop_per_byte", "ai_l1_flop_per_byte", "ai_shared_flop_per_byte",
        "attainable_dram_flop_per_s", "attainable_l2_flop_per_s", "attainable_l1_flop_per_s",
        "attainable_shared_flop_per_s", "bound_level", "bound_share",
    };
    int n = (int)(sizeof want / sizeof want[0]);
    CHECK(roof_column_count() == n, "%d derived columns (got %d)", n, roof_column_count());
    int same = 1;
    for (int i = 0; i < n && i < roof_column_count(); i++)
        same &= strcmp(roof_column_name(i), want[i]) == 0;
    CHECK(same, "derived column names and order");
    CHECK(roof_column_name(-1) == NULL && roof_column_name(n) == NULL, "out-of-range column name is NULL");
    CHECK(strcmp(gp_level_name[GP_BOUND_COMPUTE], "compute") == 0 && strcmp(gp_level_name[0], "dram") == 0,
          "level names");
}

/* ---- ceilings.csv ---- */

static char tmpdir[256];

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

#define HDR "id,label,unit,measured,theoretical,sm_clock_hz,theory_source,gpu,date\n"

static void expect_error(const char *name, const char *text, const char *want1, const char *want2)
{
    struct gp_ceilings cs;
    char err[512] = "";
    const char *path = text ? write_file(name, text) : name;
    int rc = ceilings_read_csv(path, &cs, err, sizeof err);
    CHECK(rc == -1 && strstr(err, want1) && (!want2 || strstr(err, want2)),
          "ceilings %s: error names '%s'%s%s: %s", name, want1, want2 ? " and " : "", want2 ? want2 : "",
          err);
}

static void test_ceilings_io(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gp_test_roofline.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    int ids_ok = 1, n_compute = 0;
    for (int i = 0; i < GP_CEIL_COUNT; i++) {   /* every row of ceilings.def, whatever their number */
        ids_ok &= gp_ceiling_info[i].id[0] && gp_ceiling_info[i].label[0];
        for (int j = 0; j < i; j++)
            ids_ok &= strcmp(gp_ceiling_info[i].id, gp_ceiling_info[j].id) != 0;
        n_compute += gp_ceiling_info[i].kind == GP_CEIL_COMPUTE;
        ids_ok &= strcmp(gp_ceiling_info[i].unit, gp_ceiling_info[i].kind == GP_CEIL_COMPUTE ? "flop/s" : "byte/s") == 0;
    }
    CHECK(ids_ok && strcmp(gp_ceiling_info[GP_CEIL_tf32].id, "tf32") == 0 &&
              strcmp(gp_ceiling_info[GP_CEIL_bf16].id, "bf16") == 0 &&
              strcmp(gp_ceiling_info[GP_CEIL_fp16_wgmma].id, "fp16_wgmma") == 0 &&
              gp_ceiling_info[GP_CEIL_l2].kind == GP_CEIL_BANDWIDTH,
          "ceiling table from ceilings.def: %d ceilings, %d of them compute, ids unique, units by kind",
          GP_CEIL_COUNT, n_compute);

    struct gp_ceilings a, b;
    char err[512] = "";   /* a successful call leaves it untouched: never print stack bytes */
    hand_ceilings(&a);
    strcpy(a.gpu, "Test GPU, \"quoted\"");
    strcpy(a.date, "2026-11-30T00:00:00Z");
    a.c[GP_CEIL_l2].sm_clock_hz = 1.98e9;
    strcpy(a.c[GP_CEIL_tf32].theory_source, "132 SMs x 1024 x 2, dense");
    /* the BF16/FP16 rows too: every id is written and read back by name */
    for (int i = 0; i < GP_CEIL_COUNT; i++)
        if (isnan(a.c[i].measured))
            a.c[i].measured = 1e14 * (i + 1);
    a.c[GP_CEIL_bf16_wgmma].theoretical = 1.0705e15;
    a.c[GP_CEIL_fp16].sm_clock_hz = 1.755e9;
    strcpy(a.c[GP_CEIL_bf16_wgmma].theory_source, "132 SMs x 4096 dense flop/clk (datasheet constant) x 1.980 GHz max");
    char path[512];
    snprintf(path, sizeof path, "%s/ceilings.csv", tmpdir);
    CHECK(ceilings_write_csv(path, &a, err, sizeof err) == 0, "write ceilings.csv%s%s", *err ? ": " : "", err);
    int rc = ceilings_read_csv(path, &b, err, sizeof err);
    CHECK(rc == 0, "read back ceilings.csv: %s", rc ? err : "ok");
    int same = 1;
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        double x = a.c[i].measured, y = b.c[i].measured;
        same &= (isnan(x) && isnan(y)) || x == y;
        x = a.c[i].theoretical, y = b.c[i].theoretical;
        same &= (isnan(x) && isnan(y)) || x == y;
    }
    CHECK(same, "round trip keeps every value of all %d ceilings, NaN as NaN", GP_CEIL_COUNT);
    CHECK(b.c[GP_CEIL_fp16].sm_clock_hz == 1.755e9 &&
              strcmp(b.c[GP_CEIL_bf16_wgmma].theory_source, a.c[GP_CEIL_bf16_wgmma].theory_source) == 0,
          "the BF16/FP16 rows keep their clock and theory source");
    CHECK(strcmp(b.gpu, a.gpu) == 0 && strcmp(b.date, a.date) == 0 &&
              b.c[GP_CEIL_l2].sm_clock_hz == 1.98e9 &&
              strcmp(b.c[GP_CEIL_tf32].theory_source, a.c[GP_CEIL_tf32].theory_source) == 0,
          "round trip keeps gpu, date, clock and quoted source text");
    int leftovers = count_files_named(tmpdir, ".tmp.");
    CHECK(leftovers == 0, "no temporary file left after the atomic write (%d)", leftovers);

    /* the recorded test dataset's file */
    rc = ceilings_read_csv("tests/data/h200_crafted/ceilings.csv", &b, err, sizeof err);
    CHECK(rc == 0, "read tests/data/h200_crafted/ceilings.csv: %s", rc ? err : "ok");
    if (rc == 0)
        CHECK(b.c[GP_CEIL_dram_copy].measured == 3.96e12 && isnan(b.c[GP_CEIL_dram_read].measured) &&
                  b.c[GP_CEIL_fp32_fma].measured == 60.1e12,
              "recorded ceilings: DRAM copy 3.96 TB/s, no DRAM read, FP32 60.1 TFLOP/s");

    /* partial file: only some rows, columns in another order, no optional columns */
    write_file("partial.csv", "measured,id,theoretical\n2e12,dram_copy,\n,tf32,4.9e14\n");
    snprintf(path, sizeof path, "%s/partial.csv", tmpdir);
    rc = ceilings_read_csv(path, &b, err, sizeof err);
    CHECK(rc == 0 && b.c[GP_CEIL_dram_copy].measured == 2e12 && isnan(b.c[GP_CEIL_l2].measured) &&
              b.c[GP_CEIL_tf32].theoretical == 4.9e14,
          "columns by name in any order, absent rows NaN: %s", rc ? err : "ok");

    /* bad input */
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no_such_ceilings.csv", tmpdir);
    expect_error(missing, NULL, "no_such_ceilings.csv", "No such file");
    expect_error("empty.csv", "", "empty.csv", "empty file");
    expect_error("header_only.csv", HDR, "header_only.csv", "no ceiling rows");
    expect_error("no_measured.csv", "id,label,unit,theoretical\nl2,L2,byte/s,1e13\n", "no_measured.csv:1",
                 "missing column 'measured'");
    expect_error("not_number.csv", HDR "l2,L2,byte/s,1e13,2e13,,,,\nl1,L1,byte/s,fast,,,,,\n",
                 "not_number.csv:3", "column measured (4): 'fast' is not a finite number");
    expect_error("negative.csv", HDR "l2,L2,byte/s,,-5e12,,,,\n", "negative.csv:2",
                 "column theoretical (5): '-5e12' must be positive");
    expect_error("zero.csv", HDR "l2,L2,byte/s,0,,,,,\n", "zero.csv:2", "must be positive");
    expect_error("unknown.csv", HDR "l3,L3,byte/s,1e13,,,,,\n", "unknown.csv:2", "unknown ceiling 'l3'");
    expect_error("unit.csv", HDR "l2,L2,GB/s,10000,,,,,\n", "unit.csv:2", "'GB/s'");
    expect_error("dup.csv", HDR "l2,L2,byte/s,1e13,,,,,\nl2,L2,byte/s,2e13,,,,,\n", "dup.csv:3", "twice");
    expect_error("short.csv", HDR "l2,L2,byte/s,1e13\n", "short.csv:2", "fields");
    expect_error("quote.csv", HDR "l2,\"L2,byte/s,1e13,,,,,\n", "quote.csv:2", "unterminated");

    /* a failed read leaves the caller's struct untouched */
    hand_ceilings(&b);
    write_file("late_error.csv", HDR "l2,L2,byte/s,5e12,,,,,\nl1,L1,byte/s,x,,,,,\n");
    snprintf(path, sizeof path, "%s/late_error.csv", tmpdir);
    rc = ceilings_read_csv(path, &b, err, sizeof err);
    CHECK(rc == -1 && b.c[GP_CEIL_l2].measured == 10e12, "failed read does not half-fill the ceilings");

    /* writing into a missing directory fails with a reason */
    snprintf(path, sizeof path, "%s/no/such/dir/ceilings.csv", tmpdir);
    rc = ceilings_write_csv(path, &a, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "no/such/dir"), "write into a missing directory: %s", err);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", tmpdir);
}

/* The L1 level is the larger of the data-path bytes (128 B per writeback cycle, what a
 * broadcast load costs) and the bytes requested (what cp.async traffic shows as). */
static void test_l1_level(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof ro;
    hand_ceilings(&cs);

    hand_row(&r);   /* naive-like: 2e9 B requested, 2.5e7 cycles x 128 = 3.2e9 B on the data path */
    r.metric[GP_M_l1_lgds_wb] = 2.5e7;
    roof_derive(&r, &cs, &ro);
    CHECK_NEAR(ro.bytes[GP_LEVEL_L1], 3.2e9, 1e-12, "broadcast-heavy kernel: L1 bytes from data-path cycles (%g)",
               ro.bytes[GP_LEVEL_L1]);
    CHECK_NEAR(ro.ai[GP_LEVEL_L1], 2147483648.0 / 3.2e9, 1e-12, "its L1 AI uses those bytes");

    hand_row(&r);   /* cp.async-like: 2e9 B requested, only 2048 writeback cycles */
    r.metric[GP_M_l1_lgds_wb] = 2048;
    roof_derive(&r, &cs, &ro);
    CHECK_NEAR(ro.bytes[GP_LEVEL_L1], 2e9, 1e-12, "cp.async kernel: L1 bytes from bytes requested (%g)",
               ro.bytes[GP_LEVEL_L1]);

    hand_row(&r);   /* cycles not collected: bytes requested */
    roof_derive(&r, &cs, &ro);
    CHECK_NEAR(ro.bytes[GP_LEVEL_L1], 2e9, 1e-12, "without data-path cycles: bytes requested");

    hand_row(&r);   /* only the cycles collected */
    r.metric[GP_M_l1_bytes] = NAN;
    r.metric[GP_M_l1_lgds_wb] = 1e7;
    roof_derive(&r, &cs, &ro);
    CHECK_NEAR(ro.bytes[GP_LEVEL_L1], 1.28e9, 1e-12, "without bytes requested: data-path bytes");
}

/* The SMs' own roofs at the row's clock: a ceiling measured at 1.5 GHz serves a row that
 * ran at 1.8 GHz with 1.2x its value (L1, shared memory); a compute pipe's only downwards
 * (a full pipe held the clock the loop ran at); DRAM and L2 as measured. */
static void test_row_clock(void)
{
    struct gp_ceilings cs;
    struct gp_result r;
    struct gp_roof a, b;
    hand_ceilings(&cs);
    hand_row(&r);
    r.sm_clock_hz = NAN;
    roof_derive(&r, &cs, &a);
    for (int i = 0; i < GP_CEIL_COUNT; i++)
        cs.c[i].sm_clock_hz = 1.5e9;
    r.sm_clock_hz = 1.8e9;
    roof_derive(&r, &cs, &b);
    CHECK_NEAR(b.roof_bw[GP_LEVEL_L1], 1.2 * a.roof_bw[GP_LEVEL_L1], 1e-12, "L1 roof scaled by 1.8 / 1.5 GHz");
    CHECK_NEAR(b.roof_bw[GP_LEVEL_SHARED], 1.2 * a.roof_bw[GP_LEVEL_SHARED], 1e-12, "shared roof scaled");
    CHECK(b.peak_compute == a.peak_compute, "FP32 roof not above the measured ceiling at a faster clock");
    r.sm_clock_hz = 1.2e9;
    struct gp_roof c;
    roof_derive(&r, &cs, &c);
    CHECK_NEAR(c.peak_compute, 0.8 * a.peak_compute, 1e-12, "FP32 roof scaled by 1.2 / 1.5 GHz at a slower clock");
    r.sm_clock_hz = 1.8e9;
    CHECK(b.roof_bw[GP_LEVEL_DRAM] == a.roof_bw[GP_LEVEL_DRAM] && b.roof_bw[GP_LEVEL_L2] == a.roof_bw[GP_LEVEL_L2],
          "DRAM and L2 roofs as measured");
    r.sm_clock_hz = NAN;
    roof_derive(&r, &cs, &b);
    CHECK(b.peak_compute == a.peak_compute, "the row's clock unknown: as measured");
}

int main(void)
{
    test_row_clock();
    test_l1_level();
    test_memory_bound();
    test_compute_bound();
    test_tensor_path();
    test_mma_sync_path();
    test_16bit_path();
    test_no_counters();
    test_partial_data();
    test_columns();
    test_ceilings_io();
    TEST_EXIT();
}

/* The report and the dataset loader. Crafted datasets (H200-like numbers from
 * shared/anchors/h200-measured.md, and variations of them) must change the report's
 * conclusions: the binding level named for each variant, the verdict on the seed's
 * claims, the notes for missing counters, failed verification and partial runs. The
 * loader cases read the small directories under tests/data/report_*. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "analysis/atomic_file.h"
#include "analysis/dataset.h"
#include "analysis/report.h"
#include "analysis/results_csv.h"
#include "analysis/roofline.h"
#include "analysis/summary.h"
#include "src/cmd.h"
#include "tests/test.h"

#define DATA "tests/data/"

static char tmpdir[64];
static struct gp_result rows[64];

/* ---- crafted datasets ---- */

static void set_ceil(struct gp_ceilings *cs, int id, double measured, double theory)
{
    cs->c[id].measured = measured;
    cs->c[id].theoretical = theory;
    cs->c[id].sm_clock_hz = 1.755e9;
    snprintf(cs->c[id].theory_source, sizeof cs->c[id].theory_source, "crafted for the test");
}

static void h200_ceilings(struct gp_ceilings *cs)
{
    ceilings_init(cs);
    strcpy(cs->gpu, "NVIDIA H200");
    strcpy(cs->date, "2026-11-30T12:00:00Z");
    set_ceil(cs, GP_CEIL_dram_copy, 3.96e12, 4.8e12);
    set_ceil(cs, GP_CEIL_dram_read, 4.1e12, 4.8e12);
    set_ceil(cs, GP_CEIL_l2, 1.1e13, NAN);
    set_ceil(cs, GP_CEIL_l1, 1.9e13, 3.34e13);
    set_ceil(cs, GP_CEIL_shared, 3.0e13, 3.34e13);
    set_ceil(cs, GP_CEIL_fp32_fma, 60.1e12, 66.9e12);
    set_ceil(cs, GP_CEIL_fp32_nofma, 30.5e12, 33.5e12);
    set_ceil(cs, GP_CEIL_tf32, 440e12, 494.7e12);
}

static void h200_meta(struct gp_meta *m)
{
    meta_init(m);
    strcpy(m->gpu_name, "NVIDIA H200");
    m->cc_major = 9;
    m->sm_count = 132;
    m->sm_clock_max_hz = 1.98e9;
    m->sm_clock_measured_hz = 1.755e9;
    strcpy(m->git_rev, "abc1234");
    strcpy(m->date, "2026-11-30T12:00:00Z");
    strcpy(m->command, "gemmprof --out out");
    strcpy(m->counters, "collected (3 passes)");
    m->reps = 10;
    m->warmups = 2;
    m->l2_flush = 1;
}

struct counters { double dram_r, dram_w, l2, l1, ld_wf, st_wf, ffma, confl, tensor; };

static struct gp_result *add_row(struct gp_dataset *ds, const char *variant, const char *prec,
                                 long n, double time_s, struct counters c)
{
    struct gp_result *r = &ds->rows[ds->nrows++];
    gp_result_init(r);
    strcpy(r->variant, variant);
    strcpy(r->precision, prec);
    r->m = r->n = r->k = n;
    r->status = GP_STATUS_OK;
    r->rel_err = 1e-7;
    r->tolerance = 1e-5;
    r->time_median_s = r->time_min_s = time_s;
    r->time_max_s = time_s * 1.02;
    r->time_spread = 0.02;
    r->flop_per_s = 2.0 * n * n * n / time_s;
    r->sm_clock_hz = 1.755e9;
    r->metric[GP_M_dram_read] = c.dram_r;
    r->metric[GP_M_dram_write] = c.dram_w;
    r->metric[GP_M_l2_bytes] = c.l2;
    r->metric[GP_M_l1_bytes] = c.l1;
    r->metric[GP_M_smem_ld_wf] = c.ld_wf;
    r->metric[GP_M_smem_st_wf] = c.st_wf;
    r->metric[GP_M_ffma] = c.ffma;
    r->metric[GP_M_smem_ld_confl] = c.confl;
    r->metric[GP_M_tensor_tf32] = c.tensor;
    r->metric[GP_M_fadd] = isnan(c.ffma) ? NAN : 0;
    r->metric[GP_M_fmul] = isnan(c.ffma) ? NAN : 0;
    r->counter_passes = isnan(c.ffma) ? 0 : 3;
    return r;
}

static void new_dataset(struct gp_dataset *ds)
{
    memset(ds, 0, sizeof *ds);
    strcpy(ds->dir, "crafted");
    h200_meta(&ds->meta);
    ds->have_meta = 1;
    h200_ceilings(&ds->ceilings);
    ds->have_ceilings = 1;
    ds->rows = rows;
}

/* The H200's seed ladder at 1024 and 2048 (counters from the ncu anchors; 1024 scaled). */
static void h200_ladder(struct gp_dataset *ds)
{
    new_dataset(ds);
    for (int s = 0; s < 2; s++) {
        long n = s ? 2048 : 1024;
        double f = s ? 1.0 : 0.125, d = s ? 1.0 : 0.25;   /* work scales n^3, compulsory DRAM n^2 */
        add_row(ds, "naive", "fp32", n, s ? 2.78e-3 : 3.567e-4,
                (struct counters){33641728 * d, 12700416 * d, 2095528704 * f, 42966271456 * f, 0, 0,
                                  8589934592 * f, 0, 0});
        add_row(ds, "tiled", "fp32", n, s ? 1.86e-3 : 2.399e-4,
                (struct counters){33659136 * d, 12076544 * d, 1843393216 * f, 2164084352 * f,
                                  402820588 * f, 20219523 * f, 8589934592 * f, 167404 * f, 0});
        add_row(ds, "cublas", "fp32", n, s ? 0.349e-3 : 6.49e-5,
                (struct counters){33629184 * d, 2407424 * d, 422062592 * f, 419430400 * f,
                                  25333269 * f, 15292067 * f, 8589934592 * f, 24085 * f, 0});
        add_row(ds, "cublas_tf32", "tf32", n, s ? 0.061e-3 : 2.357e-5,
                (struct counters){33626112 * d, 2972928 * d, 319681600 * f, 950272 * f, 4028215 * f,
                                  2500331 * f, 4194304 * f, 1048576 * f, 17179869184 * f});
    }
}

/* ---- report text helpers ---- */

/* The whole file as a string (malloc'd), or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

static char *render(const struct gp_dataset *ds, int elsewhere, const char *name)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s.md", tmpdir, name);
    if (report_write(ds, path, elsewhere, NULL, err, sizeof err)) {
        printf("report_write(%s): %s\n", name, err);
        return NULL;
    }
    /* the report and its detail file (the per-shape tables), as one text */
    char detail[300];
    snprintf(detail, sizeof detail, "%s/%s-detail.md", tmpdir, name);
    char *a = read_text(path), *b = read_text(detail);
    if (!a || !b) {
        free(a);
        free(b);
        printf("report_write(%s): %s missing\n", name, a ? detail : path);
        return NULL;
    }
    char *both = malloc(strlen(a) + strlen(b) + 2);
    if (both)
        sprintf(both, "%s\n%s", a, b);
    free(a);
    free(b);
    return both;
}

/* A copy of the part of `text` from `heading` to the next heading of level 2 or 3. */
static char *section(const char *text, const char *heading)
{
    const char *a = text ? strstr(text, heading) : NULL;
    if (!a)
        return strdup("");
    const char *e = a + strlen(heading);
    const char *n3 = strstr(e, "\n### "), *n2 = strstr(e, "\n## ");
    const char *end = n3 && (!n2 || n3 < n2) ? n3 : n2 ? n2 : e + strlen(e);
    return strndup(a, (size_t)(end - a));
}

static int has(const char *text, const char *needle) { return text && strstr(text, needle) != NULL; }

/* ---- tests ---- */

static void test_ladder(void)
{
    struct gp_dataset ds;
    h200_ladder(&ds);
    /* descriptions come from results.json, as the measuring build wrote them */
    ds.meta.variants.n = 2;
    strcpy(ds.meta.variants.v[0].name, "naive");
    strcpy(ds.meta.variants.v[0].description, "one thread per C element (as recorded)");
    strcpy(ds.meta.variants.v[1].name, "tiled");
    strcpy(ds.meta.variants.v[1].description, "32x32 *tiles* | <b>");
    char *t = render(&ds, 1, "ladder");
    CHECK(t != NULL, "report of the H200 ladder written");
    {
        char *naive = section(t, "### `naive`"), *tiled = section(t, "### `tiled`"), *cublas = section(t, "### `cublas`\n");
        CHECK(has(naive, "### `naive`\n\none thread per C element (as recorded).\n"),
              "naive described as its results.json says");
        CHECK(has(tiled, "32x32 \\*tiles\\* \\| \\<b\\>.") && !has(tiled, "<b>"),
              "a description from the data is escaped for Markdown");
        CHECK(has(cublas, "### `cublas`\n\nDiagnosis"), "a variant results.json does not describe gets no description line");
        free(naive); free(tiled); free(cublas);
    }
    CHECK(has(t, "**Recorded data: measured on NVIDIA H200 on 2026-11-30T12:00:00Z at commit abc1234, "
                 "not on this machine.**"), "recorded-elsewhere note names GPU, date and commit");
    char *naive = section(t, "### `naive`"), *tiled = section(t, "### `tiled`");
    char *cublas = section(t, "### `cublas`\n"), *tf32 = section(t, "### `cublas_tf32`");
    CHECK(has(naive, "**Binding level: L1.** 5.00 bytes of L1 traffic per FMA"),
          "naive: L1-bound with 5.00 bytes of L1 traffic per FMA");
    CHECK(has(naive, "DRAM alone would allow"), "naive: what DRAM alone would allow");
    CHECK(has(naive, "It reads no shared memory"), "naive: no shared memory");
    /* tiled is bound by shared memory: its binding traffic is compared, not the L1 bytes it
     * left behind (the report once said "L1 5.00 -> 0.252 B (cuts 19.9x)") */
    CHECK(has(t, "| `naive` -> `tiled` | 2048x2048x2048 | 1.49x |") &&
              has(t, "| L1 5.00 B -> shared memory 6.30 B (raises 1.26x) |") && !has(t, "cuts 19.9x"),
          "ladder: naive -> tiled compares naive's L1 bytes with tiled's shared-memory bytes (5.00 -> 6.30 B per FMA)");
    CHECK(has(tiled, "**Binding level: shared memory.**"), "tiled: shared-memory-bound");
    CHECK(has(tiled, "1.50 load wavefronts per warp-level FFMA"), "tiled: 1.50 wavefronts per warp FFMA");
    CHECK(has(tiled, "bank conflicts 0.0416% of them (negligible)"),
          "tiled: bank conflicts negligible");
    CHECK(has(cublas, "**Binding level: compute.**") && has(cublas, "FP32 FMA ceiling of 60.1 TFLOP/s"),
          "cublas: compute-bound against the FP32 ceiling");
    CHECK(has(tf32, "**Binding level: compute.**") && has(tf32, "TF32 tensor ceiling of 440 TFLOP/s"),
          "cublas_tf32: compute-bound against the TF32 ceiling");
    CHECK(has(tf32, "bank conflicts 26.0% of them (significant)"),
          "cublas_tf32: significant bank conflicts flagged");
    CHECK(has(t, "2048^3: naive 2.78 ms, tiled 1.86 ms: tiled is **1.49x** faster; the claim **does not hold**"),
          "seed speedup claim at 2048 does not hold (1.49x)");
    CHECK(has(t, "1024^3: naive 0.357 ms, tiled 0.240 ms: tiled is **1.49x** faster; the claim **does not hold**"),
          "seed speedup claim at 1024 does not hold");
    CHECK(has(t, "naive is L1-bound") && has(t, "tiled is shared-memory-bound"),
          "speedup claim explained by both binding levels");
    CHECK(has(t, "stays the same within 5%, against the claim"), "the gap does not widen at 2048");
    CHECK(has(t, "bandwidth-bound **yes, but not by DRAM**: by L1"), "naive bandwidth-bound, by L1 not DRAM");
    CHECK(has(t, "claim ~5%: does not hold"), "naive runs at 10%%, not ~5%% of peak");
    CHECK(has(t, "| `naive` | fp32 | ok | 2.78 | 2.00% | 6.18 | 12.6% |"),
          "2048 table: naive time, spread, TFLOP/s and %% of cuBLAS");
    CHECK(has(t, "| `cublas_tf32` | tf32 | ok | 0.0610 | 2.00% | 282 | 572% | 100% |"),
          "2048 table: TF32 row against cuBLAS and cuBLAS TF32");
    CHECK(has(t, "| L1 | 19.0 TB/s | 33.4 TB/s | 56.9% |"), "ceilings table with %% of theory");
    CHECK(has(t, "No charts were rendered with this report") && !has(t, "!["),
          "no charts this run: none linked, and said");
    CHECK(!has(t, "FAILED VERIFICATION") && !has(t, "Counters were not collected"),
          "no failure or missing-counter notes when there are none");
    free(naive); free(tiled); free(cublas); free(tf32); free(t);

    /* rendered where it was measured: no note */
    t = render(&ds, 0, "ladder_here");
    CHECK(t && !has(t, "Recorded data"), "measured here: no recorded-elsewhere note");
    free(t);
}

static void test_fast_tiled(void)
{
    /* a tiled kernel with 8x less shared traffic and a 7x speedup: the claim now holds */
    struct gp_dataset ds;
    h200_ladder(&ds);
    struct gp_result *r = &ds.rows[5];
    r->time_median_s = 2.78e-3 / 7.0;
    r->metric[GP_M_smem_ld_wf] /= 8;
    r->metric[GP_M_smem_st_wf] /= 8;
    char *t = render(&ds, 1, "fast_tiled");
    CHECK(has(t, "2048^3: naive 2.78 ms, tiled 0.397 ms: tiled is **7.00x** faster; the claim **holds**"),
          "seed speedup claim holds for a 7x tiled kernel");
    CHECK(has(t, "so it widens, as claimed"), "the gap widens at 2048 when it does");
    free(t);
}

static void test_dram_bound(void)
{
    /* no reuse at all: every FMA pulls operands from DRAM */
    struct gp_dataset ds;
    new_dataset(&ds);
    add_row(&ds, "naive", "fp32", 8192, 0.2,
            (struct counters){5.5e11, 0.5e11, 6.5e11, 1.0e12, 0, 0, 5.5e11, 0, 0});
    char *t = render(&ds, 1, "dram");
    char *naive = section(t, "### `naive`");
    CHECK(has(naive, "**Binding level: DRAM.**"), "DRAM-bound kernel named DRAM-bound");
    CHECK(!has(naive, "DRAM alone would allow"), "no 'DRAM alone' remark when DRAM binds");
    CHECK(has(t, "bandwidth-bound **as claimed, by DRAM**: by DRAM"), "seed claim holds as stated for DRAM");
    CHECK(has(t, "1024^3: not measured (no naive or tiled row)"), "claim sizes absent are said to be unmeasured");
    free(naive);
    free(t);
}

/* An issue-bound row says what its slots issue: the crafted issuebound row (tests/data/
 * insight_crafted, 20 FLOP per warp instruction) has FFMA as 20 / 64 of its warp
 * instructions, and a row without the FFMA counter says nothing of them. */
static void test_issue_mix(void)
{
    struct gp_dataset ds;
    char err[512];
    if (dataset_load("tests/data/insight_crafted", &ds, err, sizeof err)) {
        CHECK(0, "insight_crafted loads: %s", err);
        return;
    }
    char *t = render(&ds, 1, "issuemix");
    CHECK(has(t, "20.0 FLOP per warp instruction (FFMA 31.3% of them)"),
          "the issue-bound row gives FFMA's share of its warp instructions (20 / 64 = 31.3%%)");
    free(t);
    for (int i = 0; i < ds.nrows; i++)
        ds.rows[i].metric[GP_M_ffma] = NAN;
    t = render(&ds, 1, "issuemix_noffma");
    CHECK(has(t, "20.0 FLOP per warp instruction, ") && !has(t, "of them)"),
          "without the FFMA counter the share is left out");
    free(t);
    dataset_free(&ds);
}

static void test_peak_claim_holds(void)
{
    /* naive at 8192 in 0.37 s: 2.97 TFLOP/s, 4.9% of the 60.1 TFLOP/s FP32 ceiling */
    struct gp_dataset ds;
    new_dataset(&ds);
    add_row(&ds, "naive", "fp32", 8192, 0.37,
            (struct counters){5.5e11, 0.5e11, 6.5e11, 1.0e12, 0, 0, 5.5e11, 0, 0});
    char *t = render(&ds, 1, "peakclaim");
    CHECK(has(t, "claim ~5%: holds, 0.98"), "a naive kernel at ~5%% of peak: the claim holds");
    free(t);
}

static void test_compute_only(void)
{
    struct gp_dataset ds;
    new_dataset(&ds);
    add_row(&ds, "cublas", "fp32", 4096, 2.69e-3,
            (struct counters){2.0e8, 7e7, 3.4e9, 3.4e9, 2.0e8, 1.2e8, 6.87e10, 2e5, 0});
    char *t = render(&ds, 1, "compute");
    CHECK(has(t, "**Binding level: compute.**") && !has(t, "Binding level: L1") &&
              !has(t, "Binding level: DRAM"), "compute-bound only");
    CHECK(has(t, "At 85.0% of the bound, compute is what limits it."), "share of the compute bound");
    CHECK(has(t, "Not checked: the data has no `naive` rows."), "no naive rows: claim not checked");
    free(t);
}

static void test_no_counters(void)
{
    struct gp_dataset ds;
    h200_ladder(&ds);
    for (int i = 0; i < ds.nrows; i++)
        if (strcmp(ds.rows[i].variant, "naive") == 0 || strcmp(ds.rows[i].variant, "tiled") == 0)
            for (int k = 0; k < GP_METRIC_COUNT; k++)
                ds.rows[i].metric[k] = NAN;
    char *t = render(&ds, 1, "nocounters");
    char *naive = section(t, "### `naive`");
    CHECK(has(naive, "Counters were not collected") && !has(naive, "Binding level"),
          "naive without counters: time-only statement, no binding level");
    CHECK(has(naive, "6.18 TFLOP/s, 10.3% of the FP32 FMA ceiling, 12.6% of cuBLAS"),
          "time-only statement gives TFLOP/s, %% of peak and %% of cuBLAS");
    CHECK(has(t, "Counters were not collected for 4 verified rows"), "data notes list the rows without counters");
    CHECK(has(t, "Counters or ceilings are missing (naive: no counters; tiled: no counters)"),
          "claim check falls back to time only");
    CHECK(has(t, "the claim **does not hold**"), "the time-only verdict is still given");
    char *cublas = section(t, "### `cublas`\n");
    CHECK(has(cublas, "Binding level: compute"), "rows with counters keep their analysis");
    free(cublas);
    free(naive);
    free(t);
}

static void test_failed_verification(void)
{
    struct gp_dataset ds;
    h200_ladder(&ds);
    ds.rows[5].status = GP_STATUS_VERIFY_FAILED;   /* tiled at 2048 */
    ds.rows[5].rel_err = 0.3;
    strcpy(ds.rows[5].verify_method, "cpu_fp64_sampled");
    char *t = render(&ds, 1, "failed");
    CHECK(has(t, "## WARNING: 1 row FAILED VERIFICATION"), "failed verification flagged prominently");
    CHECK(has(t, "| `tiled` | 2048x2048x2048 | 0.300 | 1.00e-05 | cpu_fp64_sampled |"),
          "the failing row is listed with its error and tolerance");
    CHECK(has(t, "| `tiled` | fp32 | **VERIFY FAILED** | excluded |"), "excluded from the shape table");
    CHECK(has(t, "2048^3: not checked: tiled did not produce a verified result"),
          "excluded from the seed claim");
    CHECK(has(t, "| `naive` -> `tiled` | 2048x2048x2048 | no comparison: `tiled` failed verification |"),
          "excluded from the step comparison");
    char *tiled = section(t, "### `tiled`");
    CHECK(has(tiled, "Why, at 1024x1024x1024:"), "tiled explained at its verified shape");
    CHECK(has(tiled, "| 2048x2048x2048 | **verification failed** |"), "tiled's failed shape marked");
    free(tiled);
    free(t);
}

static void test_no_ceilings(void)
{
    struct gp_dataset ds;
    h200_ladder(&ds);
    ceilings_init(&ds.ceilings);
    ds.have_ceilings = 0;
    char *t = render(&ds, 1, "noceil");
    CHECK(has(t, "No ceilings.csv: without measured ceilings"), "missing ceilings said");
    CHECK(has(t, "No ceilings to compare against, so no binding level") && !has(t, "Binding level:"),
          "no binding levels without ceilings");
    free(t);
}

/* A call of several kernels: the counters' rates mix them, and the report says so beside
 * each rate (a TMA kernel's operand copy at k % 4 != 0 raised its call's occupancy from the
 * GEMM's 14.0% to 37.7% on the H200); a one-kernel call gets no such words. */
static void test_several_kernels(void)
{
    struct gp_dataset ds;
    char err[1024];
    if (dataset_load("tests/data/h200_recorded", &ds, err, sizeof err) != 0) {
        CHECK(0, "tests/data/h200_recorded loads: %s", err);
        return;
    }
    int several = 0;
    for (int i = 0; i < ds.nrows; i++)
        several += strchr(ds.rows[i].kernels, ';') != NULL;
    char *t = render(&ds, 1, "several");
    char mainp[300];
    snprintf(mainp, sizeof mainp, "%s/several.md", tmpdir);
    char *main_only = read_text(mainp);
    CHECK(main_only && has(main_only, "## Summary") && !has(main_only, "## Results by shape") &&
              has(main_only, "[several-detail.md](several-detail.md)") && has(t, "## Results by shape"),
          "report.md opens with the summary and links its detail file, which holds the per-shape tables");
    free(main_only);
    CHECK(has(t, "Diagnosis at ") && !has(t, "Next change"),
          "each variant gets the diagnosis engine's ranked findings, not the old single advice");
    CHECK(has(t, "**bank conflicts") || has(t, "(bank_conflicts)"),
          "the recorded ladder's bank conflicts are named with their rule id");
    /* wrong claims the report once made on this data */
    CHECK(has(t, "- Over the whole sweep: 1.38x at 1024, 1.39x at 2048, 1.49x at 4096, 1.61x at 8192: from 1024 to "
                 "8192 the gap widens (1.17x)."),
          "the seed's gap over the whole sweep, not only at its two sizes (where it stays within 5%%)");
    char *x3 = section(t, "### `tf32x3_wgmma`");
    CHECK(has(x3, "Diagnosis at ") && !has(x3, "the tensor cores (TF32)"),
          "tf32x3_wgmma runs on the tensor cores: it is not told to move to them");
    CHECK(!has(t, "more work per thread (register tiling)") && has(t, "the register tile is at the register file's limit"),
          "no kernel at 200+ registers is told to tile more registers; issue-bound ones are told the tile is at the limit");
    free(x3);
    CHECK(several > 0 && has(t, " over the call's 2 kernels"),
          "a rate of a two-kernel call is said to cover the call's 2 kernels (%d such rows)", several);
    /* far below its roof with no cause named and no stall breakdown: --stalls is suggested */
    CHECK(!has(t, "would show where the warps wait"), "every focus row near its roof or explained: no --stalls hint");
    for (int i = 0; i < ds.nrows; i++)
        if (strcmp(ds.rows[i].variant, "tf32_mma") == 0)
            ds.rows[i].time_median_s *= 3;
    char *slow = render(&ds, 1, "slow_tf32_mma");
    char *mma = section(slow, "### `tf32_mma`");
    CHECK(has(mma, "`--stalls` (every warp-stall reason"), "tf32_mma slowed 3x, far under its issue roof: --stalls is suggested");
    free(mma);
    free(slow);
    for (int i = 0; i < ds.nrows; i++) {
        char *semi = strchr(ds.rows[i].kernels, ';');
        if (semi)
            *semi = '\0';
    }
    char *one = render(&ds, 1, "several_one");
    CHECK(one && !has(one, "over the call's"), "one kernel per call: no such words");
    free(t);
    free(one);
    dataset_free(&ds);
}

static void test_loader(void)
{
    struct gp_dataset ds;
    char err[1024];
    int rc = dataset_load(DATA "report_missing", &ds, err, sizeof err);
    CHECK(rc < 0 && has(err, "results directory 'tests/data/report_missing' does not exist"),
          "missing directory: %s", err);
    rc = dataset_load(DATA "report_nocsv", &ds, err, sizeof err);
    CHECK(rc < 0 && has(err, "has no results.csv"), "no results.csv: %s", err);
    rc = dataset_load(DATA "report_empty", &ds, err, sizeof err);
    CHECK(rc < 0 && has(err, "results.csv: empty file"), "empty results.csv: %s", err);
    rc = dataset_load(DATA "report_oldcsv", &ds, err, sizeof err);
    CHECK(rc < 0 && has(err, "older"), "older results.csv schema: %s", err);
    rc = dataset_load(DATA "report_oldjson", &ds, err, sizeof err);
    CHECK(rc < 0 && has(err, "schema 0 is older"), "older results.json schema: %s", err);
    rc = dataset_load(DATA "report_nocsv/results.json", &ds, err, sizeof err);
    CHECK(rc < 0 && has(err, "is not a directory"), "a file instead of a directory: %s", err);

    rc = dataset_load(DATA "report_badjson", &ds, err, sizeof err);
    CHECK(rc == 0 && !ds.have_meta && !ds.have_ceilings, "unreadable sidecars: still loads");
    CHECK(has(ds.warnings, "results.json unreadable (tests/data/report_badjson/results.json:3:")
              && has(ds.warnings, "ceilings.csv unreadable"),
          "unreadable sidecars are warnings naming file and line: %s", ds.warnings);
    if (rc == 0)
        dataset_free(&ds);

    rc = dataset_load(DATA "report_minimal", &ds, err, sizeof err);
    CHECK(rc == 0 && ds.nrows == 2, "results.csv alone loads (%d rows)", rc == 0 ? ds.nrows : -1);
    CHECK(has(ds.warnings, "no results.json") && has(ds.warnings, "no ceilings.csv"),
          "missing sidecars are warnings");
    if (rc == 0) {
        char *t = render(&ds, 1, "minimal");
        CHECK(has(t, "Recorded data: measured on an unknown GPU on an unknown date at commit unknown"),
              "unknown machine said in the recorded-elsewhere note");
        CHECK(has(t, "No results.json: the GPU, clocks"), "machine section says metadata is missing");
        CHECK(has(t, "2048^3: naive 2.78 ms, tiled 1.86 ms: tiled is **1.49x** faster"),
              "speedup still computed from the CSV");
        free(t);
        dataset_free(&ds);
    }

    rc = dataset_load(DATA "report_partial", &ds, err, sizeof err);
    CHECK(rc == 0, "partial sweep loads%s%s", rc ? ": " : "", rc ? err : "");
    CHECK(has(ds.warnings, "partial sweep: 2 of 3 rows did not run (1 cuda_error, 1 skipped)"),
          "partial sweep warning for rows that did not run");
    CHECK(has(ds.warnings, "results.csv has 3 rows, the run planned 8"), "partial sweep against planned rows");
    if (rc == 0) {
        char *t = render(&ds, 1, "partial");
        CHECK(has(t, "`tiled` at 1024x1024x1024 did not run (cuda_error): cudaErrorLaunchFailure"),
              "report lists the row that did not run, with its error");
        CHECK(has(t, "1024^3: not checked: tiled did not produce a verified result"),
              "claim not checked against a row that did not run");
        free(t);
        dataset_free(&ds);
    }
}

/* A results directory tmpdir/NAME holding ds's rows as results.csv, written by the real
 * writer; 0 on success. */
static int write_results_dir(const struct gp_dataset *ds, const char *name, char *dir, size_t len)
{
    char path[300];
    snprintf(dir, len, "%s/%s", tmpdir, name);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "w");
    int ok = f && results_csv_write_header(f) == 0;
    for (int i = 0; ok && i < ds->nrows; i++)
        ok = results_csv_write_row(f, &ds->rows[i], &ds->ceilings) == 0;
    if (f)
        ok = fclose(f) == 0 && ok;
    return ok ? 0 : -1;
}

/* The CLI verb, end to end: files written by the real writers, read back, reported. */
static void test_report_main(void)
{
    struct gp_dataset ds;
    char dir[128], path[256], err[512];
    h200_ladder(&ds);
    CHECK(write_results_dir(&ds, "run", dir, sizeof dir) == 0, "results.csv written");
    FILE *f;
    snprintf(path, sizeof path, "%s/ceilings.csv", dir);
    CHECK(ceilings_write_csv(path, &ds.ceilings, err, sizeof err) == 0, "ceilings.csv written");
    ds.meta.planned_rows = ds.nrows;
    snprintf(path, sizeof path, "%s/results.json", dir);
    CHECK(meta_write_json(path, &ds.meta, err, sizeof err) == 0, "results.json written");

    snprintf(path, sizeof path, "%s/out.md", tmpdir);
    char *argv1[] = {"report", dir, "--no-plots", "--out", path, NULL};
    CHECK(report_main(5, argv1) == 0, "gemmprof report DIR --no-plots --out FILE exits 0");
    f = fopen(path, "r");
    char text[200000];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    CHECK(has(text, "**Binding level: L1.**") && has(text, "**Binding level: shared memory.**") &&
              has(text, "Recorded data: measured on NVIDIA H200"),
          "report from files reaches the same conclusions");
    CHECK(!has(text, "Data notes"), "a complete run has no data notes");

    char *argv2[] = {"report", dir, "--measured-here", NULL};
    int rc = report_main(3, argv2);   /* renders charts too when gnuplot is there */
    snprintf(path, sizeof path, "%s/report.md", dir);
    CHECK(rc == 0 && access(path, R_OK) == 0, "default output is DIR/report.md, charts or not");
    f = fopen(path, "r");
    n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    CHECK(!has(text, "Recorded data"), "--measured-here drops the recorded-elsewhere note");

    char *argv3[] = {"report", NULL};
    CHECK(report_main(1, argv3) == 2, "no directory: usage error 2");
    char *argv4[] = {"report", dir, "--bogus", NULL};
    CHECK(report_main(3, argv4) == 2, "unknown option: usage error 2");
    char *argv7[] = {"report", dir, "--max-shape-charts", "many", NULL};
    char *argv8[] = {"report", dir, "--max-shape-charts", NULL};
    CHECK(report_main(4, argv7) == 2 && report_main(3, argv8) == 2,
          "--max-shape-charts without a whole number: usage error 2");
    char *argv5[] = {"report", DATA "report_missing", NULL};
    CHECK(report_main(2, argv5) == 1, "missing directory: data error 1");
    char *argv6[] = {"report", DATA "report_empty", "--out", tmpdir, NULL};
    CHECK(report_main(4, argv6) == 1, "empty results.csv: data error 1");
}



/* ---- implausible values (issue 24): mutants of the recorded H200 run ---- */

enum mutation { MUT_DRAM_X1000, MUT_TIMES_X1E_9, MUT_N_MAX, MUT_THEORY_101, MUT_FLOPS_TINY, MUT_OTHER_GPU,
                MUT_OTHER_UUID };

/* tests/data/h200_recorded with one mutation, written by the real writers to tmpdir/NAME and loaded
 * back (so dataset_load's check runs); the report in *report, the --summary block in
 * *summary (the previous ones, or NULL, freed first). flags: dataset_load_opts's. 0 on
 * success. */
static int mutant(enum mutation mu, const char *name, int flags, char **report, char **summary)
{
    static struct gp_dataset ds;
    char dir[128], path[300], err[512];
    free(*report);
    free(*summary);
    *report = *summary = NULL;
    if (dataset_load("tests/data/h200_recorded", &ds, err, sizeof err)) {
        printf("dataset_load(tests/data/h200_recorded): %s\n", err);
        return -1;
    }
    for (int i = 0; i < ds.nrows; i++) {
        struct gp_result *r = &ds.rows[i];
        int n1024 = r->n == 1024;
        if (mu == MUT_DRAM_X1000 && strcmp(r->variant, "naive") == 0) {
            r->metric[GP_M_dram_read] *= 1000;
            r->metric[GP_M_dram_write] *= 1000;
        } else if (mu == MUT_TIMES_X1E_9 && strcmp(r->variant, "tiled") == 0) {
            r->time_median_s *= 1e-9;
            r->time_min_s *= 1e-9;
            r->time_max_s *= 1e-9;
        } else if (mu == MUT_N_MAX && strcmp(r->variant, "naive") == 0 && n1024) {
            r->n = 2147483647;
        } else if (mu == MUT_FLOPS_TINY && strcmp(r->variant, "tiled") == 0) {
            r->metric[GP_M_ffma] *= 1e-3;
        }
    }
    if (mu == MUT_THEORY_101)
        ds.ceilings.c[GP_CEIL_dram_copy].theoretical = 101;
    if (mu == MUT_OTHER_GPU)
        strcpy(ds.ceilings.gpu, "NVIDIA A100-SXM4-80GB");
    if (mu == MUT_OTHER_UUID)   /* the same model, another board */
        strcpy(ds.ceilings.gpu_uuid, "GPU-00000000-1111-2222-3333-444444444444");
    int ok = write_results_dir(&ds, name, dir, sizeof dir) == 0;
    snprintf(path, sizeof path, "%s/ceilings.csv", dir);
    ok = ok && ceilings_write_csv(path, &ds.ceilings, err, sizeof err) == 0;
    snprintf(path, sizeof path, "%s/results.json", dir);
    ok = ok && meta_write_json(path, &ds.meta, err, sizeof err) == 0;
    dataset_free(&ds);
    if (!ok || dataset_load_opts(dir, flags, &ds, err, sizeof err)) {
        printf("mutant %s: %s\n", name, err);
        return -1;
    }
    *report = render(&ds, 1, name);
    size_t len = 0;
    FILE *f = open_memstream(summary, &len);
    if (f) {
        summary_write(&ds, dir, f, err, sizeof err);
        fclose(f);
    }
    /* the summary's paragraphs are wrapped at 100 columns: sentences are matched unwrapped */
    for (char *c = *summary; c && *c; c++)
        if (*c == '\n' && c[1] && c[1] != '\n' && c[1] != '|' && c > *summary && c[-1] != '\n' && c[-1] != '|')
            *c = ' ';
    dataset_free(&ds);
    return *report && *summary ? 0 : -1;
}

static void test_implausible(void)
{
    char *t = NULL, *s = NULL;
    CHECK(mutant(MUT_DRAM_X1000, "dram_x1000", 0, &t, &s) == 0, "mutant: naive's DRAM bytes x1000");
    CHECK(!has(t, "bandwidth-bound **as claimed, by DRAM**"),
          "DRAM bytes x1000: no \"bandwidth-bound as claimed, by DRAM, at 542%% of that roof\"");
    CHECK(has(t, "**Implausible row** `naive` at 1024x1024x1024: its DRAM traffic runs at 24.3 TB/s, 5.04x the "
                 "DRAM ceiling of 4.81 TB/s"), "DRAM bytes x1000: the data notes say which row and why");
    CHECK(has(t, "- 1024x1024x1024: implausible (see the data notes), not checked."),
          "DRAM bytes x1000: the bandwidth claim is not checked on it");
    CHECK(has(s, "4 implausible rows and 0 implausible ceilings left out") && !has(s, "| `naive` | 6.19"),
          "DRAM bytes x1000: the summary leaves naive's figures out and says so");

    CHECK(mutant(MUT_TIMES_X1E_9, "times_x1e-9", 0, &t, &s) == 0, "mutant: tiled's times x1e-9");
    CHECK(!has(t, "e+09x** faster") && !has(t, "holds (exceeded)"),
          "times x1e-9: no \"tiled is 1.39e+09x faster; the claim holds (exceeded)\"");
    CHECK(has(t, "- 1024^3: not checked: tiled is implausible") &&
              has(t, "**Implausible row** `tiled` at 1024x1024x1024: it achieves 8.52e+09 TFLOP/s, 1.27e+08x the "
                     "FP32 FMA ceiling of 66.9 TFLOP/s"),
          "times x1e-9: the claim is not checked and the note gives the numbers");
    CHECK(!has(s, "e+0") && has(s, "| `tiled` | n/a | n/a | n/a | n/a |"),
          "times x1e-9: no such figure in the summary");

    CHECK(mutant(MUT_N_MAX, "n_max", 0, &t, &s) == 0, "mutant: one row with n = 2147483647");
    CHECK(!has(t, "e+07% of the") && !has(t, "the ceiling understates the level"),
          "n = 2147483647: no \"2.00e+07%% of the ceiling ... the ceiling understates the level\"");
    CHECK(has(t, "**Implausible row** `naive` at 1024x2147483647x1024: it achieves 1.3e+07 TFLOP/s, 1.94e+05x"),
          "n = 2147483647: the note names the row and its numbers");
    CHECK(has(t, "| `naive` | fp32 | **IMPLAUSIBLE** | excluded |"), "n = 2147483647: the shape table excludes it");

    CHECK(mutant(MUT_THEORY_101, "theory_101", 0, &t, &s) == 0, "mutant: a theoretical DRAM copy ceiling of 101");
    CHECK(!has(t, "of its theoretical value") && !has(t, "e+12%"),
          "theory 101: no \"3.90e+12%% of its theoretical value\"");
    CHECK(has(t, "**Implausible ceiling** DRAM copy (read+write): measured 3.94 TB/s is 3.9e+10x its theoretical "
                 "1.01e-10 TB/s") && has(t, "| DRAM copy (read+write) | n/a | n/a |"),
          "theory 101: the note names the ceiling and its numbers, the table shows neither value");
    CHECK(has(s, "0 implausible rows and 1 implausible ceiling") && !has(s, "DRAM copy 3.94"),
          "theory 101: the summary neither shows nor uses it");

    CHECK(mutant(MUT_FLOPS_TINY, "flops_tiny", 0, &t, &s) == 0, "mutant: tiled's FFMA count x1e-3");
    CHECK(has(t, "**Implausible row** `tiled` at 2048x2048x2048: its FLOP counters sum to 1.72e+07, 0.1% of the "
                 "2mnk = 1.72e+10 FLOPs it must do"), "FFMA x1e-3: the counters cover 0.1%% of the work");
    free(t);
    free(s);

    /* the recorded run itself: nothing implausible */
    struct gp_dataset ds;
    char err[512];
    CHECK(dataset_load("results/h200", &ds, err, sizeof err) == 0 && ds.n_implausible_rows == 0 &&
              ds.n_implausible_ceilings == 0, "results/h200: no row or ceiling is implausible");
    dataset_free(&ds);
    static const char *const fixtures[] = {"h200_crafted", "h200_da80385", "insight_crafted", "report_partial",
                                           "report_minimal"};
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char dir[128];
        snprintf(dir, sizeof dir, DATA "%s", fixtures[i]);
        int rc = dataset_load(dir, &ds, err, sizeof err);
        CHECK(rc == 0 && ds.n_implausible_rows == 0 && ds.n_implausible_ceilings == 0,
              "%s: nothing implausible (%d rows, %d ceilings)", fixtures[i], rc ? -1 : ds.n_implausible_rows,
              rc ? -1 : ds.n_implausible_ceilings);
        if (rc == 0)
            dataset_free(&ds);
    }
}


/* A ceilings.csv measured on another GPU than results.json names (issue 24, 6). */
static void test_foreign_ceilings(void)
{
    char *t = NULL, *s = NULL;
    CHECK(mutant(MUT_OTHER_GPU, "other_gpu", 0, &t, &s) == 0, "mutant: ceilings.csv of an A100");
    CHECK(has(t, "> **Ceilings from another GPU: ceilings.csv was measured on NVIDIA A100-SXM4-80GB, the results "
                 "on NVIDIA H200.** They are left out"), "another GPU's ceilings: the header says so, naming both");
    CHECK(!has(t, "**Binding level:") && has(t, "left out, so there are no roofline bounds"),
          "another GPU's ceilings: no bound or binding level rests on them");
    CHECK(has(s, "the results on NVIDIA H200: left out, no measured ceilings") && !has(s, "Measured ceilings"),
          "another GPU's ceilings: the summary neither shows nor uses them");
    CHECK(mutant(MUT_OTHER_GPU, "other_gpu_any", GP_LOAD_CEILINGS_ANY_GPU, &t, &s) == 0,
          "mutant: ceilings.csv of an A100, --ceilings-any-gpu");
    CHECK(has(t, "They are used anyway (--ceilings-any-gpu)") && has(t, "**Binding level:"),
          "--ceilings-any-gpu: the ceilings are used, and still warned about");
    CHECK(mutant(MUT_OTHER_UUID, "other_uuid", 0, &t, &s) == 0, "mutant: ceilings.csv of another H200 (UUID)");
    CHECK(has(t, "ceilings.csv was measured on NVIDIA H200 (GPU-00000000-1111-2222-3333-444444444444), the "
                 "results on NVIDIA H200 (GPU-797e0a32-de18-2a9c-a0a2-ec0e037bc30d)") &&
              !has(t, "**Binding level:"), "another board of the same model: told apart by the UUIDs");
    free(t);
    free(s);
    /* the UUID column round-trips; a file without it (tests/data/h200_recorded's) reads as unknown */
    struct gp_ceilings cs, back;
    char path[300], err[512];
    ceilings_init(&cs);
    strcpy(cs.gpu, "NVIDIA H200");
    strcpy(cs.gpu_uuid, "GPU-797e0a32-de18-2a9c-a0a2-ec0e037bc30d");
    cs.c[GP_CEIL_l2].measured = 1e13;
    snprintf(path, sizeof path, "%s/uuid_ceilings.csv", tmpdir);
    CHECK(ceilings_write_csv(path, &cs, err, sizeof err) == 0 && ceilings_read_csv(path, &back, err, sizeof err) == 0 &&
              strcmp(back.gpu_uuid, cs.gpu_uuid) == 0, "ceilings.csv keeps the GPU's UUID");
    CHECK(ceilings_read_csv("tests/data/h200_recorded/ceilings.csv", &back, err, sizeof err) == 0 && !back.gpu_uuid[0],
          "an older ceilings.csv without the column still reads (UUID unknown)");
}

/* ---- hostile values: escaping, impossible numbers, big tables, --out targets ---- */

/* The line of `text` that contains `needle`, as a copy ("" when none). */
static char *line_with(const char *text, const char *needle)
{
    const char *p = text ? strstr(text, needle) : NULL;
    if (!p)
        return strdup("");
    const char *a = p, *e = strchr(p, '\n');
    while (a > text && a[-1] != '\n')
        a--;
    return strndup(a, e ? (size_t)(e - a) : strlen(a));
}

/* Table cells of a Markdown row: bars not escaped by a backslash, minus one. */
static int cells(const char *row)
{
    int n = 0;
    for (const char *p = row; *p; p++)
        n += *p == '|' && (p == row || p[-1] != '\\');
    return n - 1;
}

static void test_markdown_escaping(void)
{
    struct gp_dataset ds;
    h200_ladder(&ds);
    strcpy(ds.rows[1].variant, "ti|led`x\nrow\x1b[31m");     /* tiled at 1024 */
    strcpy(ds.rows[6].precision, "f|p");                      /* cublas at 2048 */
    ds.rows[5].status = GP_STATUS_CUDA_ERROR;                 /* tiled at 2048 */
    strcpy(ds.rows[5].error, "launch\nfailed | `rm -rf` \x1b[2J <b>*x*</b>");
    strcpy(ds.meta.command, "gemmprof ```\nsh -c 'echo`id`'");
    strcpy(ds.meta.gpu_name, "GPU|`name`\x07");
    char *t = render(&ds, 1, "escaping");
    CHECK(t && !strchr(t, '\x1b') && !strchr(t, '\x07'), "no ESC or BEL byte reaches report.md");
    CHECK(has(t, "\\x1B[31m") && has(t, "\\x0A"), "control bytes are shown as \\xNN");
    char *row = line_with(t, "| ``ti\\|led`x\\x0Arow\\x1B[31m`` | fp32 | ok |");
    CHECK(cells(row) == 9, "a variant with | ` newline ESC stays one cell of a 9-column row (%d): %s",
          cells(row), row);
    free(row);
    row = line_with(t, "did not run (cuda_error)");
    CHECK(has(row, "launch\\x0Afailed \\| \\`rm -rf\\` \\x1B\\[2J \\<b\\>\\*x\\*\\</b\\>"),
          "an error message is escaped as text: %s", row);
    free(row);
    CHECK(has(t, "Command: ````gemmprof ```\\x0Ash -c 'echo`id`'````") && !has(t, "\n```\n"),
          "the command is one inline code span, fenced longer than its backticks");
    CHECK(has(t, "measured on GPU\\|\\`name\\`\\x07 on"), "the GPU name is escaped in the note");
    row = line_with(t, "| `cublas` | f\\|p | ok |");
    CHECK(cells(row) == 9, "a precision with | is escaped, the row keeps 9 cells: %s", row);
    free(row);
    free(t);
}

/* No sentence may print "n/ax", a negative time, nan or inf; the claim is left out. */
static void check_no_nonsense(const char *t, const char *what)
{
    static const char *const bad[] = {"n/ax", "n/a x", "nan", "inf", "-0.", "-1", "-2", "-3", "-4",
                                      "-5", "-6", "-7", "-8", "-9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = t ? strstr(t, bad[i]) : NULL;
        /* "-bound", "x-y" ranges and table rules are words, not numbers */
        while (p && i >= 4 && i < 14 && p > t && (p[-1] == '-' || p[-1] == '|' || isalnum((unsigned char)p[-1])))
            p = strstr(p + 1, bad[i]);
        char ctx[80] = "";
        if (p)
            snprintf(ctx, sizeof ctx, "%.70s", p > t + 30 ? p - 30 : t);
        CHECK(!p, "%s: the report never prints '%s'%s%s", what, bad[i], p ? ": " : "", ctx);
    }
}

static void test_impossible_values(void)
{
    struct gp_dataset ds;
    h200_ladder(&ds);
    ds.rows[4].time_median_s = -0.5;          /* naive at 2048 */
    ds.rows[5].time_median_s = NAN;           /* tiled at 2048 */
    ds.rows[0].time_median_s = INFINITY;      /* naive at 1024 */
    ds.rows[2].metric[GP_M_dram_read] = -5;   /* cublas at 1024 */
    ds.rows[3].metric[GP_M_l2_bytes] = INFINITY;
    ds.rows[6].time_spread = -1;
    ds.rows[6].rel_err = -1;
    ds.ceilings.c[GP_CEIL_l1].measured = -1.9e13;
    ds.ceilings.c[GP_CEIL_tf32].measured = INFINITY;
    ds.meta.sm_clock_max_hz = -1;
    ds.meta.sm_clock_measured_hz = HUGE_VAL;   /* what a JSON 1e999 reads as */
    char *t = render(&ds, 1, "impossible");
    CHECK(t != NULL, "a report is written from impossible values");
    check_no_nonsense(t, "impossible values");
    CHECK(has(t, "2048^3: not checked: naive has no valid median time"),
          "the speedup claim is not made from a negative time");
    CHECK(has(t, "1024^3: not checked: naive has no valid median time"),
          "nor from an infinite one");
    CHECK(has(t, "`naive` at 2048x2048x2048: its median time or its shape is missing, not finite or not "
                 "positive"), "the data notes name the row left out");
    CHECK(has(t, "| `naive` | fp32 | **INVALID TIME** | excluded |"), "the shape table excludes it");
    CHECK(has(t, "other values (counters, ceilings or clocks) were negative or not finite"),
          "the dropped values are counted in the data notes");
    CHECK(has(t, "| L1 | n/a |"), "a negative ceiling shows as n/a");
    free(t);

    /* the extremes of double: num() must neither overflow nor convert them to int */
    h200_ladder(&ds);
    ds.rows[4].time_median_s = 4.9e-324;
    ds.rows[5].time_median_s = 1.7e308;
    ds.rows[4].time_spread = 1e-320;
    t = render(&ds, 1, "extremes");
    CHECK(t != NULL, "a report is written for times of 4.9e-324 s and 1.7e308 s");
    CHECK(!has(t, "nan") && !has(t, "inf"), "no nan or inf printed for extreme times");
    free(t);
}

/* 20,000 rows, 2,500 shapes: every shape's table, the right row compared with the right
 * cuBLAS, lists capped. (No timing here: speed is recorded in tests/host/SCALE.md.) */
static void test_many_rows(void)
{
    enum { NSHAPES = 2500, NV = 8 };
    static const char *const names[NV] = {"naive", "tiled", "cublas", "cublas_tf32", "v4", "v5", "v6", "v7"};
    struct gp_dataset ds;
    new_dataset(&ds);
    ds.rows = calloc(NSHAPES * NV, sizeof *ds.rows);
    if (!ds.rows) {
        CHECK(0, "calloc 20000 rows");
        return;
    }
    for (int sidx = 0; sidx < NSHAPES; sidx++)
        for (int v = 0; v < NV; v++) {
            long n = 64 + 16L * sidx;
            /* cublas 4x faster than every other fp32 variant at every shape */
            double t = 2.0 * n * n * n / (v == 2 ? 40e12 : v == 3 ? 200e12 : 10e12);
            add_row(&ds, names[v], v == 3 ? "tf32" : "fp32", n, t,
                    (struct counters){1e6, 1e5, 1e7, 1e8, 1e6, 1e5, n * n * (double)n, 0, 0});
        }
    char *t = render(&ds, 1, "many");
    int nshape_heads = 0;
    for (const char *p = t; p && (p = strstr(p, "\n### ")); p++)
        nshape_heads += p[5] >= '0' && p[5] <= '9';
    CHECK(nshape_heads == NSHAPES, "20,000 rows: one table per shape (%d of %d)", nshape_heads, NSHAPES);
    int tiled_rows = 0, tiled_right = 0;
    for (const char *p = t; p && (p = strstr(p, "\n| `tiled` | fp32 | ok |")); p++) {
        const char *e = strchr(p + 1, '\n');
        char *row = strndup(p + 1, e ? (size_t)(e - p - 1) : strlen(p + 1));
        tiled_rows++;
        tiled_right += has(row, "| 25.0% |  | 16.6% |");
        free(row);
    }
    CHECK(tiled_rows == NSHAPES && tiled_right == NSHAPES,
          "every tiled row is 25%% of cuBLAS at its own shape (%d of %d rows)", tiled_right, tiled_rows);
    char *tiled = section(t, "### `tiled`");
    CHECK(has(tiled, "| ... 2480 more (see the results by shape) |"), "a variant's other shapes are capped at 20");
    CHECK(has(tiled, "Why, at 40048x40048x40048:"), "the focus is the largest shape");
    free(tiled);
    free(t);
    free(ds.rows);
}

/* BF16 and FP16 rows: a share of cuBLAS in their own precision (cublas_bf16, cublas_fp16),
 * beside the share of cuBLAS SGEMM, and their own tensor ceiling as the roof. */
static void test_16bit_rows(void)
{
    struct gp_dataset ds;
    new_dataset(&ds);
    set_ceil(&ds.ceilings, GP_CEIL_bf16, 640e12, 1070e12);
    set_ceil(&ds.ceilings, GP_CEIL_bf16_wgmma, 900e12, 1070e12);
    set_ceil(&ds.ceilings, GP_CEIL_fp16, 650e12, 1070e12);
    set_ceil(&ds.ceilings, GP_CEIL_fp16_wgmma, 910e12, 1070e12);
    const long n = 4096;
    const double w = 2.0 * n * n * n;
    const struct counters c = {1.0e8, 3.4e7, 1.0e9, 1.0e9, 1e7, 1e6, 1e6, 0, 0};   /* TF32 ops 0 */
    add_row(&ds, "cublas", "fp32", n, w / 50e12, c);
    add_row(&ds, "cublas_bf16", "bf16", n, w / 700e12, c);
    add_row(&ds, "cublas_fp16", "fp16", n, w / 720e12, c);
    add_row(&ds, "mine_bf16", "bf16", n, w / 350e12, c);
    add_row(&ds, "mine_fp16", "fp16", n, w / 540e12, c);
    char *t = render(&ds, 1, "bf16");
    CHECK(has(t, "| `mine_bf16` | bf16 | ok |") && has(t, "| 350 | 700% | 50.0% |") &&
              has(t, "| `mine_fp16` | fp16 | ok |") && has(t, "| 540 | 1080% | 75.0% |"),
          "per shape: a bf16 row is 50%% of cublas_bf16, an fp16 row 75%% of cublas_fp16 (and 700%%, 1080%% of "
          "cuBLAS SGEMM)");
    CHECK(has(t, "| `mine_bf16` | bf16 | 350 | 50.0% |") && has(t, "| `mine_fp16` | fp16 | 540 | 75.0% |"),
          "the ladder: each 16-bit row's %% of cuBLAS is of cuBLAS in its precision");
    CHECK(!has(t, "IMPLAUSIBLE") && has(t, "BF16 tensor") && has(t, "FP16 tensor"),
          "16-bit rows are plausible (2-byte inputs) and held to their own tensor ceilings");
    free(t);
}

static void test_out_targets(void)
{
    struct gp_dataset ds;
    char dir[128], fifo[256], link[256], target[256], dev[256];
    h200_ladder(&ds);
    CHECK(write_results_dir(&ds, "targets", dir, sizeof dir) == 0, "results.csv for the --out targets written");
    FILE *f;

    struct stat st;
    snprintf(fifo, sizeof fifo, "%s/fifo.md", tmpdir);
    CHECK(mkfifo(fifo, 0644) == 0, "mkfifo %s", fifo);
    char *a1[] = {"report", dir, "--no-plots", "--out", fifo, NULL};
    CHECK(report_main(5, a1) == 1 && lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode),
          "--out onto a FIFO: refused with exit 1, the FIFO left as it was");

    snprintf(target, sizeof target, "%s/linked.md", tmpdir);
    f = fopen(target, "w");
    if (f) {
        fputs("keep me\n", f);
        fclose(f);
    }
    snprintf(link, sizeof link, "%s/link.md", tmpdir);
    CHECK(symlink(target, link) == 0, "symlink %s", link);
    char *a2[] = {"report", dir, "--no-plots", "--out", link, NULL};
    char *kept = (report_main(5, a2) == 1 && lstat(link, &st) == 0 && S_ISLNK(st.st_mode)) ? read_text(target)
                                                                                        : NULL;
    CHECK(kept && strcmp(kept, "keep me\n") == 0,
          "--out onto a symlink: refused, the link and the file it names unchanged");
    free(kept);

    /* report.md inside a directory, when that name is a symlink */
    char sub[256], subreport[300];
    snprintf(sub, sizeof sub, "%s/subdir", tmpdir);
    mkdir(sub, 0755);
    snprintf(subreport, sizeof subreport, "%s/report.md", sub);
    CHECK(symlink(target, subreport) == 0, "symlink %s", subreport);
    char *a3[] = {"report", dir, "--no-plots", "--out", sub, NULL};
    CHECK(report_main(5, a3) == 1 && lstat(subreport, &st) == 0 && S_ISLNK(st.st_mode),
          "--out DIR whose report.md is a symlink: refused");

    if (geteuid() == 0) {
        snprintf(dev, sizeof dev, "%s/null", tmpdir);
        int made = mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0;
        char *a4[] = {"report", dir, "--no-plots", "--out", dev, NULL};
        CHECK(made && report_main(5, a4) == 1 && lstat(dev, &st) == 0 && S_ISCHR(st.st_mode),
              "--out onto a character device: refused, still a device");
    } else {
        SKIP("needs root to mknod a character device", "--out onto a character device");
    }
    char err[512];
    CHECK(atomic_target_ok(fifo, err, sizeof err) == -1 && has(err, fifo) && has(err, "a FIFO") &&
              !strchr(err, '\n'),
          "the refusal is one line naming the path and what it is: %s", err);

    /* a name longer than the limit is refused, not cut and written elsewhere */
    char *longp = malloc(3100);
    snprintf(longp, 3100, "%s/", tmpdir);
    while (strlen(longp) < 3000)
        strcat(longp, "x");
    char *a5[] = {"report", dir, "--no-plots", "--out", longp, NULL};
    CHECK(report_main(5, a5) == 1 && count_files_named(tmpdir, "xxxxxxxx") == 0,
          "--out longer than the path limit: exit 1, nothing written under a cut name");
    free(longp);
}

/* Wrong claim 4 of issue 25, on the recorded run (its ceilings.csv has the mma.sync loop):
 * the mma.sync kernels are held to that path's own ceiling, the wgmma ones to wgmma's. */
static void test_mma_sync_roof(void)
{
    struct gp_dataset ds;
    char err[512];
    if (dataset_load("results/h200", &ds, err, sizeof err) != 0) {
        CHECK(0, "results/h200 loads: %s", err);
        return;
    }
    int measured = ds.ceilings.c[GP_CEIL_tf32_mma].measured > 0;
    char *t = render(&ds, 1, "mma_sync_roof");
    char *mma = section(t, "### `tf32_mma`"), *x3 = section(t, "### `tf32x3_mma`"), *rs = section(t, "### `wgmma_rs`");
    CHECK(measured && has(mma, "TF32 tensor (mma.sync) ceiling") && has(x3, "TF32 tensor (mma.sync) / 3") &&
              rs && !has(rs, "mma.sync"),
          "tf32_mma and tf32x3_mma are held to the mma.sync ceiling, wgmma_rs to the wgmma one");
    free(mma);
    free(x3);
    free(rs);
    free(t);
    dataset_free(&ds);
}

/* no_instruction among a shown row's main stall reasons: one sentence says why it reads high
 * (cold instruction caches at each counter pass); none once the reason is gone */
static void test_cold_fetch_note(void)
{
    struct gp_dataset ds;
    char err[512];
    if (dataset_load("results/h200", &ds, err, sizeof err) != 0) {
        CHECK(0, "results/h200 loads: %s", err);
        return;
    }
    char *t = render(&ds, 1, "cold_fetch");
    char *v = section(t, "## What limits each variant");
    CHECK(has(v, "below `no_instruction` is among the main stall reasons: it reads high on short calls"),
          "the recorded run's rows with no_instruction among their main stalls get the cold-cache note");
    free(v);
    free(t);
    for (int i = 0; i < ds.nrows; i++)
        ds.rows[i].metric[GP_M_stall_no_instruction] = 0;
    t = render(&ds, 1, "cold_fetch_none");
    CHECK(t && !has(t, "among the main stall reasons: it reads high"), "no row with no_instruction among them: no note");
    free(t);
    dataset_free(&ds);
}

int main(void)
{
    strcpy(tmpdir, "/tmp/gp_report_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp");
        TEST_EXIT();
    }
    test_ladder();
    test_mma_sync_roof();
    test_cold_fetch_note();
    test_fast_tiled();
    test_dram_bound();
    test_issue_mix();
    test_peak_claim_holds();
    test_compute_only();
    test_no_counters();
    test_failed_verification();
    test_no_ceilings();
    test_loader();
    test_several_kernels();
    test_report_main();
    test_markdown_escaping();
    test_impossible_values();
    test_implausible();
    test_foreign_ceilings();
    test_many_rows();
    test_16bit_rows();
    test_out_targets();

    /* GP_KEEP_REPORTS=1 keeps the rendered reports for reading */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (getenv("GP_KEEP_REPORTS"))
        printf("reports kept in %s\n", tmpdir);
    else if (system(cmd) != 0)
        printf("note: could not remove %s\n", tmpdir);
    TEST_EXIT();
}

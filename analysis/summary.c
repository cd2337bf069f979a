/* The README's generated summary of a results directory (see analysis/summary.h). */
#include "analysis/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/claims.h"
#include "analysis/diagnose.h"
#include "analysis/findings.h"
#include "analysis/markdown.h"
#include "analysis/roofline.h"
#include "analysis/row_index.h"
#include "analysis/story.h"

#define WRAP_COLS 95       /* README prose width */
#define MAX_SIZES 8        /* square sizes tabled */
#define PCT_AT 4096        /* "% of cuBLAS" at the largest square size up to this */
#define LIMIT_AT 2048      /* the limiter (and the naive/tiled figures) at the largest up to this */

static const char *const lim_words[GP_LIM_COUNT] = {
    "DRAM", "L2", "L1", "shared memory", "compute", "instruction issue", "parallelism", "latency"};
static const char *const level_adj[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "shared-memory",
                                                          "compute"};

/* ---- formatting: 3 significant digits, in a ring of buffers ---- */

static char ring[32][48];
static int ring_at;

static char *slot(void) { return ring[ring_at++ % 32]; }

static const char *sig3(double v)
{
    char *b = slot();
    if (!isfinite(v))
        return "n/a";
    if (v == 0)
        return "0";
    /* beyond 1e+-300 the scaling below overflows to inf (a denormal gives NaN digits):
     * such a value is printed as it is */
    if (!(fabs(v) >= 1e-300 && fabs(v) <= 1e300)) {
        snprintf(b, 48, "%.2e", v);
        return b;
    }
    int d = 2 - (int)floor(log10(fabs(v)));
    double r = round(v * pow(10, d)) / pow(10, d);   /* 9.996 -> 10.0: recount the digits */
    d = r != 0 ? 2 - (int)floor(log10(fabs(r))) : d;
    if (d > 9 || d < -12)
        snprintf(b, 48, "%.2e", v);
    else
        snprintf(b, 48, "%.*f", d > 0 ? d : 0, r);
    return b;
}

static const char *pct3(double f)
{
    if (!isfinite(f) || f < 0)
        return "n/a";
    const char *v = sig3(100 * f);
    char *b = slot();
    snprintf(b, 48, "%s%%", v);
    return b;
}
static const char *tera(double v) { return sig3(v / 1e12); }

/* A whole number with thousands separators: 62,914,560. */
static const char *grouped(double v)
{
    char digits[40], *b = slot();
    if (!isfinite(v) || v < 0 || v >= 1e30)
        return "n/a";
    int n = snprintf(digits, sizeof digits, "%.0f", v), o = 0;
    for (int i = 0; i < n && o < 46; i++) {
        if (i && (n - i) % 3 == 0)
            b[o++] = ',';
        b[o++] = digits[i];
    }
    b[o] = '\0';
    return b;
}

/* ---- a paragraph, written whole and then wrapped at WRAP_COLS ---- */

struct para { char s[8192]; size_t n; };

static void add(struct para *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(p->s + p->n, sizeof p->s - p->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        p->n += (size_t)k < sizeof p->s - p->n ? (size_t)k : sizeof p->s - 1 - p->n;
}

/* A word that, first on a line, would start a Markdown list, heading, quote or table. */
static int starts_block(const char *w)
{
    size_t d = strspn(w, "0123456789");
    return strchr("-*+#>|", w[0]) || (d && (w[d] == '.' || w[d] == ')') && !w[d + 1]);
}

static void flush_para(struct para *p, FILE *f)
{
    size_t col = 0;
    for (char *w = strtok(p->s, " "); w; w = strtok(NULL, " ")) {
        size_t len = strlen(w);
        if (col && col + 1 + len > WRAP_COLS && !starts_block(w)) {
            fputc('\n', f);
            col = 0;
        }
        col += (size_t)fprintf(f, "%s%s", col ? " " : "", w);
    }
    fputs("\n\n", f);
    p->n = 0;
    p->s[0] = '\0';
}

/* ---- the data ---- */

struct sum {
    const struct gp_dataset *ds;
    struct gp_roof *roof;
    unsigned char *usable;
    struct gp_ceilings cs;        /* the ceilings as the roofs used them */
    struct gp_findings F;
    struct gp_claims claims;
    long size[MAX_SIZES];
    int nsizes;
};

/* A size, clock or ceiling: the value when finite and > 0, else NaN (shown as unknown). */
static double positive(double v) { return isfinite(v) && v > 0 ? v : NAN; }

static int sum_build(struct sum *S, const struct gp_dataset *ds)
{
    memset(S, 0, sizeof *S);
    S->ds = ds;
    size_t n = (size_t)(ds->nrows > 0 ? ds->nrows : 0) + 1;
    S->roof = calloc(n, sizeof *S->roof);
    S->usable = calloc(n, 1);
    if (!S->roof || !S->usable)
        return -1;
    /* the same reading of the data as report.md's */
    roof_derive_rows(ds, S->roof, S->usable, NULL, &S->cs);
    if (findings_build(ds, S->roof, S->usable, &S->F))
        return -1;
    claims_check(ds, S->roof, S->usable, &gp_seed_claims, &S->claims);
    /* the square sizes, ascending */
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (!(r->m > 0 && r->m == r->n && r->n == r->k))
            continue;
        int j = 0;
        while (j < S->nsizes && S->size[j] < r->m)
            j++;
        if ((j < S->nsizes && S->size[j] == r->m) || (j == MAX_SIZES))
            continue;
        if (S->nsizes == MAX_SIZES)
            S->nsizes--;   /* the largest drops out */
        memmove(&S->size[j + 1], &S->size[j], (size_t)(S->nsizes - j) * sizeof S->size[0]);
        S->size[j] = r->m;
        S->nsizes++;
    }
    return 0;
}

static void sum_free(struct sum *S)
{
    findings_free(&S->F);
    free(S->roof);
    free(S->usable);
}

/* The largest tabled size up to `at`, else the smallest; 0 with none. */
static long size_near(const struct sum *S, long at)
{
    long best = S->nsizes ? S->size[0] : 0;
    for (int j = 0; j < S->nsizes; j++)
        if (S->size[j] <= at)
            best = S->size[j];
    return best;
}

/* The first usable row of `variant` at n^3, else -1. */
static int row_at(const struct sum *S, const char *variant, long n)
{
    for (int i = 0; i < S->ds->nrows; i++) {
        const struct gp_result *r = &S->ds->rows[i];
        if (S->usable[i] && r->m == n && r->n == n && r->k == n && strcmp(r->variant, variant) == 0)
            return i;
    }
    return -1;
}

static double bytes_per_fma(const struct gp_roof *ro, int level) { return ro->bytes[level] / (ro->flops_analytic / 2); }

/* ---- the block ---- */

static const char *or_q(const char *s) { return *s ? s : "?"; }

static void machine_line(const struct sum *S, const char *dir, struct para *p)
{
    const struct gp_meta *m = &S->ds->meta;
    add(p, "%s: ", mdc(dir));
    if (!S->ds->have_meta) {
        add(p, "no results.json, so the GPU, software and date of this run are unknown.");
        return;
    }
    add(p, "%s (%d SMs, ", mdt(or_q(m->gpu_name)), m->sm_count);
    if (isnan(positive(m->l2_bytes)))
        add(p, "L2 size unknown), ");
    else
        add(p, "L2 %s MB: %s bytes), ", sig3(m->l2_bytes / 1e6), grouped(m->l2_bytes));
    /* no revision here: the block is pasted into README.md, which names no commit (the
     * revision is in DIR's results.json and in report.md) */
    add(p, "driver %s, CUDA runtime %s, cuBLAS %s; recorded %s by %s.", mdt(or_q(m->driver_version)),
        mdt(or_q(m->runtime_version)), mdt(or_q(m->cublas_version)), mdt(or_q(m->date)),
        *m->command ? mdc(m->command) : "an unrecorded command");
}

/* "L1 x 97.0% busy (86.0%)": the limiter the report names for row i, with its share. */
static const char *limiter_cell(const struct sum *S, int i)
{
    static char b[160];
    const struct gp_limits *li = &S->F.row[i].lim;
    const char *name = li->limiter >= 0 && li->limiter < GP_LIM_COUNT ? lim_words[li->limiter] : "n/a";
    const char *roof = li->roof >= 0 && li->roof < GP_LIM_COUNT ? lim_words[li->roof] : "n/a";
    char busy[48] = "";
    if (li->roof >= 0 && li->roof_scale < 1)
        snprintf(busy, sizeof busy, " x %s busy", pct3(li->roof_scale));
    if (li->limiter == GP_LIM_PARALLELISM || li->limiter == GP_LIM_LATENCY)
        snprintf(b, sizeof b, "%s (%s%s roof%s) (%s)", name, li->limiter == GP_LIM_LATENCY ? "under the " : "",
                 roof, busy, pct3(li->share));
    else
        snprintf(b, sizeof b, "%s%s (%s)", name, busy, pct3(li->share));
    return b;
}

/* "bank_conflicts 1.15x, few_blocks 2.06x": row i's causes (analysis/diagnose.h), heaviest
 * first, with the speedup the model gives removing each; "-" for none. */
static const char *causes_cell(const struct sum *S, int i)
{
    static char b[256];
    struct gp_diagnosis d;
    diagnose_dataset_row(S->ds, i, &S->roof[i], &S->F.row[i].lim, &d);
    size_t n = 0;
    b[0] = '\0';
    for (int c = 0; c < d.ncauses && n < sizeof b - 48; c++)
        n += (size_t)snprintf(b + n, sizeof b - n, "%s%s %sx", c ? ", " : "", gp_rules[d.cause[c].rule].id,
                              sig3(d.cause[c].speedup));
    return d.ncauses ? b : "-";
}

static void table(const struct sum *S, long pct_n, long lim_n, FILE *f)
{
    const struct gp_dataset *ds = S->ds;
    struct row_groups vars;
    if (row_groups_build(ds->rows, ds->nrows, ROW_KEY_VARIANT, &vars))
        return;
    fprintf(f, "| variant |");
    for (int j = 0; j < S->nsizes; j++)
        fprintf(f, " N=%ld |", S->size[j]);
    fprintf(f, " %% of cuBLAS at %ld | limiter at %ld (share) | causes at %ld |\n|---|", pct_n, lim_n, lim_n);
    for (int j = 0; j < S->nsizes; j++)
        fprintf(f, "---:|");
    fprintf(f, "---:|---|---|\n");
    /* each row against the cuBLAS of its own precision, where the run has it */
    int cb = row_at(S, "cublas", pct_n);
    for (int v = 0; v < vars.ngroups; v++) {
        int cnt;
        const char *name = ds->rows[row_group(&vars, v, &cnt)[0]].variant;
        fprintf(f, "| %s |", mdc(name));
        for (int j = 0; j < S->nsizes; j++) {
            int i = row_at(S, name, S->size[j]);
            if (i < 0)
                fprintf(f, " n/a |");
            else
                fprintf(f, " %.2f |", S->roof[i].achieved / 1e12);
        }
        int i = row_at(S, name, pct_n), k = row_at(S, name, lim_n);
        char own[40];   /* cublas_tf32, cublas_bf16, ...: the baseline of a tensor precision */
        snprintf(own, sizeof own, "cublas_%s", i >= 0 ? ds->rows[i].precision : "");
        const int own_ref = i >= 0 && strcmp(ds->rows[i].precision, "fp32") != 0 ? row_at(S, own, pct_n) : -1;
        const int ref = own_ref >= 0 ? own_ref : cb;
        if (i >= 0 && ref >= 0)
            fprintf(f, " %.1f%% |", 100 * S->roof[i].achieved / S->roof[ref].achieved); /* 94.7, not 95 */
        else
            fprintf(f, " n/a |");
        fprintf(f, " %s | %s |\n", k >= 0 ? limiter_cell(S, k) : "n/a", k >= 0 ? causes_cell(S, k) : "n/a");
    }
    fputc('\n', f);
    row_groups_free(&vars);
}

/* How a row's launch keeps the GPU less than fully busy. */
static void launch_words(const struct sum *S, int i, struct para *p)
{
    const struct gp_limits *li = &S->F.row[i].lim;
    const char *name = mdc(S->ds->rows[i].variant);
    if (li->sm_busy < 1)
        add(p, "%s launches %.0f blocks on %.0f SMs (%.0f idle)", name, li->blocks, li->sms, li->sms - li->blocks);
    else   /* every SM busy: how evenly the blocks fall on them */
        add(p, "%s launches %.0f blocks, %s per SM: the busiest SMs run %.0f, and the SMs' mean work is %s of "
               "theirs", name, li->blocks, sig3(li->blocks / li->sms), ceil(li->blocks / li->sms), pct3(li->tail));
}

static void busy_sentence(const struct sum *S, long lim_n, struct para *p)
{
    const char *who[] = {S->claims.spec->improved, "cublas"};
    int any = 0;
    for (int w = 0; w < 2; w++) {
        int i = row_at(S, who[w], lim_n);
        if (i < 0 || !S->F.row[i].lim.have_launch || !(S->F.row[i].lim.roof_scale < 1))
            continue;
        add(p, any ? "; " : "\"x P busy\" is the parallelism factor P (\"The report's model\"): at %ld^3, ", lim_n);
        launch_words(S, i, p);
        any = 1;
    }
    if (any)
        add(p, ". ");
}

static void ceilings_sentence(const struct sum *S, struct para *p)
{
    /* optional: left out where a ceilings.csv from before that loop lacks it */
    static const struct { int id; const char *name, *unit; int optional; } show[] = {
        {GP_CEIL_dram_copy, "DRAM copy", "TB/s", 0}, {GP_CEIL_dram_read, "DRAM read", "TB/s", 0},
        {GP_CEIL_l2, "L2", "TB/s", 0}, {GP_CEIL_l1, "L1", "TB/s", 0}, {GP_CEIL_shared, "shared memory", "TB/s", 0},
        {GP_CEIL_fp32_fma, "FP32 FMA", "TFLOP/s", 0}, {GP_CEIL_tf32_wgmma, "TF32 (wgmma loop)", "TFLOP/s", 1},
        {GP_CEIL_tf32_mma, "TF32 (mma.sync loop)", "TFLOP/s", 1},
        {GP_CEIL_tf32, "TF32 (cuBLAS at 8192^3)", "TFLOP/s", 0}};
    if (!S->ds->have_ceilings) {
        add(p, *S->ds->ceilings_foreign ? "%s: left out, no measured ceilings. " : "No ceilings.csv: no measured "
            "ceilings. ", S->ds->ceilings_foreign);
        return;
    }
    add(p, "Measured ceilings (theoretical in parentheses):");
    for (size_t c = 0; c < sizeof show / sizeof show[0]; c++) {
        const struct gp_ceiling *g = &S->cs.c[show[c].id];
        if (show[c].optional && isnan(positive(g->measured)))
            continue;
        add(p, "%s %s %s %s", c ? "," : "", show[c].name, tera(positive(g->measured)), show[c].unit);
        if (!isnan(positive(g->theoretical)))
            add(p, " (%s)", tera(g->theoretical));
    }
    add(p, ". ");
}

/* "naive is L1-bound: 8.00 B of L1 traffic per FMA (...), which caps it at 7.83 TFLOP/s,
 * and it reaches 83.4% of that" */
static void cap_words(const struct sum *S, int i, struct para *p)
{
    const struct gp_roof *ro = &S->roof[i];
    const struct gp_result *r = &S->ds->rows[i];
    int L = ro->bound_level;
    add(p, "%s is %s-bound", mdc(r->variant), L >= 0 ? level_adj[L] : "not known to be");
    if (L < 0)
        return;
    if (L < GP_LEVEL_COUNT) {
        add(p, ": %s B of %s traffic per FMA", sig3(bytes_per_fma(ro, L)), L == GP_LEVEL_SHARED ? "shared-memory" : level_adj[L]);
        double wf = r->metric[GP_M_smem_ld_wf] >= 0 && isfinite(r->metric[GP_M_smem_ld_wf]) ? r->metric[GP_M_smem_ld_wf] : NAN, ffma = positive(r->metric[GP_M_ffma]);
        if (L == GP_LEVEL_SHARED && !isnan(wf) && !isnan(ffma))
            add(p, " (%s load wavefronts per warp-level FMA)", sig3(wf / (ffma / 32)));
        else
            add(p, " (%s B per warp-level FMA)", sig3(32 * bytes_per_fma(ro, L)));
    }
    add(p, ", which caps it at %s TFLOP/s, and it reaches %s of that", tera(ro->bound_attainable),
        pct3(ro->bound_share));
}

static void claims_sentence(const struct sum *S, long lim_n, const char *dir, struct para *p)
{
    const struct gp_claims *c = &S->claims;
    const struct gp_claim_spec *sp = c->spec;
    const struct gp_speedup_check *k = NULL;
    for (int s = 0; s < sp->nsizes; s++)
        if (c->speedup[s].outcome >= GP_CLAIM_FAILS && (!k || c->speedup[s].n == lim_n))
            k = &c->speedup[s];
    if (k) {
        int a = k->base_row, b = k->improved_row;
        add(p, "At %ld^3 %s is %sx faster than %s, where the seed tutorial (RTX 4090) claims %g-%gx. The "
               "counters say why: ", k->n, mdc(sp->improved), sig3(k->ratio), mdc(sp->base), sp->speedup_lo,
            sp->speedup_hi);
        cap_words(S, a, p);
        add(p, "; ");
        cap_words(S, b, p);
        add(p, ". The two caps differ by %sx. ", sig3(k->predicted));
        const struct gp_roof *ra = &S->roof[a], *rb = &S->roof[b];
        double ta = S->ds->rows[a].time_median_s, tb = S->ds->rows[b].time_median_s;
        if (!isnan(ra->bytes[GP_LEVEL_DRAM] / ra->roof_bw[GP_LEVEL_DRAM]) &&
            !isnan(rb->bytes[GP_LEVEL_DRAM] / rb->roof_bw[GP_LEVEL_DRAM]))
            add(p, "Their DRAM traffic at %ld^3 runs at %s (%s) and %s (%s) of the measured DRAM "
                   "bandwidth. ", k->n, pct3(ra->bytes[GP_LEVEL_DRAM] / ta / ra->roof_bw[GP_LEVEL_DRAM]),
                mdc(sp->base), pct3(rb->bytes[GP_LEVEL_DRAM] / tb / rb->roof_bw[GP_LEVEL_DRAM]), mdc(sp->improved));
    }
    char path[600];
    snprintf(path, sizeof path, "%s/report.md", dir);
    add(p, "%s has the full argument with every number.", mdc(path));
}

/* The physical story (analysis/story.h) in report.md's words, at report.md's ladder shape:
 * the largest square size with a cuBLAS SGEMM row, else the largest. */
static void story(const struct sum *S, struct para *p, FILE *f)
{
    long n = S->nsizes ? S->size[S->nsizes - 1] : 0;
    for (int j = S->nsizes - 1; j >= 0; j--)
        if (row_at(S, "cublas", S->size[j]) >= 0) {
            n = S->size[j];
            break;
        }
    int *idx = malloc(((size_t)S->ds->nrows + 1) * sizeof *idx), cnt = 0;
    if (!idx)
        return;
    for (int i = 0; i < S->ds->nrows; i++) {
        const struct gp_result *r = &S->ds->rows[i];
        if (S->usable[i] && r->m == n && r->n == n && r->k == n)
            idx[cnt++] = i;
    }
    const struct story_input in = {S->ds, S->roof, S->usable, S->ds->have_ceilings ? &S->cs : NULL, idx, cnt};
    char text[4096];
    if (story_register_tiling(&in, text, sizeof text) == 0) {
        add(p, "%s", text);
        flush_para(p, f);
    }
    if (story_tensor(&in, text, sizeof text) == 0) {
        add(p, "%s", text);
        flush_para(p, f);
    }
    free(idx);
}

int summary_write(const struct gp_dataset *ds, const char *dir, FILE *f, char *err, size_t errlen)
{
    struct sum S;
    static struct para p;
    if (sum_build(&S, ds)) {
        sum_free(&S);
        snprintf(err, errlen, "%s: out of memory for %d rows", dir, ds->nrows);
        return -1;
    }
    long pct_n = size_near(&S, PCT_AT), lim_n = size_near(&S, LIMIT_AT);
    fprintf(f, "<!-- summary:begin %s -->\n", dir);
    machine_line(&S, dir, &p);
    flush_para(&p, f);
    add(&p, "TFLOP/s (2·M·N·K / median time, L2 %s between repetitions; %d of %d rows verified, with a "
            "valid time; %% of cuBLAS: of cuBLAS SGEMM for FP32 rows, of cuBLAS TF32 for TF32 ones, as in the "
            "report), the limiter the report names at %ld^3 (share = measured / what it allows) and the "
            "causes the diagnosis finds there, each with the speedup removing it would buy:",
        !ds->have_meta ? "flush unknown" : ds->meta.l2_flush ? "flushed" : "not flushed", S.F.n_usable,
        ds->nrows, lim_n);
    if (ds->n_implausible_rows || ds->n_implausible_ceilings)
        add(&p, " (%d implausible row%s and %d implausible ceiling%s left out: report.md's data notes say why)",
            ds->n_implausible_rows, ds->n_implausible_rows == 1 ? "" : "s", ds->n_implausible_ceilings,
            ds->n_implausible_ceilings == 1 ? "" : "s");
    flush_para(&p, f);
    table(&S, pct_n, lim_n, f);
    busy_sentence(&S, lim_n, &p);
    ceilings_sentence(&S, &p);
    flush_para(&p, f);
    claims_sentence(&S, lim_n, dir, &p);
    flush_para(&p, f);
    story(&S, &p, f);
    fprintf(f, "<!-- summary:end -->\n");
    sum_free(&S);
    return 0;
}

int summary_main(const char *dir, int load_flags, int causes)
{
    struct gp_dataset *ds = malloc(sizeof *ds);
    char err[4096];
    if (!ds) {
        fprintf(stderr, "gemmprof report: out of memory\n");
        return 1;
    }
    if (dataset_load_opts(dir, load_flags, ds, err, sizeof err)) {
        fprintf(stderr, "gemmprof report: %s\n", err);
        free(ds);
        return 1;
    }
    if (*ds->ceilings_foreign)
        fprintf(stderr, "gemmprof report: warning: %s%s\n", ds->ceilings_foreign,
                ds->have_ceilings ? ": used anyway (--ceilings-any-gpu)" : ": left out (--ceilings-any-gpu uses them)");
    int rc = (causes ? diagnose_write(ds, stdout, err, sizeof err) : summary_write(ds, dir, stdout, err, sizeof err)) ? 1 : 0;
    if (rc)
        fprintf(stderr, "gemmprof report: %s\n", err);
    dataset_free(ds);
    free(ds);
    return rc;
}

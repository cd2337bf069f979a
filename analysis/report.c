/* report.md: the performance report of one results directory, written from the loaded
 * rows, ceilings and metadata. Every sentence that draws a conclusion is chosen by
 * comparing numbers from the data against the thresholds below, and every number it
 * prints is a CSV value or a ratio of CSV values (via roof_derive), so the text reads
 * differently for different data. Rows that failed verification are listed up front
 * and never enter a performance statement; rows without counters get time-only text.
 * `gemmprof report` (src/cmd_report.c) and the sweep render through report_render. */
#include "analysis/report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/diagnose.h"
#include "analysis/markdown.h"
#include "analysis/paths.h"
#include "analysis/plausible.h"
#include "analysis/atomic_file.h"
#include "analysis/claims.h"
#include "analysis/fleet.h"
#include "analysis/merge.h"
#include "analysis/findings.h"
#include "analysis/plots.h"
#include "analysis/roofline.h"
#include "analysis/row_index.h"
#include "analysis/story.h"
#include "analysis/summary.h"
#include "analysis/version.h"

/* Thresholds that turn numbers into words. */
#define SHARE_ABOVE   1.05   /* achieved above the bound by more than noise */
#define SHARE_LIMITS  0.80   /* at or above: the binding level is what limits it */
#define SHARE_PARTLY  0.50   /* at or above: the roof binds, other costs take a share */
#define STEP_SHARE_SAME 1.10 /* share of the bound changes by less: the bound alone explains a step */
#define FLOPS_DIFFER  0.02   /* counted vs analytic FLOPs worth a remark */
#define UNCHANGED     0.005  /* |log| of a per-FMA ratio below this: shown as unchanged (3 digits) */

static const char *const level_label[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "shared memory",
                                                            "compute"};
static const char *const level_adj[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "shared-memory",
                                                          "compute"};   /* "<adj>-bound" */

struct rep {
    FILE *f;
    const struct gp_dataset *ds;
    struct gp_ceilings cs;            /* ds's, with every value not finite and positive as NaN */
    struct gp_roof *roof;             /* one per row, from cleaned values */
    unsigned char *usable;            /* per row: verified, with a positive shape and time */
    struct row_groups shapes, vars;   /* rows indexed once: no row is compared with every row */
    int *base_at[GP_PRECISION_COUNT]; /* per precision, per shape group: its first usable row of
                                       * that precision's cuBLAS baseline (baseline_name) */
    int n_bad_time, n_bad_values;     /* rows left out for their time; other values dropped */
    const struct plots_outcome *charts;   /* what this run rendered; NULL: no charts */
    struct gp_findings F;             /* every conclusion, as structs (analysis/findings.h) */
    struct gp_claims claims;          /* the seed's claims (analysis/claims.h) */
    const char *detail_name;          /* the detail file's name, for links */
};

/* ---- number formatting: 3 significant digits, results kept in a small ring ---- */

static char fmt_ring[48][64];
static int fmt_next;

static char *fmt_slot(void) { return fmt_ring[fmt_next++ % 48]; }

/* 3 significant digits; "n/a" for anything not finite, so no sentence shows inf or nan. */
static const char *num(double v)
{
    if (!isfinite(v))
        return "n/a";
    char *b = fmt_slot();
    if (v == 0) {
        strcpy(b, "0");
        return b;
    }
    double mag = floor(log10(fabs(v)));
    double unit = pow(10.0, mag - 2);
    double r = round(v / unit) * unit;   /* round first so 9.996 prints 10.0, not 10.00 */
    /* near the ends of the double range the rounding can overflow or underflow:
     * print the value as it is rather than convert a non-finite magnitude to int */
    if (!isfinite(r) || r == 0 || !(unit > 0)) {
        snprintf(b, 64, "%.2e", v);
        return b;
    }
    mag = floor(log10(fabs(r)));
    if (mag >= 7 || mag < -4)
        snprintf(b, 64, "%.2e", r);
    else
        snprintf(b, 64, "%.*f", mag >= 2 ? 0 : 2 - (int)mag, r);
    return b;
}

/* A share as a percentage; "n/a" unless finite and >= 0 (no share here is negative). */
static const char *pct(double frac)
{
    if (!isfinite(frac) || frac < 0)
        return "n/a";
    char *b = fmt_slot();
    snprintf(b, 64, "%s%%", num(100.0 * frac));
    return b;
}

/* Physical amounts (bytes, Hz, byte/s): "n/a" unless finite and >= 0. */
static const char *scaled(double v, const char *const units[], int nunits)
{
    if (!isfinite(v) || v < 0)
        return "n/a";
    int u = 0;
    double x = v;
    while (u + 1 < nunits && fabs(x) >= 1000.0) {
        x /= 1000.0;
        u++;
    }
    char *b = fmt_slot();
    snprintf(b, 64, "%s %s", num(x), units[u]);
    return b;
}

static const char *bytes_str(double v)
{
    static const char *const u[] = {"B", "kB", "MB", "GB", "TB"};
    return scaled(v, u, 5);
}

static const char *bw_str(double v)
{
    static const char *const u[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
    return scaled(v, u, 5);
}

static const char *hz_str(double v)
{
    static const char *const u[] = {"Hz", "kHz", "MHz", "GHz"};
    return scaled(v, u, 4);
}

static const char *count_str(double v)
{
    static const char *const u[] = {"", "k", "M", "G", "T"};
    const char *s = scaled(v, u, 5);
    size_t n = strlen(s);
    if (n && s[n - 1] == ' ')   /* no suffix: drop the separator */
        ((char *)s)[n - 1] = '\0';
    return s;
}

static const char *tf(double flops) { return flops >= 0 ? num(flops / 1e12) : "n/a"; }
static const char *ms(double s) { return s > 0 ? num(s * 1e3) : "n/a"; }

/* A measured amount: the value when finite and >= 0, else NaN (missing). */
static double val(double v) { return isfinite(v) && v >= 0 ? v : NAN; }
/* The same for amounts that must be positive (times, clocks, bandwidths, ceilings). */
static double posval(double v) { return isfinite(v) && v > 0 ? v : NAN; }

/* ---- row helpers ---- */

/* Verified, with a positive shape and a positive finite median time: the rows every
 * performance statement is made from. */
static int row_ok(const struct rep *R, int i) { return R->usable[i]; }


static const char *shape_str(const struct gp_result *r)
{
    char *b = fmt_slot();
    snprintf(b, 64, "%ldx%ldx%ld", r->m, r->n, r->k);
    return b;
}

/* A variant's one-line description, as the build that measured it gave it in
 * results.json; NULL when it gave none (written before results.json recorded them). */
static const char *variant_desc(const struct gp_dataset *ds, const char *name)
{
    const struct gp_meta_variant *v = meta_variant_find(&ds->meta.variants, name);
    return v && v->description[0] ? v->description : NULL;
}

/* The cuBLAS baseline of each precision: the row a row of that precision is a share of. */
static const char *baseline_name(int p)
{
    static const char *const names[GP_PRECISION_COUNT] = {
        [GP_FP32] = "cublas", [GP_TF32] = "cublas_tf32", [GP_BF16] = "cublas_bf16", [GP_FP16] = "cublas_fp16"};
    return p >= 0 && p < GP_PRECISION_COUNT ? names[p] : names[GP_FP32];
}

/* Index of the first verified row of precision p's baseline (GP_FP32: cublas, GP_TF32:
 * cublas_tf32, ...) at row i's shape, or -1. */
static int cublas_at(const struct rep *R, int i, int p)
{
    int g = R->shapes.group_of[i];
    return p >= 0 && p < GP_PRECISION_COUNT ? R->base_at[p][g] : -1;
}

/* The compute roof's name: the pipe the counters saw, and for a kernel that does more
 * tensor work than the GEMM's FLOPs (3xTF32: three products per FMA) the ratio. */
static const char *peak_label(const struct gp_roof *ro)
{
    if (ro->compute_path != GP_PATH_TENSOR)
        return "FP32 FMA";
    const char *path = roof_tensor_name(ro);
    if (!(ro->tensor_per_flop > 1.05))
        return path;
    char *b = fmt_slot();
    snprintf(b, 64, "%s / %s (tensor ops per FLOP)", path, num(ro->tensor_per_flop));
    return b;
}

/* What memory level l alone would allow, not capped by the compute peak, flop/s. */
static double mem_roof(const struct gp_roof *ro, int l) { return ro->ai[l] * ro->roof_bw[l]; }

/* Bytes moved at `level` per FMA (m n k FMAs). */
static double bytes_per_fma(const struct gp_roof *ro, int level)
{
    return ro->bytes[level] / (ro->flops_analytic / 2.0);
}


static void say(struct rep *R, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(R->f, fmt, ap);
    va_end(ap);
}

/* ---- sections ---- */

static void write_header(struct rep *R, int recorded_elsewhere)
{
    const struct gp_dataset *ds = R->ds;
    const struct gp_meta *m = &ds->meta;
    say(R, "# gemmprof report\n\nData: %s (%d rows), rendered by gemmprof %s.\n\n", mdc(ds->dir), ds->nrows,
        GP_VERSION_STRING);
    if (recorded_elsewhere)
        say(R, "> **Recorded data: measured on %s on %s at commit %s, not on this machine.** Every "
               "number below describes that GPU and run; this machine only rendered the report.\n\n",
            mdt(ds->have_meta && *m->gpu_name ? m->gpu_name : "an unknown GPU"),
            mdt(ds->have_meta && *m->date ? m->date : "an unknown date"),
            mdt(ds->have_meta && *m->git_rev ? m->git_rev : "unknown"));
    if (*ds->ceilings_foreign)
        say(R, "> **Ceilings from another GPU: %s.** %s\n\n", mdt(ds->ceilings_foreign),
            ds->have_ceilings ? "They are used anyway (--ceilings-any-gpu): every bound below is against "
                                "that GPU's ceilings."
                              : "They are left out: no bound, binding level or % of peak below rests on them "
                                "(--ceilings-any-gpu uses them anyway).");
}

/* Lists up to LIST_MAX rows of a kind, then says how many more: a note stays readable
 * for 100,000 rows. */
#define LIST_MAX 20

static void write_data_notes(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    int nfail = 0, nnotrun = 0, nnocnt = 0;
    for (int i = 0; i < ds->nrows; i++) {
        nfail += ds->rows[i].status == GP_STATUS_VERIFY_FAILED;
        nnotrun += ds->rows[i].status == GP_STATUS_CUDA_ERROR || ds->rows[i].status == GP_STATUS_SKIPPED;
        nnocnt += row_ok(R, i) && !roof_row_has_counters(&ds->rows[i]);
    }
    if (nfail) {
        say(R, "## WARNING: %d row%s FAILED VERIFICATION\n\n", nfail, nfail == 1 ? "" : "s");
        say(R, "These results are wrong and are excluded from every performance statement below.\n\n");
        say(R, "| variant | shape | relative error | tolerance | method |\n|---|---|---|---|---|\n");
        for (int i = 0; i < ds->nrows; i++) {
            const struct gp_result *r = &ds->rows[i];
            if (r->status != GP_STATUS_VERIFY_FAILED)
                continue;
            say(R, "| %s | %s | %s | %s | %s |\n", mdc(r->variant), shape_str(r), num(val(r->rel_err)),
                num(val(r->tolerance)), mdt(*r->verify_method ? r->verify_method : "n/a"));
        }
        say(R, "\n");
    }
    if (!*ds->warnings && !nnotrun && !nnocnt && !R->n_bad_time && !R->n_bad_values && !ds->n_implausible_rows &&
        !ds->n_implausible_ceilings)
        return;
    say(R, "## Data notes\n\n");
    if (*ds->warnings) {
        const char *s = ds->warnings;
        while (*s) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)n, s);
            say(R, "- %s\n", mdt(line));
            s += n + (e != NULL);
        }
    }
    for (int c = 0; c < GP_CEIL_COUNT; c++)
        if (ds->ceiling_why[c][0])
            say(R, "- **Implausible ceiling** %s: %s; left out of every bound.\n", gp_ceiling_info[c].label,
                mdt(ds->ceiling_why[c]));
    int listed = 0;
    for (int i = 0; i < ds->nrows; i++)
        if (!plausible_row(ds, i) && listed++ < LIST_MAX)
            say(R, "- **Implausible row** %s at %s: %s; left out of every verdict, claim, ladder step and "
                   "summary figure.\n", mdc(ds->rows[i].variant), shape_str(&ds->rows[i]), mdt(ds->row_why[i]));
    if (listed > LIST_MAX)
        say(R, "- ... and %d more implausible rows, left out likewise.\n", listed - LIST_MAX);
    listed = 0;
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (r->status != GP_STATUS_CUDA_ERROR && r->status != GP_STATUS_SKIPPED)
            continue;
        if (listed++ < LIST_MAX)
            say(R, "- %s at %s did not run (%s): %s\n", mdc(r->variant), shape_str(r),
                gp_status_name(r->status), mdt(*r->error ? r->error : "no reason recorded"));
    }
    if (listed > LIST_MAX)
        say(R, "- ... and %d more rows that did not run.\n", listed - LIST_MAX);
    listed = 0;
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (r->status != GP_STATUS_OK || row_ok(R, i) || !plausible_row(ds, i))
            continue;
        if (listed++ < LIST_MAX)
            say(R, "- %s at %s: its median time or its shape is missing, not finite or not positive, "
                   "so this row is left out of every performance statement.\n",
                mdc(r->variant), shape_str(r));
    }
    if (listed > LIST_MAX)
        say(R, "- ... and %d more rows left out for a missing or impossible time or shape.\n",
            listed - LIST_MAX);
    if (R->n_bad_values)
        say(R, "- %d other value%s (counters, ceilings or clocks) %s negative or not finite and %s "
               "treated as missing: no statement below rests on %s.\n", R->n_bad_values,
            R->n_bad_values == 1 ? "" : "s", R->n_bad_values == 1 ? "was" : "were",
            R->n_bad_values == 1 ? "is" : "are", R->n_bad_values == 1 ? "it" : "them");
    if (nnocnt) {
        say(R, "- Counters were not collected for %d verified row%s (", nnocnt, nnocnt == 1 ? "" : "s");
        const char *sep = "";
        listed = 0;
        for (int i = 0; i < ds->nrows && listed < LIST_MAX; i++)
            if (row_ok(R, i) && !roof_row_has_counters(&ds->rows[i])) {
                say(R, "%s%s %s", sep, mdc(ds->rows[i].variant), shape_str(&ds->rows[i]));
                sep = ", ";
                listed++;
            }
        if (nnocnt > listed)
            say(R, " and %d more", nnocnt - listed);
        say(R, "); their statements are from time alone");
        if (ds->have_meta && *ds->meta.counters)
            say(R, ". The run says: %s", mdt(ds->meta.counters));
        say(R, ".\n");
    }
    say(R, "\n");
}

static void write_machine(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    const struct gp_meta *m = &ds->meta;
    say(R, "## Machine and run\n\n");
    if (!ds->have_meta) {
        say(R, "No results.json: the GPU, clocks, software versions and command of this run are "
               "unknown.\n\n");
    } else {
        double clk_max = posval(m->sm_clock_max_hz), clk = posval(m->sm_clock_measured_hz);
        say(R, "| | |\n|---|---|\n| GPU | %s (compute capability %d.%d, %d SMs) |\n",
            mdt(*m->gpu_name ? m->gpu_name : "unknown"), m->cc_major, m->cc_minor, m->sm_count);
        say(R, "| SM clock | maximum %s; median during the run %s", hz_str(clk_max), hz_str(clk));
        if (!isnan(clk_max) && !isnan(clk))
            say(R, " (%s of maximum)", pct(clk / clk_max));
        say(R, " |\n| memory | global %s, memory clock %s, ", bytes_str(m->global_mem_bytes),
            hz_str(m->mem_clock_hz));
        if (m->mem_bus_bits > 0)
            say(R, "%d-bit bus", m->mem_bus_bits);
        else
            say(R, "bus width n/a");
        say(R, "; L2 %s; shared memory per block %s |\n", bytes_str(m->l2_bytes),
            bytes_str(m->smem_per_block_optin_bytes));
        say(R, "| driver / CUDA runtime / cuBLAS | %s / %s / %s |\n",
            mdt(*m->driver_version ? m->driver_version : "?"),
            mdt(*m->runtime_version ? m->runtime_version : "?"),
            mdt(*m->cublas_version ? m->cublas_version : "?"));
        say(R, "| gemmprof | %s, commit %s |\n", mdt(*m->tool_version ? m->tool_version : "?"),
            mdt(*m->git_rev ? m->git_rev : "?"));
        say(R, "| date | %s |\n| host | %s |\n", mdt(*m->date ? m->date : "?"),
            mdt(*m->hostname ? m->hostname : "?"));
        say(R, "| timing | %d timed repetitions after %d warm-ups, L2 %s between repetitions |\n",
            m->reps, m->warmups, m->l2_flush ? "flushed" : "not flushed");
        say(R, "| counters | %s |\n\nCommand: %s\n\n", mdt(*m->counters ? m->counters : "?"),
            mdc(m->command));
    }
    /* the clock each row was timed at: the machine's speed during the measurement */
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < ds->nrows; i++) {
        double c = posval(ds->rows[i].sm_clock_hz);
        if (row_ok(R, i) && !isnan(c)) {
            lo = fmin(lo, c);
            hi = fmax(hi, c);
        }
    }
    if (lo <= hi)
        say(R, "SM clock measured while the rows were timed: %s to %s.\n\n", hz_str(lo), hz_str(hi));
}

static void write_ceilings(struct rep *R)
{
    const struct gp_ceilings *cs = &R->cs;
    say(R, "## Ceilings: measured against theoretical\n\n");
    if (!R->ds->have_ceilings && *R->ds->ceilings_foreign) {
        say(R, "%s: left out, so there are no roofline bounds, binding levels or %% of peak below.\n\n",
            mdt(R->ds->ceilings_foreign));
        return;
    }
    if (!R->ds->have_ceilings) {
        say(R, "No ceilings.csv: without measured ceilings there are no roofline bounds, binding "
               "levels or %% of peak below.\n\n");
        return;
    }
    say(R, "| ceiling | measured | theoretical | %% of theory | SM clock | theory from |\n"
           "|---|---|---|---|---|---|\n");
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        const struct gp_ceiling *c = &cs->c[i];
        int bw = gp_ceiling_info[i].kind == GP_CEIL_BANDWIDTH;
        const char *meas = bw ? bw_str(c->measured) : tf(c->measured);
        const char *theo = bw ? bw_str(c->theoretical) : tf(c->theoretical);
        say(R, "| %s | %s%s | %s%s | %s | %s | %s |\n", gp_ceiling_info[i].label, meas,
            !bw && !isnan(c->measured) ? " TFLOP/s" : "", theo,
            !bw && !isnan(c->theoretical) ? " TFLOP/s" : "",
            pct(c->measured / c->theoretical), hz_str(c->sm_clock_hz), mdt(c->theory_source));
    }
    say(R, "\n");
    int above = 0;
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        const struct gp_ceiling *c = &cs->c[i];
        if (c->measured > c->theoretical * SHARE_ABOVE) {
            above++;
            say(R, "- %s measured %s of its theoretical value: the theory assumes a lower clock or "
                   "width than the hardware ran at.\n", gp_ceiling_info[i].label,
                pct(c->measured / c->theoretical));
        }
    }
    if (above)
        say(R, "\n");
}

static void write_shape_tables(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    say(R, "## Results by shape\n\nTime is the median of the timed repetitions; spread is "
           "(max - min) / median. TFLOP/s counts the analytic 2mnk. Bytes and arithmetic intensity "
           "(AI, analytic FLOP per byte) are per memory level; what limits each row is under "
           "\"What limits each variant\".\n\n");
    for (int g = 0; g < R->shapes.ngroups; g++) {
        int cnt;
        const int *idx = row_group(&R->shapes, g, &cnt);
        say(R, "### %s\n\n", shape_str(&ds->rows[idx[0]]));
        say(R, "| variant | precision | status | median ms | spread | TFLOP/s | %% of cuBLAS | "
               "%% of cuBLAS TF32/BF16/FP16 | %% of peak |\n|---|---|---|---|---|---|---|---|---|\n");
        int any_cnt = 0;
        for (int j = 0; j < cnt; j++) {
            int i = idx[j];
            const struct gp_result *r = &ds->rows[i];
            if (!row_ok(R, i)) {
                say(R, "| %s | %s | **%s** | excluded | | | | | |\n", mdc(r->variant), mdt(r->precision),
                    r->status == GP_STATUS_VERIFY_FAILED ? "VERIFY FAILED"
                    : !plausible_row(ds, i)              ? "IMPLAUSIBLE"
                    : r->status == GP_STATUS_OK          ? "INVALID TIME"
                                                         : gp_status_name(r->status));
                continue;
            }
            any_cnt |= roof_row_has_counters(r);
            const struct gp_roof *ro = &R->roof[i];
            /* the second share is of cuBLAS in the row's own tensor precision */
            const int p = gp_precision_parse(r->precision);
            int cb = cublas_at(R, i, GP_FP32), ct = p > GP_FP32 ? cublas_at(R, i, p) : -1;
            say(R, "| %s | %s | ok | %s | %s | %s | %s | %s | %s |\n", mdc(r->variant), mdt(r->precision),
                ms(r->time_median_s), pct(r->time_spread), tf(ro->achieved),
                cb >= 0 ? pct(ro->achieved / R->roof[cb].achieved) : "n/a",
                ct >= 0 ? pct(ro->achieved / R->roof[ct].achieved) : "",
                isnan(ro->peak_compute) ? "n/a" : pct(ro->achieved / ro->peak_compute));
        }
        say(R, "\n");
        if (!any_cnt) {
            say(R, "No counters at this shape: traffic and binding levels unknown.\n\n");
            continue;
        }
        say(R, "| variant | DRAM bytes | L2 bytes | L1 bytes | shared bytes | AI DRAM | AI L2 | "
               "AI L1 | AI shared |\n|---|---|---|---|---|---|---|---|---|\n");
        for (int j = 0; j < cnt; j++) {
            int i = idx[j];
            const struct gp_result *r = &ds->rows[i];
            if (!row_ok(R, i))
                continue;
            const struct gp_roof *ro = &R->roof[i];
            if (!roof_row_has_counters(r)) {
                say(R, "| %s | not collected | | | | | | | |\n", mdc(r->variant));
                continue;
            }
            say(R, "| %s |", mdc(r->variant));
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                say(R, " %s |", bytes_str(ro->bytes[l]));
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                say(R, " %s |", num(ro->ai[l]));
            say(R, "\n");
        }
        say(R, "\n");
    }
}

/* Only charts rendered by this run are linked: a PNG left by an earlier run may show
 * other data, and one that failed now must not pass for current. */
static void write_charts(struct rep *R)
{
    const struct plots_outcome *po = R->charts;
    say(R, "## Charts\n\n");
    if (!po || po->ncharts == 0) {
        say(R, "No charts were rendered with this report (%s); `gemmprof plots DIR` renders them.\n\n",
            po && po->notes[0] ? mdt(po->notes) : "gnuplot missing or --no-plots");
        return;
    }
    if (po->failed) {
        say(R, "**%d chart%s could not be rendered** and %s not shown:\n\n", po->failed,
            po->failed == 1 ? "" : "s", po->failed == 1 ? "is" : "are");
        for (int c = 0; c < po->ncharts; c++)
            if (!po->chart[c].rendered)
                say(R, "- %s: %s\n", mdc(po->chart[c].name), mdt(po->chart[c].why));
        say(R, "\n");
    }
    /* every chart of the registry (plots/charts.def), in its order, with its caption */
    for (int i = 0; i < PLOTS_CHART_KINDS; i++) {
        int found = 0;
        for (int c = 0; c < po->ncharts; c++)
            if (po->chart[c].def == i && !po->chart[c].extra && (!found || po->chart[c].family[0])) {
                found = 1;
                if (po->chart[c].rendered && po->chart[c].family[0])   /* one per family */
                    say(R, "![%s: %s](%s.png)\n\n", plots_charts[i].caption, mdt(po->chart[c].family),
                        po->chart[c].name);
                else if (po->chart[c].rendered)
                    say(R, "![%s](%s.png)\n\n", plots_charts[i].caption, po->chart[c].name);
            }
        /* fleet: only for a merged fleet; families: only where one chart cannot hold every variant */
        if (!found && plots_charts[i].data != PLOTS_DATA_FLEET && plots_charts[i].data != PLOTS_DATA_FAMILIES)
            say(R, "- %s: not drawn, the data has none to show.\n\n", plots_charts[i].caption);
    }
    /* the charts of the further shapes */
    for (int c = 0; c < po->ncharts; c++) {
        const struct plots_chart *pc = &po->chart[c];
        if (pc->rendered && pc->extra)
            say(R, "![%s at %s](%s.png)\n\n", plots_charts[pc->def].caption, mdt(pc->shape), pc->name);
    }
    if (po->shapes_with_counters > 0) {
        say(R, "Hierarchical rooflines were drawn for %d of the %d shapes with counters:",
            po->shapes_with_counters - po->shapes_left_out, po->shapes_with_counters);
        const char *sep = " ";
        for (int c = 0; c < po->ncharts; c++)
            if (plots_charts[po->chart[c].def].data == PLOTS_DATA_SHAPES) {
                say(R, "%s%s", sep, po->chart[c].shape);
                sep = ", ";
            }
        if (po->shapes_left_out)
            say(R, ". %d other shape%s %s left out (at most %d beside the main one; "
                   "`--max-shape-charts N` raises the bound).\n\n", po->shapes_left_out,
                po->shapes_left_out == 1 ? "" : "s", po->shapes_left_out == 1 ? "was" : "were",
                po->max_shape_charts);
        else
            say(R, ".\n\n");
    }
}

/* ---- the limits model's findings ---- */

static const char *const limiter_label[GP_LIM_COUNT] = {
    "DRAM", "L2", "L1", "shared memory", "compute", "instruction issue", "parallelism", "latency"};

static const char *lim_label(int l) { return l >= 0 && l < GP_LIM_COUNT ? limiter_label[l] : "n/a"; }

/* Kernels in row i's call (its kernels column). The counters cover them all in one range,
 * so a rate such as achieved occupancy mixes them, while the launch facts are the main
 * (longest-running) kernel's: a helper of 1024 x 256 threads beside a GEMM of one block
 * per SM lifts the call's occupancy above the GEMM's theoretical one. */
static int call_kernels(const struct rep *R, int i)
{
    const char *k = R->ds->rows[i].kernels;
    if (!*k)
        return 1;
    int n = 1;
    for (; *k; k++)
        n += *k == ';';
    return n;
}

/* " over the call's N kernels" where a rate of row i mixes several. */
static void over_call(struct rep *R, int i)
{
    int n = call_kernels(R, i);
    if (n > 1)
        say(R, " over the call's %d kernels", n);
}

/* A row's evidence names its main stall reasons where the stalls are what is left to explain. */
static int stalls_shown(const struct gp_limits *li)
{
    return li->have_stalls && (li->limiter == GP_LIM_LATENCY || li->share < 0.7);
}

/* Rows whose main stall reasons include no_instruction, which the counter phase measures
 * from cold instruction caches (docs/counters.md): the report says so once. */
static int cold_fetch_rows(const struct rep *R)
{
    int n = 0;
    for (int i = 0; i < R->ds->nrows; i++) {
        const struct gp_limits *li = &R->F.row[i].lim;
        if (!row_ok(R, i) || !stalls_shown(li))
            continue;
        for (int k = 0; k < GP_STALL_TOP && li->stall[k].metric >= 0; k++)
            if (strcmp(limits_stall_name(li->stall[k].metric), "no_instruction") == 0) {
                n++;
                break;
            }
    }
    return n;
}

/* The leading stall reason of a row the limits model calls latency-bound, when the stall
 * table names a change for it (the diagnosis then leads with it, not the roof); else -1. */
static int latency_stall(const struct gp_limits *li)
{
    const int s = li->stall[0].metric;
    return li->limiter == GP_LIM_LATENCY && s >= 0 && limits_stall_next(s) ? s : -1;
}

/* The evidence for row i's limiter, one table cell. */
static void evidence(struct rep *R, int i)
{
    const struct gp_row_finding *f = &R->F.row[i];
    const struct gp_limits *li = &f->lim;
    const struct gp_roof *ro = &R->roof[i];
    const char *sep = "";
    if (li->have_launch && li->sm_busy < 1) {
        say(R, "%.0f blocks on %.0f SMs: %s waves, %s of SMs idle", li->blocks, li->sms,
            num(li->waves), pct(1 - li->sm_busy));
        sep = "; ";
    } else if (li->have_launch && li->tail < 1) {
        say(R, "%s blocks per SM: the SMs' mean work is %s of the busiest's", num(li->blocks / li->sms),
            pct(li->tail));
        sep = "; ";
    }
    if (li->roof == GP_LIM_ISSUE || li->limiter == GP_LIM_ISSUE) {
        say(R, "%s%s FLOP per warp instruction", sep, num(li->flop_per_inst));
        /* what the slots issue: a register-tiled SIMT GEMM's are mostly FFMA, and the rest
         * (loads, address arithmetic, the epilogue) is what "fewer instructions" means */
        const double ffma_warp = val(R->ds->rows[i].metric[GP_M_ffma]) / 32;
        if (ffma_warp > 0 && li->inst_executed > 0)
            say(R, " (FFMA %s of them)", pct(fmin(1, ffma_warp / li->inst_executed)));
        say(R, ", %s warp inst/s peak", count_str(li->issue_peak));
        if (!isnan(li->issue_active_pct)) {
            say(R, ", issue slots busy %s", pct(li->issue_active_pct / 100));
            over_call(R, i);
        }
        sep = "; ";
    } else if (li->roof >= GP_LIM_DRAM && li->roof <= GP_LIM_SHARED) {
        say(R, "%s%s %s B/FMA", sep, level_label[li->roof], num(bytes_per_fma(ro, li->roof)));
        sep = "; ";
    }
    if (stalls_shown(li)) {
        const struct gp_stall *s = &li->stall[0];
        say(R, "%s%s of stalls on %s: %s", sep, pct(s->share), limits_stall_name(s->metric),
            limits_stall_words(s->metric));
        for (int k = 1; k < GP_STALL_TOP && li->stall[k].metric >= 0; k++)
            say(R, "%s%s %s", k == 1 ? " (then " : ", ", limits_stall_name(li->stall[k].metric),
                pct(li->stall[k].share));
        if (li->stall[1].metric >= 0)
            say(R, ")");
        if (!isnan(li->achieved_occupancy_pct)) {
            say(R, "; achieved occupancy %s", pct(li->achieved_occupancy_pct / 100));
            over_call(R, i);
        }
        sep = "; ";
    }
    if (f->anomalies & GP_ANOM_BANK_CONFLICTS) {
        say(R, "%sbank conflicts %s of shared load wavefronts", sep, pct(f->conflict_ratio));
        sep = "; ";
    }
    if (!*sep)
        say(R, "%s", li->roof < 0 ? "no counters or ceilings" : "-");
}

/* One row of a limiter table: shape or variant, TFLOP/s, limiter, allows, share, evidence. */
static void limiter_cells(struct rep *R, int i)
{
    const struct gp_limits *li = &R->F.row[i].lim;
    say(R, " %s | %s", tf(R->roof[i].achieved), lim_label(li->limiter));
    int busy = li->roof >= 0 && li->roof_scale < 1;   /* false for NaN */
    if (li->limiter == GP_LIM_PARALLELISM || li->limiter == GP_LIM_LATENCY) {
        say(R, " (%s%s roof", li->limiter == GP_LIM_LATENCY ? "under the " : "", lim_label(li->roof));
        if (busy)
            say(R, " x %s busy", pct(li->roof_scale));
        say(R, ")");
    } else if (busy) {
        say(R, " x %s busy", pct(li->roof_scale));
    }
    say(R, " | ");
    say(R, "%s | %s | ", tf(li->allows), pct(li->share));
    evidence(R, i);
    say(R, " |\n");
}

/* What the limits model adds to the roofs, and the shares before and after. */
static void write_limits(struct rep *R)
{
    const struct gp_findings *F = &R->F;
    say(R, "## Limits beyond the roofs\n\n");
    if (!F->n_usable) {
        say(R, "No verified rows.\n\n");
        return;
    }
    say(R, "Limit: the lowest of the memory, compute and instruction-issue roofs, those of the SMs' own "
           "(compute, issue, L1, shared memory) times the share of the GPU the launch keeps busy, DRAM "
           "and L2 as they are; below %g of it, the latency verdict with the main "
           "stall reasons (README.md, \"The report's model\"). Share = measured / limit. Collected "
           "for the %d verified rows: launch facts %d, instruction counts %d, stall reasons %d.",
        GP_LATENCY_BELOW, F->n_usable, F->rows_launch,
        F->rows_issue, F->rows_stalls);
    if (!F->rows_launch && !F->rows_issue && !F->rows_stalls)
        say(R, " **Launch facts, instruction counts and stall reasons were not collected in this "
               "run**: the limiter below is from the memory and compute roofs alone.");
    say(R, "\n\n| share of the limit | ");
    for (int b = 0; b < GP_SHARE_BUCKETS; b++) {
        double lo = b ? gp_share_bucket_hi[b - 1] : 0, hi = gp_share_bucket_hi[b];
        if (isinf(hi))
            say(R, "%s>= %g |", b ? " " : "", lo);
        else
            say(R, "%s%g-%g |", b ? " " : "", lo, hi);
    }
    say(R, " rows |\n|---|");
    for (int b = 0; b <= GP_SHARE_BUCKETS; b++)
        say(R, "---|");
    say(R, "\n| memory and compute roofs |");
    for (int b = 0; b < GP_SHARE_BUCKETS; b++)
        say(R, " %d |", F->hist_old[b]);
    say(R, " %d |\n| + issue, parallelism |", F->n_old);
    for (int b = 0; b < GP_SHARE_BUCKETS; b++)
        say(R, " %d |", F->hist_new[b]);
    say(R, " %d |\n\n", F->n_new);
}


/* What the binding roof asks for when no cause comes first. */
static const char *roof_next(const struct gp_result *r, const struct gp_roof *ro, int roof)
{
    switch (roof) {
    case GP_LIM_DRAM: return "more reuse on chip (larger tiles); the shape's compulsory traffic is the floor";
    case GP_LIM_L2: return "larger tiles, or a block order that keeps the tiles in the L2";
    case GP_LIM_L1: return "stage the operands through shared memory and registers, so each is loaded once per tile";
    case GP_LIM_SHARED: return "register tiling: more outputs per thread, so each shared value feeds several FMAs";
    case GP_LIM_COMPUTE:
        return ro->compute_path == GP_PATH_TENSOR ? "none at this roof: the tensor pipe is the limit"
                                                  : "the tensor cores (TF32), where the precision allows";
    case GP_LIM_ISSUE:
        return r->registers_per_thread >= 200
                   ? "fewer instructions per FMA (wider loads, less address arithmetic); the register tile is at "
                     "the register file's limit"
                   : "fewer instructions per FMA: larger register tiles, wider loads";
    default: return "-";
    }
}

/* Row i's diagnosis: its causes, heaviest first, each with its evidence, its fix and the
 * speedup the model gives removing it; or the roof, when no cause explains a quarter of
 * the time (analysis/diagnose.h). */
static void write_diagnosis(struct rep *R, int i)
{
    const struct gp_result *r = &R->ds->rows[i];
    const struct gp_roof *ro = &R->roof[i];
    struct gp_diagnosis d;
    char ev[256];
    diagnose_dataset_row(R->ds, i, ro, &R->F.row[i].lim, &d);
    say(R, "Diagnosis at %s: ", shape_str(r));
    const double share = R->F.row[i].lim.share;   /* as the table below prints it */
    const struct gp_limits *li = &R->F.row[i].lim;
    const int stall = latency_stall(li);
    if (d.top_is_roof && stall >= 0)
        /* far under the roof, the roof's own advice is not the next step: the warps wait */
        say(R, "**latency-bound** under the %s roof, at %s of its limit; %s leads the stalls (%s: %s); next: %s.",
            lim_label(d.roof), pct(share), limits_stall_name(stall), pct(li->stall[0].share),
            limits_stall_words(stall), limits_stall_next(stall));
    else if (d.top_is_roof)
        say(R, "**bound by %s** at %s of its limit; next: %s.", lim_label(d.roof), pct(share),
            roof_next(r, ro, d.roof));
    for (int c = 0; c < d.ncauses; c++) {
        const struct gp_rule_info *ru = &gp_rules[d.cause[c].rule];
        diagnose_evidence_text(&d, c, r, ev, sizeof ev);
        say(R, "%s%d. **%s** (%s): %s; fix: %s; about %sx faster without it.", c || d.top_is_roof ? " " : "",
            c + 1, ru->cause, ru->id, ev, ru->fix, num(d.cause[c].speedup));
    }
    if (!d.top_is_roof && d.roof >= 0)
        say(R, " Then the %s roof (the row reaches %s of its limit).", lim_label(d.roof), pct(share));
    if (d.top_is_roof && share < GP_LATENCY_BELOW && !R->F.row[i].lim.have_stalls)
        say(R, " Far below that roof and no cause explains it: `--stalls` (every warp-stall reason, "
               "5 more replay passes) would show where the warps wait.");
    say(R, "\n\n");
}


/* The tightest roof other than the binding one (memory levels and compute). */
static int runner_up(const struct gp_roof *ro, double *att)
{
    int best = -1;
    *att = NAN;
    for (int l = 0; l <= GP_LEVEL_COUNT; l++) {
        /* uncapped: a memory roof above the compute peak still says how far above it is */
        double a = l == GP_LEVEL_COUNT ? ro->peak_compute : mem_roof(ro, l);
        if (l == ro->bound_level || isnan(a))
            continue;
        if (best < 0 || a < *att) {
            best = l;
            *att = a;
        }
    }
    return best;
}

static void share_sentence(struct rep *R, int i)
{
    const struct gp_roof *ro = &R->roof[i];
    const struct gp_limits *li = &R->F.row[i].lim;
    const char *lvl = level_label[ro->bound_level];
    double s = ro->bound_share;
    if (s > SHARE_ABOVE)
        say(R, " It runs above that bound: the measured %s ceiling is lower than what this kernel "
               "drew, so the ceiling understates the level (or the counters miss work).", lvl);
    else if (li->limiter != ro->bound_level && li->limiter >= 0)
        say(R, " The limits model names **%s** (allows %s TFLOP/s, reached %s): see the table "
               "below.", lim_label(li->limiter), tf(li->allows), pct(li->share));
    else if (s >= SHARE_LIMITS)
        say(R, " At %s of the bound, %s is what limits it.", pct(s), lvl);
    /* below that, the limiter table gives the evidence (or, without launch facts and
     * stalls, the note of "Limits beyond the roofs" says once that none was collected) */
}

/* The evidence for one verified row: what binds it and by how much. */
static void explain_row(struct rep *R, int i)
{
    const struct gp_result *r = &R->ds->rows[i];
    const struct gp_roof *ro = &R->roof[i];
    if (!roof_row_has_counters(r)) {
        say(R, "Counters were not collected, so nothing is known about its traffic or binding "
               "level: it ran in %s ms, %s TFLOP/s", ms(r->time_median_s), tf(ro->achieved));
        if (!isnan(ro->peak_compute))
            say(R, ", %s of the %s ceiling", pct(ro->achieved / ro->peak_compute), peak_label(ro));
        const int p = gp_precision_parse(r->precision);   /* of cuBLAS in the row's precision */
        int cb = cublas_at(R, i, p < 0 ? GP_FP32 : p);
        if (cb >= 0 && cb != i)
            say(R, ", %s of %s", pct(ro->achieved / R->roof[cb].achieved), p > GP_FP32 ? baseline_name(p) : "cuBLAS");
        say(R, ".\n\n");
        return;
    }
    if (ro->bound_level < 0) {
        say(R, "No ceilings to compare against, so no binding level. It ran at %s TFLOP/s; per FMA "
               "it moved", tf(ro->achieved));
        for (int l = 0; l < GP_LEVEL_COUNT; l++)
            if (!isnan(ro->bytes[l]))
                say(R, " %s B of %s%s", num(bytes_per_fma(ro, l)), level_label[l],
                    l + 1 < GP_LEVEL_COUNT ? "," : "");
        say(R, ".\n\n");
        return;
    }
    if (ro->bound_level == GP_BOUND_COMPUTE) {
        double a;
        int l = runner_up(ro, &a);
        say(R, "**Binding level: compute.** Every memory level allows more than the %s ceiling "
               "of %s TFLOP/s", peak_label(ro), tf(ro->peak_compute));
        if (l >= 0 && l < GP_LEVEL_COUNT)
            say(R, " (the tightest, %s, allows %s TFLOP/s with %s bytes per FMA)", level_label[l],
                tf(a), num(bytes_per_fma(ro, l)));
        say(R, ". It reaches %s TFLOP/s, %s of the ceiling.", tf(ro->achieved), pct(ro->bound_share));
        share_sentence(R, i);
    } else {
        int L = ro->bound_level;
        say(R, "**Binding level: %s.** %s bytes of %s traffic per FMA (AI %s FLOP/byte); at the "
               "measured %s bandwidth of %s that allows %s TFLOP/s; it reaches %s TFLOP/s, %s of "
               "that bound.", level_label[L], num(bytes_per_fma(ro, L)), level_label[L],
            num(ro->ai[L]), level_label[L], bw_str(ro->roof_bw[L]), tf(ro->attainable[L]),
            tf(ro->achieved), pct(ro->bound_share));
        share_sentence(R, i);
        double a;
        int l = runner_up(ro, &a);
        if (l >= 0)
            say(R, " The next-tightest roof is %s at %s TFLOP/s.", level_label[l], tf(a));
        if (L != GP_LEVEL_DRAM && !isnan(mem_roof(ro, GP_LEVEL_DRAM)))
            say(R, " DRAM alone would allow %s TFLOP/s (%s bytes per FMA).",
                tf(mem_roof(ro, GP_LEVEL_DRAM)), num(bytes_per_fma(ro, GP_LEVEL_DRAM)));
    }
    /* shared memory: wavefronts per warp-level FFMA and bank conflicts */
    double wf = val(r->metric[GP_M_smem_ld_wf]), ffma = val(r->metric[GP_M_ffma]);
    const struct gp_row_finding *fi = &R->F.row[i];
    /* per warp FFMA only where FFMAs carry the work (not on the tensor pipe) */
    int ffma_work = !isnan(ffma) && 2.0 * ffma >= 0.5 * ro->flops_analytic;
    if (!isnan(wf) && !isnan(ffma) && ffma > 0) {
        if (wf > 0) {
            if (ffma_work)
                say(R, " Shared memory: %s load wavefronts per warp-level FFMA", num(wf / (ffma / 32.0)));
            else
                say(R, " Shared memory: %s load wavefronts (FFMAs do %s of the FLOPs, so not per "
                       "FFMA)", count_str(wf), pct(2.0 * ffma / ro->flops_analytic));
            if (!isnan(fi->conflict_ratio))
                say(R, "; bank conflicts %s of them (%s)", pct(fi->conflict_ratio),
                    fi->anomalies & GP_ANOM_BANK_CONFLICTS ? "significant" : "negligible");
            say(R, ".");
        } else {
            say(R, " It reads no shared memory (0 load wavefronts).");
        }
    }
    if (fi->anomalies & GP_ANOM_L2_MERGED) {
        double demand = val(r->metric[GP_M_l2_bytes]) + fi->l2_merged_bytes;
        double unit = demand >= 1e10 ? 1e9 : 1e6;
        say(R, " The L2 Request Coalescer merged %s of its L2 demand (%s of %s %s) before the "
               "lookups: the L2 bytes are what remained, and that share moves with how closely the "
               "SMs run in step.",
            pct(fi->l2_merged_ratio), num(fi->l2_merged_bytes / unit), num(demand / unit),
            unit > 1e6 ? "GB" : "MB");
    }
    if (!isnan(ro->flops_counted) && ro->flops_analytic > 0 &&
        fabs(ro->flops_counted / ro->flops_analytic - 1.0) > FLOPS_DIFFER)
        say(R, " The FP32 and tensor counters account for %s of the analytic 2mnk FLOPs; rates "
               "here use the analytic count.", pct(ro->flops_counted / ro->flops_analytic));
    say(R, "\n\n");
}

/* One row of the ladder table: the step from row i to the next variant at its shape. */
/* Why row i is left out of a comparison, in words. */
static const char *left_out_words(const struct rep *R, int i)
{
    const struct gp_result *r = &R->ds->rows[i];
    return !plausible_row(R->ds, i)              ? "is implausible (see the data notes)"
           : r->status == GP_STATUS_VERIFY_FAILED ? "failed verification"
           : r->status == GP_STATUS_OK            ? "has no valid median time"
                                                  : "did not run";
}

static void step_row(struct rep *R, int i)
{
    const struct gp_step_finding *st = &R->F.step[R->F.step_of[i]];
    int j = st->to;
    const struct gp_result *r = &R->ds->rows[i], *q = &R->ds->rows[j];
    say(R, "| %s -> %s | %s |", mdc(r->variant), mdc(q->variant), shape_str(r));
    if (!st->comparable) {
        int bad = !row_ok(R, j) ? j : i;
        say(R, " no comparison: %s %s | | | | | |\n", mdc(R->ds->rows[bad].variant), left_out_words(R, bad));
        return;
    }
    double x = st->speedup;
    say(R, " %sx |", num(x));
    if (st->verdict == GP_STEP_UNKNOWN) {
        say(R, " n/a | time only: counters or ceilings missing | | | |\n");
        return;
    }
    const struct gp_limits *la = &R->F.row[i].lim, *lb = &R->F.row[j].lim;
    say(R, " %sx | ", num(st->predicted));
    if (st->verdict == GP_STEP_EXPLAINED)
        say(R, "explained by the change of limit (spread %s)", pct(st->tolerance));
    else
        say(R, "%s than predicted (spread %s): %s of its limit vs %s",
            st->verdict == GP_STEP_ABOVE ? "gains more" : "gains less", pct(st->tolerance), pct(lb->share),
            pct(la->share));
    say(R, " | ");
    /* the binding level's traffic: the change that can move the limit */
    const struct gp_roof *a = &R->roof[i], *b = &R->roof[j];
    int L = st->binding_level, L2 = st->binding_level_to;
    if (L >= 0 && isfinite(st->binding_factor)) {
        double f = st->binding_factor;
        if (L2 != L)   /* the binding traffic moved to another level: each side's own */
            say(R, "%s %s B -> %s %s B (%s %sx)", level_label[L], num(bytes_per_fma(a, L)), level_label[L2],
                num(bytes_per_fma(b, L2)), f >= 1 ? "cuts" : "raises", num(f >= 1 ? f : 1.0 / f));
        else if (fabs(log(f)) < UNCHANGED)
            say(R, "%s %s B, unchanged", level_label[L], num(bytes_per_fma(b, L)));
        else
            say(R, "%s %s -> %s B (%s %sx)", level_label[L], num(bytes_per_fma(a, L)),
                num(bytes_per_fma(b, L)), f >= 1 ? "cuts" : "raises", num(f >= 1 ? f : 1.0 / f));
    } else {
        say(R, "none (compute-bound)");
    }
    say(R, " | ");
    if (st->moved >= 0 && st->moved != L && fabs(log(st->moved_factor)) >= UNCHANGED)
        say(R, "%s %sx %s", gp_step_counter_name[st->moved],
            num(st->moved_factor >= 1 ? st->moved_factor : 1.0 / st->moved_factor),
            st->moved_factor >= 1 ? "fewer" : "more");
    else
        say(R, "-");
    if (st->limiter_from == st->limiter_to)
        say(R, " | %s on both |\n", lim_label(st->limiter_to));
    else
        say(R, " | %s -> %s |\n", lim_label(st->limiter_from), lim_label(st->limiter_to));
}

/* The ladder step from row i's variant to the next one, at the shape it is explained at,
 * in that variant's section: the step sits with the kernels it compares. */
static void write_step(struct rep *R, int i)
{
    if (R->F.step_of[i] < 0)
        return;
    say(R, "The step to the next variant:\n\n"
           "| step | shape | speedup | predicted | verdict | binding traffic per FMA | counter that "
           "moved most, per FMA | limiter |\n|---|---|---|---|---|---|---|---|\n");
    step_row(R, i);
    say(R, "\n");
}

static void write_variants(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    int *focus_of = malloc(((size_t)R->vars.ngroups + 1) * sizeof *focus_of);
    say(R, "## What limits each variant\n\nEach section ends with the ladder step to the next variant: its "
           "speedup against the one predicted (the ratio of what the two limits allow; \"explained\" only "
           "within the two runs' spread).");
    const int cold = cold_fetch_rows(R);
    if (cold)
        say(R, " In %d row%s below `no_instruction` is among the main stall reasons: it reads high on short "
               "calls, since each counter pass starts a call with its code out of the instruction caches "
               "(docs/counters.md).", cold, cold == 1 ? "" : "s");
    say(R, "\n\n");
    for (int v = 0; v < R->vars.ngroups; v++) {
        int cnt;
        const int *idx = row_group(&R->vars, v, &cnt);
        const char *name = ds->rows[idx[0]].variant, *d = variant_desc(ds, name);
        say(R, "### %s\n\n", mdc(name));
        if (d)
            say(R, "%s.\n\n", mdt(d));
        /* focus: the largest verified shape with counters and a bound, else the largest verified */
        int focus = -1, fbound = 0;
        for (int j = 0; j < cnt; j++) {
            int i = idx[j];
            if (!row_ok(R, i))
                continue;
            int b = R->roof[i].bound_level >= 0;
            if (focus < 0 || b > fbound ||
                (b == fbound && R->roof[i].flops_analytic > R->roof[focus].flops_analytic)) {
                focus = i;
                fbound = b;
            }
        }
        if (focus_of)
            focus_of[v] = focus;
        if (focus < 0) {
            say(R, "No verified row: nothing to say about its performance.\n\n");
            continue;
        }
        /* the verdict first, then the shapes, then the physics behind the verdict */
        write_diagnosis(R, focus);
        say(R, "| shape | TFLOP/s | limiter | allows | share | evidence |\n"
               "|---|---|---|---|---|---|\n");
        int listed = 0;
        for (int j = 0; j < cnt; j++) {
            int i = idx[j];
            const struct gp_result *r = &ds->rows[i];
            if (listed++ == LIST_MAX) {
                say(R, "| ... %d more (see the results by shape) | | | | | |\n", cnt - LIST_MAX);
                break;
            }
            say(R, "| %s |", shape_str(r));
            if (!row_ok(R, i))
                say(R, " **%s** | | | | |\n", r->status == GP_STATUS_VERIFY_FAILED ? "verification failed"
                                              : r->status == GP_STATUS_OK          ? "no valid time"
                                                                                   : gp_status_name(r->status));
            else
                limiter_cells(R, i);
        }
        say(R, "\nWhy, at %s: ", shape_str(&ds->rows[focus]));
        explain_row(R, focus);
        write_step(R, focus);
    }
    free(focus_of);
}

/* The binding level of row i in words, for the claims. */
static const char *bound_words(const struct rep *R, int i)
{
    const struct gp_roof *ro = &R->roof[i];
    char *b = fmt_slot();
    if (!roof_row_has_counters(&R->ds->rows[i]))
        return "no counters";
    if (ro->bound_level < 0)
        return "no ceilings";
    snprintf(b, 64, "%s-bound, %s of that bound", level_adj[ro->bound_level], pct(ro->bound_share));
    return b;
}

static void write_claims(struct rep *R)
{
    const struct gp_claims *c = &R->claims;
    const struct gp_claim_spec *sp = c->spec;
    const char *base = mdt(sp->base), *impr = mdt(sp->improved);
    say(R, "## The seed's claims, checked\n\n");
    say(R, "The seed tutorial (measured on an RTX 4090) says the %s kernel is %g-%gx faster "
           "than the %s one at", impr, sp->speedup_lo, sp->speedup_hi, base);
    for (int s = 0; s < sp->nsizes; s++)
        say(R, "%s%ld", s == 0 ? " " : s + 1 == sp->nsizes ? " and " : ", ", sp->sizes[s]);
    say(R, ", that the gap widens with size, that the %s kernel is bandwidth-bound, and that it "
           "runs at ~%g%% of peak FLOPs.\n\n", base, 100 * sp->peak_share);

    say(R, "**%s to %s speedup.**\n\n", mdt(sp->base), mdt(sp->improved));
    for (int s = 0; s < sp->nsizes; s++) {
        const struct gp_speedup_check *k = &c->speedup[s];
        long n = k->n;
        if (k->outcome == GP_CLAIM_NOT_MEASURED) {
            if (k->base_row < 0 && k->improved_row < 0)
                say(R, "- %ld^3: not measured (no %s or %s row); run with a %ld size to check.\n", n,
                    base, impr, n);
            else
                say(R, "- %ld^3: not measured (no %s row); run with a %ld size to check.\n", n,
                    k->base_row < 0 ? base : impr, n);
            continue;
        }
        if (k->outcome == GP_CLAIM_NOT_VERIFIED) {
            say(R, "- %ld^3: not checked: %s %s.\n", n, k->bad_row == k->base_row ? base : impr,
                !plausible_row(R->ds, k->bad_row) ? "is implausible (see the data notes)"
                : R->ds->rows[k->bad_row].status == GP_STATUS_OK
                    ? "has no valid median time (missing, not finite or not positive)"
                    : "did not produce a verified result");
            continue;
        }
        int a = k->base_row, b = k->improved_row;
        say(R, "- %ld^3: %s %s ms, %s %s ms: %s is **%sx** faster; the claim **%s**.", n, base,
            ms(R->ds->rows[a].time_median_s), impr, ms(R->ds->rows[b].time_median_s), impr, num(k->ratio),
            k->outcome == GP_CLAIM_FAILS ? "does not hold" : k->outcome == GP_CLAIM_HOLDS ? "holds"
                                                                                         : "holds (exceeded)");
        const struct gp_roof *ra = &R->roof[a], *rb = &R->roof[b];
        if (!isnan(k->predicted)) {
            say(R, " From the counters: %s is %s-bound (allows %s TFLOP/s, reaches %s), %s is "
                   "%s-bound (allows %s TFLOP/s, reaches %s); the bounds differ by %sx",
                base, level_adj[ra->bound_level], tf(ra->bound_attainable), pct(ra->bound_share),
                impr, level_adj[rb->bound_level], tf(rb->bound_attainable), pct(rb->bound_share),
                num(k->predicted));
            if (k->explained)
                say(R, ", which accounts for the measured %sx.", num(k->ratio));
            else
                say(R, ", against %sx measured: the bounds %s the step.", num(k->ratio),
                    k->ratio > k->predicted ? "under-predict" : "over-predict");
            if (k->ratio < sp->speedup_lo && k->predicted < sp->speedup_lo)
                say(R, " A %g-%gx gain would need the %s kernel's bound to sit %g-%gx above "
                       "%s's; it sits %sx above.", sp->speedup_lo, sp->speedup_hi, impr,
                    sp->speedup_lo, sp->speedup_hi, base, num(k->predicted));
        } else {
            say(R, " Counters or ceilings are missing (%s: %s; %s: %s), so no reason from the "
                   "counters.", base, bound_words(R, a), impr, bound_words(R, b));
        }
        say(R, "\n");
    }
    if (c->gap_known) {
        double g = c->gap_growth;
        say(R, "- The gap at %ld vs %ld: %sx vs %sx, so it %s.\n", sp->sizes[1], sp->sizes[0],
            num(c->speedup[1].ratio), num(c->speedup[0].ratio),
            g > 1.05 ? "widens, as claimed" : g < 1 / 1.05 ? "narrows, against the claim"
                                                          : "stays the same within 5%, against the claim");
    }
    if (c->nsweep > 2) {   /* the two sizes of the claim need not be the whole story */
        say(R, "- Over the whole sweep: ");
        for (int k = 0; k < c->nsweep; k++)
            say(R, "%s%sx at %ld", k ? ", " : "", num(c->sweep[k].ratio), c->sweep[k].n);
        double g = c->sweep[c->nsweep - 1].ratio / c->sweep[0].ratio;
        say(R, ": from %ld to %ld the gap %s (%sx).\n", c->sweep[0].n, c->sweep[c->nsweep - 1].n,
            g > 1.05 ? "widens" : g < 1 / 1.05 ? "narrows" : "stays within 5%", num(g));
    }
    say(R, "\n");

    say(R, "**\"%s is bandwidth-bound\" and \"~%g%% of peak\".**\n\n", mdt(sp->base), 100 * sp->peak_share);
    for (int k = 0; k < c->nbw; k++) {
        const struct gp_bandwidth_check *b = &c->bw[k];
        const struct gp_result *r = &R->ds->rows[b->row];
        const struct gp_roof *ro = &R->roof[b->row];
        if (!b->usable) {
            say(R, "- %s: %s.\n", shape_str(r), plausible_row(R->ds, b->row) ? "no verified result with a valid time"
                                                                        : "implausible (see the data notes), not checked");
            continue;
        }
        say(R, "- %s: ", shape_str(r));
        if (b->outcome == GP_BW_UNKNOWN) {
            say(R, "%s, so the binding level is unknown", bound_words(R, b->row));
        } else if (b->outcome == GP_BW_COMPUTE) {
            say(R, "the claim **does not hold**: compute binds (%s of the %s ceiling)",
                pct(ro->bound_share), peak_label(ro));
        } else {
            int L = ro->bound_level;
            say(R, "bandwidth-bound **%s**: by %s, at %s of that roof (%s TFLOP/s allowed)",
                b->outcome == GP_BW_DRAM ? "as claimed, by DRAM" : "yes, but not by DRAM",
                level_label[L], pct(ro->bound_share), tf(ro->bound_attainable));
            if (!isnan(b->dram_allows))
                say(R, "; DRAM alone would allow %s TFLOP/s, %sx what it reaches, and its DRAM "
                       "traffic ran at %s, %s of the measured DRAM bandwidth",
                    tf(b->dram_allows), num(b->dram_allows / ro->achieved), bw_str(b->dram_bw),
                    pct(b->dram_bw / ro->roof_bw[GP_LEVEL_DRAM]));
        }
        if (b->peak_outcome != GP_CLAIM_NOT_MEASURED)
            say(R, "; it runs at %s of the %s ceiling (claim ~%g%%: %s, %sx the claim)", pct(b->peak_share),
                peak_label(ro), 100 * sp->peak_share,
                b->peak_outcome == GP_CLAIM_HOLDS ? "holds" : "does not hold", num(b->peak_factor));
        say(R, ".\n");
    }
    if (c->nbase > c->nbw)
        say(R, "- ... further %s rows are in the results by shape.\n", mdc(sp->base));
    if (!c->nbase)
        say(R, "Not checked: the data has no %s rows.\n", mdc(sp->base));
    say(R, "\n");
}

/* The directory part of `path` ("." when it has none, "/" for "/x"). */
static void dir_of(char *out, size_t len, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, len, ".");
    else if (slash == path)
        snprintf(out, len, "/");
    else
        snprintf(out, len, "%.*s", (int)(slash - path), path);
}

/* Copies of the inputs with every value that is not finite, or is negative (zero, too,
 * where it must be positive), made NaN: what roof_derive and the sentences then see as
 * missing. Returns how many values were dropped. */
static void write_fleet(struct rep *R);   /* below, beside the fleet analysis */
static void write_summary(struct rep *R); /* below */

int report_write(const struct gp_dataset *ds, const char *out_path, int recorded_elsewhere,
                 const struct plots_outcome *charts, char *err, size_t errlen)
{
    size_t n = (size_t)(ds->nrows > 0 ? ds->nrows : 0) + 1;
    struct rep R;
    memset(&R, 0, sizeof R);
    R.ds = ds;
    R.charts = charts;
    R.roof = calloc(n, sizeof *R.roof);
    R.usable = calloc(n, 1);
    int ok = R.roof && R.usable && row_groups_build(ds->rows, ds->nrows, ROW_KEY_SHAPE, &R.shapes) == 0 &&
             row_groups_build(ds->rows, ds->nrows, ROW_KEY_VARIANT, &R.vars) == 0 &&
             (R.base_at[0] = malloc((size_t)GP_PRECISION_COUNT * ((size_t)R.shapes.ngroups + 1) * sizeof(int)));
    int rc = -1;
    if (!ok) {
        snprintf(err, errlen, "%s: out of memory for %d rows", out_path, ds->nrows);
        goto out;
    }
    R.n_bad_values = roof_derive_rows(ds, R.roof, R.usable, &R.n_bad_time, &R.cs);
    for (int p = 1; p < GP_PRECISION_COUNT; p++)
        R.base_at[p] = R.base_at[0] + (size_t)p * ((size_t)R.shapes.ngroups + 1);
    for (int g = 0; g < R.shapes.ngroups; g++) {
        int cnt;
        const int *idx = row_group(&R.shapes, g, &cnt);
        for (int p = 0; p < GP_PRECISION_COUNT; p++) {
            R.base_at[p][g] = -1;
            for (int j = cnt - 1; j >= 0; j--)   /* backwards: the first such row wins */
                if (row_ok(&R, idx[j]) && strcmp(ds->rows[idx[j]].variant, baseline_name(p)) == 0)
                    R.base_at[p][g] = idx[j];
        }
    }
    if (findings_build(ds, R.roof, R.usable, &R.F)) {
        snprintf(err, errlen, "%s: out of memory for %d rows", out_path, ds->nrows);
        goto out;
    }
    claims_check(ds, R.roof, R.usable, &gp_seed_claims, &R.claims);
    /* the per-shape tables and the share histogram go to a second file beside the report
     * (report.md -> report-detail.md), so that report.md reads in minutes */
    char detail_path[4096];
    size_t ol = strlen(out_path);
    int md = ol > 3 && strcmp(out_path + ol - 3, ".md") == 0;
    if (snprintf(detail_path, sizeof detail_path, "%.*s-detail.md", (int)(md ? ol - 3 : ol), out_path) >=
        (int)sizeof detail_path) {
        snprintf(err, errlen, "%s: path too long for its detail file", out_path);
        goto out;
    }
    const char *slash = strrchr(detail_path, '/');
    R.detail_name = slash ? slash + 1 : detail_path;
    struct atomic_file out, detail;
    R.f = atomic_open(&out, out_path, err, errlen);
    if (!R.f)
        goto out;
    FILE *main_f = R.f, *detail_f = atomic_open(&detail, detail_path, err, errlen);
    if (!detail_f) {
        atomic_abort(&out);
        goto out;
    }
    write_header(&R, recorded_elsewhere);
    write_summary(&R);
    write_data_notes(&R);
    write_machine(&R);
    write_ceilings(&R);
    write_fleet(&R);
    write_claims(&R);
    write_charts(&R);
    write_variants(&R);
    R.f = detail_f;
    const char *main_slash = strrchr(out_path, '/'), *main_name = main_slash ? main_slash + 1 : out_path;
    say(&R, "# gemmprof report: the detail\n\nEvery shape's table and the limits model's share "
            "distribution for %s; the report itself is [%s](%s).\n\n", mdc(ds->dir), main_name, main_name);
    write_shape_tables(&R);
    write_limits(&R);
    R.f = main_f;
    if (atomic_commit(&detail, err, errlen)) {
        atomic_abort(&out);
        goto out;
    }
    rc = atomic_commit(&out, err, errlen);
out:
    findings_free(&R.F);
    free(R.roof);
    free(R.usable);
    free(R.base_at[0]);
    row_groups_free(&R.shapes);
    row_groups_free(&R.vars);
    return rc;
}

/* ---- the summary: the first screen ---- */

/* The shape the summary speaks of: the largest square one with a cuBLAS SGEMM row, else
 * the one with the most usable rows. -1 without usable rows. */
static int summary_shape(const struct rep *R)
{
    int best = -1, best_rows = 0;
    double best_w = -1;
    for (int g = 0; g < R->shapes.ngroups; g++) {
        int cnt, rows = 0;
        const int *idx = row_group(&R->shapes, g, &cnt);
        for (int j = 0; j < cnt; j++)
            rows += row_ok(R, idx[j]);
        if (!rows)
            continue;
        const struct gp_result *r = &R->ds->rows[idx[0]];
        int square_cublas = r->m == r->n && r->n == r->k && R->base_at[GP_FP32][g] >= 0;
        double w = square_cublas ? (double)r->m * r->n * r->k : -1;
        if (best < 0 || w > best_w || (w == best_w && rows > best_rows)) {
            best = g;
            best_w = w;
            best_rows = rows;
        }
    }
    return best;
}

/* Row i's top finding in words, short: a cause with its estimated speedup, or the roof. */
static const char *top_words(struct rep *R, int i, struct gp_diagnosis *d)
{
    diagnose_dataset_row(R->ds, i, &R->roof[i], &R->F.row[i].lim, d);
    char *b = fmt_slot();
    if (!d->top_is_roof)
        snprintf(b, 64, "%s (about %sx)", gp_rules[d->cause[0].rule].id, num(d->cause[0].speedup));
    else if (d->roof >= 0 && latency_stall(&R->F.row[i].lim) >= 0)
        snprintf(b, 64, "latency (%s), at %s", limits_stall_name(latency_stall(&R->F.row[i].lim)),
                 pct(R->F.row[i].lim.share));
    else if (d->roof >= 0)
        snprintf(b, 64, "%s roof, at %s", lim_label(d->roof), pct(d->roof_share));
    else
        snprintf(b, 64, "no counters");
    return b;
}

/* The first screen answers the three questions a reader comes with: the seed's (why tiled
 * is only a little faster than naive here), the ladder, and what limits the best kernels
 * and what to change next; every number from this run (tests/host/test_summary_facts.sh
 * recomputes them from results.csv). */
static void write_summary(struct rep *R)
{
    int g = summary_shape(R);
    if (g < 0)
        return;
    const struct gp_dataset *ds = R->ds;
    int cnt;
    const int *idx = row_group(&R->shapes, g, &cnt);
    say(R, "## Summary\n\n");
    /* the seed's question, at the largest size the claim was checked at */
    const struct gp_claims *c = &R->claims;
    for (int k = c->spec->nsizes - 1; k >= 0; k--) {
        const struct gp_speedup_check *sc = &c->speedup[k];
        if (!(sc->ratio > 0) || sc->base_row < 0 || sc->improved_row < 0)
            continue;
        const struct gp_roof *a = &R->roof[sc->base_row], *b = &R->roof[sc->improved_row];
        int la = a->bound_level, lb = b->bound_level;
        say(R, "**Why %s is only %sx faster than %s at %ld^3** (the seed says %g-%gx): ", c->spec->improved,
            num(sc->ratio), c->spec->base, sc->n, c->spec->speedup_lo, c->spec->speedup_hi);
        if (la >= 0 && la < GP_LEVEL_COUNT && lb >= 0 && lb < GP_LEVEL_COUNT) {
            say(R, "%s is bound by %s (%s B per FMA at %s, %s of that roof); %s is bound by %s (%s B per FMA "
                   "at %s, %s of it). ",
                c->spec->base, level_label[la], num(bytes_per_fma(a, la)), bw_str(a->roof_bw[la]), pct(a->bound_share),
                c->spec->improved, level_label[lb], num(bytes_per_fma(b, lb)), bw_str(b->roof_bw[lb]),
                pct(b->bound_share));
            double bw = b->roof_bw[lb] / a->roof_bw[la];
            if (la != lb && bw > 0.8 && bw < 1.25)
                say(R, "Tiling moved the traffic from %s to %s, which this GPU serves at nearly the same "
                       "bandwidth (%sx), and cut it only %sx per FMA: the bounds differ by %sx. What pays is "
                       "register tiling: each value a thread loads feeds several FMAs.",
                    level_label[la], level_label[lb], num(bw), num(bytes_per_fma(a, la) / bytes_per_fma(b, lb)),
                    num(b->bound_attainable / a->bound_attainable));
            else
                say(R, "The bounds differ by %sx.", num(b->bound_attainable / a->bound_attainable));
        }
        say(R, "\n\n");
        break;
    }
    /* the ladder at one shape */
    const struct gp_result *r0 = &ds->rows[idx[0]];
    say(R, "**The ladder at %s** (%% of cuBLAS: of cuBLAS SGEMM for FP32 rows, of cuBLAS in the row's "
           "precision for TF32, BF16 and FP16 ones; the top finding is the diagnosis, [What limits each variant](#what-limits-each-variant)):\n\n"
           "| variant | precision | TFLOP/s | %% of cuBLAS | x the row above | top finding |\n|---|---|---|---|---|---|\n",
        shape_str(r0));
    double prev = NAN;
    int best_fp32 = -1, best_tf32 = -1;
    struct gp_diagnosis d;
    struct { int row; double speedup; int rule; } next[3] = {{-1, 0, -1}, {-1, 0, -1}, {-1, 0, -1}};
    for (int j = 0; j < cnt; j++) {
        int i = idx[j];
        if (!row_ok(R, i))
            continue;
        const struct gp_result *r = &ds->rows[i];
        /* by precision: 3xTF32 runs on the tensor cores but is FP32 by accuracy */
        const int prec = gp_precision_parse(r->precision);
        int cb = cublas_at(R, i, prec < 0 ? GP_FP32 : prec);
        double ach = R->roof[i].achieved;
        const char *top = top_words(R, i, &d);
        say(R, "| `%s` | %s | %s | %s | %s | %s |\n", mdt(r->variant), mdt(r->precision), tf(ach),
            cb >= 0 && cb != i ? pct(ach / R->roof[cb].achieved) : "-", isfinite(prev) ? num(ach / prev) : "-", top);
        prev = ach;
        int is_lib = strncmp(r->variant, "cublas", 6) == 0;
        int *best = R->roof[i].compute_path == GP_PATH_TENSOR ? &best_tf32 : &best_fp32;
        if (!is_lib && (*best < 0 || ach > R->roof[*best].achieved))
            *best = i;
        for (int k = 0; k < d.ncauses; k++) {   /* the three largest gains at this shape */
            int at = 3;
            while (at > 0 && d.cause[k].speedup > next[at - 1].speedup)
                at--;
            if (at < 3) {
                memmove(&next[at + 1], &next[at], (size_t)(2 - at) * sizeof next[0]);
                next[at].row = i;
                next[at].speedup = d.cause[k].speedup;
                next[at].rule = d.cause[k].rule;
            }
        }
    }
    say(R, "\n**What limits the best hand-written kernels:** ");
    int any = 0;
    for (int t = 0; t < 2; t++) {
        int i = t ? best_tf32 : best_fp32;
        if (i < 0)
            continue;
        top_words(R, i, &d);
        say(R, "%s`%s` (%s TFLOP/s) is ", any++ ? "; " : "", mdt(ds->rows[i].variant), tf(R->roof[i].achieved));
        if (d.top_is_roof)
            say(R, "bound by %s at %s of that roof", lim_label(d.roof), pct(d.roof_share));
        else
            say(R, "held back by %s (about %sx to gain)", gp_rules[d.cause[0].rule].id, num(d.cause[0].speedup));
    }
    say(R, "%s.\n\n**The most valuable next changes at %s:** ", any ? "" : "none measured", shape_str(r0));
    if (next[0].row < 0)
        say(R, "no cause the counters show would buy 5%% or more; every row is at its roof's mercy.");
    for (int k = 0; k < 3 && next[k].row >= 0; k++)
        say(R, "%s%d. `%s`: %s, about %sx (%s)", k ? "; " : "", k + 1, mdt(ds->rows[next[k].row].variant),
            gp_rules[next[k].rule].fix, num(next[k].speedup), gp_rules[next[k].rule].id);
    say(R, "%s\n\n", next[0].row >= 0 ? "." : "");
    /* the physical story, the same words as the README's block (analysis/story.h) */
    const struct story_input si = {ds, R->roof, R->usable, ds->have_ceilings ? &R->cs : NULL, idx, cnt};
    char story[4096];
    if (story_register_tiling(&si, story, sizeof story) == 0)
        say(R, "%s\n\n", story);
    if (story_tensor(&si, story, sizeof story) == 0)
        say(R, "%s\n\n", story);
    say(R, "Below: the machine, the ceilings, the seed's claims in full, the charts, each variant's "
           "diagnosis and the ladder's steps; every shape's table and the limits model's share distribution "
           "are in [%s](%s).\n\n", R->detail_name, R->detail_name);
}

/* ---- the fleet check (a merged --fleet run, analysis/fleet.h) ---- */

static const char *gpu_label(const struct fleet_gpu *G)
{
    char *b = fmt_slot();
    snprintf(b, 64, "%.22s %.40s", G->host[0] ? G->host : "?", G->uuid[0] ? G->uuid : "?");   /* a UUID is 40 */
    return b;
}

/* Rendered for a merged dataset in fleet mode, or one of another mode whose rows come from
 * two or more GPUs that ran the same variant x shape; never for a shard run. */
static void write_fleet(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    char p[700];
    struct merge_rank_keys keys;
    snprintf(p, sizeof p, "%s/results.json", ds->dir);
    merge_read_rank_keys(p, &keys);
    if (keys.nmerged >= 0) {
        say(R, "## Merged ranks\n\nMerged by `gemmprof merge` from %d rank director%s (mode %s).", keys.nmerged,
            keys.nmerged == 1 ? "y" : "ies", mdc(keys.mode));
        if (keys.nmissing > 0)
            say(R, " **%d rank%s missing** (rank %s): %s rows are absent from every table below; "
                   "results.json's `merge.ranks_missing` says why.\n\n",
                keys.nmissing, keys.nmissing == 1 ? " is" : "s are", mdt(keys.missing),
                keys.nmissing == 1 ? "its" : "their");
        else
            say(R, " No rank is missing.\n\n");
    }
    if (strcmp(keys.mode, "shard") == 0)
        return;
    /* the fleet compares plausible rows only: one impossible time would move a GPU's median */
    struct gp_result *rows = ds->rows;
    int nrows = ds->nrows;
    if (ds->n_implausible_rows) {
        if (!(rows = malloc((size_t)ds->nrows * sizeof *rows)))
            return;
        nrows = 0;
        for (int i = 0; i < ds->nrows; i++)
            if (plausible_row(ds, i))
                rows[nrows++] = ds->rows[i];
    }
    struct fleet fl;
    int failed = fleet_analyze(rows, nrows, &fl);
    if (rows != ds->rows)
        free(rows);
    if (failed)
        return;
    int compared = 0;
    for (int g = 0; g < fl.ngpus; g++)
        compared += fl.gpu[g].ncompared > 0;
    if (fl.ngpus < 2 || (strcmp(keys.mode, "fleet") != 0 && compared < 2)) {
        fleet_free(&fl);
        return;
    }
    say(R, "## Fleet: each GPU against the fleet median\n\n");
    say(R, "%d GPUs ran the same sweep. For every variant x shape that two or more GPUs measured, "
           "each GPU's TFLOP/s is divided by the fleet median there; a GPU's ratio is the median "
           "of those. **Noise band:** a GPU is flagged when its ratio lies more than "
           "max(%s, %g x the other GPUs' median time spread) below 1 (its own spread does not widen "
           "its band: a GPU shared with another process is both slow and noisy; it is marked noisy "
           "when %g x its own spread exceeds the band). The clock and counters "
           "compared are `sm_clock_hz` and the SM-clock, DRAM-clock, DRAM-throughput, issue-active and "
           "SM-throughput counters, each against its fleet median at the same rows; the one that "
           "moved most (at least %s) is named.%s\n\n",
        fl.ngpus, pct(FLEET_BAND_MIN), FLEET_BAND_SPREADS, FLEET_BAND_SPREADS, pct(FLEET_CAUSE_MIN),
        fl.ngpus == 2 ? " With two GPUs the median is their mean: a GPU 10% slower than the other "
                        "reads about 5% below the median." : "");
    say(R, "| GPU (host, UUID) | rank | rows compared | vs fleet median | noise band | own spread | SM clock | "
           "flagged | differs most |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int g = 0; g < fl.ngpus; g++) {
        const struct fleet_gpu *G = &fl.gpu[g];
        char dev[160] = "none past the threshold";
        if (G->cause[0])
            snprintf(dev, sizeof dev, "%s %s%s", mdc(G->cause), G->cause_dev >= 0 ? "+" : "-",
                     pct(fabs(G->cause_dev)));
        const char *flag = G->flagged ? (G->noisy ? "**SLOW**, noisy" : "**SLOW**") : G->noisy ? "noisy" : "no";
        say(R, "| %s | %s | %d of %d | %s | %s | %s | %s | %s | %s |\n", mdt(gpu_label(G)),
            mdt(G->rank[0] ? G->rank : "?"), G->ncompared, G->nrows, pct(G->ratio), pct(G->band), pct(G->spread),
            hz_str(G->sm_clock_hz), flag, dev);
    }
    say(R, "\n");
    if (fl.nflagged == 0)
        say(R, "No GPU lies below the noise band.\n\n");
    for (int g = 0; g < fl.ngpus; g++) {
        const struct fleet_gpu *G = &fl.gpu[g];
        if (!G->flagged)
            continue;
        say(R, "- **%s is slow**: its rows run at %s of the fleet median, outside its band of %s.",
            mdt(gpu_label(G)), pct(G->ratio), pct(G->band));
        if (G->noisy)
            say(R, " Its own rows vary by %s (median spread) against the band's %s: something else "
                   "ran on it, or its clock moved, during the run.", pct(G->spread), pct(G->band));
        if (G->cause[0])
            say(R, " Evidence: %s is %s %s the fleet median at the same rows, the largest deviation "
                   "of the clock and counters compared.\n", mdc(G->cause), pct(fabs(G->cause_dev)),
                G->cause_dev < 0 ? "below" : "above");
        else
            say(R, " No clock or counter compared differs by %s or more: the cause is not in this data.\n",
                pct(FLEET_CAUSE_MIN));
    }
    if (fl.nflagged)
        say(R, "\n");
    /* per GPU ceilings: the files merge wrote, one per GPU */
    say(R, "### Ceilings per GPU (measured)\n\n| GPU |");
    for (int c = 0; c < GP_CEIL_COUNT; c++)
        say(R, " %s |", gp_ceiling_info[c].label);
    say(R, "\n|---|");
    for (int c = 0; c < GP_CEIL_COUNT; c++)
        say(R, "---|");
    say(R, "\n");
    for (int g = 0; g < fl.ngpus; g++) {
        const struct fleet_gpu *G = &fl.gpu[g];
        char h[64], u[64], e[512];
        struct gp_ceilings cs;
        merge_safe_name(h, sizeof h, G->host);
        merge_safe_name(u, sizeof u, G->uuid);
        snprintf(p, sizeof p, "%s/ceilings-%s-%s.csv", ds->dir, h, u);
        int have = ceilings_read_csv(p, &cs, e, sizeof e) == 0;
        say(R, "| %s |", mdt(gpu_label(G)));
        for (int c = 0; c < GP_CEIL_COUNT; c++) {
            double v = have ? posval(cs.c[c].measured) : NAN;
            say(R, " %s |", gp_ceiling_info[c].kind == GP_CEIL_BANDWIDTH ? bw_str(v)
                            : isnan(v) ? "n/a" : tf(v));
        }
        say(R, "\n");
    }
    say(R, "\nCompute ceilings in TFLOP/s. n/a: no ceilings-HOST-UUID.csv for that GPU in this "
           "directory (gemmprof merge writes one per rank that measured ceilings).\n\n");
    /* each variant's TFLOP/s against the fleet median, per GPU */
    say(R, "### Each variant against the fleet median\n\nTFLOP/s at the variant's largest shape; "
           "the ratio is the median over all its shapes.\n\n");
    for (int g = 0; g < fl.ngpus; g++) {
        const struct fleet_gpu *G = &fl.gpu[g];
        say(R, "**%s** (rank %s)\n\n| variant | shape | TFLOP/s | fleet median | vs median |\n"
               "|---|---|---|---|---|\n", mdt(gpu_label(G)), mdt(G->rank[0] ? G->rank : "?"));
        for (int v = 0; v < G->nvariants; v++) {
            const struct fleet_variant *V = &G->v[v];
            say(R, "| %s | %ldx%ldx%ld | %s | %s | %s |\n", mdc(V->variant), V->m, V->n, V->k,
                tf(V->flop_per_s), tf(V->fleet_median), pct(V->ratio));
        }
        say(R, "\n");
    }
    fleet_free(&fl);
}

/* ---- rendering a results directory ---- */

int report_render(const char *dir, const struct report_options *opt)
{
    const char *out = opt->out;
    const int no_plots = opt->no_plots;
    struct plots_options popt = {NULL, opt->max_shape_charts};

    /* --out: a directory gets report.md inside: an existing one, one named with a trailing
     * '/', or a missing path that does not end in ".md" (created) */
    char out_path[2048], out_dir[2048];
    struct stat st;
    const char *base = out ? out : dir;
    size_t bl = strlen(base);
    const int exists = out && stat(out, &st) == 0;
    const int md_name = bl > 3 && strcmp(base + bl - 3, ".md") == 0;
    int is_dir = !out || (exists && S_ISDIR(st.st_mode)) || (bl && base[bl - 1] == '/') || (!exists && !md_name);
    int cut;
    if (is_dir) {
        cut = (size_t)snprintf(out_dir, sizeof out_dir, "%s", base) >= sizeof out_dir ||
              (size_t)snprintf(out_path, sizeof out_path, "%s%sreport.md", base,
                               bl && base[bl - 1] == '/' ? "" : "/") >= sizeof out_path;
    } else {
        cut = (size_t)snprintf(out_path, sizeof out_path, "%s", base) >= sizeof out_path;
        if (!cut)
            dir_of(out_dir, sizeof out_dir, base);
    }
    if (cut) {
        /* a cut name would write somewhere else than asked */
        fprintf(stderr, "gemmprof report: output path '%.60s...' is longer than the %zu-byte limit\n",
                base, sizeof out_path - 1 - (is_dir ? strlen("/report.md") : 0));
        return 1;
    }
    char err[4096];
    if (out && is_dir && mkdir_p(out_dir) != 0) {
        fprintf(stderr, "gemmprof report: --out: cannot create directory '%.200s': %s\n", out_dir, strerror(errno));
        return 1;
    }
    if (atomic_target_ok(out_path, err, sizeof err)) {
        fprintf(stderr, "gemmprof report: %s\n", err);
        return 1;
    }

    struct gp_dataset *ds = malloc(sizeof *ds);
    struct plots_outcome *po = calloc(1, sizeof *po);
    if (!ds || !po) {
        fprintf(stderr, "gemmprof report: out of memory\n");
        free(ds);
        free(po);
        return 1;
    }
    if (dataset_load_opts(dir, opt->load_flags, ds, err, sizeof err)) {
        fprintf(stderr, "gemmprof report: %s\n", err);
        free(ds);
        free(po);
        return 1;
    }
    for (const char *s = ds->warnings; *s;) {
        const char *e = strchr(s, '\n');
        int n = e ? (int)(e - s) : (int)strlen(s);
        fprintf(stderr, "gemmprof report: warning: %.*s\n", n, s);
        s += n + (e != NULL);
    }
    if (ds->n_implausible_rows || ds->n_implausible_ceilings)
        fprintf(stderr, "gemmprof report: warning: %d implausible row%s and %d implausible ceiling%s left out of "
                "every verdict (report.md's data notes say which and why)\n", ds->n_implausible_rows,
                ds->n_implausible_rows == 1 ? "" : "s", ds->n_implausible_ceilings,
                ds->n_implausible_ceilings == 1 ? "" : "s");
    int rc = 1;
    if (is_dir && stat(out_dir, &st) != 0) {
        fprintf(stderr, "gemmprof report: output directory '%s' does not exist\n", out_dir);
        goto out;
    }
    if (no_plots) {
        snprintf(po->notes, sizeof po->notes, "--no-plots");
    } else if (plots_render_ex(ds, out_dir, &popt, po, err, sizeof err) < 0) {
        /* charts are optional: without gnuplot the report still comes, noting their absence */
        fprintf(stderr, "gemmprof report: charts not rendered: %s\n", err);
        memset(po, 0, sizeof *po);
        snprintf(po->notes, sizeof po->notes, "%.1000s", err);
    } else {
        for (int i = 0; i < po->ncharts; i++)
            if (!po->chart[i].rendered)
                fprintf(stderr, "gemmprof report: chart %s FAILED: %s\n", po->chart[i].name,
                        po->chart[i].why);
        if (po->shapes_left_out)
            fprintf(stderr, "gemmprof report: charts: hierarchical rooflines for %d of %d shapes with "
                    "counters, %d left out (--max-shape-charts raises the bound of %d)\n",
                    po->shapes_with_counters - po->shapes_left_out, po->shapes_with_counters,
                    po->shapes_left_out, po->max_shape_charts);
        if (po->notes[0])
            fprintf(stderr, "gemmprof report: charts: %s\n", po->notes);
    }
    if (report_write(ds, out_path, !opt->measured_here, po, err, sizeof err)) {
        fprintf(stderr, "gemmprof report: %s\n", err);
        goto out;
    }
    fprintf(opt->path_to, "%s\n", out_path);
    if (po->failed)
        fprintf(stderr, "gemmprof report: %d chart%s failed; the report says which and links only "
                "the charts rendered now\n", po->failed, po->failed == 1 ? "" : "s");
    rc = po->failed ? 1 : 0;
out:
    dataset_free(ds);
    free(ds);
    free(po);
    return rc;
}

/* report.md: the performance report of one results directory, written from the loaded
 * rows, ceilings and metadata. Every sentence that draws a conclusion is chosen by
 * comparing numbers from the data against the thresholds below, and every number it
 * prints is a CSV value or a ratio of CSV values (via roof_derive), so the text reads
 * differently for different data. Rows that failed verification are listed up front
 * and never enter a performance statement; rows without counters get time-only text.
 *   gemmprof report DIR [--out FILE_OR_DIR] [--no-plots]      (report_main) */
#include "analysis/report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "analysis/roofline.h"

/* Thresholds that turn numbers into words. */
#define SHARE_ABOVE   1.05   /* achieved above the bound by more than noise */
#define SHARE_LIMITS  0.80   /* at or above: the binding level is what limits it */
#define SHARE_PARTLY  0.50   /* at or above: the roof binds, other costs take a share */
#define STEP_AGREES   1.25   /* measured vs predicted speedup within this factor: "explained" */
#define STEP_SHARE_SAME 1.10 /* share of the bound changes by less: the bound alone explains a step */
#define CONFLICT_SIG  0.10   /* bank-conflict wavefronts / wavefronts worth a remark */
#define FLOPS_DIFFER  0.02   /* counted vs analytic FLOPs worth a remark */

/* The seed document's claims (an RTX 4090 tutorial), checked against the data. */
#define SEED_SPEEDUP_LO  5.0
#define SEED_SPEEDUP_HI  10.0
#define SEED_PEAK_SHARE  0.05   /* "runs at ~5% of peak FLOPs" */
#define SEED_PEAK_CLOSE  1.5    /* within this factor of it, "~5%" holds */
static const long seed_sizes[] = {1024, 2048};

static const char *const level_label[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "shared memory",
                                                            "compute"};
static const char *const level_cap[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "Shared memory",
                                                          "Compute"};
static const char *const level_adj[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "shared-memory",
                                                          "compute"};   /* "<adj>-bound" */

/* The variants' one-line descriptions, from the registry's data file. */
struct variant_desc { const char *name, *desc; };
static const struct variant_desc variant_descs[] = {
#define GEMM_VARIANT(name, prec, tol, desc) {#name, desc},
#include "kernels/variants.def"
#undef GEMM_VARIANT
};

struct rep {
    FILE *f;
    const struct gp_dataset *ds;
    struct gp_roof *roof;   /* one per row */
    const char *outdir;
};

/* ---- number formatting: 3 significant digits, results kept in a small ring ---- */

static char fmt_ring[48][64];
static int fmt_next;

static char *fmt_slot(void) { return fmt_ring[fmt_next++ % 48]; }

static const char *num(double v)
{
    if (isnan(v))
        return "n/a";
    if (isinf(v))
        return v > 0 ? "inf" : "-inf";
    char *b = fmt_slot();
    if (v == 0) {
        strcpy(b, "0");
        return b;
    }
    int mag = (int)floor(log10(fabs(v)));
    double unit = pow(10.0, mag - 2);
    double r = round(v / unit) * unit;   /* round first so 9.996 prints 10.0, not 10.00 */
    mag = (int)floor(log10(fabs(r)));
    if (mag >= 7 || mag < -4)
        snprintf(b, 64, "%.2e", r);
    else
        snprintf(b, 64, "%.*f", mag >= 2 ? 0 : 2 - mag, r);
    return b;
}

static const char *pct(double frac)
{
    if (isnan(frac))
        return "n/a";
    char *b = fmt_slot();
    snprintf(b, 64, "%s%%", num(100.0 * frac));
    return b;
}

static const char *scaled(double v, const char *const units[], int nunits)
{
    if (isnan(v))
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

static const char *tf(double flops) { return num(flops / 1e12); }
static const char *ms(double s) { return num(s * 1e3); }

/* ---- row helpers ---- */

static int row_ok(const struct gp_result *r) { return r->status == GP_STATUS_OK; }

static int has_counters(const struct gp_result *r)
{
    static const int any[] = {GP_M_dram_read, GP_M_l2_bytes, GP_M_l1_bytes, GP_M_smem_ld_wf,
                              GP_M_ffma};
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++)
        if (!isnan(r->metric[any[i]]))
            return 1;
    return 0;
}

static int same_shape(const struct gp_result *a, const struct gp_result *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k;
}

static const char *shape_str(const struct gp_result *r)
{
    char *b = fmt_slot();
    snprintf(b, 64, "%ldx%ldx%ld", r->m, r->n, r->k);
    return b;
}

static const char *variant_desc(const char *name)
{
    for (size_t i = 0; i < sizeof variant_descs / sizeof variant_descs[0]; i++)
        if (strcmp(variant_descs[i].name, name) == 0)
            return variant_descs[i].desc;
    return NULL;
}

/* Index of the verified row of `variant` at r's shape, or -1. */
static int find_ok(const struct rep *R, const struct gp_result *r, const char *variant)
{
    for (int i = 0; i < R->ds->nrows; i++) {
        const struct gp_result *o = &R->ds->rows[i];
        if (row_ok(o) && same_shape(o, r) && strcmp(o->variant, variant) == 0)
            return i;
    }
    return -1;
}

/* Index of a square N^3 row of `variant` (any status), or -1. */
static int find_square(const struct rep *R, const char *variant, long n)
{
    for (int i = 0; i < R->ds->nrows; i++) {
        const struct gp_result *o = &R->ds->rows[i];
        if (o->m == n && o->n == n && o->k == n && strcmp(o->variant, variant) == 0)
            return i;
    }
    return -1;
}

static const char *peak_label(const struct gp_result *r)
{
    return strcmp(r->precision, "tf32") == 0 ? "TF32 tensor" : "FP32 FMA";
}

/* What memory level l alone would allow, not capped by the compute peak, flop/s. */
static double mem_roof(const struct gp_roof *ro, int l) { return ro->ai[l] * ro->roof_bw[l]; }

/* Bytes moved at `level` per FMA (m n k FMAs). */
static double bytes_per_fma(const struct gp_roof *ro, int level)
{
    return ro->bytes[level] / (ro->flops_analytic / 2.0);
}

/* Writes s into a Markdown table cell or inline text: '|' escaped, newlines flattened. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
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
    say(R, "# gemmprof report\n\nData: `%s` (%d rows), rendered by gemmprof %s (commit %s).\n\n",
        ds->dir, ds->nrows, GP_VERSION, GP_GIT_REV);
    if (recorded_elsewhere) {
        say(R, "> **Recorded data: measured on ");
        md_text(R->f, ds->have_meta && *m->gpu_name ? m->gpu_name : "an unknown GPU");
        say(R, " on ");
        md_text(R->f, ds->have_meta && *m->date ? m->date : "an unknown date");
        say(R, " at commit ");
        md_text(R->f, ds->have_meta && *m->git_rev ? m->git_rev : "unknown");
        say(R, ", not on this machine.** Every number below describes that GPU and run; this "
               "machine only rendered the report.\n\n");
    }
}

static void write_data_notes(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    int nfail = 0, nnotrun = 0, nnocnt = 0;
    for (int i = 0; i < ds->nrows; i++) {
        nfail += ds->rows[i].status == GP_STATUS_VERIFY_FAILED;
        nnotrun += ds->rows[i].status == GP_STATUS_CUDA_ERROR || ds->rows[i].status == GP_STATUS_SKIPPED;
        nnocnt += row_ok(&ds->rows[i]) && !has_counters(&ds->rows[i]);
    }
    if (nfail) {
        say(R, "## WARNING: %d row%s FAILED VERIFICATION\n\n", nfail, nfail == 1 ? "" : "s");
        say(R, "These results are wrong and are excluded from every performance statement below.\n\n");
        say(R, "| variant | shape | relative error | tolerance | method |\n|---|---|---|---|---|\n");
        for (int i = 0; i < ds->nrows; i++) {
            const struct gp_result *r = &ds->rows[i];
            if (r->status != GP_STATUS_VERIFY_FAILED)
                continue;
            say(R, "| `%s` | %s | %s | %s | ", r->variant, shape_str(r), num(r->rel_err),
                num(r->tolerance));
            md_text(R->f, *r->verify_method ? r->verify_method : "n/a");
            say(R, " |\n");
        }
        say(R, "\n");
    }
    if (!*ds->warnings && !nnotrun && !nnocnt)
        return;
    say(R, "## Data notes\n\n");
    if (*ds->warnings) {
        const char *s = ds->warnings;
        while (*s) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)n, s);
            say(R, "- ");
            md_text(R->f, line);
            say(R, "\n");
            s += n + (e != NULL);
        }
    }
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (r->status != GP_STATUS_CUDA_ERROR && r->status != GP_STATUS_SKIPPED)
            continue;
        say(R, "- `%s` at %s did not run (%s): ", r->variant, shape_str(r), gp_status_name(r->status));
        md_text(R->f, *r->error ? r->error : "no reason recorded");
        say(R, "\n");
    }
    if (nnocnt) {
        say(R, "- Counters were not collected for %d verified row%s (", nnocnt, nnocnt == 1 ? "" : "s");
        const char *sep = "";
        for (int i = 0; i < ds->nrows; i++)
            if (row_ok(&ds->rows[i]) && !has_counters(&ds->rows[i])) {
                say(R, "%s`%s` %s", sep, ds->rows[i].variant, shape_str(&ds->rows[i]));
                sep = ", ";
            }
        say(R, "); their statements are from time alone");
        if (ds->have_meta && *ds->meta.counters) {
            say(R, ". The run says: ");
            md_text(R->f, ds->meta.counters);
        }
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
        say(R, "| | |\n|---|---|\n| GPU | ");
        md_text(R->f, *m->gpu_name ? m->gpu_name : "unknown");
        say(R, " (compute capability %d.%d, %d SMs) |\n", m->cc_major, m->cc_minor, m->sm_count);
        say(R, "| SM clock | maximum %s; median during the run %s", hz_str(m->sm_clock_max_hz),
            hz_str(m->sm_clock_measured_hz));
        if (m->sm_clock_max_hz > 0 && !isnan(m->sm_clock_measured_hz))
            say(R, " (%s of maximum)", pct(m->sm_clock_measured_hz / m->sm_clock_max_hz));
        say(R, " |\n| memory | global %s, memory clock %s, ", bytes_str(m->global_mem_bytes),
            hz_str(m->mem_clock_hz));
        if (m->mem_bus_bits > 0)
            say(R, "%d-bit bus", m->mem_bus_bits);
        else
            say(R, "bus width n/a");
        say(R, "; L2 %s; shared memory per block %s |\n", bytes_str(m->l2_bytes),
            bytes_str(m->smem_per_block_optin_bytes));
        say(R, "| driver / CUDA runtime / cuBLAS | ");
        md_text(R->f, *m->driver_version ? m->driver_version : "?");
        say(R, " / ");
        md_text(R->f, *m->runtime_version ? m->runtime_version : "?");
        say(R, " / ");
        md_text(R->f, *m->cublas_version ? m->cublas_version : "?");
        say(R, " |\n| gemmprof | ");
        md_text(R->f, *m->tool_version ? m->tool_version : "?");
        say(R, ", commit ");
        md_text(R->f, *m->git_rev ? m->git_rev : "?");
        say(R, " |\n| date | ");
        md_text(R->f, *m->date ? m->date : "?");
        say(R, " |\n| host | ");
        md_text(R->f, *m->hostname ? m->hostname : "?");
        say(R, " |\n| timing | %d timed repetitions after %d warm-ups, L2 %s between repetitions |\n",
            m->reps, m->warmups, m->l2_flush ? "flushed" : "not flushed");
        say(R, "| counters | ");
        md_text(R->f, *m->counters ? m->counters : "?");
        say(R, " |\n\nCommand:\n\n```\n%s\n```\n\n", m->command);
    }
    /* the clock each row was timed at: the machine's speed during the measurement */
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < ds->nrows; i++) {
        double c = ds->rows[i].sm_clock_hz;
        if (row_ok(&ds->rows[i]) && !isnan(c)) {
            lo = fmin(lo, c);
            hi = fmax(hi, c);
        }
    }
    if (lo <= hi)
        say(R, "SM clock measured while the rows were timed: %s to %s.\n\n", hz_str(lo), hz_str(hi));
}

static void write_ceilings(struct rep *R)
{
    const struct gp_ceilings *cs = &R->ds->ceilings;
    say(R, "## Ceilings: measured against theoretical\n\n");
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
        say(R, "| %s | %s%s | %s%s | %s | %s | ", gp_ceiling_info[i].label, meas,
            !bw && !isnan(c->measured) ? " TFLOP/s" : "", theo,
            !bw && !isnan(c->theoretical) ? " TFLOP/s" : "",
            pct(c->measured / c->theoretical), hz_str(c->sm_clock_hz));
        md_text(R->f, *c->theory_source ? c->theory_source : "");
        say(R, " |\n");
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
           "(AI, analytic FLOP per byte) are per memory level; the binding level is the one whose "
           "roof allows the least, and the share is achieved / that bound.\n\n");
    for (int s = 0; s < ds->nrows; s++) {
        int first = 1;
        for (int j = 0; j < s; j++)
            if (same_shape(&ds->rows[j], &ds->rows[s]))
                first = 0;
        if (!first)
            continue;
        const struct gp_result *rs = &ds->rows[s];
        say(R, "### %s\n\n", shape_str(rs));
        say(R, "| variant | precision | status | median ms | spread | TFLOP/s | %% of cuBLAS | "
               "%% of cuBLAS TF32 | %% of peak |\n|---|---|---|---|---|---|---|---|---|\n");
        int any_cnt = 0;
        for (int i = s; i < ds->nrows; i++) {
            const struct gp_result *r = &ds->rows[i];
            if (!same_shape(r, rs))
                continue;
            if (!row_ok(r)) {
                say(R, "| `%s` | %s | **%s** | excluded | | | | | |\n", r->variant, r->precision,
                    r->status == GP_STATUS_VERIFY_FAILED ? "VERIFY FAILED" : gp_status_name(r->status));
                continue;
            }
            any_cnt |= has_counters(r);
            const struct gp_roof *ro = &R->roof[i];
            int cb = find_ok(R, r, "cublas"), ct = find_ok(R, r, "cublas_tf32");
            int is_tf32 = strcmp(r->precision, "tf32") == 0;
            say(R, "| `%s` | %s | ok | %s | %s | %s | %s | %s | %s |\n", r->variant, r->precision,
                ms(r->time_median_s), pct(r->time_spread), tf(ro->achieved),
                cb >= 0 ? pct(ro->achieved / R->roof[cb].achieved) : "n/a",
                is_tf32 && ct >= 0 ? pct(ro->achieved / R->roof[ct].achieved) : "",
                isnan(ro->peak_compute) ? "n/a" : pct(ro->achieved / ro->peak_compute));
        }
        say(R, "\n");
        if (!any_cnt) {
            say(R, "No counters at this shape: traffic and binding levels unknown.\n\n");
            continue;
        }
        say(R, "| variant | DRAM bytes | L2 bytes | L1 bytes | shared bytes | AI DRAM | AI L2 | "
               "AI L1 | AI shared | binding level | bound TFLOP/s | share of bound |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = s; i < ds->nrows; i++) {
            const struct gp_result *r = &ds->rows[i];
            if (!same_shape(r, rs) || !row_ok(r))
                continue;
            const struct gp_roof *ro = &R->roof[i];
            if (!has_counters(r)) {
                say(R, "| `%s` | not collected | | | | | | | | | | |\n", r->variant);
                continue;
            }
            say(R, "| `%s` |", r->variant);
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                say(R, " %s |", bytes_str(ro->bytes[l]));
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                say(R, " %s |", num(ro->ai[l]));
            say(R, " %s | %s | %s |\n", ro->bound_level >= 0 ? level_label[ro->bound_level] : "n/a",
                tf(ro->bound_attainable), pct(ro->bound_share));
        }
        say(R, "\n");
    }
}

static void write_charts(struct rep *R)
{
    static const char *const charts[][2] = {
        {"roofline_dram.png", "Roofline against the DRAM ceiling"},
        {"roofline_hier.png", "Hierarchical roofline: DRAM, L2, L1 and shared memory"},
        {"sweep.png", "TFLOP/s against problem size"},
        {"bytes.png", "Bytes per FMA at each memory level"},
    };
    say(R, "## Charts\n\n");
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        char path[2200];
        snprintf(path, sizeof path, "%s/%s", R->outdir, charts[i][0]);
        if (access(path, R_OK) == 0)
            say(R, "![%s](%s)\n\n", charts[i][1], charts[i][0]);
        else
            say(R, "- %s: `%s` is not next to this report (charts not rendered: gnuplot missing or "
                   "--no-plots; `gemmprof plots DIR` renders them).\n\n", charts[i][1], charts[i][0]);
    }
    /* the hierarchical roofline of each other shape, where rendered */
    for (int i = 0; i < R->ds->nrows; i++) {
        const struct gp_result *r = &R->ds->rows[i];
        char name[160], path[2400];
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = !(R->ds->rows[j].m == r->m && R->ds->rows[j].n == r->n && R->ds->rows[j].k == r->k);
        if (!first)
            continue;
        snprintf(name, sizeof name, "roofline_hier_%ldx%ldx%ld.png", r->m, r->n, r->k);
        snprintf(path, sizeof path, "%s/%s", R->outdir, name);
        if (access(path, R_OK) == 0)
            say(R, "![Hierarchical roofline at %ldx%ldx%ld](%s)\n\n", r->m, r->n, r->k, name);
    }
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

static void share_sentence(struct rep *R, const struct gp_roof *ro)
{
    const char *lvl = level_label[ro->bound_level];
    double s = ro->bound_share;
    if (s > SHARE_ABOVE)
        say(R, " It runs above that bound: the measured %s ceiling is lower than what this kernel "
               "drew, so the ceiling understates the level (or the counters miss work).", lvl);
    else if (s >= SHARE_LIMITS)
        say(R, " At %s of the bound, %s is what limits it.", pct(s), lvl);
    else if (s >= SHARE_PARTLY)
        say(R, " %s is the tightest roof, but at %s of it other costs (latency, instruction issue, "
               "occupancy) take a large share.", level_cap[ro->bound_level], pct(s));
    else
        say(R, " At only %s of the bound, this roof is not what holds it back: the limit is "
               "elsewhere (latency, instruction issue or occupancy, which these counters do not "
               "measure).", pct(s));
}

/* The evidence for one verified row: what binds it and by how much. */
static void explain_row(struct rep *R, int i)
{
    const struct gp_result *r = &R->ds->rows[i];
    const struct gp_roof *ro = &R->roof[i];
    if (!has_counters(r)) {
        say(R, "Counters were not collected, so nothing is known about its traffic or binding "
               "level: it ran in %s ms, %s TFLOP/s", ms(r->time_median_s), tf(ro->achieved));
        if (!isnan(ro->peak_compute))
            say(R, ", %s of the %s ceiling", pct(ro->achieved / ro->peak_compute), peak_label(r));
        int cb = find_ok(R, r, "cublas");
        if (cb >= 0 && cb != i)
            say(R, ", %s of cuBLAS", pct(ro->achieved / R->roof[cb].achieved));
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
               "of %s TFLOP/s", peak_label(r), tf(ro->peak_compute));
        if (l >= 0 && l < GP_LEVEL_COUNT)
            say(R, " (the tightest, %s, allows %s TFLOP/s with %s bytes per FMA)", level_label[l],
                tf(a), num(bytes_per_fma(ro, l)));
        say(R, ". It reaches %s TFLOP/s, %s of the ceiling.", tf(ro->achieved), pct(ro->bound_share));
        share_sentence(R, ro);
    } else {
        int L = ro->bound_level;
        say(R, "**Binding level: %s.** %s bytes of %s traffic per FMA (AI %s FLOP/byte); at the "
               "measured %s bandwidth of %s that allows %s TFLOP/s; it reaches %s TFLOP/s, %s of "
               "that bound.", level_label[L], num(bytes_per_fma(ro, L)), level_label[L],
            num(ro->ai[L]), level_label[L], bw_str(ro->roof_bw[L]), tf(ro->attainable[L]),
            tf(ro->achieved), pct(ro->bound_share));
        share_sentence(R, ro);
        double a;
        int l = runner_up(ro, &a);
        if (l >= 0)
            say(R, " The next-tightest roof is %s at %s TFLOP/s.", level_label[l], tf(a));
        if (L != GP_LEVEL_DRAM && !isnan(mem_roof(ro, GP_LEVEL_DRAM)))
            say(R, " DRAM alone would allow %s TFLOP/s (%s bytes per FMA).",
                tf(mem_roof(ro, GP_LEVEL_DRAM)), num(bytes_per_fma(ro, GP_LEVEL_DRAM)));
    }
    /* shared memory: wavefronts per warp-level FFMA and bank conflicts */
    double wf = r->metric[GP_M_smem_ld_wf], ffma = r->metric[GP_M_ffma];
    double confl = r->metric[GP_M_smem_ld_confl];
    /* per warp FFMA only where FFMAs carry the work (not on the tensor pipe) */
    int ffma_work = !isnan(ffma) && 2.0 * ffma >= 0.5 * ro->flops_analytic;
    if (!isnan(wf) && !isnan(ffma) && ffma > 0) {
        if (wf > 0 && ffma_work) {
            say(R, " Shared memory: %s load wavefronts per warp-level FFMA (%s wavefronts, %s warp "
                   "FFMAs)", num(wf / (ffma / 32.0)), count_str(wf), count_str(ffma / 32.0));
            if (!isnan(confl))
                say(R, "; bank conflicts are %s of the load wavefronts (%s)", pct(confl / wf),
                    confl / wf >= CONFLICT_SIG ? "significant" : "negligible");
            say(R, ".");
        } else if (wf > 0) {
            say(R, " Shared memory: %s load wavefronts; FFMAs do %s of the analytic FLOPs, so "
                   "wavefronts per FFMA would mislead", count_str(wf),
                pct(2.0 * ffma / ro->flops_analytic));
            if (!isnan(confl))
                say(R, "; bank conflicts are %s of the load wavefronts (%s)", pct(confl / wf),
                    confl / wf >= CONFLICT_SIG ? "significant" : "negligible");
            say(R, ".");
        } else {
            say(R, " It reads no shared memory (0 load wavefronts).");
        }
    }
    if (!isnan(ro->flops_counted) && ro->flops_analytic > 0 &&
        fabs(ro->flops_counted / ro->flops_analytic - 1.0) > FLOPS_DIFFER)
        say(R, " The FP32 and tensor counters account for %s of the analytic 2mnk FLOPs; rates "
               "here use the analytic count.", pct(ro->flops_counted / ro->flops_analytic));
    say(R, "\n\n");
}

/* What the next variant at the same shape changes, and whether its bound explains the step. */
static void explain_step(struct rep *R, int i)
{
    const struct gp_result *r = &R->ds->rows[i];
    int j = -1;
    for (int k = i + 1; k < R->ds->nrows; k++)
        if (same_shape(&R->ds->rows[k], r) && strcmp(R->ds->rows[k].variant, r->variant) != 0) {
            j = k;
            break;
        }
    if (j < 0)
        return;
    const struct gp_result *q = &R->ds->rows[j];
    const char *d = variant_desc(q->variant);
    say(R, "Next up, `%s`%s%s%s: ", q->variant, d ? " (" : "", d ? d : "", d ? ")" : "");
    if (!row_ok(q)) {
        say(R, "%s at %s, so no comparison.\n\n",
            q->status == GP_STATUS_VERIFY_FAILED ? "failed verification" : "did not run", shape_str(r));
        return;
    }
    const struct gp_roof *a = &R->roof[i], *b = &R->roof[j];
    double speedup = r->time_median_s / q->time_median_s;
    say(R, "at %s it runs %sx %s (%s vs %s TFLOP/s).", shape_str(r),
        num(speedup >= 1 ? speedup : 1.0 / speedup), speedup >= 1 ? "faster" : "slower",
        tf(b->achieved), tf(a->achieved));
    if (a->bound_level < 0 || b->bound_level < 0) {
        say(R, " Counters or ceilings are missing for one of the two, so the step is measured by "
               "time only.\n\n");
        return;
    }
    /* the level whose traffic per FMA changes most */
    int best = -1;
    double fac = 1.0;
    for (int l = 0; l < GP_LEVEL_COUNT; l++) {
        double x = bytes_per_fma(a, l), y = bytes_per_fma(b, l);
        if (isnan(x) || isnan(y) || x <= 0 || y <= 0)
            continue;
        if (best < 0 || fabs(log(x / y)) > fabs(log(fac))) {
            best = l;
            fac = x / y;
        }
    }
    if (best >= 0)
        say(R, " It %s %s traffic per FMA %sx (%s -> %s bytes).", fac >= 1 ? "cuts" : "raises",
            level_label[best], num(fac >= 1 ? fac : 1.0 / fac), num(bytes_per_fma(a, best)),
            num(bytes_per_fma(b, best)));
    double pred = b->bound_attainable / a->bound_attainable;
    say(R, " Its binding level is %s (here: %s); its bound allows %s TFLOP/s against %s here, "
           "%sx.", level_label[b->bound_level], level_label[a->bound_level],
        tf(b->bound_attainable), tf(a->bound_attainable), num(pred));
    /* achieved = share x bound, so the step factors exactly into the change of bound and
     * the change of the share of it each one reaches */
    double share_ratio = b->bound_share / a->bound_share;
    if (share_ratio <= STEP_SHARE_SAME && share_ratio >= 1.0 / STEP_SHARE_SAME)
        say(R, " The bounds predict %sx and it measured %sx (%s and %s of their bounds): the change "
               "of bound explains the step.", num(pred), num(speedup), pct(a->bound_share),
            pct(b->bound_share));
    else if (share_ratio > STEP_SHARE_SAME)
        say(R, " Of the %sx, the change of bound accounts for %sx and reaching more of its bound "
               "for %sx (%s of it, against %s here).", num(speedup), num(pred), num(share_ratio),
            pct(b->bound_share), pct(a->bound_share));
    else
        say(R, " It gains less than its bound allows (%sx of a possible %sx): it reaches %s of its "
               "own bound, against %s here.", num(speedup), num(pred), pct(b->bound_share),
            pct(a->bound_share));
    say(R, "\n\n");
}

static void write_variants(struct rep *R)
{
    const struct gp_dataset *ds = R->ds;
    say(R, "## What limits each variant\n\n");
    for (int v = 0; v < ds->nrows; v++) {
        int first = 1;
        for (int j = 0; j < v; j++)
            if (strcmp(ds->rows[j].variant, ds->rows[v].variant) == 0)
                first = 0;
        if (!first)
            continue;
        const char *name = ds->rows[v].variant, *d = variant_desc(name);
        say(R, "### `%s`\n\n", name);
        if (d)
            say(R, "%s.\n\n", d);
        /* focus: the largest verified shape with counters and a bound, else the largest verified */
        int focus = -1, fbound = 0;
        for (int i = 0; i < ds->nrows; i++) {
            const struct gp_result *r = &ds->rows[i];
            if (strcmp(r->variant, name) != 0 || !row_ok(r))
                continue;
            int b = R->roof[i].bound_level >= 0;
            if (focus < 0 || b > fbound ||
                (b == fbound && R->roof[i].flops_analytic > R->roof[focus].flops_analytic)) {
                focus = i;
                fbound = b;
            }
        }
        if (focus < 0) {
            say(R, "No verified row: nothing to say about its performance.\n\n");
            continue;
        }
        say(R, "At %s: ", shape_str(&ds->rows[focus]));
        explain_row(R, focus);
        int others = 0;
        for (int i = 0; i < ds->nrows; i++) {
            const struct gp_result *r = &ds->rows[i];
            if (i == focus || strcmp(r->variant, name) != 0)
                continue;
            if (!others++)
                say(R, "Other shapes:");
            say(R, "%s %s ", others > 1 ? ";" : "", shape_str(r));
            if (!row_ok(r))
                say(R, "**%s**", r->status == GP_STATUS_VERIFY_FAILED ? "verification failed"
                                                                     : gp_status_name(r->status));
            else if (R->roof[i].bound_level >= 0)
                say(R, "%s TFLOP/s, %s-bound at %s of the bound", tf(R->roof[i].achieved),
                    level_adj[R->roof[i].bound_level], pct(R->roof[i].bound_share));
            else
                say(R, "%s TFLOP/s (no bound: %s)", tf(R->roof[i].achieved),
                    has_counters(r) ? "no ceilings" : "no counters");
        }
        if (others)
            say(R, ".\n\n");
        explain_step(R, focus);
    }
}

/* The binding level of row i in words, for the claims. */
static const char *bound_words(const struct rep *R, int i)
{
    const struct gp_roof *ro = &R->roof[i];
    char *b = fmt_slot();
    if (!has_counters(&R->ds->rows[i]))
        return "no counters";
    if (ro->bound_level < 0)
        return "no ceilings";
    snprintf(b, 64, "%s-bound, %s of that bound", level_adj[ro->bound_level], pct(ro->bound_share));
    return b;
}

static void write_claims(struct rep *R)
{
    say(R, "## The seed's claims, checked\n\n");
    say(R, "The seed tutorial (measured on an RTX 4090) says the tiled kernel is %g-%gx faster "
           "than the naive one at 1024 and 2048, that the gap widens at 2048, that the naive "
           "kernel is bandwidth-bound, and that it runs at ~%g%% of peak FLOPs.\n\n",
        SEED_SPEEDUP_LO, SEED_SPEEDUP_HI, 100 * SEED_PEAK_SHARE);

    /* claim 1: naive -> tiled speedup */
    say(R, "**Naive to tiled speedup.**\n\n");
    double ratio[2] = {NAN, NAN};
    for (size_t s = 0; s < sizeof seed_sizes / sizeof seed_sizes[0]; s++) {
        long n = seed_sizes[s];
        int a = find_square(R, "naive", n), b = find_square(R, "tiled", n);
        if (a < 0 || b < 0) {
            say(R, "- %ld^3: not measured (%s); run with a %ld size to check.\n", n,
                a < 0 && b < 0 ? "no naive or tiled row" : a < 0 ? "no naive row" : "no tiled row", n);
            continue;
        }
        if (!row_ok(&R->ds->rows[a]) || !row_ok(&R->ds->rows[b])) {
            say(R, "- %ld^3: not checked: %s did not produce a verified result.\n", n,
                !row_ok(&R->ds->rows[a]) ? "naive" : "tiled");
            continue;
        }
        double x = R->ds->rows[a].time_median_s / R->ds->rows[b].time_median_s;
        ratio[s] = x;
        say(R, "- %ld^3: naive %s ms, tiled %s ms: tiled is **%sx** faster; the claim **%s**.",
            n, ms(R->ds->rows[a].time_median_s), ms(R->ds->rows[b].time_median_s), num(x),
            x < SEED_SPEEDUP_LO ? "does not hold" : x <= SEED_SPEEDUP_HI ? "holds" : "holds (exceeded)");
        const struct gp_roof *ra = &R->roof[a], *rb = &R->roof[b];
        if (ra->bound_level >= 0 && rb->bound_level >= 0) {
            double pred = rb->bound_attainable / ra->bound_attainable;
            say(R, " From the counters: naive is %s-bound (allows %s TFLOP/s, reaches %s), tiled is "
                   "%s-bound (allows %s TFLOP/s, reaches %s); the bounds differ by %sx",
                level_adj[ra->bound_level], tf(ra->bound_attainable), pct(ra->bound_share),
                level_adj[rb->bound_level], tf(rb->bound_attainable), pct(rb->bound_share),
                num(pred));
            if (x <= pred * STEP_AGREES && x >= pred / STEP_AGREES)
                say(R, ", which accounts for the measured %sx.", num(x));
            else
                say(R, ", against %sx measured: the bounds %s the step.", num(x),
                    x > pred ? "under-predict" : "over-predict");
            if (x < SEED_SPEEDUP_LO && pred < SEED_SPEEDUP_LO)
                say(R, " A %g-%gx gain would need the tiled kernel's bound to sit %g-%gx above "
                       "naive's; it sits %sx above.", SEED_SPEEDUP_LO, SEED_SPEEDUP_HI,
                    SEED_SPEEDUP_LO, SEED_SPEEDUP_HI, num(pred));
        } else {
            say(R, " Counters or ceilings are missing (naive: %s; tiled: %s), so no reason from the "
                   "counters.", bound_words(R, a), bound_words(R, b));
        }
        say(R, "\n");
    }
    if (!isnan(ratio[0]) && !isnan(ratio[1])) {
        double g = ratio[1] / ratio[0];
        say(R, "- The gap at 2048 vs 1024: %sx vs %sx, so it %s.\n", num(ratio[1]), num(ratio[0]),
            g > 1.05 ? "widens, as claimed" : g < 1 / 1.05 ? "narrows, against the claim"
                                                          : "stays the same within 5%, against the claim");
    }
    say(R, "\n");

    /* claim 2: naive is bandwidth-bound, ~5% of peak */
    say(R, "**\"Naive is bandwidth-bound\" and \"~%g%% of peak\".**\n\n", 100 * SEED_PEAK_SHARE);
    int any = 0;
    for (int i = 0; i < R->ds->nrows; i++) {
        const struct gp_result *r = &R->ds->rows[i];
        if (strcmp(r->variant, "naive") != 0)
            continue;
        any = 1;
        if (!row_ok(r)) {
            say(R, "- %s: no verified result.\n", shape_str(r));
            continue;
        }
        const struct gp_roof *ro = &R->roof[i];
        say(R, "- %s: ", shape_str(r));
        if (ro->bound_level < 0) {
            say(R, "%s, so the binding level is unknown", bound_words(R, i));
        } else if (ro->bound_level == GP_BOUND_COMPUTE) {
            say(R, "the claim **does not hold**: compute binds (%s of the %s ceiling)",
                pct(ro->bound_share), peak_label(r));
        } else {
            int L = ro->bound_level;
            say(R, "bandwidth-bound **%s**: by %s, at %s of that roof (%s TFLOP/s allowed)",
                L == GP_LEVEL_DRAM ? "as claimed, by DRAM" : "yes, but not by DRAM",
                level_label[L], pct(ro->bound_share), tf(ro->bound_attainable));
            double dram_bw = (r->metric[GP_M_dram_read] + r->metric[GP_M_dram_write]) / r->time_median_s;
            if (L != GP_LEVEL_DRAM && !isnan(mem_roof(ro, GP_LEVEL_DRAM)))
                say(R, "; DRAM alone would allow %s TFLOP/s, %sx what it reaches, and its DRAM "
                       "traffic ran at %s, %s of the measured DRAM bandwidth",
                    tf(mem_roof(ro, GP_LEVEL_DRAM)), num(mem_roof(ro, GP_LEVEL_DRAM) / ro->achieved),
                    bw_str(dram_bw), pct(dram_bw / ro->roof_bw[GP_LEVEL_DRAM]));
        }
        if (!isnan(ro->peak_compute)) {
            double p = ro->achieved / ro->peak_compute;
            /* "~5%" read as within a factor SEED_PEAK_CLOSE of 5% */
            const double f = p / SEED_PEAK_SHARE;
            say(R, "; it runs at %s of the %s ceiling (claim ~%g%%: %s, %sx the claim)", pct(p),
                peak_label(r), 100 * SEED_PEAK_SHARE,
                f >= 1 / SEED_PEAK_CLOSE && f <= SEED_PEAK_CLOSE ? "holds" : "does not hold", num(f));
        }
        say(R, ".\n");
    }
    if (!any)
        say(R, "Not checked: the data has no `naive` rows.\n");
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

int report_write(const struct gp_dataset *ds, const char *out_path, int recorded_elsewhere,
                 char *err, size_t errlen)
{
    char outdir[2048];
    if (strlen(out_path) >= sizeof outdir) {
        snprintf(err, errlen, "%s: path too long", out_path);
        return -1;
    }
    dir_of(outdir, sizeof outdir, out_path);

    struct rep R = {NULL, ds, calloc((size_t)(ds->nrows > 0 ? ds->nrows : 1), sizeof(struct gp_roof)), outdir};
    if (!R.roof) {
        snprintf(err, errlen, "%s: out of memory", out_path);
        return -1;
    }
    for (int i = 0; i < ds->nrows; i++) {
        roof_derive(&ds->rows[i], &ds->ceilings, &R.roof[i]);
        /* without counters the compute roof is the only one left, which is not evidence
         * that compute binds: such a row has no binding level */
        if (!has_counters(&ds->rows[i])) {
            R.roof[i].bound_level = -1;
            R.roof[i].bound_attainable = R.roof[i].bound_share = NAN;
        }
    }
    struct atomic_file out;
    R.f = atomic_open(&out, out_path, err, errlen);
    if (!R.f) {
        free(R.roof);
        return -1;
    }
    write_header(&R, recorded_elsewhere);
    write_data_notes(&R);
    write_machine(&R);
    write_ceilings(&R);
    write_claims(&R);
    write_shape_tables(&R);
    write_charts(&R);
    write_variants(&R);
    free(R.roof);
    return atomic_commit(&out, err, errlen);
}

/* ---- the CLI verb ---- */

static int usage(const char *why)
{
    fprintf(stderr, "gemmprof report: %s (usage: gemmprof report DIR [--out FILE_OR_DIR] [--no-plots])\n",
            why);
    return 2;
}

int report_main(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    int no_plots = 0, measured_here = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0) {
            if (++i >= argc)
                return usage("--out needs a file or directory");
            out = argv[i];
        } else if (strcmp(argv[i], "--no-plots") == 0) {
            no_plots = 1;
        } else if (strcmp(argv[i], "--measured-here") == 0) {
            measured_here = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            char why[128];
            snprintf(why, sizeof why, "unknown option '%.60s'", argv[i]);
            return usage(why);
        } else if (!dir) {
            dir = argv[i];
        } else {
            char why[128];
            snprintf(why, sizeof why, "one results directory expected, got also '%.60s'", argv[i]);
            return usage(why);
        }
    }
    if (!dir)
        return usage("missing the results directory");

    /* --out: an existing directory (or one named with a trailing '/') gets report.md inside */
    char out_path[2048], out_dir[2048];
    struct stat st;
    const char *base = out ? out : dir;
    size_t bl = strlen(base);
    int is_dir = !out || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) || (bl && base[bl - 1] == '/');
    if (is_dir) {
        snprintf(out_dir, sizeof out_dir, "%s", base);
        snprintf(out_path, sizeof out_path, "%s%sreport.md", base, bl && base[bl - 1] == '/' ? "" : "/");
    } else {
        snprintf(out_path, sizeof out_path, "%s", base);
        dir_of(out_dir, sizeof out_dir, base);
    }

    struct gp_dataset *ds = malloc(sizeof *ds);
    char err[1024];
    if (!ds) {
        fprintf(stderr, "gemmprof report: out of memory\n");
        return 1;
    }
    if (dataset_load(dir, ds, err, sizeof err)) {
        fprintf(stderr, "gemmprof report: %s\n", err);
        free(ds);
        return 1;
    }
    for (const char *s = ds->warnings; *s;) {
        const char *e = strchr(s, '\n');
        int n = e ? (int)(e - s) : (int)strlen(s);
        fprintf(stderr, "gemmprof report: warning: %.*s\n", n, s);
        s += n + (e != NULL);
    }
    if (is_dir && stat(out_dir, &st) != 0) {
        fprintf(stderr, "gemmprof report: output directory '%s' does not exist\n", out_dir);
        dataset_free(ds);
        free(ds);
        return 1;
    }
    if (!no_plots) {
        /* charts are optional: without gnuplot the report still comes, noting their absence */
        int n = plots_render(ds, out_dir, NULL, err, sizeof err);
        if (n < 0)
            fprintf(stderr, "gemmprof report: charts not rendered: %s\n", err);
        else if (*err)
            fprintf(stderr, "gemmprof report: charts: %s\n", err);
    }
    int rc = report_write(ds, out_path, !measured_here, err, sizeof err);
    dataset_free(ds);
    free(ds);
    if (rc) {
        fprintf(stderr, "gemmprof report: %s\n", err);
        return 1;
    }
    printf("%s\n", out_path);
    return 0;
}

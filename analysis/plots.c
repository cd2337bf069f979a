/* Chart rendering (see analysis/plots.h): the plot-input CSVs, then gnuplot.
 *
 *   char err[1024];
 *   int n = plots_render(&ds, "out", NULL, err, sizeof err);
 *   if (n < 0) fail(err); else if (err[0]) note(err);     n charts rendered
 *
 * The scripts own the drawing; this file owns the numbers. It derives every roofline
 * quantity through roof_derive, so the charts and results.csv cannot disagree, and it
 * writes long-format CSVs that the scripts address by column name. gnuplot runs as a
 * child process with stdout and stderr captured: any output at all is a failure,
 * because gnuplot reports problems as warnings and still exits 0. */
#include "analysis/plots.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"
#include "analysis/findings.h"
#include "analysis/fleet.h"
#include "analysis/limits.h"
#include "analysis/numparse.h"
#include "analysis/plausible.h"
#include "analysis/roofline.h"
#include "analysis/row_index.h"
#include "analysis/tmpfiles.h"

extern char **environ;

const struct plots_chart_def plots_charts[PLOTS_CHART_KINDS] = {
#define PLOT_CHART(name, data, caption) {#name, data, caption},
#include "plots/charts.def"
#undef PLOT_CHART
};

#define PLOT_FORMATS "png svg"

/* ---- small helpers ---- */

int plots_output_complete(const char *path, const char *ext, char *why, size_t whylen)
{
    /* gnuplot exits 0 when a write fails (a full disk), so the end of the file is the
     * only sign: a PNG ends with its IEND chunk, an SVG with </svg> */
    static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char png_end[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    int png = strcmp(ext, "png") == 0;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    unsigned char head[8], tail[256];
    struct stat st;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        snprintf(why, whylen, "produced no %s output", ext);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t nt = st.st_size < (off_t)sizeof tail ? (size_t)st.st_size : sizeof tail;
    int ok = pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
             pread(fd, tail, nt, st.st_size - (off_t)nt) == (ssize_t)nt;
    close(fd);
    if (ok && png) {
        ok = memcmp(head, png_sig, sizeof png_sig) == 0 && nt >= sizeof png_end &&
             memcmp(tail + nt - sizeof png_end, png_end, sizeof png_end) == 0;
    } else if (ok) {
        while (nt && (tail[nt - 1] == '\n' || tail[nt - 1] == '\r' || tail[nt - 1] == ' ' || tail[nt - 1] == '\t'))
            nt--;
        ok = nt >= 6 && memcmp(tail + nt - 6, "</svg>", 6) == 0;
    }
    if (ok)
        return 0;
    snprintf(why, whylen, "%s is cut short (%lld bytes, no %s at its end; disk full?)", base,
             (long long)st.st_size, png ? "IEND chunk" : "closing </svg>");
    return -1;
}

/* Searches PATH like execvp would, so the error can say "not installed" before spawning. */
static int find_on_path(const char *prog, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return 0;
    while (*path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char cand[4096];
        if (n == 0)
            snprintf(cand, sizeof cand, "./%s", prog);
        else
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, prog);
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
            snprintf(out, len, "%s", cand);
            return 1;
        }
        if (!end)
            break;
        path = end + 1;
    }
    return 0;
}

int plots_gnuplot_available(char *why, size_t whylen)
{
    char found[4096];
    if (find_on_path("gnuplot", found, sizeof found)) {
        if (whylen)
            why[0] = '\0';
        return 1;
    }
    snprintf(why, whylen,
             "gnuplot not found on PATH; install it (Debian/Ubuntu: apt-get install gnuplot-nox, "
             "Fedora: dnf install gnuplot, macOS: brew install gnuplot) and re-run "
             "'gemmprof plots DIR' to draw the charts from the CSVs already written");
    return 0;
}

/* ---- what to plot ---- */

/* Verified, timed and plausible (analysis/plausible.h): a row the report leaves out of
 * every verdict is left off the charts too. r is a row of ds. */
static int row_plottable(const struct gp_dataset *ds, const struct gp_result *r)
{
    return plausible_row(ds, (int)(r - ds->rows)) && r->status == GP_STATUS_OK && isfinite(r->time_median_s) && r->time_median_s > 0 &&
           r->m > 0 && r->n > 0 && r->k > 0;
}

static void shape_of(const struct gp_result *r, char *buf, size_t len)
{
    snprintf(buf, len, "%ldx%ldx%ld", r->m, r->n, r->k);
}

/* A row with counter data at some memory level: a point on the hierarchical roofline. */
static int row_has_levels(const struct gp_dataset *ds, const struct gp_result *r, const struct gp_ceilings *cs)
{
    if (!row_plottable(ds, r))
        return 0;
    struct gp_roof roof;
    roof_derive(r, cs, &roof);
    if (isnan(roof.achieved))
        return 0;
    for (int l = 0; l < GP_LEVEL_COUNT; l++)
        if (!isnan(roof.ai[l]))
            return 1;
    return 0;
}

/* Per shape group: how many rows have counter data, and the work m n k. */
struct shape_rank {
    int group, count;
    double size;
};

/* Most rows with counters first, then the larger shape, then the earlier one. */
static int rank_cmp(const void *a, const void *b)
{
    const struct shape_rank *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->group > y->group) - (x->group < y->group);
}

/* The shapes with counter data, best first: ranks[0] is the shape of the main per-kernel
 * charts (hierarchical roofline, bytes), the next ones get a hierarchical roofline of
 * their own up to the bound. Returns how many, or -1 when out of memory. */
static int rank_shapes(const struct gp_dataset *ds, const struct gp_ceilings *cs,
                       const struct row_groups *shapes, struct shape_rank **out)
{
    struct shape_rank *r = malloc(((size_t)shapes->ngroups + 1) * sizeof *r);
    if (!r)
        return -1;
    int n = 0;
    for (int g = 0; g < shapes->ngroups; g++) {
        int cnt, cn = 0;
        const int *idx = row_group(shapes, g, &cnt);
        for (int i = 0; i < cnt; i++)
            cn += row_has_levels(ds, &ds->rows[idx[i]], cs);
        if (cn == 0)
            continue;
        const struct gp_result *q = &ds->rows[idx[0]];
        r[n++] = (struct shape_rank){g, cn, (double)q->m * (double)q->n * (double)q->k};
    }
    qsort(r, (size_t)n, sizeof *r, rank_cmp);
    *out = r;
    return n;
}

static const char *const level_label[GP_LEVEL_COUNT] = {"DRAM", "L2", "L1", "shared"};

/* ---- variant families: the legends group each family's variants ---- */

enum vfamily { FAM_FP32_SIMT, FAM_TF32, FAM_3XTF32, FAM_TENSOR16, FAM_CUBLAS, FAM_COUNT };
/* the CSVs' family column; plots/common.gp gives each family its marker fill */
static const char *const family_name[FAM_COUNT] = {"FP32 SIMT", "TF32 tensor", "3xTF32", "16-bit tensor", "cuBLAS"};

/* A row whose tensor work took 16-bit inputs. */
static int is_16bit_row(const struct gp_roof *ro)
{
    return ro->compute_path == GP_PATH_TENSOR && (ro->tensor_type == GP_BF16 || ro->tensor_type == GP_FP16);
}

/* A row's family: cuBLAS by name (it is the reference whatever its pipe), else the pipe
 * that did the work (3xTF32 by its tensor ops per FLOP, or by name without counters). */
static int row_family(const struct gp_result *r, const struct gp_ceilings *cs)
{
    if (strncmp(r->variant, "cublas", 6) == 0)
        return FAM_CUBLAS;
    struct gp_roof ro;
    roof_derive(r, cs, &ro);
    if (strstr(r->variant, "tf32x3") || (ro.compute_path == GP_PATH_TENSOR && ro.tensor_per_flop > 1.05))
        return FAM_3XTF32;
    if (ro.compute_path == GP_PATH_TENSOR)
        return is_16bit_row(&ro) ? FAM_TENSOR16 : FAM_TF32;
    return FAM_FP32_SIMT;
}

/* Renumbers the variant groups family by family (first appearance within each), so a
 * variant_index run is one family and a legend lists families together; fam[g] gets
 * group g's family (from its first row). 0, or -1 when out of memory. */
static int group_by_family(const struct gp_dataset *ds, const struct gp_ceilings *cs, struct row_groups *vars,
                           int *fam)
{
    int ng = vars->ngroups, nrows = ds->nrows;
    int *was = malloc(((size_t)ng + 1) * sizeof *was), *order = malloc(((size_t)ng + 1) * sizeof *order);
    int *newid = malloc(((size_t)ng + 1) * sizeof *newid), *start = malloc(((size_t)ng + 1) * sizeof *start);
    int *rows = malloc(((size_t)nrows + 1) * sizeof *rows);
    int ok = was && order && newid && start && rows;
    if (ok) {
        for (int g = 0; g < ng; g++)
            was[g] = row_family(&ds->rows[vars->rows[vars->start[g]]], cs);
        int p = 0, used = 0;
        for (int f = 0; f < FAM_COUNT; f++)
            for (int g = 0; g < ng; g++)
                if (was[g] == f)
                    order[p++] = g;
        for (p = 0; p < ng; p++) {
            int cnt;
            const int *idx = row_group(vars, order[p], &cnt);
            newid[order[p]] = p;
            fam[p] = was[order[p]];
            start[p] = used;
            memcpy(rows + used, idx, (size_t)cnt * sizeof *rows);
            used += cnt;
        }
        start[ng] = used;
        memcpy(vars->start, start, ((size_t)ng + 1) * sizeof *start);
        memcpy(vars->rows, rows, (size_t)used * sizeof *rows);
        for (int i = 0; i < nrows; i++)
            vars->group_of[i] = newid[vars->group_of[i]];
    }
    free(was);
    free(order);
    free(newid);
    free(start);
    free(rows);
    return ok ? 0 : -1;
}

/* The columns every per-row file starts with: variant, variant_index, family, precision,
 * then m, n, k where with_mnk, then shape. */
static void put_row_head(struct csv_row *w, const struct gp_result *r, const struct row_groups *vars, const int *fam,
                         int i, int with_mnk)
{
    char shape[96];
    shape_of(r, shape, sizeof shape);
    csv_put(w, r->variant);
    csv_put_long(w, vars->group_of[i] + 1);
    csv_put(w, family_name[fam[vars->group_of[i]]]);
    csv_put(w, r->precision);
    if (with_mnk) {
        csv_put_long(w, r->m);
        csv_put_long(w, r->n);
        csv_put_long(w, r->k);
    }
    csv_put(w, shape);
}


/* The points of the rows sel[0..nsel) (every row when sel is NULL) into path, at every
 * level (dram_only: DRAM alone); the number of points at DRAM level in *n_dram. Returns
 * the number of points, or -1. */
static int write_points(const struct gp_dataset *ds, const struct gp_ceilings *cs,
                        const struct row_groups *vars, const int *fam, const int *sel, int nsel, int dram_only,
                        const char *path, int *n_dram, unsigned char *mark, char *err, size_t errlen)
{
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f)
        return -1;
    fputs("variant,variant_index,family,precision,m,n,k,shape,level,bytes,ai_flop_per_byte,flop_per_s,"
          "attainable_flop_per_s,bound\n", f);
    int n = 0;
    *n_dram = 0;
    int count = sel ? nsel : ds->nrows;
    for (int s = 0; s < count; s++) {
        int i = sel ? sel[s] : s;
        const struct gp_result *r = &ds->rows[i];
        if (!row_plottable(ds, r))
            continue;
        struct gp_roof roof;
        roof_derive(r, cs, &roof);
        for (int l = 0; l < (dram_only ? 1 : GP_LEVEL_COUNT); l++) {
            if (isnan(roof.ai[l]) || isnan(roof.achieved))
                continue;
            struct csv_row w = {f, 0};
            put_row_head(&w, r, vars, fam, i, 1);
            csv_put(&w, gp_level_name[l]);
            csv_put_double(&w, roof.bytes[l]);
            csv_put_double(&w, roof.ai[l]);
            csv_put_double(&w, roof.achieved);
            csv_put_double(&w, roof.attainable[l]);
            csv_put_long(&w, roof.bound_level == l);
            csv_end(&w);
            n++;
            if (l == GP_LEVEL_DRAM) {
                (*n_dram)++;
                if (mark)
                    mark[i] = 1;
            }
        }
    }
    if (atomic_commit(&t, err, errlen) != 0)
        return -1;
    return n;
}

static void roof_row(FILE *f, const char *kind, const char *roof, const char *level,
                     const char *source, const char *label, double value, const char *unit,
                     double ridge_ai)
{
    struct csv_row w = {f, 0};
    csv_put(&w, kind);
    csv_put(&w, roof);
    csv_put(&w, level);
    csv_put(&w, source);
    csv_put(&w, label);
    csv_put_double(&w, value);
    csv_put_double(&w, ridge_ai);
    csv_put(&w, unit);
    csv_end(&w);
}

/* The one 16-bit tensor roof the charts draw: the higher of BF16's and FP16's. */
static enum gp_ceiling_id top_16bit_ceiling(const struct gp_ceilings *cs)
{
    const enum gp_ceiling_id bf16 = roof_type_ceiling(cs, GP_BF16), fp16 = roof_type_ceiling(cs, GP_FP16);
    return cs->c[fp16].measured > cs->c[bf16].measured ? fp16 : bf16;
}

static int any_16bit(const struct gp_dataset *ds)
{
    for (int i = 0; i < ds->nrows; i++)
        if (strcmp(ds->rows[i].precision, "bf16") == 0 || strcmp(ds->rows[i].precision, "fp16") == 0)
            return 1;
    return 0;
}

/* roofline_roofs.csv: memory and compute roofs, measured and theoretical, plus the
 * ridge points of each measured memory roof with each compute roof (FP32 FMA, FP32
 * without FMA, TF32): every compute roof drawn has its ridge. x3 > 1 (a 3xTF32 family's
 * chart: its tensor operations per GEMM FLOP) adds the roof its kernels run against, the
 * TF32 one over x3, as "tf32_x3". with: ROOFS_MMA adds the mma.sync loop's roofs, ROOFS_16BIT
 * the 16-bit one, for charts with rows held to them.
 * Returns the number of rows. */
enum { ROOFS_MMA = 1, ROOFS_16BIT = 2 };

static int write_roofs(const struct gp_ceilings *cs, double x3, int with, const char *path, char *err, size_t errlen)
{
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f)
        return -1;
    fputs("kind,roof,level,source,label,value,ridge_ai_flop_per_byte,unit\n", f);
    int n = 0;
    if (cs) {
        /* The same bandwidths roof_derive uses, so points and roofs agree. */
        double bw[2][GP_LEVEL_COUNT];
        const enum gp_ceiling_id lvl_ceil[GP_LEVEL_COUNT] = {GP_CEIL_dram_copy, GP_CEIL_l2,
                                                             GP_CEIL_l1, GP_CEIL_shared};
        for (int l = 0; l < GP_LEVEL_COUNT; l++) {
            bw[0][l] = cs->c[lvl_ceil[l]].measured;
            bw[1][l] = cs->c[lvl_ceil[l]].theoretical;
        }
        bw[0][GP_LEVEL_DRAM] = fmax(cs->c[GP_CEIL_dram_copy].measured, cs->c[GP_CEIL_dram_read].measured);
        bw[1][GP_LEVEL_DRAM] =
            fmax(cs->c[GP_CEIL_dram_copy].theoretical, cs->c[GP_CEIL_dram_read].theoretical);
        static const char *const src[2] = {"measured", "theoretical"};
        for (int s = 0; s < 2; s++)
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                if (bw[s][l] > 0) {
                    roof_row(f, "memory", gp_level_name[l], gp_level_name[l], src[s], level_label[l],
                             bw[s][l], "byte/s", NAN);
                    n++;
                }
        const enum gp_ceiling_id tf32 = roof_tf32_ceiling(cs);   /* the roof the rows use */
        char x3_label[64], x3_mma_label[64];
        snprintf(x3_label, sizeof x3_label, "3xTF32 (TF32/%.3g)", x3);
        snprintf(x3_mma_label, sizeof x3_mma_label, "3xTF32 mma.sync (/%.3g)", x3);
        /* the mma.sync loop's roof only on a family's chart that has rows held to it
         * (roof_tensor_ceiling): on the all-variant charts it lies too close to wgmma's
         * for both labels and the kernels between them. datasheet: 0 for a roof without a
         * dashed line of its own (the datasheet's tensor peak is wgmma's, not mma.sync's) */
        const int with_mma = with & ROOFS_MMA;
        /* one 16-bit roof, the higher of BF16's and FP16's (their ceilings lie within a few
         * percent: two lines and labels would sit on each other), where the rows have them */
        const enum gp_ceiling_id top16 = top_16bit_ceiling(cs);
        const int top16_wgmma = top16 == GP_CEIL_bf16_wgmma || top16 == GP_CEIL_fp16_wgmma;
        const struct { enum gp_ceiling_id id; const char *label, *name; double div; int datasheet; } comp[] = {
            {GP_CEIL_fp32_fma, "FP32 FMA", NULL, 1, 1}, {GP_CEIL_fp32_nofma, "FP32 no FMA", NULL, 1, 1},
            {tf32, tf32 == GP_CEIL_tf32 ? "TF32 tensor (cuBLAS)" : "TF32 tensor", NULL, 1, 1},
            {GP_CEIL_tf32_mma, "TF32 mma.sync", NULL, with_mma ? 1 : NAN, 0},
            {tf32, x3_label, "tf32_x3", x3 > 1 ? x3 : NAN, 1},   /* NaN: no row */
            {GP_CEIL_tf32_mma, x3_mma_label, "tf32_mma_x3", with_mma && x3 > 1 ? x3 : NAN, 0},
            {top16, "BF16/FP16 tensor", NULL, (with & ROOFS_16BIT) ? 1 : NAN, top16_wgmma},
        };
        for (int s = 0; s < 2; s++)
            for (size_t c = 0; c < sizeof comp / sizeof comp[0]; c++) {
                if (s == 1 && !comp[c].datasheet)
                    continue;
                double v = (s == 0 ? cs->c[comp[c].id].measured : cs->c[comp[c].id].theoretical) / comp[c].div;
                if (v > 0) {
                    roof_row(f, "compute", comp[c].name ? comp[c].name : gp_ceiling_info[comp[c].id].id, "compute",
                             src[s], comp[c].label, v, "flop/s", NAN);
                    n++;
                }
            }
        for (int l = 0; l < GP_LEVEL_COUNT; l++)
            for (size_t c = 0; c < sizeof comp / sizeof comp[0]; c++) {
                double peak = cs->c[comp[c].id].measured / comp[c].div;
                if (!(bw[0][l] > 0) || !(peak > 0))
                    continue;
                char roof[64], label[96];
                snprintf(roof, sizeof roof, "%s/%s", gp_level_name[l],
                         comp[c].name ? comp[c].name : gp_ceiling_info[comp[c].id].id);
                snprintf(label, sizeof label, "%s / %s", level_label[l], comp[c].label);
                roof_row(f, "ridge", roof, gp_level_name[l], "measured", label, peak, "flop/s",
                         peak / bw[0][l]);
                n++;
            }
    }
    if (atomic_commit(&t, err, errlen) != 0)
        return -1;
    return n;
}

struct sweep_key {
    int variant;    /* the variant's group: ladder order */
    double work;    /* m n k */
    int row;
};

static int sweep_cmp(const void *a, const void *b)
{
    const struct sweep_key *x = a, *y = b;
    if (x->variant != y->variant)
        return x->variant < y->variant ? -1 : 1;
    if (x->work != y->work)
        return x->work < y->work ? -1 : 1;
    return x->row - y->row;
}

/* sweep.csv, each variant's rows together and in size order: the scripts join
 * consecutive rows of one variant, so a row of another in between would break the line. */
static int write_sweep(const struct gp_dataset *ds, const struct row_groups *vars, const int *fam, const char *path,
                       unsigned char *mark, char *err, size_t errlen)
{
    struct sweep_key *keys = malloc(((size_t)ds->nrows + 1) * sizeof *keys);
    if (!keys) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int nk = 0;
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (!row_plottable(ds, r))
            continue;
        keys[nk].variant = vars->group_of[i];
        keys[nk].work = (double)r->m * (double)r->n * (double)r->k;
        keys[nk].row = i;
        nk++;
        mark[i] = 1;
    }
    qsort(keys, (size_t)nk, sizeof *keys, sweep_cmp);

    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f) {
        free(keys);
        return -1;
    }
    fputs("variant,variant_index,family,precision,m,n,k,shape,size,flop_per_s,time_min_s,time_max_s,"
          "time_median_s\n", f);
    int n = 0;
    for (int i = 0; i < nk; i++) {
        const struct gp_result *r = &ds->rows[keys[i].row];
        /* Square shapes plot at N; others at the cube root of M N K, the N of a square
         * GEMM with the same work. */
        double size = (r->m == r->n && r->n == r->k) ? (double)r->m
                                                     : cbrt((double)r->m * (double)r->n * (double)r->k);
        struct csv_row w = {f, 0};
        put_row_head(&w, r, vars, fam, keys[i].row, 1);
        csv_put_double(&w, size);
        csv_put_double(&w, gp_flops_analytic(r) / r->time_median_s);
        /* the repetitions' spread, empty when unknown (never last on the line) */
        csv_put_double(&w, r->time_min_s);
        csv_put_double(&w, r->time_max_s);
        csv_put_double(&w, r->time_median_s);
        csv_end(&w);
        n++;
    }
    free(keys);
    if (atomic_commit(&t, err, errlen) != 0)
        return -1;
    return n;
}

/* ---- stalls.csv: the warp-stall breakdown per variant ---- */

#define STALLS_SHOWN 7   /* reasons drawn on their own; the rest as one "other" */

/* Sum of a row's known stall ratios (warps per issued instruction); 0 when none. */
static double stall_sum(const struct gp_result *r)
{
    double s = 0;
    for (int k = 0; k < limits_stall_count(); k++) {
        double v = r->metric[limits_stall_metric(k)];
        if (isfinite(v) && v > 0)
            s += v;
    }
    return s;
}

static double stall_share(const struct gp_result *r, int k, double sum)
{
    double v = r->metric[limits_stall_metric(k)];
    return isfinite(v) && v > 0 ? v / sum : 0;
}

/* stalls.csv: for each variant its largest verified row with stall counters, one line per
 * reason: variant,variant_index,slot,shape,reason,reason_index,share,base,top, where share
 * is ratio / sum of ratios and [base, top) its place in the stacked bar. The STALLS_SHOWN
 * reasons with the largest shares over the charted rows keep their names (reason_index 1..),
 * the rest are summed as "other" (the last index). Returns the rows charted, or -1. */
static int write_stalls(const struct gp_dataset *ds, const struct row_groups *vars, const char *path,
                        unsigned char *mark, char *err, size_t errlen)
{
    int nr = limits_stall_count();
    int *pick = malloc(((size_t)vars->ngroups + 1) * sizeof *pick);
    double total[64] = {0};
    int rank[64], npick = 0;
    if (!pick || nr > 64) {
        free(pick);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int v = 0; v < vars->ngroups; v++) {
        int cnt, best = -1;
        const int *idx = row_group(vars, v, &cnt);
        for (int j = 0; j < cnt; j++) {
            const struct gp_result *r = &ds->rows[idx[j]];
            if (!row_plottable(ds, r) || !(stall_sum(r) > 0))
                continue;
            if (best < 0 || gp_flops_analytic(r) > gp_flops_analytic(&ds->rows[best]))
                best = idx[j];
        }
        if (best >= 0) {
            pick[npick++] = best;
            mark[best] = 1;
            for (int k = 0; k < nr; k++)
                total[k] += stall_share(&ds->rows[best], k, stall_sum(&ds->rows[best]));
        }
    }
    /* rank[k]: 1..STALLS_SHOWN for the largest totals, STALLS_SHOWN + 1 ("other") else */
    for (int k = 0; k < nr; k++) {
        int above = 0;
        for (int o = 0; o < nr; o++)
            above += total[o] > total[k] || (total[o] == total[k] && o < k);
        rank[k] = above < STALLS_SHOWN ? above + 1 : STALLS_SHOWN + 1;
    }
    struct atomic_file t;
    FILE *f = npick ? atomic_open(&t, path, err, errlen) : NULL;
    if (!f) {
        free(pick);
        return npick ? -1 : 0;
    }
    fputs("variant,variant_index,slot,shape,reason,reason_index,share,base,top\n", f);
    for (int p = 0; p < npick; p++) {
        const struct gp_result *r = &ds->rows[pick[p]];
        double sum = stall_sum(r), base = 0;
        char shape[96];
        shape_of(r, shape, sizeof shape);
        for (int q = 1; q <= STALLS_SHOWN + 1; q++) {
            double share = 0;
            const char *name = "other";
            for (int k = 0; k < nr; k++)
                if (rank[k] == q) {
                    share += stall_share(r, k, sum);
                    if (q <= STALLS_SHOWN)
                        name = limits_stall_name(limits_stall_metric(k));
                }
            struct csv_row w = {f, 0};
            csv_put(&w, r->variant);
            csv_put_long(&w, vars->group_of[pick[p]] + 1);
            csv_put_long(&w, p + 1);
            csv_put(&w, shape);
            csv_put(&w, name);
            csv_put_long(&w, q);
            fprintf(f, ",%.6f,%.6f,%.6f", share, base, base + share);   /* fixed: the bars' stacking */
            csv_end(&w);
            base += share;
        }
    }
    free(pick);
    if (atomic_commit(&t, err, errlen) != 0)
        return -1;
    return npick;
}

/* ---- issue_points.csv: the instruction roofline ---- */

/* issue_points.csv: one line per verified row with a warp-instruction count and a known
 * issue peak: variant,variant_index,family,precision,shape,flop_per_inst,flop_per_s,
 * issue_peak_inst_per_s,compute_peak_flop_per_s (0 when no ceiling),compute_roof (that
 * ceiling's name for the legend, roof_compute_name; "none" without one). Returns the lines
 * written, or -1. The file is written only when there is a line to write. */
static int write_issue_points(const struct gp_dataset *ds, const struct gp_ceilings *cs,
                              const struct row_groups *vars, const int *fam, const char *path, unsigned char *mark,
                              char *err, size_t errlen)
{
    struct gp_machine m;
    findings_machine(ds, &m);
    struct atomic_file t;
    FILE *f = NULL;
    int n = 0;
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (!row_plottable(ds, r))
            continue;
        struct gp_roof ro;
        struct gp_limits li;
        roof_derive(r, cs, &ro);
        limits_derive(r, &ro, &m, &li);
        if (!li.have_issue || !(ro.achieved > 0))
            continue;
        if (!f) {
            if (!(f = atomic_open(&t, path, err, errlen)))
                return -1;
            fputs("variant,variant_index,family,precision,shape,flop_per_inst,flop_per_s,issue_peak_inst_per_s,"
                  "compute_peak_flop_per_s,compute_roof\n", f);
        }
        char roof_name[64];
        roof_compute_name(&ro, roof_name, sizeof roof_name);
        struct csv_row w = {f, 0};
        put_row_head(&w, r, vars, fam, i, 0);
        csv_put_double(&w, li.flop_per_inst);
        csv_put_double(&w, ro.achieved);
        csv_put_double(&w, li.issue_peak);
        csv_put_double(&w, ro.peak_compute > 0 ? ro.peak_compute : 0.0);
        csv_put(&w, ro.peak_compute > 0 ? roof_name : "none");   /* never an empty last cell */
        csv_end(&w);
        n++;
        mark[i] = 1;
    }
    if (f && atomic_commit(&t, err, errlen) != 0)
        return -1;
    return n;
}

/* ---- fleet.csv: each GPU's TFLOP/s per variant (a merged --fleet run) ---- */

/* Per variant (in variant_index order), one line per GPU that ran it, at the variant's
 * largest shape on that GPU. 0 rows (no file) unless two or more GPUs measured the same
 * variant x shape. */
static int write_fleet(const struct gp_dataset *ds, const struct row_groups *vars, const char *path,
                       unsigned char *mark, char *err, size_t errlen)
{
    struct fleet fl;
    if (fleet_analyze(ds->rows, ds->nrows, &fl)) {
        snprintf(err, errlen, "%s: out of memory or more than %d GPUs", path, FLEET_MAX_GPUS);
        return -1;
    }
    int compared = 0, n = 0;
    for (int g = 0; g < fl.ngpus; g++)
        compared += fl.gpu[g].ncompared > 0;
    struct atomic_file t;
    FILE *f = NULL;
    if (compared >= 2 && !(f = atomic_open(&t, path, err, errlen))) {
        fleet_free(&fl);
        return -1;
    }
    if (f)
        fputs("gpu_index,flagged,variant_index,flop_per_s,fleet_median_flop_per_s,ratio,variant,shape,gpu\n", f);
    for (int vi = 0; f && vi < vars->ngroups; vi++) {
        int cnt;
        const int *idx = row_group(vars, vi, &cnt);
        for (int g = 0; g < fl.ngpus; g++) {
            const struct fleet_gpu *G = &fl.gpu[g];
            for (int v = 0; v < G->nvariants; v++) {
                const struct fleet_variant *V = &G->v[v];
                if (strcmp(V->variant, ds->rows[idx[0]].variant) != 0 || !(V->flop_per_s > 0))
                    continue;
                char shape[96], gpu[160];
                snprintf(shape, sizeof shape, "%ldx%ldx%ld", V->m, V->n, V->k);
                /* short enough for an axis label: rank, host, and the UUID's first 8 hex
                 * digits (what nvidia-smi -L users recognise; the report has the whole UUID) */
                snprintf(gpu, sizeof gpu, "rank %s: %s %.12s", G->rank[0] ? G->rank : "?",
                         G->host[0] ? G->host : "?", G->uuid[0] ? G->uuid : "?");
                const double nums[] = {V->flop_per_s, V->fleet_median, V->ratio};
                const char *const strs[] = {V->variant, shape, gpu};
                struct csv_row w = {f, 0};
                csv_put_long(&w, g + 1);
                csv_put_long(&w, G->flagged);
                csv_put_long(&w, vi + 1);
                for (int q = 0; q < 3; q++)
                    csv_put_double(&w, nums[q]);
                for (int q = 0; q < 3; q++)
                    csv_put(&w, strs[q]);
                csv_end(&w);
                n++;
            }
        }
        for (int j = 0; j < cnt; j++)
            mark[idx[j]] = 1;
    }
    fleet_free(&fl);
    if (f && atomic_commit(&t, err, errlen) != 0)
        return -1;
    return n;
}

/* ---- running gnuplot ---- */

/* The child of run_gnuplot, between vfork and exec: it shares the parent's memory, so only
 * system calls, and no handler of the parent's may run here. */
static _Noreturn void exec_child(const char *prog, char *const argv[], int out_fd, pid_t parent,
                                 const sigset_t *mask)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);   /* a report killed by SIGKILL takes gnuplot along */
    if (getppid() != parent)
        _exit(127);   /* the parent died before the line above */
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        struct sigaction cur;
        if (sigaction(sigs[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN) {
            cur.sa_handler = SIG_DFL;
            cur.sa_flags = 0;
            sigaction(sigs[i], &cur, NULL);
        }
    }
    pthread_sigmask(SIG_SETMASK, mask, NULL);
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
        _exit(127);
    execve(prog, argv, environ);
    static const char msg[] = "exec failed";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(127);
}

/* Runs gnuplot with argv, everything it prints captured into out. Returns 0 when it
 * exited 0 and printed nothing; otherwise -1 with the text (or the reason) in out.
 * vfork rather than posix_spawn, to set the child's parent-death signal; SIGINT and
 * SIGTERM kill it through analysis/tmpfiles.h, registered before either can come in. */
static int run_gnuplot(char *const argv[], char *out, size_t outlen)
{
    char prog[4096];
    if (!find_on_path(argv[0], prog, sizeof prog)) {
        snprintf(out, outlen, "cannot run %s: not found on PATH", argv[0]);
        return -1;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(out, outlen, "pipe: %s", strerror(errno));
        return -1;
    }
    sigset_t hold, old;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &hold, &old);
    pid_t parent = getpid(), pid = vfork();
    if (pid == 0)
        exec_child(prog, argv, fds[1], parent, &old);
    int fork_errno = errno;   /* of vfork, when it failed */
    if (pid > 0)
        tmpfiles_set_child(pid);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        snprintf(out, outlen, "cannot run %.1000s: %s", prog, strerror(fork_errno));
        return -1;
    }
    /* Read everything (keeping what fits) so the child never blocks on a full pipe. */
    size_t used = 0;
    char chunk[4096];
    ssize_t got;
    while ((got = read(fds[0], chunk, sizeof chunk)) != 0) {
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (ssize_t i = 0; i < got && used + 1 < outlen; i++)
            out[used++] = chunk[i];
    }
    if (outlen)
        out[used < outlen ? used : outlen - 1] = '\0';
    close(fds[0]);
    /* forgotten before the reap: a signal now must not kill a PID that may be reused */
    tmpfiles_set_child(0);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (ok && used == 0)
        return 0;
    if (used == 0)
        snprintf(out, outlen, "gnuplot exited with status %d and no message",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return -1;
}

/* gnuplot's multi-line messages, folded into one line. */
static void one_line(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        s[--n] = '\0';
    for (char *p = s; *p; p++)
        if (*p == '\n')
            *p = (p[1] == '\n' || p[1] == '\0') ? ' ' : '|';
}

/* snprintf that reports a cut: 0, or -1 with "path longer than the N-byte limit" in err. */
static int fit(char *out, size_t len, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < len)
        return 0;
    snprintf(err, errlen, "path '%.80s...' is longer than the %zu-byte limit", out, len - 1);
    return -1;
}

/* A path as gnuplot may be given it: gnuplot runs a file name that starts with '<' as a
 * shell command and an output name that starts with '|' as a pipe, so a relative path
 * gets a "./" in front and never starts with either. */
static int gp_path(char *out, size_t len, const char *p, char *err, size_t errlen)
{
    return fit(out, len, err, errlen, "%s%s", p[0] == '/' ? "" : "./", p);
}

/* Removes a chart file of a previous run, so a chart this run could not render is not
 * mistaken for a current one; anything but a regular file is left alone. */
static void remove_stale(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        unlink(path);
}

struct render_ctx {
    const char *plots_dir;   /* gnuplot-safe */
    const char *outdir;      /* as given */
    const char *tmpdir;      /* this run's private directory in outdir, as given */
    const char *gp_tmpdir;   /* the same, gnuplot-safe */
    struct plots_outcome *po;
    int def, extra;          /* the chart being drawn: its registry entry, a further shape's */
    int token;               /* the last stamp of write_shape_points */
};

/* Records chart `name` in the outcome; the why of a failure cut to fit. */
static void note_chart(struct render_ctx *cx, const char *name, const char *shape, int ok,
                       const char *why)
{
    struct plots_outcome *po = cx->po;
    if (po->ncharts >= PLOTS_CHARTS_MAX)
        return;
    struct plots_chart *c = &po->chart[po->ncharts++];
    c->def = cx->def;
    c->extra = cx->extra;
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->shape, sizeof c->shape, "%s", shape ? shape : "");
    c->rendered = ok;
    snprintf(c->why, sizeof c->why, "%s", ok ? "" : why);
    if (ok)
        po->rendered++;
    else
        po->failed++;
}

/* Renders one chart: the script writes NAME.{png,svg} in the private directory (mode
 * 0700, so no one can plant a link there for gnuplot to write through); both are checked
 * complete and renamed to OUT/NAME.{png,svg}. On any failure the temporaries and the
 * previous run's NAME.{png,svg} are removed, and the chart is recorded as failed. */
static int render_chart(struct render_ctx *cx, const char *script, const char *name, const char *shape,
                        const char *const *args, int nargs)
{
    static const char *const ext[] = {"png", "svg"};
    char script_path[4096], tmpbase[4096], tmp[2][4200], fin[2][4200], msg[2048] = "";
    int rc = fit(script_path, sizeof script_path, msg, sizeof msg, "%s/%s", cx->plots_dir, script);
    if (rc == 0)
        rc = fit(tmpbase, sizeof tmpbase, msg, sizeof msg, "%s/%s", cx->gp_tmpdir, name);
    for (int e = 0; e < 2 && rc == 0; e++) {
        rc = fit(tmp[e], sizeof tmp[e], msg, sizeof msg, "%s.%s", tmpbase, ext[e]);
        if (rc == 0)
            rc = fit(fin[e], sizeof fin[e], msg, sizeof msg, "%s/%s.%s", cx->outdir, name, ext[e]);
        if (rc == 0)
            rc = atomic_target_ok(fin[e], msg, sizeof msg);
    }
    if (rc == 0) {
        char *argv[16];
        int a = 0;
        argv[a++] = (char *)"gnuplot";
        argv[a++] = (char *)"-c";
        argv[a++] = script_path;
        for (int i = 0; i < nargs && a < 15; i++)
            argv[a++] = (char *)(args[i] ? args[i] : tmpbase);   /* NULL marks the output base */
        argv[a] = NULL;
        rc = run_gnuplot(argv, msg, sizeof msg);
        for (int e = 0; e < 2 && rc == 0; e++)
            rc = plots_output_complete(tmp[e], ext[e], msg, sizeof msg);
        for (int e = 0; e < 2 && rc == 0; e++)
            if (rename(tmp[e], fin[e]) != 0) {
                snprintf(msg, sizeof msg, "cannot rename '%.900s' to '%.900s': %s", tmp[e], fin[e],
                         strerror(errno));
                rc = -1;
            }
        if (rc != 0)
            for (int e = 0; e < 2; e++) {
                unlink(tmp[e]);
                remove_stale(fin[e]);
            }
    }
    if (rc != 0) {
        one_line(msg);
        char why[sizeof msg + 100];
        snprintf(why, sizeof why, "gnuplot -c %s: %s", script, msg);
        note_chart(cx, name, shape, 0, why);
        return -1;
    }
    note_chart(cx, name, shape, 1, NULL);
    return 0;
}

static void append_note(char *buf, size_t len, const char *note)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s", used ? "; " : "", note);
}

/* The per-shape points file: the first verified row of each variant at shape group g
 * (a repeated measurement would stack its markers on the first one). stamp[variant] ==
 * token marks a variant taken; each call passes a token not used before. */
static int write_shape_points(const struct gp_dataset *ds, const struct gp_ceilings *cs,
                              const struct row_groups *shapes, const struct row_groups *vars, const int *fam,
                              int *stamp, int token, int g, const char *path, char *err, size_t errlen)
{
    int cnt, nsel = 0, n_dram;
    const int *idx = row_group(shapes, g, &cnt);
    int *sel = malloc(((size_t)cnt + 1) * sizeof *sel);
    if (!sel) {
        snprintf(err, errlen, "out of memory for the points of one shape");
        return -1;
    }
    for (int i = 0; i < cnt; i++) {
        int v = vars->group_of[idx[i]];
        if (row_plottable(ds, &ds->rows[idx[i]]) && stamp[v] != token) {
            stamp[v] = token;
            sel[nsel++] = idx[i];
        }
    }
    int n = write_points(ds, cs, vars, fam, sel, nsel, 0, path, &n_dram, NULL, err, errlen);
    free(sel);
    return n;
}

/* The chart of shape group g, from a points file of that shape alone, so gnuplot never
 * scans every row per chart. */
static void render_shape(struct render_ctx *cx, const struct gp_dataset *ds, const struct gp_ceilings *cs,
                         const struct row_groups *shapes, const struct row_groups *vars, const int *fam, int *stamp,
                         int g, const char *roofs_arg, const char *title)
{
    const char *chart = plots_charts[cx->def].name;
    char shape[96], name[240], script[160], pts[4200], gp_pts[4200], err[1024] = "";
    shape_of(&ds->rows[shapes->rows[shapes->start[g]]], shape, sizeof shape);
    if (cx->extra)
        snprintf(name, sizeof name, "%s_%s", chart, shape);
    else
        snprintf(name, sizeof name, "%s", chart);
    snprintf(script, sizeof script, "%s.gp", chart);
    int named = fit(pts, sizeof pts, err, sizeof err, "%s/points_%s.csv", cx->tmpdir, shape) == 0;
    int ok = named && gp_path(gp_pts, sizeof gp_pts, pts, err, sizeof err) == 0 &&
             write_shape_points(ds, cs, shapes, vars, fam, stamp, ++cx->token, g, pts, err, sizeof err) > 0;
    if (ok) {
        const char *args[] = {gp_pts, roofs_arg, NULL, title, PLOT_FORMATS, shape};
        render_chart(cx, script, name, shape, args, 6);
    } else {
        note_chart(cx, name, shape, 0, err[0] ? err : "no points at this shape");
    }
    if (named)   /* never a cut name: that could be someone else's file */
        unlink(pts);   /* the private directory holds one points file at a time */
}

/* A chart's title: "SUBJECT  |  GPU  |  WHAT  |  DATE", the subject and its bar left out
 * when empty; ISO dates cut to the day. */
static void chart_title(char *out, size_t len, const char *subject, const char *gpu, const char *what,
                        const char *date, int have_ceilings)
{
    snprintf(out, len, "%s%s%s  |  %s  |  %.*s%s", subject, *subject ? "  |  " : "", gpu, what,
             date[0] >= '0' && date[0] <= '9' ? 10 : 64, date, have_ceilings ? "" : "  (no ceilings.csv: roofs not drawn)");
}

/* The shapes and precisions of the rows a chart draws (mark[i] set, or the rows of shape
 * group g when g >= 0), for its title: "M x N x K = 8192x8192x8192  |  FP32, TF32" or
 * "4 shapes, 1024x1024x1024 to 8192x8192x8192  |  FP32". */
static void describe_rows(const struct gp_dataset *ds, const struct row_groups *shapes, int *seen,
                          int stamp, const unsigned char *mark, int g, char *out, size_t len)
{
    int nshapes = 0, lo = -1, hi = -1, cnt = ds->nrows;
    double lo_w = 0, hi_w = 0;
    const int *idx = NULL;
    char prec[128] = "";
    if (g >= 0)
        idx = row_group(shapes, g, &cnt);
    for (int s = 0; s < cnt; s++) {
        int i = idx ? idx[s] : s;
        const struct gp_result *r = &ds->rows[i];
        if ((!idx && !mark[i]) || (idx && !row_plottable(ds, r)))
            continue;
        double w = (double)r->m * (double)r->n * (double)r->k;
        if (lo < 0 || w < lo_w)
            lo = i, lo_w = w;
        if (hi < 0 || w > hi_w)
            hi = i, hi_w = w;
        if (seen[shapes->group_of[i]] != stamp) {
            seen[shapes->group_of[i]] = stamp;
            nshapes++;
        }
        char up[40];
        size_t k = 0;
        for (; r->precision[k] && k + 1 < sizeof up; k++)
            up[k] = (char)(r->precision[k] >= 'a' && r->precision[k] <= 'z' ? r->precision[k] - 32
                                                                             : r->precision[k]);
        up[k] = '\0';
        size_t ul = strlen(up), pl = strlen(prec);
        int dup = 0;
        for (const char *p = prec; k && (p = strstr(p, up)); p += ul)
            dup |= (p == prec || p[-1] == ' ') && (p[ul] == ',' || p[ul] == '\0');
        if (k && !dup && pl + ul + 3 < sizeof prec)
            snprintf(prec + pl, sizeof prec - pl, "%s%s", pl ? ", " : "", up);
    }
    char a[96] = "", b[96] = "";
    if (lo >= 0) {
        shape_of(&ds->rows[lo], a, sizeof a);
        shape_of(&ds->rows[hi], b, sizeof b);
    }
    if (nshapes <= 1)
        snprintf(out, len, "M x N x K = %s  |  %s", a[0] ? a : "no shape", prec[0] ? prec : "precision unknown");
    else
        snprintf(out, len, "%d shapes, %s to %s  |  %s", nshapes, a, b, prec[0] ? prec : "precision unknown");
}

/* The variant families charted one by one, and each one's file-name part. */
static const int family_charted[] = {FAM_FP32_SIMT, FAM_TF32, FAM_3XTF32, FAM_TENSOR16};
static const char *const family_slug[FAM_COUNT] = {"fp32_simt", "tf32_tensor", "3xtf32", "tensor16", "cublas"};

/* A cuBLAS row is family f's reference when it computes on the pipe f's kernels use:
 * cuBLAS SGEMM for FP32 SIMT, cuBLAS TF32 for the TF32 tensor cores, both for 3xTF32 (FP32
 * accuracy on them); cuBLAS BF16 and FP16 for none of these (a family of their own). */
static int cublas_refers(int f, const struct gp_roof *ro)
{
    if (is_16bit_row(ro) || f == FAM_TENSOR16)
        return is_16bit_row(ro) && f == FAM_TENSOR16;
    return f == FAM_3XTF32 || (ro->compute_path == GP_PATH_TENSOR) == (f == FAM_TF32);
}

/* One hierarchical roofline per family at shape group g, each with its cuBLAS references
 * and only the compute roofs its rows run against: drawn when the all-variant chart of g
 * holds more variants than PLOTS_FAMILY_SPLIT_AT from two families or more (one chart then
 * cannot give every variant a colour of its own). A family chart of an earlier run that
 * this one does not draw is removed, so none passes for current. */
static void render_families(struct render_ctx *cx, const struct gp_dataset *ds, const struct gp_ceilings *cs,
                            const struct row_groups *shapes, const struct row_groups *vars, const int *fam,
                            int *stamp, int *seen, int *seen_stamp, int g, const char *roofs_arg, const char *gpu,
                            const char *date)
{
    int cnt, nvar = 0, present[FAM_COUNT] = {0};
    const int *idx = row_group(shapes, g, &cnt);
    int *sel = malloc(((size_t)cnt + 1) * sizeof *sel), *first = malloc(((size_t)cnt + 1) * sizeof *first);
    unsigned char *mark = calloc((size_t)ds->nrows + 1, 1);
    int nfirst = 0, token = ++cx->token;
    char shape[96];
    shape_of(&ds->rows[idx[0]], shape, sizeof shape);
    for (int i = 0; sel && first && mark && i < cnt; i++) {   /* each variant's first row with levels */
        int v = vars->group_of[idx[i]];
        if (stamp[v] != token && row_has_levels(ds, &ds->rows[idx[i]], cs)) {
            stamp[v] = token;
            first[nfirst++] = idx[i];
            present[fam[v]]++;
            nvar++;
        }
    }
    int nfam = 0;
    for (size_t k = 0; k < sizeof family_charted / sizeof family_charted[0]; k++)
        nfam += present[family_charted[k]] > 0;
    for (size_t k = 0; k < sizeof family_charted / sizeof family_charted[0]; k++) {
        int f = family_charted[k];
        char name[160], script[160], pts[4200], gp_pts[4200], err[1024] = "", roofs_shown[128] = "";
        snprintf(name, sizeof name, "%s_%s", plots_charts[cx->def].name, family_slug[f]);
        if (!sel || !first || !mark || nvar <= PLOTS_FAMILY_SPLIT_AT || nfam < 2 || !present[f]) {
            for (int e = 0; e < 2; e++) {
                char old[4400];
                if (fit(old, sizeof old, err, sizeof err, "%s/%s.%s", cx->outdir, name, e ? "svg" : "png") == 0)
                    remove_stale(old);
            }
            continue;
        }
        int nsel = 0, has_mma = 0, has16 = 0;
        double x3 = NAN;   /* a 3xTF32 kernel's tensor operations per GEMM FLOP: its roof is TF32 / x3 */
        for (int s = 0; s < nfirst; s++) {
            int i = first[s], rf = fam[vars->group_of[i]];
            struct gp_roof ro;
            roof_derive(&ds->rows[i], cs, &ro);
            if (rf != f && !(rf == FAM_CUBLAS && cublas_refers(f, &ro)))
                continue;
            sel[nsel++] = i;
            /* the compute roof this row runs against, once in the list */
            const int mma = ro.tensor_ceiling == GP_CEIL_tf32_mma;
            has_mma |= mma;
            has16 |= is_16bit_row(&ro);
            const char *id = ro.compute_path != GP_PATH_TENSOR      ? "fp32_fma"
                             : mma                                  ? gp_ceiling_info[GP_CEIL_tf32_mma].id
                             : is_16bit_row(&ro) && cs              ? gp_ceiling_info[top_16bit_ceiling(cs)].id
                                                                    : gp_ceiling_info[roof_tf32_ceiling(cs)].id;
            if (rf == FAM_3XTF32 && ro.tensor_per_flop > 1 && cs) {
                id = mma ? "tf32_mma_x3" : "tf32_x3";
                x3 = isnan(x3) ? ro.tensor_per_flop : fmin(x3, ro.tensor_per_flop);   /* the highest roof */
            }
            size_t used = strlen(roofs_shown), il = strlen(id);
            const char *at = strstr(roofs_shown, id);
            if (!(at && (at == roofs_shown || at[-1] == ' ') && (at[il] == ' ' || at[il] == '\0')))
                snprintf(roofs_shown + used, sizeof roofs_shown - used, "%s%s", used ? " " : "", id);
        }
        char what[256], title[512], subject[96];
        snprintf(subject, sizeof subject, "%s with cuBLAS", family_name[f]);
        for (int t = 0; t < nsel; t++)   /* the title names this chart's precisions alone */
            mark[sel[t]] = 1;
        describe_rows(ds, shapes, seen, ++*seen_stamp, mark, -1, what, sizeof what);
        for (int t = 0; t < nsel; t++)
            mark[sel[t]] = 0;
        chart_title(title, sizeof title, subject, gpu, what, date, cs != NULL);
        snprintf(script, sizeof script, "%s.gp", plots_charts[cx->def].name);
        /* the 3xTF32 kernels' own roof, and the mma.sync one, go in a roofs file of this chart's */
        char roofs[4200], gp_roofs[4200];
        int n_dram, named = fit(pts, sizeof pts, err, sizeof err, "%s/points_%s.csv", cx->tmpdir, family_slug[f]) == 0,
                    own_roofs = (!isnan(x3) || has_mma) && fit(roofs, sizeof roofs, err, sizeof err, "%s/roofs_%s.csv", cx->tmpdir,
                                                  family_slug[f]) == 0;
        if (own_roofs && (gp_path(gp_roofs, sizeof gp_roofs, roofs, err, sizeof err) ||
                          write_roofs(cs, x3, (has_mma ? ROOFS_MMA : 0) | (has16 ? ROOFS_16BIT : 0), roofs, err,
                                      sizeof err) < 0))
            own_roofs = 0;
        if (named && gp_path(gp_pts, sizeof gp_pts, pts, err, sizeof err) == 0 &&
            write_points(ds, cs, vars, fam, sel, nsel, 0, pts, &n_dram, NULL, err, sizeof err) > 0) {
            const char *args[] = {gp_pts, own_roofs ? gp_roofs : roofs_arg, NULL, title, PLOT_FORMATS, shape, roofs_shown};
            int before = cx->po->ncharts;
            render_chart(cx, script, name, shape, args, 7);
            if (cx->po->ncharts > before)
                snprintf(cx->po->chart[before].family, sizeof cx->po->chart[before].family, "%s", family_name[f]);
        } else {
            note_chart(cx, name, shape, 0, err[0] ? err : "no points for this family");
        }
        if (named)
            unlink(pts);
        if (own_roofs)
            unlink(roofs);
    }
    free(sel);
    free(first);
    free(mark);
}

/* Fills po->summary: what failed, and which shapes got no chart of their own. */
static void summarise(struct plots_outcome *po)
{
    po->summary[0] = '\0';
    for (int i = 0; i < po->ncharts; i++)
        if (!po->chart[i].rendered) {
            char line[600];
            snprintf(line, sizeof line, "%s FAILED: %s", po->chart[i].name, po->chart[i].why);
            append_note(po->summary, sizeof po->summary, line);
        }
    if (po->shapes_left_out > 0) {
        char line[256];
        snprintf(line, sizeof line,
                 "hierarchical rooflines drawn for %d of %d shapes with counters, %d left out "
                 "(--max-shape-charts raises the bound of %d)",
                 po->shapes_with_counters - po->shapes_left_out, po->shapes_with_counters,
                 po->shapes_left_out, po->max_shape_charts);
        append_note(po->summary, sizeof po->summary, line);
    }
    if (po->notes[0])
        append_note(po->summary, sizeof po->summary, po->notes);
}

/* The chart scripts beside the executable, never in the working directory (a results
 * directory could bring a plots/common.gp of its own for gnuplot to run): from the
 * directory D of /proc/self/exe, an install's D/../share/gemmprof/plots, the
 * repository's D/../plots (D = build/), and for the test programs in build/tests/,
 * D/../../plots. 0 with the first that has common.gp in out, or -1 naming those searched. */
static int find_plots_dir(char *out, size_t len, char *err, size_t errlen)
{
    char exe[4096], up[3][4096], tried[3 * 4200] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || (size_t)n >= sizeof exe - 1) {
        snprintf(err, errlen, "chart scripts not found: cannot read /proc/self/exe to look beside the "
                 "executable; set GEMMPROF_PLOTS to the plots/ directory of the gemmprof sources");
        return -1;
    }
    exe[n] = '\0';
    /* up[0] = D, up[1] = its parent, up[2] = the parent's parent ("" past the root) */
    snprintf(up[0], sizeof up[0], "%s", exe);
    for (int i = 0; i < 3; i++) {
        if (i)
            snprintf(up[i], sizeof up[i], "%s", up[i - 1]);
        char *slash = strrchr(up[i], '/');
        if (slash)
            *slash = '\0';
    }
    size_t dl = strlen(up[0]);
    int in_tests = dl >= 6 && strcmp(up[0] + dl - 6, "/tests") == 0;
    const char *const fmt[3] = {"%s/share/gemmprof/plots", "%s/plots", "%s/plots"};
    for (int c = 0; c < (in_tests ? 3 : 2); c++) {
        char cand[4200], common[4300];
        snprintf(cand, sizeof cand, fmt[c], up[c == 2 ? 2 : 1]);
        snprintf(common, sizeof common, "%s/common.gp", cand);
        if (access(common, R_OK) == 0 && strlen(cand) < len) {
            snprintf(out, len, "%s", cand);
            return 0;
        }
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", cand);
    }
    snprintf(err, errlen, "chart scripts not found: searched %s (beside %s) and GEMMPROF_PLOTS is "
             "unset; set GEMMPROF_PLOTS to the plots/ directory of the gemmprof sources", tried, exe);
    return -1;
}

int plots_render_ex(const struct gp_dataset *ds, const char *outdir, const struct plots_options *opt,
                    struct plots_outcome *po, char *err, size_t errlen)
{
    memset(po, 0, sizeof *po);
    if (errlen)
        err[0] = '\0';
    char found[4096];
    const char *plots_dir = opt ? opt->plots_dir : NULL;
    if (!plots_dir || !*plots_dir) {
        const char *env = getenv("GEMMPROF_PLOTS");
        if (env && *env)
            plots_dir = env;
        else if (find_plots_dir(found, sizeof found, err, errlen))
            return -1;
        else
            plots_dir = found;
    }
    po->max_shape_charts = opt && opt->max_shape_charts >= 0 ? opt->max_shape_charts
                                                             : PLOTS_SHAPE_CHARTS_DEFAULT;
    if (po->max_shape_charts > PLOTS_SHAPE_CHARTS_LIMIT)
        po->max_shape_charts = PLOTS_SHAPE_CHARTS_LIMIT;
    /* every chart's script, and the two every script loads */
    for (int i = 0; i < PLOTS_CHART_KINDS + 2; i++) {
        char p[4096];
        if (fit(p, sizeof p, err, errlen, "%s/%s%s", plots_dir,
                i < PLOTS_CHART_KINDS ? plots_charts[i].name : i == PLOTS_CHART_KINDS ? "common" : "check", ".gp"))
            return -1;
        if (access(p, R_OK) != 0) {
            snprintf(err, errlen, "%s: %s (set GEMMPROF_PLOTS to the plots/ directory of the gemmprof "
                     "sources)", p, strerror(errno));
            return -1;
        }
    }
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create '%s': %s", outdir, strerror(errno));
        return -1;
    }

    const struct gp_ceilings *cs = ds->have_ceilings ? &ds->ceilings : NULL;
    char points[4096], roofs[4096], sweep[4096], stalls[4096], issue[4096], fleet[4096], gp_dir[4096];
    char gp_points[4200], gp_roofs[4200], gp_sweep[4200], gp_stalls[4200], gp_issue[4200], gp_fleet[4200];
    if (fit(points, sizeof points, err, errlen, "%s/roofline_points.csv", outdir) ||
        fit(fleet, sizeof fleet, err, errlen, "%s/fleet.csv", outdir) ||
        gp_path(gp_fleet, sizeof gp_fleet, fleet, err, errlen) ||
        fit(issue, sizeof issue, err, errlen, "%s/issue_points.csv", outdir) ||
        gp_path(gp_issue, sizeof gp_issue, issue, err, errlen) ||
        fit(stalls, sizeof stalls, err, errlen, "%s/stalls.csv", outdir) ||
        gp_path(gp_stalls, sizeof gp_stalls, stalls, err, errlen) ||
        fit(roofs, sizeof roofs, err, errlen, "%s/roofline_roofs.csv", outdir) ||
        fit(sweep, sizeof sweep, err, errlen, "%s/sweep.csv", outdir) ||
        gp_path(gp_dir, sizeof gp_dir, plots_dir, err, errlen) ||
        gp_path(gp_points, sizeof gp_points, points, err, errlen) ||
        gp_path(gp_roofs, sizeof gp_roofs, roofs, err, errlen) ||
        gp_path(gp_sweep, sizeof gp_sweep, sweep, err, errlen))
        return -1;

    struct row_groups shapes, vars;
    int *stamp = NULL, *seen = NULL, *fam = NULL;
    unsigned char *mark = NULL;   /* per data kind, the rows its file holds: for the titles */
    struct shape_rank *ranks = NULL;
    if (row_groups_build(ds->rows, ds->nrows, ROW_KEY_SHAPE, &shapes) ||
        row_groups_build(ds->rows, ds->nrows, ROW_KEY_VARIANT, &vars) ||
        !(stamp = calloc((size_t)vars.ngroups + 1, sizeof *stamp)) ||
        !(fam = calloc((size_t)vars.ngroups + 1, sizeof *fam)) || group_by_family(ds, cs, &vars, fam) ||
        !(seen = calloc((size_t)shapes.ngroups + 1, sizeof *seen)) ||
        !(mark = calloc((size_t)PLOTS_DATA_KINDS, (size_t)ds->nrows + 1))) {
        snprintf(err, errlen, "%s: out of memory indexing %d rows", outdir, ds->nrows);
        free(stamp);
        free(seen);
        free(fam);
        row_groups_free(&shapes);
        row_groups_free(&vars);
        return -1;
    }
    unsigned char *marks[PLOTS_DATA_KINDS];
    for (int d = 0; d < PLOTS_DATA_KINDS; d++)
        marks[d] = mark + (size_t)d * ((size_t)ds->nrows + 1);
    int rc = -1, n_dram = 0, nranks = 0, tmp_slot = -1;
    char tmpdir[4096], gp_tmpdir[4200];
    int n_points = write_points(ds, cs, &vars, fam, NULL, 0, 0, points, &n_dram, marks[PLOTS_DATA_DRAM], err, errlen);
    int n_roofs = n_points < 0 ? -1 : write_roofs(cs, NAN, any_16bit(ds) ? ROOFS_16BIT : 0, roofs, err, errlen);
    int n_sweep = n_roofs < 0 ? -1 : write_sweep(ds, &vars, fam, sweep, marks[PLOTS_DATA_SWEEP], err, errlen);
    int n_stalls = n_sweep < 0 ? -1 : write_stalls(ds, &vars, stalls, marks[PLOTS_DATA_STALLS], err, errlen);
    int n_issue = n_stalls < 0 ? -1 : write_issue_points(ds, cs, &vars, fam, issue, marks[PLOTS_DATA_ISSUE], err, errlen);
    int n_fleet = n_issue < 0 ? -1 : write_fleet(ds, &vars, fleet, marks[PLOTS_DATA_FLEET], err, errlen);
    char why[512];
    if (n_fleet < 0)
        goto out;
    if (n_fleet == 0)
        unlink(fleet);
    if (n_stalls == 0)
        unlink(stalls);   /* a breakdown of an earlier run must not pass for this one's */
    if (n_issue == 0)
        unlink(issue);
    if (!plots_gnuplot_available(why, sizeof why)) {
        snprintf(err, errlen, "%s (plot data written to %s/)", why, outdir);
        goto out;
    }
    /* gnuplot's output and its points files in a directory of this run's own, in outdir
     * so the renames stay on one file system; first the ones of runs killed outright */
    tmpfiles_reap_stale(outdir);
    if (tmpfiles_mkdtemp(outdir, tmpdir, sizeof tmpdir, &tmp_slot, err, errlen) ||
        gp_path(gp_tmpdir, sizeof gp_tmpdir, tmpdir, err, errlen))
        goto out;
    if ((nranks = rank_shapes(ds, cs, &shapes, &ranks)) < 0) {
        snprintf(err, errlen, "%s: out of memory ranking shapes", outdir);
        goto out;
    }
    /* the best-covered shape gets the main per-shape charts; the next ones, up to the
     * bound, a chart each: where A, B and C fit in the L2 the picture differs */
    po->shapes_with_counters = nranks;
    int others = nranks - 1 < po->max_shape_charts ? nranks - 1 : po->max_shape_charts;
    if (nranks > 0)
        po->shapes_left_out = nranks - 1 - others;

    /* Titles: which GPU, which shapes and precisions, when. The run's metadata first, the
     * ceilings file second. */
    const char *gpu = ds->have_meta && ds->meta.gpu_name[0] ? ds->meta.gpu_name
                    : cs && cs->gpu[0]                     ? cs->gpu
                                                           : "unknown GPU";
    const char *date = ds->have_meta && ds->meta.date[0] ? ds->meta.date
                     : cs && cs->date[0]                 ? cs->date
                                                         : "date unknown";
    const char *roofs_arg = n_roofs > 0 ? gp_roofs : "none";
    const int have[PLOTS_DATA_KINDS] = {n_dram, nranks, nranks, n_sweep, n_stalls, n_issue, n_fleet, nranks};
    static const char *const lacking[PLOTS_DATA_KINDS] = {
        "no row has DRAM counters", "no row has memory counters", "no row has memory counters",
        "no verified and timed row", "no row has warp-stall counters",
        "no row has a warp-instruction count and an issue peak",
        "no row has a second GPU at its variant and shape (not a merged --fleet run)",
        "no row has memory counters"};
    const char *data_arg[PLOTS_DATA_KINDS] = {NULL, NULL, NULL, gp_sweep, gp_stalls, gp_issue, gp_fleet, NULL};
    struct render_ctx cx = {gp_dir, outdir, tmpdir, gp_tmpdir, po, 0, 0, 0};
    int stamp_no = 0;
    for (int c = 0; c < PLOTS_CHART_KINDS; c++) {
        const struct plots_chart_def *d = &plots_charts[c];
        char script[160], what[256], title[512], note[400];
        cx.def = c;
        cx.extra = 0;
        if (!have[d->data] && d->data == PLOTS_DATA_FLEET)
            continue;   /* one GPU: the fleet chart does not apply, nothing to note */
        if (!have[d->data]) {
            snprintf(note, sizeof note, "%s: skipped, %s", d->name, lacking[d->data]);
            append_note(po->notes, sizeof po->notes, note);
            continue;
        }
        snprintf(script, sizeof script, "%s.gp", d->name);
        if (d->data == PLOTS_DATA_FAMILIES) {
            render_families(&cx, ds, cs, &shapes, &vars, fam, stamp, seen, &stamp_no, ranks[0].group, roofs_arg, gpu,
                            date);
            continue;
        }
        int nshape = d->data == PLOTS_DATA_SHAPES ? others + 1 : d->data == PLOTS_DATA_SHAPE ? 1 : 0;
        for (int r = 0; r < nshape; r++) {
            cx.extra = r > 0;
            describe_rows(ds, &shapes, seen, ++stamp_no, NULL, ranks[r].group, what, sizeof what);
            chart_title(title, sizeof title, "", gpu, what, date, cs != NULL);
            render_shape(&cx, ds, cs, &shapes, &vars, fam, stamp, ranks[r].group, roofs_arg, title);
        }
        if (nshape)
            continue;
        describe_rows(ds, &shapes, seen, ++stamp_no, marks[d->data], -1, what, sizeof what);
        chart_title(title, sizeof title, "", gpu, what, date, cs != NULL);
        if (d->data != PLOTS_DATA_DRAM) {
            const char *args[] = {data_arg[d->data], roofs_arg, NULL, title, PLOT_FORMATS};
            render_chart(&cx, script, d->name, NULL, args, 5);
            continue;
        }
        /* the DRAM points alone: a quarter of the rows for gnuplot to read */
        char dram[4200], gp_dram[4200], derr[1024] = "";
        int nd, named = fit(dram, sizeof dram, derr, sizeof derr, "%s/points_dram.csv", tmpdir) == 0;
        if (!named || gp_path(gp_dram, sizeof gp_dram, dram, derr, sizeof derr) ||
            write_points(ds, cs, &vars, fam, NULL, 0, 1, dram, &nd, NULL, derr, sizeof derr) < 0) {
            note_chart(&cx, d->name, NULL, 0, derr);
        } else {
            const char *args[] = {gp_dram, roofs_arg, NULL, title, PLOT_FORMATS};
            render_chart(&cx, script, d->name, NULL, args, 5);
        }
        if (named)   /* never a cut name: that could be someone else's file */
            unlink(dram);
    }
    rc = po->rendered;
    summarise(po);
out:
    tmpfiles_remove_dir(tmp_slot);
    free(ranks);
    free(stamp);
    free(seen);
    free(fam);
    free(mark);
    row_groups_free(&shapes);
    row_groups_free(&vars);
    return rc;
}

int plots_render(const struct gp_dataset *ds, const char *outdir, const char *plots_dir, char *err,
                 size_t errlen)
{
    struct plots_outcome *po = malloc(sizeof *po);
    if (!po) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct plots_options opt = {plots_dir, -1};
    int n = plots_render_ex(ds, outdir, &opt, po, err, errlen);
    if (n >= 0) {
        snprintf(err, errlen, "%s", po->summary);
        if (po->failed)
            n = -1;   /* a chart missing is a failure: the caller's exit status says so */
    }
    free(po);
    return n;
}

int plots_parse_max_shape_charts(const char *s, int *out, char *why, size_t whylen)
{
    long long v;
    if (parse_ll(s, 0, PLOTS_SHAPE_CHARTS_LIMIT, &v)) {
        snprintf(why, whylen, "--max-shape-charts takes a whole number from 0 to %d, not '%.40s'",
                 PLOTS_SHAPE_CHARTS_LIMIT, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

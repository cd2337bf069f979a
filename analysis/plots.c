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
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"
#include "analysis/roofline.h"

extern char **environ;

const char *const plots_chart_names[] = {"roofline_dram", "roofline_hier", "sweep", "bytes", NULL};

#define PLOT_FORMATS "png svg"

/* ---- small helpers ---- */

static void path_join(char *out, size_t len, const char *dir, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

static int file_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
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

static int row_plottable(const struct gp_result *r)
{
    return r->status == GP_STATUS_OK && r->time_median_s > 0 && r->m > 0 && r->n > 0 && r->k > 0;
}

static void shape_of(const struct gp_result *r, char *buf, size_t len)
{
    snprintf(buf, len, "%ldx%ldx%ld", r->m, r->n, r->k);
}

/* The shape the per-kernel charts (hierarchical roofline, bytes) show: the one where
 * the most variants have counter data, the largest such on ties; "" when none has any.
 * One shape keeps those charts readable; the DRAM roofline and the sweep show them all. */
static void pick_shape(const struct gp_dataset *ds, const struct gp_ceilings *cs, char *out,
                       size_t len)
{
    int best_count = 0;
    double best_size = 0;
    out[0] = '\0';
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (!row_plottable(r))
            continue;
        int count = 0;
        for (int j = 0; j < ds->nrows; j++) {
            const struct gp_result *q = &ds->rows[j];
            if (!row_plottable(q) || q->m != r->m || q->n != r->n || q->k != r->k)
                continue;
            struct gp_roof roof;
            roof_derive(q, cs, &roof);
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                if (!isnan(roof.ai[l])) {
                    count++;
                    break;
                }
        }
        double size = (double)r->m * (double)r->n * (double)r->k;
        if (count > best_count || (count == best_count && count > 0 && size > best_size)) {
            best_count = count;
            best_size = size;
            shape_of(r, out, len);
        }
    }
}

static const char *const level_label[GP_LEVEL_COUNT] = {"DRAM", "L2", "L1", "shared"};

/* roofline_points.csv; returns the number of points at DRAM level (*n_dram) and in all. */
static int write_points(const struct gp_dataset *ds, const struct gp_ceilings *cs, const char *path,
                        int *n_dram, char *err, size_t errlen)
{
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f)
        return -1;
    fputs("variant,precision,m,n,k,shape,level,bytes,ai_flop_per_byte,flop_per_s,"
          "attainable_flop_per_s,bound\n", f);
    int n = 0;
    *n_dram = 0;
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (!row_plottable(r))
            continue;
        struct gp_roof roof;
        roof_derive(r, cs, &roof);
        char shape[96];
        shape_of(r, shape, sizeof shape);
        for (int l = 0; l < GP_LEVEL_COUNT; l++) {
            if (isnan(roof.ai[l]) || isnan(roof.achieved))
                continue;
            csv_write_field(f, r->variant);
            fputc(',', f);
            csv_write_field(f, r->precision);
            fprintf(f, ",%ld,%ld,%ld,", r->m, r->n, r->k);
            csv_write_field(f, shape);
            fprintf(f, ",%s,", gp_level_name[l]);
            csv_write_double(f, roof.bytes[l]);
            fputc(',', f);
            csv_write_double(f, roof.ai[l]);
            fputc(',', f);
            csv_write_double(f, roof.achieved);
            fputc(',', f);
            csv_write_double(f, roof.attainable[l]);
            fprintf(f, ",%d\n", roof.bound_level == l);
            n++;
            if (l == GP_LEVEL_DRAM)
                (*n_dram)++;
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
    fprintf(f, "%s,%s,%s,%s,", kind, roof, level, source);
    csv_write_field(f, label);
    fputc(',', f);
    csv_write_double(f, value);
    fputc(',', f);
    csv_write_double(f, ridge_ai);
    fprintf(f, ",%s\n", unit);
}

/* roofline_roofs.csv: memory and compute roofs, measured and theoretical, plus the
 * ridge points of each measured memory roof with the FP32 FMA and TF32 roofs.
 * Returns the number of rows. */
static int write_roofs(const struct gp_ceilings *cs, const char *path, char *err, size_t errlen)
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
        static const struct { enum gp_ceiling_id id; const char *label; } comp[] = {
            {GP_CEIL_fp32_fma, "FP32 FMA"}, {GP_CEIL_fp32_nofma, "FP32 no FMA"}, {GP_CEIL_tf32, "TF32 tensor"},
        };
        for (int s = 0; s < 2; s++)
            for (size_t c = 0; c < sizeof comp / sizeof comp[0]; c++) {
                double v = s == 0 ? cs->c[comp[c].id].measured : cs->c[comp[c].id].theoretical;
                if (v > 0) {
                    roof_row(f, "compute", gp_ceiling_info[comp[c].id].id, "compute", src[s],
                             comp[c].label, v, "flop/s", NAN);
                    n++;
                }
            }
        for (int l = 0; l < GP_LEVEL_COUNT; l++)
            for (size_t c = 0; c < sizeof comp / sizeof comp[0]; c++) {
                double peak = cs->c[comp[c].id].measured;
                if (comp[c].id == GP_CEIL_fp32_nofma || !(bw[0][l] > 0) || !(peak > 0))
                    continue;
                char roof[64], label[96];
                snprintf(roof, sizeof roof, "%s/%s", gp_level_name[l], gp_ceiling_info[comp[c].id].id);
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
    int variant;    /* index of the variant's first row: ladder order */
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

/* sweep.csv, each variant's rows together and in size order: gnuplot joins consecutive
 * rows, and a row of another variant in between would break the line. */
static int write_sweep(const struct gp_dataset *ds, const char *path, char *err, size_t errlen)
{
    struct sweep_key *keys = malloc(((size_t)ds->nrows + 1) * sizeof *keys);
    if (!keys) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int nk = 0;
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *r = &ds->rows[i];
        if (!row_plottable(r))
            continue;
        int first = i;
        for (int j = 0; j < i; j++)
            if (strcmp(ds->rows[j].variant, r->variant) == 0) {
                first = j;
                break;
            }
        keys[nk].variant = first;
        keys[nk].work = (double)r->m * (double)r->n * (double)r->k;
        keys[nk].row = i;
        nk++;
    }
    qsort(keys, (size_t)nk, sizeof *keys, sweep_cmp);

    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f) {
        free(keys);
        return -1;
    }
    fputs("variant,precision,m,n,k,shape,size,flop_per_s,time_median_s\n", f);
    int n = 0;
    for (int i = 0; i < nk; i++) {
        const struct gp_result *r = &ds->rows[keys[i].row];
        char shape[96];
        shape_of(r, shape, sizeof shape);
        /* Square shapes plot at N; others at the cube root of M N K, the N of a square
         * GEMM with the same work. */
        double size = (r->m == r->n && r->n == r->k) ? (double)r->m
                                                     : cbrt((double)r->m * (double)r->n * (double)r->k);
        csv_write_field(f, r->variant);
        fputc(',', f);
        csv_write_field(f, r->precision);
        fprintf(f, ",%ld,%ld,%ld,", r->m, r->n, r->k);
        csv_write_field(f, shape);
        fputc(',', f);
        csv_write_double(f, size);
        fputc(',', f);
        csv_write_double(f, gp_flops_analytic(r) / r->time_median_s);
        fputc(',', f);
        csv_write_double(f, r->time_median_s);
        fputc('\n', f);
        n++;
    }
    free(keys);
    if (atomic_commit(&t, err, errlen) != 0)
        return -1;
    return n;
}

/* ---- running gnuplot ---- */

/* Runs gnuplot with argv, everything it prints captured into out. Returns 0 when it
 * exited 0 and printed nothing; otherwise -1 with the text (or the reason) in out. */
static int run_gnuplot(char *const argv[], char *out, size_t outlen)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(out, outlen, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        snprintf(out, outlen, "cannot run %s: %s", argv[0], strerror(rc));
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

/* Renders one chart: the script writes OUT/.NAME.tmpPID.{png,svg}; both are checked
 * non-empty and renamed to NAME.{png,svg}; on any failure the temporaries are removed. */
static int render_chart(const char *plots_dir, const char *script, const char *outdir,
                        const char *name, const char *const *args, int nargs, char *err,
                        size_t errlen)
{
    char script_path[4096], tmpbase[4096];
    path_join(script_path, sizeof script_path, plots_dir, script);
    snprintf(tmpbase, sizeof tmpbase, "%s/.%s.tmp%ld", outdir, name, (long)getpid());

    char *argv[16];
    int a = 0;
    argv[a++] = (char *)"gnuplot";
    argv[a++] = (char *)"-c";
    argv[a++] = script_path;
    for (int i = 0; i < nargs && a < 14; i++)
        argv[a++] = (char *)(args[i] ? args[i] : tmpbase);   /* NULL marks the output base */
    argv[a] = NULL;

    char msg[2048];
    int rc = run_gnuplot(argv, msg, sizeof msg);
    static const char *const ext[] = {"png", "svg"};
    char tmp[2][4200], fin[2][4200];
    for (int e = 0; e < 2; e++) {
        snprintf(tmp[e], sizeof tmp[e], "%s.%s", tmpbase, ext[e]);
        snprintf(fin[e], sizeof fin[e], "%s/%s.%s", outdir, name, ext[e]);
    }
    if (rc == 0)
        for (int e = 0; e < 2; e++)
            if (!file_nonempty(tmp[e])) {
                snprintf(msg, sizeof msg, "produced no %s output", ext[e]);
                rc = -1;
            }
    if (rc != 0) {
        one_line(msg);
        snprintf(err, errlen, "gnuplot -c %s (chart %s): %s", script_path, name, msg);
        for (int e = 0; e < 2; e++)
            unlink(tmp[e]);
        return -1;
    }
    for (int e = 0; e < 2; e++)
        if (rename(tmp[e], fin[e]) != 0) {
            snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp[e], fin[e], strerror(errno));
            unlink(tmp[0]);
            unlink(tmp[1]);
            return -1;
        }
    return 0;
}

static void append_note(char *buf, size_t len, const char *note)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s", used ? "; " : "", note);
}

int plots_render(const struct gp_dataset *ds, const char *outdir, const char *plots_dir, char *err,
                 size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    if (!plots_dir || !*plots_dir) {
        const char *env = getenv("GEMMPROF_PLOTS");
        plots_dir = (env && *env) ? env : "plots";
    }
    static const char *const scripts[] = {"roofline_dram.gp", "roofline_hier.gp", "sweep.gp",
                                          "bytes.gp", "common.gp", "check.gp"};
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        char p[4096];
        path_join(p, sizeof p, plots_dir, scripts[i]);
        if (access(p, R_OK) != 0) {
            snprintf(err, errlen,
                     "%s: %s (run gemmprof from the repository root or set GEMMPROF_PLOTS to its "
                     "plots/ directory)", p, strerror(errno));
            return -1;
        }
    }
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create '%s': %s", outdir, strerror(errno));
        return -1;
    }

    const struct gp_ceilings *cs = ds->have_ceilings ? &ds->ceilings : NULL;
    char points[4096], roofs[4096], sweep[4096];
    path_join(points, sizeof points, outdir, "roofline_points.csv");
    path_join(roofs, sizeof roofs, outdir, "roofline_roofs.csv");
    path_join(sweep, sizeof sweep, outdir, "sweep.csv");
    int n_dram = 0;
    int n_points = write_points(ds, cs, points, &n_dram, err, errlen);
    if (n_points < 0)
        return -1;
    int n_roofs = write_roofs(cs, roofs, err, errlen);
    if (n_roofs < 0)
        return -1;
    int n_sweep = write_sweep(ds, sweep, err, errlen);
    if (n_sweep < 0)
        return -1;

    char why[512];
    if (!plots_gnuplot_available(why, sizeof why)) {
        snprintf(err, errlen, "%s (plot data written to %s/)", why, outdir);
        return -1;
    }

    /* Title: which GPU, when. The run's metadata first, the ceilings file second. */
    const char *gpu = ds->have_meta && ds->meta.gpu_name[0] ? ds->meta.gpu_name
                    : cs && cs->gpu[0]                     ? cs->gpu
                                                           : "unknown GPU";
    const char *date = ds->have_meta && ds->meta.date[0] ? ds->meta.date
                     : cs && cs->date[0]                 ? cs->date
                                                         : "date unknown";
    char title[256];
    /* ISO dates are cut to the day; the time of day only clutters a title. */
    snprintf(title, sizeof title, "%s, %.*s%s", gpu, date[0] >= '0' && date[0] <= '9' ? 10 : 64, date,
             cs ? "" : "  (no ceilings.csv: roofs not drawn)");
    const char *roofs_arg = n_roofs > 0 ? roofs : "none";
    char shape[96];
    pick_shape(ds, cs, shape, sizeof shape);

    char notes[1024] = "";
    int rendered = 0;
    if (n_dram > 0) {
        const char *args[] = {points, roofs_arg, NULL, title, PLOT_FORMATS};
        if (render_chart(plots_dir, "roofline_dram.gp", outdir, "roofline_dram", args, 5, err, errlen))
            return -1;
        rendered++;
    } else {
        append_note(notes, sizeof notes, "roofline_dram: skipped, no row has DRAM counters");
    }
    if (n_points > 0 && shape[0]) {
        const char *args[] = {points, roofs_arg, NULL, title, PLOT_FORMATS, shape};
        if (render_chart(plots_dir, "roofline_hier.gp", outdir, "roofline_hier", args, 6, err, errlen))
            return -1;
        rendered++;
        const char *bargs[] = {points, NULL, title, PLOT_FORMATS, shape};
        if (render_chart(plots_dir, "bytes.gp", outdir, "bytes", bargs, 5, err, errlen))
            return -1;
        rendered++;
        /* every other shape with counters gets its own hierarchical roofline too: where
         * A, B and C fit in the L2 (2048 on an H200) the picture differs from the largest */
        char done[16][96];
        int ndone = 0;
        for (int i = 0; i < ds->nrows && ndone < 16; i++) {
            char other[96], base[128];
            struct gp_roof roof;
            if (!row_plottable(&ds->rows[i]))
                continue;
            roof_derive(&ds->rows[i], cs, &roof);
            int has_bytes = 0;
            for (int l = 0; l < GP_LEVEL_COUNT; l++)
                has_bytes |= !isnan(roof.ai[l]);
            shape_of(&ds->rows[i], other, sizeof other);
            int seen = !has_bytes || strcmp(other, shape) == 0;
            for (int j = 0; j < ndone && !seen; j++)
                seen = strcmp(done[j], other) == 0;
            if (seen)
                continue;
            snprintf(done[ndone++], sizeof done[0], "%s", other);
            snprintf(base, sizeof base, "roofline_hier_%s", other);
            const char *oargs[] = {points, roofs_arg, NULL, title, PLOT_FORMATS, other};
            if (render_chart(plots_dir, "roofline_hier.gp", outdir, base, oargs, 6, err, errlen))
                return -1;
            rendered++;
        }
    } else {
        append_note(notes, sizeof notes,
                    "roofline_hier, bytes: skipped, no row has memory counters");
    }
    if (n_sweep > 0) {
        const char *args[] = {sweep, roofs_arg, NULL, title, PLOT_FORMATS};
        if (render_chart(plots_dir, "sweep.gp", outdir, "sweep", args, 5, err, errlen))
            return -1;
        rendered++;
    } else {
        append_note(notes, sizeof notes, "sweep: skipped, no verified and timed row");
    }
    snprintf(err, errlen, "%s", notes);
    return rendered;
}

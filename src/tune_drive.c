/* What both tuners (src/tune.c for simt_auto, src/tune_tf32.c for tf32_auto) do alike:
 * every plan at one shape verified and timed as the sweep times a variant, then the
 * fixed reference variants, the table on stdout and DIR/tune.csv. Each tuner gives its
 * plans and columns through a struct tune_spec (src/tune.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"
#include "analysis/message.h"
#include "src/interrupt.h"
#include "src/measure.h"
#include "src/registry.h"
#include "src/run.h"
#include "src/shape.h"
#include "src/tune.h"

/* the fixed variants names[0..n-1] at shape s, as the sweep times them (a name the
 * registry lacks gets an empty result), stopping early on a lost context or an
 * interrupt; returns how many ran */
static int time_references(struct run *r, struct shape_data *s, const char *const *names, int n,
                           struct gp_result *refs)
{
    int i = 0;
    for (; i < n && !r->context_lost && !interrupt_pending(); i++) {
        const int vi = registry_find(names[i]);
        const struct gemm_variant *ref = vi >= 0 ? registry_variant(vi) : NULL;
        gp_result_init(&refs[i]);
        if (ref)
            measure_variant(r, s, ref, -1, &refs[i]);
        gp_message("tune reference %s: %s", names[i], gp_status_name(refs[i].status));
    }
    return i;
}

void tune_print_times(FILE *f, const struct gp_result *x, double best_s, double eff)
{
    if (isnan(x->time_median_s) || isinf(best_s))
        fprintf(f, " %10s %8s %7s %5s", "-", "-", "-", "-");
    else
        fprintf(f, " %10.4f %8.2f %6.1f%% %5.3f", x->time_median_s * 1e3, x->flop_per_s * 1e-12,
                100 * best_s / x->time_median_s, eff);
}

static void print_table(FILE *f, const struct run *r, const struct shape_data *s, const struct tune_spec *sp,
                        const struct tune_row *rows, int n, const struct gp_result *refs, int nrefs, double best_s)
{
    fprintf(f, "%s plans at %s on %s (%d SMs): median of %d, L2 %s; * = the rule's pick\n", sp->v->name, s->label,
            r->meta.gpu_name, r->meta.sm_count, r->o->reps, r->o->l2_flush ? "flushed" : "warm");
    sp->print(f, r, rows, n, best_s);
    for (int i = 0; i < nrefs; i++) {
        const struct gp_result *x = &refs[i];
        fprintf(f, "  (variant %-*s) %-*s %-13s", sp->name_width, sp->refs[i], sp->config_width, x->config,
                gp_status_name(x->status));
        if (x->status == GP_STATUS_OK && !isinf(best_s))
            tune_print_times(f, x, best_s, sp->eff(r, x));
        fputc('\n', f);
    }
    fflush(f);
}

void tune_csv_cells(FILE *f, const struct tune_row *t, double best_s, double eff, const double *more, int nmore)
{
    char num[64];
    const double cells[] = {t->waves, t->picked, NAN /* status */, t->res.rel_err, t->res.time_median_s,
                            t->res.time_min_s, t->res.time_max_s, t->res.flop_per_s,
                            100 * best_s / t->res.time_median_s, eff};
    const int ncells = (int)(sizeof cells / sizeof cells[0]);
    for (int j = 0; j < ncells + nmore; j++) {
        if (j == 2)
            fputs(gp_status_name(t->res.status), f);
        else {
            csv_format_double(num, sizeof num, j < ncells ? cells[j] : more[j - ncells]);
            fputs(num, f);
        }
        fputc(j + 1 < ncells + nmore ? ',' : '\n', f);
    }
}

/* DIR/tune.csv with rows[0..n-1], written whole or not at all (rewritten after each plan
 * and once more at the end). 0, or -1 with the reason. */
static int write_csv(const struct run *r, const struct shape_data *s, const struct tune_spec *sp,
                     const struct tune_row *rows, int n, double best_s, char *err, size_t errlen)
{
    char path[1100];
    struct atomic_file af;
    snprintf(path, sizeof path, "%s/tune.csv", r->o->out_dir);
    FILE *f = atomic_open(&af, path, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "%s\n", sp->csv_header);
    for (int i = 0; i < n; i++)
        sp->csv_row(f, r, s, &rows[i], best_s);
    return atomic_commit(&af, err, errlen);
}

/* `name` starts with one of the comma-separated prefixes of `list` */
static int name_listed(const char *name, const char *list)
{
    for (const char *p = list; *p;) {
        const size_t len = strcspn(p, ",");
        if (len > 0 && strncmp(name, p, len) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

int tune_drive(struct run *r, const struct tune_spec *sp)
{
    char err[1200];
    struct shape_data s;
    struct tune_row *rows = NULL;
    int rc = EXIT_FAILED, failures = 0, n = 0, nplans = 0;

    if (shape_prepare(r, &s, 0, err, sizeof err)) {
        gp_message("%s", err);
        return EXIT_FAILED;
    }
    const int all = sp->plans(&s);
    if (all < 0)
        goto out;
    if (!(rows = calloc((size_t)(all > 0 ? all : 1), sizeof *rows))) {
        gp_message("out of host memory");
        goto out;
    }
    /* GEMMPROF_TUNE_ONLY=PREFIX[,PREFIX...]: only the tiles whose name starts with one of
     * them, and no reference variants (the sanitizer runs of tools/h200_session.sh) */
    const char *only = getenv("GEMMPROF_TUNE_ONLY");
    for (int i = 0; i < all; i++)
        if (!only || !*only || name_listed(sp->tile(i), only))
            rows[nplans++].plan = i;
    double best_s = INFINITY;
    int best = -1;
    for (; n < nplans && !r->context_lost && !interrupt_pending(); n++) {
        struct tune_row *t = &rows[n];
        sp->select(t->plan, t);
        measure_variant(r, &s, sp->v, -1, &t->res);
        sp->describe(t->plan, t->res.config, sizeof t->res.config);
        if (t->res.status != GP_STATUS_OK)
            failures++;
        else if (t->res.time_median_s < best_s) {
            best_s = t->res.time_median_s;
            best = n;
        }
        gp_message("tune %d/%d %s: %s%s%s", n + 1, nplans, t->res.config, gp_status_name(t->res.status),
                   t->res.error[0] ? ": " : "", t->res.error);
        /* the rows so far, so a run stopped at once (or killed) keeps them; a failure to
         * write is told once, at the end */
        write_csv(r, &s, sp, rows, n + 1, best_s, err, sizeof err);
    }
    struct gp_result refs[TUNE_MAX_REFS];
    const int nrefs = only && *only ? 0 : time_references(r, &s, sp->refs, sp->nrefs, refs);
    print_table(stdout, r, &s, sp, rows, n, refs, nrefs, best_s);
    if (write_csv(r, &s, sp, rows, n, best_s, err, sizeof err))
        gp_message("%s", err);
    else
        fprintf(stderr, "%s/tune.csv: %d %s plan%s\n", r->o->out_dir, n, sp->v->name, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const struct gp_result *pick = &rows[i].res;
        if (rows[i].picked && best >= 0 && pick->status == GP_STATUS_OK && pick->time_median_s > 0)
            fprintf(stderr, "the rule's pick %s runs at %.1f%% of the best plan (%s)\n", pick->config,
                    100 * rows[best].res.time_median_s / pick->time_median_s, rows[best].res.config);
    }
    rc = failures || n < nplans ? EXIT_FAILED : EXIT_OK;
out:
    free(rows);
    shape_free(&s);
    return rc;
}

#include "analysis/compare.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_file.h"
#include "analysis/markdown.h"
#include "analysis/message.h"

/* A counter must move by more than this to be listed: below it is the counters' own
 * run-to-run wobble (DRAM writes aside, they agree with ncu within 0.5%). */
#define COMPARE_MOVED_MIN 0.01

static int key_cmp(const struct gp_result *a, const struct gp_result *b)
{
    int c = strcmp(a->variant, b->variant);
    if (c)
        return c;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    return 0;
}

static int ptr_cmp(const void *a, const void *b)
{
    return key_cmp(*(const struct gp_result *const *)a, *(const struct gp_result *const *)b);
}

/* The rows of ds sorted by variant and shape, so pairing is a merge, not n^2. */
static const struct gp_result **sorted(const struct gp_dataset *ds)
{
    const struct gp_result **v = malloc((size_t)(ds->nrows ? ds->nrows : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (int i = 0; i < ds->nrows; i++)
        v[i] = &ds->rows[i];
    qsort(v, (size_t)ds->nrows, sizeof *v, ptr_cmp);
    return v;
}

/* Hardware counts worth comparing: not clocks, peaks or the duration (the time already is). */
static int comparable_metric(int id)
{
    const char *u = gp_metrics[id].unit;
    return strcmp(u, "Hz") != 0 && strcmp(u, "byte/cycle") != 0 && strcmp(u, "1/cycle") != 0 &&
           strcmp(u, "ns") != 0;
}

/* Rates near zero move by large factors on noise (a stall reason at 0.003 warps per
 * issue doubling): a rate must also move by this much to count. */
static double absolute_floor(int id)
{
    const char *u = gp_metrics[id].unit;
    return strcmp(u, "warps/issue") == 0 ? 0.1 : strcmp(u, "%") == 0 ? 1.0 : 0.0;
}

/* |log| of the ratio; from or to zero counts as the largest move. */
static double movement(double base, double fresh)
{
    if (base == fresh)
        return 0;
    if (base <= 0 || fresh <= 0)
        return INFINITY;
    return fabs(log(fresh / base));
}

static int by_movement(const void *x, const void *y)
{
    const struct compare_moved *a = x, *b = y;
    double ma = movement(a->base, a->fresh), mb = movement(b->base, b->fresh);
    return (ma < mb) - (ma > mb);   /* largest first */
}

/* The counters that moved most (by more than COMPARE_MOVED_MIN), largest move first. */
static void top_moved(struct compare_row *row)
{
    struct compare_moved all[GP_METRIC_COUNT];
    int n = 0;
    for (int id = 0; id < GP_METRIC_COUNT; id++) {
        double b = row->base->metric[id], f = row->fresh->metric[id];
        if (comparable_metric(id) && isfinite(b) && isfinite(f) && movement(b, f) > log1p(COMPARE_MOVED_MIN) &&
            fabs(f - b) >= absolute_floor(id))
            all[n++] = (struct compare_moved){id, b, f};
    }
    qsort(all, (size_t)n, sizeof all[0], by_movement);
    row->nmoved = n < COMPARE_TOP_COUNTERS ? n : COMPARE_TOP_COUNTERS;
    memcpy(row->moved, all, (size_t)row->nmoved * sizeof all[0]);
}

static int timed(const struct gp_result *r)
{
    return r->status == GP_STATUS_OK && r->time_median_s > 0 && r->time_min_s > 0 && r->time_max_s > 0;
}

static void judge(struct compare_row *row, double threshold_pct)
{
    const struct gp_result *b = row->base, *f = row->fresh;
    row->time_ratio = row->clock_ratio = NAN;
    if (!timed(b) || !timed(f)) {
        row->verdict = VERDICT_UNTIMED;
        return;
    }
    row->time_ratio = f->time_median_s / b->time_median_s;
    if (b->sm_clock_hz > 0 && f->sm_clock_hz > 0)
        row->clock_ratio = f->sm_clock_hz / b->sm_clock_hz;
    const double t = threshold_pct / 100.0;
    if (f->time_min_s > b->time_max_s && row->time_ratio > 1 + t)
        row->verdict = VERDICT_SLOWER;
    else if (f->time_max_s < b->time_min_s && row->time_ratio < 1 / (1 + t))
        row->verdict = VERDICT_FASTER;
    else
        row->verdict = VERDICT_SAME;
    top_moved(row);
}

int compare_runs(const struct gp_dataset *base, const struct gp_dataset *fresh, double threshold_pct,
                 struct compare_result *out)
{
    memset(out, 0, sizeof *out);
    const struct gp_result **a = sorted(base), **b = sorted(fresh);
    out->rows = calloc((size_t)(base->nrows + fresh->nrows + 1), sizeof *out->rows);
    if (!a || !b || !out->rows) {
        free(a);
        free(b);
        free(out->rows);
        out->rows = NULL;
        return -1;
    }
    int i = 0, j = 0;
    while (i < base->nrows || j < fresh->nrows) {
        struct compare_row *row = &out->rows[out->nrows++];
        int c = i >= base->nrows ? 1 : j >= fresh->nrows ? -1 : key_cmp(a[i], b[j]);
        if (c < 0) {
            row->base = a[i++];
            out->only_base++;
        } else if (c > 0) {
            row->fresh = b[j++];
            out->only_new++;
        } else {
            row->base = a[i++];
            row->fresh = b[j++];
            /* a repeated key (a merged dataset, say) pairs with its first partner only */
            while (i < base->nrows && key_cmp(a[i], row->base) == 0)
                i++;
            while (j < fresh->nrows && key_cmp(b[j], row->fresh) == 0)
                j++;
            judge(row, threshold_pct);
            out->slower += row->verdict == VERDICT_SLOWER;
            out->faster += row->verdict == VERDICT_FASTER;
            out->same += row->verdict == VERDICT_SAME;
        }
    }
    free(a);
    free(b);
    const struct gp_meta *mb = &base->meta, *mf = &fresh->meta;
    out->gpu_differs = base->have_meta && fresh->have_meta &&
                       (strcmp(mb->gpu_name, mf->gpu_name) != 0 || strcmp(mb->gpu_uuid, mf->gpu_uuid) != 0);
    out->version_differs = base->have_meta && fresh->have_meta &&
                           (strcmp(mb->git_rev, mf->git_rev) != 0 || strcmp(mb->tool_version, mf->tool_version) != 0);
    return 0;
}

void compare_free(struct compare_result *c)
{
    free(c->rows);
    c->rows = NULL;
    c->nrows = 0;
}

static const char *verdict_name(enum compare_verdict v)
{
    return v == VERDICT_SLOWER ? "**slower**" : v == VERDICT_FASTER ? "faster" : v == VERDICT_SAME ? "same" : "not timed";
}

static void write_header(FILE *f, const struct gp_dataset *base, const struct gp_dataset *fresh,
                         const struct compare_result *c)
{
    const struct gp_dataset *ds[2] = {base, fresh};
    fprintf(f, "# gemmprof compare\n\n| | base | new |\n|---|---|---|\n");
    fprintf(f, "| directory | %s | %s |\n", mdc(base->dir), mdc(fresh->dir));
    static const struct {
        const char *label;
        size_t field;   /* a string of struct gp_meta */
        int code;       /* as `code` (identifiers) or as text */
    } rows[] = {{"GPU", offsetof(struct gp_meta, gpu_name), 0},
                {"GPU UUID", offsetof(struct gp_meta, gpu_uuid), 1},
                {"gemmprof", offsetof(struct gp_meta, git_rev), 1},
                {"date", offsetof(struct gp_meta, date), 0}};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        fprintf(f, "%s| %s |", r ? "\n" : "", rows[r].label);
        for (int i = 0; i < 2; i++) {
            const char *v = (const char *)&ds[i]->meta + rows[r].field;
            fprintf(f, " %s |", !ds[i]->have_meta ? (r ? "unknown" : "unknown (no results.json)")
                                : rows[r].code ? mdc(v) : mdt(v));
        }
    }
    fprintf(f, "\n\n");
    if (c->gpu_differs)
        fprintf(f, "**Different GPUs**: the runs were measured on different devices; a difference may be the "
                   "device's, not the code's.\n\n");
    if (c->version_differs)
        fprintf(f, "**Different gemmprof revisions**: %s against %s.\n\n", mdc(base->meta.git_rev),
                mdc(fresh->meta.git_rev));
    if (!base->have_meta || !fresh->have_meta)
        fprintf(f, "Note: a run without results.json: GPU and revision cannot be checked.\n\n");
}

void compare_write_markdown(FILE *f, const struct gp_dataset *base, const struct gp_dataset *fresh,
                            double threshold_pct, const struct compare_result *c)
{
    write_header(f, base, fresh, c);
    fprintf(f, "Verdict: **slower** when the new run's fastest repetition is slower than the base run's "
               "slowest and the median grew by more than %.2f%% (`--threshold`); faster is the mirror "
               "image; anything else is same.\n\n", threshold_pct);
    fprintf(f, "%d row%s in both runs: %d slower, %d faster, %d same; %d only in base, %d only in new.\n\n",
            c->slower + c->faster + c->same, c->slower + c->faster + c->same == 1 ? "" : "s", c->slower,
            c->faster, c->same, c->only_base, c->only_new);
    fprintf(f, "| variant | shape | base ms (min-max) | new ms (min-max) | new/base | base TFLOP/s | "
               "new TFLOP/s | SM clock new/base | verdict | counters that moved most (new/base) |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < c->nrows; i++) {
        const struct compare_row *r = &c->rows[i];
        if (!r->base || !r->fresh)
            continue;
        const struct gp_result *b = r->base, *n = r->fresh;
        fprintf(f, "| %s | %ldx%ldx%ld | ", mdt(b->variant), b->m, b->n, b->k);
        if (r->verdict == VERDICT_UNTIMED) {
            fprintf(f, "%s | %s | | | | | not timed | |\n", gp_status_name(b->status), gp_status_name(n->status));
            continue;
        }
        fprintf(f, "%.4f (%.4f-%.4f) | %.4f (%.4f-%.4f) | %.3fx | %.2f | %.2f | ", b->time_median_s * 1e3,
                b->time_min_s * 1e3, b->time_max_s * 1e3, n->time_median_s * 1e3, n->time_min_s * 1e3,
                n->time_max_s * 1e3, r->time_ratio, b->flop_per_s * 1e-12, n->flop_per_s * 1e-12);
        if (isfinite(r->clock_ratio))
            fprintf(f, "%.3f", r->clock_ratio);
        fprintf(f, " | %s | ", verdict_name(r->verdict));
        if (!r->nmoved)
            fprintf(f, "none over %.0f%%", COMPARE_MOVED_MIN * 100);
        for (int j = 0; j < r->nmoved; j++) {
            const struct compare_moved *m = &r->moved[j];
            if (m->base > 0)
                fprintf(f, "%s%s %.2fx", j ? "; " : "", mdt(gp_metrics[m->metric].label), m->fresh / m->base);
            else
                fprintf(f, "%s%s 0 -> %.3g", j ? "; " : "", mdt(gp_metrics[m->metric].label), m->fresh);
        }
        fprintf(f, " |\n");
    }
    for (int side = 0; side < 2; side++) {
        int count = side ? c->only_new : c->only_base;
        if (!count)
            continue;
        fprintf(f, "\nOnly in %s (%d):", side ? "new" : "base", count);
        for (int i = 0; i < c->nrows; i++) {
            const struct gp_result *x = side ? (c->rows[i].base ? NULL : c->rows[i].fresh)
                                             : (c->rows[i].fresh ? NULL : c->rows[i].base);
            if (x)
                fprintf(f, " %s %ldx%ldx%ld;", mdt(x->variant), x->m, x->n, x->k);
        }
        fprintf(f, "\n");
    }
}

int compare_dirs(const char *base, const char *fresh, double threshold, const char *out)
{
    const char *dirs[2] = {base, fresh};
    char err[1200];
    struct gp_dataset ds[2];
    for (int i = 0; i < 2; i++)
        if (dataset_load(dirs[i], &ds[i], err, sizeof err)) {
            gp_message("compare: %s", err);
            if (i)
                dataset_free(&ds[0]);
            return 2;
        }
    struct compare_result c;
    int rc = 2;
    if (compare_runs(&ds[0], &ds[1], threshold, &c)) {
        gp_message("compare: out of memory");
        goto done;
    }
    compare_write_markdown(stdout, &ds[0], &ds[1], threshold, &c);
    rc = c.slower ? 1 : 0;
    if (out) {
        struct atomic_file af;
        FILE *f = atomic_open(&af, out, err, sizeof err);
        if (!f) {
            gp_message("compare: --out: %s", err);
            rc = 2;
        } else {
            compare_write_markdown(f, &ds[0], &ds[1], threshold, &c);
            if (atomic_commit(&af, err, sizeof err)) {
                gp_message("compare: --out: %s", err);
                rc = 2;
            }
        }
    }
    compare_free(&c);
done:
    dataset_free(&ds[0]);
    dataset_free(&ds[1]);
    return rc;
}

/* results.csv: the one results table written row by row and read back for the report
 * and plots. Columns come from analysis/columns.def, cupti/metrics.def and the derived
 * roofline columns, so adding a metric or a column is one line elsewhere. */
#include "analysis/results.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/csv.h"
#include "analysis/roofline.h"

void gp_result_init(struct gp_result *r)
{
    memset(r, 0, sizeof *r);
    r->rel_err = r->max_abs_err = r->tolerance = r->rel_err_vs_cublas = NAN;
    r->time_median_s = r->time_min_s = r->time_max_s = r->time_spread = NAN;
    r->flop_per_s = r->sm_clock_hz = NAN;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        r->metric[i] = NAN;
}

double gp_flops_analytic(const struct gp_result *r)
{
    return 2.0 * (double)r->m * (double)r->n * (double)r->k;
}

static const char *const status_names[] = {"ok", "verify_failed", "cuda_error", "skipped"};

const char *gp_status_name(enum gp_status s)
{
    return (unsigned)s < sizeof status_names / sizeof status_names[0] ? status_names[s] : "unknown";
}

int gp_status_parse(const char *s, enum gp_status *out)
{
    for (unsigned i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
        if (strcmp(s, status_names[i]) == 0) {
            *out = (enum gp_status)i;
            return 0;
        }
    return -1;
}

int results_csv_write_header(FILE *f)
{
    const char *sep = "";
#define COLUMN(name, kind, field, req) fprintf(f, "%s%s", sep, #name), sep = ",";
#include "analysis/columns.def"
#undef COLUMN
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        fprintf(f, ",%s", gp_metrics[i].name);
    for (int i = 0; i < roof_column_count(); i++)
        fprintf(f, ",%s", roof_column_name(i));
    fputc('\n', f);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

static void put_str(FILE *f, const char *s) { csv_write_field(f, s); }
static void put_long(FILE *f, long v) { fprintf(f, "%ld", v); }
static void put_int(FILE *f, int v) { fprintf(f, "%d", v); }
static void put_dbl(FILE *f, double v) { csv_write_double(f, v); }
static void put_status(FILE *f, enum gp_status s) { fputs(gp_status_name(s), f); }
#define PUT_STR put_str
#define PUT_LONG put_long
#define PUT_INT put_int
#define PUT_DBL put_dbl
#define PUT_STATUS put_status

int results_csv_write_row(FILE *f, const struct gp_result *r, const struct gp_ceilings *cs)
{
    int first = 1;
#define COLUMN(name, kind, field, req)                                                    \
    if (!first)                                                                           \
        fputc(',', f);                                                                    \
    first = 0;                                                                            \
    PUT_##kind(f, r->field);
#include "analysis/columns.def"
#undef COLUMN
    for (int i = 0; i < GP_METRIC_COUNT; i++) {
        fputc(',', f);
        csv_write_double(f, r->metric[i]);
    }
    struct gp_roof roof;
    roof_derive(r, cs, &roof);
    for (int i = 0; i < roof_column_count(); i++) {
        char buf[64];
        roof_column_format(&roof, i, buf, sizeof buf);
        fputc(',', f);
        csv_write_field(f, buf);
    }
    fputc('\n', f);
    /* flushed per row: a sweep that dies later keeps this row */
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* ---- reading ---- */

enum col_kind { K_STR, K_LONG, K_INT, K_DBL, K_STATUS };
struct col_desc {
    const char *name;
    enum col_kind kind;
    size_t offset, size;
    int required;
};
static const struct col_desc fixed_cols[] = {
#define COLUMN(name, kind, field, req)                                                    \
    {#name, K_##kind, offsetof(struct gp_result, field),                                  \
     sizeof(((struct gp_result *)0)->field), req},
#include "analysis/columns.def"
#undef COLUMN
};
#define NFIXED ((int)(sizeof fixed_cols / sizeof fixed_cols[0]))

static int parse_cell(const struct col_desc *c, const char *cell, struct gp_result *r)
{
    char *dst = (char *)r + c->offset;
    long lv;
    double dv;
    switch (c->kind) {
    case K_STR:
        if (strlen(cell) >= c->size)
            return -1;
        memcpy(dst, cell, strlen(cell) + 1);
        return 0;
    case K_LONG:
        if (csv_parse_long(cell, &lv))
            return -1;
        *(long *)dst = lv;
        return 0;
    case K_INT:
        if (!*cell)
            return 0;   /* optional integers may be empty */
        if (csv_parse_long(cell, &lv))
            return -1;
        *(int *)dst = (int)lv;
        return 0;
    case K_DBL:
        if (!*cell)
            return 0;   /* empty = not measured, stays NaN */
        if (csv_parse_double(cell, &dv))
            return -1;
        *(double *)dst = dv;
        return 0;
    case K_STATUS:
        return gp_status_parse(cell, (enum gp_status *)dst);
    }
    return -1;
}

int results_csv_read(const char *path, struct gp_result **rows_out, int *nrows_out, char *err,
                     size_t errlen)
{
    struct csv_reader rd;
    struct gp_result *rows = NULL;
    int nrows = 0, cap = 0, rc = -1, got;
    int fixed_idx[NFIXED], metric_idx[GP_METRIC_COUNT];
    char **header = NULL;
    int nheader = 0;

    *rows_out = NULL;
    *nrows_out = 0;
    if (csv_open(&rd, path, err, errlen))
        return -1;
    got = csv_next(&rd, err, errlen);
    if (got <= 0) {
        if (got == 0)
            snprintf(err, errlen, "%s: empty file, no header", path);
        goto out;
    }
    /* keep a copy of the header: the reader reuses its buffer */
    nheader = rd.nfields;
    header = calloc((size_t)nheader, sizeof *header);
    if (!header)
        goto oom;
    for (int i = 0; i < nheader; i++)
        if (!(header[i] = strdup(rd.fields[i])))
            goto oom;
    for (int i = 0; i < NFIXED; i++) {
        fixed_idx[i] = csv_find_column(header, nheader, fixed_cols[i].name);
        if (fixed_idx[i] < 0 && fixed_cols[i].required) {
            snprintf(err, errlen,
                     "%s: no column '%s': not a gemmprof results.csv of schema %d (an older "
                     "or foreign file?)",
                     path, fixed_cols[i].name, GP_SCHEMA_VERSION);
            goto out;
        }
    }
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        metric_idx[i] = csv_find_column(header, nheader, gp_metrics[i].name);

    while ((got = csv_next(&rd, err, errlen)) == 1) {
        if (rd.nfields == 1 && !rd.fields[0][0])
            continue;   /* blank line */
        if (rd.nfields != nheader) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d (a truncated row?)", path,
                     rd.line, rd.nfields, nheader);
            goto out;
        }
        if (nrows == cap) {
            cap = cap ? 2 * cap : 32;
            struct gp_result *nr = realloc(rows, (size_t)cap * sizeof *nr);
            if (!nr)
                goto oom;
            rows = nr;
        }
        struct gp_result *r = &rows[nrows];
        gp_result_init(r);
        for (int i = 0; i < NFIXED; i++) {
            if (fixed_idx[i] < 0)
                continue;
            const char *cell = rd.fields[fixed_idx[i]];
            if (parse_cell(&fixed_cols[i], cell, r)) {
                snprintf(err, errlen, "%s:%d: column %s: '%.40s' is not a valid value", path,
                         rd.line, fixed_cols[i].name, cell);
                goto out;
            }
        }
        if (r->m <= 0 || r->n <= 0 || r->k <= 0) {
            snprintf(err, errlen, "%s:%d: column m/n/k: sizes must be positive", path, rd.line);
            goto out;
        }
        for (int i = 0; i < GP_METRIC_COUNT; i++) {
            if (metric_idx[i] < 0 || !rd.fields[metric_idx[i]][0])
                continue;
            const char *cell = rd.fields[metric_idx[i]];
            if (csv_parse_double(cell, &r->metric[i])) {
                snprintf(err, errlen, "%s:%d: column %s: '%.40s' is not a number", path, rd.line,
                         gp_metrics[i].name, cell);
                goto out;
            }
            if (r->metric[i] < 0) {
                snprintf(err, errlen, "%s:%d: column %s: negative value %s", path, rd.line,
                         gp_metrics[i].name, cell);
                goto out;
            }
        }
        nrows++;
    }
    if (got < 0)
        goto out;
    *rows_out = rows;
    *nrows_out = nrows;
    rows = NULL;
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory", path);
out:
    if (header)
        for (int i = 0; i < nheader; i++)
            free(header[i]);
    free(header);
    free(rows);
    csv_close(&rd);
    return rc;
}

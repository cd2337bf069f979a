/* results.csv: the one results table written row by row and read back for the report
 * and plots. Columns come from analysis/columns.def, analysis/metrics.def and the derived
 * roofline columns, so adding a metric or a column is one line elsewhere. */
#include "analysis/results_csv.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/csv.h"
#include "analysis/precision.h"
#include "analysis/roofline.h"

int results_csv_write_header(FILE *f)
{
    const char *sep = "";
#define COLUMN(name, kind, field, req, range) fprintf(f, "%s%s", sep, #name), sep = ",";
#include "analysis/columns.def"
#undef COLUMN
    for (int i = 0; i < GP_METRIC_COUNT + gp_extra_count(); i++)
        fprintf(f, ",%s", gp_metric_name(i));
    for (int i = 0; i < roof_column_count(); i++)
        fprintf(f, ",%s", roof_column_name(i));
    fputc('\n', f);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* One cell as text, as the CSV holds it: "" for not collected. */
static void cell_long(char *buf, size_t len, long v) { snprintf(buf, len, "%ld", v); }
static void cell_int(char *buf, size_t len, int v) { snprintf(buf, len, "%d", v); }
static void cell_dbl(char *buf, size_t len, double v) { csv_format_double(buf, len, v); }

void results_visit_row(const struct gp_result *r, const struct gp_ceilings *cs, results_cell_fn visit, void *ctx)
{
    char buf[64];
#define CELL_STR(field) visit(ctx, name, r->field, 0)
#define CELL_LONG(field) (cell_long(buf, sizeof buf, r->field), visit(ctx, name, buf, 1))
#define CELL_INT(field) (cell_int(buf, sizeof buf, r->field), visit(ctx, name, buf, 1))
#define CELL_DBL(field) (cell_dbl(buf, sizeof buf, r->field), visit(ctx, name, buf, 1))
#define CELL_STATUS(field) visit(ctx, name, gp_status_name(r->field), 0)
#define COLUMN(cname, kind, field, req, range)                                                 \
    {                                                                                     \
        const char *name = #cname;                                                        \
        CELL_##kind(field);                                                               \
    }
#include "analysis/columns.def"
#undef COLUMN
    for (int i = 0; i < GP_METRIC_COUNT + gp_extra_count(); i++) {
        cell_dbl(buf, sizeof buf, r->metric[i]);
        visit(ctx, gp_metric_name(i), buf, 1);
    }
    struct gp_roof roof;
    roof_derive(r, cs, &roof);
    for (int i = 0; i < roof_column_count(); i++) {
        roof_column_format(&roof, i, buf, sizeof buf);
        visit(ctx, roof_column_name(i), buf, !roof_column_is_text(i));
    }
}

struct csv_row_ctx {
    FILE *f;
    int first;
};

static void csv_cell(void *ctx, const char *name, const char *text, int numeric)
{
    struct csv_row_ctx *c = ctx;
    (void)name;
    if (!c->first)
        fputc(',', c->f);
    c->first = 0;
    if (numeric)
        fputs(text, c->f);
    else
        csv_write_field(c->f, text);
}

int results_csv_write_row(FILE *f, const struct gp_result *r, const struct gp_ceilings *cs)
{
    struct csv_row_ctx c = {f, 1};
    results_visit_row(r, cs, csv_cell, &c);
    fputc('\n', f);
    /* flushed per row: a sweep that dies later keeps this row */
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* ---- reading ---- */

/* What a cell may hold (the last argument of COLUMN in columns.def). A row is refused,
 * with its line and column, rather than letting an impossible value reach the report. */
enum col_range { R_ANY, R_NAME, R_PREC, R_SIZE, R_POS, R_NONNEG, R_COUNT, R_FLAG, R_HZ, R_PCT, R_FRAC };
#define GP_MAX_HZ 1e11   /* 100 GHz, far above any GPU clock */
#define GP_MAX_COUNT 1e9
/* A row holds about 1 KiB in memory: this bounds a hostile file to about 500 MiB. */
#define GP_MAX_ROWS 500000

enum col_kind { K_STR, K_LONG, K_INT, K_DBL, K_STATUS };
struct col_desc {
    const char *name;
    enum col_kind kind;
    size_t offset, size;
    int required;
    enum col_range range;
};
static const struct col_desc fixed_cols[] = {
#define COLUMN(name, kind, field, req, range)                                                  \
    {#name, K_##kind, offsetof(struct gp_result, field),                                  \
     sizeof(((struct gp_result *)0)->field), req, R_##range},
#include "analysis/columns.def"
#undef COLUMN
};
#define NFIXED ((int)(sizeof fixed_cols / sizeof fixed_cols[0]))

/* 0 when v is acceptable for `range`, else -1 with what is expected in *why. */
static int check_range(enum col_range range, double v, const char **why)
{
    int ok = 1;
    switch (range) {
    case R_SIZE: ok = v >= 1 && v <= INT_MAX, *why = "a size from 1 to 2147483647"; break;
    case R_POS: ok = v > 0, *why = "a finite number > 0"; break;
    case R_NONNEG: ok = v >= 0, *why = "a finite number >= 0"; break;
    case R_COUNT: ok = v >= 0 && v <= GP_MAX_COUNT, *why = "a count from 0 to 1e9"; break;
    case R_FLAG: ok = v == 0 || v == 1, *why = "0 or 1"; break;
    case R_HZ: ok = v > 0 && v <= GP_MAX_HZ, *why = "a clock > 0 Hz and at most 1e11 Hz"; break;
    case R_PCT: ok = v >= 0 && v <= 101, *why = "a percentage from 0 to 100"; break;
    case R_FRAC: ok = v >= 0 && v <= 1, *why = "a fraction from 0 to 1"; break;
    default: break;
    }
    return ok && isfinite(v) ? 0 : -1;
}

/* A name the plot-input CSVs can carry: gnuplot 5.4 cuts a quoted field at its first
 * '"' or ',' (cublas"x draws as cublas) and splits lines at a newline. */
static int name_chars_ok(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '"' || *p == ',' || *p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

/* Parses one cell into r. 0, or -1 with what the column expects in *why. An empty cell
 * of a number column is "not measured" (NaN, or 0 for the integer settings); whether it
 * may be empty is decided by the caller, which knows the row's status. */
static int parse_cell(const struct col_desc *c, const char *cell, struct gp_result *r,
                      const char **why)
{
    char *dst = (char *)r + c->offset;
    long lv;
    double dv;
    *why = "a finite number";
    switch (c->kind) {
    case K_STR:
        *why = c->range == R_PREC ? "fp32, tf32, bf16 or fp16" : c->range == R_NAME ? "a name" : "shorter text";
        if (c->range == R_NAME && !name_chars_ok(cell)) {
            *why = "a name without '\"', ',' or control characters: gnuplot reads no CSV quoting, "
                   "and gemmprof never writes them";
            return -1;
        }
        if (strlen(cell) >= c->size || (c->range == R_NAME && !*cell) ||
            (c->range == R_PREC && gp_precision_parse(cell) < 0))
            return -1;
        memcpy(dst, cell, strlen(cell) + 1);
        return 0;
    case K_LONG:
    case K_INT:
        if (!*cell && c->kind == K_INT)
            return 0;   /* optional integers may be empty */
        /* an unparsable cell is checked as NaN only to name what the column expects */
        if (csv_parse_long(cell, &lv) ? check_range(c->range, NAN, why)
                                      : check_range(c->range, (double)lv, why))
            return -1;
        if (c->kind == K_LONG)
            *(long *)dst = lv;
        else
            *(int *)dst = (int)lv;   /* in range: every integer range fits an int */
        return 0;
    case K_DBL:
        if (!*cell)
            return 0;   /* empty = not measured, stays NaN */
        if (csv_parse_double(cell, &dv) ? check_range(c->range, NAN, why)
                                        : check_range(c->range, dv, why))
            return -1;
        *(double *)dst = dv;
        return 0;
    case K_STATUS:
        *why = "ok, verify_failed, cuda_error or skipped";
        return gp_status_parse(cell, (enum gp_status *)dst);
    }
    return -1;
}

/* A metric cell: finite, >= 0, and within what its unit allows (an extra metric has
 * no unit). */
static int metric_ok(int id, double v)
{
    if (!(v >= 0) || !isfinite(v))
        return 0;
    if (id >= GP_METRIC_COUNT)
        return 1;
    const char *unit = gp_metrics[id].unit;
    if (strcmp(unit, "%") == 0)
        return v <= 101;   /* ncu's percentages can round a little past 100 */
    if (strcmp(unit, "Hz") == 0)
        return v <= GP_MAX_HZ;
    return 1;
}

/* Checks one parsed row: cells a row that ran must have, and times that agree. 0, or
 * -1 with the message in err. */
static int check_row(const char *path, int line, const int *fixed_idx, char *const *fields,
                     const struct gp_result *r, char *err, size_t errlen)
{
    int ran = r->status == GP_STATUS_OK || r->status == GP_STATUS_VERIFY_FAILED;
    for (int i = 0; ran && i < NFIXED; i++)
        if (fixed_cols[i].required && fixed_idx[i] >= 0 && !fields[fixed_idx[i]][0]) {
            snprintf(err, errlen, "%s:%d: column %s: empty, but a row with status %s must have it",
                     path, line, fixed_cols[i].name, gp_status_name(r->status));
            return -1;
        }
    /* 1e-9 relative slack: the writer rounds each time to 9 significant digits */
    double med = r->time_median_s, slack = 1 + 1e-9;
    if ((r->time_min_s > med * slack) || (med > r->time_max_s * slack)) {
        snprintf(err, errlen, "%s:%d: column time_median_s: %.9g s is outside time_min_s %.9g s .. "
                 "time_max_s %.9g s", path, line, med, r->time_min_s, r->time_max_s);
        return -1;
    }
    return 0;
}

/* Columns outside the schema that look like ncu metric names become extra metrics:
 * metric_idx[id] = their column. 0, or -1 when there are more than GP_EXTRA_MAX. */
static int find_extra_columns(const char *path, char *const *header, int nheader, int *metric_idx,
                              char *err, size_t errlen)
{
    for (int c = 0; c < nheader; c++) {
        const char *name = header[c];
        int known = gp_metric_find(name) >= 0 || !gp_metric_name_ok(name);
        for (int i = 0; !known && i < NFIXED; i++)
            known = strcmp(name, fixed_cols[i].name) == 0;
        for (int i = 0; !known && i < roof_column_count(); i++)
            known = strcmp(name, roof_column_name(i)) == 0;
        if (known)
            continue;
        int id = gp_extra_add(name);
        if (id < 0) {
            snprintf(err, errlen, "%s: column %s: more than %d extra metric columns", path, name,
                     GP_EXTRA_MAX);
            return -1;
        }
        metric_idx[id] = c;
    }
    return 0;
}

int results_csv_read(const char *path, struct gp_result **rows_out, int *nrows_out, char *err,
                     size_t errlen)
{
    struct csv_reader rd;
    struct gp_result *rows = NULL;
    int nrows = 0, cap = 0, rc = -1, got;
    int fixed_idx[NFIXED], metric_idx[GP_METRIC_SLOTS];
    char **header = NULL, ex[CSV_EXCERPT_LEN];
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
    for (int i = 0; i < GP_METRIC_SLOTS; i++)
        metric_idx[i] = i < GP_METRIC_COUNT ? csv_find_column(header, nheader, gp_metrics[i].name) : -1;
    if (find_extra_columns(path, header, nheader, metric_idx, err, errlen))
        goto out;

    while ((got = csv_next(&rd, err, errlen)) == 1) {
        if (rd.nfields == 1 && !rd.fields[0][0])
            continue;   /* blank line */
        if (rd.nfields != nheader) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d (a truncated row?)", path,
                     rd.line, rd.nfields, nheader);
            goto out;
        }
        if (nrows == GP_MAX_ROWS) {
            snprintf(err, errlen, "%s:%d: more than %d rows, the limit for a results.csv", path,
                     rd.line, GP_MAX_ROWS);
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
            const char *cell = rd.fields[fixed_idx[i]], *why;
            if (parse_cell(&fixed_cols[i], cell, r, &why)) {
                snprintf(err, errlen, "%s:%d: column %s: '%s' is not a valid value (expected %s)",
                         path, rd.line, fixed_cols[i].name, csv_excerpt(cell, ex, sizeof ex), why);
                goto out;
            }
        }
        if (check_row(path, rd.line, fixed_idx, rd.fields, r, err, errlen))
            goto out;
        for (int i = 0; i < GP_METRIC_SLOTS; i++) {
            if (metric_idx[i] < 0 || !rd.fields[metric_idx[i]][0])
                continue;
            const char *cell = rd.fields[metric_idx[i]];
            if (csv_parse_double(cell, &r->metric[i])) {
                snprintf(err, errlen, "%s:%d: column %s: '%s' is not a number", path, rd.line,
                         gp_metric_name(i), csv_excerpt(cell, ex, sizeof ex));
                goto out;
            }
            if (!metric_ok(i, r->metric[i])) {
                snprintf(err, errlen, "%s:%d: column %s: %s is negative or out of range for %s",
                         path, rd.line, gp_metric_name(i), csv_excerpt(cell, ex, sizeof ex),
                         i < GP_METRIC_COUNT ? gp_metrics[i].unit : "a counter (finite, >= 0)");
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

/* The machine ceilings table (analysis/ceilings.def) and its file, ceilings.csv.
 *
 *   struct gp_ceilings cs;
 *   ceilings_init(&cs);                      everything NaN
 *   cs.c[GP_CEIL_dram_copy].measured = ...;  (src/ceilings.c fills it on the GPU)
 *   ceilings_write_csv("out/ceilings.csv", &cs, err, sizeof err);
 *   ceilings_read_csv("out/ceilings.csv", &cs, err, sizeof err);   later, without a GPU
 *
 * Values are SI (byte/s, flop/s); an empty cell means "not measured / unknown". The
 * reader is strict: an unknown id, a non-numeric, negative, zero or absurd value (over
 * 1e18, or 1e11 Hz for a clock), a unit other than the one gemmprof writes, or a duplicate
 * row is an error naming file:line and the column, because a wrong roof silently
 * mis-classifies every kernel. Only a regular file is read (a FIFO or /dev/zero is
 * refused at once), within the limits of analysis/infile.h. */
#include "analysis/ceilings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"

const struct gp_ceiling_info gp_ceiling_info[GP_CEIL_COUNT] = {
#define CEILING(id, label, kind, unit) {#id, label, kind, unit},
#include "analysis/ceilings.def"
#undef CEILING
};

void ceilings_init(struct gp_ceilings *cs)
{
    memset(cs, 0, sizeof *cs);
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        cs->c[i].measured = NAN;
        cs->c[i].theoretical = NAN;
        cs->c[i].sm_clock_hz = NAN;
    }
}

static const char *const ceil_header[] = {
    "id", "label", "unit", "measured", "theoretical", "sm_clock_hz", "theory_source", "gpu", "date", "gpu_uuid",
};
enum { COL_ID, COL_LABEL, COL_UNIT, COL_MEASURED, COL_THEORETICAL, COL_CLOCK, COL_SOURCE, COL_GPU,
       COL_DATE, COL_UUID, COL_COUNT };

int ceilings_write_csv(const char *path, const struct gp_ceilings *cs, char *err, size_t errlen)
{
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f)
        return -1;
    struct csv_row w = {f, 0};
    for (int j = 0; j < COL_COUNT; j++)
        csv_put(&w, ceil_header[j]);
    csv_end(&w);
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        const struct gp_ceiling_info *in = &gp_ceiling_info[i];
        const struct gp_ceiling *c = &cs->c[i];
        csv_put(&w, in->id);
        csv_put(&w, in->label);
        csv_put(&w, in->unit);
        csv_put_double(&w, c->measured);
        csv_put_double(&w, c->theoretical);
        csv_put_double(&w, c->sm_clock_hz);
        csv_put(&w, c->theory_source);
        csv_put(&w, cs->gpu);
        csv_put(&w, cs->date);
        csv_put(&w, cs->gpu_uuid);
        csv_end(&w);
    }
    return atomic_commit(&t, err, errlen);
}

static int ceiling_find(const char *id)
{
    for (int i = 0; i < GP_CEIL_COUNT; i++)
        if (strcmp(gp_ceiling_info[i].id, id) == 0)
            return i;
    return -1;
}

/* Empty -> NaN (not measured). Otherwise a finite positive number up to `max`: a zero or
 * negative ceiling would make every attainable value zero or negative. */
#define MAX_RATE 1e18   /* byte/s or flop/s: an exa-rate is far beyond one GPU */
#define MAX_HZ 1e11     /* 100 GHz */
static int parse_positive(const struct csv_reader *rd, const char *col, int colno, const char *s,
                          double max, double *out, char *err, size_t errlen)
{
    if (!*s) {
        *out = NAN;
        return 0;
    }
    double v;
    char ex[CSV_EXCERPT_LEN];
    if (csv_parse_double(s, &v) != 0) {
        snprintf(err, errlen, "%s:%d: column %s (%d): '%s' is not a finite number", rd->path, rd->line,
                 col, colno, csv_excerpt(s, ex, sizeof ex));
        return -1;
    }
    if (!(v > 0) || v > max) {
        snprintf(err, errlen, "%s:%d: column %s (%d): '%s' must be positive and at most %g", rd->path,
                 rd->line, col, colno, csv_excerpt(s, ex, sizeof ex), max);
        return -1;
    }
    *out = v;
    return 0;
}

static void copy_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
}

int ceilings_read_csv(const char *path, struct gp_ceilings *cs, char *err, size_t errlen)
{
    struct csv_reader rd;
    struct gp_ceilings tmp;
    int col[COL_COUNT], seen[GP_CEIL_COUNT] = {0}, rc = -1, rows = 0;
    char ex[CSV_EXCERPT_LEN];

    ceilings_init(&tmp);
    if (csv_open(&rd, path, err, errlen) != 0)
        return -1;
    int got = csv_next(&rd, err, errlen);
    if (got < 0)
        goto out;
    if (got == 0 || (rd.nfields == 1 && !rd.fields[0][0])) {
        snprintf(err, errlen, "%s: empty file (expected a header line starting with 'id')", path);
        goto out;
    }
    for (int j = 0; j < COL_COUNT; j++)
        col[j] = csv_find_column(rd.fields, rd.nfields, ceil_header[j]);
    /* id and the two values are required; the rest is descriptive. */
    static const int required[] = {COL_ID, COL_MEASURED, COL_THEORETICAL};
    for (size_t j = 0; j < sizeof required / sizeof required[0]; j++)
        if (col[required[j]] < 0) {
            snprintf(err, errlen, "%s:1: missing column '%s' (not a gemmprof ceilings.csv?)", path,
                     ceil_header[required[j]]);
            goto out;
        }
    int width = rd.nfields;

    for (;;) {
        got = csv_next(&rd, err, errlen);
        if (got < 0)
            goto out;
        if (got == 0)
            break;
        if (rd.nfields == 1 && !rd.fields[0][0])
            continue;   /* blank line */
        if (rd.nfields != width) {
            snprintf(err, errlen, "%s:%d: %d fields, but the header has %d", path, rd.line,
                     rd.nfields, width);
            goto out;
        }
        const char *id = rd.fields[col[COL_ID]];
        int i = ceiling_find(id);
        if (i < 0) {
            snprintf(err, errlen, "%s:%d: column id (%d): unknown ceiling '%s'", path, rd.line,
                     col[COL_ID] + 1, csv_excerpt(id, ex, sizeof ex));
            goto out;
        }
        if (seen[i]++) {
            snprintf(err, errlen, "%s:%d: column id (%d): ceiling '%s' appears twice", path,
                     rd.line, col[COL_ID] + 1, id);
            goto out;
        }
        if (col[COL_UNIT] >= 0 && rd.fields[col[COL_UNIT]][0] &&
            strcmp(rd.fields[col[COL_UNIT]], gp_ceiling_info[i].unit) != 0) {
            snprintf(err, errlen, "%s:%d: column unit (%d): '%s', but values must be in %s", path,
                     rd.line, col[COL_UNIT] + 1, csv_excerpt(rd.fields[col[COL_UNIT]], ex, sizeof ex),
                     gp_ceiling_info[i].unit);
            goto out;
        }
        struct gp_ceiling *c = &tmp.c[i];
        if (parse_positive(&rd, "measured", col[COL_MEASURED] + 1, rd.fields[col[COL_MEASURED]],
                           MAX_RATE, &c->measured, err, errlen) ||
            parse_positive(&rd, "theoretical", col[COL_THEORETICAL] + 1,
                           rd.fields[col[COL_THEORETICAL]], MAX_RATE, &c->theoretical, err, errlen))
            goto out;
        if (col[COL_CLOCK] >= 0 &&
            parse_positive(&rd, "sm_clock_hz", col[COL_CLOCK] + 1, rd.fields[col[COL_CLOCK]],
                           MAX_HZ, &c->sm_clock_hz, err, errlen))
            goto out;
        if (col[COL_SOURCE] >= 0)
            copy_str(c->theory_source, sizeof c->theory_source, rd.fields[col[COL_SOURCE]]);
        if (col[COL_GPU] >= 0 && !tmp.gpu[0])
            copy_str(tmp.gpu, sizeof tmp.gpu, rd.fields[col[COL_GPU]]);
        if (col[COL_DATE] >= 0 && !tmp.date[0])
            copy_str(tmp.date, sizeof tmp.date, rd.fields[col[COL_DATE]]);
        if (col[COL_UUID] >= 0 && !tmp.gpu_uuid[0])
            copy_str(tmp.gpu_uuid, sizeof tmp.gpu_uuid, rd.fields[col[COL_UUID]]);
        rows++;
    }
    if (rows == 0) {
        snprintf(err, errlen, "%s: header only, no ceiling rows", path);
        goto out;
    }
    *cs = tmp;
    rc = 0;
out:
    csv_close(&rd);
    return rc;
}

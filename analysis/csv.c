#include "analysis/csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/infile.h"

int csv_open(struct csv_reader *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = gp_open_regular(path, GP_MAX_FILE_BYTES, GP_MAX_FILE_TEXT, err, errlen);
    return r->f ? 0 : -1;
}

/* The next physical line into r->lbuf: 0, or EOF at the end of the file (or on a read
 * error, which the caller tells apart with ferror). */
static int fill_line(struct csv_reader *r)
{
    ssize_t n = getline(&r->lbuf, &r->lcap, r->f);
    r->linelen = n > 0 ? (size_t)n : 0;
    return n > 0 ? 0 : EOF;
}

/* A record is one physical line, or several where a quoted field holds newlines. Each
 * line is split in one pass from memory into r->buf (fields NUL-terminated, quotes
 * removed, "" inside quotes one quote, CR outside quotes dropped); field boundaries are
 * kept as offsets while the buffer may move, then turned into pointers. */
int csv_next(struct csv_reader *r, char *err, size_t errlen)
{
    size_t starts[4096], rec_bytes = 0;
    const size_t maxf = sizeof starts / sizeof starts[0];
    int nf = 0, quoted = 0;

    r->buflen = 0;
    int start_line = ++r->phys_line;
    starts[nf++] = 0;
    if (fill_line(r) == EOF) {
        if (ferror(r->f)) {
            snprintf(err, errlen, "%s:%d: read error: %s", r->path, start_line, strerror(errno));
            return -1;
        }
        return 0;
    }
    for (;;) {
        const size_t n = r->linelen;
        rec_bytes += n;
        r->nbytes += (long long)n;
        if (rec_bytes > GP_MAX_RECORD_BYTES || r->nbytes > GP_MAX_FILE_BYTES)
            goto too_big;
        if (r->buflen + n + 1 > r->bufcap) {   /* the output never outgrows the input */
            size_t cap = 2 * (r->buflen + n + 1);
            char *nb = realloc(r->buf, cap);
            if (!nb)
                goto oom;
            r->buf = nb;
            r->bufcap = cap;
        }
        const char *p = r->lbuf, *e = p + n;
        char *o = r->buf + r->buflen;
        while (p < e) {
            char c = *p++;
            if (quoted) {
                if (c != '"')
                    *o++ = c;
                else if (p < e && *p == '"')
                    *o++ = *p++;
                else
                    quoted = 0;
            } else if (c == '"') {
                quoted = 1;
            } else if (c == ',') {
                *o++ = '\0';
                if ((size_t)nf == maxf) {
                    snprintf(err, errlen, "%s:%d: more than 4096 fields", r->path, start_line);
                    return -1;
                }
                starts[nf++] = (size_t)(o - r->buf);
            } else if (c == '\n') {
                break;
            } else if (c != '\r') {
                *o++ = c;
            }
        }
        r->buflen = (size_t)(o - r->buf);
        if (!quoted)
            break;
        /* a quoted field goes on past this line's newline */
        r->phys_line++;
        if (fill_line(r) == EOF) {
            if (ferror(r->f))
                snprintf(err, errlen, "%s:%d: read error: %s", r->path, start_line, strerror(errno));
            else
                snprintf(err, errlen, "%s:%d: unterminated quoted field", r->path, start_line);
            return -1;
        }
    }
    r->buf[r->buflen++] = '\0';
    if (nf > r->fieldcap) {
        char **nfp = realloc(r->fields, (size_t)nf * sizeof *nfp);
        if (!nfp)
            goto oom;
        r->fields = nfp;
        r->fieldcap = nf;
    }
    for (int i = 0; i < nf; i++)
        r->fields[i] = r->buf + starts[i];
    r->nfields = nf;
    r->line = start_line;
    return 1;
oom:
    snprintf(err, errlen, "%s:%d: out of memory", r->path, start_line);
    return -1;
too_big:
    if (r->nbytes > GP_MAX_FILE_BYTES)
        snprintf(err, errlen, "%s:%d: file grew past the %s limit while being read", r->path,
                 start_line, GP_MAX_FILE_TEXT);
    else
        snprintf(err, errlen, "%s:%d: record longer than the %s limit (a missing newline, or not "
                 "a CSV file)", r->path, start_line, GP_MAX_RECORD_TEXT);
    return -1;
}

void csv_close(struct csv_reader *r)
{
    if (r->f)
        fclose(r->f);
    free(r->fields);
    free(r->buf);
    free(r->lbuf);
    memset(r, 0, sizeof *r);
}

int csv_find_column(char *const *header, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return i;
    return -1;
}

int csv_parse_double(const char *s, double *out)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int csv_parse_long(const char *s, long *out)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

const char *csv_excerpt(const char *cell, char *buf, size_t len)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)cell;
    /* each step adds at most 4 bytes, leaving room for "..." and the NUL (len >= 8) */
    for (; *p && o + 8 <= len; p++) {
        if (*p < 0x20 || *p == 0x7f)
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *p);
        else
            buf[o++] = (char)*p;
    }
    if (*p) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

void csv_write_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void csv_format_double(char *buf, size_t len, double v)
{
    if (isnan(v))
        buf[0] = '\0';
    /* counts are integers: write them exactly, so they diff equal against ncu */
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.9g", v);
}

void csv_write_double(FILE *f, double v)
{
    char buf[64];
    csv_format_double(buf, sizeof buf, v);
    fputs(buf, f);
}

static void csv_sep(struct csv_row *w)
{
    if (w->fields++ > 0)
        fputc(',', w->f);
}

void csv_put(struct csv_row *w, const char *s)
{
    csv_sep(w);
    csv_write_field(w->f, s);
}

void csv_put_double(struct csv_row *w, double v)
{
    csv_sep(w);
    csv_write_double(w->f, v);
}

void csv_put_long(struct csv_row *w, long v)
{
    csv_sep(w);
    fprintf(w->f, "%ld", v);
}

void csv_end(struct csv_row *w)
{
    fputc('\n', w->f);
    w->fields = 0;
}

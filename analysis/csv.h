/* A small RFC 4180 CSV reader and writer shared by every CSV gemmprof reads or writes
 * (results.csv, ceilings.csv, plot inputs). Host-only. */
#ifndef GEMMPROF_ANALYSIS_CSV_H
#define GEMMPROF_ANALYSIS_CSV_H

#include <stddef.h>
#include <stdio.h>

struct csv_reader {
    FILE *f;
    const char *path;   /* for messages */
    int line;           /* line number where the last record started (1-based) */
    int phys_line;      /* physical lines consumed so far */
    char **fields;      /* the last record's fields, owned by the reader */
    int nfields;
    char *buf;
    size_t buflen, bufcap;
    int fieldcap;
    long long nbytes;   /* bytes read so far, held to GP_MAX_FILE_BYTES */
    char *lbuf;         /* the physical line being parsed (getline's buffer) */
    size_t lcap, linelen;
};

/* Opens `path` if it is a regular file within GP_MAX_FILE_BYTES (analysis/infile.h);
 * -1 with "cannot open 'path': reason" (or why it was refused) in err. */
int csv_open(struct csv_reader *r, const char *path, char *err, size_t errlen);
/* Reads the next record: 1 when one was read, 0 at end of file, -1 on a malformed
 * record (unterminated quote), a record over GP_MAX_RECORD_BYTES or a file that grew past
 * GP_MAX_FILE_BYTES while being read, with "path:line: reason" in err. */
int csv_next(struct csv_reader *r, char *err, size_t errlen);
void csv_close(struct csv_reader *r);

/* Index of the header field named `name` in `header` (as read by csv_next), or -1. */
int csv_find_column(char *const *header, int n, const char *name);

/* Parses a whole cell as a finite double / a long. Empty cell: -1 for both (callers
 * treat empty as "not collected" before calling). 0 on success. */
int csv_parse_double(const char *s, double *out);
int csv_parse_long(const char *s, long *out);

/* A cell as quoted in a one-line error: control bytes (a newline inside a quoted
 * field, ESC) shown as \xNN, cut with "..." to fit len (at least 8). Returns buf. */
#define CSV_EXCERPT_LEN 48
const char *csv_excerpt(const char *cell, char *buf, size_t len);

/* Writes one field, quoted when it holds a comma, quote or newline. */
void csv_write_field(FILE *f, const char *s);
/* Writes a double with 9 significant digits (an integer exactly), or nothing when NaN;
 * csv_format_double puts the same text into buf. */
void csv_write_double(FILE *f, double v);
void csv_format_double(char *buf, size_t len, double v);

/* A row written field by field: the separators come by themselves.
 *   struct csv_row w = {f, 0};  csv_put(&w, "id");  csv_put_double(&w, 1.5);  csv_end(&w); */
struct csv_row {
    FILE *f;
    int fields;   /* written so far on this line */
};
void csv_put(struct csv_row *w, const char *s);
void csv_put_double(struct csv_row *w, double v);
void csv_put_long(struct csv_row *w, long v);
void csv_end(struct csv_row *w);

#endif

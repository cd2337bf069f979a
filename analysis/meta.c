/* results.json, the sidecar that says where and how a results.csv was measured: the GPU,
 * the software stack and the run's settings, nested as
 *   {"schema": N, "gpu": {...}, "software": {...}, "run": {...},
 *    "variants": [{"name": ..., "precision": ..., "description": ...}, ...]}.
 * One field table drives both the writer and the reader, so a new gp_meta field is one
 * line here. The reader is a small strict JSON parser (RFC 8259 values; other arrays and
 * unknown keys are parsed and skipped) that reports errors as file:line:column. */
#include "analysis/meta.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atomic_file.h"
#include "analysis/infile.h"
#include "analysis/results.h"

enum field_kind { F_STR, F_INT, F_DBL, F_U64 };

/* Numbers outside [lo, hi] are refused on reading: a clock of 1e999 or a size of -5
 * would otherwise reach the report as a confident conclusion. */
struct meta_field {
    const char *section;   /* "" for the top level */
    const char *key;
    enum field_kind kind;
    size_t offset, size;
    double lo, hi;         /* accepted range of F_INT and F_DBL values */
    int zero_unknown;      /* F_DBL: 0 is what the writer stores for "not reported": read as NaN */
};

#define FIELD(sec, key, kind, member, lo, hi, zu)                                         \
    {sec, key, kind, offsetof(struct gp_meta, member), sizeof(((struct gp_meta *)0)->member), \
     lo, hi, zu}
#define TEXT(sec, key, member) FIELD(sec, key, F_STR, member, 0, 0, 0)
#define MAX_HZ 1e11      /* 100 GHz: far above any GPU clock */
#define MAX_BYTES 0x1p50 /* 1 PiB */
#define MAX_COUNT 1e9

static const struct meta_field meta_fields[] = {
    FIELD("", "schema", F_INT, schema, 0, INT_MAX, 0),
    TEXT("gpu", "name", gpu_name),
    TEXT("gpu", "uuid", gpu_uuid),
    FIELD("gpu", "cc_major", F_INT, cc_major, 0, 1000, 0),
    FIELD("gpu", "cc_minor", F_INT, cc_minor, 0, 1000, 0),
    FIELD("gpu", "sm_count", F_INT, sm_count, 0, 1e6, 0),
    FIELD("gpu", "sm_clock_max_hz", F_DBL, sm_clock_max_hz, 0, MAX_HZ, 1),
    FIELD("gpu", "sm_clock_measured_hz", F_DBL, sm_clock_measured_hz, 0, MAX_HZ, 1),
    FIELD("gpu", "mem_clock_hz", F_DBL, mem_clock_hz, 0, MAX_HZ, 1),
    FIELD("gpu", "mem_bus_bits", F_INT, mem_bus_bits, 0, 1 << 20, 0),
    FIELD("gpu", "l2_bytes", F_DBL, l2_bytes, 0, MAX_BYTES, 0),
    FIELD("gpu", "smem_per_block_optin_bytes", F_DBL, smem_per_block_optin_bytes, 0, MAX_BYTES, 0),
    FIELD("gpu", "global_mem_bytes", F_DBL, global_mem_bytes, 0, MAX_BYTES, 0),
    TEXT("software", "tool_version", tool_version),
    TEXT("software", "driver_version", driver_version),
    TEXT("software", "runtime_version", runtime_version),
    TEXT("software", "cublas_version", cublas_version),
    TEXT("software", "git_rev", git_rev),
    TEXT("run", "command", command),
    TEXT("run", "date", date),
    TEXT("run", "hostname", hostname),
    TEXT("run", "counters", counters),
    FIELD("run", "l2_flush", F_INT, l2_flush, 0, 1, 0),
    FIELD("run", "reps", F_INT, reps, 0, MAX_COUNT, 0),
    FIELD("run", "warmups", F_INT, warmups, 0, MAX_COUNT, 0),
    FIELD("run", "seed", F_U64, seed, 0, 0, 0),
    FIELD("run", "planned_rows", F_INT, planned_rows, -1, INT_MAX, 0),
    FIELD("run", "rank", F_INT, rank, 0, INT_MAX - 1, 0),
    FIELD("run", "world_size", F_INT, world_size, 1, INT_MAX, 0),
    FIELD("run", "local_rank", F_INT, local_rank, 0, INT_MAX - 1, 0),
    TEXT("run", "mode", mode),
};
#define NFIELDS ((int)(sizeof meta_fields / sizeof meta_fields[0]))
static const char *const meta_sections[] = {"gpu", "software", "run"};

void meta_init(struct gp_meta *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < NFIELDS; i++)
        if (meta_fields[i].kind == F_DBL)
            *(double *)((char *)m + meta_fields[i].offset) = NAN;
    m->schema = GP_SCHEMA_VERSION;
    m->planned_rows = -1;
    m->world_size = 1;
    strcpy(m->mode, "single");
}

/* ---- writing ---- */

void json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            /* other control bytes must be escaped; bytes >= 0x80 are UTF-8 and pass */
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void write_field(FILE *f, const struct gp_meta *m, const struct meta_field *fd)
{
    const char *p = (const char *)m + fd->offset;
    double d;
    switch (fd->kind) {
    case F_STR: json_write_string(f, p); break;
    case F_INT: fprintf(f, "%d", *(const int *)p); break;
    case F_U64: fprintf(f, "%llu", *(const unsigned long long *)p); break;
    case F_DBL:
        d = *(const double *)p;
        /* JSON has no NaN: "unknown" is null; %.17g round-trips a double exactly */
        if (isfinite(d))
            fprintf(f, "%.17g", d);
        else
            fputs("null", f);
        break;
    }
}

int meta_write_json(const char *path, const struct gp_meta *m, char *err, size_t errlen)
{
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "{\n  \"schema\": %d", m->schema);
    for (size_t s = 0; s < sizeof meta_sections / sizeof meta_sections[0]; s++) {
        fprintf(f, ",\n  \"%s\": {", meta_sections[s]);
        const char *sep = "\n";
        for (int i = 0; i < NFIELDS; i++) {
            if (strcmp(meta_fields[i].section, meta_sections[s]) != 0)
                continue;
            fprintf(f, "%s    \"%s\": ", sep, meta_fields[i].key);
            write_field(f, m, &meta_fields[i]);
            sep = ",\n";
        }
        fputs("\n  }", f);
    }
    fputs(",\n  \"variants\": [", f);
    for (int i = 0; i < m->variants.n; i++) {
        const struct gp_meta_variant *v = &m->variants.v[i];
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        json_write_string(f, v->name);
        fputs(", \"precision\": ", f);
        json_write_string(f, v->precision);
        fputs(", \"description\": ", f);
        json_write_string(f, v->description);
        fputc('}', f);
    }
    fputs(m->variants.n ? "\n  ]\n}\n" : "]\n}\n", f);
    return atomic_commit(&t, err, errlen);
}

const struct gp_meta_variant *meta_variant_find(const struct gp_meta_variants *vs, const char *name)
{
    for (int i = 0; i < vs->n; i++)
        if (strcmp(vs->v[i].name, name) == 0)
            return &vs->v[i];
    return NULL;
}

int meta_variants_add(struct gp_meta_variants *into, const struct gp_meta_variants *from)
{
    int left_out = 0;
    for (int i = 0; i < from->n; i++) {
        if (meta_variant_find(into, from->v[i].name))
            continue;
        if (into->n < GP_META_VARIANTS)
            into->v[into->n++] = from->v[i];
        else
            left_out++;
    }
    return left_out;
}

/* ---- reading ---- */

#define JSON_MAX_DEPTH 64
#define JSON_MAX_BYTES (1 << 20)
#define JSON_MAX_TEXT "1 MiB"

struct jparser {
    const char *buf;
    size_t len, pos;
    const char *path;
    char *err;
    size_t errlen;
    int failed;
    struct gp_meta *m;         /* meta_read_json: where fields are stored; NULL otherwise */
    json_visit_fn visit;       /* json_read_file: told of every value; NULL otherwise */
    void *ctx;
    /* while visiting: the keys down to the value being parsed (array elements: index) */
    const char *keys[JSON_MAX_DEPTH + 2];
    char index[JSON_MAX_DEPTH + 2][12];
    int nkeys;
};

/* Records the first error only, located at byte `at` as line:column (1-based). */
static int jfail(struct jparser *p, size_t at, const char *what)
{
    if (p->failed)
        return -1;
    int line = 1, col = 1;
    for (size_t i = 0; i < at && i < p->len; i++) {
        if (p->buf[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    snprintf(p->err, p->errlen, "%s:%d:%d: %s", p->path, line, col, what);
    p->failed = 1;
    return -1;
}

static void skip_ws(struct jparser *p)
{
    while (p->pos < p->len && (p->buf[p->pos] == ' ' || p->buf[p->pos] == '\t' ||
                               p->buf[p->pos] == '\n' || p->buf[p->pos] == '\r'))
        p->pos++;
}

static const struct meta_field *find_field(const char *section, const char *key)
{
    for (int i = 0; i < NFIELDS; i++)
        if (strcmp(meta_fields[i].section, section) == 0 && strcmp(meta_fields[i].key, key) == 0)
            return &meta_fields[i];
    return NULL;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static size_t utf8_put(char *dst, unsigned cp)
{
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xc0 | (cp >> 6));
        dst[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (char)(0xe0 | (cp >> 12));
        dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    dst[0] = (char)(0xf0 | (cp >> 18));
    dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    dst[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Parses a string literal at p->pos (which is '"') into a malloc'd, NUL-terminated
 * UTF-8 buffer. Decoded text is never longer than its escaped form, so one allocation
 * of the remaining input length suffices. */
static char *parse_string(struct jparser *p)
{
    size_t start = p->pos++;
    char *out = malloc(p->len - start + 1), *o = out;
    if (!out) {
        jfail(p, start, "out of memory");
        return NULL;
    }
    for (;;) {
        if (p->pos >= p->len) {
            jfail(p, start, "unterminated string");
            goto bad;
        }
        unsigned char c = (unsigned char)p->buf[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) {
            jfail(p, p->pos, "raw control character in a string (must be escaped)");
            goto bad;
        }
        if (c != '\\') {
            *o++ = (char)c;
            p->pos++;
            continue;
        }
        size_t esc = p->pos;
        if (p->pos + 1 >= p->len) {
            jfail(p, esc, "unterminated string");
            goto bad;
        }
        char e = p->buf[p->pos + 1];
        p->pos += 2;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (p->pos + 4 > p->len || hex4(p->buf + p->pos, &cp)) {
                jfail(p, esc, "\\u must be followed by 4 hex digits");
                goto bad;
            }
            p->pos += 4;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                /* a high surrogate must pair with a following \uDC00-\uDFFF */
                if (p->pos + 6 > p->len || p->buf[p->pos] != '\\' || p->buf[p->pos + 1] != 'u' ||
                    hex4(p->buf + p->pos + 2, &lo) || lo < 0xdc00 || lo > 0xdfff) {
                    jfail(p, esc, "unpaired UTF-16 surrogate in \\u escape");
                    goto bad;
                }
                p->pos += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                jfail(p, esc, "unpaired UTF-16 surrogate in \\u escape");
                goto bad;
            } else if (cp == 0) {
                jfail(p, esc, "\\u0000 cannot be held in a C string");
                goto bad;
            }
            o += utf8_put(o, cp);
            break;
        }
        default:
            jfail(p, esc, "invalid escape in string");
            goto bad;
        }
    }
    *o = '\0';
    return out;
bad:
    free(out);
    return NULL;
}

/* Copies s into a fixed field, cutting at a UTF-8 character boundary if it is too long. */
static void store_string(char *dst, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* Scans a JSON number (RFC 8259 grammar) at p->pos; returns its length or 0. */
static size_t scan_number(const struct jparser *p)
{
    size_t i = p->pos;
    const char *b = p->buf;
#define DIGIT(j) ((j) < p->len && b[j] >= '0' && b[j] <= '9')
    if (i < p->len && b[i] == '-')
        i++;
    if (i < p->len && b[i] == '0')
        i++;
    else if (DIGIT(i))
        while (DIGIT(i))
            i++;
    else
        return 0;
    if (i < p->len && b[i] == '.') {
        i++;
        if (!DIGIT(i))
            return 0;
        while (DIGIT(i))
            i++;
    }
    if (i < p->len && (b[i] == 'e' || b[i] == 'E')) {
        i++;
        if (i < p->len && (b[i] == '+' || b[i] == '-'))
            i++;
        if (!DIGIT(i))
            return 0;
        while (DIGIT(i))
            i++;
    }
#undef DIGIT
    return i - p->pos;
}

static int type_mismatch(struct jparser *p, size_t at, const struct meta_field *fd,
                         const char *got)
{
    static const char *const want[] = {"a string", "an integer", "a number", "an integer"};
    char msg[160];
    snprintf(msg, sizeof msg, "\"%s%s%s\" must be %s, not %s", fd->section,
             *fd->section ? "." : "", fd->key, want[fd->kind], got);
    return jfail(p, at, msg);
}

static int out_of_range(struct jparser *p, size_t at, const struct meta_field *fd,
                        const char *text)
{
    char msg[200];
    snprintf(msg, sizeof msg, "\"%s%s%s\" must be a finite number from %.15g to %.15g, not %.40s",
             fd->section, *fd->section ? "." : "", fd->key, fd->lo, fd->hi, text);
    return jfail(p, at, msg);
}

static int store_number(struct jparser *p, size_t at, const struct meta_field *fd,
                        const char *text)
{
    char *dst = (char *)p->m + fd->offset, *end;
    errno = 0;
    if (fd->kind == F_DBL) {
        double v = strtod(text, &end);
        /* 1e999 parses as inf: refused with the rest of the out-of-range values */
        if (*end || !isfinite(v) || v < fd->lo || v > fd->hi)
            return out_of_range(p, at, fd, text);
        *(double *)dst = v == 0 && fd->zero_unknown ? NAN : v;
        return 0;
    }
    if (fd->kind == F_INT) {
        long long v = strtoll(text, &end, 10);
        if (*end || errno || v < INT_MIN || v > INT_MAX)
            return type_mismatch(p, at, fd, "a fraction or an out-of-range number");
        if ((double)v < fd->lo || (double)v > fd->hi)
            return out_of_range(p, at, fd, text);
        *(int *)dst = (int)v;
        return 0;
    }
    if (fd->kind == F_U64) {
        if (text[0] == '-')
            return type_mismatch(p, at, fd, "a negative number");
        unsigned long long v = strtoull(text, &end, 10);
        if (*end || errno)
            return type_mismatch(p, at, fd, "a fraction or an out-of-range number");
        *(unsigned long long *)dst = v;
        return 0;
    }
    return type_mismatch(p, at, fd, "a number");
}

/* section: the enclosing top-level key while inside one of its objects, "" at the top
 * level, NULL where nothing is stored (arrays, deeper or unknown objects).
 * fd: the field this value is stored into, or NULL. */
static int parse_value(struct jparser *p, int depth, const char *section,
                       const struct meta_field *fd);

/* Past the opening '{' or '[' and any space: 1 if `close` follows at once (consumed). */
static int opens_empty(struct jparser *p, char close)
{
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->buf[p->pos] == close) {
        p->pos++;
        return 1;
    }
    return 0;
}

/* After a member: 1 past a ',', 0 past `close`, else -1 with the error `what`. */
static int next_member(struct jparser *p, char close, const char *what)
{
    skip_ws(p);
    if (p->pos < p->len && p->buf[p->pos] == ',') {
        p->pos++;
        return 1;
    }
    if (p->pos < p->len && p->buf[p->pos] == close) {
        p->pos++;
        return 0;
    }
    return jfail(p, p->pos, what);
}

static int parse_object(struct jparser *p, int depth, const char *section)
{
    if (opens_empty(p, '}'))
        return 0;
    for (;;) {
        skip_ws(p);
        if (p->pos >= p->len || p->buf[p->pos] != '"')
            return jfail(p, p->pos, "expected a string key in an object");
        char *key = parse_string(p);
        if (!key)
            return -1;
        skip_ws(p);
        if (p->pos >= p->len || p->buf[p->pos] != ':') {
            free(key);
            return jfail(p, p->pos, "expected ':' after an object key");
        }
        p->pos++;
        const struct meta_field *fd = section ? find_field(section, key) : NULL;
        const char *child = NULL;
        /* only the top-level object's known sections hold fields */
        if (section && !*section)
            for (size_t s = 0; s < sizeof meta_sections / sizeof meta_sections[0]; s++)
                if (strcmp(key, meta_sections[s]) == 0)
                    child = meta_sections[s];
        p->keys[p->nkeys++] = key;   /* depth is bounded by parse_value: nkeys <= depth + 1 */
        int rc = fd ? parse_value(p, depth + 1, NULL, fd) : parse_value(p, depth + 1, child, NULL);
        free(key);
        p->nkeys--;
        if (rc)
            return -1;
        if ((rc = next_member(p, '}', "expected ',' or '}' in an object")) <= 0)
            return rc;
    }
}

static int parse_array(struct jparser *p, int depth)
{
    if (opens_empty(p, ']'))
        return 0;
    for (int i = 0;; i++) {
        snprintf(p->index[p->nkeys], sizeof p->index[0], "%d", i);
        p->keys[p->nkeys] = p->index[p->nkeys];
        p->nkeys++;
        int rc = parse_value(p, depth + 1, NULL, NULL);
        p->nkeys--;
        if (rc)
            return -1;
        if ((rc = next_member(p, ']', "expected ',' or ']' in an array")) <= 0)
            return rc;
    }
}

/* Tells the visitor, if there is one, of the value at the current keys. */
static void tell(struct jparser *p, enum json_kind kind, const char *text)
{
    if (p->visit) {
        struct json_at v = {p->keys, p->nkeys, kind, text};
        p->visit(p->ctx, &v);
    }
}

static int parse_value(struct jparser *p, int depth, const char *section,
                       const struct meta_field *fd)
{
    skip_ws(p);
    if (depth > JSON_MAX_DEPTH)
        return jfail(p, p->pos, "nested too deeply");
    if (p->pos >= p->len)
        return jfail(p, p->pos, "unexpected end of file, expected a value");
    size_t at = p->pos;
    char c = p->buf[at];
    if (c == '{') {
        if (fd)
            return type_mismatch(p, at, fd, "an object");
        tell(p, JSON_OBJECT, NULL);
        return parse_object(p, depth, section);
    }
    if (c == '[') {
        if (fd)
            return type_mismatch(p, at, fd, "an array");
        tell(p, JSON_ARRAY, NULL);
        return parse_array(p, depth);
    }
    if (c == '"') {
        char *s = parse_string(p);
        if (!s)
            return -1;
        tell(p, JSON_STRING, s);
        int rc = 0;
        if (fd && fd->kind == F_STR)
            store_string((char *)p->m + fd->offset, fd->size, s);
        else if (fd)
            rc = type_mismatch(p, at, fd, "a string");
        free(s);
        return rc;
    }
    static const char *const lits[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(lits[i]);
        if (p->len - at >= n && memcmp(p->buf + at, lits[i], n) == 0) {
            p->pos += n;
            tell(p, (enum json_kind)(JSON_TRUE + i), NULL);
            if (!fd || i < 2) {
                /* true/false go into integer fields as 1/0 (l2_flush is a flag) */
                if (fd && fd->kind == F_INT)
                    *(int *)((char *)p->m + fd->offset) = (i == 0);
                else if (fd)
                    return type_mismatch(p, at, fd, "a boolean");
                return 0;
            }
            /* null: "unknown"; a double becomes NaN, anything else keeps its default */
            if (fd->kind == F_DBL)
                *(double *)((char *)p->m + fd->offset) = NAN;
            return 0;
        }
    }
    size_t n = scan_number(p);
    if (!n)
        return jfail(p, at, "expected a value (object, array, string, number, true, false or null)");
    p->pos += n;
    if (p->visit) {
        /* a number is handed on as written; one too long for any integer as "" */
        char text[64] = "";
        if (n < sizeof text) {
            memcpy(text, p->buf + at, n);
            text[n] = '\0';
        }
        tell(p, JSON_NUMBER, text);
    }
    if (!fd)
        return 0;
    char text[64];
    if (n >= sizeof text)
        return type_mismatch(p, at, fd, "an overlong number");
    memcpy(text, p->buf + at, n);
    text[n] = '\0';
    if (fd->kind == F_STR)
        return type_mismatch(p, at, fd, "a number");
    return store_number(p, at, fd, text);
}

/* The rank fields against each other, once the whole file is read. */
static int check_ranks(const char *path, const struct gp_meta *m, char *err, size_t errlen)
{
    if (strcmp(m->mode, "single") && strcmp(m->mode, "shard") && strcmp(m->mode, "fleet")) {
        snprintf(err, errlen, "%s: \"run.mode\" must be \"single\", \"shard\" or \"fleet\", not \"%.20s\"",
                 path, m->mode);
        return -1;
    }
    if (m->rank >= m->world_size || m->local_rank >= m->world_size) {
        snprintf(err, errlen, "%s: \"run.rank\" %d and \"run.local_rank\" %d must be below \"run.world_size\" %d",
                 path, m->rank, m->local_rank, m->world_size);
        return -1;
    }
    return 0;
}

/* Reads and parses the file as one JSON object, p set up by the caller but for the text;
 * 0 or -1 with the reason in p->err. */
static int parse_file(const char *path, struct jparser *p)
{
    char *err = p->err;
    size_t errlen = p->errlen;
    FILE *f = gp_open_regular(path, JSON_MAX_BYTES, JSON_MAX_TEXT, err, errlen);
    if (!f)
        return -1;
    char *buf = malloc(JSON_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* the file may have grown since it was opened: read one byte past the limit to tell */
    size_t len = fread(buf, 1, JSON_MAX_BYTES + 1, f);
    int rerr = ferror(f);
    fclose(f);
    if (rerr || len > JSON_MAX_BYTES) {
        if (rerr)
            snprintf(err, errlen, "cannot read '%s'", path);
        else
            snprintf(err, errlen, "%s: larger than the %s limit, not a gemmprof results.json", path,
                     JSON_MAX_TEXT);
        free(buf);
        return -1;
    }
    p->buf = buf;
    p->len = len;
    p->path = path;
    int rc = -1;
    skip_ws(p);
    if (p->pos >= p->len)
        jfail(p, p->pos, "empty file, expected a JSON object");
    else if (buf[p->pos] != '{')
        jfail(p, p->pos, "expected a JSON object at the top level");
    else if (parse_value(p, 0, p->m ? "" : NULL, NULL) == 0) {
        skip_ws(p);
        if (p->pos < p->len)
            jfail(p, p->pos, "trailing characters after the JSON object");
        else
            rc = 0;
    }
    free(buf);
    p->buf = NULL;
    return rc;
}

/* The "variants" array's strings, into m->variants: entries past GP_META_VARIANTS and
 * keys other than the three are skipped; an entry without a name is found by no lookup. */
static void read_variant(void *ctx, const struct json_at *v)
{
    struct gp_meta *m = ctx;
    if (v->depth != 3 || v->kind != JSON_STRING || strcmp(v->path[0], "variants") != 0)
        return;
    char *end;
    long i = strtol(v->path[1], &end, 10);
    if (*end || i < 0 || i >= GP_META_VARIANTS)
        return;
    struct gp_meta_variant *e = &m->variants.v[i];
    if (strcmp(v->path[2], "name") == 0)
        store_string(e->name, sizeof e->name, v->text);
    else if (strcmp(v->path[2], "precision") == 0)
        store_string(e->precision, sizeof e->precision, v->text);
    else if (strcmp(v->path[2], "description") == 0)
        store_string(e->description, sizeof e->description, v->text);
    else
        return;
    if (m->variants.n <= i)
        m->variants.n = (int)i + 1;
}

int meta_read_json(const char *path, struct gp_meta *m, char *err, size_t errlen)
{
    struct jparser p = {.err = err, .errlen = errlen, .m = m, .visit = read_variant, .ctx = m};
    m->schema = 0;   /* a file without "schema" predates versioning */
    return parse_file(path, &p) ? -1 : check_ranks(path, m, err, errlen);
}

int json_read_file(const char *path, json_visit_fn fn, void *ctx, char *err, size_t errlen)
{
    struct jparser p = {.err = err, .errlen = errlen, .visit = fn, .ctx = ctx};
    return parse_file(path, &p);
}

/* gemmprof merge (analysis/merge.h): reads every rank directory, checks that they come
 * from one gemmprof build and hold no row twice, and writes one results directory:
 * results.csv (rows tagged host, gpu_uuid, rank), results.json (the first rank's
 * metadata plus a "merge" object), ceilings.csv (the first rank's) and each rank's
 * ceilings as ceilings-<host>-<uuid>.csv for the fleet report. */
#include "analysis/merge.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/atomic_file.h"
#include "analysis/ceilings.h"
#include "analysis/infile.h"
#include "analysis/message.h"
#include "analysis/meta.h"
#include "analysis/results_csv.h"

#define MAX_RANK_DIRS 1024

/* ---- the launcher keys ---- */

/* What the visitor keeps while results.json is parsed (analysis/meta.h's reader: a
 * re-indented or compacted file reads the same as the one merge wrote). */
struct key_reader {
    struct merge_rank_keys *k;
    char merge_mode[16];
    int merge_world;
    int entry_rank;     /* the ranks_missing entry being read: its rank, -1 unknown */
    int in_entry;
};

static int is_key(const struct json_at *v, int at, const char *name)
{
    return v->depth > at && strcmp(v->path[at], name) == 0;
}

/* A non-negative int, or dflt. */
static int int_of(const struct json_at *v, int dflt)
{
    if (v->kind != JSON_NUMBER)
        return dflt;
    char *end;
    errno = 0;
    long x = strtol(v->text, &end, 10);
    return end != v->text && !*end && errno == 0 && x >= 0 && x <= INT_MAX ? (int)x : dflt;
}

static void copy_mode(char *dst, size_t len, const struct json_at *v)
{
    if (v->kind == JSON_STRING)
        snprintf(dst, len, "%s", v->text);
}

/* Ends a ranks_missing entry: its rank ("?" when unknown) joins the list. */
static void end_entry(struct key_reader *r)
{
    if (!r->in_entry)
        return;
    char one[16] = "?";
    if (r->entry_rank >= 0)
        snprintf(one, sizeof one, "%d", r->entry_rank);
    size_t used = strlen(r->k->missing);
    snprintf(r->k->missing + used, sizeof r->k->missing - used, "%s%s", used ? ", " : "", one);
    r->in_entry = 0;
}

static void visit_key(void *ctx, const struct json_at *v)
{
    struct key_reader *r = ctx;
    struct merge_rank_keys *k = r->k;
    if (!is_key(v, 0, "merge")) {
        /* the launcher keys, at the top level or in an object there (results.json's "run") */
        if (v->depth < 1 || v->depth > 2)
            return;
        const char *key = v->path[v->depth - 1];
        if (strcmp(key, "rank") == 0)
            k->rank = int_of(v, k->rank);
        else if (strcmp(key, "world_size") == 0)
            k->world_size = int_of(v, k->world_size);
        else if (strcmp(key, "local_rank") == 0)
            k->local_rank = int_of(v, k->local_rank);
        else if (strcmp(key, "mode") == 0)
            copy_mode(k->mode, sizeof k->mode, v);
        return;
    }
    /* a merged directory's "merge" object */
    if (v->depth == 1 && v->kind == JSON_OBJECT)
        k->nmerged = k->nmissing = 0;
    else if (v->depth == 2 && is_key(v, 1, "mode"))
        copy_mode(r->merge_mode, sizeof r->merge_mode, v);
    else if (v->depth == 2 && is_key(v, 1, "world_size"))
        r->merge_world = int_of(v, r->merge_world);
    else if (v->depth == 3 && is_key(v, 1, "ranks_merged") && k->nmerged >= 0)
        k->nmerged++;
    else if (v->depth == 3 && is_key(v, 1, "ranks_missing") && k->nmissing >= 0) {
        end_entry(r);
        k->nmissing++;
        r->in_entry = 1;
        r->entry_rank = -1;
    } else if (v->depth == 4 && is_key(v, 1, "ranks_missing") && is_key(v, 3, "rank") && r->in_entry)
        r->entry_rank = int_of(v, -1);
}

static void keys_init(struct merge_rank_keys *k)
{
    k->rank = k->world_size = k->local_rank = -1;
    k->nmerged = k->nmissing = -1;
    k->mode[0] = k->missing[0] = 0;
}

int merge_read_rank_keys(const char *json_path, struct merge_rank_keys *k)
{
    char err[512];
    struct key_reader r = {.k = k, .merge_world = -1};
    keys_init(k);
    if (json_read_file(json_path, visit_key, &r, err, sizeof err)) {
        keys_init(k);
        return -1;
    }
    end_entry(&r);
    /* a merged directory's mode and world are its merge object's (the first rank's may
     * say "single") */
    if (r.merge_mode[0])
        snprintf(k->mode, sizeof k->mode, "%s", r.merge_mode);
    if (r.merge_world >= 0)
        k->world_size = r.merge_world;
    return 0;
}

void merge_safe_name(char *out, size_t len, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < len; i++) {
        char c = s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                 c == '_' || c == '-';
        out[i] = ok ? c : '_';
    }
    out[i] = 0;
    if (i == 0)
        snprintf(out, len, "unknown");
}

/* ---- the rank directories ---- */

struct rank_dir {
    char dir[PATH_MAX];
    struct gp_meta meta;
    int have_meta;
    struct merge_rank_keys keys;
    struct gp_ceilings cs;
    int have_ceilings;
    struct gp_result *rows;
    int nrows;
    char missing[256];       /* why this rank has no rows; "" when it has */
};

static int is_file(const char *dir, const char *name)
{
    char p[PATH_MAX + 64];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds dir, or its subdirectories that hold results when dir itself holds none. */
static int add_dirs(const char *dir, struct rank_dir **rd, int *n)
{
    int expand = 0;
    struct stat st;
    char *names[MAX_RANK_DIRS];
    int nn = 0;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && !is_file(dir, "results.csv") && !is_file(dir, "results.json")) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)) && nn < MAX_RANK_DIRS) {
            char sub[PATH_MAX];
            if (e->d_name[0] == '.' || snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
                continue;
            if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode) && (is_file(sub, "results.csv") || is_file(sub, "results.json")))
                names[nn++] = strdup(sub);
        }
        if (d)
            closedir(d);
        expand = nn > 0;
    }
    if (!expand)
        names[nn++] = strdup(dir);
    qsort(names, (size_t)nn, sizeof *names, name_cmp);
    int rc = 0;
    for (int i = 0; i < nn; i++) {
        if (!names[i] || *n == MAX_RANK_DIRS) {
            rc = -1;
        } else {
            struct rank_dir *r = &(*rd)[(*n)++];
            memset(r, 0, sizeof *r);
            snprintf(r->dir, sizeof r->dir, "%s", names[i]);
        }
        free(names[i]);
    }
    return rc;
}

/* Loads one rank; a rank without rows is marked missing, not an error. */
static int load_rank(struct rank_dir *r, char *err, size_t errlen)
{
    char p[PATH_MAX + 64], e[1024];
    meta_init(&r->meta);
    snprintf(p, sizeof p, "%s/results.json", r->dir);
    merge_read_rank_keys(p, &r->keys);
    if (is_file(r->dir, "results.json")) {
        if (meta_read_json(p, &r->meta, e, sizeof e)) {
            snprintf(err, errlen, "%s", e);
            return -1;
        }
        r->have_meta = 1;
    }
    ceilings_init(&r->cs);
    snprintf(p, sizeof p, "%s/ceilings.csv", r->dir);
    if (is_file(r->dir, "ceilings.csv")) {
        if (ceilings_read_csv(p, &r->cs, e, sizeof e)) {
            snprintf(err, errlen, "%s", e);
            return -1;
        }
        r->have_ceilings = 1;
    }
    struct stat st;
    if (stat(r->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(r->missing, sizeof r->missing, "no such directory");
        return 0;
    }
    if (!is_file(r->dir, "results.csv")) {
        snprintf(r->missing, sizeof r->missing, "no results.csv (the rank died or had no GPU)");
        return 0;
    }
    snprintf(p, sizeof p, "%s/results.csv", r->dir);
    if (results_csv_read(p, &r->rows, &r->nrows, e, sizeof e)) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    if (r->nrows == 0)
        snprintf(r->missing, sizeof r->missing, "results.csv holds no rows");
    for (int i = 0; i < r->nrows; i++) {
        struct gp_result *x = &r->rows[i];
        snprintf(x->host, sizeof x->host, "%s", r->meta.hostname);
        snprintf(x->gpu_uuid, sizeof x->gpu_uuid, "%s", r->meta.gpu_uuid);
        if (r->keys.rank >= 0)
            snprintf(x->rank, sizeof x->rank, "%d", r->keys.rank);
    }
    return 0;
}

/* ---- merged row order ---- */

struct tagged { struct gp_result *r; int src; int order; int seq; };

/* A variant's place in the ranks' "variants" lists (their union, rank by rank): the
 * order the sweep ran them in. Names no list holds (a results.json written before the
 * lists were recorded) come after, in input order. */
static int variant_order(const struct gp_meta_variants *all, const char *name)
{
    const struct gp_meta_variant *v = meta_variant_find(all, name);
    return v ? (int)(v - all->v) : all->n;
}

/* Shard mode: as one sweep writes them, shape by shape (by size), variants in the
 * sweep's order; ties keep the input order (seq). */
static int shard_cmp(const void *a, const void *b)
{
    const struct tagged *x = a, *y = b;
    double vx = (double)x->r->m * x->r->n * x->r->k, vy = (double)y->r->m * y->r->n * y->r->k;
    if (vx != vy)
        return vx < vy ? -1 : 1;
    if (x->r->m != y->r->m)
        return x->r->m < y->r->m ? -1 : 1;
    if (x->r->n != y->r->n)
        return x->r->n < y->r->n ? -1 : 1;
    if (x->order != y->order)
        return x->order - y->order;
    return x->seq - y->seq;
}

static int seq_cmp(const void *a, const void *b)
{
    return ((const struct tagged *)a)->seq - ((const struct tagged *)b)->seq;
}

static int same_cell(const struct gp_result *a, const struct gp_result *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k && strcmp(a->variant, b->variant) == 0 &&
           strcmp(a->precision, b->precision) == 0;
}

static int same_row(const struct gp_result *a, const struct gp_result *b)
{
    return same_cell(a, b) && strcmp(a->host, b->host) == 0 && strcmp(a->gpu_uuid, b->gpu_uuid) == 0;
}

/* By variant, precision and shape, then GPU, then input order: a row measured twice
 * on one GPU, and a cell measured on two GPUs, end up next to each other. */
static int cell_cmp(const void *a, const void *b)
{
    const struct gp_result *x = ((const struct tagged *)a)->r, *y = ((const struct tagged *)b)->r;
    int c = strcmp(x->variant, y->variant);
    if (!c)
        c = strcmp(x->precision, y->precision);
    if (!c)
        c = x->m != y->m ? (x->m < y->m ? -1 : 1) : x->n != y->n ? (x->n < y->n ? -1 : 1)
          : x->k != y->k ? (x->k < y->k ? -1 : 1) : 0;
    if (!c)
        c = strcmp(x->host, y->host);
    if (!c)
        c = strcmp(x->gpu_uuid, y->gpu_uuid);
    return c ? c : ((const struct tagged *)a)->seq - ((const struct tagged *)b)->seq;
}

/* ---- writing ---- */

static int write_rows(const char *out, struct rank_dir *rd, const struct tagged *t, int nt, char *err, size_t errlen)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/results.csv", out);
    struct atomic_file af;
    FILE *f = atomic_open(&af, p, err, errlen);
    if (!f)
        return -1;
    int bad = results_csv_write_header(f);
    for (int i = 0; i < nt && !bad; i++)   /* derived columns against the row's own GPU */
        bad = results_csv_write_row(f, t[i].r, rd[t[i].src].have_ceilings ? &rd[t[i].src].cs : NULL);
    if (bad) {
        atomic_abort(&af);
        snprintf(err, errlen, "%s: write failed", p);
        return -1;
    }
    return atomic_commit(&af, err, errlen);
}

/* results.json: the first rank's metadata, then a "merge" object naming the mode, the
 * world size, and the ranks merged and missing. */
static int write_json(const char *out, const struct rank_dir *rd, int nrd, int first, const char *mode,
                      int world, const unsigned char *seen, const struct gp_meta_variants *all, char *err,
                      size_t errlen)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/results.json", out);
    struct gp_meta m = rd[first].meta;
    m.variants = *all;   /* every rank's, so the merged run is described as measured */
    int planned = 0;
    for (int i = 0; i < nrd && planned >= 0; i++)
        planned = rd[i].have_meta && rd[i].meta.planned_rows >= 0 ? planned + rd[i].meta.planned_rows : -1;
    if (strcmp(mode, "shard") == 0)
        m.planned_rows = planned;   /* the shards together planned the whole sweep */
    if (meta_write_json(p, &m, err, errlen))
        return -1;
    /* reopen and append the merge object before the closing brace */
    FILE *in = fopen(p, "rb");
    char *text = malloc((1 << 20) + 1);
    size_t n = in && text ? fread(text, 1, 1 << 20, in) : 0;
    if (in)
        fclose(in);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '}'))
        if (text[--n] == '}')
            break;
    while (n > 0 && text[n - 1] == '\n')
        n--;
    if (!text || n == 0) {
        free(text);
        snprintf(err, errlen, "%s: cannot read it back", p);
        return -1;
    }
    struct atomic_file af;
    FILE *f = atomic_open(&af, p, err, errlen);
    if (!f) {
        free(text);
        return -1;
    }
    fwrite(text, 1, n, f);
    free(text);
    fprintf(f, ",\n  \"merge\": {\n    \"mode\": ");
    json_write_string(f, mode);
    fprintf(f, ",\n    \"world_size\": %d,\n    \"ranks_merged\": [", world);
    const char *sep = "";
    for (int i = 0; i < nrd; i++)
        if (!rd[i].missing[0]) {
            fprintf(f, "%s{\"rank\": %d, \"host\": ", sep, rd[i].keys.rank);
            json_write_string(f, rd[i].meta.hostname);
            fputs(", \"gpu_uuid\": ", f);
            json_write_string(f, rd[i].meta.gpu_uuid);
            fputs(", \"dir\": ", f);
            json_write_string(f, rd[i].dir);
            fprintf(f, ", \"rows\": %d}", rd[i].nrows);
            sep = ", ";
        }
    fputs("],\n    \"ranks_missing\": [", f);
    sep = "";
    for (int i = 0; i < nrd; i++)
        if (rd[i].missing[0]) {
            fprintf(f, "%s{\"rank\": %d, \"dir\": ", sep, rd[i].keys.rank);
            json_write_string(f, rd[i].dir);
            fputs(", \"why\": ", f);
            json_write_string(f, rd[i].missing);
            fputc('}', f);
            sep = ", ";
        }
    /* ranks the world size names that no directory stood for */
    for (int k = 0; k < world; k++)
        if (!seen[k]) {
            fprintf(f, "%s{\"rank\": %d, \"dir\": null, \"why\": \"no directory given\"}", sep, k);
            sep = ", ";
        }
    fputs("]\n  }\n}\n", f);
    return atomic_commit(&af, err, errlen);
}

static int write_ceilings(const char *out, const struct rank_dir *rd, int nrd, int first, char *err, size_t errlen)
{
    char p[PATH_MAX + 300], h[64], u[64];
    if (rd[first].have_ceilings) {
        snprintf(p, sizeof p, "%s/ceilings.csv", out);
        if (ceilings_write_csv(p, &rd[first].cs, err, errlen))
            return -1;
    }
    for (int i = 0; i < nrd; i++) {
        if (!rd[i].have_ceilings || rd[i].missing[0])
            continue;
        merge_safe_name(h, sizeof h, rd[i].meta.hostname);
        merge_safe_name(u, sizeof u, rd[i].meta.gpu_uuid);
        snprintf(p, sizeof p, "%s/ceilings-%s-%s.csv", out, h, u);
        if (ceilings_write_csv(p, &rd[i].cs, err, errlen))
            return -1;
    }
    return 0;
}

/* ---- the merge ---- */

static int usage(const char *why)
{
    gp_message("merge: %s; usage: " MERGE_USAGE, why);
    return MERGE_EXIT_USAGE;
}

/* OUT is the first argument, so a forgotten one makes the first rank directory the
 * output: one that already holds results is refused unless --force says to replace it. */
static int check_out(const char *out, const struct rank_dir *rd, int nrd, int force)
{
    struct stat so, si;
    if (stat(out, &so) != 0)
        return 0;   /* created later */
    for (int i = 0; i < nrd; i++)
        if (stat(rd[i].dir, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
            gp_message("merge: the output directory %s is also an input; merge into a new directory", out);
            return -1;
        }
    if (!S_ISDIR(so.st_mode)) {
        gp_message("merge: the output %s exists and is not a directory; name a new directory as OUT", out);
        return -1;
    }
    const char *held = is_file(out, "results.csv") ? "results.csv" : is_file(out, "results.json") ? "results.json" : NULL;
    if (held && !force) {
        gp_message("merge: the output directory %s already holds results (%s); the first argument is where the "
                   "merge is written: name a new directory (" MERGE_USAGE "), or pass --force to replace them",
                   out, held);
        return -1;
    }
    return 0;
}

/* Reports the ranks below world that no directory stood for, a run of them a line. */
static int report_unseen(const unsigned char *seen, int world)
{
    int n = 0;
    for (int a = 0, b; a < world; a = b) {
        for (b = a + 1; b < world && seen[b] == seen[a];)
            b++;
        if (seen[a])
            continue;
        n += b - a;
        if (b - a == 1)
            gp_message("merge: missing rank %d of %d: no directory given for it", a, world);
        else
            gp_message("merge: missing ranks %d-%d of %d: no directory given for them", a, b - 1, world);
    }
    return n;
}

static int same_build(const struct rank_dir *a, const struct rank_dir *b)
{
    return strcmp(a->meta.tool_version, b->meta.tool_version) == 0 && strcmp(a->meta.git_rev, b->meta.git_rev) == 0;
}

int merge_run(const char *out, const char *const *dirs, int ndirs, int allow_mixed, int force)
{
    int nrd = 0, rc = MERGE_EXIT_FAILED;
    char err[8192];
    struct rank_dir *rd = calloc(MAX_RANK_DIRS, sizeof *rd);
    struct tagged *t = NULL;
    unsigned char *seen = NULL;
    struct gp_meta_variants all = {0};   /* the ranks' variant lists, united in rank order */
    if (!rd) {
        gp_message("merge: out of memory");
        return MERGE_EXIT_FAILED;
    }
    for (int i = 0; i < ndirs; i++)
        if (add_dirs(dirs[i], &rd, &nrd)) {
            free(rd);
            return usage("too many rank directories");
        }
    int first = -1, nrows = 0, world = -1;
    char mode[16] = "";
    if (check_out(out, rd, nrd, force)) {
        rc = MERGE_EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < nrd; i++) {
        if (load_rank(&rd[i], err, sizeof err)) {
            gp_message("merge: %s", err);
            goto done;
        }
        /* the missing ranks are listed one by one: a damaged world size must not make
         * that list (and results.json) billions of entries long */
        if (rd[i].keys.world_size > MERGE_MAX_WORLD) {
            gp_message("merge: %s/results.json: world_size %d is above the %d ranks merge takes; the file is "
                       "damaged or not from a gemmprof run", rd[i].dir, rd[i].keys.world_size, MERGE_MAX_WORLD);
            goto done;
        }
        if (rd[i].keys.world_size > world)
            world = rd[i].keys.world_size;
        if (!mode[0] && rd[i].keys.mode[0])
            snprintf(mode, sizeof mode, "%s", rd[i].keys.mode);
        if (rd[i].missing[0])
            continue;
        if (first < 0)
            first = i;
        else if (rd[i].have_meta && rd[first].have_meta && !same_build(&rd[first], &rd[i]) && !allow_mixed) {
            gp_message("merge: %s (gemmprof %s, %s) and %s (gemmprof %s, %s) come from different gemmprof "
                       "versions; rerun with one build, or pass --allow-mixed",
                       rd[first].dir, rd[first].meta.tool_version, rd[first].meta.git_rev, rd[i].dir,
                       rd[i].meta.tool_version, rd[i].meta.git_rev);
            rc = MERGE_EXIT_USAGE;
            goto done;
        }
        nrows += rd[i].nrows;
    }
    if (first < 0) {
        gp_message("merge: none of the %d rank directories holds results (first: %s: %s)", nrd, rd[0].dir, rd[0].missing);
        goto done;
    }
    for (int i = 0; i < nrd; i++)
        meta_variants_add(&all, &rd[i].meta.variants);   /* meta_init'd where a rank has none */
    t = calloc((size_t)nrows + 1, sizeof *t);
    if (!t) {
        gp_message("merge: out of memory for %d rows", nrows);
        goto done;
    }
    int nt = 0, two_gpus = 0;
    for (int i = 0; i < nrd; i++)
        for (int j = 0; j < rd[i].nrows; j++, nt++)
            t[nt] = (struct tagged){&rd[i].rows[j], i, variant_order(&all, rd[i].rows[j].variant), nt};
    /* duplicates, and cells two GPUs measured: neighbours once sorted by cell */
    qsort(t, (size_t)nt, sizeof *t, cell_cmp);
    int dup = -1;   /* the duplicate met first in input order */
    for (int q = 1; q < nt; q++) {
        if (same_row(t[q - 1].r, t[q].r) && (dup < 0 || t[q].seq < t[dup].seq))
            dup = q;
        two_gpus |= same_cell(t[q - 1].r, t[q].r);
    }
    if (dup >= 0) {
        const struct gp_result *r = t[dup].r;
        gp_message("merge: duplicate row: %s (%s) at %ldx%ldx%ld on host '%s' GPU '%s' is in %s and %s",
                   r->variant, r->precision, r->m, r->n, r->k, r->host, r->gpu_uuid, rd[t[dup - 1].src].dir,
                   rd[t[dup].src].dir);
        rc = MERGE_EXIT_USAGE;
        goto done;
    }
    /* no launcher mode (runs started by hand, or "single" runs): a fleet when two GPUs
     * measured the same variant x shape, else shards of one sweep */
    if (strcmp(mode, "shard") != 0 && strcmp(mode, "fleet") != 0)
        snprintf(mode, sizeof mode, "%s", two_gpus ? "fleet" : "shard");
    if (strcmp(mode, "fleet") == 0)
        qsort(t, (size_t)nt, sizeof *t, seq_cmp);   /* rank by rank, as read */
    if (strcmp(mode, "shard") == 0)
        qsort(t, (size_t)nt, sizeof *t, shard_cmp);
    seen = calloc((size_t)(world > 0 ? world : 0) + 1, 1);
    if (!seen) {
        gp_message("merge: out of memory");
        goto done;
    }
    for (int i = 0; i < nrd; i++)
        if (rd[i].keys.rank >= 0 && rd[i].keys.rank < world)
            seen[rd[i].keys.rank] = 1;
    if (mkdir(out, 0777) && errno != EEXIST) {
        gp_message("merge: cannot create %s: %s", out, strerror(errno));
        goto done;
    }
    if (write_rows(out, rd, t, nt, err, sizeof err) || write_ceilings(out, rd, nrd, first, err, sizeof err) ||
        write_json(out, rd, nrd, first, mode, world, seen, &all, err, sizeof err)) {
        gp_message("merge: %s", err);
        goto done;
    }
    /* what was merged, and what is missing */
    int nmissing = 0, npresent = 0;
    for (int i = 0; i < nrd; i++)
        npresent += !rd[i].missing[0];
    for (int i = 0; i < nrd; i++)
        if (rd[i].missing[0]) {
            char which[32] = "";
            if (rd[i].keys.rank >= 0)
                snprintf(which, sizeof which, " rank %d", rd[i].keys.rank);
            gp_message("merge: missing%s: %s: %s", which, rd[i].dir, rd[i].missing);
            nmissing++;
        }
    nmissing += report_unseen(seen, world);
    char ws[24] = "unknown";
    if (world >= 0)
        snprintf(ws, sizeof ws, "%d", world);
    printf("%s: %d rows from %d rank director%s (mode %s, world size %s)%s\n", out, nt, npresent,
           npresent == 1 ? "y" : "ies", mode, ws,
           nmissing ? "; ranks missing, see above" : "");
    rc = nmissing ? MERGE_EXIT_MISSING : MERGE_EXIT_OK;
done:
    for (int i = 0; i < nrd; i++)
        free(rd[i].rows);
    free(rd);
    free(t);
    free(seen);
    return rc;
}

/* gemmprof merge and the fleet check, on rank directories crafted from a recorded H200 run:
 * shard (rows split over 2 ranks merge back to the original), fleet (one GPU slowed by
 * 10% with its clock lowered is flagged, the clock named), a missing rank, duplicate
 * rows and mixed gemmprof versions. */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/ceilings.h"
#include "analysis/dataset.h"
#include "analysis/fleet.h"
#include "analysis/merge.h"
#include "analysis/meta.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "analysis/results_csv.h"
#include "src/cmd.h"
#include "tests/test.h"

#define H200 "tests/data/h200_da80385"   /* a frozen recorded run: results/h200 is replaced by each new recording */

static char tmpdir[64];
static struct gp_result *orig;
static int norig;
static struct gp_meta orig_meta;
static struct gp_ceilings orig_cs;

/* How a crafted rank differs from the recorded run. */
struct craft {
    const char *name, *host, *uuid, *git_rev, *mode;
    int rank, world;
    int rows_mod, rows_rem;   /* keep rows i with i % rows_mod == rows_rem (mod 1: all) */
    double slow;              /* FLOP/s x (1 - slow), times / (1 - slow) */
    double clock;             /* sm_clock_hz x clock */
    int no_csv;               /* the rank died: results.json but no results.csv */
    double spread;            /* > 0: every row's time spread (max - min) / median set to it */
};
/* make_rank writes results.json without a variant list, as it was written before them */
static int craft_no_variants;

static void path_of(char *out, size_t len, const char *a, const char *b)
{
    snprintf(out, len, "%s/%s%s%s", tmpdir, a, b ? "/" : "", b ? b : "");
}

/* Writes tmpdir/NAME as a rank of a multi-GPU run would; 0 or -1. */
static int make_rank(const struct craft *c)
{
    char dir[256], p[320], err[1024];
    path_of(dir, sizeof dir, c->name, NULL);
    mkdir(dir, 0777);
    struct gp_meta m = orig_meta;
    snprintf(m.hostname, sizeof m.hostname, "%s", c->host);
    snprintf(m.gpu_uuid, sizeof m.gpu_uuid, "%s", c->uuid);
    if (c->git_rev)
        snprintf(m.git_rev, sizeof m.git_rev, "%s", c->git_rev);
    /* the launcher keys, as the run writes them (results.json's "run" object) */
    m.rank = c->rank;
    m.world_size = c->world;
    m.local_rank = c->rank;
    snprintf(m.mode, sizeof m.mode, "%s", c->mode);
    if (craft_no_variants)
        m.variants.n = 0;
    snprintf(p, sizeof p, "%s/results.json", dir);
    if (meta_write_json(p, &m, err, sizeof err))
        return -1;
    struct gp_ceilings cs = orig_cs;
    snprintf(p, sizeof p, "%s/ceilings.csv", dir);
    cs.c[GP_CEIL_fp32_fma].measured *= 1 - c->slow;
    if (ceilings_write_csv(p, &cs, err, sizeof err))
        return -1;
    if (c->no_csv)
        return 0;
    snprintf(p, sizeof p, "%s/results.csv", dir);
    FILE *f = fopen(p, "w");
    if (!f || results_csv_write_header(f))
        return -1;
    for (int i = 0; i < norig; i++) {
        if (i % c->rows_mod != c->rows_rem)
            continue;
        struct gp_result r = orig[i];
        r.flop_per_s *= 1 - c->slow;
        r.time_median_s /= 1 - c->slow;
        r.time_min_s /= 1 - c->slow;
        r.time_max_s /= 1 - c->slow;
        r.sm_clock_hz *= c->clock;
        if (c->spread > 0) {
            r.time_min_s = r.time_median_s * (1 - c->spread / 2);
            r.time_max_s = r.time_median_s * (1 + c->spread / 2);
            r.time_spread = c->spread;
        }
        if (results_csv_write_row(f, &r, &cs))
            return -1;
    }
    return fclose(f) ? -1 : 0;
}

/* Runs the verb with stderr caught into msg; returns its status. */
static int run_merge(char **argv, char *msg, size_t len)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    char p[128];
    snprintf(p, sizeof p, "%s/stderr.txt", tmpdir);
    fflush(stderr);
    fflush(stdout);
    int saved = dup(2), saved_out = dup(1), fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int null = open("/dev/null", O_WRONLY);
    dup2(fd, 2);
    dup2(null, 1);   /* the summary line is not checked here */
    close(fd);
    close(null);
    int rc = merge_main(argc, argv);
    fflush(stderr);
    fflush(stdout);
    dup2(saved, 2);
    dup2(saved_out, 1);
    close(saved);
    close(saved_out);
    msg[0] = 0;
    FILE *f = fopen(p, "r");
    if (f) {
        size_t n = fread(msg, 1, len - 1, f);
        msg[n] = 0;
        fclose(f);
        if (n > 0 && msg[n - 1] == '\n')   /* one line: shown without its newline */
            msg[n - 1] = 0;
    }
    return rc;
}

static int lines_of(const char *s)
{
    int n = *s != 0;   /* the last line's newline was dropped */
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strstr(buf, needle) != NULL;
}

static int exists(const char *dir, const char *name)
{
    char p[320];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

/* Rewrites a JSON file as a tool would: indent > 0 re-indents it (one member or element a
 * line, as `python3 -m json.tool` does), 0 compacts it (no whitespace outside strings). */
static int reformat_json(const char *path, int indent)
{
    static char in[1 << 20], out[4 << 20];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(in, 1, sizeof in - 1, f) : 0, o = 0;
    if (f)
        fclose(f);
    in[n] = 0;
    int depth = 0, str = 0;
#define NEWLINE()                                                                         \
    do {                                                                                  \
        out[o++] = '\n';                                                                  \
        for (int s_ = 0; s_ < depth * indent; s_++)                                      \
            out[o++] = ' ';                                                               \
    } while (0)
    for (size_t i = 0; i < n && o < sizeof out - 256; i++) {
        char c = in[i];
        if (str) {
            out[o++] = c;
            if (c == '\\')
                out[o++] = in[++i];
            else if (c == '"')
                str = 0;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
            continue;
        size_t j = i + 1;
        while (in[j] == ' ' || in[j] == '\n')
            j++;
        if (c == '"')
            str = 1;
        if ((c == '}' || c == ']') && indent) {
            depth--;
            NEWLINE();
        }
        out[o++] = c;
        if (c == ':' && indent)
            out[o++] = ' ';
        if ((c == '{' || c == '[') && (in[j] == '}' || in[j] == ']')) {
            out[o++] = in[j];   /* an empty object or array stays on its line */
            i = j;
        } else if ((c == '{' || c == '[') && indent) {
            depth++;
            NEWLINE();
        } else if (c == ',' && indent)
            NEWLINE();
    }
#undef NEWLINE
    out[o++] = '\n';
    f = fopen(path, "w");
    int ok = f && fwrite(out, 1, o, f) == o;
    return f && fclose(f) == 0 && ok ? 0 : -1;
}

static void test_rank_keys(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/keys.json", tmpdir);
    FILE *f = fopen(p, "w");
    fprintf(f, "{\"run\": {\"command\": \"x \\\"rank\\\": 9\", \"local_rank\": 1, \"rank\": 5,\n"
               " \"world_size\": 8, \"mode\": \"fleet\"}}\n");
    fclose(f);
    struct merge_rank_keys k;
    CHECK(merge_read_rank_keys(p, &k) == 0, "rank keys read");
    CHECK(k.rank == 5 && k.local_rank == 1 && k.world_size == 8,
          "rank 5, local rank 1, world 8, not the escaped \"rank\" inside a string (got %d %d %d)", k.rank,
          k.local_rank, k.world_size);
    CHECK(strcmp(k.mode, "fleet") == 0, "mode fleet (got '%s')", k.mode);
    CHECK(merge_read_rank_keys(H200 "/results.json", &k) == 0 && k.rank == -1 && k.world_size == -1 &&
              k.mode[0] == 0, "a single run's results.json has no rank keys");
    /* a merged file whose first rank's metadata says "single" before the merge object */
    f = fopen(p, "w");
    fprintf(f, "{\"run\": {\"rank\": 0, \"mode\": \"single\"},\n  \"merge\": {\n    \"mode\": \"shard\",\n"
               "    \"ranks_merged\": [{\"rank\": 0}, {\"rank\": 1}],\n    \"ranks_missing\": []\n  }\n}\n");
    fclose(f);
    CHECK(merge_read_rank_keys(p, &k) == 0 && strcmp(k.mode, "shard") == 0 && k.nmerged == 2 && k.nmissing == 0,
          "the merge object's mode wins over the first rank's; 2 merged, none missing (%s %d %d)", k.mode,
          k.nmerged, k.nmissing);
    char s[64];
    merge_safe_name(s, sizeof s, "node 1/../x");
    CHECK(strcmp(s, "node_1_.._x") == 0, "file-name-safe host: %s", s);
}

static void test_shard(void)
{
    char msg[4096], out[256], p[320], err[1024];
    struct craft a = {"s0", "vm", "GPU-a", NULL, "shard", 0, 2, 2, 0, 0, 1, 0, 0};
    struct craft b = {"s1", "vm", "GPU-b", NULL, "shard", 1, 2, 2, 1, 0, 1, 0, 0};
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0, "shard ranks crafted");
    path_of(out, sizeof out, "shard_out", NULL);
    char d0[256], d1[256];
    path_of(d0, sizeof d0, "s0", NULL);
    path_of(d1, sizeof d1, "s1", NULL);
    char *argv[] = {"merge", out, d1, d0, NULL};   /* rank order does not matter */
    int rc = run_merge(argv, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_OK, "shard merge exits 0 (got %d: %s)", rc, msg);
    struct gp_result *rows = NULL;
    int n = 0;
    snprintf(p, sizeof p, "%s/results.csv", out);
    CHECK(results_csv_read(p, &rows, &n, err, sizeof err) == 0, "merged results.csv reads back: %s", err);
    CHECK(n == norig, "merged rows %d = original %d", n, norig);
    int same = n == norig, tagged = 1;
    for (int i = 0; i < n && same; i++)
        same = strcmp(rows[i].variant, orig[i].variant) == 0 && rows[i].m == orig[i].m && rows[i].n == orig[i].n &&
               rows[i].k == orig[i].k && fabs(rows[i].flop_per_s / orig[i].flop_per_s - 1) < 1e-8;
    for (int i = 0; i < n; i++)
        tagged &= strcmp(rows[i].host, "vm") == 0 && strcmp(rows[i].rank, i % 2 ? "1" : "0") == 0 &&
                  strcmp(rows[i].gpu_uuid, i % 2 ? "GPU-b" : "GPU-a") == 0;
    CHECK(same, "merged rows equal the original rows, in the original order");
    CHECK(tagged, "each row tagged with its host, GPU and rank");
    free(rows);
    struct merge_rank_keys k;
    snprintf(p, sizeof p, "%s/results.json", out);
    CHECK(merge_read_rank_keys(p, &k) == 0 && strcmp(k.mode, "shard") == 0 && k.world_size == 2,
          "merged results.json: mode shard, world size 2");
    struct gp_meta m;
    CHECK(meta_read_json(p, &m, err, sizeof err) == 0 && m.planned_rows == 2 * orig_meta.planned_rows,
          "merged results.json reads as metadata; planned rows summed over the shards (%d)", m.planned_rows);
    int listed = m.variants.n == orig_meta.variants.n;
    for (int i = 0; i < m.variants.n && listed; i++)
        listed = strcmp(m.variants.v[i].name, orig_meta.variants.v[i].name) == 0;
    CHECK(listed, "merged results.json lists the %d variants in the sweep's order (got %d)", orig_meta.variants.n,
          m.variants.n);
    CHECK(exists(out, "ceilings.csv") && exists(out, "ceilings-vm-GPU-a.csv") && exists(out, "ceilings-vm-GPU-b.csv"),
          "ceilings.csv and one ceilings-HOST-UUID.csv per rank");
    struct gp_dataset ds;
    CHECK(dataset_load(out, &ds, err, sizeof err) == 0, "merged directory loads as a dataset: %s", err);
    snprintf(p, sizeof p, "%s/report.md", out);
    CHECK(report_write(&ds, p, 1, NULL, err, sizeof err) == 0, "report of the shard merge: %s", err);
    CHECK(!file_has(p, "## Fleet"), "a shard merge reads as one run: no fleet section");
    dataset_free(&ds);
}

/* Ranks whose results.json predates the variant lists: every row merged, shape by shape
 * by size, each shape's rows in input order (rank order as given). */
static void test_shard_without_lists(void)
{
    char msg[4096], out[256], p[320], err[1024];
    struct craft a = {"o0", "vm", "GPU-a", NULL, "shard", 0, 2, 2, 0, 0, 1, 0, 0};
    struct craft b = {"o1", "vm", "GPU-b", NULL, "shard", 1, 2, 2, 1, 0, 1, 0, 0};
    craft_no_variants = 1;
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0, "shard ranks without variant lists crafted");
    craft_no_variants = 0;
    path_of(out, sizeof out, "old_out", NULL);
    char d0[256], d1[256];
    path_of(d0, sizeof d0, "o0", NULL);
    path_of(d1, sizeof d1, "o1", NULL);
    char *argv[] = {"merge", out, d0, d1, NULL};
    int rc = run_merge(argv, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_OK, "merge without variant lists exits 0 (got %d: %s)", rc, msg);
    struct gp_result *rows = NULL;
    int n = 0, ordered = 1;
    snprintf(p, sizeof p, "%s/results.csv", out);
    CHECK(results_csv_read(p, &rows, &n, err, sizeof err) == 0 && n == norig, "all %d rows merged (got %d)",
          norig, n);
    for (int i = 1; i < n; i++) {
        double v0 = (double)rows[i - 1].m * rows[i - 1].n * rows[i - 1].k, v1 = (double)rows[i].m * rows[i].n * rows[i].k;
        ordered &= v0 < v1 || (v0 == v1 && strcmp(rows[i - 1].rank, rows[i].rank) <= 0);
    }
    CHECK(ordered, "shape by shape, rank 0's rows before rank 1's within a shape");
    free(rows);
    struct gp_meta m;
    snprintf(p, sizeof p, "%s/results.json", out);
    CHECK(meta_read_json(p, &m, err, sizeof err) == 0 && m.variants.n == 0,
          "the merged results.json lists no variants either (%d)", m.variants.n);
}

static void test_fleet(void)
{
    char msg[4096], out[256], p[320], err[1024];
    struct craft a = {"f0", "node1", "GPU-a", NULL, "fleet", 0, 2, 1, 0, 0, 1, 0, 0};
    struct craft b = {"f1", "node2", "GPU-b", NULL, "fleet", 1, 2, 1, 0, 0.10, 0.90, 0, 0};
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0, "fleet ranks crafted (rank 1: 10%% slower, clock 10%% lower)");
    path_of(out, sizeof out, "fleet_out", NULL);
    char d0[256], d1[256];
    path_of(d0, sizeof d0, "f0", NULL);
    path_of(d1, sizeof d1, "f1", NULL);
    char *argv[] = {"merge", out, d0, d1, NULL};
    int rc = run_merge(argv, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_OK, "fleet merge exits 0 (got %d: %s)", rc, msg);
    struct gp_dataset ds;
    CHECK(dataset_load(out, &ds, err, sizeof err) == 0 && ds.nrows == 2 * norig, "fleet dataset: %d rows", ds.nrows);
    struct fleet fl;
    CHECK(fleet_analyze(ds.rows, ds.nrows, &fl) == 0 && fl.ngpus == 2, "fleet: 2 GPUs");
    if (fl.ngpus == 2) {
        CHECK(!fl.gpu[0].flagged, "the healthy GPU is not flagged (ratio %g)", fl.gpu[0].ratio);
        CHECK(fl.gpu[1].flagged && fl.nflagged == 1, "the slowed GPU is flagged (ratio %g, band %g)", fl.gpu[1].ratio,
              fl.gpu[1].band);
        CHECK_NEAR(fl.gpu[1].ratio, 0.9 / 0.95, 1e-6, "slowed GPU at 0.9/0.95 of the two-GPU median");
        CHECK(strcmp(fl.gpu[1].cause, "sm_clock_hz") == 0, "the clock is named (got '%s', %g)", fl.gpu[1].cause,
              fl.gpu[1].cause_dev);
        CHECK(fl.gpu[1].band >= FLEET_BAND_MIN && fl.gpu[1].band < 0.05, "band max(3%%, 3 x spread) = %g",
              fl.gpu[1].band);
        double biggest = 0;
        for (int i = 0; i < norig; i++)
            if (strcmp(orig[i].variant, fl.gpu[1].v[0].variant) == 0 && (double)orig[i].m * orig[i].n * orig[i].k > biggest)
                biggest = (double)orig[i].m * orig[i].n * orig[i].k;
        const struct fleet_variant *v0 = &fl.gpu[1].v[0];
        CHECK(fl.gpu[1].nvariants == 8 && (double)v0->m * v0->n * v0->k == biggest,
              "per variant at its largest shape (%d variants, %ldx%ldx%ld)", fl.gpu[1].nvariants, v0->m, v0->n, v0->k);
        CHECK_NEAR(v0->fleet_median, v0->flop_per_s / 0.9 * 0.95, 1e-6, "fleet median there: mean of the two GPUs");
    }
    fleet_free(&fl);
    snprintf(p, sizeof p, "%s/report.md", out);
    CHECK(report_write(&ds, p, 1, NULL, err, sizeof err) == 0, "report of the fleet merge: %s", err);
    CHECK(file_has(p, "## Fleet: each GPU against the fleet median"), "the report has the fleet section");
    CHECK(file_has(p, "**node2 GPU-b is slow**") && file_has(p, "Evidence: `sm_clock_hz` is"),
          "the report flags node2's GPU and names the clock");
    CHECK(file_has(p, "### Ceilings per GPU") && !file_has(p, "| node1 GPU-a | n/a |"),
          "per GPU ceilings read from ceilings-HOST-UUID.csv");
    /* the fleet chart, from fleet.csv */
    char why[512];
    if (plots_gnuplot_available(why, sizeof why)) {
        int n = plots_render(&ds, out, NULL, err, sizeof err);
        CHECK(n > 0 && !strstr(err, "fleet"), "charts of the fleet merge, fleet among them (%d: %s)", n, err);
        snprintf(p, sizeof p, "%s/fleet.png", out);
        struct stat st;
        CHECK(stat(p, &st) == 0 && st.st_size > 10000, "fleet.png drawn");
        snprintf(p, sizeof p, "%s/fleet.csv", out);
        CHECK(file_has(p, "2,1,1,") && file_has(p, ",naive,8192x8192x8192,rank 1: node2 GPU-b\n"),
              "fleet.csv: node2's GPU flagged, naive at its largest shape");
    } else {
        SKIP(why, "fleet chart");
    }
    dataset_free(&ds);

    /* the same fleet without the slowdown: nobody flagged */
    struct craft c = {"f2", "node3", "GPU-c", NULL, "fleet", 1, 2, 1, 0, 0, 1, 0, 0};
    CHECK(make_rank(&c) == 0, "healthy second GPU crafted");
    char d2[256];
    path_of(d2, sizeof d2, "f2", NULL);
    path_of(out, sizeof out, "fleet_ok", NULL);
    char *argv2[] = {"merge", out, d0, d2, NULL};
    CHECK(run_merge(argv2, msg, sizeof msg) == 0, "healthy fleet merged");
    CHECK(dataset_load(out, &ds, err, sizeof err) == 0 && fleet_analyze(ds.rows, ds.nrows, &fl) == 0 &&
              fl.ngpus == 2 && fl.nflagged == 0, "two equal GPUs: none flagged");
    fleet_free(&fl);
    dataset_free(&ds);
}

/* Merges tmpdir/A and tmpdir/B into tmpdir/OUT; the merged mode in mode ("" on failure). */
static int merge_two(const char *o, const char *a, const char *b, char *mode, size_t len)
{
    char msg[4096], out[256], p[320], d0[256], d1[256];
    struct merge_rank_keys k;
    path_of(d0, sizeof d0, a, NULL);
    path_of(d1, sizeof d1, b, NULL);
    path_of(out, sizeof out, o, NULL);
    char *argv[] = {"merge", out, d0, d1, NULL};
    int rc = run_merge(argv, msg, sizeof msg);
    snprintf(p, sizeof p, "%s/results.json", out);
    snprintf(mode, len, "%s", rc == 0 && merge_read_rank_keys(p, &k) == 0 ? k.mode : "");
    return rc;
}

/* Ranks without a launcher mode: a fleet when two GPUs ran the same rows, else shards. */
/* A GPU shared with another process is slow and noisy at once: its own spread must not
 * widen its band (the H200 pair at c2255ea: 75.8% of the median, own spread 32%, band
 * 96.5%, not flagged). */
static void test_fleet_noisy(void)
{
    char msg[4096], out[256], d0[256], d1[256], err[1024];
    struct craft a = {"n0", "node1", "GPU-a", NULL, "fleet", 0, 2, 1, 0, 0, 1, 0, 0.004};
    struct craft b = {"n1", "node1", "GPU-b", NULL, "fleet", 1, 2, 1, 0, 0.25, 0.88, 0, 0.30};
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0, "ranks crafted (rank 1: 25%% slower, spread 30%%)");
    path_of(out, sizeof out, "noisy_out", NULL);
    path_of(d0, sizeof d0, "n0", NULL);
    path_of(d1, sizeof d1, "n1", NULL);
    char *argv[] = {"merge", out, d0, d1, NULL};
    CHECK(run_merge(argv, msg, sizeof msg) == MERGE_EXIT_OK, "merge exits 0: %s", msg);
    struct gp_dataset ds;
    struct fleet fl;
    if (dataset_load(out, &ds, err, sizeof err)) {
        CHECK(0, "noisy fleet dataset: %s", err);
        return;
    }
    CHECK(fleet_analyze(ds.rows, ds.nrows, &fl) == 0 && fl.ngpus == 2, "fleet: 2 GPUs");
    if (fl.ngpus == 2) {
        CHECK_NEAR(fl.gpu[1].band, FLEET_BAND_MIN, 1e-9, "the noisy GPU's band comes from the other's spread: %g",
                   fl.gpu[1].band);
        CHECK(fl.gpu[1].flagged && fl.gpu[1].noisy, "the noisy slow GPU is flagged slow and noisy");
        CHECK(!fl.gpu[0].flagged && !fl.gpu[0].noisy && fl.gpu[0].band > 0.8,
              "the quiet GPU: not flagged, its band widened by the other's noise (%g)", fl.gpu[0].band);
    }
    fleet_free(&fl);
    char p[320];
    snprintf(p, sizeof p, "%s/report.md", out);
    CHECK(report_write(&ds, p, 1, NULL, err, sizeof err) == 0, "report: %s", err);
    CHECK(file_has(p, "| **SLOW**, noisy |") && file_has(p, "Its own rows vary by 30"),
          "the report marks it slow and noisy, with its spread");
    dataset_free(&ds);
}

static void test_mode_inferred(void)
{
    char mode[16];
    struct craft a = {"i0", "h1", "GPU-a", NULL, "single", 0, 1, 1, 0, 0, 1, 0, 0};
    struct craft b = {"i1", "h2", "GPU-b", NULL, "single", 0, 1, 1, 0, 0, 1, 0, 0};
    struct craft c = {"i2", "h2", "GPU-b", NULL, "single", 0, 1, 2, 1, 0, 1, 0, 0};
    struct craft d = {"i3", "h1", "GPU-a", NULL, "single", 0, 1, 2, 0, 0, 1, 0, 0};
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0 && make_rank(&c) == 0 && make_rank(&d) == 0,
          "single runs crafted");
    CHECK(merge_two("infer_fleet", "i0", "i1", mode, sizeof mode) == 0 && strcmp(mode, "fleet") == 0,
          "two single runs of the same rows on two GPUs merge as a fleet (%s)", mode);
    CHECK(merge_two("infer_shard", "i3", "i2", mode, sizeof mode) == 0 && strcmp(mode, "shard") == 0,
          "two single runs of disjoint rows merge as shards (%s)", mode);
}

static void test_missing(void)
{
    char msg[4096], out[256], p[320], err[1024];
    struct craft a = {"m0", "n", "GPU-a", NULL, "fleet", 0, 4, 1, 0, 0, 1, 0, 0};
    struct craft b = {"m1", "n", "GPU-b", NULL, "fleet", 1, 4, 1, 0, 0, 1, 0, 0};
    struct craft c = {"m2", "n", "GPU-c", NULL, "fleet", 2, 4, 1, 0, 0, 1, 1, 0};   /* died */
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0 && make_rank(&c) == 0, "ranks 0, 1 and a dead rank 2 crafted");
    path_of(out, sizeof out, "missing_out", NULL);
    char d0[256], d1[256], d2[256], d9[256];
    path_of(d0, sizeof d0, "m0", NULL);
    path_of(d1, sizeof d1, "m1", NULL);
    path_of(d2, sizeof d2, "m2", NULL);
    path_of(d9, sizeof d9, "m9", NULL);   /* never written */
    char *argv[] = {"merge", out, d0, d1, d2, d9, NULL};
    int rc = run_merge(argv, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_MISSING, "missing ranks: exit %d (got %d)", MERGE_EXIT_MISSING, rc);
    CHECK(strstr(msg, "missing rank 2:") && strstr(msg, "no results.csv"), "the dead rank is listed");
    CHECK(strstr(msg, "m9: no such directory"), "the absent directory is listed");
    CHECK(strstr(msg, "missing rank 3 of 4: no directory given"), "rank 3 of world size 4 is listed");
    struct gp_result *rows = NULL;
    int n = 0;
    snprintf(p, sizeof p, "%s/results.csv", out);
    CHECK(results_csv_read(p, &rows, &n, err, sizeof err) == 0 && n == 2 * norig,
          "the present ranks' rows are kept (%d)", n);
    free(rows);
    snprintf(p, sizeof p, "%s/results.json", out);
    CHECK(file_has(p, "\"ranks_missing\": [{\"rank\": 2,") && file_has(p, "{\"rank\": 3, \"dir\": null"),
          "results.json lists the missing ranks");
    struct merge_rank_keys k;
    CHECK(merge_read_rank_keys(p, &k) == 0 && k.nmerged == 2 && k.nmissing == 3 && strcmp(k.missing, "2, ?, 3") == 0,
          "merge object read back: 2 merged (%d), %d missing: '%s'", k.nmerged, k.nmissing, k.missing);
    struct gp_dataset ds;
    CHECK(dataset_load(out, &ds, err, sizeof err) == 0, "merged directory with missing ranks loads");
    snprintf(p, sizeof p, "%s/report.md", out);
    CHECK(report_write(&ds, p, 1, NULL, err, sizeof err) == 0 && file_has(p, "**3 ranks are missing** (rank 2, ?, 3)"),
          "the report says which ranks are missing");
    dataset_free(&ds);
    /* the same verdict from the file re-indented (4 spaces) or compacted by another tool */
    char json[320];
    snprintf(json, sizeof json, "%s/results.json", out);
    for (int indent = 4; indent >= 0; indent -= 4) {
        const char *how = indent ? "re-indented" : "compacted";
        CHECK(reformat_json(json, indent) == 0 && !file_has(json, "\"ranks_missing\": [{\"rank\": 2,") &&
                  (indent || !file_has(json, "\n ")), "results.json %s", how);
        CHECK(merge_read_rank_keys(json, &k) == 0 && k.nmerged == 2 && k.nmissing == 3 &&
                  strcmp(k.missing, "2, ?, 3") == 0 && strcmp(k.mode, "fleet") == 0 && k.world_size == 4,
              "%s: 2 merged (%d), 3 missing (%d: '%s'), mode fleet (%s), world 4 (%d)", how, k.nmerged, k.nmissing,
              k.missing, k.mode, k.world_size);
        int loaded = dataset_load(out, &ds, err, sizeof err) == 0;
        CHECK(loaded && report_write(&ds, p, 1, NULL, err, sizeof err) == 0 &&
                  file_has(p, "from 2 rank directories (mode `fleet`)") &&
                  file_has(p, "**3 ranks are missing** (rank 2, ?, 3)") && !file_has(p, "No rank is missing"),
              "%s: the report names the 2 ranks merged and the 3 missing", how);
        if (loaded)
            dataset_free(&ds);
    }
}

static void test_refusals(void)
{
    char msg[4096], out[256], d0[256], d1[256];
    path_of(out, sizeof out, "dup_out", NULL);
    path_of(d0, sizeof d0, "f0", NULL);
    char *argv[] = {"merge", out, d0, d0, NULL};
    int rc = run_merge(argv, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_USAGE, "duplicate rows: exit 2 (got %d)", rc);
    CHECK(strstr(msg, "duplicate row: naive (fp32) at 1024x1024x1024 on host 'node1' GPU 'GPU-a'") && lines_of(msg) == 1,
          "one-line duplicate error: %s", msg);
    CHECK(!exists(out, "results.csv"), "nothing written on a duplicate");

    struct craft v = {"v1", "node2", "GPU-b", "0123abc", "fleet", 1, 2, 1, 0, 0, 1, 0, 0};
    CHECK(make_rank(&v) == 0, "a rank from another gemmprof revision crafted");
    path_of(d1, sizeof d1, "v1", NULL);
    path_of(out, sizeof out, "mixed_out", NULL);
    char *argv2[] = {"merge", out, d0, d1, NULL};
    rc = run_merge(argv2, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_USAGE, "mixed versions: exit 2 (got %d)", rc);
    CHECK(strstr(msg, "different gemmprof versions") && strstr(msg, "0123abc") && lines_of(msg) == 1,
          "one-line version error naming both: %s", msg);
    CHECK(!exists(out, "results.csv"), "nothing written on mixed versions");
    char *argv3[] = {"merge", out, d0, d1, "--allow-mixed", NULL};
    CHECK(run_merge(argv3, msg, sizeof msg) == 0 && exists(out, "results.csv"), "--allow-mixed merges them");

    char *argv4[] = {"merge", out, NULL};
    CHECK(run_merge(argv4, msg, sizeof msg) == MERGE_EXIT_USAGE && strstr(msg, "no rank directory"),
          "no rank directory: usage error");
    char *argv5[] = {"merge", out, out, NULL};
    CHECK(run_merge(argv5, msg, sizeof msg) == MERGE_EXIT_USAGE && strstr(msg, "also an input"),
          "output directory given as an input: refused");
}

/* A whole file into buf (at most len - 1 bytes); its length, or -1. */
static long slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = 0;
    return (long)n;
}

/* `gemmprof merge r0 r1`, OUT forgotten: r0 is the output, and its rows were replaced by
 * r1's. An OUT holding results is refused unless --force. */
static void test_out_holds_results(void)
{
    static char before[1 << 20], after[1 << 20];
    char msg[4096], d0[256], d1[256], p[320], err[1024];
    path_of(d0, sizeof d0, "f0", NULL);   /* test_fleet's ranks: node1 and node2; the last use of them */
    path_of(d1, sizeof d1, "f1", NULL);
    snprintf(p, sizeof p, "%s/results.csv", d0);
    long n0 = slurp(p, before, sizeof before);
    char *argv[] = {"merge", d0, d1, NULL};
    int rc = run_merge(argv, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_USAGE, "merge r0 r1 (OUT forgotten): exit %d (got %d)", MERGE_EXIT_USAGE, rc);
    CHECK(lines_of(msg) == 1 && strstr(msg, "already holds results") && strstr(msg, "--force"),
          "one line naming the problem and the way on: %s", msg);
    CHECK(n0 > 0 && slurp(p, after, sizeof after) == n0 && memcmp(before, after, (size_t)n0) == 0,
          "r0's results.csv is untouched");
    /* a merged directory written again: refused the same way */
    char out[256];
    path_of(out, sizeof out, "fleet_out", NULL);
    char *again[] = {"merge", out, d0, d1, NULL};
    rc = run_merge(again, msg, sizeof msg);
    CHECK(rc == MERGE_EXIT_USAGE && strstr(msg, "already holds results"), "an earlier merge's OUT refused: %s", msg);
    char *forced[] = {"merge", d0, d1, "--force", NULL};
    rc = run_merge(forced, msg, sizeof msg);
    struct gp_result *rows = NULL;
    int n = 0;
    /* exit 3: rank 0 of the world of 2 was not given (its directory is the output) */
    CHECK(rc == MERGE_EXIT_MISSING && results_csv_read(p, &rows, &n, err, sizeof err) == 0 && n == norig &&
              strcmp(rows[0].host, "node2") == 0,
          "--force replaces them: r0 now holds r1's %d rows (exit %d, %d rows)", norig, rc, n);
    free(rows);
}

/* Runs the verb in a child that may write at most 64 MiB a file and run 60 s, so a
 * regression cannot fill the disk; the child's exit status, or 128 + the signal. */
static int run_merge_bounded(char **argv, char *msg, size_t len)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit fs = {64 << 20, 64 << 20};
        setrlimit(RLIMIT_FSIZE, &fs);
        alarm(60);
        _exit(run_merge(argv, msg, len));
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    char p[128];
    snprintf(p, sizeof p, "%s/stderr.txt", tmpdir);
    slurp(p, msg, len);
    size_t m = strlen(msg);
    if (m && msg[m - 1] == '\n')
        msg[m - 1] = 0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A damaged run.world_size: merge listed every rank below it as missing, one entry of
 * results.json each (2147483647 wrote 3.8 GB of results.json.tmp.* in 20 s). */
static void test_world_size_bound(void)
{
    static const int worlds[] = {MERGE_MAX_WORLD + 1, 2147483647};
    for (int w = 0; w < 2; w++) {
        char msg[4096], name[32], oname[32], d[256], out[256];
        snprintf(name, sizeof name, "w%d", w);
        snprintf(oname, sizeof oname, "w%d_out", w);
        struct craft a = {name, "node1", "GPU-a", NULL, "fleet", 0, worlds[w], 1, 0, 0, 1, 0, 0};
        CHECK(make_rank(&a) == 0, "a rank with world_size %d crafted", worlds[w]);
        path_of(d, sizeof d, name, NULL);
        path_of(out, sizeof out, oname, NULL);
        char *argv[] = {"merge", out, d, NULL};
        int rc = run_merge_bounded(argv, msg, sizeof msg);
        CHECK(rc == MERGE_EXIT_FAILED && lines_of(msg) == 1 && strstr(msg, "world_size"),
              "world_size %d refused in one line (exit %d): %s", worlds[w], rc, msg);
        CHECK(count_files_named(out, ".tmp") <= 0 && !exists(out, "results.json"),
              "nothing written for world_size %d, no temporary file left", worlds[w]);
    }
}

/* A parent directory stands for its rank subdirectories. */
static void test_expand(void)
{
    char msg[4096], out[256], parent[256], p[320], err[1024];
    path_of(parent, sizeof parent, "ranks", NULL);
    mkdir(parent, 0777);
    struct craft a = {"ranks/node1-GPU-a", "node1", "GPU-a", NULL, "fleet", 0, 2, 1, 0, 0, 1, 0, 0};
    struct craft b = {"ranks/node2-GPU-b", "node2", "GPU-b", NULL, "fleet", 1, 2, 1, 0, 0, 1, 0, 0};
    CHECK(make_rank(&a) == 0 && make_rank(&b) == 0, "rank directories under one --out crafted");
    path_of(out, sizeof out, "expand_out", NULL);
    char *argv[] = {"merge", out, parent, NULL};
    CHECK(run_merge(argv, msg, sizeof msg) == 0, "merge OUT PARENT exits 0: %s", msg);
    struct gp_result *rows = NULL;
    int n = 0;
    snprintf(p, sizeof p, "%s/results.csv", out);
    CHECK(results_csv_read(p, &rows, &n, err, sizeof err) == 0 && n == 2 * norig, "both ranks found (%d rows)", n);
    free(rows);
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 40,000 rows repeating the recorded run's 32 cells on two GPUs. The fleet check took
 * 20.7 s of CPU when it scanned and sorted each row's cell once per row (the report
 * 22.6 s); sorted once by cell, 0.05 s (the report 0.4 s). CPU time, not wall time: a
 * loaded machine stretches the latter. Figures: tests/host/SCALE.md. */
static void test_repeated_cells(void)
{
    enum { NREP = 40000 };
    char dir[256], p[320], err[1024];
    path_of(dir, sizeof dir, "rep40k", NULL);
    mkdir(dir, 0777);
    snprintf(p, sizeof p, "%s/results.json", dir);
    int ok = meta_write_json(p, &orig_meta, err, sizeof err) == 0;
    snprintf(p, sizeof p, "%s/ceilings.csv", dir);
    ok = ok && ceilings_write_csv(p, &orig_cs, err, sizeof err) == 0;
    snprintf(p, sizeof p, "%s/results.csv", dir);
    FILE *f = fopen(p, "w");
    ok = ok && f && results_csv_write_header(f) == 0;
    for (int i = 0; ok && i < NREP; i++) {
        struct gp_result r = orig[i % norig];
        snprintf(r.host, sizeof r.host, "node%d", i / norig % 2);
        snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-%d", i / norig % 2);
        ok = results_csv_write_row(f, &r, &orig_cs) == 0;
    }
    ok = f && fclose(f) == 0 && ok;
    CHECK(ok, "%d rows at %d cells written", NREP, norig);
    struct gp_dataset ds;
    if (!ok || dataset_load(dir, &ds, err, sizeof err)) {
        CHECK(0, "load the repeated rows: %s", err);
        return;
    }
    struct fleet fl;
    double t0 = cpu_seconds();
    int rc = fleet_analyze(ds.rows, ds.nrows, &fl);
    double t1 = cpu_seconds();
    CHECK(rc == 0 && fl.ngpus == 2 && fl.gpu[0].nrows == NREP / 2 && fl.gpu[1].ncompared == NREP / 2,
          "fleet: 2 GPUs of %d rows, every row compared", NREP / 2);
    if (rc == 0 && fl.ngpus == 2)
        CHECK_NEAR(fl.gpu[1].ratio, 1, 1e-9, "equal GPUs: ratio 1 (%g)", fl.gpu[1].ratio);
    CHECK(t1 - t0 < 1.0, "fleet check of %d rows at %d cells in %.3f s of CPU (limit 1 s)", NREP, norig, t1 - t0);
    fleet_free(&fl);
    snprintf(p, sizeof p, "%s/report.md", dir);
    err[0] = 0;
    t0 = cpu_seconds();
    rc = report_write(&ds, p, 1, NULL, err, sizeof err);
    t1 = cpu_seconds();
    CHECK(rc == 0 && file_has(p, "## Fleet"), "report of the repeated rows, with its fleet section: %s", err);
    CHECK(t1 - t0 < 4.0, "report of %d rows at %d cells in %.2f s of CPU (limit 4 s)", NREP, norig, t1 - t0);
    dataset_free(&ds);
}

int main(void)
{
    char err[1024];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gp_merge.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp");
        return 1;
    }
    struct gp_dataset ds;
    if (dataset_load(H200, &ds, err, sizeof err)) {
        CHECK(0, "load %s: %s", H200, err);
        return 1;
    }
    orig = ds.rows;
    norig = ds.nrows;
    orig_meta = ds.meta;
    orig_cs = ds.ceilings;
    /* the list a sweep writes into results.json, for a recorded run written before it was */
    for (int i = 0; i < norig && !ds.meta.variants.n; i++)
        if (!meta_variant_find(&orig_meta.variants, orig[i].variant) && orig_meta.variants.n < GP_META_VARIANTS) {
            struct gp_meta_variant *v = &orig_meta.variants.v[orig_meta.variants.n++];
            snprintf(v->name, sizeof v->name, "%s", orig[i].variant);
            snprintf(v->precision, sizeof v->precision, "%s", orig[i].precision);
        }
    CHECK(norig == 32 && ds.have_ceilings && ds.have_meta, H200 " loaded: %d rows", norig);
    test_rank_keys();
    test_shard();
    test_shard_without_lists();
    test_fleet();
    test_fleet_noisy();
    test_mode_inferred();
    test_missing();
    test_refusals();
    test_out_holds_results();
    test_world_size_bound();
    test_expand();
    test_repeated_cells();
    dataset_free(&ds);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        printf("could not remove %s\n", tmpdir);
    return test_failed_count ? 1 : 0;
}

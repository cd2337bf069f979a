/* results.csv: writing, escaping, reading back, and the reader's errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/csv.h"
#include "analysis/precision.h"
#include "analysis/results_csv.h"
#include "tests/test.h"

static char dir[] = "/tmp/gemmprof_test_results_XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static int read_err(const char *name, const char *text, char *err, size_t len)
{
    struct gp_result *rows = NULL;
    int n = 0;
    err[0] = '\0';
    int rc = results_csv_read(write_file(name, text), &rows, &n, err, len);
    free(rows);
    return rc;
}

/* results_visit_row's cell named ctx->name, as the JSON and CSV printers see it. */
struct find_cell { const char *name; char text[64]; int seen; };
static void find_cell(void *ctx, const char *name, const char *text, int numeric)
{
    struct find_cell *c = ctx;
    if (strcmp(name, c->name) == 0 && numeric) {
        snprintf(c->text, sizeof c->text, "%s", text);
        c->seen++;
    }
}

/* The field-by-field row writer: separators between fields only, quoting where a field
 * needs it, NaN as an empty field, and a fresh line after csv_end. */
static void test_row_writer(void)
{
    char buf[256] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    struct csv_row w = {f, 0};
    csv_put(&w, "id");
    csv_put(&w, "a, \"b\"");
    csv_put_double(&w, 1.5);
    csv_put_double(&w, NAN);
    csv_put_long(&w, -7);
    csv_end(&w);
    csv_put(&w, "next");
    csv_end(&w);
    fclose(f);
    CHECK(strcmp(buf, "id,\"a, \"\"b\"\"\",1.5,,-7\nnext\n") == 0, "row writer: '%s'", buf);
}

/* Extra metrics (--metrics outside the table) as columns after the table's, read back
 * into the extra list by name, checked like counters. */
static void test_extra_columns(char *err, size_t errlen)
{
    gp_extra_reset();
    int sectors = gp_extra_add("l1tex__t_sectors.sum"), fma = gp_extra_add("sm__inst_executed_pipe_fma.sum");
    struct gp_result in;
    gp_result_init(&in);
    snprintf(in.variant, sizeof in.variant, "naive");
    snprintf(in.precision, sizeof in.precision, "fp32");
    in.m = in.n = in.k = 64;
    in.rel_err = 0;
    in.time_median_s = 1e-5;
    in.flop_per_s = 2.0 * 64 * 64 * 64 / 1e-5;
    in.metric[GP_M_dram_read] = 4096;
    in.metric[sectors] = 1048577;   /* fma stays not collected */
    struct find_cell cell = {"l1tex__t_sectors.sum", "", 0};
    results_visit_row(&in, NULL, find_cell, &cell);
    CHECK(cell.seen == 1 && strcmp(cell.text, "1048577") == 0,
          "the printers' row visitor carries the extra metric (%d, '%s')", cell.seen, cell.text);
    const char *path = write_file("extra.csv", "");
    FILE *f = fopen(path, "w");
    CHECK(f && results_csv_write_header(f) == 0 && results_csv_write_row(f, &in, NULL) == 0, "extra columns written");
    if (f)
        fclose(f);
    FILE *g = fopen(path, "r");
    char head[16384] = "";
    if (g) {
        if (!fgets(head, sizeof head, g))
            head[0] = '\0';
        fclose(g);
    }
    const char *last = strstr(head, gp_metrics[GP_METRIC_COUNT - 1].name), *x = strstr(head, ",l1tex__t_sectors.sum,");
    CHECK(last && x && x > last && strstr(head, ",sm__inst_executed_pipe_fma.sum,") && strstr(x, "bound_level"),
          "extra columns by ncu name, after the table's and before the derived ones");

    gp_extra_reset();   /* as a reader in another process: the list comes from the file */
    gp_extra_add("sm__inst_executed_pipe_fma.sum");   /* known first: its id may differ */
    struct gp_result *out = NULL;
    int n = 0;
    CHECK(results_csv_read(path, &out, &n, err, errlen) == 0 && n == 1, "extra columns read back (%s)", err);
    int rs = gp_extra_add("l1tex__t_sectors.sum"), rf = gp_extra_add("sm__inst_executed_pipe_fma.sum");
    CHECK(gp_extra_count() == 2 && rs == GP_METRIC_COUNT + 1 && rf == GP_METRIC_COUNT,
          "the reader adds the file's extras to the list by name (%d, %d)", rs, rf);
    if (n == 1)
        CHECK(out[0].metric[rs] == 1048577 && isnan(out[0].metric[rf]) && out[0].metric[GP_M_dram_read] == 4096,
              "extra values round-trip by name; an empty one stays not collected");
    free(out);
    (void)fma;

    const char *hdr = "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s";
    char text[4096];
    snprintf(text, sizeof text, "%s,sm__foo.sum\nnaive,fp32,1,2,3,ok,0,1,1,-2\n", hdr);
    CHECK(read_err("xneg.csv", text, err, errlen) == -1 && strstr(err, ":2:") && strstr(err, "sm__foo.sum") &&
              strstr(err, "negative"), "a negative extra metric is refused: %s", err);
    snprintf(text, sizeof text, "%s,sm__foo.sum\nnaive,fp32,1,2,3,ok,0,1,1,inf\n", hdr);
    CHECK(read_err("xinf.csv", text, err, errlen) == -1 && strstr(err, "sm__foo.sum"),
          "an infinite extra metric is refused: %s", err);
    snprintf(text, sizeof text, "%s,note\nnaive,fp32,1,2,3,ok,0,1,1,hello\n", hdr);
    gp_extra_reset();
    CHECK(read_err("xnote.csv", text, err, errlen) == 0 && gp_extra_count() == 0,
          "a column that is no metric name is ignored, not made an extra: %s", err);
    int used = snprintf(text, sizeof text, "%s", hdr);
    for (int i = 0; i <= GP_EXTRA_MAX; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, ",sm__x%d.sum", i);
    snprintf(text + used, sizeof text - (size_t)used, "\n");
    CHECK(read_err("xmany.csv", text, err, errlen) == -1 && strstr(err, "more than"),
          "more extra columns than GP_EXTRA_MAX refused: %s", err);
    gp_extra_reset();
}

int main(void)
{
    char path[256], err[512] = "";
    if (!mkdtemp(dir)) {
        CHECK(0, "temporary directory");
        TEST_EXIT();
    }
    snprintf(path, sizeof path, "%s/results.csv", dir);
    test_row_writer();

    struct gp_result in[2];
    gp_result_init(&in[0]);
    snprintf(in[0].variant, sizeof in[0].variant, "naive");
    snprintf(in[0].precision, sizeof in[0].precision, "fp32");
    in[0].m = 17, in[0].n = 33, in[0].k = 65;
    in[0].rel_err = 1.25e-7;
    in[0].time_median_s = 2.5e-6;
    in[0].flop_per_s = 2.0 * 17 * 33 * 65 / 2.5e-6;
    in[0].metric[GP_M_ffma] = 8589934592.0;          /* 2^33: must come back exact */
    in[0].metric[GP_M_dram_read] = 33641728.0;
    snprintf(in[0].kernels, sizeof in[0].kernels, "void Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>");
    gp_result_init(&in[1]);
    snprintf(in[1].variant, sizeof in[1].variant, "tiled");
    snprintf(in[1].precision, sizeof in[1].precision, "fp32");
    in[1].m = in[1].n = in[1].k = 2048;
    in[1].status = GP_STATUS_CUDA_ERROR;
    snprintf(in[1].error, sizeof in[1].error, "tiled 2048x2048x2048: launch: \"too many resources\", retry\nlater");

    FILE *f = fopen(path, "w");
    CHECK(f && results_csv_write_header(f) == 0, "header written");
    CHECK(results_csv_write_row(f, &in[0], NULL) == 0 && results_csv_write_row(f, &in[1], NULL) == 0,
          "rows written without ceilings");
    fclose(f);

    struct gp_result *out = NULL;
    int n = 0;
    CHECK(results_csv_read(path, &out, &n, err, sizeof err) == 0 && n == 2, "read back 2 rows (%s)", err);
    if (n == 2) {
        CHECK(strcmp(out[0].variant, "naive") == 0 && out[0].m == 17 && out[0].k == 65, "fixed columns round-trip");
        CHECK(out[0].metric[GP_M_ffma] == 8589934592.0, "a 2^33 count round-trips exactly (%.17g)", out[0].metric[GP_M_ffma]);
        CHECK(isnan(out[0].metric[GP_M_l2_bytes]), "an uncollected metric reads back as not collected");
        CHECK(fabs(out[0].rel_err - 1.25e-7) < 1e-15, "doubles round-trip");
        CHECK(strcmp(out[0].kernels, in[0].kernels) == 0, "kernel names with <> and commas-free text round-trip");
        CHECK(out[1].status == GP_STATUS_CUDA_ERROR, "status round-trips");
        CHECK(strcmp(out[1].error, in[1].error) == 0, "an error with quotes, a comma and a newline round-trips");
        CHECK(isnan(out[1].time_median_s), "a row that never ran has no time");
    }
    free(out);

    /* the file on disk: an uncollected metric is an empty cell, never 0 */
    FILE *g = fopen(path, "r");
    char head[16384] = "", row1[16384] = "";
    int got = g && fgets(head, sizeof head, g) && fgets(row1, sizeof row1, g);
    if (g)
        fclose(g);
    CHECK(got && strstr(head, "dram__bytes_read.sum") && strstr(head, "time_median_s") &&
              strstr(head, "bound_level"),
          "header names raw, ncu and derived columns");
    CHECK(got && strstr(row1, ",8589934592,") != NULL, "counts written as exact integers");

    CHECK(read_err("empty.csv", "", err, sizeof err) == -1 && strstr(err, "empty"), "empty file: %s", err);
    CHECK(read_err("old.csv", "variant,m,n\nnaive,1,2\n", err, sizeof err) == -1 && strstr(err, "no column") &&
              strstr(err, "schema"), "older schema: %s", err);
    CHECK(read_err("nan.csv",
                   "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\nnaive,fp32,abc,2,3,ok,0,1,1\n",
                   err, sizeof err) == -1 && strstr(err, ":2:") && strstr(err, "column m"),
          "non-numeric size names line and column: %s", err);
    CHECK(read_err("neg.csv",
                   "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s,lts__t_bytes.sum\n"
                   "naive,fp32,1,2,3,ok,0,1,1,-5\n", err, sizeof err) == -1 && strstr(err, "lts__t_bytes.sum") &&
              strstr(err, "negative"), "negative counter: %s", err);
    CHECK(read_err("short.csv", "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\nnaive,fp32,1,2\n",
                   err, sizeof err) == -1 && strstr(err, "truncated"), "truncated row: %s", err);
    CHECK(read_err("zero.csv", "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\nnaive,fp32,0,2,3,ok,0,1,1\n",
                   err, sizeof err) == -1 && strstr(err, ":2:") && strstr(err, "column m") &&
              strstr(err, "size from 1"), "zero size: %s", err);
    CHECK(read_err("status.csv", "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\nnaive,fp32,1,2,3,great,0,1,1\n",
                   err, sizeof err) == -1 && strstr(err, "status"), "unknown status: %s", err);
    CHECK(read_err("quote.csv", "variant,precision\n\"naive,fp32\n", err, sizeof err) == -1, "unterminated quote: %s", err);
    /* gnuplot reads no CSV quoting: such a name would vanish from a chart or be cut */
    const char *hdr9 = "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\n";
    const char *bad_names[] = {"\"cublas\"\"x\"", "\"a,b\"", "\"two\nlines\"", "\"q\"\"\"\",x\""};
    const char *shown[] = {"cublas\"x", "a,b", "two\\x0alines", "q\"\",x"};
    for (int i = 0; i < 4; i++) {
        char text[300];
        snprintf(text, sizeof text, "%snaive,fp32,1,2,3,ok,0,1,1\n%s,fp32,1,2,3,ok,0,1,1\n", hdr9, bad_names[i]);
        CHECK(read_err("badname.csv", text, err, sizeof err) == -1 && strstr(err, "badname.csv:3:") &&
                  strstr(err, shown[i]) && strstr(err, "column variant") && !strchr(err, '\n'),
              "variant name %s refused in one line naming file, line and name: %s", shown[i], err);
    }
    CHECK(read_err("spacename.csv", "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\n"
                                    "tiled kernel v2,fp32,1,2,3,ok,0,1,1\n", err, sizeof err) == 0,
          "a variant name with spaces is still read: %s", err);
    /* every precision of analysis/precision.h is read back, by its own name; others refused */
    for (int p = 0; p < GP_PRECISION_COUNT; p++) {
        char text[300];
        struct gp_result *rows = NULL;
        int nr = 0;
        const char *name = gp_precision_name((enum gp_precision)p);
        snprintf(text, sizeof text, "%snaive,%s,1,2,3,ok,0,1,1\n", hdr9, name);
        int rc = results_csv_read(write_file("prec.csv", text), &rows, &nr, err, sizeof err);
        CHECK(rc == 0 && nr == 1 && strcmp(rows[0].precision, name) == 0 && gp_precision_parse(name) == p,
              "precision %s read back and parsed to its own value: %s", name, err);
        free(rows);
    }
    CHECK(read_err("fp64.csv", "variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s\nnaive,fp64,1,2,3,ok,0,1,1\n",
                   err, sizeof err) == -1 && strstr(err, "column precision") && strstr(err, "bf16 or fp16"),
          "an unknown precision is refused, naming the ones known: %s", err);
    CHECK(gp_precision_parse("fp64") == -1 && gp_precision_parse(NULL) == -1 && gp_precision_parse("") == -1,
          "gp_precision_parse: -1 for unknown, empty or no name");
    struct gp_result *none = NULL;
    CHECK(results_csv_read("/nonexistent/results.csv", &none, &n, err, sizeof err) == -1 && strstr(err, "cannot open"),
          "missing file: %s", err);

    test_extra_columns(err, sizeof err);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "clean up");
    TEST_EXIT();
}

/* The stdout printers of the results table (--format table|csv|json|md) on crafted rows:
 * CSV equals results.csv's lines, JSON parses (python3) with every column and null for
 * what was not collected, Markdown keeps one cell per column even for hostile names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/ceilings.h"
#include "analysis/results_csv.h"
#include "src/print.h"
#include "tests/test.h"

static char text[1 << 16];

static void crafted(struct gp_result *r, const char *variant, long m)
{
    gp_result_init(r);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->precision, sizeof r->precision, "fp32");
    r->m = r->n = r->k = m;
    r->rel_err = 1e-7;
    r->time_median_s = r->time_min_s = r->time_max_s = 1e-3;
    r->time_spread = 0;
    r->flop_per_s = 2.0 * m * m * m / 1e-3;
    r->metric[GP_M_dram_read] = 8589934592.0;
}

/* Prints two rows in `format` into text; returns the number of bytes. */
static size_t print_two(enum cli_format format, const char *second_name)
{
    FILE *f = tmpfile();
    struct gp_result a, b;
    crafted(&a, "naive", 64);
    crafted(&b, second_name, 128);
    struct printer p = {f, format, NULL, 0};
    print_begin(&p);
    print_row(&p, &a);
    print_row(&p, &b);
    print_end(&p);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return n;
}

static int count(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

int main(void)
{
    /* CSV: exactly results.csv's header and rows */
    print_two(FORMAT_CSV, "tiled");
    FILE *f = tmpfile();
    struct gp_result a;
    crafted(&a, "naive", 64);
    results_csv_write_header(f);
    results_csv_write_row(f, &a, NULL);
    rewind(f);
    char want[1 << 14];
    want[fread(want, 1, sizeof want - 1, f)] = '\0';
    fclose(f);
    CHECK(strncmp(text, want, strlen(want)) == 0 && count(text, '\n') == 3,
          "--format csv prints results.csv's header and rows, nothing else");

    /* JSON: an array of two objects with every column; not collected is null */
    print_two(FORMAT_JSON, "tiled \"quoted\"\n");
    CHECK(text[0] == '[' && strstr(text, "\"variant\": \"naive\"") && strstr(text, "\"dram__bytes_read.sum\": 8589934592") &&
              strstr(text, "\"dram__bytes_write.sum\": null") && strstr(text, "\"tiled \\\"quoted\\\"\\n\""),
          "--format json: columns by name, exact counts, null for not collected, strings escaped");
    if (system("command -v python3 >/dev/null 2>&1") == 0) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/gp_print.%d.json", (int)getpid());
        FILE *j = fopen(path, "w");
        if (j) {
            fputs(text, j);
            fclose(j);
        }
        char cmd[256];
        snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; d=json.load(open(\"%s\")); "
                                  "sys.exit(0 if len(d)==2 and d[1][\"m\"]==128 else 1)'", path);
        CHECK(system(cmd) == 0, "--format json parses as JSON: 2 rows, numbers as numbers");
        remove(path);
    } else {
        SKIP("python3 not found", "--format json parses as JSON");
    }
    /* with ceilings the derived columns are filled: bound_level is a name, so a string */
    {
        struct gp_ceilings cs;
        ceilings_init(&cs);
        for (int c = 0; c < GP_CEIL_COUNT; c++)
            cs.c[c].measured = gp_ceiling_info[c].kind == GP_CEIL_COMPUTE ? 60e12 : 3e12;
        struct gp_result r;
        crafted(&r, "naive", 64);
        r.metric[GP_M_dram_write] = 0;   /* DRAM read + write known: a DRAM roof */
        FILE *g = tmpfile();
        struct printer pc = {g, FORMAT_JSON, &cs, 0};
        print_begin(&pc);
        print_row(&pc, &r);
        print_end(&pc);
        rewind(g);
        text[fread(text, 1, sizeof text - 1, g)] = '\0';
        fclose(g);
        CHECK(strstr(text, "\"bound_level\": \"dram\"") != NULL,
              "--format json with ceilings: bound_level is a quoted name (\"dram\"), not a bare word");
    }
    /* an empty run is still a valid array */
    f = tmpfile();
    struct printer p = {f, FORMAT_JSON, NULL, 0};
    print_begin(&p);
    print_end(&p);
    rewind(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    CHECK(strcmp(text, "[\n]\n") == 0, "--format json with no rows prints []");

    /* Markdown: one cell per column, a hostile name escaped */
    print_two(FORMAT_MD, "a|b\nc");
    char *line3 = strchr(strchr(strchr(text, '\n') + 1, '\n') + 1, '\n') + 1;   /* the second row */
    char *end = strchr(line3, '\n');
    if (end)
        *end = '\0';
    int bars = 0;
    for (char *s = line3; *s; s++)
        bars += *s == '|' && (s == line3 || s[-1] != '\\');
    CHECK(count(text, '\n') == 3 && bars == 12 && strstr(line3, "a\\|b\\x0Ac"),
          "--format md: 11 cells per row, '|' and newline in a name escaped: %s", line3);

    /* the terminal table: header and one line per row */
    print_two(FORMAT_TABLE, "tiled");
    CHECK(strncmp(text, "variant", 7) == 0 && count(text, '\n') == 3, "--format table: header and two rows");
    TEST_EXIT();
}

/* gemmprof compare on crafted pairs of runs: verdicts against the runs' own spread, the
 * threshold, counters that moved, rows in one run only, different GPUs and revisions,
 * and the CLI's exit status. Host-only; the base run is the recorded H200 run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "analysis/results_csv.h"
#include "tests/test.h"

static const struct compare_row *find(const struct compare_result *c, const char *variant, long m, int side)
{
    for (int i = 0; i < c->nrows; i++) {
        const struct gp_result *r = side == 0 ? c->rows[i].base : c->rows[i].fresh;
        const struct gp_result *other = side == 0 ? c->rows[i].fresh : c->rows[i].base;
        if (r && (side == 2 ? other != NULL : 1) && strcmp(r->variant, variant) == 0 && r->m == m)
            return &c->rows[i];
    }
    return NULL;
}

static struct gp_result *row_of(struct gp_dataset *ds, const char *variant, long m)
{
    for (int i = 0; i < ds->nrows; i++)
        if (strcmp(ds->rows[i].variant, variant) == 0 && ds->rows[i].m == m)
            return &ds->rows[i];
    return NULL;
}

static void scale_time(struct gp_result *r, double f)
{
    r->time_median_s *= f;
    r->time_min_s *= f;
    r->time_max_s *= f;
    r->flop_per_s /= f;
}

/* Writes ds's rows as DIR/results.csv (results.json copied from the recorded run). */
static int write_run(const char *dir, const struct gp_dataset *ds)
{
    char path[1024], cmd[1200];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    results_csv_write_header(f);
    for (int i = 0; i < ds->nrows; i++)
        results_csv_write_row(f, &ds->rows[i], NULL);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cp results/h200/results.json '%s/'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int run_status(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/gemmprof compare %s >/dev/null 2>&1", args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
    char err[1024];
    struct gp_dataset base, fresh;
    if (dataset_load("results/h200", &base, err, sizeof err) || dataset_load("results/h200", &fresh, err, sizeof err)) {
        CHECK(0, "the recorded run loads: %s", err);
        TEST_EXIT();
    }
    struct compare_result c;

    /* the same run twice: every row the same, nothing flagged */
    CHECK(compare_runs(&base, &base, COMPARE_THRESHOLD_DEFAULT_PCT, &c) == 0 && c.same == base.nrows &&
              c.slower == 0 && c.faster == 0 && !c.gpu_differs && !c.version_differs,
          "a run against itself: %d rows, all same", c.same);
    compare_free(&c);

    /* crafted changes */
    scale_time(row_of(&fresh, "tiled", 2048), 1.20);           /* clearly slower */
    scale_time(row_of(&fresh, "warptile", 4096), 0.80);        /* clearly faster */
    struct gp_result *tiny = row_of(&fresh, "naive", 8192);    /* disjoint, but under 1% */
    tiny->time_min_s = row_of(&base, "naive", 8192)->time_max_s * 1.0001;
    tiny->time_median_s = tiny->time_min_s * 1.002;
    tiny->time_max_s = tiny->time_median_s * 1.002;
    struct gp_result *wide = row_of(&fresh, "cublas", 1024);   /* 5% slower inside the spread */
    wide->time_median_s *= 1.05;
    wide->time_min_s = row_of(&base, "cublas", 1024)->time_min_s;
    wide->time_max_s = wide->time_median_s * 1.1;
    struct gp_result *dram = row_of(&fresh, "blocktile_2d", 8192);
    dram->metric[GP_M_dram_read] *= 3.0;
    dram->metric[GP_M_l2_bytes] *= 0.5;
    dram->metric[GP_M_sm_clock] *= 2.0;                          /* a clock: never listed */
    /* one row only in base (dropped from new), one only in new (renamed) */
    int last = fresh.nrows - 1;
    snprintf(fresh.rows[last].variant, sizeof fresh.rows[last].variant, "my_kernel");
    fresh.rows[0] = fresh.rows[1];   /* duplicate key: rows[0]'s key is now only in base */
    snprintf(fresh.meta.gpu_uuid, sizeof fresh.meta.gpu_uuid, "GPU-other");
    snprintf(fresh.meta.git_rev, sizeof fresh.meta.git_rev, "abc1234");

    CHECK(compare_runs(&base, &fresh, COMPARE_THRESHOLD_DEFAULT_PCT, &c) == 0, "crafted pair compared");
    const struct compare_row *r = find(&c, "tiled", 2048, 2);
    CHECK(r && r->verdict == VERDICT_SLOWER && fabs(r->time_ratio - 1.2) < 1e-9, "tiled 2048 20%% slower: slower");
    r = find(&c, "warptile", 4096, 2);
    CHECK(r && r->verdict == VERDICT_FASTER, "warptile 4096 20%% faster: faster");
    r = find(&c, "naive", 8192, 2);
    CHECK(r && r->verdict == VERDICT_SAME, "naive 8192: disjoint intervals but under the 1%% threshold: same");
    r = find(&c, "cublas", 1024, 2);
    CHECK(r && r->verdict == VERDICT_SAME, "cublas 1024: +5%% but inside the base's spread: same");
    r = find(&c, "blocktile_2d", 8192, 2);
    CHECK(r && r->nmoved == 2 && r->moved[0].metric == GP_M_dram_read && r->moved[1].metric == GP_M_l2_bytes,
          "blocktile_2d 8192: DRAM read (3x) then L2 bytes (0.5x) moved most; the clock is not a counter (%d listed)",
          r ? r->nmoved : -1);
    CHECK(c.only_base == 2 && c.only_new == 1, "rows in one run only are kept: %d only in base, %d only in new",
          c.only_base, c.only_new);
    CHECK(c.gpu_differs && c.version_differs, "different GPU and revision flagged");
    compare_free(&c);

    /* the threshold: 0 turns the disjoint 0.4% into slower */
    CHECK(compare_runs(&base, &fresh, 0.0, &c) == 0 && (r = find(&c, "naive", 8192, 2)) &&
              r->verdict == VERDICT_SLOWER, "--threshold 0: the disjoint, small change is slower");
    compare_free(&c);

    /* the command: exit 1 on a slower row, 0 without, 2 on bad input; Markdown to --out */
    char dir[256], args[800];
    snprintf(dir, sizeof dir, "/tmp/gp_compare.%d", (int)getpid());
    mkdir(dir, 0755);
    snprintf(args, sizeof args, "%s/slow", dir);
    CHECK(write_run(args, &fresh) == 0, "crafted run written");
    snprintf(args, sizeof args, "results/h200 %s/slow --out %s/cmp.md", dir, dir);
    CHECK(run_status(args) == 1, "compare exits 1 when a row is slower");
    snprintf(args, sizeof args, "%s/cmp.md", dir);
    FILE *f = fopen(args, "r");
    char text[65536] = "";
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    CHECK(strstr(text, "| tiled | 2048x2048x2048 |") && strstr(text, "**slower**") &&
              strstr(text, "Only in new (1): my_kernel"),
          "--out holds the table and the rows in one run only");
    CHECK(run_status("results/h200 results/h200") == 0, "compare of a run with itself exits 0");
    CHECK(run_status("results/h200") == 2 && run_status("results/h200 /nonexistent") == 2 &&
              run_status("results/h200 results/h200 --threshold -1") == 2,
          "missing directory, unreadable run or bad threshold: exit 2");
    CHECK(run_status("results/h200 results/h200 --threshold 0x10") == 2 &&
              run_status("results/h200 results/h200 --threshold ' 5'") == 2 &&
              run_status("results/h200 results/h200 --threshold inf") == 2,
          "--threshold takes plain decimal only: 0x10, ' 5' and inf exit 2");
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    if (system(args) != 0)
        printf("# could not remove %s\n", dir);
    dataset_free(&base);
    dataset_free(&fresh);
    TEST_EXIT();
}

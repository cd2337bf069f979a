/* Rank detection from each launcher's variables, the GPU a rank picks, and the --shard
 * split of the default sweep. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results_csv.h"
#include "src/cli.h"
#include "src/ranks.h"
#include "tests/test.h"

/* A fake environment: "NAME=VALUE" strings, NULL-terminated. */
static const char *fake_getenv(const char *name, void *ctx)
{
    size_t n = strlen(name);
    for (const char *const *e = ctx; *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static int detect(const char *const *env, struct rank_info *ri, char *err)
{
    err[0] = '\0';
    return ranks_detect(fake_getenv, (void *)env, ri, err, 256);
}

#define IS(ri, r, w, l, src) \
    ((ri).rank == (r) && (ri).world_size == (w) && (ri).local_rank == (l) && strcmp((ri).source, src) == 0)

static void check_split(const struct cli_options *o, int nranks)
{
    int n = o->nshapes * o->nvariants;
    double cost[CLI_MAX_SHAPES * CLI_MAX_VARIANTS], load[8], load2[8];
    int owner[CLI_MAX_SHAPES * CLI_MAX_VARIANTS], owner2[CLI_MAX_SHAPES * CLI_MAX_VARIANTS];
    double total = 0, biggest = 0;
    /* item = shape * nvariants + variant, as the harness numbers them */
    for (int s = 0; s < o->nshapes; s++)
        for (int v = 0; v < o->nvariants; v++) {
            const struct shape *sh = &o->shapes[s];
            double c = 2.0 * sh->m * sh->n * sh->k;
            cost[s * o->nvariants + v] = c;
            total += c;
            biggest = c > biggest ? c : biggest;
        }
    CHECK(ranks_shard(cost, n, nranks, owner, load) == 0, "%d items split over %d ranks", n, nranks);
    double sum[8] = {0};
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (owner[i] < 0 || owner[i] >= nranks)
            bad++;
        else
            sum[owner[i]] += cost[i];
    }
    CHECK(bad == 0, "every item has exactly one owner among %d ranks", nranks);
    double mx = 0, mn = 1e300, loads = 0;
    printf("   loads over %d ranks (GFLOP):", nranks);
    for (int r = 0; r < nranks; r++) {
        printf(" %.1f", load[r] / 1e9);
        mx = load[r] > mx ? load[r] : mx;
        mn = load[r] < mn ? load[r] : mn;
        loads += load[r];
        bad += fabs(sum[r] - load[r]) > 1e-6 * total;
    }
    printf("  max/min %.3f\n", mn > 0 ? mx / mn : 0.0);
    CHECK(bad == 0 && fabs(loads - total) <= 1e-9 * total, "the reported loads are the owners' sums");
    /* LPT's guarantee: at most 4/3 of the best split, which is at least the mean load and
     * the largest item */
    double opt_lb = total / nranks > biggest ? total / nranks : biggest;
    CHECK(mx <= 4.0 / 3.0 * opt_lb * (1 + 1e-12), "max load %.1f GFLOP within 4/3 of the bound %.1f",
          mx / 1e9, opt_lb / 1e9);
    CHECK(mn > 0 && mx / mn <= 1.5, "max/min load %.3f <= 1.5 over %d ranks", mn > 0 ? mx / mn : 0.0, nranks);
    CHECK(ranks_shard(cost, n, nranks, owner2, load2) == 0 && memcmp(owner, owner2, sizeof(int) * n) == 0,
          "the split is the same when computed again (deterministic)");
}

/* --shard-costs: seconds where an earlier run has the row, FLOPs at the median rate
 * elsewhere, unusable priors ignored */
static void test_costs(void)
{
    const struct shard_item it[3] = {{"naive", 1000, 1000, 1000}, {"cublas", 1000, 1000, 1000},
                                     {"new", 2000, 1000, 1000}};
    const struct shard_prior pr[4] = {{"naive", 1000, 1000, 1000, 0.5}, {"cublas", 1000, 1000, 1000, 0.1},
                                      {"cublas", 1000, 1000, 999, 7.0}, {"new", 2000, 1000, 1000, NAN}};
    double cost[3];
    CHECK(ranks_costs(it, 3, pr, 4, cost) == 2, "2 of 3 items timed (a NaN time and another shape do not count)");
    CHECK(cost[0] == 0.5 && cost[1] == 0.1, "timed items cost their seconds");
    /* median of 0.5/2e9 and 0.1/2e9 s/FLOP is 0.3/2e9; the new item has 4e9 FLOPs */
    CHECK(fabs(cost[2] - 0.6) < 1e-12, "an untimed item: its FLOPs at the median rate (%g)", cost[2]);
    CHECK(ranks_costs(it, 3, NULL, 0, cost) == 0 && cost[2] == 4e9, "no priors: FLOPs");
    CHECK(ranks_costs(it, -1, pr, 4, cost) == -1, "bad count refused");
}

/* The recorded H200 run (results/h200) as the earlier run: split the default sweep over 2
 * ranks by FLOPs and by its seconds, and compare the ranks' expected GPU time. */
static void test_costs_recorded(void)
{
    struct gp_result *rows = NULL;
    int nrows = 0;
    char err[600];
    if (results_csv_read("results/h200/results.csv", &rows, &nrows, err, sizeof err)) {
        CHECK(0, "results/h200/results.csv reads: %s", err);
        return;
    }
    static struct shard_item items[64];
    double flops[64], secs[64], load_f[2], load_s[2];
    int n = 0, own[64];
    for (int i = 0; i < nrows && n < 64; i++)
        items[n++] = (struct shard_item){rows[i].variant, rows[i].m, rows[i].n, rows[i].k};
    CHECK(n == 64 && ranks_costs_from_rows(items, n, rows, nrows, secs) == 64, "64 rows, all timed");
    CHECK(ranks_costs(items, n, NULL, 0, flops) == 0, "FLOP costs");
    /* the seconds each split puts on each rank */
    ranks_shard(flops, n, 2, own, NULL);
    load_f[0] = load_f[1] = 0;
    for (int i = 0; i < n; i++)
        load_f[own[i]] += secs[i];
    ranks_shard(secs, n, 2, own, load_s);
    const double tot = load_s[0] + load_s[1];
    const double worst_f = fmax(load_f[0], load_f[1]) / tot, worst_s = fmax(load_s[0], load_s[1]) / tot;
    printf("  default sweep on 2 ranks, expected GPU seconds of the busier rank (results/h200 times):\n"
           "    by FLOPs %.3f s of %.3f (%.1f%%), by --shard-costs %.3f s (%.1f%%)\n",
           fmax(load_f[0], load_f[1]), tot, 100 * worst_f, fmax(load_s[0], load_s[1]), 100 * worst_s);
    CHECK(worst_s <= worst_f && worst_s < 0.51, "by seconds the busier rank has at most 51%% of them (%.1f%%)",
          100 * worst_s);
    free(rows);
}

int main(void)
{
    struct rank_info ri;
    char err[256];

    static const char *const none[] = {"HOME=/root", NULL};
    CHECK(detect(none, &ri, err) == 0 && IS(ri, 0, 1, 0, "none"), "no launcher: rank 0 of 1");

    static const char *const slurm[] = {"SLURM_PROCID=5", "SLURM_NTASKS=8", "SLURM_LOCALID=1", NULL};
    CHECK(detect(slurm, &ri, err) == 0 && IS(ri, 5, 8, 1, "slurm"), "Slurm: rank 5 of 8, local 1");

    static const char *const ompi[] = {"OMPI_COMM_WORLD_RANK=3", "OMPI_COMM_WORLD_SIZE=4",
                                       "OMPI_COMM_WORLD_LOCAL_RANK=1", NULL};
    CHECK(detect(ompi, &ri, err) == 0 && IS(ri, 3, 4, 1, "openmpi"), "Open MPI: rank 3 of 4, local 1");

    static const char *const gen[] = {"RANK=1", "WORLD_SIZE=2", "LOCAL_RANK=0", NULL};
    CHECK(detect(gen, &ri, err) == 0 && IS(ri, 1, 2, 0, "generic"), "generic: rank 1 of 2, local 0");

    static const char *const both[] = {"RANK=0", "WORLD_SIZE=1", "LOCAL_RANK=0",
                                       "OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4",
                                       "OMPI_COMM_WORLD_LOCAL_RANK=0", "SLURM_PROCID=7",
                                       "SLURM_NTASKS=8", "SLURM_LOCALID=3", NULL};
    CHECK(detect(both, &ri, err) == 0 && IS(ri, 7, 8, 3, "slurm"), "Slurm wins over Open MPI and generic");
    static const char *const both2[] = {"RANK=0", "WORLD_SIZE=1", "LOCAL_RANK=0",
                                        "OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4",
                                        "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL};
    CHECK(detect(both2, &ri, err) == 0 && IS(ri, 2, 4, 0, "openmpi"), "Open MPI wins over generic");
    /* Slurm's rank set but not its size: an error, not a fall-through to Open MPI */
    static const char *const partial[] = {"SLURM_PROCID=1", "OMPI_COMM_WORLD_RANK=0",
                                          "OMPI_COMM_WORLD_SIZE=2", "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL};
    CHECK(detect(partial, &ri, err) == -1 && strstr(err, "SLURM_NTASKS") && !strchr(err, '\n'),
          "a launcher's missing variable is an error: %s", err);

    static const char *const bad_num[] = {"RANK=1x", "WORLD_SIZE=2", "LOCAL_RANK=0", NULL};
    CHECK(detect(bad_num, &ri, err) == -1 && strstr(err, "RANK='1x'"), "malformed rank refused: %s", err);
    static const char *const neg[] = {"RANK=0", "WORLD_SIZE=-2", "LOCAL_RANK=0", NULL};
    CHECK(detect(neg, &ri, err) == -1 && strstr(err, "WORLD_SIZE"), "negative world size refused: %s", err);
    static const char *const empty[] = {"SLURM_PROCID=", "SLURM_NTASKS=2", "SLURM_LOCALID=0", NULL};
    CHECK(detect(empty, &ri, err) == -1 && strstr(err, "SLURM_PROCID"), "empty rank refused: %s", err);
    static const char *const huge[] = {"RANK=99999999999999999999", "WORLD_SIZE=2", "LOCAL_RANK=0", NULL};
    CHECK(detect(huge, &ri, err) == -1, "overflowing rank refused: %s", err);
    static const char *const over[] = {"OMPI_COMM_WORLD_RANK=4", "OMPI_COMM_WORLD_SIZE=4",
                                       "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL};
    CHECK(detect(over, &ri, err) == -1 && strstr(err, "below the world size"), "rank >= size refused: %s", err);
    static const char *const zero[] = {"RANK=0", "WORLD_SIZE=0", "LOCAL_RANK=0", NULL};
    CHECK(detect(zero, &ri, err) == -1, "world size 0 refused: %s", err);
    static const char *const loc[] = {"SLURM_PROCID=1", "SLURM_NTASKS=4", "SLURM_LOCALID=4", NULL};
    CHECK(detect(loc, &ri, err) == -1 && strstr(err, "local rank"), "local rank >= world size refused: %s", err);

    CHECK(ranks_pick_device(0, 1) == 0 && ranks_pick_device(3, 1) == 0, "one visible GPU: every rank uses device 0");
    CHECK(ranks_pick_device(3, 4) == 3 && ranks_pick_device(5, 4) == 1, "local rank modulo the visible count");
    CHECK(ranks_pick_device(0, 0) == -1, "no visible GPU: no device");

    char dir[64];
    CHECK(ranks_dir_name("out", "node01", "GPU-5d2e-77", 1, dir, sizeof dir) == 0 &&
              strcmp(dir, "out/node01-GPU-5d2e-77") == 0, "rank directory OUT/HOST-UUID: %s", dir);
    CHECK(ranks_dir_name("out", "a/../b c", "", 3, dir, sizeof dir) == 0 && strcmp(dir, "out/a_.._b_c-rank3") == 0,
          "unsafe host characters replaced, no UUID: rank number: %s", dir);
    CHECK(ranks_dir_name("a-very-long-output-directory-name", "node01", "GPU-5d2e-77", 0, dir, 40) == -1,
          "a name that does not fit is refused");

    static struct cli_options o;
    CHECK(cli_parse(1, (char *[]){"gemmprof", NULL}, &o, err, sizeof err) == 0, "the default sweep parses");
    check_split(&o, 2);
    check_split(&o, 4);
    check_split(&o, 3);
    /* a ragged sweep: eight sizes whose costs do not divide evenly */
    CHECK(cli_parse(3, (char *[]){"gemmprof", "-s", "1000:8000:+1000", NULL}, &o, err, sizeof err) == 0,
          "a ragged sweep parses");
    check_split(&o, 2);
    check_split(&o, 4);

    /* more ranks than items: the extra ranks get nothing, nobody gets an item twice */
    double c3[3] = {8, 1, 1}, l5[5];
    int own3[3];
    CHECK(ranks_shard(c3, 3, 5, own3, l5) == 0 && own3[0] == 0 && own3[1] == 1 && own3[2] == 2 &&
          l5[3] == 0 && l5[4] == 0, "5 ranks, 3 items: ranks 3 and 4 idle");
    /* by cost, not by count: one big item against four small ones */
    double c5[5] = {1, 1, 4, 1, 1}, l2[2];
    int own5[5];
    CHECK(ranks_shard(c5, 5, 2, own5, l2) == 0 && l2[0] == 4 && l2[1] == 4 && own5[2] == 0,
          "balanced by cost: the 4-unit item alone against four 1-unit items");
    CHECK(ranks_shard(c5, 5, 0, own5, NULL) == -1, "0 ranks refused");
    CHECK(strcmp(rank_mode_name(RANK_SHARD), "shard") == 0 && strcmp(rank_mode_name(RANK_FLEET), "fleet") == 0 &&
          strcmp(rank_mode_name(RANK_SINGLE), "single") == 0, "mode names");
    test_costs();
    test_costs_recorded();
    TEST_EXIT();
}

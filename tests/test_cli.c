/* Argument and shape parsing, and their one-line errors. */
#include <string.h>

#include "analysis/metrics.h"
#include "src/cli.h"
#include "src/registry.h"
#include "tests/test.h"

static int parse(const char *line, struct cli_options *o, char *err, size_t errlen)
{
    char buf[512], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "gemmprof %s", line);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    err[0] = '\0';
    return cli_parse(argc, argv, o, err, errlen);
}

/* Arguments as given, blanks inside them kept (parse() splits on blanks). */
static int parse2(const char *opt, const char *val, struct cli_options *o, char *err, size_t errlen)
{
    char *argv[] = {(char *)"gemmprof", (char *)opt, (char *)val, NULL};
    err[0] = '\0';
    return cli_parse(3, argv, o, err, errlen);
}

static int sizes(const char *spec, struct shape *s, int *n, char *err)
{
    *n = 0;
    err[0] = '\0';
    return cli_parse_sizes(spec, s, n, 64, err, 256);
}

int main(void)
{
    static struct cli_options o;
    struct shape s[64];
    char err[256];
    int n;

    CHECK(parse("", &o, err, sizeof err) == 0, "defaults parse");
    CHECK(o.nvariants == gemm_variant_count, "default runs every variant (%d)", o.nvariants);
    CHECK(o.nshapes == 4 && o.shapes[0].m == 1024 && o.shapes[3].k == 8192, "default sizes 1024..8192");
    CHECK(o.reps == 10 && o.warmups == 2 && o.l2_flush && o.counters, "default reps, warm-ups, flush, counters");
    CHECK(strcmp(o.out_dir, "out") == 0, "default output directory is out");

    CHECK(parse("-k tiled,naive -s 17x33x65 -r 5 -w 0 --no-flush --seed 7 -o /tmp/x", &o, err, sizeof err) == 0,
          "a full command line parses");
    CHECK(o.nvariants == 2 && o.variants[0] == registry_find("tiled") && o.variants[1] == registry_find("naive"),
          "variant order kept");
    CHECK(o.shapes[0].m == 17 && o.shapes[0].n == 33 && o.shapes[0].k == 65, "MxNxK parsed as m, n, k");
    CHECK(o.reps == 5 && o.warmups == 0 && !o.l2_flush && o.seed == 7, "options stored");

    CHECK(parse("-k naive,bogus", &o, err, sizeof err) == -1 && strstr(err, "unknown variant 'bogus'"),
          "unknown variant named: %s", err);
    CHECK(parse("-k naive,naive", &o, err, sizeof err) == 0 && o.nvariants == 1, "duplicate variants dropped");
    CHECK(parse("--metrics lts__t_bytes.sum,dram__bytes_read.sum", &o, err, sizeof err) == 0 && o.nmetrics == 2,
          "metric list by ncu name");
    CHECK(parse("--metrics lts__t_bytes.sum,no_such_metric", &o, err, sizeof err) == -1 &&
              strstr(err, "unknown metric 'no_such_metric'"),
          "unknown metric named: %s", err);

    /* a name outside the table is an extra metric: its shape checked here, the chip later */
    CHECK(parse("-m sm__inst_executed_pipe_fma.sum,lts__t_bytes.sum", &o, err, sizeof err) == 0 && o.nmetrics == 2 &&
              o.metrics[0] == GP_METRIC_COUNT && o.metrics[1] == GP_M_l2_bytes &&
              strcmp(gp_metric_name(o.metrics[0]), "sm__inst_executed_pipe_fma.sum") == 0 && gp_extra_count() == 1,
          "-m takes a metric outside the table as extra metric 0: %s", err);
    CHECK(parse("-m l1tex__t_sectors.sum -m lts__t_bytes.sum", &o, err, sizeof err) == 0 && gp_extra_count() == 0,
          "a later -m replaces the extra list too");
    CHECK(parse("", &o, err, sizeof err) == 0 && gp_extra_count() == 0, "a new command line starts with no extras");
    const char *malformed[] = {"sm__", "__x.sum", "sm__x..sum", "sm__x.sum.", "sm.x__y", "sm__x;rm", "2sm__x.sum"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        char arg[64];
        snprintf(arg, sizeof arg, "-m %s", malformed[i]);
        CHECK(parse(arg, &o, err, sizeof err) == -1 && strstr(err, "unknown metric") && strstr(err, malformed[i]),
              "malformed metric name '%s' refused: %s", malformed[i], err);
    }
    {
        char list[2048] = "-m ";
        for (int i = 0; i <= GP_EXTRA_MAX; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%ssm__x%d.sum", i ? "," : "", i);
        CHECK(parse(list, &o, err, sizeof err) == -1 && strstr(err, "more than"),
              "more extra metrics than GP_EXTRA_MAX refused: %s", err);
    }

    /* the default set carries occupancy, issue and the stall reasons that cost no extra
     * pass on GH100 (long scoreboard, barrier); --stalls adds every other reason */
    CHECK(parse("", &o, err, sizeof err) == 0, "defaults again");
    int has_occ = 0, has_issue = 0, has_inst = 0, nstall = 0, ndefault = o.nmetrics, nreasons = 0;
    for (int i = 0; i < o.nmetrics; i++) {
        has_occ |= o.metrics[i] == GP_M_warps_active;
        has_issue |= o.metrics[i] == GP_M_issue_active;
        has_inst |= o.metrics[i] == GP_M_inst_executed;
        nstall += strstr(gp_metrics[o.metrics[i]].name, "issue_stalled") != NULL;
    }
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        nreasons += strstr(gp_metrics[i].name, "issue_stalled") != NULL;
    CHECK(has_occ && has_issue && has_inst && nstall == 2,
          "default set: achieved occupancy, issue slots, warp instructions and 2 stall reasons (%d)", nstall);
    CHECK(parse("--stalls", &o, err, sizeof err) == 0 && o.nmetrics == ndefault + nreasons - nstall,
          "--stalls adds the other %d stall reasons to the default set (%d -> %d)", nreasons - nstall, ndefault,
          o.nmetrics);
    int last_stall = -1;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (strstr(gp_metrics[i].name, "issue_stalled") && !gp_metrics[i].in_default)
            last_stall = i;
    CHECK(o.metrics[ndefault] == GP_M_stall_branch_resolving && o.metrics[o.nmetrics - 1] == last_stall,
          "--stalls: appended in metrics.def order, after the defaults");
    CHECK(parse("--stalls --metrics lts__t_bytes.sum,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
                &o, err, sizeof err) == 0 && o.nmetrics == 20 && o.metrics[0] == GP_M_l2_bytes,
          "--stalls before --metrics adds to that list, without doubling a reason given there (%d)", o.nmetrics);
    CHECK(parse("--no-counters --stalls", &o, err, sizeof err) == -1 && strstr(err, "--stalls"),
          "--stalls with --no-counters refused: %s", err);
    {
        char help[8192] = "";
        FILE *f = fmemopen(help, sizeof help - 1, "w");
        if (f) {
            cli_usage(f);
            fclose(f);
        }
        CHECK(strstr(help, "--stalls") != NULL, "--help names --stalls");
    }
    CHECK(parse("--reps 0", &o, err, sizeof err) == -1 && strstr(err, "--reps"), "reps 0 rejected: %s", err);
    CHECK(parse("--reps abc", &o, err, sizeof err) == -1, "non-numeric reps rejected: %s", err);
    CHECK(parse("--frobnicate", &o, err, sizeof err) == -1 && strstr(err, "--frobnicate"),
          "unknown option named: %s", err);
    CHECK(parse("-s", &o, err, sizeof err) == -1 && strstr(err, "needs a value"), "missing value: %s", err);
    CHECK(parse("stray", &o, err, sizeof err) == -1 && strstr(err, "stray"), "stray argument: %s", err);
    CHECK(parse("--seed -1", &o, err, sizeof err) == -1, "negative seed rejected: %s", err);
    /* one number parser for every option: plain decimal, nothing strtol alone lets by */
    {
        static const char *const bad[][2] = {
            {"-r", " 5"}, {"-r", "+5"}, {"-r", "5 "}, {"-r", "0x10"}, {"-w", " 2"}, {"-w", "+2"},
            {"-d", "0x1"}, {"-s", " 5"}, {"-s", "+5"}, {"--seed", " -5"}, {"--seed", " 5"},
            {"--seed", "+5"}, {"--seed", "0x10"}, {"--seed", "-5"}, {"--seed", "18446744073709551616"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            CHECK(parse2(bad[i][0], bad[i][1], &o, err, sizeof err) == -1 && strstr(err, bad[i][1]),
                  "%s '%s' refused, naming the value: %s", bad[i][0], bad[i][1], err);
        CHECK(parse2("--seed", "18446744073709551615", &o, err, sizeof err) == 0 && o.seed == 18446744073709551615ULL,
              "--seed takes the largest 64-bit value");
        CHECK(parse2("-r", "007", &o, err, sizeof err) == 0 && o.reps == 7, "leading zeros are decimal, not octal");
    }
    {   /* long -k lists (plugin specs carry paths): 3 KiB parse, past 16 KiB is refused */
        static char list[20000];
        list[0] = '\0';
        while (strlen(list) < 3000)
            strcat(list, "naive,tiled,");
        CHECK(parse2("-k", list, &o, err, sizeof err) == 0 && o.nvariants == 2, "a 3 KiB variant list parses: %s", err);
        while (strlen(list) < 17000)
            strcat(list, "naive,tiled,");
        CHECK(parse2("-k", list, &o, err, sizeof err) == -1 && strstr(err, "at most"),
              "a 17 KiB variant list is refused naming the limit: %s", err);
    }
    CHECK(parse("--help", &o, err, sizeof err) == 0 && o.action == CLI_HELP, "--help");
    CHECK(parse("--list", &o, err, sizeof err) == 0 && o.action == CLI_LIST, "--list");

    CHECK(sizes("2048", s, &n, err) == 0 && n == 1 && s[0].m == 2048 && s[0].k == 2048, "square size");
    CHECK(sizes("1,1000x1500x700,1023", s, &n, err) == 0 && n == 3 && s[1].n == 1500, "list of sizes");
    CHECK(sizes("256:8192:x2", s, &n, err) == 0 && n == 6 && s[5].m == 8192, "geometric range 256..8192 (%d)", n);
    CHECK(sizes("100:400:+100", s, &n, err) == 0 && n == 4 && s[3].m == 400, "arithmetic range");
    CHECK(sizes("0", s, &n, err) == -1 && strstr(err, "size 0"), "size 0: %s", err);
    CHECK(sizes("-5", s, &n, err) == -1 && strstr(err, "-5"), "negative size: %s", err);
    CHECK(sizes("abc", s, &n, err) == -1 && strstr(err, "abc"), "non-numeric size: %s", err);
    CHECK(sizes("12x", s, &n, err) == -1, "incomplete MxNxK: %s", err);
    CHECK(sizes("2x3x4x5", s, &n, err) == -1, "too many dimensions: %s", err);
    CHECK(sizes("99999999999", s, &n, err) == -1 && strstr(err, "too large"), "size beyond int: %s", err);
    CHECK(sizes("2000000000x2000000000x2000000000", s, &n, err) == -1 && strstr(err, "overflow"),
          "buffers beyond 64-bit byte counts rejected: %s", err);
    struct shape huge = {100000, 100000, 100000};
    CHECK(shape_bytes(&huge) == 120000000000LL, "100000^3: 3 x 4e10 bytes counted without overflow");
    CHECK(sizes("100000x100000x4", s, &n, err) == -1 && strstr(err, "C (MxN) would have 10000000000 elements"),
          "a matrix beyond 32-bit indexing is refused up front: %s", err);
    CHECK(sizes("4x100000x100000", s, &n, err) == -1 && strstr(err, "B (KxN)"), "B too: %s", err);
    CHECK(sizes("46340x46340x46340", s, &n, err) == 0, "46340^3 (each matrix just under 2^31 elements) is accepted");
    CHECK(sizes("8:4:x2", s, &n, err) == -1 && strstr(err, "above"), "reversed range: %s", err);
    CHECK(sizes("4:8:x1", s, &n, err) == -1 && strstr(err, "factor"), "factor 1: %s", err);
    CHECK(sizes("4:8", s, &n, err) == -1, "range without step: %s", err);
    CHECK(sizes(",", s, &n, err) == -1 && strstr(err, "empty"), "empty list: %s", err);
    CHECK(parse("", &o, err, sizeof err) == 0 && o.mode == RANK_SINGLE && !o.device_given,
          "default: single mode, no --device");
    CHECK(parse("--shard", &o, err, sizeof err) == 0 && o.mode == RANK_SHARD, "--shard");
    CHECK(parse("--fleet --fleet", &o, err, sizeof err) == 0 && o.mode == RANK_FLEET, "--fleet (twice is fine)");
    CHECK(parse("--shard --fleet", &o, err, sizeof err) == -1 && strstr(err, "exclude"),
          "--shard with --fleet refused: %s", err);
    CHECK(parse("--fleet --shard", &o, err, sizeof err) == -1, "--fleet with --shard refused: %s", err);
    CHECK(parse("-d 0", &o, err, sizeof err) == 0 && o.device_given && o.device == 0,
          "--device 0 counts as given (it wins over the local rank)");
    CHECK(parse("--shard=1", &o, err, sizeof err) == -1, "--shard takes no value: %s", err);
    CHECK(parse("--shard --shard-costs old/results.csv", &o, err, sizeof err) == 0 && o.shard_costs &&
              strcmp(o.shard_costs, "old/results.csv") == 0, "--shard-costs FILE with --shard");
    CHECK(parse("--shard-costs old/results.csv", &o, err, sizeof err) == -1 && strstr(err, "give --shard"),
          "--shard-costs without --shard refused: %s", err);
    CHECK(parse("--shard --shard-costs=", &o, err, sizeof err) == -1 && strstr(err, "empty"),
          "--shard-costs with an empty name refused: %s", err);
    struct shape big = {2147483647L, 2147483647L, 2147483647L};
    CHECK(shape_bytes(&big) == -1, "largest int shape overflows and says so");
    /* --tune: simt_auto's plans at one shape (src/tune.c) */
    CHECK(parse("--tune 1000x1500x700 -r 5 -o /tmp/t", &o, err, sizeof err) == 0 && o.tune && o.nshapes == 1 &&
              o.shapes[0].m == 1000 && o.shapes[0].k == 700 && o.reps == 5 && o.nvariants == 1,
          "--tune MxNxK: one shape, simt_auto (%s)", err);
    CHECK(!o.counters && !o.ceilings && !o.report && !o.launch_facts && o.l2_flush,
          "--tune times only (no counters, ceilings, report), L2 still flushed");
    CHECK(parse("--tune 2048 -s 1024", &o, err, sizeof err) == -1 && strstr(err, "-s"), "--tune with -s refused: %s", err);
    CHECK(parse("--tune 2048 -k naive", &o, err, sizeof err) == -1 && strstr(err, "-k"), "--tune with -k refused: %s", err);
    CHECK(parse("--tune 1024,2048", &o, err, sizeof err) == -1 && strstr(err, "one shape"), "--tune takes one shape: %s",
          err);
    CHECK(parse("--tune 0x5x5", &o, err, sizeof err) == -1 && strstr(err, "size 0"), "--tune 0x5x5: %s", err);
    /* --tune -k tf32_auto: tf32_auto's plans (src/tune_tf32.c); -k simt_auto is the default */
    CHECK(parse("--tune 8192x64x4096 -k tf32_auto", &o, err, sizeof err) == 0 && o.tune == CLI_TUNE_TF32 &&
              o.nvariants == 1 && o.variants[0] == registry_find("tf32_auto") && o.shapes[0].n == 64 && !o.counters,
          "--tune MxNxK -k tf32_auto: tf32_auto's plans (%s)", err);
    CHECK(parse("--tune 1024 -k simt_auto", &o, err, sizeof err) == 0 && o.tune == CLI_TUNE_SIMT &&
              o.variants[0] == registry_find("simt_auto") &&
              parse("--tune 1024", &o, err, sizeof err) == 0 && o.tune == CLI_TUNE_SIMT,
          "--tune with -k simt_auto or no -k: simt_auto's plans (%s)", err);
    static const char *const bad_tune[] = {"--tune 1024 -k simt_auto,tf32_auto", "--tune 1024 -k cublas_tf32",
                                           "--tune 1024 -k tf32"};
    for (size_t i = 0; i < sizeof bad_tune / sizeof bad_tune[0]; i++)
        CHECK(parse(bad_tune[i], &o, err, sizeof err) == -1 && strstr(err, "-k") && strstr(err, "tf32_auto") &&
                  !strchr(err, '\n'),
              "'%s' refused in one line naming the choices: %s", bad_tune[i], err);
    CHECK(parse("--tune 1024x5 -k tf32_auto", &o, err, sizeof err) == -1 && strstr(err, "1024x5"),
          "--tune with a bad shape and -k tf32_auto: %s", err);
    TEST_EXIT();
}

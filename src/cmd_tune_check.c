/* gemmprof tune-check TUNE_CSV...: tf32_auto's rule, as built (kernels/tf32_configs.def,
 * kernels/tf32_plan.h), judged against the times `gemmprof --tune MxNxK -k tf32_auto`
 * measured: per table, the plan the rule picks now, its measured time and its share of the
 * best measured plan; then, from the largest shape's table, each tile's measured eff
 * (split 1) beside the table's EFF. So a calibration (an edit of the EFF column, or of the
 * rule's constants) is checked without a GPU against one device call's tables. Host-only. */
#include "src/cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/csv.h"
#include "kernels/tf32_plan.h"

#define TUNE_CHECK_MIN_SHARE 0.95 /* issue 28: the pick within 5% of the best plan */

/* One tuner table: its shape, the machine it ran on, each plan's measured time (NAN when
 * it did not verify) and split-1 eff. */
struct tc_table {
    long m, n, k;
    struct tf32_machine mc;
    /* by the way operands load (TF32_LOAD_*), reduce plan or not, config and split */
    double time_s[TF32_LOADS][2][TF32_MAX_CONFIGS][TF32_MAX_SPLIT + 1];
    double eff1[TF32_MAX_CONFIGS];         /* split 1's measured eff, or NAN */
    int loads;                             /* the ways to load the table has plans of, a bit each */
    int reduces;                           /* the table has plans summed by the reduction kernel */
};

static const char *const tc_columns[] = {"variant", "m",      "n",             "k",             "sms", "config_name",
                                         "split",   "status", "blocks_per_sm", "time_median_s", "eff", "config"};
enum { TC_VARIANT, TC_M, TC_N, TC_K, TC_SMS, TC_NAME, TC_SPLIT, TC_STATUS, TC_BLOCKS, TC_TIME, TC_EFF, TC_CONFIG,
       TC_NCOL };

/* Reads one tune.csv of tf32_auto: 0, or -1 with the reason in err. */
static int tc_read(const char *path, struct tc_table *t, char *err, size_t errlen)
{
    struct csv_reader r;
    int col[TC_NCOL], rows = 0, rc = -1;
    memset(t, 0, sizeof *t);
    for (int c = 0; c < TF32_MAX_CONFIGS; c++) {
        t->eff1[c] = NAN;
        for (int s = 0; s <= TF32_MAX_SPLIT; s++)
            for (int a = 0; a < TF32_LOADS; a++)
                t->time_s[a][0][c][s] = t->time_s[a][1][c][s] = NAN;
    }
    if (csv_open(&r, path, err, errlen))
        return -1;
    if (csv_next(&r, err, errlen) != 1) {
        if (!err[0])
            snprintf(err, errlen, "%s: empty", path);
        goto out;
    }
    for (int i = 0; i < TC_NCOL; i++)
        if ((col[i] = csv_find_column(r.fields, r.nfields, tc_columns[i])) < 0) {
            snprintf(err, errlen, "%s: no '%s' column: not a table of `gemmprof --tune MxNxK -k tf32_auto`", path,
                     tc_columns[i]);
            goto out;
        }
    int got;
    while ((got = csv_next(&r, err, errlen)) == 1) {
        char **f = r.fields;
        long m, n, k, sms, split, blocks;
        double time_s = NAN, eff = NAN;
        int bad = r.nfields <= col[TC_EFF] || r.nfields <= col[TC_TIME] || r.nfields <= col[TC_CONFIG] ||
                  strcmp(f[col[TC_VARIANT]], "tf32_auto") != 0;
        bad = bad || csv_parse_long(f[col[TC_M]], &m) || csv_parse_long(f[col[TC_N]], &n) ||
              csv_parse_long(f[col[TC_K]], &k) || csv_parse_long(f[col[TC_SMS]], &sms) ||
              csv_parse_long(f[col[TC_SPLIT]], &split) || csv_parse_long(f[col[TC_BLOCKS]], &blocks);
        const int c = bad ? -1 : tf32_config_find(f[col[TC_NAME]]);
        if (bad || c < 0 || m < 1 || n < 1 || k < 1 || sms < 1 || split < 1 || split > TF32_MAX_SPLIT || blocks < 0 ||
            (rows > 0 && (m != t->m || n != t->n || k != t->k || sms != t->mc.sms))) {
            snprintf(err, errlen, "%s:%d: not a row of one tf32_auto tuner table (variant, shape, SMs, a tile of "
                     "kernels/tf32_configs.def, split 1-%d)", path, r.line, TF32_MAX_SPLIT);
            goto out;
        }
        t->m = m, t->n = n, t->k = k, t->mc.sms = (int)sms;
        t->mc.blocks_per_sm[c] = (int)blocks;
        const int load = strstr(f[col[TC_CONFIG]], " copyA")    ? TF32_LOAD_COPY_A
                         : strstr(f[col[TC_CONFIG]], " direct") ? TF32_LOAD_DIRECT
                         : strstr(f[col[TC_CONFIG]], " mapsB")  ? TF32_LOAD_MAPS_B
                         : strstr(f[col[TC_CONFIG]], " mapsA")  ? TF32_LOAD_MAPS_A
                                                                 : TF32_LOAD_TMA;
        const int reduce = strstr(f[col[TC_CONFIG]], " reduce") != NULL;
        t->loads |= 1 << load;
        t->reduces |= reduce;
        if (strcmp(f[col[TC_STATUS]], "ok") == 0 && !csv_parse_double(f[col[TC_TIME]], &time_s) && time_s > 0) {
            t->time_s[load][reduce][c][split] = time_s;
            if (split == 1 && load == TF32_LOAD_TMA && !reduce && !csv_parse_double(f[col[TC_EFF]], &eff))
                t->eff1[c] = eff;
        }
        rows++;
    }
    if (got < 0)
        goto out;
    if (rows == 0) {
        snprintf(err, errlen, "%s: no plans", path);
        goto out;
    }
    rc = 0;
out:
    csv_close(&r);
    return rc;
}

/* One table's line; returns 1 when the pick is measured and within the share, else 0. */
static int tc_judge(const char *path, const struct tc_table *t)
{
    /* the rule's pick among the kinds of plan the table measured (a table from before A's
     * copy, the direct loads or the reduce plans were candidates judges the plans without
     * them) */
    static struct tf32_plan cand[TF32_MAX_PLANS];
    const int nc = tf32_plan_candidates(&t->mc, t->m, t->n, t->k, cand, TF32_MAX_PLANS);
    struct tf32_plan pick = tf32_plan_pick(&t->mc, t->m, t->n, t->k);
    if (!(t->loads >> tf32_plan_load(&pick) & 1) || (!t->reduces && pick.reduce)) {
        pick.est_cycles = INFINITY;
        for (int i = 0; i < nc; i++)
            if ((t->loads >> tf32_plan_load(&cand[i]) & 1) && (t->reduces || !cand[i].reduce) &&
                cand[i].est_cycles < pick.est_cycles)
                pick = cand[i];
    }
    char what[80], best_what[80] = "-", shape[64];
    double best = INFINITY;
    int best_a = 0, best_r = 0, best_c = -1, best_s = 0;
    for (int a = 0; a < TF32_LOADS; a++)
        for (int rd = 0; rd < 2; rd++)
            for (int c = 0; c < tf32_config_count; c++)
                for (int s = 1; s <= TF32_MAX_SPLIT; s++)
                    if (t->time_s[a][rd][c][s] < best)
                        best = t->time_s[a][rd][c][s], best_a = a, best_r = rd, best_c = c, best_s = s;
    struct tf32_plan best_plan;
    if (best_c >= 0 &&
        tf32_plan_make_kind(&t->mc, t->m, t->n, t->k, best_c, best_s, best_a, best_r, &best_plan) == 0)
        tf32_plan_describe(&best_plan, best_what, sizeof best_what);
    else if (best_c >= 0)
        tf32_config_describe(&tf32_configs[best_c], best_s, best_what, sizeof best_what);
    tf32_plan_describe(&pick, what, sizeof what);
    snprintf(shape, sizeof shape, "%ldx%ldx%ld", t->m, t->n, t->k);
    const double mine =
        pick.split <= TF32_MAX_SPLIT ? t->time_s[tf32_plan_load(&pick)][pick.reduce][pick.config][pick.split] : NAN;
    if (isnan(mine)) {
        printf("%-17s %-30s %9s  %-30s %9.4f  not measured (%s)\n", shape, what, "-", best_what, best * 1e3, path);
        return 0;
    }
    const double share = best / mine;
    printf("%-17s %-30s %9.4f  %-30s %9.4f  %5.1f%%%s\n", shape, what, mine * 1e3, best_what, best * 1e3,
           100 * share, share < TUNE_CHECK_MIN_SHARE ? "  <-- under 95%" : "");
    return share >= TUNE_CHECK_MIN_SHARE;
}

int tune_check_main(int argc, char **argv)
{
    const char *usage = "usage: gemmprof tune-check TUNE_CSV... (tables of `gemmprof --tune MxNxK -k tf32_auto`)";
    if (argc < 2) {
        fprintf(stderr, "gemmprof tune-check: no tables (%s)\n", usage);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s\n"
                   "  tf32_auto's rule as built against the measured times: per table the plan it\n"
                   "  picks now and its share of the best measured plan, then each tile's measured\n"
                   "  eff (split 1, the largest shape) beside kernels/tf32_configs.def's EFF.\n"
                   "Exit status: 0 every pick within 5%% of its table's best plan, 1 one is not (or\n"
                   "was not measured), 2 bad arguments or an unreadable table.\n", usage);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "gemmprof tune-check: unknown option '%.60s' (%s)\n", argv[i], usage);
            return 2;
        }
    struct tc_table *t = malloc(sizeof *t), *largest = malloc(sizeof *largest);
    char err[1200];
    int rc = 0, have_largest = 0;
    if (!t || !largest) {
        fprintf(stderr, "gemmprof tune-check: out of memory\n");
        free(t);
        free(largest);
        return 2;
    }
    printf("%-17s %-30s %9s  %-30s %9s  %s\n", "shape", "the rule's pick, as built", "its ms", "best plan measured",
           "best ms", "pick/best");
    for (int i = 1; i < argc && rc != 2; i++) {
        if (tc_read(argv[i], t, err, sizeof err)) {
            fprintf(stderr, "gemmprof tune-check: %s\n", err);
            rc = 2;
        } else {
            if (!tc_judge(argv[i], t))
                rc = 1;
            if (!have_largest || (double)t->m * t->n * t->k > (double)largest->m * largest->n * largest->k)
                *largest = *t, have_largest = 1;
        }
    }
    if (rc != 2 && have_largest) {
        printf("eff of each tile unsplit at %ldx%ldx%ld (measured / EFF in kernels/tf32_configs.def):", largest->m,
               largest->n, largest->k);
        for (int c = 0; c < tf32_config_count; c++)
            if (isnan(largest->eff1[c]))
                printf(" %s -/%.3f", tf32_configs[c].name, tf32_configs[c].eff);
            else
                printf(" %s %.3f/%.3f", tf32_configs[c].name, largest->eff1[c], tf32_configs[c].eff);
        printf("\n");
    }
    free(t);
    free(largest);
    return rc;
}

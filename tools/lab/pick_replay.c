/* The rule's pick at each tuner table (tune.csv, as `gemmprof --tune` writes it: every plan
 * of every kind, padded, peeled, tail and stream-K ones included), recomputed by the model
 * as built here with the table's own blocks per SM: the pick, its measured time against the
 * table's best, and the plans the model offers that the table did not measure (a table
 * from an older rule lacks a newer rule's candidates).
 *   cc -O2 -I. tools/lab/pick_replay.c analysis/csv.c analysis/infile.c -lm -o /tmp/pick_replay
 *   /tmp/pick_replay [-v] [narrow:TILE=BLOCKS] [padded:TILE=BLOCKS] results/h100/tune/simt/TABLE.csv ...
 * -v: also a line per measured candidate, its estimate beside its time.
 * The model's source is included: a lab tool, not a user's. */
#include "kernels/simt_plan.c"

#include <stdlib.h>

#include "analysis/csv.h"

enum { MAXROWS = 4096 };
struct row {
    char config[128];
    double t;   /* NaN where the plan did not run ok */
};
static struct row rows[MAXROWS];

int main(int argc, char **argv)
{
    double worst = 1;
    int tables = 0, under95 = 0;
    /* narrow:NAME=B, padded:NAME=B: that path's blocks per SM of tile NAME, over the tables'
     * (an older table gives every path the 16-byte kernel's) */
    int over[2][SIMT_MAX_CONFIGS] = {{0}};
    int verbose = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-v") == 0) {
            verbose = 1;
            continue;
        }
        const int padded = strncmp(argv[a], "padded:", 7) == 0;
        if (!padded && strncmp(argv[a], "narrow:", 7) != 0)
            continue;
        char name[64];
        const char *eq = strchr(argv[a], '=');
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - argv[a] - 7) : 0, argv[a] + 7);
        const int c = simt_config_find(name);
        if (!eq || c < 0 || atoi(eq + 1) < 1) {
            fprintf(stderr, "pick_replay: %s: want narrow:TILE=BLOCKS or padded:TILE=BLOCKS\n", argv[a]);
            return 2;
        }
        over[padded][c] = atoi(eq + 1);
    }
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "narrow:", 7) == 0 || strncmp(argv[a], "padded:", 7) == 0 || strcmp(argv[a], "-v") == 0)
            continue;
        struct csv_reader r;
        char err[512];
        if (csv_open(&r, argv[a], err, sizeof err) != 0) {
            fprintf(stderr, "pick_replay: %s\n", err);
            return 2;
        }
        if (csv_next(&r, err, sizeof err) != 1) {
            fprintf(stderr, "pick_replay: %s: no header\n", argv[a]);
            return 2;
        }
        enum { M, N, K, CONFIG, NAME, PER_SM, TIME, STATUS, NCOLS };
        static const char *const names[NCOLS] = {"m", "n", "k", "config", "config_name", "blocks_per_sm",
                                                 "time_median_s", "status"};
        int col[NCOLS];
        for (int c = 0; c < NCOLS; c++)
            if ((col[c] = csv_find_column(r.fields, r.nfields, names[c])) < 0) {
                fprintf(stderr, "pick_replay: %s is not a tuner table (no %s column)\n", argv[a], names[c]);
                return 2;
            }
        struct simt_machine mc = {.sms = 132};
        long m = 0, n = 0, k = 0;
        int nrows = 0, got;
        while ((got = csv_next(&r, err, sizeof err)) == 1 && nrows < MAXROWS) {
            char *const *f = r.fields;
            if (r.nfields < NCOLS || r.nfields <= col[STATUS])
                continue;
            m = atol(f[col[M]]), n = atol(f[col[N]]), k = atol(f[col[K]]);
            snprintf(rows[nrows].config, sizeof rows[nrows].config, "%s", f[col[CONFIG]]);
            const int c = simt_config_find(f[col[NAME]]);
            if (c >= 0) {
                /* the row's own kernel: stream-K, or the GEMM kernel on the row's path */
                const int path = simt_plan_path(c, n, k, strstr(f[col[CONFIG]], " padB") != NULL);
                simt_machine_per_sm(&mc, strstr(f[col[CONFIG]], "streamk") != NULL, path)[c] = atoi(f[col[PER_SM]]);
            }
            rows[nrows].t = strcmp(f[col[STATUS]], "ok") == 0 ? atof(f[col[TIME]]) : NAN;
            nrows++;
        }
        csv_close(&r);
        for (int c = 0; c < SIMT_MAX_CONFIGS; c++)
            for (int padded = 0; padded < 2; padded++)
                if (over[padded][c])
                    simt_machine_per_sm(&mc, 0, padded ? SIMT_PATH_PADDED : SIMT_PATH_NARROW)[c] = over[padded][c];
        if (got < 0) {
            fprintf(stderr, "pick_replay: %s\n", err);
            return 2;
        }
        double best = INFINITY;
        for (int i = 0; i < nrows; i++)
            if (rows[i].t < best)
                best = rows[i].t;
        static struct simt_plan cand[SIMT_MAX_PLANS];
        const int nc = simt_plan_candidates(&mc, m, n, k, cand, SIMT_MAX_PLANS);
        int unmeasured = 0;
        for (int j = 0; j < nc; j++) {
            char d[128];
            simt_plan_describe(&cand[j], d, sizeof d);
            int found = -1;
            for (int i = 0; i < nrows && found < 0; i++)
                if (strcmp(rows[i].config, d) == 0)
                    found = i;
            unmeasured += found < 0;
            if (verbose && found >= 0 && rows[found].t == rows[found].t)
                printf("  plan %-52s est %8.1f us meas %8.1f us  meas/est %.3f\n", d,
                       cand[j].est_cycles * 1e6 / SIMT_MODEL_SM_HZ, rows[found].t * 1e6,
                       rows[found].t * SIMT_MODEL_SM_HZ / cand[j].est_cycles);
        }
        const struct simt_plan pick = simt_plan_pick(&mc, m, n, k);
        char d[128];
        simt_plan_describe(&pick, d, sizeof d);
        double t = NAN;
        for (int i = 0; i < nrows; i++)
            if (strcmp(rows[i].config, d) == 0)
                t = rows[i].t;
        const double share = best / t;
        printf("%ldx%ldx%ld %-52s est %7.1f us meas %7.1f us best %7.1f us: %5.1f%%  (%d of %d candidates not in the table)\n",
               m, n, k, d, pick.est_cycles * 1e6 / SIMT_MODEL_SM_HZ, t * 1e6, best * 1e6, 100 * share, unmeasured, nc);
        tables++;
        if (share == share) {
            worst = fmin(worst, share);
            under95 += share < 0.95;
        }
    }
    printf("%d tables: worst pick %.1f%% of the best, %d under 95%%\n", tables, 100 * worst, under95);
    return 0;
}

/* The rule's pick at each tuner table (tune.csv, as `gemmprof --tune` writes it: every plan
 * of every kind, padded, peeled, tail and stream-K ones included), recomputed by the model
 * as built here with the table's own blocks per SM: the pick, its measured time against the
 * table's best, and the plans the model offers that the table did not measure (a table
 * from an older rule lacks a newer rule's candidates).
 *   cc -O2 -I. tools/lab/pick_replay.c -lm -o /tmp/pick_replay
 *   /tmp/pick_replay results/h100/tune/simt/TABLE.csv ...
 * The model's source is included: a lab tool, not a user's. */
#include "kernels/simt_plan.c"

#include <stdlib.h>

enum { MAXROWS = 4096 };
struct row {
    char config[128];
    double t;
};
static struct row rows[MAXROWS];

/* the index of column NAME in a CSV header line, or -1 */
static int column(const char *header, const char *name)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", header);
    int i = 0;
    for (char *tok = strtok(buf, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), i++)
        if (strcmp(tok, name) == 0)
            return i;
    return -1;
}

/* field I of a CSV line (no quoted fields in a tuner table) into OUT */
static void field(const char *line, int want, char *out, size_t len)
{
    int i = 0;
    const char *p = line;
    while (i < want && (p = strchr(p, ',')) != NULL)
        p++, i++;
    if (!p) {
        out[0] = 0;
        return;
    }
    size_t n = strcspn(p, ",\r\n");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

int main(int argc, char **argv)
{
    double worst = 1;
    int tables = 0, under95 = 0;
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "pick_replay: cannot open %s\n", argv[a]);
            return 2;
        }
        char line[4096];
        if (!fgets(line, sizeof line, f)) {
            fclose(f);
            continue;
        }
        const int cm = column(line, "m"), cn = column(line, "n"), ck = column(line, "k"),
                  ccfg = column(line, "config"), cname = column(line, "config_name"),
                  cbps = column(line, "blocks_per_sm"), ct = column(line, "time_median_s"),
                  cst = column(line, "status");
        if (cm < 0 || ccfg < 0 || cname < 0 || cbps < 0 || ct < 0 || cst < 0) {
            fprintf(stderr, "pick_replay: %s is not a tuner table\n", argv[a]);
            return 2;
        }
        struct simt_machine mc = {132, {0}, {0}, {0}};
        long m = 0, n = 0, k = 0;
        int nrows = 0;
        while (fgets(line, sizeof line, f) && nrows < MAXROWS) {
            char v[128], name[64], st[16];
            field(line, cst, st, sizeof st);
            field(line, cname, name, sizeof name);
            field(line, cm, v, sizeof v), m = atol(v);
            field(line, cn, v, sizeof v), n = atol(v);
            field(line, ck, v, sizeof v), k = atol(v);
            field(line, ccfg, rows[nrows].config, sizeof rows[nrows].config);
            field(line, cbps, v, sizeof v);
            const int c = simt_config_find(name);
            if (c >= 0)
                (strstr(rows[nrows].config, "streamk") ? mc.streamk_per_sm : mc.blocks_per_sm)[c] = atoi(v);
            field(line, ct, v, sizeof v);
            rows[nrows].t = strcmp(st, "ok") == 0 ? atof(v) : NAN;
            nrows++;
        }
        fclose(f);
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
            int found = 0;
            for (int i = 0; i < nrows && !found; i++)
                found = strcmp(rows[i].config, d) == 0;
            unmeasured += !found;
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

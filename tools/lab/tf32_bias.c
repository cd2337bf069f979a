/* tf32_auto's estimate of every plan of the tuner tables given (tables of `gemmprof --tune
 * MxNxK -k tf32_auto`), recomputed by the model as built here with each table's blocks per
 * SM, beside its measured time: a line per plan, tab-separated, for tools/lab/ scripts that
 * group them (whether a copy runs first, so that the kernel is a dependent launch; the grid
 * against its slots).
 *   cc -O2 -I. tools/lab/tf32_bias.c kernels/simt_plan.c analysis/csv.c analysis/infile.c -lm -o /tmp/tf32_bias
 *   /tmp/tf32_bias results/h200/tune/tf32/TABLE.csv ...
 * The model's source is included: a lab tool, not a user's. */
#include "kernels/tf32_plan.c"

#include <stdlib.h>

#include "analysis/csv.h"

enum { MAXROWS = 4096 };
struct row {
    int config, split, load, reduce;
    double t;
};
static struct row rows[MAXROWS];

int main(int argc, char **argv)
{
    printf("shape\tconfig\tgrid\tblocks_per_sm\tsms\tcopied\tmeas_us\test_us\n");
    for (int a = 1; a < argc; a++) {
        struct csv_reader r;
        char err[512];
        if (csv_open(&r, argv[a], err, sizeof err) || csv_next(&r, err, sizeof err) != 1) {
            fprintf(stderr, "tf32_bias: %s: %s\n", argv[a], err);
            continue;
        }
        static const char *const names[] = {"m", "n", "k", "sms", "config_name", "split", "status",
                                            "blocks_per_sm", "time_median_s", "config", "variant"};
        int col[11], ok = 1;
        for (int i = 0; i < 11; i++)
            ok &= (col[i] = csv_find_column(r.fields, r.nfields, names[i])) >= 0;
        if (!ok) {
            csv_close(&r);
            continue;
        }
        struct tf32_machine mc;
        memset(&mc, 0, sizeof mc);
        long m = 0, n = 0, k = 0;
        int nrows = 0;
        while (csv_next(&r, err, sizeof err) == 1 && nrows < MAXROWS) {
            char **f = r.fields;
            if (r.nfields <= col[9] || strcmp(f[col[10]], "tf32_auto") != 0)
                continue;
            const int c = tf32_config_find(f[col[4]]);
            if (c < 0)
                continue;
            m = atol(f[col[0]]), n = atol(f[col[1]]), k = atol(f[col[2]]);
            mc.sms = atoi(f[col[3]]);
            mc.blocks_per_sm[c] = atoi(f[col[7]]);
            const char *cfg = f[col[9]];
            struct row *w = &rows[nrows++];
            w->config = c;
            w->split = atoi(f[col[5]]);
            w->load = strstr(cfg, " copyA") ? TF32_LOAD_COPY_A : strstr(cfg, " direct") ? TF32_LOAD_DIRECT
                      : strstr(cfg, " mapsB") ? TF32_LOAD_MAPS_B : strstr(cfg, " mapsA") ? TF32_LOAD_MAPS_A
                                                                                            : TF32_LOAD_TMA;
            w->reduce = strstr(cfg, " reduce") != NULL;
            w->t = strcmp(f[col[6]], "ok") == 0 ? atof(f[col[8]]) : NAN;
        }
        csv_close(&r);
        for (int i = 0; i < nrows; i++) {
            struct tf32_plan p;
            if (isnan(rows[i].t) ||
                tf32_plan_make_kind(&mc, m, n, k, rows[i].config, rows[i].split, rows[i].load, rows[i].reduce, &p))
                continue;
            const int copied = p.copy_a || (k % 4 != 0 && !(p.direct & TF32_DIRECT_A) && !p.maps_a) ||
                               (n % 4 != 0 && !(p.direct & TF32_DIRECT_B) && !p.maps_b);
            char what[96];
            tf32_plan_describe(&p, what, sizeof what);
            printf("%ldx%ldx%ld\t%s\t%ld\t%d\t%d\t%d\t%.2f\t%.2f\n", m, n, k, what, tf32_plan_grid_blocks(&p),
                   blocks_per_sm(&mc, p.config), mc.sms, copied, rows[i].t * 1e6, p.est_cycles / TF32_MODEL_SM_HZ * 1e6);
        }
    }
    return 0;
}

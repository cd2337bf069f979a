/* The rule's estimate against the tuner's measured time, for every split plan (not stream-K,
 * not tail) of recorded tables in the replay layout (tests/data/h*_simt_tune*.csv,
 * tools/lab/tune_rows.py): measured / estimated by how the plan's blocks fill the slots, for
 * plans of 8 slices and more (one wave or more; the last wave 90% full or less), and per
 * table shape the best one-wave plan filling 85% of the slots or more, against the shape's best.
 *   cc -O2 -I. tools/lab/plan_fit.c -lm -o /tmp/plan_fit
 *   /tmp/plan_fit [-v] TABLE...        (-v: a line per plan as well)
 * The model's static helpers are reached by including its source: a lab tool, not a user's. */
#include "kernels/simt_plan.c"
#include "tests/simt_tune_table.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { GROUPS = 6, MAXR = 8192, MAXV = 20000 };
static double ratio[GROUPS][MAXV];
static int nratio[GROUPS];
static const char *const group_name[GROUPS] = {"one wave, last under 90% full", "one wave, 90% full or more",
                                               "two waves, last under 90% full", "two waves, 90% full or more",
                                               "3+ waves, last under 90% full", "3+ waves, 90% full or more"};

int main(int argc, char **argv)
{
    static struct tune_row row[MAXR];
    static struct simt_plan cand[SIMT_MAX_PLANS];
    const int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    for (int a = 1 + verbose; a < argc; a++) {
        int unknown;
        const int nr = tune_table_read(argv[a], row, MAXR, &unknown);
        if (nr < 0) {
            perror(argv[a]);
            return 2;
        }
        for (int first = 0; first < nr;) {
            const int end = tune_table_shape_end(row, first, nr);
            struct simt_machine mc = tune_table_machine(row, first, end);
            double best = INFINITY, best_fill = INFINITY;
            char fill_name[160] = "";
            for (int i = first; i < end; i++)
                best = fmin(best, row[i].t);
            const int nc = simt_plan_candidates(&mc, row[first].m, row[first].n, row[first].k, cand, SIMT_MAX_PLANS);
            for (int j = 0; j < nc; j++) {
                const struct simt_plan *p = &cand[j];
                if (p->streamk || p->head_m || p->split < 2)
                    continue;
                for (int i = first; i < end; i++) {
                    if (row[i].config != p->config || row[i].split != p->split || row[i].pad != (p->pad_n > 0) ||
                        row[i].peel != (p->peel_m > 0) || row[i].tail || row[i].sk)
                        continue;
                    const long slots = slots_of(&mc, p->config, p->path);
                    const double est = p->est_cycles / SIMT_MODEL_SM_HZ, waves = (double)p->blocks / slots;
                    const double last = waves - ceil(waves) + 1; /* the last wave's fill, (0, 1] */
                    char name[96];
                    simt_plan_describe(p, name, sizeof name);
                    if (verbose)
                        printf("%ldx%ldx%ld %s blocks %ld slots %ld est %.2f us measured %.2f us best %.2f us\n",
                               row[i].m, row[i].n, row[i].k, name, p->blocks, slots, est * 1e6, row[i].t * 1e6,
                               best * 1e6);
                    if (p->split >= 8) {
                        const int g = 2 * (waves <= 1 ? 0 : waves <= 2 ? 1 : 2) + (last >= 0.9);
                        if (nratio[g] < MAXV)
                            ratio[g][nratio[g]++] = row[i].t / est;
                        if (waves <= 1 && last >= 0.85 && row[i].t < best_fill) {
                            best_fill = row[i].t;
                            snprintf(fill_name, sizeof fill_name, "%s (%ld of %ld slots)", name, p->blocks, slots);
                        }
                    }
                }
            }
            if (fill_name[0])
                printf("%s %ldx%ldx%ld: best one-wave plan 85%%+ full, split 8+: %s at %.3f of the best\n", argv[a],
                       row[first].m, row[first].n, row[first].k, fill_name, best / best_fill);
            first = end;
        }
    }
    printf("measured / estimated, split plans of 8 slices and more:\n");
    for (int g = 0; g < GROUPS; g++) {
        if (!nratio[g])
            continue;
        qsort(ratio[g], nratio[g], sizeof ratio[g][0], cmp_double);
        const int n = nratio[g];
        printf("  %-32s %5d plans: median %.3f, quartiles %.3f-%.3f\n", group_name[g], n, ratio[g][n / 2],
               ratio[g][n / 4], ratio[g][3 * n / 4]);
    }
    return 0;
}

/* gemmprof plots: the arguments of plots_render_ex (analysis/plots.h), and what it did
 * said on stdout and stderr. */
#include "src/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dataset.h"
#include "analysis/plots.h"

int plots_cli(int argc, char **argv)
{
    const char *dir = NULL;
    struct plots_options opt = {NULL, -1};
    char err[4096];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: gemmprof plots DIR [--max-shape-charts N]\n"
                   "  Renders DIR's charts (PNG and SVG) with gnuplot from its results.csv,\n"
                   "  results.json and ceilings.csv; no GPU needed.\n"
                   "  --max-shape-charts N   hierarchical rooflines for the main shape and N others\n"
                   "                         (default %d, at most %d)\n"
                   "Exit status: 0 every chart the data allows was rendered, 1 a chart failed or the\n"
                   "data could not be read (the others are still rendered), 2 bad arguments.\n",
                   PLOTS_SHAPE_CHARTS_DEFAULT, PLOTS_SHAPE_CHARTS_LIMIT);
            return 0;
        }
        if (strcmp(argv[i], "--max-shape-charts") == 0) {
            if (++i >= argc || plots_parse_max_shape_charts(argv[i], &opt.max_shape_charts, err, sizeof err)) {
                fprintf(stderr, "gemmprof plots: %s\n", i >= argc ? "--max-shape-charts needs a number" : err);
                return 2;
            }
        } else if (argv[i][0] == '-' || dir) {
            fprintf(stderr, "gemmprof plots: unexpected argument '%.60s' (usage: gemmprof plots DIR "
                    "[--max-shape-charts N])\n", argv[i]);
            return 2;
        } else {
            dir = argv[i];
        }
    }
    if (!dir) {
        fprintf(stderr, "gemmprof plots: missing the results directory (usage: gemmprof plots DIR "
                "[--max-shape-charts N])\n");
        return 2;
    }
    struct gp_dataset *ds = malloc(sizeof *ds);
    struct plots_outcome *po = malloc(sizeof *po);
    int rc = 1;
    if (!ds || !po) {
        fprintf(stderr, "gemmprof plots: out of memory\n");
    } else if (dataset_load(dir, ds, err, sizeof err)) {
        fprintf(stderr, "gemmprof plots: %s\n", err);
    } else {
        int n = plots_render_ex(ds, dir, &opt, po, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "gemmprof plots: %s\n", err);
        } else {
            printf("%d charts written to %s/\n", n, dir);
            for (int i = 0; i < po->ncharts; i++)
                if (!po->chart[i].rendered)
                    fprintf(stderr, "gemmprof plots: chart %s FAILED: %s\n", po->chart[i].name,
                            po->chart[i].why);
            if (po->shapes_left_out)
                printf("hierarchical rooflines for %d of %d shapes with counters; %d left out "
                       "(--max-shape-charts N raises the bound of %d, up to %d)\n",
                       po->shapes_with_counters - po->shapes_left_out, po->shapes_with_counters,
                       po->shapes_left_out, po->max_shape_charts, PLOTS_SHAPE_CHARTS_LIMIT);
            if (po->notes[0])
                printf("%s\n", po->notes);
            rc = po->failed ? 1 : 0;
        }
        dataset_free(ds);
    }
    free(ds);
    free(po);
    return rc;
}

/* gemmprof report: the arguments of report_render (analysis/report.h), or of the README
 * summary block (summary_main, analysis/summary.h). */
#include "src/cmd.h"

#include <stdio.h>
#include <string.h>

#include "analysis/dataset.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "analysis/summary.h"

static int usage(const char *why)
{
    fprintf(stderr, "gemmprof report: %s (usage: gemmprof report DIR [--out FILE_OR_DIR] [--no-plots] "
            "[--max-shape-charts N] [--ceilings-any-gpu] | gemmprof report DIR --summary|--causes [--ceilings-any-gpu])\n",
            why);
    return 2;
}

int report_main(int argc, char **argv)
{
    const char *dir = NULL;
    int summary = 0;
    struct report_options opt = {NULL, 0, -1, 0, 0, stdout};
    char why[256];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: gemmprof report DIR [--out FILE_OR_DIR] [--no-plots] [--max-shape-charts N]\n"
                   "                              [--ceilings-any-gpu]\n"
                   "       gemmprof report DIR --summary [--ceilings-any-gpu]\n"
                   "  Writes report.md (and the charts) from the results directory DIR; no GPU needed.\n"
                   "  --out F          a file (a name ending in .md) or a directory (existing, named\n"
                   "                   with a trailing '/', or any other missing path: created)\n"
                   "  --no-plots       no charts, none linked\n"
                   "  --max-shape-charts N   hierarchical rooflines for the main shape and N others\n"
                   "  --summary        print README.md's summary block of DIR to stdout (table,\n"
                   "                   limiters, ceilings, machine) and write nothing\n"
                   "  --causes         print each row's diagnosis to stdout, tab-separated: the top\n"
                   "                   finding, the binding roof and every cause with its speedup\n"
                   "  --ceilings-any-gpu  use a ceilings.csv measured on another GPU than results.json\n"
                   "                   names (without it those ceilings are left out, with a warning)\n"
                   "Exit status: 0 written (or printed); 1 the data or the output could not be used, or a chart\n"
                   "failed (the report is still written and names it); 2 bad arguments.\n");
            return 0;
        }
        if (strcmp(argv[i], "--out") == 0) {
            if (++i >= argc)
                return usage("--out needs a file or directory");
            opt.out = argv[i];
        } else if (strcmp(argv[i], "--no-plots") == 0) {
            opt.no_plots = 1;
        } else if (strcmp(argv[i], "--summary") == 0) {
            summary = 1;
        } else if (strcmp(argv[i], "--causes") == 0) {
            summary = 2;
        } else if (strcmp(argv[i], "--ceilings-any-gpu") == 0) {
            opt.load_flags |= GP_LOAD_CEILINGS_ANY_GPU;
        } else if (strcmp(argv[i], "--measured-here") == 0) {
            opt.measured_here = 1;
        } else if (strcmp(argv[i], "--max-shape-charts") == 0) {
            if (++i >= argc)
                return usage("--max-shape-charts needs a number");
            if (plots_parse_max_shape_charts(argv[i], &opt.max_shape_charts, why, sizeof why))
                return usage(why);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            snprintf(why, sizeof why, "unknown option '%.60s'", argv[i]);
            return usage(why);
        } else if (!dir) {
            dir = argv[i];
        } else {
            snprintf(why, sizeof why, "one results directory expected, got also '%.60s'", argv[i]);
            return usage(why);
        }
    }
    if (!dir)
        return usage("missing the results directory");
    if (summary && (opt.out || opt.no_plots || opt.max_shape_charts >= 0))
        return usage("--summary and --causes print to stdout and take no option but --ceilings-any-gpu");
    if (summary)
        return summary_main(dir, opt.load_flags, summary == 2);
    return report_render(dir, &opt);
}

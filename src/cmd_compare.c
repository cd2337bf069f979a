/* gemmprof compare: the arguments of compare_dirs (analysis/compare.h). */
#include "src/cmd.h"

#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/message.h"
#include "analysis/numparse.h"

static int usage(const char *why)
{
    gp_message("compare: %s (usage: gemmprof compare BASE NEW [--out FILE] [--threshold PCT])", why);
    return 2;
}

int compare_main(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL}, *out = NULL;
    double threshold = COMPARE_THRESHOLD_DEFAULT_PCT;
    char err[1200];
    int ndirs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0) {
            if (++i >= argc)
                return usage("--out needs a file");
            out = argv[i];
        } else if (strcmp(argv[i], "--threshold") == 0) {
            if (++i >= argc)
                return usage("--threshold needs a percentage");
            if (parse_real(argv[i], 0, 1000, &threshold)) {
                char why[160];
                snprintf(why, sizeof why, "--threshold: '%.40s' is not a percentage from 0 to 1000", argv[i]);
                return usage(why);
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: gemmprof compare BASE NEW [--out FILE] [--threshold PCT]\n"
                   "  Compares two results directories row by row (variant x shape): time ratio,\n"
                   "  TFLOP/s, a verdict judged against the runs' own min-max spread, and the\n"
                   "  counters that moved most. Markdown to stdout (and to FILE with --out).\n"
                   "  --threshold PCT   a slower or faster verdict also needs the median to move by\n"
                   "                    more than PCT percent (default %.1f)\n"
                   "Exit status: 0 no row slower, 1 a row slower beyond the noise, 2 bad arguments\n"
                   "or an unreadable results directory.\n", COMPARE_THRESHOLD_DEFAULT_PCT);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            snprintf(err, sizeof err, "unknown option '%.100s'", argv[i]);
            return usage(err);
        } else if (ndirs < 2) {
            dirs[ndirs++] = argv[i];
        } else {
            return usage("two results directories expected, got a third");
        }
    }
    if (ndirs < 2)
        return usage("two results directories expected");
    return compare_dirs(dirs[0], dirs[1], threshold, out);
}

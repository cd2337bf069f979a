/* gemmprof merge: the arguments of merge_run (analysis/merge.h). */
#include "src/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/merge.h"
#include "analysis/message.h"

static int usage(const char *why)
{
    gp_message("merge: %s; usage: " MERGE_USAGE, why);
    return MERGE_EXIT_USAGE;
}

int merge_main(int argc, char **argv)
{
    const char *out = NULL;
    int allow_mixed = 0, force = 0, ndirs = 0;
    char err[8192];
    const char **dirs = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *dirs);
    if (!dirs) {
        gp_message("merge: out of memory");
        return MERGE_EXIT_FAILED;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--allow-mixed") == 0)
            allow_mixed = 1;
        else if (strcmp(argv[i], "--force") == 0)
            force = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: " MERGE_USAGE "\n");
            free(dirs);
            return MERGE_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            free(dirs);
            snprintf(err, sizeof err, "unknown option '%s'", argv[i]);
            return usage(err);
        } else if (!out)
            out = argv[i];
        else
            dirs[ndirs++] = argv[i];
    }
    int rc = !out || ndirs == 0 ? usage(out ? "no rank directory given" : "no output directory given")
                                : merge_run(out, dirs, ndirs, allow_mixed, force);
    free(dirs);
    return rc;
}

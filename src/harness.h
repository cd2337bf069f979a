/* The sweep: for each shape and variant, verify, time, collect counters, and write the
 * row as soon as it is complete. */
#ifndef GEMMPROF_SRC_HARNESS_H
#define GEMMPROF_SRC_HARNESS_H

#include "src/cli.h"

/* Runs the sweep of `opts`; `argc/argv` go into the JSON sidecar. Returns an exit code. */
int harness_run(const struct cli_options *opts, int argc, char **argv);

#endif

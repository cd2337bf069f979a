/* gemmprof --tune (src/tune.c): every plan simt_auto could run at one shape, timed as
 * the sweep times a variant. */
#ifndef GEMMPROF_SRC_TUNE_H
#define GEMMPROF_SRC_TUNE_H

struct run;

/* Runs in place of the sweep; returns the exit code. */
int tune_run(struct run *r);

#endif

/* gemmprof --tune (src/tune.c; src/tune_tf32.c for -k tf32_auto): every plan an auto
 * variant could run at one shape, timed as the sweep times a variant. */
#ifndef GEMMPROF_SRC_TUNE_H
#define GEMMPROF_SRC_TUNE_H

struct run;

/* Runs in place of the sweep; returns the exit code. */
int tune_run(struct run *r);

/* The same for tf32_auto's plans (src/tune_tf32.c, `--tune MxNxK -k tf32_auto`). */
int tune_tf32_run(struct run *r);

#endif

/* gemmprof compare BASE NEW: did a change make each variant x shape faster or slower,
 * and which counters moved. Host-only; reads two results directories.
 *
 * Verdict per row present in both runs (the rule, stated once):
 *   slower  new's fastest repetition is slower than base's slowest (the two runs' own
 *           min-max intervals do not overlap) and the median grew by more than the
 *           threshold;
 *   faster  the mirror image;
 *   same    otherwise.
 * The threshold (default COMPARE_THRESHOLD_DEFAULT_PCT) exists because repetitions within
 * one process vary less than processes do: on the H200, two runs of the same kernels had
 * disjoint intervals for tiled at 8192^3 with medians 0.04% apart. */
#ifndef GEMMPROF_ANALYSIS_COMPARE_H
#define GEMMPROF_ANALYSIS_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/dataset.h"

#define COMPARE_THRESHOLD_DEFAULT_PCT 1.0
#define COMPARE_TOP_COUNTERS 3

enum compare_verdict { VERDICT_SAME, VERDICT_FASTER, VERDICT_SLOWER, VERDICT_UNTIMED };

struct compare_moved {
    int metric;          /* index into gp_metrics */
    double base, fresh;  /* the two values; ratio fresh/base (infinite from 0) */
};

struct compare_row {
    const struct gp_result *base, *fresh;   /* fresh NULL: in BASE only; base NULL: NEW only */
    double time_ratio;                      /* new median / base median */
    double clock_ratio;                     /* new SM clock / base SM clock, NaN if unknown */
    enum compare_verdict verdict;
    struct compare_moved moved[COMPARE_TOP_COUNTERS];
    int nmoved;
};

struct compare_result {
    struct compare_row *rows;
    int nrows;
    int slower, faster, same, only_base, only_new;
    int gpu_differs, version_differs;
};

/* Pairs the rows of two loaded runs by variant and shape and judges each. threshold_pct
 * >= 0. 0, or -1 when out of memory. */
int compare_runs(const struct gp_dataset *base, const struct gp_dataset *fresh, double threshold_pct,
                 struct compare_result *out);
void compare_free(struct compare_result *c);

/* The comparison as Markdown. */
void compare_write_markdown(FILE *f, const struct gp_dataset *base, const struct gp_dataset *fresh,
                            double threshold_pct, const struct compare_result *c);

/* Loads the results directories base and fresh, compares them (threshold_pct as in
 * compare_runs) and prints the Markdown to stdout, and to the file out unless it is NULL
 * (written atomically). Returns the exit status of `gemmprof compare` (src/cmd_compare.c):
 * 0 no row slower, 1 at least one row slower beyond the noise, 2 an unreadable results
 * directory or output; what failed is one line on stderr. */
int compare_dirs(const char *base, const char *fresh, double threshold_pct, const char *out);

#endif

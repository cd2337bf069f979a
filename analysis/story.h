/* The physical story of a run, in words a learner reads in a minute: why register tiling
 * is what pays, and why tensor cores change the roof. Each paragraph is chosen and filled
 * from the run's rows and ceilings at one shape (never a hard-coded figure), and is the
 * same in report.md's summary and in `gemmprof report DIR --summary`;
 * tests/host/test_summary_facts.sh recomputes every number from results.csv and
 * ceilings.csv. */
#ifndef GEMMPROF_ANALYSIS_STORY_H
#define GEMMPROF_ANALYSIS_STORY_H

#include <stddef.h>

#include "analysis/dataset.h"
#include "analysis/roofline.h"

struct story_input {
    const struct gp_dataset *ds;
    const struct gp_roof *roof;        /* one per row, from roof_derive_rows */
    const unsigned char *usable;       /* one per row */
    const struct gp_ceilings *cs;      /* the ceilings as the roofs used them (NULL: none) */
    const int *idx;                    /* the rows at the shape, in the dataset's order */
    int cnt;
};

/* "**Why register tiling is what pays:** ...": the FP32 SIMT kernels at the shape whose
 * shared-memory bytes per FMA set a new low, each with its registers per thread and the
 * cap shared memory sets, up to the first whose cap passes its compute roof. Writes one
 * paragraph without a trailing newline into out; returns 0, or -1 (out = "") when fewer
 * than two such kernels have shared-memory counters. */
int story_register_tiling(const struct story_input *in, char *out, size_t len);

/* "**Why tensor cores change the roof:** ...": the TF32 tensor ceiling against the FP32
 * FMA one, the bytes per FMA shared memory can serve at the tensor rate against the best
 * FP32 SIMT kernel's, the best TF32 kernel's TFLOP/s, bytes per FMA and binding level,
 * and what the best 3xTF32 kernel buys (its speed against the best FP32 SIMT kernel's,
 * its error against the FP64 reference). Returns 0, or -1 (out = "") without both
 * ceilings or without an FP32 SIMT and a TF32 kernel at the shape. */
int story_tensor(const struct story_input *in, char *out, size_t len);

#endif

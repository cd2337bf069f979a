/* The plausibility check of a loaded results directory, run once by dataset_load: a row
 * or a ceiling beyond what the hardware can do is marked implausible with a one-line
 * reason naming the numbers, and every consumer (roof_derive_rows, hence the findings,
 * claims, report, summary and the report's fleet tables) leaves it out.
 *
 * Ceilings: a measured value above GP_PLAUS_OVER x its theoretical one, or below
 * GP_PLAUS_CEIL_UNDER x it; the ceiling's values are then made NaN in ds->ceilings, so
 * the plots do not draw it either, and its reason kept in ds->ceiling_why.
 * Rows (verified, with a time): against each level's ceiling (the larger of measured and
 * theoretical, among the plausible ones) a traffic rate or an achieved FLOP/s above
 * GP_PLAUS_OVER x it; FLOP counters summing to under GP_PLAUS_WORK_UNDER x 2mnk; L2 bytes
 * under GP_PLAUS_BYTES_UNDER x the compulsory 4 (mk + kn + mn), DRAM reads under it x
 * 4 (mk + kn) when the L2 was flushed between repetitions. */
#ifndef GEMMPROF_ANALYSIS_PLAUSIBLE_H
#define GEMMPROF_ANALYSIS_PLAUSIBLE_H

#include <stddef.h>

#include "analysis/dataset_types.h"   /* plausible_row, for the callers of plausible_check */

/* A rate 20% past a roof is no noise: ceilings are measured within a few percent of
 * theory and the recorded H200 run's rows reach at most 77% of any level. */
#define GP_PLAUS_OVER 1.2
/* A ceiling microbenchmark at a tenth of its theory measured something else (the
 * recorded H200's lowest is 77%). */
#define GP_PLAUS_CEIL_UNDER 0.1
/* A GEMM does all of its 2mnk FLOPs (the H200 rows count 1.000x to 3.09x): counters
 * that see half of them missed the kernels. */
#define GP_PLAUS_WORK_UNDER 0.5
/* A matrix is read (and C written) through the L2 at least once; with the L2 flushed,
 * A and B come from DRAM at least once (the H200 rows: 1.00x and up). */
#define GP_PLAUS_BYTES_UNDER 0.5

/* Marks ds's implausible ceilings and rows (allocating ds->row_why, freed by
 * dataset_free); may run again after rows change. 0, or -1 with a one-line reason when out of memory. */
int plausible_check(struct gp_dataset *ds, char *err, size_t errlen);

#endif

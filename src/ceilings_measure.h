/* Measures the machine ceilings of analysis/ceilings.def on a GPU (kernels/ceil_bench.cu
 * plus cuBLAS for TF32), derives the theoretical ones from device attributes, and keeps
 * the measured set in a per-GPU cache file so a run does not re-measure every time.
 *
 *   struct gp_ceilings cs;
 *   if (ceilings_get(0, "/home/me/.cache/gemmprof", 0, &cs, stderr, err, sizeof err) < 0)
 *       fprintf(stderr, "gemmprof: %s\n", err);
 */
#ifndef GEMMPROF_SRC_CEILINGS_MEASURE_H
#define GEMMPROF_SRC_CEILINGS_MEASURE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/ceilings.h"

/* Runs every micro-benchmark on `device` (made current while it runs; the previous
 * current device is restored) and fills `out` completely: ceilings_init, gpu, date,
 * measured, sm_clock_hz, theoretical and theory_source. One progress line per ceiling
 * goes to `log` (NULL: silent). Takes about 1 s on an H200 and ~2.3 GB of device
 * memory (less if less is free). Returns 0, or -1 with a one-line reason in err. */
int ceilings_measure(int device, struct gp_ceilings *out, FILE *log, char *err, size_t errlen);

/* Fills only `theoretical` and `theory_source` of every ceiling of `out` from the
 * device attributes and the per-architecture tables (NaN and a reason where unknown).
 * Returns 0, or -1 if the device cannot be queried. */
int ceilings_theoretical(int device, struct gp_ceilings *out);

/* Writes into buf the cache file of `device` under cache_dir:
 * <cache_dir>/ceilings-<GPU UUID>-<driver version>.csv. Returns 0, or -1 if the device
 * cannot be queried or buf is too small. */
int ceilings_cache_path(int device, const char *cache_dir, char *buf, size_t len);

/* The ceilings of `device`: read from the cache file (ceilings_cache_path) when it
 * exists, belongs to this GPU and is complete, unless `force`; otherwise measured with
 * ceilings_measure and written there (the directory is created; a failed write is only
 * logged). cache_dir NULL: always measure, never cache. Theoretical values are always
 * recomputed, so table fixes apply to old cache files. Returns 1 when read from the
 * cache, 0 when measured, -1 with a one-line reason in err. */
int ceilings_get(int device, const char *cache_dir, int force, struct gp_ceilings *out, FILE *log,
                 char *err, size_t errlen);

#endif

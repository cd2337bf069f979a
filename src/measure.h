/* One variant at one shape, verified and timed as the sweep does it (src/measure.c):
 * shared by the harness, the tuner (src/tune.c) and the counter phase
 * (src/counter_phase.c). */
#ifndef GEMMPROF_SRC_MEASURE_H
#define GEMMPROF_SRC_MEASURE_H

#include <cuda_runtime.h>

struct gemm_variant;
struct gp_result;
struct run;
struct shape_data;

/* A fresh row for variant v at shape s, verified and timed as in the sweep (counters
 * not collected), with the SM clock probed after it; nvtx_id colours its NVTX range
 * (-1: none). A CUDA failure is the row's status and error; a lost context sets
 * r->context_lost. */
void measure_variant(struct run *r, struct shape_data *s, const struct gemm_variant *v, int nvtx_id,
                     struct gp_result *row);
/* Enqueues the L2 flush (a read of 2x the L2) on the sweep's stream. */
cudaError_t run_flush_l2(struct run *r);
/* Monotonic seconds. */
double now_s(void);
/* The median of v[0..n), n >= 1; sorts v. */
double measure_median(double *v, int n);

#endif

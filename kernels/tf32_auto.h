/* tf32_auto's device side, for the tuner (src/tune_tf32.c): the device as the selection
 * rule sees it, and a launch of any plan (kernels/tf32_plan.h). Defined in
 * kernels/16_tf32_auto.cu. */
#ifndef GEMMPROF_KERNELS_TF32_AUTO_H
#define GEMMPROF_KERNELS_TF32_AUTO_H

#include <cuda_runtime.h>

#include "kernels/tf32_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The current device's SM count and each configuration's resident blocks per SM and
 * registers (the occupancy API), queried once per device and cached. cudaSuccess, the
 * query's error, or cudaErrorNotSupported where the sm_90a kernels cannot run. */
cudaError_t tf32_machine_query(struct tf32_machine *mc);

/* Enqueues plan p for C = A * B (row-major) on `stream`: one kernel (split-K reduces in
 * it), after the operands' pitch-padded copies where TMA needs them. The split's workspace
 * is allocated on first need and grown, never inside a launch that needs no more than the
 * last one. Returns the first error. */
cudaError_t tf32_plan_launch(const struct tf32_plan *p, int m, int n, int k, const float *a, const float *b,
                             float *c, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif

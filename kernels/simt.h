/* simt_auto's device side, for the tuner (src/tune.c): the device as the selection rule
 * sees it, and a launch of any plan (kernels/simt_plan.h). Defined in
 * kernels/10_simt_auto.cu. */
#ifndef GEMMPROF_KERNELS_SIMT_H
#define GEMMPROF_KERNELS_SIMT_H

#include <cuda_runtime.h>

#include "kernels/simt_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The current device's SM count and each configuration's resident blocks per SM (the
 * occupancy API), queried once per device and cached. cudaSuccess or the query's error. */
cudaError_t simt_machine_query(struct simt_machine *mc);

/* Enqueues plan p for C = A * B (row-major) on `stream`: the GEMM kernel, and with a
 * split the reduction of the partial products in a second kernel. The split's workspace
 * is allocated on first need and grown, never inside a launch that needs no more than
 * the last one. Returns the first error. */
cudaError_t simt_plan_launch(const struct simt_plan *p, int m, int n, int k, const float *a,
                             const float *b, float *c, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif

/* L2 flush by reading a large buffer (kernels/l2_flush.cu). */
#ifndef GEMMPROF_KERNELS_L2_FLUSH_H
#define GEMMPROF_KERNELS_L2_FLUSH_H

#include <cuda_runtime.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Reads `bytes` (a multiple of 16, at least 2x the L2) of buf through the L2. */
cudaError_t l2_flush_launch(const void *buf, size_t bytes, float *sink, int sm_count,
                            cudaStream_t stream);
/* Invalidates buf's L2 lines (128-byte aligned buf) without write-back. */
cudaError_t l2_discard_launch(void *buf, size_t bytes, int sm_count, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

/* SM clock probe (kernels/clock_probe.cu). */
#ifndef GEMMPROF_KERNELS_CLOCK_PROBE_H
#define GEMMPROF_KERNELS_CLOCK_PROBE_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Writes, per block, (cycles, nanoseconds) pairs into d_out[2 * blocks]. */
cudaError_t clock_probe_launch(int blocks, unsigned long long spin_ns, unsigned long long *d_out,
                               cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

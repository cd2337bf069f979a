/* SM clock probe: one block per SM spins for a fixed wall time, reading the SM cycle
 * counter (clock64) and the global nanosecond timer; cycles / ns is the clock the SMs
 * ran at. Launched right after a timed phase, while the GPU is still at its working
 * clock. Not a GEMM variant. */
#include <cuda_runtime.h>

#include "kernels/clock_probe.h"

static __device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void clock_probe_kernel(unsigned long long spin_ns, unsigned long long *out)
{
    const unsigned long long t0 = global_ns();
    const long long c0 = clock64();
    unsigned long long t1;
    do {
        t1 = global_ns();
    } while (t1 - t0 < spin_ns);
    const long long c1 = clock64();
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = (unsigned long long)(c1 - c0);
        out[2 * blockIdx.x + 1] = t1 - t0;
    }
}

extern "C" cudaError_t clock_probe_launch(int blocks, unsigned long long spin_ns,
                                          unsigned long long *d_out, cudaStream_t stream)
{
    clock_probe_kernel<<<blocks, 32, 0, stream>>>(spin_ns, d_out);
    return cudaGetLastError();
}

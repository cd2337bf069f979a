/* Device helpers shared by the ceiling benchmarks (ceil_bench.cu, ceil_tensor.cu): the
 * in-kernel clock probe documented in kernels/ceil.h and the input hash. */
#ifndef GEMMPROF_KERNELS_CEIL_PROBE_CUH
#define GEMMPROF_KERNELS_CEIL_PROBE_CUH

#include <cuda_runtime.h>

/* "memory" clobbers keep the reads where they are relative to the loads around them. */
static __device__ __forceinline__ unsigned long long ceil_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
    return t;
}

static __device__ __forceinline__ unsigned long long ceil_clock(void)
{
    unsigned long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) : : "memory");
    return c;
}

struct ceil_probe_start { unsigned long long cycles, ns; };

static __device__ __forceinline__ ceil_probe_start probe_begin(const unsigned long long *probe)
{
    ceil_probe_start s = {0, 0};
    if (probe != NULL && blockIdx.x == 0 && threadIdx.x == 0) {
        s.ns = ceil_globaltimer();
        s.cycles = ceil_clock();
    }
    return s;
}

/* The barrier makes "end" the end of the whole block, not of thread 0's share. */
static __device__ __forceinline__ void probe_end(unsigned long long *probe, ceil_probe_start s)
{
    __syncthreads();
    if (probe != NULL && blockIdx.x == 0 && threadIdx.x == 0) {
        const unsigned long long c1 = ceil_clock();
        const unsigned long long t1 = ceil_globaltimer();
        probe[0] = s.cycles;
        probe[1] = c1;
        probe[2] = s.ns;
        probe[3] = t1;
    }
}

/* A 32-bit integer hash (xorshift-multiply rounds); good enough to make the data look
 * random to the memory system and the tensor cores (power, and thus clocks, depend on
 * how many bits toggle). */
static __device__ __forceinline__ unsigned ceil_hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static __device__ __forceinline__ float ceil_unit(unsigned h)
{
    return (float)(h >> 8) * (1.0f / 16777216.0f) - 0.5f;
}

#endif

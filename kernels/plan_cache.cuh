/* The auto variants' plan for the shape of the last call, kept: weighing every plan costs
 * microseconds of host time, which a timed call of a small GEMM would count (its events time
 * the gap before the first launch too). One cache per plan type; single-threaded callers. */
#ifndef GEMMPROF_KERNELS_PLAN_CACHE_CUH
#define GEMMPROF_KERNELS_PLAN_CACHE_CUH

#include <cuda_runtime.h>

/* The rule's pick at m x n x k on the current device: query the device's facts, then pick,
 * unless the last call was at the same shape and device. */
template <class Plan, class Machine>
static cudaError_t plan_cached(int m, int n, int k, Plan *p, cudaError_t (*query)(Machine *),
                               Plan (*pick)(const Machine *, long, long, long))
{
    static int last_m = -1, last_n = -1, last_k = -1, last_dev = -1;
    static Plan last;
    Machine mc;
    int dev;
    cudaError_t err = query(&mc);
    if (err == cudaSuccess)
        err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    if (m != last_m || n != last_n || k != last_k || dev != last_dev) {
        last = pick(&mc, m, n, k);
        last_m = m, last_n = n, last_k = k, last_dev = dev;
    }
    *p = last;
    return cudaSuccess;
}

#endif

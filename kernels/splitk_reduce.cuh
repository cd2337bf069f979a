/* The split-K reduction after a GEMM kernel that wrote `split` partial products of C into
 * a workspace (simt_auto's split plans, tf32_auto's reduce plans): C = their sum, added in
 * a fixed order (the same result every run). Two grids: the plain one, a thread per
 * SIMT_REDUCE_ILP items, and the wide one for few items and many slices; the rule's
 * estimate of both, and which a plan runs, are in kernels/simt_plan.c. */
#ifndef GEMMPROF_KERNELS_SPLITK_REDUCE_CUH
#define GEMMPROF_KERNELS_SPLITK_REDUCE_CUH

#include <stddef.h>

#include "kernels/pdl.cuh"
#include "kernels/simt_plan.h"

static __device__ __forceinline__ float add(float x, float y)
{
    return x + y;
}
static __device__ __forceinline__ float4 add(float4 x, float4 y)
{
    return make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

/* c = sum of the split partial products ws[z] (slices `stride` items apart), added in order
 * of z (the same result every run). Items are float4 when VEC (count % 4 == 0 and c 16-byte
 * aligned; the workspace always is), else floats; item i of C is item i of each partial.
 * A peeled plan's items from `strip_item` on are the strip kernel's rows: their partials
 * start `strip_at` items into ws, slices `strip_stride` apart. Each thread sums SIMT_REDUCE_ILP items
 * at a time and loads SIMT_REDUCE_SLICES slices of them before adding any, so a round of
 * the grid waits for L2 once per group of slices, not once per slice. One block per SM
 * adding one slice at a time was latency-bound: fitted to the H200's tuner tables, a
 * dependent round costs about 0.27 us, and a 4-way split at 1024^3 took 16 of them (about
 * 4 us of a 62 us GEMM). */
template <class T>
static __global__ void __launch_bounds__(SIMT_REDUCE_THREADS)
gemm_simt_splitk_reduce_kernel(const T *__restrict__ ws, T *__restrict__ c, size_t items, int split, size_t stride,
                               size_t strip_item, size_t strip_at, size_t strip_stride)
{
    constexpr int ILP = SIMT_REDUCE_ILP, SLICES = SIMT_REDUCE_SLICES;
    pdl_wait();   /* the GEMM's partials (a peeled plan: the strip's, after the GEMM's) */
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    for (size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x; first < items; first += ILP * threads) {
        T sum[ILP];
        size_t at[ILP], step[ILP];
#pragma unroll
        for (int u = 0; u < ILP; ++u) {
            const size_t i = first + u * threads;
            const bool strip = i >= strip_item;
            const size_t j = strip ? i - strip_item : i;
            at[u] = (strip ? strip_at : 0) + j;
            step[u] = strip ? strip_stride : stride;
            if (i < items)
                sum[u] = ws[at[u]];
        }
        for (int z = 1; z < split; z += SLICES) {
            T part[SLICES][ILP];
#pragma unroll
            for (int j = 0; j < SLICES; ++j)
#pragma unroll
                for (int u = 0; u < ILP; ++u)
                    if (z + j < split && first + u * threads < items)
                        part[j][u] = ws[(size_t)(z + j) * step[u] + at[u]];
#pragma unroll
            for (int j = 0; j < SLICES; ++j)
#pragma unroll
                for (int u = 0; u < ILP; ++u)
                    if (z + j < split && first + u * threads < items)
                        sum[u] = add(sum[u], part[j][u]);
        }
#pragma unroll
        for (int u = 0; u < ILP; ++u)
            if (first + u * threads < items)
                c[first + u * threads] = sum[u];
    }
}

/* The same sum where C has few items (simt_reduce_wide): a block takes 32 items,
 * its SIMT_REDUCE_WIDE_GROUPS warps each every GROUPS-th slice of them (warp g: slices g,
 * g + GROUPS, ...), up to SIMT_REDUCE_WIDE_LOADS loads in flight per thread; warp 0 then
 * adds the other warps' sums in order of g (the same result every run). 100 x 100 in 32
 * slices: 79 blocks, one round of loads, where the kernel above ran 5 blocks through 8. */
template <class T>
static __global__ void __launch_bounds__(SIMT_REDUCE_THREADS)
gemm_simt_splitk_reduce_wide_kernel(const T *__restrict__ ws, T *__restrict__ c, size_t items, int split,
                                    size_t stride, size_t strip_item, size_t strip_at, size_t strip_stride)
{
    constexpr int G = SIMT_REDUCE_WIDE_GROUPS, L = SIMT_REDUCE_WIDE_LOADS, W = SIMT_REDUCE_THREADS / G;
    static_assert(W == 32, "a warp per group: its loads of one slice are 32 consecutive items");
    __shared__ T sums[G - 1][W];
    pdl_wait();   /* the GEMM's partials (a peeled plan: the strip's, after the GEMM's) */
    const int g = (int)threadIdx.x / W, lane = (int)threadIdx.x % W;
    for (size_t first = (size_t)blockIdx.x * W; first < items; first += (size_t)gridDim.x * W) {
        const size_t i = first + lane;
        const bool ok = i < items;
        const bool strip = i >= strip_item;
        const size_t at = (strip ? strip_at : 0) + (strip ? i - strip_item : i);
        const size_t step = strip ? strip_stride : stride;
        T sum{};
        for (int z0 = g; z0 < split; z0 += G * L) {
            T part[L];
#pragma unroll
            for (int j = 0; j < L; ++j)
                if (ok && z0 + j * G < split)
                    part[j] = ws[(size_t)(z0 + j * G) * step + at];
#pragma unroll
            for (int j = 0; j < L; ++j)
                if (ok && z0 + j * G < split)
                    sum = z0 == g && j == 0 ? part[j] : add(sum, part[j]);
        }
        if (g > 0)
            sums[g - 1][lane] = sum;
        __syncthreads();
        if (g == 0 && ok) {
            for (int h = 1; h < G && h < split; ++h)
                sum = add(sum, sums[h - 1][lane]);
            c[i] = sum;
        }
        __syncthreads(); /* sums is written again in the next pass */
    }
}

/* Enqueues the reduction: count items of C (float4 when vec), slices `stride` items apart
 * (a peeled plan's strip items as in the kernels above; none: strip_item = count), the
 * wide grid or the plain one, `blocks` of SIMT_REDUCE_THREADS, `dependent` as in
 * pdl_launch. */
static inline cudaError_t splitk_reduce_launch(const float *part, float *c, size_t count, int split, size_t stride,
                                               size_t strip_item, size_t strip_at, size_t strip_stride, bool vec,
                                               bool wide, unsigned blocks, bool dependent, cudaStream_t stream)
{
    const dim3 grid(blocks), block(SIMT_REDUCE_THREADS);
    if (vec)
        return pdl_launch(dependent,
                          wide ? gemm_simt_splitk_reduce_wide_kernel<float4> : gemm_simt_splitk_reduce_kernel<float4>,
                          grid, block, 0, stream, reinterpret_cast<const float4 *>(part),
                          reinterpret_cast<float4 *>(c), count / 4, split, stride / 4, strip_item / 4, strip_at / 4,
                          strip_stride / 4);
    return pdl_launch(dependent, wide ? gemm_simt_splitk_reduce_wide_kernel<float> : gemm_simt_splitk_reduce_kernel<float>,
                      grid, block, 0, stream, part, c, count, split, stride, strip_item, strip_at, strip_stride);
}

#endif

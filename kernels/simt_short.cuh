/* simt_auto's kernel for few rows (m <= 16, its forms): C = A * B where an element of B feeds only m
 * FMAs, so the tiles of kernels/simt_gemm.cuh (32 rows and up) spend FMAs on rows that are
 * not there and stage B through shared memory for reuse that m rows do not give. This one
 * streams B once, straight into registers: each lane owns CV adjacent columns (a warp's load
 * of one row of B is 32 x CV contiguous floats), the block's warps share those columns and
 * take turns along k (warp w the 4 x USTEP rows of each block step after w's), the next
 * step's rows issued before the current step's FMAs, the first step's before A is staged.
 * A's k-slice (m rows, zeros up to MMAX) sits in shared memory as it lies in A, read as
 * float4 of 4 consecutive k that every lane of the warp reads at once (a broadcast).
 * The warps' partial sums meet in shared memory, 4 rows at a time, added in warp order.
 * Split-K over blockIdx.y as the tiled kernels do: slice z writes its partial product to
 * out + z * m * n (C itself when unsplit), the reduction of kernels/splitk_reduce.cuh adds
 * them in order: no atomics, the same result every run.
 * The forms: kernels/simt_short_forms.def; the rule's estimate: kernels/simt_plan.c. */
#ifndef GEMMPROF_KERNELS_SIMT_SHORT_CUH
#define GEMMPROF_KERNELS_SIMT_SHORT_CUH

#include <stdint.h>

#include "kernels/pdl.cuh"
#include "kernels/simt_plan.h"
#include "kernels/simt_stream.cuh"

template <int MMAX, int CV, int USTEP>
static __global__ void __launch_bounds__(SIMT_SHORT_WARPS * 32, 2) /* 16 warps an SM: B in flight */
gemm_simt_short_kernel(int m, int n, int k, int k_slice, const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ out)
{
    static_assert(MMAX % 4 == 0 && MMAX <= 32, "MMAX: 4 to 32 rows, a multiple of 4");
    static_assert(CV == 4, "CV: 4 columns a lane, a float4 load (2 was measured: too few bytes in flight)");
    constexpr int NT = SIMT_SHORT_WARPS * 32, BN = 32 * CV, KW = 4 * USTEP, KSTEP = SIMT_SHORT_WARPS * KW;
    typedef float4 vec_t;
    extern __shared__ float4 simt_smem[];
    float *const as = reinterpret_cast<float *>(simt_smem); /* [MMAX][k_slice + SIMT_SHORT_PAD] */
    pdl_trigger();   /* the reduction may launch; it waits for this grid's memory */
    const int ld = k_slice + SIMT_SHORT_PAD;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int col = blockIdx.x * BN + lane * CV;
    const int kbeg = blockIdx.y * k_slice, kend = min(k, kbeg + k_slice);

    /* B: CV-float loads where rows start CV-aligned, else CV 4-byte ones (zeros past n and
     * past the slice: A's shared zeros there would not cancel a NaN of the poisoned rest) */
    const bool vec = n % CV == 0 && (reinterpret_cast<uintptr_t>(b) & (sizeof(vec_t) - 1)) == 0;
    float acc[MMAX][CV];
#pragma unroll
    for (int i = 0; i < MMAX; i++)
#pragma unroll
        for (int c = 0; c < CV; c++)
            acc[i][c] = 0.f;
    float cur[KW][CV], next[KW][CV];
    auto load = [&](float(&dst)[KW][CV], int kc) {
#pragma unroll
        for (int r = 0; r < KW; r++) {
            const int kr = kc + r;
            const float *p = b + (size_t)kr * n + col;
            if (kr < kend && vec && col + CV <= n) {
                const vec_t v = __ldg(reinterpret_cast<const vec_t *>(p));
                const float *f = reinterpret_cast<const float *>(&v);
#pragma unroll
                for (int c = 0; c < CV; c++)
                    dst[r][c] = f[c];
            } else {
#pragma unroll
                for (int c = 0; c < CV; c++)
                    dst[r][c] = kr < kend && col + c < n ? __ldg(p + c) : 0.f;
            }
        }
    };
    const int kfirst = kbeg + warp * KW;
    if (kfirst < kend)
        load(cur, kfirst); /* in flight while A's slice is staged */

    /* A's rows kbeg..kend as float4 of 4 consecutive k (four 4-byte loads where A's rows
     * do not start 16-byte aligned), zeros for rows past m and k past the slice */
    {
        const bool avec = k % 4 == 0 && (reinterpret_cast<uintptr_t>(a) & 15) == 0;
        const int quads = k_slice / 4;
        for (int idx = threadIdx.x; idx < MMAX * quads; idx += NT) {
            const int i = idx / quads, kk = 4 * (idx % quads), kg = kbeg + kk;
            const float *p = a + (size_t)i * k + kg;
            float4 v;
            if (i < m && avec && kg + 3 < kend) {
                v = __ldg(reinterpret_cast<const float4 *>(p));
            } else {
                v.x = i < m && kg < kend ? __ldg(p) : 0.f;
                v.y = i < m && kg + 1 < kend ? __ldg(p + 1) : 0.f;
                v.z = i < m && kg + 2 < kend ? __ldg(p + 2) : 0.f;
                v.w = i < m && kg + 3 < kend ? __ldg(p + 3) : 0.f;
            }
            *reinterpret_cast<float4 *>(&as[i * ld + kk]) = v;
        }
    }
    __syncthreads();
    for (int kc = kfirst; kc < kend; kc += KSTEP) {
        if (kc + KSTEP < kend)
            load(next, kc + KSTEP);
#pragma unroll
        for (int u = 0; u < USTEP; u++)
#pragma unroll
            for (int i = 0; i < MMAX; i++) {
                const float4 av = *reinterpret_cast<const float4 *>(&as[i * ld + (kc - kbeg) + 4 * u]);
#pragma unroll
                for (int c = 0; c < CV; c++)
                    acc[i][c] = fmaf(av.w, cur[4 * u + 3][c],
                                     fmaf(av.z, cur[4 * u + 2][c],
                                          fmaf(av.y, cur[4 * u + 1][c], fmaf(av.x, cur[4 * u][c], acc[i][c]))));
            }
#pragma unroll
        for (int r = 0; r < KW; r++)
#pragma unroll
            for (int c = 0; c < CV; c++)
                cur[r][c] = next[r][c];
    }

    /* the warps' sums, 4 rows a round: red[w][q][BN] over A's slice (every warp done with
     * it at the first barrier), each output the sum of the warps in order */
    float *const red = as;
    float *dst = out + (size_t)blockIdx.y * m * n;
#pragma unroll
    for (int r0 = 0; r0 < MMAX; r0 += 4) {
        if (r0 >= m) /* the same for the whole block: no barrier is skipped by some threads only */
            break;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < 4; q++) { /* a lane's CV sums in one store: no bank conflicts */
            vec_t v;
            float *f = reinterpret_cast<float *>(&v);
#pragma unroll
            for (int c = 0; c < CV; c++)
                f[c] = acc[r0 + q][c];
            *reinterpret_cast<vec_t *>(&red[(warp * 4 + q) * BN + lane * CV]) = v;
        }
        __syncthreads();
        for (int o = threadIdx.x; o < 4 * BN; o += NT) {
            const int q = o / BN, cb = o % BN, row = r0 + q, gc = blockIdx.x * BN + cb;
            float s = 0.f;
#pragma unroll
            for (int w = 0; w < SIMT_SHORT_WARPS; w++)
                s += red[(w * 4 + q) * BN + cb];
            if (row < m && gc < n)
                dst[(size_t)row * n + gc] = s;
        }
    }
}

#ifdef __CUDACC__
/* The dynamic shared memory a slice of k_slice needs: A's slice, or the warps' sums of 4
 * rows where those are more */
template <int MMAX, int CV> static inline size_t simt_short_smem(int k_slice)
{
    const size_t slice = (size_t)MMAX * (k_slice + SIMT_SHORT_PAD), sums = (size_t)SIMT_SHORT_WARPS * 4 * 32 * CV;
    return (slice > sums ? slice : sums) * sizeof(float);
}

/* Resident blocks per SM at the largest slice the rule gives it (SIMT_SHORT_SMEM_MAX), and
 * registers per thread */
template <int MMAX, int CV, int USTEP> static cudaError_t simt_short_occupancy(int *blocks, int *regs)
{
    return simt_stream_occupancy(gemm_simt_short_kernel<MMAX, CV, USTEP>, SIMT_SHORT_WARPS * 32, SIMT_SHORT_SMEM_MAX, blocks, regs);
}

/* Enqueues `split` slices of k_slice (a multiple of the block's step, 4 x USTEP x
 * SIMT_SHORT_WARPS, whose A slice fits SIMT_SHORT_SMEM_MAX) into out: C when split is 1,
 * else split * m * n partials. */
template <int MMAX, int CV, int USTEP>
static cudaError_t simt_short_run(int m, int n, int k, int k_slice, int split, const float *a, const float *b,
                                  float *out, cudaStream_t stream)
{
    auto kernel = gemm_simt_short_kernel<MMAX, CV, USTEP>;
    const size_t smem = simt_short_smem<MMAX, CV>(k_slice);
    if (m > MMAX || k_slice % (4 * USTEP * SIMT_SHORT_WARPS) != 0 || smem > SIMT_SHORT_SMEM_MAX)
        return cudaErrorInvalidValue;
    const cudaError_t err = simt_stream_allow_smem(kernel, smem, SIMT_SHORT_SMEM_MAX);
    if (err != cudaSuccess)
        return err;
    const unsigned col_blocks = (unsigned)((n + 32 * CV - 1) / (32 * CV));
    return pdl_launch(false, kernel, dim3(col_blocks, (unsigned)split), dim3(SIMT_SHORT_WARPS * 32), smem, stream, m,
                      n, k, k_slice, a, b, out);
}
#endif

#endif

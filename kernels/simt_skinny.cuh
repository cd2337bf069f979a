/* simt_auto's kernel for few columns (n <= 32): C = A * B where an element of A feeds only n
 * FMAs, so the tiles of kernels/simt_gemm.cuh, which stage A through shared memory to reuse
 * it across a block's columns, spend their issue on copies with nothing to reuse. This one
 * streams A once: each warp takes ROWS rows, each lane 16-byte loads of 4 consecutive k
 * straight into registers (a warp's load of one row is 512 contiguous bytes), the next
 * step's loads issued before the current step's FMAs (the first step's before B's slice is
 * staged). The block's k-slice of B sits in
 * shared memory, transposed (column j's k-run contiguous, read as float4 by the lane that
 * holds those 4 k: no bank conflicts), loaded once before the loop: the loop has no barrier.
 * Each lane ends with partial sums over its k of ROWS x NMAX outputs; a warp adds them
 * across lanes by halving (NMAX - 1 + log2(32 / NMAX) shuffles a row, not NMAX x 5).
 * Split-K over blockIdx.y as the tiled kernels do: slice z writes its partial product to
 * out + z * m * n (C itself when unsplit), the reduction of kernels/splitk_reduce.cuh adds
 * them in order: no atomics, the same result every run.
 * The forms: kernels/simt_skinny_forms.def; the rule's estimate: kernels/simt_plan.c. */
#ifndef GEMMPROF_KERNELS_SIMT_SKINNY_CUH
#define GEMMPROF_KERNELS_SIMT_SKINNY_CUH

#include <stdint.h>

#include "kernels/pdl.cuh"
#include "kernels/simt_plan.h"
#include "kernels/simt_stream.cuh"

/* B's slice in shared memory: NMAX rows of k_slice + SIMT_SKINNY_PAD floats (the pad
 * spreads the transposing stores over the banks and keeps each row 16-byte aligned) */

/* One halving step across the lanes, then the next (a template, so that every index is a
 * constant and v stays in registers): at offset O a lane keeps v[W..2W) if its O bit is set,
 * else v[0..W), adding its partner's copy into v[0..W) */
template <int W, int O, int N> static __device__ __forceinline__ void simt_skinny_halve(float (&v)[N], int lane)
{
    const bool upper = (lane & O) != 0;
#pragma unroll
    for (int j = 0; j < W; j++) {
        const float send = upper ? v[j] : v[j + W], keep = upper ? v[j + W] : v[j];
        v[j] = keep + __shfl_xor_sync(0xffffffffu, send, O);
    }
    if constexpr (W > 1)
        simt_skinny_halve<W / 2, O / 2>(v, lane);
}

template <int NMAX, int ROWS, int USTEP>
static __global__ void __launch_bounds__(SIMT_SKINNY_WARPS * 32)
gemm_simt_skinny_kernel(int m, int n, int k, int k_slice, const float *__restrict__ a, const float *__restrict__ b,
                        float *__restrict__ out)
{
    static_assert(NMAX == 8 || NMAX == 16 || NMAX == 32, "NMAX: 8, 16 or 32 columns");
    constexpr int NT = SIMT_SKINNY_WARPS * 32, KSTEP = 128 * USTEP, SPREAD = 32 / NMAX;
    extern __shared__ float4 simt_smem[];
    float *const bs = reinterpret_cast<float *>(simt_smem); /* [NMAX][k_slice + SIMT_SKINNY_PAD] */
    pdl_trigger();   /* the reduction may launch; it waits for this grid's memory */
    const int ld = k_slice + SIMT_SKINNY_PAD;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int row0 = (blockIdx.x * SIMT_SKINNY_WARPS + warp) * ROWS;
    const int kbeg = blockIdx.y * k_slice, kend = min(k, kbeg + k_slice), klen = kend - kbeg;


    /* A: 16-byte loads where rows start 16-byte aligned, else four 4-byte ones */
    const bool vec = k % 4 == 0 && (reinterpret_cast<uintptr_t>(a) & 15) == 0;
    float acc[ROWS][NMAX];
#pragma unroll
    for (int r = 0; r < ROWS; r++)
#pragma unroll
        for (int j = 0; j < NMAX; j++)
            acc[r][j] = 0.f;
    float4 cur[ROWS][USTEP], next[ROWS][USTEP];
    auto load = [&](float4(&dst)[ROWS][USTEP], int kc) {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
#pragma unroll
            for (int u = 0; u < USTEP; u++) {
                const int row = row0 + r, kl = kc + 128 * u + 4 * lane;
                const float *p = a + (size_t)row * k + kl;
                if (row < m && vec && kl + 3 < kend) {
                    dst[r][u] = __ldg(reinterpret_cast<const float4 *>(p));
                } else {
                    dst[r][u].x = row < m && kl < kend ? __ldg(p) : 0.f;
                    dst[r][u].y = row < m && kl + 1 < kend ? __ldg(p + 1) : 0.f;
                    dst[r][u].z = row < m && kl + 2 < kend ? __ldg(p + 2) : 0.f;
                    dst[r][u].w = row < m && kl + 3 < kend ? __ldg(p + 3) : 0.f;
                }
            }
    };
    load(cur, kbeg); /* in flight while B's slice is staged */

    /* B's rows kbeg..kend are one run of klen * n floats: read coalesced, BATCH loads in
     * flight a thread, stored transposed. (kk, j) of element i = threadIdx.x + NT * it,
     * stepped without a division per element */
    {
        constexpr int BATCH = 8;
        const float *src = b + (size_t)kbeg * n;
        const int run = klen * n, step_k = NT / n, step_j = NT % n;
        int kk = threadIdx.x / n, j = threadIdx.x % n;
        for (int base = threadIdx.x; base < run; base += NT * BATCH) {
            float v[BATCH];
#pragma unroll
            for (int q = 0; q < BATCH; q++)
                v[q] = base + q * NT < run ? __ldg(src + base + q * NT) : 0.f;
#pragma unroll
            for (int q = 0; q < BATCH; q++) {
                if (base + q * NT < run)
                    bs[j * ld + kk] = v[q];
                kk += step_k;
                j += step_j;
                if (j >= n)
                    j -= n, kk++;
            }
        }
        /* zeros where the FMAs read past B: columns n..NMAX, and k past the slice's end */
        for (int i = threadIdx.x; i < (NMAX - n) * k_slice; i += NT)
            bs[(n + i / k_slice) * ld + i % k_slice] = 0.f;
        for (int i = threadIdx.x; i < n * (k_slice - klen); i += NT)
            bs[(i / (k_slice - klen)) * ld + klen + i % (k_slice - klen)] = 0.f;
    }
    __syncthreads();
    for (int kc = kbeg; kc < kend; kc += KSTEP) {
        if (kc + KSTEP < kend)
            load(next, kc + KSTEP);
#pragma unroll
        for (int u = 0; u < USTEP; u++)
#pragma unroll
            for (int j = 0; j < NMAX; j++) {
                const float4 bv = *reinterpret_cast<const float4 *>(&bs[j * ld + (kc - kbeg) + 128 * u + 4 * lane]);
#pragma unroll
                for (int r = 0; r < ROWS; r++)
                    acc[r][j] = fmaf(cur[r][u].w, bv.w,
                                     fmaf(cur[r][u].z, bv.z, fmaf(cur[r][u].y, bv.y, fmaf(cur[r][u].x, bv.x, acc[r][j]))));
            }
#pragma unroll
        for (int r = 0; r < ROWS; r++)
#pragma unroll
            for (int u = 0; u < USTEP; u++)
                cur[r][u] = next[r][u];
    }

    /* across the lanes by halving: at offset o a lane keeps the upper half of its columns
     * if its o bit is set, adding its partner's copy of them; after log2(NMAX) steps lane L
     * holds column L / SPREAD of SPREAD lanes, whose sums the last steps add */
    float *dst = out + (size_t)blockIdx.y * m * n;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        simt_skinny_halve<NMAX / 2, 16>(acc[r], lane);
        float s = acc[r][0];
#pragma unroll
        for (int o = SPREAD / 2; o >= 1; o /= 2)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        const int col = lane / SPREAD, row = row0 + r;
        if (lane % SPREAD == 0 && col < n && row < m)
            dst[(size_t)row * n + col] = s;
    }
}

#ifdef __CUDACC__
/* The dynamic shared memory a slice of k_slice needs */
template <int NMAX> static inline size_t simt_skinny_smem(int k_slice)
{
    return (size_t)NMAX * (k_slice + SIMT_SKINNY_PAD) * sizeof(float);
}

/* Resident blocks per SM at the largest slice the rule gives it (SIMT_SKINNY_SMEM_MAX), and
 * registers per thread */
template <int NMAX, int ROWS, int USTEP> static cudaError_t simt_skinny_occupancy(int *blocks, int *regs)
{
    return simt_stream_occupancy(gemm_simt_skinny_kernel<NMAX, ROWS, USTEP>, SIMT_SKINNY_WARPS * 32,
                                 SIMT_SKINNY_SMEM_MAX, blocks, regs);
}

/* Enqueues `split` slices of k_slice (a multiple of 128 x USTEP whose B slice fits
 * SIMT_SKINNY_SMEM_MAX) into out: C when split is 1, else split * m * n partials. */
template <int NMAX, int ROWS, int USTEP>
static cudaError_t simt_skinny_run(int m, int n, int k, int k_slice, int split, const float *a, const float *b,
                                   float *out, cudaStream_t stream)
{
    auto kernel = gemm_simt_skinny_kernel<NMAX, ROWS, USTEP>;
    const size_t smem = simt_skinny_smem<NMAX>(k_slice);
    if (n > NMAX || k_slice % (128 * USTEP) != 0 || smem > SIMT_SKINNY_SMEM_MAX)
        return cudaErrorInvalidValue;
    const cudaError_t err = simt_stream_allow_smem(kernel, smem, SIMT_SKINNY_SMEM_MAX);
    if (err != cudaSuccess)
        return err;
    const unsigned row_blocks = (unsigned)((m + SIMT_SKINNY_WARPS * ROWS - 1) / (SIMT_SKINNY_WARPS * ROWS));
    return pdl_launch(false, kernel, dim3(row_blocks, (unsigned)split), dim3(SIMT_SKINNY_WARPS * 32), smem, stream, m, n,
                      k, k_slice, a, b, out);
}
#endif

#endif

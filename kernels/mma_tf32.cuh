/* The warp-level TF32 tensor-core GEMM behind tf32_mma (11) and tf32x3_mma (16): one
 * kernel template, a cp.async pipeline feeding mma.sync.m16n8k8 from shared memory.
 * The two variants differ only in their tile configuration and in what one k-step does
 * with its fragments (P::SPLIT3); their .cu files say why and launch it.
 *
 * Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32 A/B, .f32 C), with
 * g = lane / 4 and t = lane % 4:
 *   A (16x8, row): a0 (g, t)  a1 (g+8, t)  a2 (g, t+4)  a3 (g+8, t+4)
 *   B (8x8, col):  b0 (k t, n g)  b1 (k t+4, n g)
 *   C (16x8):      c0 (g, 2t)  c1 (g, 2t+1)  c2 (g+8, 2t)  c3 (g+8, 2t+1)
 * The order of the 8 k inside one mma does not matter as long as A and B agree, so
 * mma-k t and t+4 of k-step 2p+h are bound to slice columns 16p+4t+2h and 16p+4t+2h+1:
 * lane t then needs k = 16p+4t .. 16p+4t+3 for two k-steps, which is one 16-byte LDS.128
 * per A row instead of four LDS.32.
 *
 * Shared-memory layout: both tiles are stored as they lie in global memory (A: BM rows
 * of BK=32 k; B: BK rows of BN n) so every copy is a plain 16-byte cp.async, and the
 * 16-byte chunks are XOR-swizzled inside their 128-byte group so the fragment reads hit
 * 32 distinct banks:
 *   A(r, k) chunk k/4 is stored at chunk (k/4) ^ ((r & 1) << 2). An LDS.128 is served
 *     8 lanes at a time: rows g, g+1 (one even, one odd) x chunks 4p+t, and the XOR puts
 *     the odd row in the other half of the 128-byte row, so the 8 chunks are distinct.
 *   B(k, n) chunk n/4 is stored at chunk (n/4) ^ (((k / 4) & 3) << 1). A B fragment LDS.32
 *     reads rows k = 4t+.. (t = 0..3) at columns g (two chunks): without the XOR all four
 *     rows map to the same banks (BN is a multiple of 32: 4-way conflict); the XOR moves
 *     row group t by 2t chunks, so lanes (t, g) reach 32 distinct banks. Padding cannot
 *     do this: the row stride would need to be 2 mod 8 floats, which breaks the 16-byte
 *     alignment cp.async needs.
 * Both XORs only permute chunks inside an aligned group of 8, so each 8-lane quarter of a
 * cp.async store still covers 8 distinct chunk slots: the stores are conflict-free too.
 *
 * Shapes: any m, n, k >= 1. Copies outside A or B zero-fill (cp.async src-size 0) and
 * stores are guarded. VEC (n % 4 == 0, k % 4 == 0, a, b, c 16-byte aligned, checked at
 * launch) copies 16-byte chunks and stores float2; otherwise the same kernel copies each
 * element with a 4-byte cp.async and stores scalars.
 */
#ifndef GEMMPROF_KERNELS_MMA_TF32_CUH
#define GEMMPROF_KERNELS_MMA_TF32_CUH

#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/pipeline.cuh"
#include "kernels/mma_sync_ops.cuh"

/* Block tile BM x BN x 32, warp tile WM x WN (WM/16 x WN/8 mma tiles), STAGES-deep
 * pipeline; SPLIT3 selects the 3xTF32 k-step. */
template <int BM_, int BN_, int WM_, int WN_, int STAGES_, bool SPLIT3_> struct mma_tf32_cfg {
    static constexpr int BM = BM_, BN = BN_, BK = 32, WM = WM_, WN = WN_;
    static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
    static constexpr int NT = 32 * WARPS_M * WARPS_N; /* threads */
    static constexpr int STAGES = STAGES_;
    static constexpr bool SPLIT3 = SPLIT3_;
    static constexpr int GROUP_M = 8; /* tile rows per L2 group, as warptile */
    static constexpr size_t SMEM_BYTES = (size_t)STAGES * (BM * BK + BK * BN) * sizeof(float);
};

/* Offsets (in floats) inside one stage, with the swizzles of the header comment. */
static __device__ __forceinline__ int mt_a_off(int r, int kk)
{
    return r * 32 + ((((kk >> 2) ^ ((r & 1) << 2))) << 2) + (kk & 3);
}
template <int BN> static __device__ __forceinline__ int mt_b_off(int kk, int nn)
{
    return kk * BN + ((((nn >> 2) ^ (((kk >> 2) & 3) << 1))) << 2) + (nn & 3);
}

/* cp.async global->shared of BYTES (4 or 16), kernels/pipeline.cuh's copies chosen at
 * compile time; ok false writes zeros and reads nothing. */
template <int BYTES> static __device__ __forceinline__ void mt_cp_async(float *dst, const float *src, bool ok)
{
    if (BYTES == 16)
        cp_async16(dst, src, ok);
    else
        cp_async4(dst, src, ok);
}

/* x = big + small + O(2^-22 |x|): big = tf32(x), small = tf32(x - big) (exact in FP32). */
static __device__ __forceinline__ void mt_split(float x, uint32_t &big, uint32_t &small)
{
    big = mt_tf32(x);
    small = mt_tf32(x - __uint_as_float(big));
}

template <class P, bool VEC>
static __global__ void __launch_bounds__(P::NT, 1)
mma_tf32_kernel(int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b,
                float *__restrict__ c)
{
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, WM = P::WM, WN = P::WN, NT = P::NT;
    constexpr int STAGES = P::STAGES, MT = WM / 16, NTL = WN / 8;
    constexpr int A_STAGE = BM * BK, B_STAGE = BK * BN;
    constexpr int A_CPR = BK / 4, B_CPR = BN / 4;              /* 16-byte chunks per row */
    constexpr int A_RPP = NT / A_CPR, B_RPP = NT / B_CPR;      /* rows per copy pass */
    static_assert(BK == 32, "the A swizzle and the k-pair mapping assume 8 chunks per A row");
    static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0, "warp tiles");
    static_assert(BN % 32 == 0, "the B swizzle permutes chunks inside groups of 8");
    static_assert(NT % A_CPR == 0 && BM % A_RPP == 0, "A copy mapping");
    static_assert(NT % B_CPR == 0 && BK % B_RPP == 0, "B copy mapping");
    static_assert(STAGES >= 2, "pipeline depth");

    extern __shared__ float4 mma_tf32_smem[];
    float *const as = reinterpret_cast<float *>(mma_tf32_smem); /* [STAGES][BM][BK], swizzled */
    float *const bs = as + STAGES * A_STAGE;                    /* [STAGES][BK][BN], swizzled */

    int row0, col0; /* this block's C tile, in grouped order */
    grouped_tile<BM, BN>((int)blockIdx.x, m, n, P::GROUP_M, &row0, &col0);

    const int tid = threadIdx.x;
    /* copy mapping: A chunk a_ch of rows a_r + p*A_RPP, B chunk b_ch of rows b_r + p*B_RPP */
    const int a_ch = tid % A_CPR, a_r = tid / A_CPR;
    const int b_ch = tid % B_CPR, b_r = tid / B_CPR;
    const int b_col = col0 + b_ch * 4; /* first global column of this thread's B chunk */

    /* Issues the copies of k-slice `tile` into stage `stage` (no commit). */
    auto load_tile = [&](int stage, int tile) {
        const int k0 = tile * BK;
        float *const as_s = as + stage * A_STAGE;
        float *const bs_s = bs + stage * B_STAGE;
        const int ka = k0 + a_ch * 4;
#pragma unroll
        for (int p = 0; p < BM / A_RPP; ++p) {
            const int r = a_r + p * A_RPP;
            const bool row_ok = row0 + r < m;
            const float *src = a + (row_ok ? (size_t)(row0 + r) * k : 0);
            float *const dst = as_s + mt_a_off(r, a_ch * 4);
            if (VEC) {
                const bool ok = row_ok && ka < k; /* k % 4 == 0: the chunk is all in or all out */
                mt_cp_async<16>(dst, ok ? src + ka : a, ok);
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const bool ok = row_ok && ka + e < k;
                    mt_cp_async<4>(dst + e, ok ? src + ka + e : a, ok);
                }
            }
        }
#pragma unroll
        for (int p = 0; p < BK / B_RPP; ++p) {
            const int kk = b_r + p * B_RPP;
            const bool k_ok = k0 + kk < k;
            const float *src = b + (k_ok ? (size_t)(k0 + kk) * n : 0);
            float *const dst = bs_s + mt_b_off<BN>(kk, b_ch * 4);
            if (VEC) {
                const bool ok = k_ok && b_col < n; /* n % 4 == 0 */
                mt_cp_async<16>(dst, ok ? src + b_col : b, ok);
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const bool ok = k_ok && b_col + e < n;
                    mt_cp_async<4>(dst + e, ok ? src + b_col + e : b, ok);
                }
            }
        }
    };

    const int warp = tid / 32, lane = tid % 32, g = lane >> 2, t = lane & 3;
    const int wm0 = (warp / P::WARPS_N) * WM, wn0 = (warp % P::WARPS_N) * WN;

    float acc[MT][NTL][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NTL; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                acc[i][j][q] = 0.f;

    const int ntiles = (k + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ntiles)
            load_tile(s, s);
        cp_async_commit();
    }

    for (int tile = 0; tile < ntiles; ++tile) {
        /* slice `tile` is commit group `tile`; at most STAGES-2 younger ones may be pending */
        cp_async_wait<STAGES - 2>();
        /* slice `tile` visible to all; everyone is done with slice tile-1, whose stage the
         * copies below refill */
        __syncthreads();
        const int next = tile + STAGES - 1;
        if (next < ntiles)
            load_tile(next % STAGES, next);
        cp_async_commit(); /* always: uniform group count */

        const float *const as_s = as + (tile % STAGES) * A_STAGE;
        const float *const bs_s = bs + (tile % STAGES) * B_STAGE;
        /* 3xTF32 keeps one k-pair's split fragments live at a time, or it spills */
#pragma unroll(P::SPLIT3 ? 1 : BK / 16)
        for (int p = 0; p < BK / 16; ++p) {
            /* A rows g and g+8 of each mma tile, k = 16p+4t .. +3: two k-steps' worth */
            float4 a_lo[MT], a_hi[MT];
#pragma unroll
            for (int i = 0; i < MT; ++i) {
                const int r = wm0 + i * 16 + g;
                a_lo[i] = *reinterpret_cast<const float4 *>(as_s + mt_a_off(r, 16 * p + 4 * t));
                a_hi[i] = *reinterpret_cast<const float4 *>(as_s + mt_a_off(r + 8, 16 * p + 4 * t));
            }
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                /* k-step 2p+h: mma-k t <-> slice k 16p+4t+2h, mma-k t+4 <-> 16p+4t+2h+1 */
                const int kb = 16 * p + 4 * t + 2 * h;
                float bv[NTL][2];
#pragma unroll
                for (int j = 0; j < NTL; ++j) {
                    const int nn = wn0 + j * 8 + g;
                    bv[j][0] = bs_s[mt_b_off<BN>(kb, nn)];
                    bv[j][1] = bs_s[mt_b_off<BN>(kb + 1, nn)];
                }
                if (!P::SPLIT3) {
                    /* raw FP32 bits: the tensor core reads the TF32 part (the low 13
                     * mantissa bits are dropped, as cuBLAS's TF32 kernels do) */
#pragma unroll
                    for (int i = 0; i < MT; ++i) {
                        const uint32_t af[4] = {
                            __float_as_uint(h ? a_lo[i].z : a_lo[i].x), __float_as_uint(h ? a_hi[i].z : a_hi[i].x),
                            __float_as_uint(h ? a_lo[i].w : a_lo[i].y), __float_as_uint(h ? a_hi[i].w : a_hi[i].y)};
#pragma unroll
                        for (int j = 0; j < NTL; ++j) {
                            const uint32_t bf[2] = {__float_as_uint(bv[j][0]), __float_as_uint(bv[j][1])};
                            mt_mma(acc[i][j], af, bf);
                        }
                    }
                } else {
                    /* 3xTF32: big*big + big*small + small*big, small*small dropped. The
                     * three products of one k-step go into a fresh zeroed fragment
                     * (small ones first) and that is added to acc with an FP32 add:
                     * the tensor core's own accumulation is then only ever 3 x 8 terms
                     * deep, and the long sum over k is rounded to nearest by FADD. */
                    uint32_t b_big[NTL][2], b_small[NTL][2];
#pragma unroll
                    for (int j = 0; j < NTL; ++j) {
                        mt_split(bv[j][0], b_big[j][0], b_small[j][0]);
                        mt_split(bv[j][1], b_big[j][1], b_small[j][1]);
                    }
#pragma unroll
                    for (int i = 0; i < MT; ++i) {
                        const float av[4] = {h ? a_lo[i].z : a_lo[i].x, h ? a_hi[i].z : a_hi[i].x,
                                             h ? a_lo[i].w : a_lo[i].y, h ? a_hi[i].w : a_hi[i].y};
                        uint32_t a_big[4], a_small[4];
#pragma unroll
                        for (int q = 0; q < 4; ++q)
                            mt_split(av[q], a_big[q], a_small[q]);
#pragma unroll
                        for (int j = 0; j < NTL; ++j) {
                            float d[4] = {0.f, 0.f, 0.f, 0.f};
                            mt_mma(d, a_small, b_big[j]);
                            mt_mma(d, a_big, b_small[j]);
                            mt_mma(d, a_big, b_big[j]);
#pragma unroll
                            for (int q = 0; q < 4; ++q)
                                acc[i][j][q] += d[q];
                        }
                    }
                }
            }
        }
    }
    cp_async_wait<0>(); /* only empty groups remain; leave none behind */

    /* C fragment (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of each mma tile */
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int hh = 0; hh < 2; ++hh) {
            const int row = row0 + wm0 + i * 16 + g + hh * 8;
            if (row >= m)
                continue;
            float *const c_row = c + (size_t)row * n;
#pragma unroll
            for (int j = 0; j < NTL; ++j) {
                const int col = col0 + wn0 + j * 8 + 2 * t;
                const float v0 = acc[i][j][2 * hh], v1 = acc[i][j][2 * hh + 1];
                if (VEC) {
                    if (col < n) /* n % 4 == 0 and col even: col + 1 < n too */
                        *reinterpret_cast<float2 *>(c_row + col) = make_float2(v0, v1);
                } else {
                    if (col < n)
                        c_row[col] = v0;
                    if (col + 1 < n)
                        c_row[col + 1] = v1;
                }
            }
        }
}

static inline int mma_tf32_aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* Launches the configuration P on `stream`: the 16-byte path when the shapes and pointers
 * allow it, the 4-byte one otherwise. Returns the launch's error; never synchronizes. */
template <class P>
static cudaError_t mma_tf32_run(int m, int n, int k, const float *a, const float *b, float *c,
                                cudaStream_t stream)
{
    const bool vec = n % 4 == 0 && k % 4 == 0 && mma_tf32_aligned16(a) && mma_tf32_aligned16(b) &&
                     mma_tf32_aligned16(c);
    const unsigned tiles = (unsigned)((m + P::BM - 1) / P::BM) * (unsigned)((n + P::BN - 1) / P::BN);
    cudaError_t err;
    if (vec) {
        err = cudaFuncSetAttribute(mma_tf32_kernel<P, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)P::SMEM_BYTES);
        if (err != cudaSuccess)
            return err;
        mma_tf32_kernel<P, true><<<tiles, P::NT, P::SMEM_BYTES, stream>>>(m, n, k, a, b, c);
    } else {
        err = cudaFuncSetAttribute(mma_tf32_kernel<P, false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)P::SMEM_BYTES);
        if (err != cudaSuccess)
            return err;
        mma_tf32_kernel<P, false><<<tiles, P::NT, P::SMEM_BYTES, stream>>>(m, n, k, a, b, c);
    }
    return cudaGetLastError();
}

#endif

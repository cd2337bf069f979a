/* bf16_mma: the 16-bit ladder's first tensor-core step, warp-level mma.sync.m16n8k16 (BF16
 * inputs, FP32 accumulate, FP32 C) fed from shared memory by ldmatrix and a 4-stage cp.async
 * pipeline. The step below bf16_wgmma (20_wgmma16.cu), as tf32_mma is below the TF32 wgmma
 * kernels. The template takes FP16 too (BF16 false); an fp16_mma row is one launcher and one
 * variants.def line away, left out while the charts style at most 24 variants
 * (plots/common.gp KEY_MAX).
 *
 * What it is, and why:
 * - tf32_mma's tiling at 16 bits: 128 x 256 block tile, 8 warps as 2 x 4 with 64 x 64 warp
 *   tiles (4 x 8 mma tiles, 128 accumulators per thread), BK = 32 (two k16 steps a stage),
 *   4 stages of A 8 KB + B 16 KB = 96 KB. Per k16 a warp issues 32 mma for 4 + 4 ldmatrix.x4.
 * - Fragments by ldmatrix: A (row-major, k contiguous) by ldmatrix.x4, whose four 8 x 8
 *   matrices (rows 0-7 / 8-15 x k 0-7 / 8-15) are exactly m16n8k16's a0..a3; B (k x n
 *   row-major, n contiguous) by ldmatrix.x4.trans, which hands lane (g, t) the k pair (2t,
 *   2t+1) of column g: b0, b1 of two n8 tiles. So both tiles are stored as they lie in
 *   global memory and copied by plain 16-byte cp.async; no transpose pass, no register
 *   shuffles.
 * - Conflict-free ldmatrix by XOR swizzles of the 16-byte chunks (an 8 x 16-byte ldmatrix
 *   phase must hit 8 distinct 16-byte bank groups): A rows are 64 bytes (4 chunks), two to a
 *   128-byte line, so chunk c of row r sits at c ^ ((r / 2) % 4); B rows are 512 bytes, all
 *   eight rows of a phase on the same banks, so chunk c of row k sits at c ^ (k % 8) (inside
 *   its group of 8). Both only permute chunks inside aligned groups: the cp.async stores of
 *   a row stay conflict-free.
 * - Why it cannot reach the target: mma.sync's own BF16 rate on the H200 is 638 TFLOP/s
 *   (the mma.sync ceiling loop) against wgmma's 938 and cuBLAS's 768 at 4096^3.
 * Shapes: any m, n, k >= 1. Copies outside A or B zero-fill (cp.async src-size 0, or the
 * bytes left in a row's last chunk), stores are guarded. 16-byte copies need 16-byte row
 * pitches, so k % 8 or n % 8 != 0 (or a misaligned copy) go through the pitch-padded copies
 * of kernels/sm90_16bit.cuh (made on the stream, timed with the kernel).
 * Inputs: the shape's 16-bit copies of A and B (kernels/gemm.h gemm_context_input16).
 *       ./build/gemmprof -k bf16_mma,bf16_wgmma,cublas_bf16
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/mma_sync_ops.cuh"
#include "kernels/pipeline.cuh"
#include "kernels/sm90_16bit.cuh" /* sm90_operands16 (pitch-padded 16-bit copies), c_store_pair */

struct mma16_cfg {
    static constexpr int BM = 128, BN = 256, BK = 32, WM = 64, WN = 64;
    static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN, NT = 32 * WARPS_M * WARPS_N;
    static constexpr int STAGES = 4, GROUP_M = 8;
    static constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
    static constexpr int SMEM = STAGES * (A_BYTES + B_BYTES);
    static constexpr int A_CPR = BK / 8, B_CPR = BN / 8; /* 16-byte chunks per row */
    static_assert(BK == 32 && BN % 64 == 0 && WM % 16 == 0 && WN % 16 == 0, "tile shape");
    static_assert((BM * A_CPR) % NT == 0 && (BK * B_CPR) % NT == 0, "copy mapping");
};

/* Byte offsets inside a stage, with the swizzles of the header comment. */
static __device__ __forceinline__ int m16_a_off(int r, int ch)
{
    return r * 64 + ((ch ^ ((r >> 1) & 3)) << 4);
}
template <int BN> static __device__ __forceinline__ int m16_b_off(int kk, int ch)
{
    return kk * (BN * 2) + ((ch ^ (kk & 7)) << 4);
}

/* 16-byte cp.async of which the first `bytes` (0..16) are read, the rest zero-filled. */
static __device__ __forceinline__ void m16_cp_async(uint8_t *dst, const void *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src), "r"(bytes)
                 : "memory");
}

static __device__ __forceinline__ void m16_ldmatrix_x4(uint32_t (&r)[4], const uint8_t *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"((unsigned)__cvta_generic_to_shared(p)));
}

static __device__ __forceinline__ void m16_ldmatrix_x4_trans(uint32_t (&r)[4], const uint8_t *p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"((unsigned)__cvta_generic_to_shared(p)));
}

/* The bytes of a 16-byte chunk of `len` elements starting at element `at` that lie inside. */
static __device__ __forceinline__ int m16_chunk_bytes(int at, int len)
{
    const int left = len - at;
    return left >= 8 ? 16 : left > 0 ? 2 * left : 0;
}

/* a (m x k, pitch lda) and b (k x n, pitch ldb): 16-bit patterns, pitches multiples of 8. */
template <bool BF16>
static __global__ void __launch_bounds__(mma16_cfg::NT, 1)
gemm_mma16_kernel(int m, int n, int k, const uint16_t *__restrict__ a, long lda, const uint16_t *__restrict__ b,
                  long ldb, float *__restrict__ c)
{
    using P = mma16_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, WM = P::WM, WN = P::WN, STAGES = P::STAGES;
    constexpr int MT = WM / 16, NTL = WN / 8;
    extern __shared__ float4 mma16_smem[];
    uint8_t *const as = reinterpret_cast<uint8_t *>(mma16_smem); /* [STAGES][BM][BK], swizzled */
    uint8_t *const bs = as + STAGES * P::A_BYTES;                 /* [STAGES][BK][BN], swizzled */

    int row0, col0;
    grouped_tile<BM, BN>((int)blockIdx.x, m, n, P::GROUP_M, &row0, &col0);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t4 = lane % 4;
    const int wm0 = (warp / P::WARPS_N) * WM, wn0 = (warp % P::WARPS_N) * WN;
    const int ktiles = (k + BK - 1) / BK;

    /* k-slice `tile` into stage `stage` (no commit); rows or columns outside read nothing */
    auto load_tile = [&](int stage, int tile) {
        const int k0 = tile * BK;
        uint8_t *const as_s = as + stage * P::A_BYTES, *const bs_s = bs + stage * P::B_BYTES;
#pragma unroll
        for (int i = 0; i < BM * P::A_CPR / P::NT; ++i) {
            const int id = tid + i * P::NT, r = id / P::A_CPR, ch = id % P::A_CPR;
            const int gr = row0 + r, gk = k0 + ch * 8;
            const int bytes = gr < m ? m16_chunk_bytes(gk, k) : 0;
            m16_cp_async(as_s + m16_a_off(r, ch), bytes ? a + (size_t)gr * lda + gk : a, bytes);
        }
#pragma unroll
        for (int i = 0; i < BK * P::B_CPR / P::NT; ++i) {
            const int id = tid + i * P::NT, kr = id / P::B_CPR, ch = id % P::B_CPR;
            const int gk = k0 + kr, gn = col0 + ch * 8;
            const int bytes = gk < k ? m16_chunk_bytes(gn, n) : 0;
            m16_cp_async(bs_s + m16_b_off<BN>(kr, ch), bytes ? b + (size_t)gk * ldb + gn : b, bytes);
        }
    };

    float acc[MT][NTL][4] = {};

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ktiles)
            load_tile(s, s);
        cp_async_commit();
    }
    /* ldmatrix row addresses: lane L gives row L % 8 of matrix L / 8 */
    const int lq = lane / 8, lr = lane % 8;
    for (int tile = 0; tile < ktiles; ++tile) {
        cp_async_wait<STAGES - 2>(); /* this thread's copies of `tile` landed */
        __syncthreads();             /* everyone's; and stage tile-1 is free for the refill */
        if (tile + STAGES - 1 < ktiles)
            load_tile((tile + STAGES - 1) % STAGES, tile + STAGES - 1);
        cp_async_commit();
        const uint8_t *const as_s = as + (tile % STAGES) * P::A_BYTES, *const bs_s = bs + (tile % STAGES) * P::B_BYTES;
#pragma unroll
        for (int s = 0; s < BK / 16; ++s) {
            uint32_t af[MT][4], bf[NTL / 2][4];
#pragma unroll
            for (int i = 0; i < MT; ++i)
                m16_ldmatrix_x4(af[i], as_s + m16_a_off(wm0 + 16 * i + (lq & 1) * 8 + lr, 2 * s + (lq >> 1)));
#pragma unroll
            for (int jp = 0; jp < NTL / 2; ++jp)
                m16_ldmatrix_x4_trans(bf[jp],
                                      bs_s + m16_b_off<BN>(16 * s + (lq & 1) * 8 + lr, (wn0 + 16 * jp) / 8 + (lq >> 1)));
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NTL; ++j) {
                    const uint32_t bj[2] = {bf[j / 2][2 * (j % 2)], bf[j / 2][2 * (j % 2) + 1]};
                    mt_mma16<BF16>(acc[i][j], af[i], bj);
                }
        }
    }
    cp_async_wait<0>();

    const bool pairs = (n & 1) == 0 && ((uintptr_t)c & 7) == 0;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + wm0 + 16 * i + g + 8 * h;
            if (row >= m)
                continue;
            float *const c_row = c + (size_t)row * n;
#pragma unroll
            for (int j = 0; j < NTL; ++j)
                c_store_pair(c_row, col0 + wn0 + 8 * j + 2 * t4, n, acc[i][j][2 * h], acc[i][j][2 * h + 1], pairs);
        }
}

/* C = A * B (row-major) on `stream` from the shape's 16-bit copies of a and b; any m, n,
 * k >= 1. cudaErrorInvalidValue when the context holds no copies of (a, b, m, n, k).
 * Never synchronizes. */
template <bool BF16>
static cudaError_t mma16_run(struct gemm_context *ctx, int m, int n, int k, const float *a, const float *b, float *c,
                             cudaStream_t stream)
{
    using P = mma16_cfg;
    static bool smem_raised = false;
    const void *a16, *b16;
    cudaError_t e = gemm_context_input16(ctx, BF16 ? GEMM_INPUT_BF16 : GEMM_INPUT_FP16, a, b, m, n, k, &a16, &b16);
    if (e != cudaSuccess)
        return e;
    if (!smem_raised) {
        if ((e = cudaFuncSetAttribute(gemm_mma16_kernel<BF16>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      P::SMEM)) != cudaSuccess)
            return e;
        smem_raised = true;
    }
    sm90_operands16 op;
    if ((e = sm90_operands_prepare(m, n, k, a16, b16, stream, &op)) == cudaSuccess) {
        const unsigned blocks = (unsigned)(((m + P::BM - 1) / P::BM) * ((n + P::BN - 1) / P::BN));
        gemm_mma16_kernel<BF16><<<blocks, P::NT, P::SMEM, stream>>>(m, n, k, op.a, op.lda,
                                                                    op.b, op.ldb, c);
        e = cudaGetLastError();
    }
    const cudaError_t r = sm90_operands_release(&op, stream);
    return e != cudaSuccess ? e : r;
}

GEMM_LAUNCHER(bf16_mma);
extern "C" cudaError_t gemm_bf16_mma_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                            const float *b, float *c, cudaStream_t stream)
{
    return mma16_run<true>(ctx, m, n, k, a, b, c, stream);
}

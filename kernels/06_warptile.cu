/* warptile: warp tiling with a 3-stage cp.async pipeline (siboehm K10-like, plus K12's
 * asynchronous copies).
 *
 * Idea: give the block tile an explicit warp level. Each warp owns a 64x64 piece of the
 * 128x128 block tile and each lane a 16x8 set of outputs spread over that piece as
 * WMITER x WNITER = 4 x 2 sub-tiles of 4x4. Spreading the lanes this way makes every
 * shared read a contiguous, conflict-free LDS.128 (4 lanes x 16 B of A, 8 lanes x 16 B
 * of B, the rest broadcasts): per k-step a thread does 4 + 2 LDS.128 for 128 FFMAs.
 * Global->shared copies are cp.async (LDGSTS), STAGES deep, so the next slices arrive
 * while this one is computed and no registers are spent staging them.
 * Changed from vectorized: warp tiles (64x64) and lane sub-tiles instead of one 8x8
 * patch per thread; 16x8 = 128 outputs per thread with 128 threads; BK=16; a multi-stage
 * cp.async pipeline with one barrier per slice; A is transposed on the way in by 4-byte
 * copies into a padded As (row stride BM+4 keeps those stores conflict-free and LDS.128
 * aligned); B comes in 16-byte copies; blocks are visited in groups of GROUP_M tile rows
 * so that concurrently running blocks share A and B panels in L2.
 * Tiles (struct warptile_cfg): BM=BN=128, BK=16, warp tile WM=WN=64, lane sub-tile
 * TM=TN=4, WMITER=4, WNITER=2, 128 threads (4 warps), STAGES=3 (49,920 B of dynamic
 * shared memory), __launch_bounds__(128, 2), GROUP_M=8.
 * Shapes: any m, n, k >= 1: copies outside A/B zero-fill (src-size 0), stores are
 * guarded. 16-byte B copies and float4 C stores need n % 4 == 0 and 16-byte aligned
 * b and c (checked at launch); otherwise the same kernel runs with 4-byte B copies and
 * scalar stores. A is always copied in 4-byte pieces (it is transposed), so k is free.
 * Expected bound: instruction issue (an FFMA fills a Hopper issue slot; ~6 LDS.128 and
 * ~1.3 copies per 128 FFMA leave ~95% FFMA) and FFMA register-bank conflicts; target
 * 80% of cuBLAS SGEMM at 4096 (~41 TFLOP/s on H200), siboehm's untuned K10: 36 on H100.
 * Measured (H200, results/h200): 46.3 TFLOP/s at 4096, 90% of cuBLAS SGEMM (51.4);
 * 0.125 shared load wavefronts per warp FFMA, conflicts 0.002%; no memory roof binds, it
 * reaches 71% of the 64.9 TFLOP/s FP32 ceiling (cuBLAS: 79%).
 *       ./build/gemmprof -k warptile
 */
#include <stdint.h>

#include "kernels/pipeline.cuh"
#include "kernels/gemm.h"

/* The tuning knobs, in one place. Constraints are static_asserts in the kernel. */
struct warptile_cfg {
    static constexpr int BM = 128, BN = 128, BK = 16; /* block tile, k-slice */
    static constexpr int WM = 64, WN = 64;            /* warp tile */
    static constexpr int TM = 4, TN = 4;              /* lane sub-tile (float4 multiples) */
    static constexpr int WMITER = 4;                  /* sub-tiles down a warp tile */
    static constexpr int NT = 128;                    /* threads = warps * 32 */
    static constexpr int STAGES = 3;                  /* cp.async pipeline depth (>= 2) */
    static constexpr int MIN_BLOCKS = 2;              /* __launch_bounds__ blocks per SM */
    static constexpr int GROUP_M = 8;                 /* tile rows per L2 group */
    static constexpr int LDA = BM + 4;                /* padded row of transposed As */
    static constexpr int A_KT = 8;                    /* consecutive k per lane group for A */
};

/* VEC selects 16-byte B copies and float4 C stores (caller checked n % 4 and alignment)
 * or 4-byte copies and scalar stores; templates give both from one body. */
template <class P, bool VEC>
static __global__ void __launch_bounds__(P::NT, P::MIN_BLOCKS)
warptile_kernel(int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b,
                float *__restrict__ c)
{
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, WM = P::WM, WN = P::WN;
    constexpr int TM = P::TM, TN = P::TN, NT = P::NT, STAGES = P::STAGES, LDA = P::LDA;
    constexpr int WMITER = P::WMITER;
    constexpr int WSUBM = WM / WMITER;     /* rows of one warp sub-tile */
    constexpr int LANES_M = WSUBM / TM;    /* lanes down a sub-tile */
    constexpr int LANES_N = 32 / LANES_M;  /* lanes across a sub-tile */
    constexpr int WSUBN = LANES_N * TN;    /* columns of one warp sub-tile */
    constexpr int WNITER = WN / WSUBN;     /* sub-tiles across a warp tile */
    constexpr int A_KT = P::A_KT;          /* A copies: A_KT lanes along k ... */
    constexpr int A_RP = NT / A_KT;        /* ... and A_RP rows per pass */
    constexpr int B_RP = NT / (BN / 4);    /* B rows per pass, 16-byte copies */
    constexpr int BS_RP = NT / BN;         /* B rows per pass, 4-byte copies */
    constexpr int A_STAGE = BK * LDA, B_STAGE = BK * BN;
    static_assert((BM / WM) * (BN / WN) * 32 == NT, "one warp per warp tile");
    static_assert(WM % WMITER == 0 && WSUBM % TM == 0 && 32 % LANES_M == 0, "warp rows");
    static_assert(WN % WSUBN == 0, "warp columns");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && LDA % 4 == 0 && LDA >= BM, "LDS.128 alignment");
    static_assert(BK % A_KT == 0 && NT % A_KT == 0 && BM % A_RP == 0, "A copy mapping");
    static_assert(NT % (BN / 4) == 0 && BK % B_RP == 0, "B 16-byte copy mapping");
    static_assert(NT % BN == 0 && BK % BS_RP == 0, "B 4-byte copy mapping");
    static_assert(STAGES >= 2, "pipeline depth");

    extern __shared__ float4 warptile_smem[];
    float *const as = reinterpret_cast<float *>(warptile_smem); /* [STAGES][BK][LDA] */
    float *const bs = as + STAGES * A_STAGE;                    /* [STAGES][BK][BN] */

    int row0, col0; /* this block's C tile, in grouped order */
    grouped_tile<BM, BN>((int)blockIdx.x, m, n, P::GROUP_M, &row0, &col0);

    const int tid = threadIdx.x;

    /* A copy mapping: lane group of A_KT consecutive k of A_RP/.. rows; with LDA = BM+4 the
     * transposed 4-byte stores of a warp (8 k x 4 rows) hit 32 distinct banks. */
    const int a_kk = tid % A_KT, a_r = tid / A_KT;
    const int a_rows_left = m - row0 - a_r; /* pass p is inside A when p*A_RP < a_rows_left */
    const float *const a_src = a + (size_t)(a_rows_left > 0 ? row0 + a_r : 0) * k + a_kk;
    const size_t a_pass = (size_t)A_RP * k; /* elements between passes */

    /* B copy mapping: 16-byte (row b_r, 4 columns b_c) or 4-byte (row bs_r, column bs_c) */
    const int b_r = VEC ? tid / (BN / 4) : tid / BN;
    const int b_c = VEC ? (tid % (BN / 4)) * 4 : tid % BN;
    const bool b_col_ok = col0 + b_c < n;
    const float *const b_src = b + (b_col_ok ? col0 + b_c : 0);

    /* Issues the copies of k-slice `tile` into pipeline stage `stage` (no commit). */
    auto load_tile = [&](int stage, int tile) {
        const int k0 = tile * BK;
        float *const as_s = as + stage * A_STAGE;
        float *const bs_s = bs + stage * B_STAGE;
#pragma unroll
        for (int q = 0; q < BK / A_KT; ++q) {
            const int kk = q * A_KT + a_kk;
            const bool k_ok = k0 + kk < k;
#pragma unroll
            for (int p = 0; p < BM / A_RP; ++p) {
                const bool ok = k_ok && p * A_RP < a_rows_left;
                const float *src = ok ? a_src + p * a_pass + (k0 + q * A_KT) : a;
                cp_async4(&as_s[kk * LDA + a_r + p * A_RP], src, ok);
            }
        }
        if (VEC) {
#pragma unroll
            for (int p = 0; p < BK / B_RP; ++p) {
                const int kr = b_r + p * B_RP;
                const bool ok = b_col_ok && k0 + kr < k;
                const float *src = ok ? b_src + (size_t)(k0 + kr) * n : b;
                cp_async16(&bs_s[kr * BN + b_c], src, ok);
            }
        } else {
#pragma unroll
            for (int p = 0; p < BK / BS_RP; ++p) {
                const int kr = b_r + p * BS_RP;
                const bool ok = b_col_ok && k0 + kr < k;
                const float *src = ok ? b_src + (size_t)(k0 + kr) * n : b;
                cp_async4(&bs_s[kr * BN + b_c], src, ok);
            }
        }
    };

    /* compute mapping: warp (w_row, w_col) of the block, lane (l_row, l_col) of a sub-tile;
     * lane output (wm, i; wn, j) is C row w_row*WM + wm*WSUBM + l_row*TM + i, column
     * w_col*WN + wn*WSUBN + l_col*TN + j (relative to row0, col0) */
    const int warp = tid / 32, lane = tid % 32;
    const int w_row = warp / (BN / WN), w_col = warp % (BN / WN);
    const int l_row = lane / LANES_N, l_col = lane % LANES_N;
    const int a_off = w_row * WM + l_row * TM;
    const int b_off = w_col * WN + l_col * TN;

    float acc[WMITER * TM][WNITER * TN];
#pragma unroll
    for (int i = 0; i < WMITER * TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j)
            acc[i][j] = 0.f;

    const int ntiles = (k + BK - 1) / BK;
    /* prologue: slices 0..STAGES-2 in flight, one commit group each (maybe empty) */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ntiles)
            load_tile(s, s);
        cp_async_commit();
    }

    for (int t = 0; t < ntiles; ++t) {
        /* groups committed so far: t + STAGES - 1; slice t is group t, so at most
         * STAGES - 2 may still be pending */
        cp_async_wait<STAGES - 2>();
        /* makes slice t visible to all threads, and proves everyone finished slice t-1,
         * whose stage the copies below overwrite */
        __syncthreads();
        const int tn = t + STAGES - 1;
        if (tn < ntiles)
            load_tile(tn % STAGES, tn);
        cp_async_commit(); /* always, to keep the group count uniform */

        const float *const as_s = as + (t % STAGES) * A_STAGE + a_off;
        const float *const bs_s = bs + (t % STAGES) * B_STAGE + b_off;
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float ra[WMITER * TM], rb[WNITER * TN];
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; i += 4) {
                    const float4 v = *reinterpret_cast<const float4 *>(
                        &as_s[kk * LDA + wm * WSUBM + i]);
                    ra[wm * TM + i] = v.x, ra[wm * TM + i + 1] = v.y;
                    ra[wm * TM + i + 2] = v.z, ra[wm * TM + i + 3] = v.w;
                }
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const float4 v = *reinterpret_cast<const float4 *>(
                        &bs_s[kk * BN + wn * WSUBN + j]);
                    rb[wn * TN + j] = v.x, rb[wn * TN + j + 1] = v.y;
                    rb[wn * TN + j + 2] = v.z, rb[wn * TN + j + 3] = v.w;
                }
#pragma unroll
            for (int i = 0; i < WMITER * TM; ++i)
#pragma unroll
                for (int j = 0; j < WNITER * TN; ++j)
                    acc[i][j] += ra[i] * rb[j];
        }
    }
    cp_async_wait<0>(); /* only empty groups remain; leave none behind */

#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = row0 + a_off + wm * WSUBM + i;
            if (row >= m)
                continue;
            float *const c_row = c + (size_t)row * n;
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const int col = col0 + b_off + wn * WSUBN + j;
                    const float *v = &acc[wm * TM + i][wn * TN + j];
                    if (VEC) {
                        if (col < n) /* n % 4 == 0: all four columns are inside */
                            *reinterpret_cast<float4 *>(c_row + col) =
                                make_float4(v[0], v[1], v[2], v[3]);
                    } else {
#pragma unroll
                        for (int q = 0; q < 4; ++q)
                            if (col + q < n)
                                c_row[col + q] = v[q];
                    }
                }
        }
}

static int aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* Launches one instantiation with its dynamic shared memory (raising the 48 KB default
 * limit when the pipeline needs more). */
template <class P, bool VEC>
static cudaError_t warptile_run(int m, int n, int k, const float *a, const float *b, float *c,
                                cudaStream_t stream)
{
    const size_t smem = (size_t)P::STAGES * P::BK * (P::LDA + P::BN) * sizeof(float);
    if (smem > 48 * 1024) {
        const cudaError_t err = cudaFuncSetAttribute(
            warptile_kernel<P, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (err != cudaSuccess)
            return err;
    }
    const unsigned tiles =
        (unsigned)((m + P::BM - 1) / P::BM) * (unsigned)((n + P::BN - 1) / P::BN);
    warptile_kernel<P, VEC><<<tiles, P::NT, smem, stream>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

/* C = A * B (row-major) with the warp-tiled, cp.async-pipelined kernel on `stream`; any
 * m, n, k >= 1 (16-byte B copies and float4 stores when n is a multiple of 4 and b, c are
 * 16-byte aligned). Returns the launch's error; never synchronizes. */
GEMM_LAUNCHER(warptile);
extern "C" cudaError_t gemm_warptile_launch(struct gemm_context *ctx, int m, int n, int k,
                                            const float *a, const float *b, float *c,
                                            cudaStream_t stream)
{
    (void)ctx;
    if (n % 4 == 0 && aligned16(b) && aligned16(c))
        return warptile_run<warptile_cfg, true>(m, n, k, a, b, c, stream);
    return warptile_run<warptile_cfg, false>(m, n, k, a, b, c, stream);
}

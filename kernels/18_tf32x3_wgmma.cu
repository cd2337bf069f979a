/* tf32x3_wgmma: FP32-accurate GEMM (3xTF32) on Hopper wgmma tensor cores: wgmma_ws's
 * warp-specialised TMA + mbarrier pipeline with each operand split into a TF32 high and a
 * TF32 low part and three products per k-step, folded into FP32 accumulators every k-tile.
 *
 * Changed from tf32x3_mma (mma.sync, 47 TFLOP/s, 0.92x cuBLAS SGEMM), and why:
 * - wgmma instead of mma.sync: tf32x3_mma was bound by instruction issue (three mma.sync
 *   and the splits per 16x8x8) and mma.sync's own TF32 path tops out at 67% of the wgmma
 *   ceiling. One wgmma m64n128k8 is 16 mma.sync's worth of work per warp, and it reads its
 *   shared-memory operand without any instruction of ours.
 * Changed from wgmma_ws (plain TF32, 280 TFLOP/s), and why:
 * - Three products per k8: A_lo*B_hi, A_hi*B_lo, A_hi*B_hi (A_lo*B_lo, ~2^-21 of a
 *   product, dropped). As in wgmma_ws the kernel computes C^T = B^T A^T: B^T is the
 *   register operand, so its split costs each consumer thread 3 ALU instructions per
 *   fragment element (hi = tf32_rna(b), lo = tf32_rna(b - hi)); A^T is the shared-memory
 *   operand, which the tensor core truncates to TF32 by itself, so A_hi is A as TMA left
 *   it and only A_lo has to exist: lo = tf32_rna(A - trunc_tf32(A)) (A - trunc is exact).
 *   That the tensor core truncates raw FP32 operands (rather than rounding them) is on
 *   record: wgmma and wgmma_ws, which feed raw FP32 from both shared memory and registers,
 *   have relative error 6.9e-4 at 1024^3-8192^3 (results/h200), which a host model gives for
 *   truncated inputs (6.8e-4 at K = 1024), while rounded inputs give 2.7e-4 (cuBLAS TF32,
 *   which rounds first, measured 2.6e-4). Were it rounding, A_hi + A_lo would miss A by up
 *   to 2^-10 relative and the error would come out near TF32's, not FP32's.
 * - Where A_lo comes from: a second shared-memory buffer per stage, filled by two warps
 *   of the producer warpgroup (otherwise idle: one thread issues all TMA) with an
 *   elementwise pass over the stage's A tile, each float written at the same byte offset
 *   as its source, so the 128B swizzle carries over and the same descriptor arithmetic
 *   addresses it. The pass waits for the stage's TMA (full barrier), writes A_lo, fences
 *   the writes to the async proxy (fence.proxy.async) and arrives on a third barrier per
 *   stage (lo_full, one arrival per split thread); consumers wait on full and lo_full. Per
 *   stage this is 16 KB read + 16 KB written by 64 threads (16 float4 each), against 1,536
 *   tensor-pipe cycles of the stage's 24 wgmmas at the ceiling (about 1,000 TF32 MAC per
 *   SM and cycle): no extra global or L2 traffic and no pre-pass. A_lo's buffer is reused only after the consumers released the stage:
 *   the split of use u of a stage waits for its TMA, which the producer issues only after
 *   the empty barrier of use u-STAGES completed.
 * - Accumulation: the tensor core's FP32 accumulation aligns each k8 step's products to
 *   the largest term and truncates (see kernels/mma_tf32.cuh), so a sum carried through all
 *   of K in the wgmma accumulators drifts. Each k-tile (32 k, 12 wgmmas) therefore goes
 *   into a fresh partial (the first wgmma has scale-d 0), all A_lo*B_hi first, then
 *   A_hi*B_lo, then A_hi*B_hi (small terms first while the partial is still small), and
 *   after wait_group 0 the partial is added to the FP32 accumulator with FADD (64 per
 *   thread per k-tile). The fold interval comes from a host model of that accumulation
 *   (tests/test_tf32x3_model.c: inputs uniform in [-0.5, 0.5) as the harness fills them,
 *   products exact, each k8 step aligned to its largest term on a 24-bit window and
 *   truncated). Relative Frobenius error at K = 4096 (96 dot products, the test's figures):
 *   one long tensor-core sum 2.0e-6, a fold per k-tile 2.8e-7, sequential FP32 FMA 1.2e-6;
 *   cuBLAS SGEMM measured 1.1e-6 at 4096^3 (results/h200). Other intervals (256 dot
 *   products, same model): a fold per k8 4.4e-7 (more FP32 roundings, and 4x the FADDs),
 *   per 8 / 16 / 32 k8 2.5e-7 / 3.2e-7 / 4.4e-7; never, with 3 guard bits, 1.1e-5. A fold
 *   per k-tile costs nothing extra in the schedule (the partial can only be read after
 *   wait_group 0 anyway) and keeps the error about 0.25x cuBLAS SGEMM's in the model.
 * - Smaller tile: the partial doubles the accumulators, so a consumer warpgroup holds
 *   64 n x 128 m (wgmma m64n128k8: 64 accumulators + 64 partial + 2 x 16 fragment
 *   registers) instead of 64 x 256; block tile 128 (m) x 128 (n) x 32 (k).
 * Schedule (per consumer warpgroup and k-tile): wait full and lo_full; load the B^T
 * fragments (16 LDS.32, conflict-free as in wgmma) and split them; fence; 12 wgmmas; commit;
 * wait_group 0; release the stage; fold. Every fragment and partial register is touched only
 * while none of this warpgroup's wgmmas is in flight (wgmma_ws's header: writing fragment
 * registers with wgmmas in flight was wrong on the H200); the other consumer warpgroup's 12
 * wgmmas (768 tensor cycles at the ceiling) cover this one's gap (about 150 instructions
 * per warp: 64 FADD, 16 LDS, the splits, two barrier waits).
 * Tiles: 128 x 128 x 32, 1 producer + 2 consumer warpgroups (384 threads), persistent (one
 * block per SM, tiles in wgmma_ws's L2-grouped order), setmaxnreg 56 / 224.
 * Shared memory: 4 stages x (A 16 KB + A_lo 16 KB + B 16 KB) = 192 KB + 3 x 4 barriers +
 * 1 KB alignment slack = 197,728 bytes, one block per SM.
 * Shapes: any m, n, k >= 1, as wgmma_ws: TMA zero-fills outside A and B (zeros split into
 * zeros), stores are guarded, k % 4 or n % 4 != 0 (or misaligned a, b) go through
 * pitch-padded copies on the stream, timed with the kernel.
 * Precision: GP_FP32 (verified against the FP32 tolerance, like tf32x3_mma).
 * Built for sm_90a only; elsewhere the launcher returns cudaErrorNotSupported.
 * Expected bound: the tensor pipe at three products per GEMM flop: the wgmma ceiling
 * (475 TFLOP/s) / 3 = 158 TFLOP/s; wgmma_ws reaches 59% of the ceiling, which would be
 * 93 TFLOP/s here; the longer wgmma batches per wait (12 instead of 4) should do better.
 * Shared memory comes next: per stage the wgmmas read 96 KB (4 KB per m64n128k8), the
 * fragment loads 16 KB, the split 32 KB and TMA writes 32 KB: 115 B per cycle at the
 * tensor ceiling against 128, 75 B at the 65% the target needs. L2 is not the limit: a
 * 128 x 128 x 32 k-tile is 32 KB of TMA per 1 Mflop of GEMM (3 of tensor work): 3.2 TB/s at
 * 102 TFLOP/s, where wgmma (same tile, one product) drew 5.9 TB/s at its 190 TFLOP/s.
 * Target: >= 2x cuBLAS SGEMM at 4096^3 (~102 TFLOP/s), error within 2x of SGEMM's.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", tf32x3_wgmma.
 *       ./build/gemmprof -k tf32x3_wgmma,tf32x3_mma,cublas
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/pipeline.cuh"
#include "kernels/sm90_tf32.cuh"

struct tf32x3_wgmma_cfg {
    static constexpr int BM = 128;     /* m per tile = wgmma N */
    static constexpr int BN = 128;     /* n per tile = 64 per consumer warpgroup */
    static constexpr int BK = 32;      /* k per stage: one 128-byte swizzle row of A */
    static constexpr int CONSUMERS = BN / 64;
    static constexpr int NT = (CONSUMERS + 1) * 128;
    static constexpr int STAGES = 4;
    static constexpr int GROUP_M = 8;  /* tile rows per L2 group */
    static constexpr int SPLIT_WARPS = 2; /* producer warps 1 .. SPLIT_WARPS fill A_lo */
    static constexpr int PRODUCER_REGS = 56, CONSUMER_REGS = 224;
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4;
    static constexpr int TMA_BYTES = A_BYTES + B_BYTES; /* per stage, by TMA */
    static constexpr int STAGE_BYTES = 2 * A_BYTES + B_BYTES;
    static constexpr int SMEM = STAGES * STAGE_BYTES + 3 * STAGES * 8 + 1024;
};

#if SM90_TF32_DEVICE
/* x rounded to TF32 (to nearest, ties away), as the bits the tensor core reads */
static __device__ __forceinline__ uint32_t x3w_tf32_rna(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

/* The low part of an A element: what the tensor core's truncation to TF32 drops, itself
 * rounded to TF32 (A - trunc_tf32(A) is exact in FP32) */
static __device__ __forceinline__ float x3w_a_lo(float a)
{
    const float hi = __uint_as_float(__float_as_uint(a) & 0xffffe000u);
    return __uint_as_float(x3w_tf32_rna(a - hi));
}
#endif

static __global__ void __launch_bounds__(tf32x3_wgmma_cfg::NT, 1)
gemm_tf32x3_wgmma_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                         const __grid_constant__ CUtensorMap map_b, float *__restrict__ c)
{
#if SM90_TF32_DEVICE
    using P = tf32x3_wgmma_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES, KS = BK / 8;
    static_assert(BK == 32 && BM % 8 == 0 && BM <= 256 && BN % 64 == 0, "tile shape");
    static_assert(P::PRODUCER_REGS * 128 + P::CONSUMER_REGS * 128 * P::CONSUMERS <= 65536, "register file");
    static_assert(P::SPLIT_WARPS >= 1 && P::SPLIT_WARPS <= 3, "split warps are producer warps 1..3");
    static_assert((BM * BK / 4) % (32 * P::SPLIT_WARPS * 4) == 0, "split: whole batches of 4 float4");
    static_assert(P::SMEM <= 227 * 1024, "shared memory per block");

    extern __shared__ uint8_t tf32x3_wgmma_smem_raw[];
    uint8_t *const smem =
        tf32x3_wgmma_smem_raw + ((1024 - (sm90_smem_addr(tf32x3_wgmma_smem_raw) & 1023)) & 1023);
    float *const as = reinterpret_cast<float *>(smem);                          /* [STAGES][BM][BK] swizzled */
    float *const alo = reinterpret_cast<float *>(smem + STAGES * P::A_BYTES);   /* same layout: A_lo */
    float *const bs = reinterpret_cast<float *>(smem + 2 * STAGES * P::A_BYTES); /* [STAGES][BN/8][BK][8] */
    uint64_t *const full = reinterpret_cast<uint64_t *>(smem + STAGES * P::STAGE_BYTES);
    uint64_t *const lo_full = full + STAGES;
    uint64_t *const empty = lo_full + STAGES;

    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, tiles = tiles_m * tiles_n;
    const int ktiles = (k + BK - 1) / BK;
    const int tid = threadIdx.x, wg = tid / 128, warp = (tid / 32) % 4, lane = tid % 32;

    if (tid == 0) {
        tma_prefetch_map(&map_a);
        tma_prefetch_map(&map_b);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full[s], 1);                      /* the producer's expect_tx arrival */
            mbar_init(&lo_full[s], P::SPLIT_WARPS * 32); /* every split thread, after its fence */
            mbar_init(&empty[s], P::CONSUMERS * 4);      /* one arrival per consumer warp */
        }
        mbar_init_fence();
    }
    __syncthreads();

    if (wg == 0) {
        setmaxnreg_dec<P::PRODUCER_REGS>();
        if (warp == 0) {
            if (lane != 0)
                return;
            sm90_produce_tiles<BM, BN, STAGES, P::GROUP_M>(m, n, tiles, ktiles, empty, [&](int, int s, int t, int row0,
                                                                                         int col0) {
                mbar_arrive_expect_tx(&full[s], P::TMA_BYTES);
                tma_load_2d(as + s * (BM * BK), &map_a, t * BK, row0, &full[s]);
#pragma unroll
                for (int p = 0; p < BN / 8; ++p)
                    tma_load_2d(bs + s * (BN * BK) + p * (BK * 8), &map_b, col0 + 8 * p, t * BK, &full[s]);
            });
            return;
        }
        if (warp > P::SPLIT_WARPS)
            return;
        /* split warps: A_lo of every stage use, in the same order as the producer */
        constexpr int F4 = BM * BK / 4, ST = 32 * P::SPLIT_WARPS; /* float4s per stage, stride */
        const int st = tid - 32;
        const int uses = ((tiles - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x) * ktiles;
        for (int it = 0; it < uses; ++it) {
            const int s = it % STAGES;
            mbar_wait(&full[s], (unsigned)(it / STAGES) & 1u);
            const float4 *const src = reinterpret_cast<const float4 *>(as + s * (BM * BK));
            float4 *const dst = reinterpret_cast<float4 *>(alo + s * (BM * BK));
#pragma unroll 1
            for (int i0 = st; i0 < F4; i0 += 4 * ST) {
                float4 v[4];
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    v[q] = src[i0 + q * ST];
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    v[q].x = x3w_a_lo(v[q].x);
                    v[q].y = x3w_a_lo(v[q].y);
                    v[q].z = x3w_a_lo(v[q].z);
                    v[q].w = x3w_a_lo(v[q].w);
                    dst[i0 + q * ST] = v[q];
                }
            }
            fence_proxy_async_smem(); /* this thread's A_lo writes before wgmma's reads */
            mbar_arrive(&lo_full[s]);
        }
        return;
    }

    /* consumers: warpgroup cw owns n rows 64 cw .. 64 cw + 63 of the tile, all BM m */
    setmaxnreg_inc<P::CONSUMER_REGS>();
    const int cw = wg - 1, g = lane / 4, tig = lane % 4;
    const int panel = (64 * cw + 16 * warp) / 8;
    float acc[BM / 2], part[BM / 2];
    uint32_t bhi[KS][4], blo[KS][4];
    int it = 0;
#pragma unroll
    for (int i = 0; i < BM / 2; ++i)
        part[i] = 0.f; /* never read before a scale-d 0 wgmma writes it; defined all the same */

    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0, col0;
        grouped_tile<BM, BN>(tile, m, n, P::GROUP_M, &row0, &col0);
#pragma unroll
        for (int i = 0; i < BM / 2; ++i)
            acc[i] = 0.f;
        for (int t = 0; t < ktiles; ++t, ++it) {
            const int s = it % STAGES;
            const unsigned phase = (unsigned)(it / STAGES) & 1u;
            mbar_wait(&full[s], phase);
            mbar_wait(&lo_full[s], phase);
            /* B^T fragments (element (n, k): panel n/8, row k), split into hi and lo */
            const float *const bp = bs + s * (BN * BK) + panel * (BK * 8);
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                const int k0 = 8 * ks + tig;
                const float v[4] = {bp[k0 * 8 + g], bp[BK * 8 + k0 * 8 + g], bp[(k0 + 4) * 8 + g],
                                    bp[BK * 8 + (k0 + 4) * 8 + g]};
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    bhi[ks][q] = x3w_tf32_rna(v[q]);
                    blo[ks][q] = x3w_tf32_rna(v[q] - __uint_as_float(bhi[ks][q]));
                }
            }
            wgmma_fence(); /* fragments written; part read by the last fold */
            const float *const ap = as + s * (BM * BK);
            const float *const lp = alo + s * (BM * BK);
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) /* A_lo * B_hi; the first starts the partial */
                wgmma_m64n128k8_rs(part, bhi[ks], wgmma_desc_k128(lp + 8 * ks), ks == 0 ? 0 : 1);
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) /* A_hi * B_lo */
                wgmma_m64n128k8_rs(part, blo[ks], wgmma_desc_k128(ap + 8 * ks), 1);
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) /* A_hi * B_hi */
                wgmma_m64n128k8_rs(part, bhi[ks], wgmma_desc_k128(ap + 8 * ks), 1);
            wgmma_commit();
            wgmma_wait<0>(); /* nothing of this warpgroup in flight: stage, fragments, part free */
            if (lane == 0)
                mbar_arrive(&empty[s]);
#pragma unroll
            for (int i = 0; i < BM / 2; ++i)
                acc[i] += part[i];
        }
        sm90_store_ct<BM>(acc, c, m, n, row0, col0 + 64 * cw + 16 * warp + g, tig);
    }
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c;
#endif
}

/* C = A * B (row-major) with 3xTF32 wgmma products on `stream`; any m, n, k >= 1. Returns
 * cudaErrorNotSupported unless built for sm_90a and run on compute capability 9.0. Never
 * synchronizes. */
GEMM_LAUNCHER(tf32x3_wgmma);
extern "C" cudaError_t gemm_tf32x3_wgmma_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                                const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return sm90_persistent_gemm<tf32x3_wgmma_cfg, gemm_tf32x3_wgmma_kernel>(m, n, k, a, b, c, stream);
}

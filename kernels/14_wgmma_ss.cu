/* wgmma_ss: wgmma_ws with both wgmma operands in shared memory (SS mode): the producer
 * warpgroup transposes B into a K-major, 128B-swizzled buffer, so the consumers issue
 * their wgmmas back to back with two k-tiles in flight and no fragment registers.
 *
 * Changed from wgmma_ws, and why:
 * - wgmma_ws takes B^T (wgmma's A operand) from registers, and writing those fragment
 *   registers while the warpgroup's own wgmmas are in flight was wrong on the H200 (its
 *   header), so every k-tile ends with wait_group 0: each consumer warpgroup's tensor work
 *   stops between k-tiles and only the other warpgroup covers the gap. Here B^T comes from
 *   shared memory by descriptor, like A^T: nothing is written to registers that an
 *   in-flight wgmma reads (only the accumulators, which chained wgmmas own), so a k-tile's
 *   four wgmmas are committed and the consumer waits only for the k-tile before it
 *   (wait_group 1), releasing that k-tile's stage; the next k-tile's wgmmas are queued
 *   while the current ones run.
 * - B^T must lie K-major for a TF32 shared-memory operand (no transpose bit for 32-bit
 *   types), and TMA cannot transpose 4-byte elements (a tensor map only reorders whole
 *   boxes, its swizzle permutes 16-byte chunks within rows). So the producer warpgroup,
 *   where wgmma_ws leaves 127 of 128 threads idle, does it: TMA lands the B tile as stored,
 *   [32 k][128 n] (one unswizzled box of 128 n x 32 k, 16 KB), in one of two source
 *   buffers; producer warps 1 and 2 (64 threads) read it and write B^T into the stage's
 *   B^T buffer in wgmma's canonical K-major 128B-swizzle layout (row n = the 32 k of that
 *   n, 128 bytes; 8-row groups 1024 bytes apart; 16-byte chunk index XOR row % 8: what
 *   TMA's SWIZZLE_128B would give a K-major [128][32] box, described by wgmma_desc_k128
 *   exactly as A^T is). Protocol as tf32x3_wgmma's A_lo pass: wait for the TMA (src_full),
 *   transpose, fence.proxy.async (generic writes before wgmma's async-proxy reads), arrive
 *   on the stage's tfull barrier (64 arrivals) and on the source buffer's src_empty; the
 *   consumers wait on full (A^T's TMA) and tfull.
 * - The transpose (kernels/wgmma_ss_map.h, checked by tests/test_wgmma_ss_map.c): per
 *   thread 4 blocks of 4 k x 4 n, each 4 LDS.128 (4 n of one k row), a register transpose
 *   and 4 STS.128 (4 k of one n row = one 16-byte chunk of B^T). Thread tt takes n-chunk
 *   16 (tt/32) + 8 ((tt%32)/16) + tt%8 and k-chunks (((p >> 1) + r) & 3) | 4 (lane/8 & 1)
 *   (p = lane % 8, r = 0..3), so the 8 lanes of each quarter warp (a 128-bit access is
 *   served per quarter warp) read 8 different 16-byte bank groups and write 8 different
 *   swizzled chunks: 0 bank conflicts, 1 wavefront per quarter warp (the test counts every
 *   instruction). Cost per stage: 32 LDS.128 + 32 STS.128 warp instructions = 256
 *   wavefronts (16 KB read + 16 KB written) = 256 cycles of the SM's 128 B/cycle shared
 *   memory, against about 1,024 tensor cycles for the stage's 256 x 128 x 32 at the wgmma
 *   ceiling; pipelined behind the ring (it runs stages ahead of the consumers), so it costs
 *   bandwidth, not latency. Its time is inside the kernel's time: no pre-pass.
 * - Buffers: the per-stage ring holds A^T (TMA) and B^T (transposed), released by the
 *   consumers (empty); the B source has its own ring of 2 (src_full / src_empty), since it
 *   is free once transposed: 4 stages x 48 KB + 2 x 16 KB fit where 4 x 64 KB would not.
 *   Buffer reuse is ordered by the barriers alone: the B source TMA of stage use u is
 *   issued after empty of use u - STAGES (so the transposer, which waits for that TMA,
 *   writes B^T(u) only after the consumers' wgmmas of use u - STAGES are done) and after
 *   src_empty of use u - 2 (both transposer warps read their source).
 * - Registers: consumers hold 128 accumulators and no fragments; setmaxnreg 72 / 216
 *   (the transposers keep two 4 x 4 blocks, 32 floats, in flight).
 * Unchanged from wgmma_ws: C^T = B^T A^T (A^T the wgmma B operand, 128B-swizzled TMA boxes
 * of 32 k x 256 m); tile 256 (m, wgmma N = 256) x 128 (n, 2 consumer warpgroups x 64,
 * wgmma M) x 32 (k), m64n256k8 (SS) x 4 per k-tile per consumer; persistent blocks (one
 * per SM) walking tiles blockIdx.x, + gridDim.x, ... in the L2-grouped order (8 tile rows
 * of m per group); accumulators stored transposed into C (sm90_store_ct), guarded.
 * Shared memory: 4 stages x (A^T 32 KB + B^T 16 KB) + 2 x 16 KB B source = 224 KB, + 16
 * barriers + 1 KB alignment slack = 230,528 bytes (of 232,448), one block per SM.
 * Shapes: any m, n, k >= 1, as wgmma_ws: TMA zero-fills outside A and B (zeros transpose
 * to zeros; the k padding of both operands is zero), stores are guarded, k % 4 or n % 4 !=
 * 0 (or misaligned a, b) go through sm90_tf32_gemm's pitch-padded copies on the stream,
 * timed with the kernel.
 * Built for sm_90a only; elsewhere the launcher returns cudaErrorNotSupported.
 * Expected bound: shared-memory traffic per stage (per SM) is 2 consumers x 4 x (8 KB A^T
 * + 2 KB B^T) = 80 KB of wgmma operand reads, 48 KB of TMA writes and 32 KB of transpose,
 * 160 KB per ~1,024 tensor cycles: if the tensor core's operand reads share the 128 B/cycle
 * port, 1,250 cycles, 82% of the 475 TFLOP/s ceiling = ~390 TFLOP/s (wgmma_ws: 128 KB, but
 * its tensor pipe idles at every k-tile end). Target: 90% of cuBLAS TF32, ~351 TFLOP/s at
 * 4096^3, ~359 at 8192^3.
 * Build (CUDA 13.0, -Xptxas -v): 168 registers at launch, 0 spills, no C7510-C7519 "wgmma
 * serialized" advisory (an accumulator read slipped in before wait_group, as a check, gives
 * C7514). Not run on a GPU yet; the barrier protocol (both rings, parities, release one
 * k-tile late) was checked off-line with a randomised model of the five actors and the
 * asynchronous TMA and wgmma completions (tests/wgmma_ss_protocol.py): no deadlock, no
 * stale or overwritten operand in 1,500 schedules, and the model catches a missing
 * src_empty wait or a release of the current instead of the previous stage.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", wgmma_ss. The 90% target is missed;
 * one mbarrier arrival per transposer warp instead of one per thread ran slower and was
 * reverted. Without the tensor maps' L2 promotion (none now) wgmma_ws runs at this kernel's
 * speed: the transpose's gain over wgmma_ws was the promotion's loss there; wgmma_rs is the
 * step that goes further.
 *       ./build/gemmprof -k wgmma_ws,wgmma_ss,cublas_tf32
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/pipeline.cuh"
#include "kernels/sm90_tf32.cuh"
#include "kernels/wgmma_ss_map.h"

struct wgmma_ss_cfg {
    static constexpr int BM = 256;     /* m per tile = wgmma N */
    static constexpr int BN = 128;     /* n per tile = 64 per consumer warpgroup (wgmma M) */
    static constexpr int BK = 32;      /* k per stage: one 128-byte swizzle row of A^T and B^T */
    static constexpr int CONSUMERS = BN / 64;
    static constexpr int NT = (CONSUMERS + 1) * 128;
    static constexpr int STAGES = 4;   /* A^T + B^T ring */
    static constexpr int SRC = 2;      /* B source ring (as TMA lands it, before the transpose) */
    static constexpr int GROUP_M = 8;  /* tile rows per L2 group */
    static constexpr int TRANS_THREADS = WGSS_TRANS_THREADS; /* producer warps 1 and 2 */
    static constexpr int PRODUCER_REGS = 72, CONSUMER_REGS = 216;
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES; /* A^T + B^T */
    static constexpr int BARRIERS = 3 * STAGES + 2 * SRC;
    static constexpr int SMEM = STAGES * STAGE_BYTES + SRC * B_BYTES + BARRIERS * 8 + 1024;
};

static __global__ void __launch_bounds__(wgmma_ss_cfg::NT, 1)
gemm_wgmma_ss_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b, float *__restrict__ c)
{
#if SM90_TF32_DEVICE
    using P = wgmma_ss_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES, SRC = P::SRC;
    static_assert(BK == 32 && BM % 8 == 0 && BM <= 256 && BN == 128, "tile shape");
    static_assert(BN == WGSS_BN && BK == WGSS_BK, "the transpose map's tile");
    static_assert(P::TRANS_THREADS * WGSS_BLOCKS_PER_THREAD * 16 == BN * BK, "transpose: 4x4 blocks cover the tile");
    static_assert(P::TRANS_THREADS % 32 == 0 && P::TRANS_THREADS / 32 <= 3, "transposers are producer warps 1..3");
    static_assert(WGSS_BLOCKS_PER_THREAD % 2 == 0, "transpose: two blocks in flight");
    static_assert(P::PRODUCER_REGS * 128 + P::CONSUMER_REGS * 128 * P::CONSUMERS <= 65536, "register file");
    static_assert(P::SMEM <= 227 * 1024, "shared memory per block");

    extern __shared__ uint8_t wgmma_ss_smem_raw[];
    uint8_t *const smem = wgmma_ss_smem_raw + ((1024 - (sm90_smem_addr(wgmma_ss_smem_raw) & 1023)) & 1023);
    float *const as = reinterpret_cast<float *>(smem);                            /* [STAGES][BM][BK] swizzled */
    float *const bt = reinterpret_cast<float *>(smem + STAGES * P::A_BYTES);      /* [STAGES][BN][BK] swizzled */
    float *const bsrc = reinterpret_cast<float *>(smem + STAGES * P::STAGE_BYTES); /* [SRC][BK][BN] */
    uint64_t *const full = reinterpret_cast<uint64_t *>(smem + STAGES * P::STAGE_BYTES + SRC * P::B_BYTES);
    uint64_t *const tfull = full + STAGES;
    uint64_t *const empty = tfull + STAGES;
    uint64_t *const src_full = empty + STAGES;
    uint64_t *const src_empty = src_full + SRC;

    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, tiles = tiles_m * tiles_n;
    const int ktiles = (k + BK - 1) / BK;
    const int tid = threadIdx.x, wg = tid / 128, warp = (tid / 32) % 4, lane = tid % 32;

    if (tid == 0) {
        tma_prefetch_map(&map_a);
        tma_prefetch_map(&map_b);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full[s], 1);                    /* the producer's expect_tx arrival (A^T) */
            mbar_init(&tfull[s], P::TRANS_THREADS);    /* every transposer, after its fence */
            mbar_init(&empty[s], P::CONSUMERS * 4);    /* one arrival per consumer warp */
        }
        for (int j = 0; j < SRC; ++j) {
            mbar_init(&src_full[j], 1);                /* the producer's expect_tx arrival (B) */
            mbar_init(&src_empty[j], P::TRANS_THREADS); /* every transposer, after its reads */
        }
        mbar_init_fence();
    }
    __syncthreads();

    if (wg == 0) {
        setmaxnreg_dec<P::PRODUCER_REGS>();
        if (warp == 0) {
            if (lane != 0)
                return;
            /* B's source ring carries on across tiles like the stages */
            sm90_produce_tiles<BM, BN, STAGES, P::GROUP_M>(m, n, tiles, ktiles, empty, [&](int it, int s, int t,
                                                                                         int row0, int col0) {
                const int j = it % SRC;
                mbar_arrive_expect_tx(&full[s], P::A_BYTES);
                tma_load_2d(as + s * (BM * BK), &map_a, t * BK, row0, &full[s]);
                if (it >= SRC) /* the transposers are done reading the source's previous use */
                    mbar_wait(&src_empty[j], (unsigned)(it / SRC - 1) & 1u);
                mbar_arrive_expect_tx(&src_full[j], P::B_BYTES);
                tma_load_2d(bsrc + j * (BK * BN), &map_b, col0, t * BK, &src_full[j]);
            });
            return;
        }
        if (warp > P::TRANS_THREADS / 32)
            return;
        /* transposers: B^T of every stage use, in the producer's order */
        const int tt = tid - 32;
        const int nb = wgss_nb(tt);
        const int uses = ((tiles - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x) * ktiles;
        for (int it = 0; it < uses; ++it) {
            const int s = it % STAGES, j = it % SRC;
            mbar_wait(&src_full[j], (unsigned)(it / SRC) & 1u);
            const float *const src = bsrc + j * (BK * BN);
            float *const dst = bt + s * (BN * BK);
#pragma unroll
            for (int r0 = 0; r0 < WGSS_BLOCKS_PER_THREAD; r0 += 2) {
                float4 v[2][4]; /* v[b][i]: k = 4 kb + i, n = 4 nb .. 4 nb + 3 */
#pragma unroll
                for (int b = 0; b < 2; ++b) {
                    const int kb = wgss_kb(tt, r0 + b);
#pragma unroll
                    for (int i = 0; i < 4; ++i)
                        v[b][i] = *reinterpret_cast<const float4 *>(src + wgss_src_index(4 * kb + i, 4 * nb));
                }
#pragma unroll
                for (int b = 0; b < 2; ++b) {
                    const int kb = wgss_kb(tt, r0 + b);
                    /* rows n = 4 nb + 0..3, each the 16-byte chunk of k = 4 kb .. 4 kb + 3 */
                    *reinterpret_cast<float4 *>(dst + wgss_bt_index(4 * nb + 0, kb)) =
                        make_float4(v[b][0].x, v[b][1].x, v[b][2].x, v[b][3].x);
                    *reinterpret_cast<float4 *>(dst + wgss_bt_index(4 * nb + 1, kb)) =
                        make_float4(v[b][0].y, v[b][1].y, v[b][2].y, v[b][3].y);
                    *reinterpret_cast<float4 *>(dst + wgss_bt_index(4 * nb + 2, kb)) =
                        make_float4(v[b][0].z, v[b][1].z, v[b][2].z, v[b][3].z);
                    *reinterpret_cast<float4 *>(dst + wgss_bt_index(4 * nb + 3, kb)) =
                        make_float4(v[b][0].w, v[b][1].w, v[b][2].w, v[b][3].w);
                }
            }
            /* every value read has been stored: the source buffer is free */
            mbar_arrive(&src_empty[j]);
            fence_proxy_async_smem(); /* this thread's B^T writes before wgmma's reads */
            mbar_arrive(&tfull[s]);
        }
        return;
    }

    /* consumers: warpgroup cw owns n rows 64 cw .. 64 cw + 63 of the tile, all BM m */
    setmaxnreg_inc<P::CONSUMER_REGS>();
    const int cw = wg - 1;
    float acc[BM / 2];
    sm90_consume_tiles<BM, BN, STAGES, P::GROUP_M>(
        m, n, tiles, ktiles, full, empty, lane == 0, acc,
        [&](int s, unsigned phase) {
            mbar_wait(&tfull[s], phase);
            wgmma_fence(); /* orders the accumulator zeroing (first k-tile) before the wgmmas */
            const float *const ap = as + s * (BM * BK);
            const float *const bp = bt + s * (BN * BK) + cw * (64 * BK); /* 64 rows of 128 B: 1024-aligned */
#pragma unroll
            for (int ks = 0; ks < BK / 8; ++ks)
                wgmma_m64n256k8_ss(acc, wgmma_desc_k128(bp + 8 * ks), wgmma_desc_k128(ap + 8 * ks), 1);
        },
        [&](int row0, int col0) {
            sm90_store_ct<BM>(acc, c, m, n, row0, col0 + 64 * cw + 16 * warp + lane / 4, lane % 4);
        });
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c;
#endif
}

/* C = A * B (row-major) with the SS-mode warp-specialised persistent kernel on `stream`;
 * any m, n, k >= 1. Returns cudaErrorNotSupported unless built for sm_90a and run on
 * compute capability 9.0. Never synchronizes. */
GEMM_LAUNCHER(wgmma_ss);
extern "C" cudaError_t gemm_wgmma_ss_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                            const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    /* B lands as whole [32 k][128 n] tiles, transposed in the kernel */
    return sm90_persistent_gemm<wgmma_ss_cfg, gemm_wgmma_ss_kernel>(m, n, k, a, b, c, stream, wgmma_ss_cfg::BN);
}

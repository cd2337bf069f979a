/* bf16_wgmma, fp16_wgmma: the 16-bit tensor-core GEMM (BF16 or FP16 inputs, FP32
 * accumulate, FP32 C) on wgmma with both operands in shared memory, against cuBLAS's
 * cublas_bf16 / cublas_fp16. One template, two launchers.
 *
 * What it is, and why:
 * - The instruction: wgmma m64n256k16, the largest N. Per instruction a warpgroup reads its
 *   64 x 16 A (2 KB) and the 16 x 256 B (8 KB) from shared memory for 64 x 256 x 16 MACs:
 *   10 KB per 128 tensor cycles, the same bytes per cycle as TF32's m64n256k8 but twice the
 *   flop. No register operand (RS mode) is needed: what made wgmma_rs the TF32 step (B^T from
 *   registers instead of a transposing producer) is unnecessary here, because 16-bit wgmma
 *   can read B transposed by itself (imm-trans-b = 1, an N-major B), so B (k x n row-major,
 *   n contiguous) lands by TMA exactly as it lies in memory. A (m x k row-major) is the
 *   instruction's K-major A as it is. So both operands go straight from TMA to the tensor
 *   cores, and C = A * B is computed as is: no C^T, no transposed stores (the TF32 kernels
 *   swap A and B because TF32 has no transpose bit).
 * - The tile: 128 (m) x 256 (n) x 64 (k), two consumer warpgroups of 64 x 256 each (128
 *   FP32 accumulators per thread), one producer warp issuing TMA. A stage is A 16 KB (one
 *   box [128 rows][64 k]) + B 32 KB (four boxes [64 k][64 n]), every row 128 bytes under
 *   TMA's 128B swizzle, which wgmma reads conflict-free through the descriptors
 *   (kernels/sm90_16bit.cuh has the layout and the descriptor encoding). 4 stages: 192 KB,
 *   one block per SM; a fifth (240 KB) does not fit in 227 KB. A 256 x 128 tile would
 *   take two m64n128k16 per k16 a warpgroup: 12 KB of operand reads for the 64 x 256 x 16
 *   MACs one m64n256k16 does with 10 KB.
 * - Warp-specialised and persistent, as wgmma_ws: warpgroup 0 gives its registers away
 *   (setmaxnreg 40) and its thread 0 walks the block's tiles filling the mbarrier ring; the
 *   consumers take 232 registers. One block per SM walks tiles blockIdx.x, + gridDim.x, ...
 *   in the L2-grouped order (8 tile rows per group), so the producer loads the next tile's
 *   first stages while the consumers store the last one.
 * - The consumer loop: wait for stage t, issue its 4 wgmmas, commit, wait_group 1 (k-tile t-1
 *   retired), release t-1's stage (one arrival per consumer warp). Two k-tiles in flight a
 *   warpgroup, no register operand to protect (the TF32 kernels' fragment hazards do not
 *   arise), and the other warpgroup keeps the tensor pipe busy across either's waits.
 * - The epilogue: each thread stores its accumulators straight to C, pairs of columns as
 *   8-byte stores (a warp writes 8 rows x 32 bytes per instruction: whole sectors); a 128 x
 *   256 FP32 staging tile (128 KB) would not fit beside the ring.
 * Shapes: any m, n, k >= 1. TMA zero-fills outside A and B, stores are guarded. TMA needs
 * 16-byte global strides, so k % 8 or n % 8 != 0 (or a misaligned copy) go through
 * pitch-padded 16-bit copies made on the stream inside the launcher, timed with the kernel
 * (cuBLAS reads the unpadded copies).
 * Inputs: the shape's 16-bit copies of A and B (kernels/gemm.h gemm_context_input16), made
 * outside the timed region for this variant and cuBLAS's alike.
 * Built for sm_90a only (Makefile SM90A_SRC); elsewhere the launchers return
 * cudaErrorNotSupported. The descriptor encoding of the N-major B is checked on the GPU by
 * tools/lab/probe_wgmma16.cu (tools/h200_session.sh step wgmma16).
 * Target: 90% of cuBLAS's BF16/FP16 GEMM at 4096^3 and 8192^3 on the H200.
 *       ./build/gemmprof -k bf16_wgmma,fp16_wgmma,cublas_bf16,cublas_fp16
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/pipeline.cuh"
#include "kernels/sm90_16bit.cuh"
#include "kernels/sm90_tf32.cuh"

struct wgmma16_cfg {
    static constexpr int BM = 128;    /* m per tile: 64 per consumer warpgroup */
    static constexpr int BN = 256;    /* n per tile = wgmma N */
    static constexpr int BK = 64;     /* k per stage: one 128-byte swizzle row of A */
    static constexpr int CONSUMERS = BM / 64;
    static constexpr int NT = (CONSUMERS + 1) * 128;
    static constexpr int STAGES = 4;
    static constexpr int GROUP_M = 8; /* tile rows per L2 group */
    static constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;
    static constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    static constexpr int SMEM = STAGES * STAGE_BYTES + 2 * STAGES * 8 + 1024;
    static_assert(BN == 256 && BK == WGMMA16_ROW && BM % 64 == 0, "tile shape");
    static_assert(SMEM <= 227 * 1024, "shared memory");
    static_assert(PRODUCER_REGS * 128 + CONSUMER_REGS * 128 * CONSUMERS <= 65536, "register file");
};

template <bool BF16>
static __global__ void __launch_bounds__(wgmma16_cfg::NT, 1)
gemm_wgmma16_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                    const __grid_constant__ CUtensorMap map_b, float *__restrict__ c)
{
#if SM90_TF32_DEVICE
    using P = wgmma16_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES;
    extern __shared__ uint8_t wgmma16_smem_raw[];
    uint8_t *const smem = wgmma16_smem_raw + ((1024 - (sm90_smem_addr(wgmma16_smem_raw) & 1023)) & 1023);
    uint8_t *const as = smem, *const bs = smem + STAGES * P::A_BYTES;
    uint64_t *const full = reinterpret_cast<uint64_t *>(smem + STAGES * P::STAGE_BYTES);
    uint64_t *const empty = full + STAGES;
    const int tiles = ((m + BM - 1) / BM) * ((n + BN - 1) / BN), ktiles = (k + BK - 1) / BK;
    const int tid = threadIdx.x, wg = tid / 128;

    if (tid == 0) {
        tma_prefetch_map(&map_a);
        tma_prefetch_map(&map_b);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full[s], 1);                  /* the producer's expect_tx arrival */
            mbar_init(&empty[s], P::CONSUMERS * 4);  /* one arrival per consumer warp */
        }
        mbar_init_fence();
    }
    __syncthreads();

    if (wg == 0) { /* the producer: thread 0 */
        setmaxnreg_dec<P::PRODUCER_REGS>();
        if (tid != 0)
            return;
        sm90_produce_tiles<BM, BN, STAGES, P::GROUP_M>(m, n, tiles, ktiles, empty, [&](int, int s, int t, int row0,
                                                                                     int col0) {
            mbar_arrive_expect_tx(&full[s], P::STAGE_BYTES);
            wgmma16_load_stage<BM, BN, BK>(as + s * P::A_BYTES, bs + s * P::B_BYTES, &map_a, &map_b, row0, col0,
                                           t * BK, &full[s]);
        });
        return;
    }

    /* consumers: warpgroup cw owns rows 64 cw .. 64 cw + 63 of the tile, all BN columns */
    setmaxnreg_inc<P::CONSUMER_REGS>();
    const int cw = wg - 1, warp = (tid / 32) % 4, lane = tid % 32, g = lane / 4, tig = lane % 4;
    uint32_t b_lbo, b_sbo;
    wgmma16_b_offsets<BK>(&b_lbo, &b_sbo);
    float acc[128];
    sm90_consume_tiles<BM, BN, STAGES, P::GROUP_M>(
        m, n, tiles, ktiles, full, empty, lane == 0, acc,
        [&](int s, unsigned) {
            wgmma_fence();
            wgmma16_ktile<BF16, WGMMA16_TRANS_B, BK>(acc, as + s * P::A_BYTES + cw * 64 * 128, bs + s * P::B_BYTES,
                                                    b_lbo, b_sbo);
        },
        [&](int row0, int col0) { wgmma16_store(acc, c, m, n, row0 + 64 * cw, col0, warp, g, tig); });
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c;
#endif
}

/* C = A * B (row-major) on `stream` from the shape's 16-bit copies of a and b; any m, n,
 * k >= 1. cudaErrorInvalidValue when the context holds no copies of (a, b, m, n, k),
 * cudaErrorNotSupported unless built for sm_90a and run on compute capability 9.0. Never
 * synchronizes. */
template <bool BF16>
static cudaError_t wgmma16_run(struct gemm_context *ctx, int m, int n, int k, const float *a, const float *b,
                               float *c, cudaStream_t stream)
{
    using P = wgmma16_cfg;
    static struct sm90_maps16 maps;
    static bool smem_raised = false;
    const void *a16, *b16;
    cudaError_t e = gemm_context_input16(ctx, BF16 ? GEMM_INPUT_BF16 : GEMM_INPUT_FP16, a, b, m, n, k, &a16, &b16);
    unsigned grid = 0; /* persistent: at most one block per SM */
    if (e == cudaSuccess)
        e = sm90_persistent_grid(m, n, P::BM, P::BN, &grid);
    if (e != cudaSuccess)
        return e;
    return sm90_16bit_gemm(&maps, &smem_raised, (const void *)gemm_wgmma16_kernel<BF16>, P::SMEM, BF16, P::BM, P::BK,
                           m, n, k, a16, b16, stream, [&](const struct sm90_maps16 &mp) {
                               gemm_wgmma16_kernel<BF16><<<grid, P::NT, P::SMEM, stream>>>(m, n, k, mp.a, mp.b, c);
                           });
}

GEMM_LAUNCHER(bf16_wgmma);
extern "C" cudaError_t gemm_bf16_wgmma_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                              const float *b, float *c, cudaStream_t stream)
{
    return wgmma16_run<true>(ctx, m, n, k, a, b, c, stream);
}

GEMM_LAUNCHER(fp16_wgmma);
extern "C" cudaError_t gemm_fp16_wgmma_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                              const float *b, float *c, cudaStream_t stream)
{
    return wgmma16_run<false>(ctx, m, n, k, a, b, c, stream);
}

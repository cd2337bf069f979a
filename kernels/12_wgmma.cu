/* wgmma: Hopper warpgroup MMA (wgmma.mma_async m64n128k8 TF32) fed by TMA through an
 * mbarrier pipeline. The first tensor-core step that is Hopper-only (sm_90a).
 *
 * Changed from the mma.sync step: one instruction now multiplies 64 x 128 x 8 for a whole
 * warpgroup (4 warps) and runs asynchronously; its B operand is read by the tensor core
 * straight from shared memory through a descriptor, so no registers or LDS are spent on
 * it; tiles arrive by TMA (one thread issues a whole 16 KB box, no per-thread copies, no
 * address arithmetic), and each stage has a "full" mbarrier (TMA bytes landed) and an
 * "empty" one (all warps done with it) instead of block-wide barriers.
 *
 * Layout (the catch): TF32 wgmma takes only K-major operands from shared memory. Row-major
 * A (m x k) is K-major, B (k x n) is not. So the kernel computes the transposed product
 * C^T (n x m) = B^T (n x k) * A^T (k x m): wgmma's "A" is B^T, taken from REGISTERS (the
 * register form has no majorness), and wgmma's "B" is A^T, which is A as it lies in
 * memory: K-major, loaded by TMA with 128B swizzle. Nothing is transposed in memory; the
 * cost is that B^T passes through registers: per warp and k-step 4 LDS.32 (conflict-free:
 * B sits in shared memory as [n/8][k][8] panels, one 32-byte-wide TMA box per panel, so a
 * warp's 32 loads are 128 consecutive bytes), and the accumulator is C^T, stored
 * transposed: each store instruction writes 4 rows x 32 bytes of C.
 * Tiles: block tile 128 (m) x 128 (n) x 32 (k); 2 warpgroups, each owning 64 n (wgmma M)
 * x all 128 m (wgmma N), 64 FP32 accumulators per thread; 3 stages of 32 KB (A 16 KB, B
 * 16 KB), 2 blocks per SM. Thread 0 is also the producer: it refills a stage once every
 * warp has arrived on its empty barrier. Within a warpgroup a k-tile's four wgmmas are
 * waited for before the next k-tile's fragments are loaded (wait_group 0): the other
 * warpgroups on the SM keep the tensor cores busy meanwhile. Blocks are visited in
 * groups of 8 tile rows for L2 reuse, as in warptile.
 * Shapes: any m, n, k >= 1. TMA zero-fills whatever lies outside A or B (m, n and k
 * edges), stores are guarded. TMA needs 16-byte row pitches and bases: when k % 4 != 0
 * or a is misaligned, A is first copied with its pitch rounded up to 4 floats (likewise B
 * for n % 4 or b); the copy runs in the launcher on the same stream and counts in the
 * time. c has no alignment requirement (scalar stores).
 * Precision: the tensor cores read the top 19 bits of each FP32 input (TF32, truncated).
 * Built for sm_90a only (Makefile SM90A_SRC); elsewhere the launcher returns
 * cudaErrorNotSupported. Expected: well above mma.sync, below cuBLAS TF32 (no producer
 * specialisation, one k-tile in flight per warpgroup, 128 x 128 tiles).
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", wgmma.
 *       ./build/gemmprof -k wgmma,cublas_tf32
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/sm90_tf32.cuh"

struct wgmma_cfg {
    static constexpr int BM = 128;      /* m per block = wgmma N */
    static constexpr int BN = 128;      /* n per block = 64 per warpgroup (wgmma M) */
    static constexpr int BK = 32;       /* k per stage: one 128-byte swizzle row of A */
    static constexpr int WGS = BN / 64; /* warpgroups */
    static constexpr int NT = WGS * 128;
    static constexpr int STAGES = 3;
    static constexpr int GROUP_M = 8;   /* tile rows per L2 group */
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    /* stages, their barriers, and slack to align the first stage to 1024 bytes */
    static constexpr int SMEM = STAGES * STAGE_BYTES + 2 * STAGES * 8 + 1024;
};

static __global__ void __launch_bounds__(wgmma_cfg::NT, 2)
gemm_wgmma_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
             const __grid_constant__ CUtensorMap map_b, float *__restrict__ c)
{
#if SM90_TF32_DEVICE
    using P = wgmma_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES;
    static_assert(BK == 32, "one 128B swizzle row of A per stage row");
    static_assert(BM % 8 == 0 && BM <= 256 && BN % 64 == 0, "wgmma N and warpgroup rows");

    extern __shared__ uint8_t wgmma_smem_raw[];
    /* 128B-swizzled tiles must start on 1024 bytes: the swizzle is a function of the address */
    uint8_t *const smem = wgmma_smem_raw + ((1024 - (sm90_smem_addr(wgmma_smem_raw) & 1023)) & 1023);
    float *const as = reinterpret_cast<float *>(smem);                      /* [STAGES][BM][BK] swizzled */
    float *const bs = reinterpret_cast<float *>(smem + STAGES * P::A_BYTES); /* [STAGES][BN/8][BK][8] */
    uint64_t *const full = reinterpret_cast<uint64_t *>(smem + STAGES * P::STAGE_BYTES);
    uint64_t *const empty = full + STAGES;

    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    const int per_group = P::GROUP_M * tiles_n;
    const int first_m = (int)blockIdx.x / per_group * P::GROUP_M;
    const int group_rows = min(tiles_m - first_m, P::GROUP_M);
    const int in_group = (int)blockIdx.x % per_group;
    const int row0 = (first_m + in_group % group_rows) * BM; /* first m of the tile */
    const int col0 = (in_group / group_rows) * BN;           /* first n of the tile */

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int ktiles = (k + BK - 1) / BK;

    if (tid == 0) {
        tma_prefetch_map(&map_a);
        tma_prefetch_map(&map_b);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full[s], 1);             /* the producer's expect_tx arrival */
            mbar_init(&empty[s], P::NT / 32);   /* one arrival per warp */
        }
        mbar_init_fence();
    }
    __syncthreads();

    /* Issues k-tile t into stage s: A box (32 k x BM m), BN/8 B panels (8 n x 32 k). */
    auto produce = [&](int s, int t) {
        mbar_arrive_expect_tx(&full[s], P::STAGE_BYTES);
        tma_load_2d(as + s * (BM * BK), &map_a, t * BK, row0, &full[s]);
#pragma unroll
        for (int p = 0; p < BN / 8; ++p)
            tma_load_2d(bs + s * (BN * BK) + p * (BK * 8), &map_b, col0 + 8 * p, t * BK, &full[s]);
    };
    if (tid == 0)
        for (int t = 0; t < STAGES && t < ktiles; ++t)
            produce(t, t);

    /* this thread's fragment rows: n = 64 wg + 16 q + g (+8); D columns m = 8j + 2 tig (+1) */
    const int wg = warp / 4, q = warp % 4, g = lane / 4, tig = lane % 4;
    const int panel = (64 * wg + 16 * q) / 8; /* first of the warp's two 8-wide n panels */

    float acc[BM / 2];
#pragma unroll
    for (int i = 0; i < BM / 2; ++i)
        acc[i] = 0.f;

    for (int t = 0; t < ktiles; ++t) {
        const int s = t % STAGES;
        const unsigned phase = (unsigned)(t / STAGES) & 1u;
        mbar_wait(&full[s], phase);

        /* B^T fragments for the 4 k-steps: element (n, k) of B^T is panel n/8, row k, col n%8 */
        const float *const bp = bs + s * (BN * BK) + panel * (BK * 8);
        uint32_t frag[BK / 8][4];
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks) {
            const int k0 = 8 * ks + tig;
            frag[ks][0] = __float_as_uint(bp[k0 * 8 + g]);
            frag[ks][1] = __float_as_uint(bp[BK * 8 + k0 * 8 + g]);
            frag[ks][2] = __float_as_uint(bp[(k0 + 4) * 8 + g]);
            frag[ks][3] = __float_as_uint(bp[BK * 8 + (k0 + 4) * 8 + g]);
        }
        wgmma_fence(); /* the fragment registers were just written */
        const float *const ap = as + s * (BM * BK);
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks)
            wgmma_m64n128k8_rs(acc, frag[ks], wgmma_desc_k128(ap + 8 * ks), 1);
        wgmma_commit();
        wgmma_wait<0>(); /* this warp's wgmmas no longer read stage s or frag */
        if (lane == 0)
            mbar_arrive(&empty[s]);
        if (tid == 0 && t + STAGES < ktiles) {
            mbar_wait(&empty[s], phase); /* every warp is done with stage s */
            produce(s, t + STAGES);
        }
    }

    sm90_store_ct<BM>(acc, c, m, n, row0, col0 + 64 * wg + 16 * q + g, tig);
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c;
#endif
}

/* C = A * B (row-major) with the TMA + wgmma kernel on `stream`; any m, n, k >= 1 (see the
 * file comment for the padded copies). Returns cudaErrorNotSupported unless this object
 * was built for sm_90a and the device is compute capability 9.0. Never synchronizes. */
GEMM_LAUNCHER(wgmma);
extern "C" cudaError_t gemm_wgmma_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                         const float *b, float *c, cudaStream_t stream)
{
    using P = wgmma_cfg;
    static struct sm90_maps maps;
    static bool smem_raised = false;
    (void)ctx;
    return sm90_tf32_gemm(&maps, &smem_raised, (const void *)gemm_wgmma_kernel, P::SMEM, P::BM, P::BK, m, n, k, a, b,
                          stream, [&](const struct sm90_maps &mp) {
                              const unsigned tiles =
                                  (unsigned)((m + P::BM - 1) / P::BM) * (unsigned)((n + P::BN - 1) / P::BN);
                              gemm_wgmma_kernel<<<tiles, P::NT, P::SMEM, stream>>>(m, n, k, mp.a, mp.b, c);
                          });
}

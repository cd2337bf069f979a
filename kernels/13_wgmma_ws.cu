/* wgmma_ws: warp-specialised wgmma: one producer warpgroup feeds two consumer
 * warpgroups through a 4-stage mbarrier ring, 256 x 128 tiles, persistent blocks.
 *
 * Changed from wgmma, and why:
 * - Producer/consumer split. A fourth, producer warpgroup only issues TMA (one thread),
 *   so no consumer warp ever waits for a stage to be released before it can compute, and
 *   loads for the next tile start while the consumers still store the last one. The
 *   producer gives its registers away (setmaxnreg 40) and the consumers take them
 *   (setmaxnreg 232): 128 accumulators + 3 x 16 fragment registers per thread.
 * - Larger tiles: 256 (m, wgmma N = 256) x 128 (n, 2 consumer warpgroups x 64). Per k8 a
 *   consumer warpgroup reads 8 KB of A^T from shared memory by descriptor and 2 KB of
 *   B^T fragments by LDS for 64 x 256 x 8 MACs: (8 + 2) KB per 262,144 flop against
 *   (4 + 2) KB per 131,072 flop in wgmma, 0.6 of the shared-memory traffic per flop.
 * - Two k-tiles in flight per warpgroup (wait_group 1) and three fragment register sets:
 *   right after issuing k-tile t the consumer loads k-tile t+1's fragments into the set
 *   k-tile t-2 used (retired); then it waits for k-tile t-1 and releases its stage. (With
 *   two sets the next fragments must be written while a wgmma reading their set's twin is
 *   in flight inside the same fence-to-wait window, and ptxas serialises every wgmma:
 *   advisory C7513.)
 * - Fragment schedule (correctness): the first build loaded k-tile t+1's fragments while
 *   k-tiles t-1 and t were in flight (wait_group 1, three register sets). It was correct at
 *   1000x1500x700 and at small shapes but wrong at 2048^3-8192^3 (relative error ~0.1,
 *   at 275-282 TFLOP/s; logs in results/h200/NOTES.md, "Kernel notes"): a fault that appears
 *   only when the tensor pipe is saturated. The mbarrier ring, parities and arrival
 *   counts check out on paper; the one timing-dependent interaction left is a register
 *   write (the fragment LDS) while this warpgroup's wgmmas, which read register operands,
 *   are still queued; that relies on ptxas keeping in-flight A registers apart. Both
 *   schedules ran side by side on the H200 (results/h200/NOTES.md, "Kernel notes"):
 *   the overlapped one wrong at 2048^3 and 4096^3 (relative error 0.057, 0.115) and at
 *   512^3, with elements explained by B or A from a neighbouring k-tile, missing or doubled
 *   k-tiles (fragments overwritten in flight); the one below correct everywhere, at 269 and
 *   283 TFLOP/s. So every fragment register is written only after this warpgroup's
 *   wgmmas are done (wait_group 0); the other consumer warpgroup keeps the tensor pipe
 *   busy meanwhile.
 * - Persistent: one block per SM walks tiles blockIdx.x, + gridDim.x, ... in the same
 *   L2-grouped order (8 tile rows of m per group), so the wave quantisation of a
 *   one-tile-per-block grid becomes a tail of at most one tile per block.
 * Layout: as wgmma (C^T = B^T A^T; A^T by 128B-swizzled TMA boxes and descriptors, B^T
 * from [n/8][k][8] panels into registers by conflict-free LDS.32; C stored transposed).
 * Stages: 4 x (A 32 KB + B 16 KB) = 192 KB of shared memory, one block per SM.
 * Shapes: any m, n, k >= 1, as wgmma: TMA zero-fills outside A and B, stores are guarded,
 * k % 4 or n % 4 != 0 (or misaligned a, b) go through pitch-padded copies on the stream,
 * timed with the kernel.
 * Built for sm_90a only; elsewhere the launcher returns cudaErrorNotSupported.
 * Target: 90% of cuBLAS TF32 at 4096^3 and 8192^3.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", wgmma_ws. Most of the gap to the
 * target was the tensor maps' 256-byte L2 promotion on this kernel's 32-byte B rows (DRAM
 * traffic tripled); no map is promoted now (kernels/sm90_tf32.cuh).
 *       ./build/gemmprof -k wgmma,wgmma_ws,cublas_tf32
 */
#include <stdint.h>
#include <type_traits>

#include "kernels/gemm.h"
#include "kernels/pipeline.cuh"
#include "kernels/sm90_tf32.cuh"
#include "kernels/sm90_ws.cuh"

using wgmma_ws_cfg = sm90_ws_cfg; /* kernels/sm90_ws.cuh */

/* Every fragment register is written only after wait_group 0 (see the file comment), so
 * no register is ever written while a wgmma of its warpgroup runs. */
static __global__ void __launch_bounds__(wgmma_ws_cfg::NT, 1)
gemm_wgmma_ws_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b, float *__restrict__ c)
{
#if SM90_TF32_DEVICE
    using P = wgmma_ws_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES;
    extern __shared__ uint8_t wgmma_ws_smem_raw[];
    sm90_ws_block blk;
    if (!sm90_ws_start<8>(wgmma_ws_smem_raw, m, n, k, &map_a, &map_b, &blk))
        return; /* the producer warpgroup */

    /* consumers: warpgroup cw owns n rows 64 cw .. 64 cw + 63 of the tile, all BM m */
    float *const as = blk.as, *const bs = blk.bs;
    uint64_t *const full = blk.full, *const empty = blk.empty;
    const int tiles = blk.tiles, ktiles = blk.ktiles;
    const int tid = threadIdx.x, wg = tid / 128;
    const int cw = wg - 1, warp = (tid / 32) % 4, lane = tid % 32, g = lane / 4, tig = lane % 4;
    const int panel = (64 * cw + 16 * warp) / 8;
    float acc[BM / 2];
    uint32_t frag[3][BK / 8][4];
    int it = 0;

    /* B^T fragments of stage s into register set BUF (element (n, k): panel n/8, row k) */
    auto load_frag = [&](auto buf_c, int s) {
        constexpr int BUF = decltype(buf_c)::value;
        const float *const bp = bs + s * (BN * BK) + panel * (BK * 8);
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks) {
            const int k0 = 8 * ks + tig;
            frag[BUF][ks][0] = __float_as_uint(bp[k0 * 8 + g]);
            frag[BUF][ks][1] = __float_as_uint(bp[BK * 8 + k0 * 8 + g]);
            frag[BUF][ks][2] = __float_as_uint(bp[(k0 + 4) * 8 + g]);
            frag[BUF][ks][3] = __float_as_uint(bp[BK * 8 + (k0 + 4) * 8 + g]);
        }
    };
    /* k-tile `it`, whose fragments are in set BUF: four wgmmas; the next k-tile's stage
     * and fragments (set BUF+1, last read by k-tile it-2, retired); then k-tile it-1 is
     * retired (wait_group 1) and its stage released */
    auto step = [&](auto buf_c, bool release_prev, bool has_next) {
        constexpr int BUF = decltype(buf_c)::value;
        const int s = it % STAGES;
        wgmma_fence();
        const float *const ap = as + s * (BM * BK);
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks)
            wgmma_m64n256k8_rs(acc, frag[BUF][ks], wgmma_desc_k128(ap + 8 * ks), 1);
        wgmma_commit();
        wgmma_wait<0>(); /* k-tile it and it-1 done: no fragment set is being read */
        if (has_next) {
            const int s1 = (it + 1) % STAGES;
            mbar_wait(&full[s1], (unsigned)((it + 1) / STAGES) & 1u);
            load_frag(std::integral_constant<int, (BUF + 1) % 3>(), s1);
        }
        wgmma_wait<1>();
        if (release_prev && lane == 0)
            mbar_arrive(&empty[(it + STAGES - 1) % STAGES]);
        ++it;
    };

    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0, col0;
        grouped_tile<P::BM, P::BN>(tile, m, n, P::GROUP_M, &row0, &col0);
#pragma unroll
        for (int i = 0; i < BM / 2; ++i)
            acc[i] = 0.f;
        mbar_wait(&full[it % STAGES], (unsigned)(it / STAGES) & 1u);
        load_frag(std::integral_constant<int, 0>(), it % STAGES);
        for (int t = 0; t < ktiles; t += 3) {
            step(std::integral_constant<int, 0>(), t > 0, t + 1 < ktiles);
            if (t + 1 < ktiles)
                step(std::integral_constant<int, 1>(), true, t + 2 < ktiles);
            if (t + 2 < ktiles)
                step(std::integral_constant<int, 2>(), true, t + 3 < ktiles);
        }
        wgmma_wait<0>();
        if (lane == 0)
            mbar_arrive(&empty[(it + STAGES - 1) % STAGES]); /* the tile's last stage */

        sm90_store_ct<BM>(acc, c, m, n, row0, col0 + 64 * cw + 16 * warp + g, tig);
    }
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c;
#endif
}

/* C = A * B (row-major) with the warp-specialised persistent kernel on `stream`; any m, n,
 * k >= 1. Returns cudaErrorNotSupported unless built for sm_90a and run on compute
 * capability 9.0. Never synchronizes. */
GEMM_LAUNCHER(wgmma_ws);
extern "C" cudaError_t gemm_wgmma_ws_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                            const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return sm90_persistent_gemm<wgmma_ws_cfg, gemm_wgmma_ws_kernel>(m, n, k, a, b, c, stream);
}

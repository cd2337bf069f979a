/* tailsplit: dbuf with the last, partial round of tiles cut in K.
 *
 * Idea: at 4096^3 dbuf's 128x256 tile makes 512 blocks for 132 SMs (one resident each):
 * three full rounds and a fourth of 116 tiles, while 16 SMs idle. cuBLAS's 256x128 tile has
 * the same 3.88 rounds. Here the tiles of the full rounds run whole, exactly as in dbuf, and
 * each tile of the last round is cut into `split` pieces along K, one block per piece,
 * launched after the whole tiles in the same grid. The hardware starts each next block on
 * whichever SM frees first, so the pieces are dealt out dynamically as SMs come free:
 * the share of the tail follows each SM's real speed (the static stream-K shares tried
 * for issue 12 ended at the slowest SM; README).
 * Partial sums: each piece adds its partial tile into C with 16-byte atomics (sm_90
 * RED.ADD.F32x4); the tail tiles' part of C is zeroed (one cudaMemset2DAsync over their
 * bounding box) before the launch, and both count in the variant's time. The order of the
 * additions is not fixed, so the last bits of a tail tile's sums can differ from run to
 * run (simt_auto's split-K is the deterministic one).
 * Changed from dbuf: the grid (whole tiles, then the pieces), the epilogue of a piece
 * (atomic adds) and the zeroing; the tile, the main loop and the whole tiles' code are
 * dbuf's (kernels/simt_gemm.cuh, gemm_simt_tail_kernel). When the tiles fill whole rounds
 * (or the rule cuts nothing) it launches dbuf's own kernel.
 * The cut: analysis/simt_plan.h, simt_tail_plan. GEMMPROF_TAIL_SPLIT=N forces N pieces
 * per tail tile (N = 1 runs this kernel with nothing cut), for measuring the rule.
 * Shapes: any m, n, k >= 1 (as dbuf).
 */
#include <stdio.h>
#include <stdlib.h>

#include "kernels/gemm.h"
#include "kernels/simt_gemm.cuh"

using tail_cfg = simt_cfg_t128x256k32s4; /* dbuf's tile */

/* SMs x resident blocks per SM of the tail kernel on the current device (cached). */
static cudaError_t tail_slots(long *slots)
{
    static int cached_device = -1;
    static long cached;
    int dev, sms, per_sm;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    if (dev != cached_device) {
        err = cudaFuncSetAttribute(gemm_simt_tail_kernel<tail_cfg, true>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, (int)tail_cfg::SMEM);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (err == cudaSuccess)
            err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gemm_simt_tail_kernel<tail_cfg, true>,
                                                                tail_cfg::NT, tail_cfg::SMEM);
        if (err != cudaSuccess)
            return err;
        cached = (long)sms * (per_sm > 0 ? per_sm : 1);
        cached_device = dev;
    }
    *slots = cached;
    return cudaSuccess;
}

/* GEMMPROF_TAIL_SPLIT, or 0 when unset or not a number from 1 to 64. */
static int tail_split_forced(void)
{
    const char *s = getenv("GEMMPROF_TAIL_SPLIT");
    char *end;
    const long v = s ? strtol(s, &end, 10) : 0;
    return s && *s && *end == '\0' && v >= 1 && v <= 64 ? (int)v : 0;
}

static cudaError_t tail_plan(int m, int n, int k, struct simt_tail *t, bool *forced)
{
    long slots;
    const cudaError_t err = tail_slots(&slots);
    if (err != cudaSuccess)
        return err;
    const long tiles = (long)((m + tail_cfg::BM - 1) / tail_cfg::BM) * ((n + tail_cfg::BN - 1) / tail_cfg::BN);
    const int split = tail_split_forced();
    *forced = split > 0;
    simt_tail_plan(tiles, slots, k, tail_cfg::BK, split > 0 ? split : simt_tail_split_rule(tiles, slots, k, tail_cfg::BK), t);
    return cudaSuccess;
}

template <bool VEC>
static cudaError_t tail_run(const struct simt_tail *t, int m, int n, int k, const float *a, const float *b,
                            float *c, cudaStream_t stream)
{
    cudaError_t err = cudaFuncSetAttribute(gemm_simt_tail_kernel<tail_cfg, VEC>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)tail_cfg::SMEM);
    if (err != cudaSuccess)
        return err;
    if (t->split > 1) { /* zero the pieces' tiles: their bounding box in C */
        int r0 = m, r1 = 0, c0 = n, c1 = 0;
        for (long i = t->whole; i < t->tiles; i++) {
            int row, col;
            grouped_tile<tail_cfg::BM, tail_cfg::BN>((int)i, m, n, tail_cfg::GROUP_M, &row, &col);
            r0 = row < r0 ? row : r0, c0 = col < c0 ? col : c0;
            r1 = row + tail_cfg::BM > r1 ? row + tail_cfg::BM : r1;
            c1 = col + tail_cfg::BN > c1 ? col + tail_cfg::BN : c1;
        }
        r1 = r1 < m ? r1 : m, c1 = c1 < n ? c1 : n;
        err = cudaMemset2DAsync(c + (size_t)r0 * n + c0, (size_t)n * sizeof(float), 0,
                                (size_t)(c1 - c0) * sizeof(float), (size_t)(r1 - r0), stream);
        if (err != cudaSuccess)
            return err;
    }
    gemm_simt_tail_kernel<tail_cfg, VEC><<<(unsigned)t->blocks, tail_cfg::NT, tail_cfg::SMEM, stream>>>(
        m, n, k, (int)t->whole, t->split, t->k_slice, a, b, c);
    return cudaGetLastError();
}

/* C = A * B (row-major) on `stream`, any m, n, k >= 1. Returns the first error. */
extern "C" cudaError_t gemm_tailsplit_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                             const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    struct simt_tail t;
    bool forced;
    const cudaError_t err = tail_plan(m, n, k, &t, &forced);
    if (err != cudaSuccess)
        return err;
    if (t.split == 1 && !forced) /* nothing to cut: dbuf's own kernel */
        return simt_fixed_launch<tail_cfg>(m, n, k, a, b, c, stream);
    if (simt_vec_ok<tail_cfg>(n, k, a, b, c))
        return tail_run<true>(&t, m, n, k, a, b, c, stream);
    return tail_run<false>(&t, m, n, k, a, b, c, stream);
}

/* "128x256x32 w64x64 t16x8 s4 aT split1 tail116x8" (tail tiles x pieces each; "tail0"
 * when nothing is cut). */
extern "C" void gemm_tailsplit_config(int m, int n, int k, char *buf, unsigned long len)
{
    struct simt_tail t;
    bool forced;
    const struct simt_config c = simt_config_of<tail_cfg>("fixed");
    char base[96];
    simt_config_describe(&c, 1, base, sizeof base);
    if (tail_plan(m, n, k, &t, &forced) != cudaSuccess)
        snprintf(buf, len, "%s", base);
    else if (t.split == 1)
        snprintf(buf, len, "%s tail0", base);
    else
        snprintf(buf, len, "%s tail%ldx%d", base, t.tail, t.split);
}

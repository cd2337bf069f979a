/* swizzle: warptile with A kept k-major in a swizzled shared layout, copied 16 bytes at a
 * time, and the copies' bounds checks taken out of the main loop.
 *
 * Idea: warptile transposes A on its way into shared memory so that a lane can read 4 of
 * its rows with one LDS.128; the price is 4-byte copies (16 LDGSTS per thread per k-slice
 * for A, against 4 for B) each with its own address and k check. Keeping A k-major, a lane
 * instead reads 4 consecutive k of one row per LDS.128 and uses them over 4 k-steps: the
 * same number of shared loads (RM + 4*WNITER per 4 k-steps), 4x fewer A copies. Plain
 * k-major rows would put the 4 rows a warp reads at once (4 apart, 64 bytes per row) in
 * the same banks (a 4-way conflict); storing chunk q of row r at chunk q ^ (r/4 % 4)
 * spreads them over all 32 banks, and keeps the copies' writes conflict-free too (see
 * kernels/simt_gemm.cuh). Row and column predicates are computed once; the k bound only
 * in a slice that crosses the end of K.
 * Changed from warptile: the layout and copies of A, hoisted predicates; everything else
 * (tiles, lane layout, 3 stages, grouped block order, float4 stores) is the same, so the
 * difference in the counters is this step's.
 * Tiles: BM=BN=128, BK=16, warp tile 64x64, 16x8 outputs per thread (WMITER=4, WNITER=2),
 * 128 threads, STAGES=3 (49,152 B of dynamic shared memory), __launch_bounds__(128, 2),
 * GROUP_M=8.
 * Shapes: any m, n, k >= 1. 16-byte copies and float4 stores need k % 4 == 0,
 * n % 4 == 0 and 16-byte aligned a, b, c; otherwise 4-byte copies into the same layout and
 * scalar stores. Copies outside A/B zero-fill, stores are guarded.
 * Expected bound: instruction issue, as warptile, with ~12 fewer copy instructions and
 * their address arithmetic per 2048 FFMAs of a thread.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", swizzle. Below warptile there: with A
 * k-major a lane holds 4 k of each of its rows, which leaves no registers to load ahead
 * (kernels/09_dbuf.cu).
 *       ./build/gemmprof -k warptile,swizzle
 */
#include "kernels/gemm.h"
#include "kernels/simt_gemm.cuh"

/* warptile's tiles, so that only the layout differs */
using swizzle_cfg = simt_tile<128, 128, 16, 64, 64, 4, 3, 2, true>; /* A k-major, swizzled */

/* C = A * B (row-major) on `stream`, any m, n, k >= 1. Returns the launch's error. */
GEMM_LAUNCHER(swizzle);
extern "C" cudaError_t gemm_swizzle_launch(struct gemm_context *ctx, int m, int n, int k,
                                           const float *a, const float *b, float *c,
                                           cudaStream_t stream)
{
    (void)ctx;
    return simt_fixed_launch<swizzle_cfg>(m, n, k, a, b, c, stream);
}

extern "C" void gemm_swizzle_config(int m, int n, int k, char *buf, unsigned long len)
{
    (void)m, (void)n, (void)k;
    simt_fixed_config<swizzle_cfg>(buf, len);
}

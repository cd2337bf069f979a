/* bigtile: swizzle's kernel with a 128x256 block tile, 8 warps and a 4-stage pipeline
 * (the tile cuBLAS's SIMT SGEMM uses on sm_90, in our row-major orientation).
 *
 * Idea: a bigger block tile halves what each FFMA costs in copies and L2 traffic: per
 * k-step a block copies BM + BN floats for BM*BN FMAs, 4(BM+BN)/(BM*BN) bytes per FMA,
 * 0.047 here against 0.0625 at 128x128, and each thread issues 6 copies per k-slice
 * instead of 8. With 256 threads of 16x8 outputs (about 200 registers each) one block
 * fills an SM's register file, so the SM holds 8 warps, as warptile's two blocks do; the
 * fourth stage keeps more loads in flight for that single block, whose barrier stalls all
 * 8 warps at once. The grouped block order (GROUP_M=8 tile rows) keeps the A and B panels
 * of the resident blocks in L2.
 * Changed from swizzle: 128x256 block tile (BN doubled), 256 threads (2x4 warps of 64x64),
 * 4 stages; the same lane layout, swizzled k-major A, hoisted predicates and float4
 * stores (each warp store writes four full 128-byte rows, already coalesced: no shared
 * staging in the epilogue).
 * Tiles: the row b128x256 of kernels/simt_configs.def (BM=128, BN=256, BK=16, warp tile
 * 64x64, 16x8 per thread, 256 threads, STAGES=4: 98,304 B of dynamic shared memory,
 * __launch_bounds__(256, 1)); simt_auto picks the same configuration for large shapes.
 * Shapes: any m, n, k >= 1, as swizzle (16-byte path when k % 4 == 0, n % 4 == 0 and
 * the pointers are 16-byte aligned). Fewer, larger tiles: 64 blocks at 1024^3 for 132
 * SMs, so this is a large-shape kernel; simt_auto chooses per shape.
 * Expected bound: instruction issue; target >= 95% of cuBLAS SGEMM at 4096^3 and 8192^3.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", bigtile.
 *       ./build/gemmprof -k warptile,swizzle,bigtile,cublas -s 4096,8192
 */
#include "kernels/gemm.h"
#include "kernels/simt_gemm.cuh"

using bigtile_cfg = simt_cfg_b128x256;

/* C = A * B (row-major) on `stream`, any m, n, k >= 1. Returns the launch's error. */
GEMM_LAUNCHER(bigtile);
extern "C" cudaError_t gemm_bigtile_launch(struct gemm_context *ctx, int m, int n, int k,
                                           const float *a, const float *b, float *c,
                                           cudaStream_t stream)
{
    (void)ctx;
    return simt_fixed_launch<bigtile_cfg>(m, n, k, a, b, c, stream);
}

extern "C" void gemm_bigtile_config(int m, int n, int k, char *buf, unsigned long len)
{
    (void)m, (void)n, (void)k;
    simt_fixed_config<bigtile_cfg>(buf, len);
}

/* tf32x3_mma: FP32-accurate GEMM on TF32 tensor cores (3xTF32), the tf32_mma kernel with
 * each operand split in two (the kernel itself is kernels/mma_tf32.cuh, SPLIT3).
 *
 * Idea: x = big + small with big = tf32(x) (cvt.rna) and small = tf32(x - big); then
 * a*b = big_a*big_b + big_a*small_b + small_a*big_b + small_a*small_b, and the last term
 * (~2^-22 of the product) is below FP32 rounding, so three TF32 mma per k-step give an
 * FP32-level product at tensor-core speed: verified against the FP32 tolerance.
 * Changed from tf32_mma: per k-step each thread splits its A and B fragments (cvt, FADD,
 * cvt per element) and issues three mma per 16x8 tile, small products first, into a fresh
 * zeroed fragment that an FP32 add then folds into the accumulator. Why not accumulate in
 * the tensor core: its FP32 accumulation aligns the terms to the largest and does not
 * round to nearest, so a sum carried through K/8 mma drifts; a host model of that
 * (align + truncate) put the relative error of one long tensor-core sum at 1e-5..3e-5 for
 * K = 2048..4096, past the FP32 tolerance, and the per-k-step fold at 3e-7 (FP32 FMA:
 * 8e-7..1.2e-6). The fold costs 4 FADD per 3 mma; the splits 3 ALU instructions per
 * fragment element.
 * Tiles: BM=128, BN=128, BK=32, 8 warps as 2x4, warp tile 64x32 = 4x4 mma tiles (64
 * accumulators per thread; the split fragments need the registers a 64x64 tile would
 * take), STAGES=4: 131,072 B of dynamic shared memory, one block per SM.
 * Shapes: as tf32_mma (zero-fill predication, guarded stores, 4-byte fallback).
 * Expected bound: the tensor pipe at mma.sync's rate, 3 mma per TF32 step, with instruction
 * issue close (mma + splits + folds ~60% of the issue slots): a third of tf32_mma's rate
 * at best; the target, 2x cuBLAS SGEMM (>= 102 TFLOP/s at 4096), needs tf32_mma's mma rate
 * at >= 306 TFLOP/s, which is about mma.sync's ceiling on Hopper.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", tf32x3_mma. The 2x target is missed.
 *       ./build/gemmprof -k tf32x3_mma,cublas
 */
#include "kernels/mma_tf32.cuh"

typedef mma_tf32_cfg<128, 128, 64, 32, 4, true> tf32x3_mma_cfg;

/* C = A * B (row-major) with 3xTF32 tensor-core products on `stream`; any m, n, k >= 1.
 * Returns the launch's error; never synchronizes. */
GEMM_LAUNCHER(tf32x3_mma);
extern "C" cudaError_t gemm_tf32x3_mma_launch(struct gemm_context *ctx, int m, int n, int k,
                                              const float *a, const float *b, float *c,
                                              cudaStream_t stream)
{
    (void)ctx;
    return mma_tf32_run<tf32x3_mma_cfg>(m, n, k, a, b, c, stream);
}

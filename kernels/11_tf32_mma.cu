/* tf32_mma: the first tensor-core step, warp-level mma.sync.m16n8k8 TF32 fed from shared
 * memory by a 4-stage cp.async pipeline (the kernel itself is kernels/mma_tf32.cuh).
 *
 * Idea: the SIMT ladder ends at warptile (FFMA issue-bound, ~47 TFLOP/s); a tensor core
 * does a 16x8x8 multiply-add (1024 FMAs) per warp instruction, so the same block/warp
 * tiling with mma.sync in place of FFMAs moves the limit from instruction issue to the
 * tensor pipe and to the shared-memory reads that feed it.
 * Changed from warptile: the warp's inner product is mma.sync (TF32 inputs: the tensor
 * core reads the top 19 bits of each FP32 value, truncating them as cuBLAS's TF32 kernels
 * do; FP32 accumulate), fragments loaded from shared memory in the layout PTX prescribes
 * for m16n8k8; A stays k-contiguous in shared memory (no transpose on the way in, 16-byte
 * copies) and both tiles are XOR-swizzled so the fragment loads are conflict-free (A:
 * one LDS.128 per row for two k-steps, B: LDS.32); 8 warps, a 128x256 block tile, BK=32,
 * 4 stages.
 * Tiles: BM=128, BN=256, BK=32, 8 warps as 2x4, warp tile 64x64 = 4x8 mma tiles (128
 * accumulators per thread), STAGES=4: 196,608 B of dynamic shared memory, one block per
 * SM, GROUP_M=8 block rasterisation.
 * Per k-step a warp issues 32 mma, 4 LDS.128 (A) and 16 LDS.32 (B); the block's reads plus
 * its cp.async stores come to ~350 shared-memory wavefronts per 256 mma.
 * Shapes: any m, n, k >= 1; zero-fill predication (cp.async src-size 0) and guarded stores,
 * 4-byte copies and scalar stores when n or k is not a multiple of 4 or a pointer is not
 * 16-byte aligned (see mma_tf32.cuh).
 * Expected bound: the tensor pipe at mma.sync's rate (on Hopper mma.sync reaches well under
 * wgmma's peak: the Hopper microbenchmark literature puts it near two thirds), with shared
 * memory close behind (~85% busy by the count above); target >= 250 TFLOP/s at 4096.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", tf32_mma.
 *       ./build/gemmprof -k tf32_mma,cublas_tf32
 */
#include "kernels/mma_tf32.cuh"

typedef mma_tf32_cfg<128, 256, 64, 64, 4, false> tf32_mma_cfg;

/* C = A * B (row-major) with TF32 tensor cores on `stream`; any m, n, k >= 1. Returns the
 * launch's error; never synchronizes. */
GEMM_LAUNCHER(tf32_mma);
extern "C" cudaError_t gemm_tf32_mma_launch(struct gemm_context *ctx, int m, int n, int k,
                                            const float *a, const float *b, float *c,
                                            cudaStream_t stream)
{
    (void)ctx;
    return mma_tf32_run<tf32_mma_cfg>(m, n, k, a, b, c, stream);
}

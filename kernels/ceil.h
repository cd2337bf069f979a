/* Launchers of the machine-ceiling micro-benchmarks (kernels/ceil_bench.cu), callable from
 * host C. src/ceilings_measure.c times them; they are not GEMM variants.
 *
 * Every launcher enqueues one kernel on `stream` and returns cudaGetLastError(); none
 * synchronizes. Blocks are CEIL_BLOCK threads. `grid` is the number of blocks: pass
 * SMs x ceil_blocks_per_sm() for one full wave.
 *
 * Dead-code elimination: each reading kernel folds what it loaded (or computed) into an
 * accumulator and stores it to sink[blockIdx.x % CEIL_SINK_FLOATS] only when it equals
 * `never`. The host passes a value that cannot occur (CEIL_NEVER); the compiler cannot
 * know that, so every load and every flop stays.
 *
 * Clock probe: when `probe` is not NULL, thread 0 of block 0 writes four values there:
 * probe[0] = clock64 at its start, probe[1] = clock64 at its end (after a block-wide
 * barrier), probe[2], probe[3] = %globaltimer (ns) at the same two moments. Block 0 lives
 * for (nearly) the whole launch, so (p1 - p0) / (p3 - p2) is the SM clock while it ran. */
#ifndef GEMMPROF_KERNELS_CEIL_H
#define GEMMPROF_KERNELS_CEIL_H

#include <stddef.h>
#include <cuda_runtime.h>

#define CEIL_BLOCK 256              /* threads per block, every kernel */
#define CEIL_SINK_FLOATS 1024       /* size of the sink buffer, floats */
#define CEIL_NEVER (-1.0e30f)       /* the impossible accumulator value the host passes */
#define CEIL_PROBE_WORDS 4          /* unsigned long long per probe record */
#define CEIL_L1_BLOCK_FLOAT4 1024   /* per-block working set of the L1 and shared kernels: 16 KiB */
#define CEIL_FLOP_PER_ITER 256      /* flop per thread per iteration, FMA and no-FMA kernels */
#define CEIL_MMA_CHAINS 8          /* independent mma.sync accumulators per warp */
/* flop per thread per iteration of the mma.sync benchmark: CEIL_MMA_CHAINS m16n8k8 per
 * warp, 2 x 16 x 8 x 8 flop each, shared by 32 lanes */
#define CEIL_MMA_FLOP_PER_ITER (CEIL_MMA_CHAINS * 2 * 16 * 8 * 8 / 32)
/* the same for the BF16/FP16 benchmark: m16n8k16, twice the k */
#define CEIL_MMA16_FLOP_PER_ITER (2 * CEIL_MMA_FLOP_PER_ITER)
#define CEIL_TENSOR_BLOCK 384       /* threads per block of the tensor benchmark: 3 warpgroups */
/* flop per block per iteration of the tensor benchmark: 3 warpgroups x 4 wgmma 64x256x8
 * (TF32); BF16 and FP16 issue m64n256k16, twice that */
#define CEIL_TENSOR_FLOP_PER_ITER (3.0 * 4.0 * 2.0 * 64.0 * 256.0 * 8.0)
#define CEIL_TENSOR16_FLOP_PER_ITER (2.0 * CEIL_TENSOR_FLOP_PER_ITER)

#ifdef __cplusplus
extern "C" {
#endif

enum ceil_kernel {
    CEIL_K_FILL, CEIL_K_DRAM_COPY, CEIL_K_DRAM_READ, CEIL_K_L2, CEIL_K_L1, CEIL_K_SHARED,
    CEIL_K_FMA, CEIL_K_NOFMA, CEIL_K_MMA, CEIL_K_MMA_BF16, CEIL_K_MMA_FP16, CEIL_K_COUNT
};

/* The input type of the tensor benchmarks (FP32 accumulate in all). */
enum ceil_tensor_type { CEIL_TF32, CEIL_BF16, CEIL_FP16 };

/* Sets the L1/shared carveout of the L1 kernel to the largest L1 (it uses no shared
 * memory). Call once per device before ceil_blocks_per_sm(). */
cudaError_t ceil_prepare(void);

/* Resident blocks of CEIL_BLOCK threads per SM for kernel `k` (occupancy calculator). */
cudaError_t ceil_blocks_per_sm(enum ceil_kernel k, int *blocks);

/* Fills n4 float4 (4 * n4 floats) with pseudo-random values in [-0.5, 0.5) from `seed`. */
cudaError_t ceil_fill_launch(float *buf, size_t n4, unsigned seed, int grid, cudaStream_t stream);

/* dst[i] = src[i] for n4 float4, grid-stride, 16-byte loads and stores (DRAM copy). */
cudaError_t ceil_dram_copy_launch(const float *src, float *dst, size_t n4, int grid,
                                  unsigned long long *probe, cudaStream_t stream);

/* Sums n4 float4 of src, grid-stride, 16-byte loads (DRAM read-only). */
cudaError_t ceil_dram_read_launch(const float *src, size_t n4, float *sink, float never, int grid,
                                  unsigned long long *probe, cudaStream_t stream);

/* Reads the first n4 float4 of buf (n4 a power of two) `passes` times over, with
 * ld.global.cg (cached in L2, not L1): passes * n4 * 16 bytes requested. */
cudaError_t ceil_l2_read_launch(const float *buf, size_t n4, int passes, float *sink, float never,
                                int grid, unsigned long long *probe, cudaStream_t stream);

/* Block b reads its own CEIL_L1_BLOCK_FLOAT4 float4 of buf (buf holds grid of them)
 * `passes` times with ld.global.ca: grid * passes * 16 KiB requested. `rot` shifts the
 * start of each pass (the host passes 32: keeps 128-byte alignment, and stops the
 * compiler from proving two passes read the same addresses). */
cudaError_t ceil_l1_read_launch(const float *buf, int passes, unsigned rot, float *sink,
                                float never, int grid, unsigned long long *probe,
                                cudaStream_t stream);

/* Like ceil_l1_read_launch, but block b first copies its 16 KiB of buf into shared
 * memory and then reads that `passes` times (LDS.128, conflict-free): grid * passes *
 * 16 KiB read from shared memory. */
cudaError_t ceil_shared_read_launch(const float *buf, int passes, unsigned rot, float *sink,
                                    float never, int grid, unsigned long long *probe,
                                    cudaStream_t stream);

/* Every thread runs 8 independent chains a = a * mul + add, fused (FFMA):
 * grid * CEIL_BLOCK * iters * CEIL_FLOP_PER_ITER flop (2 per FMA). */
cudaError_t ceil_fma_launch(int iters, float mul, float add, float *sink, float never, int grid,
                            unsigned long long *probe, cudaStream_t stream);

/* The same chains unfused: a = (a * mul) + add as FMUL then FADD, 1 flop each:
 * grid * CEIL_BLOCK * iters * CEIL_FLOP_PER_ITER flop. */
cudaError_t ceil_nofma_launch(int iters, float mul, float add, float *sink, float never, int grid,
                              unsigned long long *probe, cudaStream_t stream);

/* Warp-level tensor work: every warp issues `iters` x CEIL_MMA_CHAINS independent
 * mma.sync with operands in registers (the HMMA path that mma.sync kernels use, which on
 * Hopper does not reach the wgmma rate): m16n8k8 for CEIL_TF32, grid * CEIL_BLOCK * iters
 * * CEIL_MMA_FLOP_PER_ITER flop; m16n8k16 for CEIL_BF16 and CEIL_FP16, CEIL_MMA16_FLOP_PER_ITER.
 * Blocks per SM: CEIL_K_MMA, CEIL_K_MMA_BF16, CEIL_K_MMA_FP16. Needs cc >= 8.0 (elsewhere
 * the kernel does nothing). */
cudaError_t ceil_mma_launch(enum ceil_tensor_type type, int iters, float *sink, float never, int grid,
                            unsigned long long *probe, cudaStream_t stream);

/* The wgmma tensor-core benchmark (kernels/ceil_tensor.cu, sm_90a only). Supported: 1 when
 * this build holds it (built with SM=90) and `device` is compute capability 9.0. */
int ceil_tensor_supported(int device);
cudaError_t ceil_tensor_blocks_per_sm(enum ceil_tensor_type type, int *blocks);

/* Each of the 3 warpgroups of a block issues `iters` x 4 wgmma from shared memory, m64n256k8
 * for CEIL_TF32 (grid * iters * CEIL_TENSOR_FLOP_PER_ITER flop), m64n256k16 for CEIL_BF16
 * and CEIL_FP16 (CEIL_TENSOR16_FLOP_PER_ITER). Blocks are CEIL_TENSOR_BLOCK threads; the
 * probe is as for the other kernels. */
cudaError_t ceil_tensor_launch(enum ceil_tensor_type type, int iters, float *sink, float never, int grid,
                               unsigned long long *probe, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif

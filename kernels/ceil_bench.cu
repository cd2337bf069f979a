/* Machine-ceiling micro-benchmarks: DRAM copy and read, L2 read, L1 read, shared-memory
 * read, FP32 with and without FMA, and mma.sync in TF32, BF16 and FP16. Each kernel does one kind of work as fast as the
 * hardware allows; src/ceilings_measure.c times them with CUDA events and turns the
 * byte or flop counts documented in kernels/ceil.h into rates.
 *
 * Common rules (checked in the SASS, see `make sass`):
 * - memory kernels use 16-byte vector accesses (LDG.E.128 / STG.E.128 / LDS.128), and
 *   keep several loads in flight per thread so latency is hidden;
 * - nothing the kernel computes can be dropped: results feed a store guarded by a
 *   runtime comparison the compiler cannot decide (see ceil.h);
 * - thread 0 of block 0 records clock64 and %globaltimer around the work (the probe). */
#include <cuda_runtime.h>

#include "kernels/ceil.h"
#include "kernels/ceil_probe.cuh"
#include "kernels/mma_sync_ops.cuh"

static __device__ __forceinline__ float4 add4(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

static __device__ __forceinline__ void sink_if(float *sink, float4 acc, float never)
{
    const float v = (acc.x + acc.y) + (acc.z + acc.w);
    if (v == never)
        sink[blockIdx.x % CEIL_SINK_FLOATS] = v;
}

/* ---- fill ------------------------------------------------------------------------ */

static __global__ void ceil_fill_kernel(float4 *buf, size_t n4, unsigned seed)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        const unsigned h = ceil_hash((unsigned)i ^ ceil_hash(seed));
        buf[i] = make_float4(ceil_unit(h), ceil_unit(ceil_hash(h + 1u)), ceil_unit(ceil_hash(h + 2u)),
                             ceil_unit(ceil_hash(h + 3u)));
    }
}

/* ---- DRAM ------------------------------------------------------------------------ */

/* Four independent 16-byte loads per thread per trip keep enough bytes in flight to
 * cover HBM latency with one wave of blocks. */
static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_dram_copy_kernel(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4,
                      unsigned long long *probe)
{
    const ceil_probe_start ps = probe_begin(probe);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n4; i += stride)
        dst[i] = src[i];
    probe_end(probe, ps);
}

static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_dram_read_kernel(const float4 *__restrict__ src, size_t n4, float *sink, float never,
                      unsigned long long *probe)
{
    const ceil_probe_start ps = probe_begin(probe);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 acc0 = make_float4(0.f, 0.f, 0.f, 0.f), acc1 = acc0;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        acc0 = add4(acc0, add4(a, b));
        acc1 = add4(acc1, add4(c, d));
    }
    for (; i < n4; i += stride)
        acc0 = add4(acc0, src[i]);
    sink_if(sink, add4(acc0, acc1), never);
    probe_end(probe, ps);
}

/* ---- L2 -------------------------------------------------------------------------- */

/* Element j of the flattened passes * n4 stream is buf[j & (n4 - 1)]: each pass walks
 * the whole working set, coalesced, and the addresses depend on the runtime stride so
 * no compiler can prove two loads equal. __ldcg is ld.global.cg (L2 only, no L1). */
static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_l2_read_kernel(const float4 *__restrict__ buf, size_t n4, int passes, float *sink, float never,
                    unsigned long long *probe)
{
    const ceil_probe_start ps = probe_begin(probe);
    const size_t mask = n4 - 1;
    const size_t total = n4 * (size_t)passes;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 acc0 = make_float4(0.f, 0.f, 0.f, 0.f), acc1 = acc0;
    for (; j + 3 * stride < total; j += 4 * stride) {
        const float4 a = __ldcg(buf + (j & mask));
        const float4 b = __ldcg(buf + ((j + stride) & mask));
        const float4 c = __ldcg(buf + ((j + 2 * stride) & mask));
        const float4 d = __ldcg(buf + ((j + 3 * stride) & mask));
        acc0 = add4(acc0, add4(a, b));
        acc1 = add4(acc1, add4(c, d));
    }
    for (; j < total; j += stride)
        acc0 = add4(acc0, __ldcg(buf + (j & mask)));
    sink_if(sink, add4(acc0, acc1), never);
    probe_end(probe, ps);
}

/* ---- L1 and shared memory --------------------------------------------------------- */

/* Per pass each thread reads 4 float4 of its block's 16 KiB; a warp reads 512
 * contiguous, 512-byte-aligned bytes per load (4 x 128-byte lines / wavefronts). */
static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_l1_read_kernel(const float4 *__restrict__ buf, int passes, unsigned rot, float *sink,
                    float never, unsigned long long *probe)
{
    const ceil_probe_start ps = probe_begin(probe);
    const float4 *region = buf + (size_t)blockIdx.x * CEIL_L1_BLOCK_FLOAT4;
    const unsigned t = threadIdx.x;
    float4 acc0 = make_float4(0.f, 0.f, 0.f, 0.f), acc1 = acc0;
    for (int p = 0; p < passes; p++) {
        const unsigned base = t + (unsigned)p * rot;
        const float4 a = __ldca(region + ((base + 0 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)));
        const float4 b = __ldca(region + ((base + 1 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)));
        const float4 c = __ldca(region + ((base + 2 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)));
        const float4 d = __ldca(region + ((base + 3 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)));
        acc0 = add4(acc0, add4(a, b));
        acc1 = add4(acc1, add4(c, d));
    }
    sink_if(sink, add4(acc0, acc1), never);
    probe_end(probe, ps);
}

static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_shared_read_kernel(const float4 *__restrict__ buf, int passes, unsigned rot, float *sink,
                        float never, unsigned long long *probe)
{
    __shared__ float4 tile[CEIL_L1_BLOCK_FLOAT4];
    const float4 *region = buf + (size_t)blockIdx.x * CEIL_L1_BLOCK_FLOAT4;
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < CEIL_L1_BLOCK_FLOAT4; i += CEIL_BLOCK)
        tile[i] = region[i];
    __syncthreads();
    /* The probe starts after the fill so that it times the shared-memory phase. */
    const ceil_probe_start ps = probe_begin(probe);
    float4 acc0 = make_float4(0.f, 0.f, 0.f, 0.f), acc1 = acc0;
    for (int p = 0; p < passes; p++) {
        const unsigned base = t + (unsigned)p * rot;
        const float4 a = tile[(base + 0 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)];
        const float4 b = tile[(base + 1 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)];
        const float4 c = tile[(base + 2 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)];
        const float4 d = tile[(base + 3 * CEIL_BLOCK) & (CEIL_L1_BLOCK_FLOAT4 - 1)];
        acc0 = add4(acc0, add4(a, b));
        acc1 = add4(acc1, add4(c, d));
    }
    sink_if(sink, add4(acc0, acc1), never);
    probe_end(probe, ps);
}

/* ---- FP32 ------------------------------------------------------------------------ */

#define CEIL_CHAINS 8   /* independent dependency chains per thread */
#define CEIL_UNROLL 16  /* chain steps per loop trip: 128 FP instructions per branch */

/* 8 chains x 16 steps x 2 flop = CEIL_FLOP_PER_ITER. With `mul` just below 1 and `add`
 * small the values converge to add / (1 - mul) and never overflow or go subnormal.
 * FUSED = false computes the same recurrence without FMA: __fmul_rn / __fadd_rn are
 * never contracted into an FMA, whatever -fmad says. */
template <bool FUSED>
static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_fp32_kernel(int iters, float mul, float add, float *sink, float never, unsigned long long *probe)
{
    const ceil_probe_start ps = probe_begin(probe);
    float a[CEIL_CHAINS];
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        a[c] = (float)(threadIdx.x + c) * 1.0e-3f;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < CEIL_UNROLL; u++) {
#pragma unroll
            for (int c = 0; c < CEIL_CHAINS; c++)
                a[c] = FUSED ? fmaf(a[c], mul, add) : __fadd_rn(__fmul_rn(a[c], mul), add);
        }
    }
    float4 acc = make_float4(a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]);
    sink_if(sink, acc, never);
    probe_end(probe, ps);
}

/* ---- mma.sync: TF32, BF16, FP16 ------------------------------------------------------ */

/* Operand register `idx` of a thread (A's 0..3, B's 4..5): a TF32 value, or two BF16/FP16
 * values packed, from hashes of salt; random bits, as the tensor cores' power (and so the
 * clock) depends on how many bits toggle. */
template <enum ceil_tensor_type type>
static __device__ __forceinline__ uint32_t mma_operand(unsigned salt, unsigned idx)
{
    if (type == CEIL_TF32)
        return mt_tf32(ceil_unit(ceil_hash(salt + idx)));
    return mt_pack16<type == CEIL_BF16>(ceil_unit(ceil_hash(salt + 2u * idx)), ceil_unit(ceil_hash(salt + 2u * idx + 1u)));
}

/* CEIL_MMA_CHAINS independent accumulator tiles per warp, mma.sync back to back, operands
 * in registers: only the HMMA path is exercised. TF32 issues m16n8k8, BF16 and FP16
 * m16n8k16 (twice the flop an instruction), FP32 accumulate in all. */
template <enum ceil_tensor_type type>
static __global__ void __launch_bounds__(CEIL_BLOCK)
ceil_mma_kernel(int iters, float *sink, float never, unsigned long long *probe)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    const unsigned salt = ceil_hash(blockIdx.x * CEIL_BLOCK + threadIdx.x + 1u);
    uint32_t a[4], b[2];
#pragma unroll
    for (int i = 0; i < 4; i++)
        a[i] = mma_operand<type>(salt, i);
#pragma unroll
    for (int i = 0; i < 2; i++)
        b[i] = mma_operand<type>(salt, 4u + i);
    const ceil_probe_start ps = probe_begin(probe);
    float acc[CEIL_MMA_CHAINS][4] = {};
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int c = 0; c < CEIL_MMA_CHAINS; c++) {
            if (type == CEIL_TF32)
                mt_mma(acc[c], a, b);
            else
                mt_mma16<type == CEIL_BF16>(acc[c], a, b);
        }
    }
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int c = 0; c < CEIL_MMA_CHAINS; c++)
        v = add4(v, make_float4(acc[c][0], acc[c][1], acc[c][2], acc[c][3]));
    sink_if(sink, v, never);
    probe_end(probe, ps);
#else
    (void)iters, (void)sink, (void)never, (void)probe;
#endif
}

/* ---- launchers ------------------------------------------------------------------- */

extern "C" cudaError_t ceil_prepare(void)
{
    /* 0 = prefer the smallest shared-memory carveout, i.e. the largest L1. */
    return cudaFuncSetAttribute(ceil_l1_read_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
}

extern "C" cudaError_t ceil_blocks_per_sm(enum ceil_kernel k, int *blocks)
{
    const void *fn = NULL;
    switch (k) {
    case CEIL_K_FILL: fn = (const void *)ceil_fill_kernel; break;
    case CEIL_K_DRAM_COPY: fn = (const void *)ceil_dram_copy_kernel; break;
    case CEIL_K_DRAM_READ: fn = (const void *)ceil_dram_read_kernel; break;
    case CEIL_K_L2: fn = (const void *)ceil_l2_read_kernel; break;
    case CEIL_K_L1: fn = (const void *)ceil_l1_read_kernel; break;
    case CEIL_K_SHARED: fn = (const void *)ceil_shared_read_kernel; break;
    case CEIL_K_FMA: fn = (const void *)ceil_fp32_kernel<true>; break;
    case CEIL_K_NOFMA: fn = (const void *)ceil_fp32_kernel<false>; break;
    case CEIL_K_MMA: fn = (const void *)ceil_mma_kernel<CEIL_TF32>; break;
    case CEIL_K_MMA_BF16: fn = (const void *)ceil_mma_kernel<CEIL_BF16>; break;
    case CEIL_K_MMA_FP16: fn = (const void *)ceil_mma_kernel<CEIL_FP16>; break;
    case CEIL_K_COUNT: break;
    }
    if (fn == NULL)
        return cudaErrorInvalidValue;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, fn, CEIL_BLOCK, 0);
}

extern "C" cudaError_t ceil_fill_launch(float *buf, size_t n4, unsigned seed, int grid, cudaStream_t stream)
{
    ceil_fill_kernel<<<grid, CEIL_BLOCK, 0, stream>>>((float4 *)buf, n4, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_dram_copy_launch(const float *src, float *dst, size_t n4, int grid,
                                             unsigned long long *probe, cudaStream_t stream)
{
    ceil_dram_copy_kernel<<<grid, CEIL_BLOCK, 0, stream>>>((const float4 *)src, (float4 *)dst, n4, probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_dram_read_launch(const float *src, size_t n4, float *sink, float never,
                                             int grid, unsigned long long *probe, cudaStream_t stream)
{
    ceil_dram_read_kernel<<<grid, CEIL_BLOCK, 0, stream>>>((const float4 *)src, n4, sink, never, probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_l2_read_launch(const float *buf, size_t n4, int passes, float *sink,
                                           float never, int grid, unsigned long long *probe,
                                           cudaStream_t stream)
{
    if (n4 == 0 || (n4 & (n4 - 1)) != 0)
        return cudaErrorInvalidValue;  /* the kernel wraps with a mask */
    ceil_l2_read_kernel<<<grid, CEIL_BLOCK, 0, stream>>>((const float4 *)buf, n4, passes, sink, never, probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_l1_read_launch(const float *buf, int passes, unsigned rot, float *sink,
                                           float never, int grid, unsigned long long *probe,
                                           cudaStream_t stream)
{
    ceil_l1_read_kernel<<<grid, CEIL_BLOCK, 0, stream>>>((const float4 *)buf, passes, rot, sink, never, probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_shared_read_launch(const float *buf, int passes, unsigned rot, float *sink,
                                               float never, int grid, unsigned long long *probe,
                                               cudaStream_t stream)
{
    ceil_shared_read_kernel<<<grid, CEIL_BLOCK, 0, stream>>>((const float4 *)buf, passes, rot, sink, never,
                                                             probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_fma_launch(int iters, float mul, float add, float *sink, float never, int grid,
                                       unsigned long long *probe, cudaStream_t stream)
{
    ceil_fp32_kernel<true><<<grid, CEIL_BLOCK, 0, stream>>>(iters, mul, add, sink, never, probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_nofma_launch(int iters, float mul, float add, float *sink, float never, int grid,
                                         unsigned long long *probe, cudaStream_t stream)
{
    ceil_fp32_kernel<false><<<grid, CEIL_BLOCK, 0, stream>>>(iters, mul, add, sink, never, probe);
    return cudaGetLastError();
}

extern "C" cudaError_t ceil_mma_launch(enum ceil_tensor_type type, int iters, float *sink, float never, int grid,
                                       unsigned long long *probe, cudaStream_t stream)
{
    if (type == CEIL_BF16)
        ceil_mma_kernel<CEIL_BF16><<<grid, CEIL_BLOCK, 0, stream>>>(iters, sink, never, probe);
    else if (type == CEIL_FP16)
        ceil_mma_kernel<CEIL_FP16><<<grid, CEIL_BLOCK, 0, stream>>>(iters, sink, never, probe);
    else
        ceil_mma_kernel<CEIL_TF32><<<grid, CEIL_BLOCK, 0, stream>>>(iters, sink, never, probe);
    return cudaGetLastError();
}

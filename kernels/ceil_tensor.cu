/* The wgmma tensor-core ceilings, TF32 (m64n256k8) and BF16/FP16 (m64n256k16, FP32
 * accumulate): back-to-back wgmma.mma_async with both operands already in shared memory, so nothing but the tensor cores (and the shared-memory reads
 * the wgmmas make themselves) is exercised; no global memory inside the timed loop.
 *
 * Each block has CEIL_TENSOR_BLOCK threads = 3 warpgroups (the register file holds 3 x
 * 128 threads x 128 accumulators, 1 block per SM); all three read the same 64 x 32 A
 * tile (8 KB) and 256 x 32 B tile (32 KB) in the 128B-swizzled K-major layout, filled
 * with hashed values in [-0.5, 0.5) (random bits, as the tensor cores' power, and thus
 * the clock, depend on how many bits toggle; 16-bit tiles hold 64 values of k a row, rounded
 * to nearest even). Per iteration a warpgroup issues the 4 k-steps of the tiles (32 bytes of
 * k each, 8 TF32 or 16 BF16/FP16 values) into one accumulator chain and keeps two groups in flight
 * (wait_group 1). SS mode (both operands by descriptor) is the instruction's fastest
 * form; the GEMM variants use A from registers, which the ceiling does not model.
 * Built for sm_90a only (Makefile SM90A_SRC); ceil_tensor_supported says whether it can run.
 * Flop per launch: grid x iters x CEIL_TENSOR_FLOP_PER_ITER (TF32) or
 * CEIL_TENSOR16_FLOP_PER_ITER (BF16, FP16) (kernels/ceil.h).
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/ceil.h"
#include "kernels/ceil_probe.cuh"
#include "kernels/sm90_16bit.cuh" /* wgmma_m64n256k16_ss, K-major B: imm-trans-b 0 */
#include "kernels/sm90_tf32.cuh"

enum {
    TENSOR_A_ROWS = 64, TENSOR_B_ROWS = 256, TENSOR_K = 32, /* one 128-byte row of k each */
    TENSOR_SMEM = (TENSOR_A_ROWS + TENSOR_B_ROWS) * TENSOR_K * 4 + 1024 /* + alignment slack */
};

template <enum ceil_tensor_type type>
static __global__ void __launch_bounds__(CEIL_TENSOR_BLOCK, 1)
ceil_tensor_kernel(int iters, float *sink, float never, unsigned long long *probe)
{
#if SM90_TF32_DEVICE
    static_assert(CEIL_TENSOR_BLOCK % 128 == 0, "whole warpgroups");
    extern __shared__ uint8_t ceil_tensor_smem_raw[];
    uint8_t *const tiles = ceil_tensor_smem_raw + ((1024 - (sm90_smem_addr(ceil_tensor_smem_raw) & 1023)) & 1023);
    uint8_t *const a_tile = tiles, *const b_tile = tiles + TENSOR_A_ROWS * TENSOR_K * 4;
    const unsigned salt = ceil_hash(blockIdx.x + 1u);
    const int nvals = (TENSOR_A_ROWS + TENSOR_B_ROWS) * TENSOR_K * (type == CEIL_TF32 ? 1 : 2);
    for (int i = threadIdx.x; i < nvals; i += blockDim.x) {
        const float v = ceil_unit(ceil_hash((unsigned)i ^ salt));
        if (type == CEIL_TF32)
            reinterpret_cast<float *>(tiles)[i] = v;
        else if (type == CEIL_BF16)
            reinterpret_cast<__nv_bfloat16 *>(tiles)[i] = __float2bfloat16_rn(v);
        else
            reinterpret_cast<__half *>(tiles)[i] = __float2half_rn(v);
    }
    fence_proxy_async_smem(); /* st.shared above, wgmma (async proxy) reads below */
    __syncthreads();

    const ceil_probe_start ps = probe_begin(probe);
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i)
        acc[i] = 0.f;
    for (int it = 0; it < iters; ++it) {
        wgmma_fence(); /* explicit, else ptxas injects it (C7519) */
#pragma unroll
        for (int ks = 0; ks < 4; ++ks) {   /* 32 bytes of k a step within the 128-byte rows */
            const uint64_t da = wgmma_desc_k128(a_tile + 32 * ks), db = wgmma_desc_k128(b_tile + 32 * ks);
            if (type == CEIL_TF32)
                wgmma_m64n256k8_ss(acc, da, db, 1);
            else
                wgmma_m64n256k16_ss<type == CEIL_BF16>(acc, da, db, 1);
        }
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    float v = 0.f;
#pragma unroll
    for (int i = 0; i < 128; ++i)
        v += acc[i];
    if (v == never)
        sink[blockIdx.x % CEIL_SINK_FLOATS] = v;
    probe_end(probe, ps);
#else
    (void)iters, (void)sink, (void)never, (void)probe;
#endif
}

extern "C" int ceil_tensor_supported(int device)
{
    int major = 0, minor = 0;
    if (!SM90_TF32_BUILT ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
        return 0;
    return major == 9 && minor == 0;
}

extern "C" cudaError_t ceil_tensor_blocks_per_sm(enum ceil_tensor_type type, int *blocks)
{
    const void *fn = type == CEIL_BF16   ? (const void *)ceil_tensor_kernel<CEIL_BF16>
                     : type == CEIL_FP16 ? (const void *)ceil_tensor_kernel<CEIL_FP16>
                                         : (const void *)ceil_tensor_kernel<CEIL_TF32>;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, fn, CEIL_TENSOR_BLOCK, TENSOR_SMEM);
}

extern "C" cudaError_t ceil_tensor_launch(enum ceil_tensor_type type, int iters, float *sink, float never, int grid,
                                          unsigned long long *probe, cudaStream_t stream)
{
    if (type == CEIL_BF16)
        ceil_tensor_kernel<CEIL_BF16><<<grid, CEIL_TENSOR_BLOCK, TENSOR_SMEM, stream>>>(iters, sink, never, probe);
    else if (type == CEIL_FP16)
        ceil_tensor_kernel<CEIL_FP16><<<grid, CEIL_TENSOR_BLOCK, TENSOR_SMEM, stream>>>(iters, sink, never, probe);
    else
        ceil_tensor_kernel<CEIL_TF32><<<grid, CEIL_TENSOR_BLOCK, TENSOR_SMEM, stream>>>(iters, sink, never, probe);
    return cudaGetLastError();
}

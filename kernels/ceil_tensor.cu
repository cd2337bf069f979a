/* The TF32 tensor-core ceiling: back-to-back wgmma.mma_async m64n256k8 with both operands
 * already in shared memory, so nothing but the tensor cores (and the shared-memory reads
 * the wgmmas make themselves) is exercised; no global memory inside the timed loop.
 *
 * Each block has CEIL_TENSOR_BLOCK threads = 3 warpgroups (the register file holds 3 x
 * 128 threads x 128 accumulators, 1 block per SM); all three read the same 64 x 32 A
 * tile (8 KB) and 256 x 32 B tile (32 KB) in the 128B-swizzled K-major layout, filled
 * with hashed values in [-0.5, 0.5) (random bits, as the tensor cores' power, and thus
 * the clock, depend on how many bits toggle). Per iteration a warpgroup issues the 4
 * k-steps of the tiles into one accumulator chain and keeps two groups in flight
 * (wait_group 1). SS mode (both operands by descriptor) is the instruction's fastest
 * form; the GEMM variants use A from registers, which the ceiling does not model.
 * Built for sm_90a only (Makefile SM90A_SRC); ceil_tensor_supported says whether it can run.
 * Flop per launch: grid x iters x CEIL_TENSOR_FLOP_PER_ITER (kernels/ceil.h).
 */
#include <cuda_runtime.h>

#include "kernels/ceil.h"
#include "kernels/ceil_probe.cuh"
#include "kernels/sm90_tf32.cuh"

enum {
    TENSOR_A_ROWS = 64, TENSOR_B_ROWS = 256, TENSOR_K = 32, /* one 128-byte row of k each */
    TENSOR_SMEM = (TENSOR_A_ROWS + TENSOR_B_ROWS) * TENSOR_K * 4 + 1024 /* + alignment slack */
};

static __global__ void __launch_bounds__(CEIL_TENSOR_BLOCK, 1)
ceil_tensor_kernel(int iters, float *sink, float never, unsigned long long *probe)
{
#if SM90_TF32_DEVICE
    static_assert(CEIL_TENSOR_BLOCK % 128 == 0, "whole warpgroups");
    extern __shared__ uint8_t ceil_tensor_smem_raw[];
    float *const tiles = reinterpret_cast<float *>(
        ceil_tensor_smem_raw + ((1024 - (sm90_smem_addr(ceil_tensor_smem_raw) & 1023)) & 1023));
    float *const a_tile = tiles, *const b_tile = tiles + TENSOR_A_ROWS * TENSOR_K;
    const unsigned salt = ceil_hash(blockIdx.x + 1u);
    for (int i = threadIdx.x; i < (TENSOR_A_ROWS + TENSOR_B_ROWS) * TENSOR_K; i += blockDim.x)
        tiles[i] = ceil_unit(ceil_hash((unsigned)i ^ salt));
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
        for (int ks = 0; ks < TENSOR_K / 8; ++ks)
            wgmma_m64n256k8_ss(acc, wgmma_desc_k128(a_tile + 8 * ks), wgmma_desc_k128(b_tile + 8 * ks), 1);
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

extern "C" cudaError_t ceil_tensor_blocks_per_sm(int *blocks)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, ceil_tensor_kernel, CEIL_TENSOR_BLOCK,
                                                         TENSOR_SMEM);
}

extern "C" cudaError_t ceil_tensor_launch(int iters, float *sink, float never, int grid,
                                          unsigned long long *probe, cudaStream_t stream)
{
    ceil_tensor_kernel<<<grid, CEIL_TENSOR_BLOCK, TENSOR_SMEM, stream>>>(iters, sink, never, probe);
    return cudaGetLastError();
}

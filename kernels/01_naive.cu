/* naive: the seed's kernel. One thread per C element, looping over k.
 *
 * Each FMA needs two global loads (A[row][k] is a warp-wide broadcast, B[k][col] is
 * coalesced across the warp). Nothing is reused explicitly; the L1 cache serves as the
 * tile cache. Expected bound: L1/LSU load traffic (about 5 bytes of L1 traffic per FMA),
 * far from DRAM, whose traffic is only the compulsory A and B when they fit in L2.
 * Block 32x32 threads, any m, n, k.       ./build/gemmprof -k naive
 */
#include "kernels/gemm.h"

static __global__ void gemm_naive_kernel(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float acc = 0.f;
    for (int p = 0; p < k; ++p)
        acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = acc;
}

GEMM_LAUNCHER(naive);
extern "C" cudaError_t gemm_naive_launch(struct gemm_context *ctx, int m, int n, int k,
                                         const float *a, const float *b, float *c,
                                         cudaStream_t stream)
{
    (void)ctx;
    const dim3 block(32, 32);
    const dim3 grid((n + 31) / 32, (m + 31) / 32);
    gemm_naive_kernel<<<grid, block, 0, stream>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

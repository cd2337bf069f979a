/* tiled: the seed's 32x32 shared-memory tiled kernel, one output per thread.
 *
 * Changed from naive: each block stages a 32x32 tile of A and of B in shared memory per
 * k-step, so every global element is loaded once per block instead of once per thread
 * (32x less global traffic). But each FMA still reads two operands from shared memory
 * (As[ty][p] is a broadcast, Bs[p][tx] conflict-free), so the bound moves from L1 to the
 * shared-memory pipe and instruction issue: with one output per thread there is no
 * register reuse. Block 32x32 threads; any m, n, k (edges zero-filled).
 *       ./build/gemmprof -k tiled
 */
#include "kernels/gemm.h"

#define TILE 32

static __global__ void gemm_tiled_kernel(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.f;
    for (int kt = 0; kt < (k + TILE - 1) / TILE; ++kt) {
        const int a_col = kt * TILE + tx;
        const int b_row = kt * TILE + ty;
        as[ty][tx] = (row < m && a_col < k) ? a[(size_t)row * k + a_col] : 0.f;
        bs[ty][tx] = (b_row < k && col < n) ? b[(size_t)b_row * n + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TILE; ++p)
            acc += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

GEMM_LAUNCHER(tiled);
extern "C" cudaError_t gemm_tiled_launch(struct gemm_context *ctx, int m, int n, int k,
                                         const float *a, const float *b, float *c,
                                         cudaStream_t stream)
{
    (void)ctx;
    const dim3 block(TILE, TILE);
    const dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    gemm_tiled_kernel<<<grid, block, 0, stream>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

/* blocktile_1d: 1D register blocking, each thread computes a column of TM=8 outputs.
 *
 * Idea: the tiled kernel spends two shared-memory loads per FMA. Here a thread keeps one
 * B value (Bs[p][col]) in a register and reuses it for TM=8 outputs stacked in a column,
 * so a k-step costs 1 + 8 shared loads for 8 FMAs instead of 16 (the 8 A values of a
 * thread lie in rows of As that are the same for the whole warp: broadcasts).
 * Changed from tiled: a 64x64 C tile per block (BM=BN=64) over k-slices of BK=8, 512
 * threads, 8 outputs per thread in registers; each thread loads one A and one B element
 * per k-slice.
 * Tiles: BM=64, BN=64, BK=8, TM=8; block 512 threads (64 columns x 8 row groups).
 * Shapes: any m, n, k >= 1 (loads outside A/B are zero-filled, stores are guarded).
 * Expected bound: still the shared-memory pipe (9 shared loads per 8 FFMAs, against 2
 * per FFMA in tiled; the pipe returns ~1 wavefront per clock per SM while the FP32 units
 * retire 4 warp FFMAs) and load latency with no pipelining; siboehm's K4 reached ~17
 * TFLOP/s on an H100 (a third of cuBLAS). Check the SASS: if ptxas merged a thread's 8
 * A loads along p into LDS.128, the shared ratio is far lower.
 * Measured (H200, results/h200): ptxas did merge them (16 LDS.128 + 24 LDS per 64 FFMA);
 * 16.0 TFLOP/s at 4096, shared-memory-bound at 65% of its 24.6 TFLOP/s roof
 * (0.625 load wavefronts per warp FFMA).
 *       ./build/gemmprof -k blocktile_1d
 */
#include "kernels/gemm.h"

#define BT1_BM 64
#define BT1_BN 64
#define BT1_BK 8
#define BT1_TM 8
#define BT1_THREADS (BT1_BM * BT1_BN / BT1_TM) /* 512: one thread per TM outputs */

static __global__ void __launch_bounds__(BT1_THREADS)
blocktile_1d_kernel(int m, int n, int k, const float *__restrict__ a,
                    const float *__restrict__ b, float *__restrict__ c)
{
    __shared__ float as[BT1_BM * BT1_BK]; /* As[row][p], row-major, 64 x 8 */
    __shared__ float bs[BT1_BK * BT1_BN]; /* Bs[p][col], row-major, 8 x 64 */

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BT1_BM; /* first C row of this block */
    const int col0 = blockIdx.x * BT1_BN; /* first C column of this block */

    /* compute mapping: thread owns C rows t_row*TM .. +TM-1 of column t_col */
    const int t_col = tid % BT1_BN;
    const int t_row = tid / BT1_BN;

    /* load mapping: 512 threads load the 64x8 A slice and the 8x64 B slice, one each;
     * consecutive threads read consecutive addresses (8 floats of an A row, 64 of a B row) */
    const int a_r = tid / BT1_BK, a_p = tid % BT1_BK;
    const int b_p = tid / BT1_BN, b_c = tid % BT1_BN;
    const bool a_row_ok = row0 + a_r < m;
    const bool b_col_ok = col0 + b_c < n;
    /* rows/columns outside the matrix are clamped to 0 so no out-of-range pointer is formed */
    const float *a_row = a + (size_t)(a_row_ok ? row0 + a_r : 0) * k;
    const float *b_col = b + (b_col_ok ? col0 + b_c : 0);

    float acc[BT1_TM];
#pragma unroll
    for (int i = 0; i < BT1_TM; ++i)
        acc[i] = 0.f;

    for (int k0 = 0; k0 < k; k0 += BT1_BK) {
        const int ak = k0 + a_p, bk = k0 + b_p;
        as[a_r * BT1_BK + a_p] = (a_row_ok && ak < k) ? a_row[ak] : 0.f;
        bs[b_p * BT1_BN + b_c] = (b_col_ok && bk < k) ? b_col[(size_t)bk * n] : 0.f;
        __syncthreads();

#pragma unroll
        for (int p = 0; p < BT1_BK; ++p) {
            const float bv = bs[p * BT1_BN + t_col]; /* reused for TM outputs */
#pragma unroll
            for (int i = 0; i < BT1_TM; ++i)
                acc[i] += as[(t_row * BT1_TM + i) * BT1_BK + p] * bv;
        }
        __syncthreads(); /* the next slice overwrites as/bs */
    }

    const int col = col0 + t_col;
    if (col < n) {
#pragma unroll
        for (int i = 0; i < BT1_TM; ++i) {
            const int row = row0 + t_row * BT1_TM + i;
            if (row < m)
                c[(size_t)row * n + col] = acc[i];
        }
    }
}

/* C = A * B (row-major) with the 1D block-tiled kernel on `stream`; any m, n, k >= 1.
 * Returns cudaGetLastError() after the launch; never synchronizes. */
GEMM_LAUNCHER(blocktile_1d);
extern "C" cudaError_t gemm_blocktile_1d_launch(struct gemm_context *ctx, int m, int n, int k,
                                                const float *a, const float *b, float *c,
                                                cudaStream_t stream)
{
    (void)ctx;
    const dim3 grid((n + BT1_BN - 1) / BT1_BN, (m + BT1_BM - 1) / BT1_BM);
    blocktile_1d_kernel<<<grid, BT1_THREADS, 0, stream>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

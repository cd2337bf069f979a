/* blocktile_2d: 2D register blocking, each thread computes an 8x8 tile of C.
 *
 * Idea: a thread that owns a TM x TN tile loads TM values of A and TN of B per k-step and
 * does TM*TN FMAs with them from registers (an outer product): 16 shared loads for 64
 * FMAs, 4 FMAs per shared load against 0.89 for the 1D kernel.
 * Changed from blocktile_1d: a 128x128 C tile per block (BM=BN=128), 256 threads of
 * 8x8 outputs each; every thread now loads 4 A and 4 B elements per k-slice.
 * Tiles: BM=128, BN=128, BK=8, TM=TN=8; block 256 threads (16 x 16 thread grid).
 * Shapes: any m, n, k >= 1 (loads outside A/B are zero-filled, stores are guarded).
 * Expected bound: shared traffic is no longer the limit (~0.06 shared loads per FMA);
 * what remains is latency with no load/compute overlap (one barrier pair per 8-wide
 * slice, scalar global loads) and issue slots. siboehm's K5 reached ~26 TFLOP/s on an
 * H100 (half of cuBLAS).
 * Measured (H200, results/h200): 31.4 TFLOP/s at 4096, and the shared-memory roof still
 * binds: 0.313 load wavefronts per warp FFMA allow 49 TFLOP/s (64% reached), because
 * 40% of those wavefronts are bank conflicts (cause not yet examined in the SASS);
 * removing them is a step this ladder has not taken.
 *       ./build/gemmprof -k blocktile_2d
 */
#include "kernels/gemm.h"

#define BT2_BM 128
#define BT2_BN 128
#define BT2_BK 8
#define BT2_TM 8
#define BT2_TN 8
#define BT2_THREADS ((BT2_BM / BT2_TM) * (BT2_BN / BT2_TN)) /* 256 */
/* rows of the A slice / B slice that all threads load in one pass */
#define BT2_A_STRIDE (BT2_THREADS / BT2_BK) /* 32 */
#define BT2_B_STRIDE (BT2_THREADS / BT2_BN) /* 2 */

static __global__ void __launch_bounds__(BT2_THREADS, 2)
blocktile_2d_kernel(int m, int n, int k, const float *__restrict__ a,
                    const float *__restrict__ b, float *__restrict__ c)
{
    __shared__ float as[BT2_BM * BT2_BK]; /* As[row][p], 128 x 8 */
    __shared__ float bs[BT2_BK * BT2_BN]; /* Bs[p][col], 8 x 128 */

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BT2_BM;
    const int col0 = blockIdx.x * BT2_BN;

    /* compute mapping: thread owns C rows t_row*TM.. and columns t_col*TN.. of the tile */
    const int t_col = tid % (BT2_BN / BT2_TN);
    const int t_row = tid / (BT2_BN / BT2_TN);

    /* load mapping: A slice 128x8 in 4 passes of 32 rows, B slice 8x128 in 4 passes of 2 rows;
     * consecutive threads read consecutive addresses */
    const int a_r = tid / BT2_BK, a_p = tid % BT2_BK;
    const int b_p = tid / BT2_BN, b_c = tid % BT2_BN;
    const int a_rows_left = m - row0 - a_r; /* pass s is inside A when s < a_rows_left */
    const bool b_col_ok = col0 + b_c < n;
    /* the thread's first A element (row a_r, column a_p) and B element (row b_p, column b_c),
     * moved along k every slice; clamped into the matrix while the row/column is outside */
    const float *a_ptr = a + (size_t)(a_rows_left > 0 ? row0 + a_r : 0) * k + a_p;
    const float *b_ptr = b + (size_t)b_p * n + (b_col_ok ? col0 + b_c : 0);
    const int a_step = BT2_A_STRIDE * k; /* elements between A passes (< 128 k) */
    const int b_step = BT2_B_STRIDE * n; /* elements between B passes */

    float acc[BT2_TM][BT2_TN];
#pragma unroll
    for (int i = 0; i < BT2_TM; ++i)
#pragma unroll
        for (int j = 0; j < BT2_TN; ++j)
            acc[i][j] = 0.f;

    for (int k0 = 0; k0 < k; k0 += BT2_BK) {
        const bool ak_ok = k0 + a_p < k;
#pragma unroll
        for (int s = 0; s < BT2_BM / BT2_A_STRIDE; ++s) {
            const bool ok = ak_ok && s * BT2_A_STRIDE < a_rows_left;
            as[(a_r + s * BT2_A_STRIDE) * BT2_BK + a_p] = ok ? a_ptr[s * a_step] : 0.f;
        }
#pragma unroll
        for (int s = 0; s < BT2_BK / BT2_B_STRIDE; ++s) {
            const bool ok = b_col_ok && k0 + b_p + s * BT2_B_STRIDE < k;
            bs[(b_p + s * BT2_B_STRIDE) * BT2_BN + b_c] = ok ? b_ptr[s * b_step] : 0.f;
        }
        a_ptr += BT2_BK;
        b_ptr += (size_t)BT2_BK * n;
        __syncthreads();

#pragma unroll
        for (int p = 0; p < BT2_BK; ++p) {
            float ra[BT2_TM], rb[BT2_TN];
#pragma unroll
            for (int i = 0; i < BT2_TM; ++i)
                ra[i] = as[(t_row * BT2_TM + i) * BT2_BK + p];
#pragma unroll
            for (int j = 0; j < BT2_TN; ++j)
                rb[j] = bs[p * BT2_BN + t_col * BT2_TN + j];
#pragma unroll
            for (int i = 0; i < BT2_TM; ++i)
#pragma unroll
                for (int j = 0; j < BT2_TN; ++j)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads(); /* the next slice overwrites as/bs */
    }

#pragma unroll
    for (int i = 0; i < BT2_TM; ++i) {
        const int row = row0 + t_row * BT2_TM + i;
        if (row >= m)
            break;
#pragma unroll
        for (int j = 0; j < BT2_TN; ++j) {
            const int col = col0 + t_col * BT2_TN + j;
            if (col < n)
                c[(size_t)row * n + col] = acc[i][j];
        }
    }
}

/* C = A * B (row-major) with the 2D block-tiled kernel on `stream`; any m, n, k >= 1.
 * Returns cudaGetLastError() after the launch; never synchronizes. */
GEMM_LAUNCHER(blocktile_2d);
extern "C" cudaError_t gemm_blocktile_2d_launch(struct gemm_context *ctx, int m, int n, int k,
                                                const float *a, const float *b, float *c,
                                                cudaStream_t stream)
{
    (void)ctx;
    const dim3 grid((n + BT2_BN - 1) / BT2_BN, (m + BT2_BM - 1) / BT2_BM);
    blocktile_2d_kernel<<<grid, BT2_THREADS, 0, stream>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

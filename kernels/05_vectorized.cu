/* vectorized: blocktile_2d with 16-byte global loads and 16-byte shared reads.
 *
 * Idea: cut load instructions. Global A and B are read as float4 (LDG.E.128), and the A
 * slice is stored transposed in shared memory (As[p][row]) so that a thread's 8 A values
 * for one k-step are contiguous, like its 8 B values: each k-step is 4 LDS.128 for 64
 * FMAs. C is written with float4 stores.
 * Changed from blocktile_2d: float4 global loads (one A and one B float4 per thread per
 * slice instead of 4+4 scalars), As transposed, LDS.128 reads, float4 stores.
 * Tiles: BM=128, BN=128, BK=8, TM=TN=8; block 256 threads (16 x 16 thread grid).
 * Shapes: any m, n, k >= 1. The float4 path needs k % 4 == 0, n % 4 == 0 and 16-byte
 * aligned a, b, c (checked at launch); otherwise the same kernel is instantiated with
 * scalar, bounds-checked loads and stores. Edges are zero-filled / guarded either way.
 * Expected bound: fewer issue slots lost to loads than blocktile_2d, still no overlap of
 * global loads with compute; siboehm's K6 reached ~31 TFLOP/s on an H100 (62% of cuBLAS).
 * Measured (H200, results/h200): 34.8 TFLOP/s at 4096 (68% of cuBLAS); shared-memory
 * roof 48 TFLOP/s, 73% reached; bank conflicts are still 40% of the load wavefronts.
 *       ./build/gemmprof -k vectorized
 */
#include <stdint.h>

#include "kernels/gemm.h"

#define VEC_BM 128
#define VEC_BN 128
#define VEC_BK 8
#define VEC_TM 8
#define VEC_TN 8
#define VEC_THREADS ((VEC_BM / VEC_TM) * (VEC_BN / VEC_TN)) /* 256 */

/* One kernel, two load/store widths: VEC=true uses float4 global accesses (caller checked
 * alignment), VEC=false scalar ones; the shared-memory side is identical. A template is
 * the CUDA C++ way to get both instantiations from one body. */
template <bool VEC>
static __global__ void __launch_bounds__(VEC_THREADS)
vectorized_kernel(int m, int n, int k, const float *__restrict__ a,
                  const float *__restrict__ b, float *__restrict__ c)
{
    /* As[p][row] (transposed, 8 x 128) and Bs[p][col] (8 x 128); 16-byte aligned for LDS.128 */
    __shared__ __align__(16) float as[VEC_BK * VEC_BM];
    __shared__ __align__(16) float bs[VEC_BK * VEC_BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * VEC_BM;
    const int col0 = blockIdx.x * VEC_BN;

    const int t_col = tid % (VEC_BN / VEC_TN);
    const int t_row = tid / (VEC_BN / VEC_TN);

    /* load mapping: the 128x8 A slice is 256 float4s (2 per row), the 8x128 B slice 256
     * float4s (32 per row): one of each per thread */
    const int a_r = tid / (VEC_BK / 4), a_p = (tid % (VEC_BK / 4)) * 4;
    const int b_p = tid / (VEC_BN / 4), b_c = (tid % (VEC_BN / 4)) * 4;
    const bool a_row_ok = row0 + a_r < m;
    const float *a_row = a + (size_t)(a_row_ok ? row0 + a_r : 0) * k;
    const int b_col = col0 + b_c; /* first of the thread's 4 B columns */

    float acc[VEC_TM][VEC_TN];
#pragma unroll
    for (int i = 0; i < VEC_TM; ++i)
#pragma unroll
        for (int j = 0; j < VEC_TN; ++j)
            acc[i][j] = 0.f;

    for (int k0 = 0; k0 < k; k0 += VEC_BK) {
        const int ak = k0 + a_p, bk = k0 + b_p;
        float4 va, vb;
        if (VEC) {
            /* k % 4 == 0 and n % 4 == 0: a float4 is wholly inside or wholly outside */
            va = (a_row_ok && ak < k) ? *reinterpret_cast<const float4 *>(a_row + ak)
                                      : make_float4(0.f, 0.f, 0.f, 0.f);
            vb = (bk < k && b_col < n)
                     ? *reinterpret_cast<const float4 *>(b + (size_t)bk * n + b_col)
                     : make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
            va.x = (a_row_ok && ak + 0 < k) ? a_row[ak + 0] : 0.f;
            va.y = (a_row_ok && ak + 1 < k) ? a_row[ak + 1] : 0.f;
            va.z = (a_row_ok && ak + 2 < k) ? a_row[ak + 2] : 0.f;
            va.w = (a_row_ok && ak + 3 < k) ? a_row[ak + 3] : 0.f;
            const bool bk_ok = bk < k;
            const float *b_row = b + (size_t)(bk_ok ? bk : 0) * n;
            vb.x = (bk_ok && b_col + 0 < n) ? b_row[b_col + 0] : 0.f;
            vb.y = (bk_ok && b_col + 1 < n) ? b_row[b_col + 1] : 0.f;
            vb.z = (bk_ok && b_col + 2 < n) ? b_row[b_col + 2] : 0.f;
            vb.w = (bk_ok && b_col + 3 < n) ? b_row[b_col + 3] : 0.f;
        }
        /* transposed A store: column a_p+q of the row becomes row a_p+q of As */
        as[(a_p + 0) * VEC_BM + a_r] = va.x;
        as[(a_p + 1) * VEC_BM + a_r] = va.y;
        as[(a_p + 2) * VEC_BM + a_r] = va.z;
        as[(a_p + 3) * VEC_BM + a_r] = va.w;
        *reinterpret_cast<float4 *>(&bs[b_p * VEC_BN + b_c]) = vb;
        __syncthreads();

#pragma unroll
        for (int p = 0; p < VEC_BK; ++p) {
            float ra[VEC_TM], rb[VEC_TN];
#pragma unroll
            for (int i = 0; i < VEC_TM; i += 4) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&as[p * VEC_BM + t_row * VEC_TM + i]);
                ra[i] = v.x, ra[i + 1] = v.y, ra[i + 2] = v.z, ra[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < VEC_TN; j += 4) {
                const float4 v =
                    *reinterpret_cast<const float4 *>(&bs[p * VEC_BN + t_col * VEC_TN + j]);
                rb[j] = v.x, rb[j + 1] = v.y, rb[j + 2] = v.z, rb[j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < VEC_TM; ++i)
#pragma unroll
                for (int j = 0; j < VEC_TN; ++j)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads(); /* the next slice overwrites as/bs */
    }

#pragma unroll
    for (int i = 0; i < VEC_TM; ++i) {
        const int row = row0 + t_row * VEC_TM + i;
        if (row >= m)
            break;
        float *c_row = c + (size_t)row * n;
#pragma unroll
        for (int j = 0; j < VEC_TN; j += 4) {
            const int col = col0 + t_col * VEC_TN + j;
            if (VEC) {
                if (col < n) /* n % 4 == 0: all four columns are inside */
                    *reinterpret_cast<float4 *>(c_row + col) =
                        make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (col + q < n)
                        c_row[col + q] = acc[i][j + q];
            }
        }
    }
}

static int aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* C = A * B (row-major) with the vectorized 2D block-tiled kernel on `stream`; any
 * m, n, k >= 1 (float4 path when k and n are multiples of 4 and a, b, c are 16-byte
 * aligned, scalar path otherwise). Returns cudaGetLastError(); never synchronizes. */
GEMM_LAUNCHER(vectorized);
extern "C" cudaError_t gemm_vectorized_launch(struct gemm_context *ctx, int m, int n, int k,
                                              const float *a, const float *b, float *c,
                                              cudaStream_t stream)
{
    (void)ctx;
    const dim3 grid((n + VEC_BN - 1) / VEC_BN, (m + VEC_BM - 1) / VEC_BM);
    if (k % 4 == 0 && n % 4 == 0 && aligned16(a) && aligned16(b) && aligned16(c))
        vectorized_kernel<true><<<grid, VEC_THREADS, 0, stream>>>(m, n, k, a, b, c);
    else
        vectorized_kernel<false><<<grid, VEC_THREADS, 0, stream>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

/* What the pipelined kernels (warptile, kernels/simt_gemm.cuh, the mma.sync and wgmma ones) share: asynchronous
 * global->shared copies (cp.async, SASS LDGSTS, sm_80+) and the grouped block order.
 * A copy whose src_ok is false writes zeros and reads nothing, so tiles past the matrix
 * edges need no separate clearing; its source must still be a valid address (callers
 * pass the matrix base). */
#ifndef GEMMPROF_KERNELS_PIPELINE_CUH
#define GEMMPROF_KERNELS_PIPELINE_CUH

#ifdef __CUDACC__ /* host C++ that includes this (tests/simt_emulated.cpp) brings its own copies */
/* 4-byte async copy global->shared; src_ok false writes a zero and reads nothing. */
static __device__ __forceinline__ void cp_async4(float *dst, const float *src, bool src_ok)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(src),
                 "r"(src_ok ? 4 : 0)
                 : "memory");
}

/* 16-byte async copy global->shared (both 16-byte aligned); src_ok false zero-fills. */
static __device__ __forceinline__ void cp_async16(float *dst, const float *src, bool src_ok)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                 "r"(src_ok ? 16 : 0)
                 : "memory");
}

/* The same copies with the source known to be inside its matrix: no size operand, so no
 * predicate register and no fallback address; [src] may carry a constant offset. */
static __device__ __forceinline__ void cp_async4_in(float *dst, const float *src)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(src) : "memory");
}
static __device__ __forceinline__ void cp_async16_in(float *dst, const float *src)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
}

static __device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* Waits until at most N of this thread's committed copy groups are still in flight. */
template <int N> static __device__ __forceinline__ void cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

#endif /* __CUDACC__ */

/* Block `block` -> the origin (row0, col0) of its BM x BN tile of an m x n C, grouped:
 * group_m tile rows are walked column by column so that the blocks resident at once reuse
 * a few A row panels and B column panels from L2. */
template <int BM, int BN>
static __device__ __forceinline__ void grouped_tile(int block, int m, int n, int group_m, int *row0, int *col0)
{
    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    const int per_group = group_m * tiles_n;
    const int first_m = block / per_group * group_m;
    const int group_rows = min(tiles_m - first_m, group_m);
    const int in_group = block % per_group;
    *row0 = (first_m + in_group % group_rows) * BM;
    *col0 = (in_group / group_rows) * BN;
}

#endif

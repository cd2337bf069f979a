/* Row-pitch copies: `rows` rows of `cols` packed elements into rows of `ld` elements
 * (ld >= cols, 16 bytes a multiple of ld's bytes, dst 16-byte aligned), the padding zeroed,
 * so that a kernel whose 16-byte copies (or TMA boxes) need aligned rows can read the copy.
 * Generic (no GEMM in it), for 4- and 2-byte elements: simt_auto pads B with it, the TMA
 * kernels A and B (FP32, BF16, FP16) when k or n leaves rows unaligned.
 *
 * One launch copies one or two matrices (A and B of a GEMM), each thread four 16-byte chunks
 * whose loads are all in flight before any store, and the grid covers every chunk once.
 * With one chunk a thread, the copies of 257x513x4099's operands took 18 us on the H200
 * (1.4 TB/s: too few bytes in flight), as the row loops before them (results/h200/NOTES.md). */
#ifndef GEMMPROF_KERNELS_PAD_ROWS_CUH
#define GEMMPROF_KERNELS_PAD_ROWS_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/pdl.cuh"

/* One copy: src rows x cols (packed), dst rows x ld. */
struct pad_copy {
    const void *src;
    void *dst;
    long rows;
    int cols, ld;   /* elements */
};

#define PAD_ROWS_THREADS 256
#define PAD_ROWS_CHUNKS 4   /* 16-byte chunks per thread, their loads all issued first */

/* Chunks [first, first + PAD_ROWS_CHUNKS * PAD_ROWS_THREADS) of one copy, PAD_ROWS_THREADS
 * apart per thread (a warp's loads stay contiguous). */
template <class T>
static __device__ __forceinline__ void pad_rows_chunks(const T *__restrict__ src, T *__restrict__ dst, size_t rows,
                                                       int cols, int ld, size_t first)
{
    constexpr int V = 16 / sizeof(T);   /* elements per 16-byte chunk */
    const unsigned per_row = (unsigned)(ld / V);
    const bool narrow = rows * per_row <= 0xffffffffu;   /* 32-bit divides: most copies */
    union chunk {
        T e[V];
        uint4 u;
    } v[PAD_ROWS_CHUNKS];
    size_t row[PAD_ROWS_CHUNKS];
    unsigned q[PAD_ROWS_CHUNKS];
#pragma unroll
    for (int u = 0; u < PAD_ROWS_CHUNKS; u++) {
        const size_t c = first + (size_t)u * PAD_ROWS_THREADS;
        row[u] = narrow ? (unsigned)c / per_row : c / per_row;
        q[u] = (unsigned)(c - row[u] * per_row);
        const int c0 = (int)q[u] * V;
        const T *s = src + row[u] * (size_t)cols;
#pragma unroll
        for (int e = 0; e < V; e++)
            v[u].e[e] = row[u] < rows && c0 + e < cols ? s[c0 + e] : T(0);
    }
#pragma unroll
    for (int u = 0; u < PAD_ROWS_CHUNKS; u++)
        if (row[u] < rows)
            reinterpret_cast<uint4 *>(dst + row[u] * (size_t)ld)[q[u]] = v[u].u;
}

/* Blocks [0, blocks0) copy `first`, the rest `second` (if any). The fields are picked one
 * by one: a whole struct picked by a runtime test may be copied to local memory. */
template <class T>
static __global__ void __launch_bounds__(PAD_ROWS_THREADS)
pad_rows_kernel(struct pad_copy first, struct pad_copy second, unsigned blocks0)
{
    pdl_trigger();   /* the GEMM after the copy may launch now, and waits for it */
    const bool one = blockIdx.x < blocks0;
    const size_t block = one ? blockIdx.x : blockIdx.x - blocks0;
    pad_rows_chunks<T>(static_cast<const T *>(one ? first.src : second.src), static_cast<T *>(one ? first.dst : second.dst),
                       (size_t)(one ? first.rows : second.rows), one ? first.cols : second.cols,
                       one ? first.ld : second.ld, block * PAD_ROWS_CHUNKS * PAD_ROWS_THREADS + threadIdx.x);
}

static inline bool pad_rows_aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* Enqueues n (1 or 2) copies of T elements in one launch. Invalid pitches or alignment:
 * cudaErrorInvalidValue, nothing launched. */
template <class T>
static inline cudaError_t pad_rows_launch(const struct pad_copy *copies, int n, cudaStream_t stream)
{
    constexpr int V = 16 / sizeof(T);
    size_t blocks[2] = {0, 0};
    if (n < 1 || n > 2)
        return cudaErrorInvalidValue;
    for (int i = 0; i < n; i++) {
        const struct pad_copy &cp = copies[i];
        if (cp.rows < 1 || cp.cols < 1 || cp.ld < cp.cols || cp.ld % V != 0 || !pad_rows_aligned16(cp.dst))
            return cudaErrorInvalidValue;
        const size_t per_block = (size_t)PAD_ROWS_CHUNKS * PAD_ROWS_THREADS;
        blocks[i] = ((size_t)cp.rows * (size_t)(cp.ld / V) + per_block - 1) / per_block;
    }
    if (blocks[0] + blocks[1] > 0x7fffffffu)
        return cudaErrorInvalidValue;
    pad_rows_kernel<T><<<(unsigned)(blocks[0] + blocks[1]), PAD_ROWS_THREADS, 0, stream>>>(
        copies[0], n > 1 ? copies[1] : copies[0], (unsigned)blocks[0]);
    return cudaGetLastError();
}

/* dst (rows x ld floats, 16-byte aligned) = src (rows x cols) padded with zeros. */
static inline cudaError_t pad_rows(const float *src, float *dst, long rows, int cols, int ld, cudaStream_t stream)
{
    const struct pad_copy cp = {src, dst, rows, cols, ld};
    return pad_rows_launch<float>(&cp, 1, stream);
}

#endif

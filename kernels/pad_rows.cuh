/* Row-pitch copies: `rows` rows of `cols` packed elements into rows of `ld` elements
 * (ld >= cols, 16 bytes a multiple of ld's bytes, dst 16-byte aligned), the padding zeroed,
 * so that a kernel whose 16-byte copies (or TMA boxes) need aligned rows can read the copy.
 * Generic (no GEMM in it), for 4- and 2-byte elements: simt_auto pads B with it, the TMA
 * kernels A and B (FP32, BF16, FP16) when k or n leaves rows unaligned.
 *
 * One launch copies one or two matrices (A and B of a GEMM), each thread one 16-byte chunk
 * of a copy's row: its loads are independent and the grid covers every chunk once, so the
 * copy waits for DRAM about once. The row loops it replaced made each thread walk ~6 rows
 * with a load and a store each, one DRAM latency per row (H200: about 20 us of tf32_auto's
 * 45 us at 257x513x4099; results/h200/NOTES.md). */
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

template <class T>
static __device__ __forceinline__ void pad_rows_chunk(const struct pad_copy &cp, size_t chunk)
{
    constexpr int V = 16 / sizeof(T);   /* elements per 16-byte chunk */
    const unsigned per_row = (unsigned)(cp.ld / V);
    size_t r;
    unsigned q;
    if ((size_t)cp.rows * per_row <= 0xffffffffu) {   /* a 32-bit divide: most copies */
        r = (unsigned)chunk / per_row;
        q = (unsigned)chunk - (unsigned)r * per_row;
    } else {
        r = chunk / per_row;
        q = (unsigned)(chunk - r * per_row);
    }
    if (r >= (size_t)cp.rows)
        return;
    const T *s = static_cast<const T *>(cp.src) + r * (size_t)cp.cols;
    union {
        T e[V];
        uint4 u;
    } v;
    const int c0 = (int)q * V;
#pragma unroll
    for (int e = 0; e < V; e++)
        v.e[e] = c0 + e < cp.cols ? s[c0 + e] : T(0);
    reinterpret_cast<uint4 *>(static_cast<T *>(cp.dst) + r * (size_t)cp.ld)[q] = v.u;
}

/* Blocks [0, blocks0) copy `first`, the rest `second` (if any). */
template <class T>
static __global__ void __launch_bounds__(PAD_ROWS_THREADS)
pad_rows_kernel(struct pad_copy first, struct pad_copy second, unsigned blocks0)
{
    pdl_trigger();   /* the GEMM after the copy may launch now, and waits for it */
    const bool one = blockIdx.x < blocks0;
    const size_t block = one ? blockIdx.x : blockIdx.x - blocks0;
    pad_rows_chunk<T>(one ? first : second, block * PAD_ROWS_THREADS + threadIdx.x);
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
        blocks[i] = ((size_t)cp.rows * (size_t)(cp.ld / V) + PAD_ROWS_THREADS - 1) / PAD_ROWS_THREADS;
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

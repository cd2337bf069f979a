/* A row-pitch copy: `rows` rows of `cols` floats (packed) into rows of `ld` floats
 * (ld >= cols, a multiple of 4, dst 16-byte aligned), the padding zeroed, so that a kernel
 * whose 16-byte copies need rows of 4-float multiples can read the copy. Each thread
 * writes one float4 of the copy. Generic (no GEMM in it): simt_auto pads B with it. */
#ifndef GEMMPROF_KERNELS_PAD_ROWS_CUH
#define GEMMPROF_KERNELS_PAD_ROWS_CUH

#include <cuda_runtime.h>

static __global__ void __launch_bounds__(256)
pad_rows_kernel(const float *__restrict__ src, float4 *__restrict__ dst, long rows, int cols, int ld)
{
    const int quads = ld / 4;
    const size_t total = (size_t)rows * quads;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        const size_t r = i / quads;
        const int c0 = (int)(i % quads) * 4;
        const float *s = src + r * cols;
        float4 v;
        v.x = c0 < cols ? s[c0] : 0.0f;
        v.y = c0 + 1 < cols ? s[c0 + 1] : 0.0f;
        v.z = c0 + 2 < cols ? s[c0 + 2] : 0.0f;
        v.w = c0 + 3 < cols ? s[c0 + 3] : 0.0f;
        dst[i] = v;
    }
}

/* dst (rows x ld floats, 16-byte aligned) = src (rows x cols) padded with zeros. */
static inline cudaError_t pad_rows(const float *src, float *dst, long rows, int cols, int ld, cudaStream_t stream)
{
    if (ld < cols || ld % 4 != 0 || ((size_t)dst & 15) != 0)
        return cudaErrorInvalidValue;
    const size_t quads = (size_t)rows * (ld / 4);
    size_t blocks = (quads + 255) / 256;
    if (blocks > 65535u * 8)
        blocks = 65535u * 8;
    pad_rows_kernel<<<(unsigned)(blocks > 0 ? blocks : 1), 256, 0, stream>>>(src, reinterpret_cast<float4 *>(dst), rows,
                                                                            cols, ld);
    return cudaGetLastError();
}

#endif

/* An example gemmprof plugin (include/gemmprof_plugin.h): a 16x16 shared-memory tiled
 * SGEMM, built by `make` into build/examples/libgemmprof_example.so and run with
 *   build/gemmprof -k tiled,plugin:build/examples/libgemmprof_example.so
 * It is verified, timed, counted, charted and reported like a built-in variant. Two more
 * entry points exist for the GPU test of broken plugins: one whose kernel writes a wrong
 * result (gemmprof_plugin_wrong) and one whose launch fails (gemmprof_plugin_error). */
#include <cuda_runtime.h>

#include "include/gemmprof_plugin.h"

#define TILE 16

__global__ void example_tiled16_kernel(int m, int n, int k, const float *a, const float *b, float *c)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[(size_t)row * k + t + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? b[(size_t)(t + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

/* Writes every element, wrongly: the verification must catch it. */
__global__ void example_wrong_kernel(int m, int n, float *c)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m * n)
        c[i] = 1.0f;
}

static int launch_tiled16(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    example_tiled16_kernel<<<grid, block, 0, (cudaStream_t)stream>>>(m, n, k, a, b, c);
    return (int)cudaGetLastError();
}

static int launch_wrong(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    (void)k, (void)a, (void)b;
    example_wrong_kernel<<<(m * n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(m, n, c);
    return (int)cudaGetLastError();
}

static int launch_error(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    (void)m, (void)n, (void)k;
    /* 2048 threads per block is more than any GPU allows: the launch fails */
    example_tiled16_kernel<<<1, 2048, 0, (cudaStream_t)stream>>>(1, 1, 1, a, b, c);
    return (int)cudaGetLastError();
}

static const struct gemmprof_plugin tiled16 = {GEMMPROF_PLUGIN_ABI_VERSION, "example_tiled16", "fp32",
                                               "16x16 shared-memory tiles, one output per thread", launch_tiled16};
static const struct gemmprof_plugin wrong = {GEMMPROF_PLUGIN_ABI_VERSION, "example_wrong", "fp32",
                                             "writes 1.0 everywhere: must fail verification", launch_wrong};
static const struct gemmprof_plugin error = {GEMMPROF_PLUGIN_ABI_VERSION, "example_error", "fp32",
                                             "launches 2048 threads per block: must fail with a CUDA error", launch_error};

extern "C" const struct gemmprof_plugin *gemmprof_plugin(void) { return &tiled16; }
extern "C" const struct gemmprof_plugin *gemmprof_plugin_wrong(void) { return &wrong; }
extern "C" const struct gemmprof_plugin *gemmprof_plugin_error(void) { return &error; }

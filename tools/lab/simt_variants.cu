/* Probe (issue 28): kernels/simt_gemm.cuh's tiles timed alone against cuBLAS SGEMM at a
 * few shapes (median of 15 launches, no L2 flush, split-K partials without their
 * reduction; the unsplit results checked against cuBLAS), to compare builds of the same
 * kernel body: ptxas options (tools/lab/simt_ptxas_levels.sh; PTXAS_FLAGS, if set, labels
 * the lines) or an edit of the body. Not part of `make`. */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "kernels/simt_gemm.cuh"

#define CHECK(...)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (__VA_ARGS__);                                                                    \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #__VA_ARGS__, cudaGetErrorString(e_));                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct shape { int m, n, k, split; };

template <class F> static float median_ms(F launch)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; ++i)
        launch();
    std::vector<float> t;
    for (int i = 0; i < 15; ++i) {
        CHECK(cudaEventRecord(e0));
        launch();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    CHECK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return t[t.size() / 2];
}

template <class P>
static void time_tile(const char *name, const shape &s, const float *a, const float *b, float *c,
                      const float *ref, float ref_ms)
{
    const int k_slice = ((s.k + s.split - 1) / s.split + P::BK - 1) / P::BK * P::BK;
    const int split = (s.k + k_slice - 1) / k_slice;
    const float ms = median_ms([&] {
        CHECK(simt_gemm_run<P, true>(s.m, s.n, s.k, k_slice, split, a, b, c, SIMT_DEP_NONE, 0));
    });
    double err = -1;
    if (split == 1) {
        std::vector<float> h((size_t)s.m * s.n), r((size_t)s.m * s.n);
        CHECK(cudaMemcpy(h.data(), c, h.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(r.data(), ref, r.size() * 4, cudaMemcpyDeviceToHost));
        double worst = 0, scale = 0;
        for (size_t i = 0; i < h.size(); ++i) {
            const double d = std::fabs((double)h[i] - r[i]);
            worst = std::isnan(d) ? INFINITY : std::max(worst, d);
            scale = std::max(scale, (double)std::fabs(r[i]));
        }
        err = worst / scale;
    }
    printf("%s  %-14s %5dx%5dx%5d split%-2d %8.4f ms %6.2f TFLOP/s  %5.1f%% of cuBLAS (%.4f ms)%s\n",
           getenv("PTXAS_FLAGS") ? getenv("PTXAS_FLAGS") : "-", name, s.m, s.n, s.k, split, ms, 2.0 * s.m * s.n * s.k / ms / 1e9,
           100.0 * ref_ms / ms, ref_ms, err < 0 ? "" : (err < 1e-4 ? "  check ok" : "  CHECK FAILED"));
}

int main()
{
    const shape shapes[] = {{7000, 1000, 2000, 8}, {2500, 2500, 2500, 1}, {800, 800, 8000, 4}, {5000, 800, 1200, 1}, {4096, 4096, 4096, 1}, {8192, 8192, 8192, 1}};
    size_t most = 0;
    for (const shape &s : shapes)
        most = std::max(most, (size_t)std::max(s.m * s.k, std::max(s.k * s.n, s.split * s.m * s.n)));
    float *a, *b, *c, *ref;
    CHECK(cudaMalloc(&a, most * 4));
    CHECK(cudaMalloc(&b, most * 4));
    CHECK(cudaMalloc(&c, most * 4));
    CHECK(cudaMalloc(&ref, most * 4));
    std::vector<float> h(most);
    srand(1);
    for (float &x : h)
        x = (float)rand() / RAND_MAX - 0.5f;
    CHECK(cudaMemcpy(a, h.data(), most * 4, cudaMemcpyHostToDevice));
    for (float &x : h)
        x = (float)rand() / RAND_MAX - 0.5f;
    CHECK(cudaMemcpy(b, h.data(), most * 4, cudaMemcpyHostToDevice));
    cublasHandle_t handle;
    cublasCreate(&handle);
    for (const shape &s : shapes) {
        const float one = 1, zero = 0;
        const float ref_ms = median_ms([&] { /* row-major C = A B as column-major C^T = B^T A^T */
            cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, s.n, a, s.k, &zero, ref, s.n);
        });
        time_tile<simt_tile<64, 128, 16, 32, 64, 2, 4, 2, false>>("t64x128", s, a, b, c, ref, ref_ms);
        time_tile<simt_tile<128, 256, 16, 64, 64, 4, 4, 1, false>>("t128x256", s, a, b, c, ref, ref_ms);
        time_tile<simt_tile<128, 256, 32, 64, 64, 4, 4, 1, false>>("t128x256k32s4", s, a, b, c, ref, ref_ms);
        time_tile<simt_tile<64, 64, 16, 32, 32, 2, 4, 3, false>>("t64x64", s, a, b, c, ref, ref_ms);
        time_tile<simt_tile<128, 128, 8, 64, 64, 4, 4, 2, false>>("t128x128k8", s, a, b, c, ref, ref_ms);
    }
    cublasDestroy(handle);
    return 0;
}

/* cublas, cublas_tf32: the library baselines, and the shared gemm_context.
 *
 * cuBLAS is column-major; a row-major C = A*B is the column-major C^T = B^T * A^T, so we
 * pass B first with the dimensions swapped and no transposes (no copies).
 * cublas:      cublasSgemm, FP32 SIMT (on sm_90 cuBLAS picks a CUTLASS SIMT kernel).
 * cublas_tf32: cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32: tensor cores, inputs
 *              rounded to TF32, FP32 accumulate.
 * cublas_bf16x9: cublasGemmEx with CUBLAS_COMPUTE_32F_EMULATED_16BFX9 (cuBLAS >= 12.9): FP32
 *              emulated on BF16 tensor cores (each operand as three BF16 parts), FP32
 *              accuracy. NVIDIA presents it for Blackwell; on sm_90 cuBLAS may run its
 *              native FP32 kernel instead (the tensor counters of the row tell) or refuse
 *              (a failed row naming the status).
 *       ./build/gemmprof -k cublas,cublas_tf32,cublas_bf16x9
 */
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/gemm.h"

struct gemm_context {
    cublasHandle_t blas;
};

extern "C" struct gemm_context *gemm_context_create(cudaStream_t stream, char *why,
                                                    unsigned long why_len)
{
    struct gemm_context *ctx = (struct gemm_context *)calloc(1, sizeof *ctx);
    if (!ctx) {
        snprintf(why, why_len, "out of host memory");
        return NULL;
    }
    cublasStatus_t st = cublasCreate(&ctx->blas);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasSetStream(ctx->blas, stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, why_len, "cuBLAS initialisation failed: %s", cublasGetStatusString(st));
        if (ctx->blas)
            cublasDestroy(ctx->blas);
        free(ctx);
        return NULL;
    }
    return ctx;
}

extern "C" void gemm_context_destroy(struct gemm_context *ctx)
{
    if (!ctx)
        return;
    cublasDestroy(ctx->blas);
    free(ctx);
}

/* cuBLAS reports its own status codes; map failures onto the runtime's error type so
 * the harness has one error path. The launch error, if any, wins. */
static cudaError_t blas_result(cublasStatus_t st)
{
    cudaError_t launch = cudaGetLastError();
    if (launch != cudaSuccess)
        return launch;
    switch (st) {
    case CUBLAS_STATUS_SUCCESS: return cudaSuccess;
    case CUBLAS_STATUS_ALLOC_FAILED: return cudaErrorMemoryAllocation;
    case CUBLAS_STATUS_INVALID_VALUE: return cudaErrorInvalidValue;
    case CUBLAS_STATUS_ARCH_MISMATCH: return cudaErrorNoKernelImageForDevice;
    case CUBLAS_STATUS_NOT_SUPPORTED: return cudaErrorNotSupported;
    default: return cudaErrorUnknown;
    }
}

extern "C" cudaError_t gemm_cublas_launch(struct gemm_context *ctx, int m, int n, int k,
                                          const float *a, const float *b, float *c,
                                          cudaStream_t stream)
{
    (void)stream;  /* bound to the handle at creation */
    const float alpha = 1.f, beta = 0.f;
    return blas_result(cublasSgemm(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a,
                                   k, &beta, c, n));
}

extern "C" cudaError_t gemm_cublas_tf32_launch(struct gemm_context *ctx, int m, int n, int k,
                                               const float *a, const float *b, float *c,
                                               cudaStream_t stream)
{
    (void)stream;
    const float alpha = 1.f, beta = 0.f;
    return blas_result(cublasGemmEx(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b,
                                    CUDA_R_32F, n, a, CUDA_R_32F, k, &beta, c, CUDA_R_32F, n,
                                    CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

/* Emulation where cuBLAS can (strategy EAGER; the default, PERFORMANT, emulates only where
 * cuBLAS expects a gain), the handle's strategy restored for the other variants. */
extern "C" cudaError_t gemm_cublas_bf16x9_launch(struct gemm_context *ctx, int m, int n, int k,
                                                 const float *a, const float *b, float *c,
                                                 cudaStream_t stream)
{
    (void)stream;
#if CUBLAS_VERSION >= 120900
    const float alpha = 1.f, beta = 0.f;
    cublasEmulationStrategy_t before;
    cublasStatus_t st = cublasGetEmulationStrategy(ctx->blas, &before);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasSetEmulationStrategy(ctx->blas, CUBLAS_EMULATION_STRATEGY_EAGER);
    if (st != CUBLAS_STATUS_SUCCESS)
        return blas_result(st);
    st = cublasGemmEx(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_32F, n, a,
                      CUDA_R_32F, k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_EMULATED_16BFX9,
                      CUBLAS_GEMM_DEFAULT);
    const cublasStatus_t restored = cublasSetEmulationStrategy(ctx->blas, before);
    return blas_result(st != CUBLAS_STATUS_SUCCESS ? st : restored);
#else
    (void)ctx, (void)m, (void)n, (void)k, (void)a, (void)b, (void)c;
    return cudaErrorNotSupported; /* cuBLAS before 12.9 has no FP32 emulation */
#endif
}

/* cublas, cublas_tf32, cublas_bf16, cublas_fp16: the library baselines, and the shared
 * gemm_context.
 *
 * cuBLAS is column-major; a row-major C = A*B is the column-major C^T = B^T * A^T, so we
 * pass B first with the dimensions swapped and no transposes (no copies).
 * cublas:      cublasSgemm, FP32 SIMT (on sm_90 cuBLAS picks a CUTLASS SIMT kernel).
 * cublas_tf32: cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32: tensor cores, inputs
 *              rounded to TF32, FP32 accumulate.
 * cublas_bf16, cublas_fp16: cublasGemmEx on the 16-bit copies of A and B the shape setup
 *              made (gemm_context_set_input16), CUDA_R_16BF / CUDA_R_16F inputs, FP32
 *              output, CUBLAS_COMPUTE_32F (FP32 accumulate).
 * No FP32-emulation baseline: cuBLAS 13.0 has CUBLAS_COMPUTE_32F_EMULATED_16BFX9 (FP32 on
 * BF16 tensor cores), but on the H200 a cublasGemmEx with it (emulation strategy EAGER)
 * ran cublasSgemm's own SIMT kernel (sm80_xmma_gemm_f32f32_..._ffma, 51.29 TFLOP/s at
 * 8192^3 as cublas, the same error to the last digit; results/h200/NOTES.md, "Kernel
 * notes", cublas): no emulation on sm_90, so no row of its own.
 *       ./build/gemmprof -k cublas,cublas_tf32,cublas_bf16,cublas_fp16
 */
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/gemm.h"

/* The 16-bit copies of one shape's A and B, and what they were made from. */
struct input16 {
    const float *a, *b;
    int m, n, k;
    const void *a16, *b16;
};

struct gemm_context {
    cublasHandle_t blas;
    struct input16 in16[GEMM_INPUT16_COUNT];   /* gemm_context_set_input16 */
};

extern "C" void gemm_context_set_input16(struct gemm_context *ctx, enum gemm_input16 which, const float *a,
                                         const float *b, int m, int n, int k, const void *a16, const void *b16)
{
    if (ctx && which >= 0 && which < GEMM_INPUT16_COUNT)
        ctx->in16[which] = input16{a, b, m, n, k, a16, b16};
}

extern "C" cudaError_t gemm_context_input16(const struct gemm_context *ctx, enum gemm_input16 which,
                                            const float *a, const float *b, int m, int n, int k,
                                            const void **a16, const void **b16)
{
    *a16 = *b16 = NULL;
    if (!ctx || which < 0 || which >= GEMM_INPUT16_COUNT)
        return cudaErrorInvalidValue;
    const struct input16 *in = &ctx->in16[which];
    if (!in->a16 || in->a != a || in->b != b || in->m != m || in->n != n || in->k != k)
        return cudaErrorInvalidValue;
    *a16 = in->a16, *b16 = in->b16;
    return cudaSuccess;
}

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

GEMM_LAUNCHER(cublas);
extern "C" cudaError_t gemm_cublas_launch(struct gemm_context *ctx, int m, int n, int k,
                                          const float *a, const float *b, float *c,
                                          cudaStream_t stream)
{
    (void)stream;  /* bound to the handle at creation */
    const float alpha = 1.f, beta = 0.f;
    return blas_result(cublasSgemm(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a,
                                   k, &beta, c, n));
}

GEMM_LAUNCHER(cublas_tf32);
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

/* A 16-bit GEMM on the copies named for (a, b, m, n, k); FP32 C, FP32 accumulate. */
static cudaError_t gemm16(struct gemm_context *ctx, enum gemm_input16 which, cudaDataType type, int m, int n,
                          int k, const float *a, const float *b, float *c)
{
    const void *a16, *b16;
    const cudaError_t e = gemm_context_input16(ctx, which, a, b, m, n, k, &a16, &b16);
    if (e != cudaSuccess)
        return e;
    const float alpha = 1.f, beta = 0.f;
    return blas_result(cublasGemmEx(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b16, type, n, a16,
                                    type, k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

GEMM_LAUNCHER(cublas_bf16);
extern "C" cudaError_t gemm_cublas_bf16_launch(struct gemm_context *ctx, int m, int n, int k,
                                               const float *a, const float *b, float *c,
                                               cudaStream_t stream)
{
    (void)stream;
    return gemm16(ctx, GEMM_INPUT_BF16, CUDA_R_16BF, m, n, k, a, b, c);
}

GEMM_LAUNCHER(cublas_fp16);
extern "C" cudaError_t gemm_cublas_fp16_launch(struct gemm_context *ctx, int m, int n, int k,
                                               const float *a, const float *b, float *c,
                                               cudaStream_t stream)
{
    (void)stream;
    return gemm16(ctx, GEMM_INPUT_FP16, CUDA_R_16F, m, n, k, a, b, c);
}

/* The narrow boundary between host C and device code: every variant is one launcher
 * with this signature, declared from kernels/variants.def.
 *
 * C = A * B, row-major, A is m x k, B is k x n, C is m x n, any m, n, k >= 1.
 * The launcher enqueues the work on `stream` and returns cudaGetLastError() (or the
 * library's error mapped to a cudaError_t); it never synchronizes. `ws` is per-variant
 * workspace state created by gemm_context_create (cuBLAS handle); kernels ignore it.
 */
#ifndef GEMMPROF_KERNELS_GEMM_H
#define GEMMPROF_KERNELS_GEMM_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gemm_context;  /* opaque: the cuBLAS handle and anything else a launcher needs */

/* Creates the shared context (cuBLAS handle bound to `stream`). Returns NULL and fills
 * `why` on failure. */
struct gemm_context *gemm_context_create(cudaStream_t stream, char *why, unsigned long why_len);
void gemm_context_destroy(struct gemm_context *ctx);

typedef cudaError_t (*gemm_launch_fn)(struct gemm_context *ctx, int m, int n, int k,
                                      const float *a, const float *b, float *c,
                                      cudaStream_t stream);

/* Optional per-variant hook: the configuration a launch at m x n x k runs (tile, stages,
 * split: "128x256x16 w64x64 t16x8 s4 split1"), written into buf (at most len bytes with
 * the NUL) for the results' config column. A variant has one by defining
 * gemm_<name>_config with this signature; src/registry.c finds it through a weak
 * reference, and a variant without one leaves the column empty. */
typedef void (*gemm_config_fn)(int m, int n, int k, char *buf, unsigned long len);

#define GEMM_VARIANT(name, prec, tol, desc)                                               \
    cudaError_t gemm_##name##_launch(struct gemm_context *ctx, int m, int n, int k,        \
                                     const float *a, const float *b, float *c,             \
                                     cudaStream_t stream);
#include "kernels/variants.def"
#undef GEMM_VARIANT

#ifdef __cplusplus
}
#endif
#endif

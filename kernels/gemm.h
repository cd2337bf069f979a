/* The narrow boundary between host C and device code: every variant is one launcher
 * with this signature (GEMM_LAUNCHER below), listed in kernels/variants.def.
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

/* The 16-bit inputs (bf16, fp16 variants): the shape setup (src/shape.c) rounds A and B
 * once per shape, outside every timed region, uploads the 16-bit patterns (row-major, the
 * shapes of A and B) and names them here with the FP32 buffers `a`, `b` they were made
 * from and the shape. A 16-bit launcher reads them in place of its `a`, `b`, and refuses
 * (cudaErrorInvalidValue) a launch on any other buffers or shape rather than compute on
 * stale copies. a16 == NULL forgets the pair. */
enum gemm_input16 { GEMM_INPUT_BF16, GEMM_INPUT_FP16, GEMM_INPUT16_COUNT };
void gemm_context_set_input16(struct gemm_context *ctx, enum gemm_input16 which, const float *a,
                              const float *b, int m, int n, int k, const void *a16, const void *b16);
/* The 16-bit copies named for exactly (a, b, m, n, k) into *a16, *b16: cudaSuccess, or
 * cudaErrorInvalidValue (both NULL) when none are, or they were made from other buffers or
 * another shape. What every 16-bit launcher calls first. */
cudaError_t gemm_context_input16(const struct gemm_context *ctx, enum gemm_input16 which, const float *a,
                                 const float *b, int m, int n, int k, const void **a16, const void **b16);

typedef cudaError_t (*gemm_launch_fn)(struct gemm_context *ctx, int m, int n, int k,
                                      const float *a, const float *b, float *c,
                                      cudaStream_t stream);

/* Optional per-variant hook: the configuration a launch at m x n x k runs (tile, stages,
 * split: "128x256x16 w64x64 t16x8 s4 split1"), written into buf (at most len bytes with
 * the NUL) for the results' config column. A variant has one by defining
 * gemm_<name>_config with this signature; src/registry.c finds it through a weak
 * reference, and a variant without one leaves the column empty. */
typedef void (*gemm_config_fn)(int m, int n, int k, char *buf, unsigned long len);

/* Variant `name`'s launcher, in the one signature above. Each kernels/NN_name.cu declares
 * its own, `GEMM_LAUNCHER(name);`, so the compiler holds its definition to the signature,
 * and src/registry.c declares the list of them from kernels/variants.def. gemm.h itself
 * does not include that list: a line added there recompiles the registry, not every
 * kernel. */
#ifdef __cplusplus
#define GEMM_LAUNCHER_LINKAGE extern "C"
#else
#define GEMM_LAUNCHER_LINKAGE extern
#endif
#define GEMM_LAUNCHER(name)                                                                  \
    GEMM_LAUNCHER_LINKAGE cudaError_t gemm_##name##_launch(struct gemm_context *ctx, int m, int n, int k, \
                                                           const float *a, const float *b, float *c,     \
                                                           cudaStream_t stream)

#ifdef __cplusplus
}
#endif
#endif

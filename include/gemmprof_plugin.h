/* gemmprof's plugin ABI: bring your own GEMM kernel.
 *
 * Build a shared library that exports a function returning a description of the kernel:
 *
 *     #include "gemmprof_plugin.h"
 *     static int my_launch(int m, int n, int k, const float *a, const float *b, float *c,
 *                          void *stream) { ...enqueue on (cudaStream_t)stream...;
 *                                          return (int)cudaGetLastError(); }
 *     static const struct gemmprof_plugin info = {
 *         GEMMPROF_PLUGIN_ABI_VERSION, "my_kernel", "fp32", "what it does", my_launch};
 *     const struct gemmprof_plugin *gemmprof_plugin(void) { return &info; }
 *
 * and run it beside the built-in variants: gemmprof -k naive,cublas,plugin:./libmine.so
 * (plugin:PATH.so:SYMBOL when the function has another name). The plugin is verified,
 * timed, counted, charted and reported exactly like a built-in variant.
 *
 * The launch contract, the same as the built-in variants': C = A * B, row-major, A is
 * m x k, B is k x n, C is m x n, for any m, n, k >= 1, all three device pointers; the
 * kernel is enqueued on `stream` (a cudaStream_t), never synchronized; the return value is
 * a cudaError_t (cudaSuccess = 0), typically cudaGetLastError(). The strings must live as
 * long as the library is loaded. Plain C, no CUDA types, so the header needs no CUDA. */
#ifndef GEMMPROF_PLUGIN_H
#define GEMMPROF_PLUGIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when the struct below changes; gemmprof refuses any other version. */
#define GEMMPROF_PLUGIN_ABI_VERSION 1
/* The function gemmprof looks up when the -k spec names none. */
#define GEMMPROF_PLUGIN_SYMBOL "gemmprof_plugin"

struct gemmprof_plugin {
    int abi_version;            /* GEMMPROF_PLUGIN_ABI_VERSION */
    const char *name;           /* the variant's name: letters, digits and '_', 1..31 bytes */
    const char *precision;      /* "fp32" (FP32 multiply-add), "tf32" (TF32 inputs), "bf16" or
                                 * "fp16" (inputs rounded to 16 bits, FP32 accumulate: the plugin
                                 * gets the FP32 A and B like any other and rounds them itself,
                                 * to nearest even, inside its time; it is verified against the
                                 * reference of the rounded inputs) */
    const char *description;    /* one line, for --list and the report */
    int (*launch)(int m, int n, int k, const float *a, const float *b, float *c, void *stream);
};

typedef const struct gemmprof_plugin *(*gemmprof_plugin_fn)(void);

#ifdef __cplusplus
}
#endif
#endif

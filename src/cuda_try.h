/* One error-macro family for CUDA runtime calls: the message names the call that failed,
 * taken from its source text, so no call site types a name that can drift from the call (a
 * failed cudaMalloc once read "cannot create a stream"). CUPTI's is CUPTI_TRY
 * (cupti/common.h); cuBLAS statuses are mapped to cudaError_t by its launchers
 * (kernels/cublas.cu), so they go through this family too. */
#ifndef GEMMPROF_SRC_CUDA_TRY_H
#define GEMMPROF_SRC_CUDA_TRY_H

#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

/* "what: cudaMalloc: out of memory" into err; clears the (non-sticky) error state. */
static inline void cuda_describe(cudaError_t e, const char *what, const char *call_text, char *err,
                                 size_t errlen)
{
    int name_len = (int)strcspn(call_text, "(");
    snprintf(err, errlen, "%s: %.*s: %s", what, name_len, call_text, cudaGetErrorString(e));
    cudaGetLastError();
}

/* The family's base: runs `call` (a cudaError_t expression) once; when it fails, runs the
 * statement `on_error`, in which cuda_try_e_ is the error and `#call` the call's text,
 * then jumps to `label`. */
#define CUDA_TRY_ELSE(call, on_error, label)                                              \
    do {                                                                                  \
        cudaError_t cuda_try_e_ = (call);                                                 \
        if (cuda_try_e_ != cudaSuccess) {                                                 \
            on_error;                                                                     \
            goto label;                                                                   \
        }                                                                                 \
    } while (0)

/* Runs `call`; on failure describes it as above and jumps to `label`. */
#define CUDA_TRY(call, what, err, errlen, label) \
    CUDA_TRY_ELSE(call, cuda_describe(cuda_try_e_, (what), #call, (err), (errlen)), label)

/* The same as an expression, for conditions: 1 when `call` succeeds, else 0 with the
 * failure described as above ("what: cudaMalloc: out of memory"). */
#define CUDA_OK(call, what, err, errlen) cuda_ok_((call), (what), #call, (err), (errlen))
static inline int cuda_ok_(cudaError_t e, const char *what, const char *call_text, char *err, size_t errlen)
{
    if (e == cudaSuccess)
        return 1;
    cuda_describe(e, what, call_text, err, errlen);
    return 0;
}

#endif

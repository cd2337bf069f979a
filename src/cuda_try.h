/* One error macro for CUDA runtime calls: the message names the call that failed, taken
 * from its source text, so no call site types a name that can drift from the call (a
 * failed cudaMalloc once read "cannot create a stream"). */
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

/* Runs `call`; on failure describes it as above and jumps to `label`. */
#define CUDA_TRY(call, what, err, errlen, label)                                          \
    do {                                                                                  \
        cudaError_t cuda_try_e_ = (call);                                                 \
        if (cuda_try_e_ != cudaSuccess) {                                                 \
            cuda_describe(cuda_try_e_, (what), #call, (err), (errlen));                   \
            goto label;                                                                   \
        }                                                                                 \
    } while (0)

#endif

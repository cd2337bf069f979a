/* CUDA device facts for the JSON sidecar and the memory check. */
#ifndef GEMMPROF_SRC_DEVICE_H
#define GEMMPROF_SRC_DEVICE_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "analysis/meta.h"

enum device_status {
    DEVICE_OK = 0,
    DEVICE_NONE,        /* no usable GPU or driver */
    DEVICE_BAD_INDEX,   /* --device names a GPU that is not there: bad input */
    DEVICE_FAILED,      /* the GPU is there but cannot be used */
};

/* Selects `device` and fills the device and software fields of `m`. DEVICE_OK, or
 * another status with a one-line reason ("no CUDA device: ...") in err. */
enum device_status device_open(int device, struct gp_meta *m, char *err, size_t errlen);

/* Why there is no usable GPU, given cudaGetDeviceCount's error: no NVIDIA driver at all
 * (libcuda.so.1 missing), a driver older than the runtime, or a driver that sees no
 * device. One line into why. */
void device_absence_reason(cudaError_t e, char *why, size_t len);

#endif

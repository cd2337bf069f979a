/* CUDA device facts for the JSON sidecar and the memory check. */
#ifndef GEMMPROF_SRC_DEVICE_H
#define GEMMPROF_SRC_DEVICE_H

#include <stddef.h>

#include "analysis/meta.h"

/* Selects `device` and fills the device and software fields of `m`. Returns 0, or -1
 * with "no CUDA device: ..." (or another reason) in err; *no_device is set when the
 * cause is that there is no usable GPU or driver. */
int device_open(int device, struct gp_meta *m, int *no_device, char *err, size_t errlen);

#endif

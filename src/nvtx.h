/* NVTX v3 ranges in one domain, "gemmprof", so Nsight Systems and Nsight Compute users
 * can find and filter each variant x shape and its phases:
 *   ncu --nvtx --nvtx-include "gemmprof@tiled 2048x2048x2048/" ...
 * Strings are registered (nsys captures only registered strings by default). */
#ifndef GEMMPROF_SRC_NVTX_H
#define GEMMPROF_SRC_NVTX_H

void gp_nvtx_push(const char *name, int color_index);
void gp_nvtx_pop(void);

#endif

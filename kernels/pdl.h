/* Whether launchers may enqueue a kernel as a dependent launch (kernels/pdl.cuh): on by
 * default. The counter phase turns them off while it measures (GEMMPROF_COUNTER_PDL): a
 * dependent kernel's blocks sit resident at pdl_wait() while the kernel before it runs,
 * and their waiting warps would count as the call's stalled warps, which ncu, running
 * the kernels one after another, never sees. Single-threaded callers. */
#ifndef GEMMPROF_KERNELS_PDL_H
#define GEMMPROF_KERNELS_PDL_H

#ifdef __cplusplus
extern "C" {
#endif

void pdl_allow(int on);
int pdl_allowed(void);

#ifdef __cplusplus
}
#endif
#endif

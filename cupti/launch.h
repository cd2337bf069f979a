/* Launch facts of the kernels a call launches (grid, block, registers, shared memory,
 * occupancy, waves), captured by a CUPTI callback on the driver's launch APIs around
 * one (untimed) call and worked out by analysis/launch_facts.c.
 *
 *   if (launch_capture_begin(why, sizeof why) == 0) {
 *       launch the call once;
 *       launch_capture_end(&row, why, sizeof why);   // fills the row's launch fields
 *   }
 *
 * A callback subscription, not the profiler: it works with --no-counters, but CUPTI
 * allows one subscriber, so it must not overlap a prof_open session, and it fails when
 * ncu, nsys or compute-sanitizer hold CUPTI. Kernel activity records are on for the
 * capture too (through cupti/activity.h, so a --trace keeps its own): their driver's
 * shared-memory configuration sets the shared-memory block limit. */
#ifndef GEMMPROF_CUPTI_LAUNCH_H
#define GEMMPROF_CUPTI_LAUNCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gp_result;

/* Starts recording launches on this process. 0, or -1 with one line in `why`. Kernel
 * records failing to start is not an error: launch_capture_end then notes it. */
int launch_capture_begin(char *why, size_t why_len);

/* Stops recording (always) and fills row's launch fields from the call's main kernel:
 * the recorded launch that ran longest by its kernel record (the most threads where no
 * record arrived), on the current context's device. 0; 1 when filled with a note in
 * `why` (the occupancy API disagreed with the limits; the driver's shared-memory
 * configuration unknown, so block_limit_smem is the carveout model's and
 * smem_config_bytes is left empty); -1 with `why` when nothing could be filled (no
 * launch seen, a driver query failed). The caller synchronizes first: the kernel
 * records are flushed here, and switched off again. */
int launch_capture_end(struct gp_result *row, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif

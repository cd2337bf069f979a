/* A Perfetto / chrome://tracing timeline (trace-event JSON) from CUPTI activity records:
 * kernels, memsets/memcpys and the NVTX ranges of the gemmprof domain. */
#ifndef GEMMPROF_CUPTI_TRACE_H
#define GEMMPROF_CUPTI_TRACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Must run before the first NVTX call of the process: points NVTX at libcupti so that
 * NVTX ranges reach the activity API (does not override a value set by nsys). */
void trace_prepare(void);

struct trace;
/* Starts collecting activity records. NULL with a one-line reason when CUPTI cannot. */
struct trace *trace_start(char *why, size_t why_len);
/* Flushes, writes the JSON atomically to `path`, frees. The caller synchronizes the
 * device first (cudaDeviceSynchronize): CUPTI's flush does not. 0 or -1 with reason;
 * on 0, `why` is empty or holds a warning worth printing (records dropped, NVTX
 * markers unpaired, NVTX not routed to CUPTI). */
int trace_finish(struct trace *t, const char *path, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif

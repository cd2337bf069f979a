/* The record store behind cupti/trace.h, split out so that tests can feed it
 * CUPTI activity records built by hand and check the JSON without a GPU.
 * trace_start/trace_finish are these plus the CUPTI buffer plumbing. */
#ifndef GEMMPROF_CUPTI_TRACE_INTERNAL_H
#define GEMMPROF_CUPTI_TRACE_INTERNAL_H

#include "cupti/trace.h"

#include <cupti_activity.h>
#include <stddef.h>

/* An empty trace; NULL when out of memory. Collects nothing by itself. */
struct trace *trace_alloc(void);
/* Copies what the timeline needs out of one activity record (kernel, memcpy, memset,
 * runtime API, NVTX marker, external correlation); other kinds are ignored. */
void trace_add_record(struct trace *t, const CUpti_Activity *rec);
/* Adds `n` to the count of records CUPTI dropped. */
void trace_add_dropped(struct trace *t, size_t n);
/* Writes the trace-event JSON atomically (temp file + rename). Returns 0, with `why`
 * empty or holding a warning (dropped records, unpaired NVTX markers), or -1 with
 * the reason. Does not free. */
int trace_write(const struct trace *t, const char *path, char *why, size_t why_len);
void trace_free(struct trace *t);

#endif

/* The one CUPTI activity-buffer registration of the process, shared inside cupti/.
 * CUPTI takes one cuptiActivityRegisterCallbacks per process, yet two parts read
 * activity records: the --trace timeline (trace.c) and the launch capture, which needs
 * the driver's shared-memory configuration from the kernel record (launch.c). Each adds
 * a sink; every completed buffer goes to every sink present.
 *
 *   activity_add_sink(fn, arg, why, len);     registers with CUPTI the first time
 *   activity_enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
 *   ... launch, synchronize, cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) ...
 *   activity_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
 *   activity_remove_sink(fn, arg);            no call of fn is running after it returns */
#ifndef GEMMPROF_CUPTI_ACTIVITY_H
#define GEMMPROF_CUPTI_ACTIVITY_H

#include <cupti_activity.h>
#include <stddef.h>

/* Called for each record of a completed buffer (dropped == 0), then once with rec NULL
 * and the number of records CUPTI dropped, when it dropped any. Runs on CUPTI's thread
 * or inside cuptiActivityFlushAll, under the dispatcher's lock: it must not call the
 * activity_* functions. */
typedef void (*activity_sink)(void *arg, const CUpti_Activity *rec, size_t dropped);

/* 0, or -1 with one line in `why` (CUPTI refused the registration, or the table of
 * sinks is full). */
int activity_add_sink(activity_sink fn, void *arg, char *why, size_t why_len);
void activity_remove_sink(activity_sink fn, void *arg);

/* Counted on top of cuptiActivityEnable/Disable, which are not counted: the launch
 * capture, nested in a --trace, must not switch off the kernel records the trace
 * enabled. Enable returns CUPTI's result; disable switches CUPTI's kind off on the
 * last release. */
CUptiResult activity_enable(CUpti_ActivityKind kind);
void activity_disable(CUpti_ActivityKind kind);

#endif

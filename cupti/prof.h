/* Hardware counters per kernel through the CUPTI range profiler (cupti_range_profiler.h
 * + cupti_profiler_host.h, CUDA >= 12.6). The harness sees only this header.
 *
 * Usage:
 *   struct prof_session *s = prof_open(dev, ids, n, why, sizeof why);
 *   if (!s) { warn(why); carry on timing-only; }
 *   prof_measure(s, run_variant_once, &args, values, kernels, sizeof kernels, why, sizeof why);
 *   prof_close(s);
 */
#ifndef GEMMPROF_CUPTI_PROF_H
#define GEMMPROF_CUPTI_PROF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct prof_session;

/* Opens the profiler on the CUDA primary context of `device` (the one the runtime and
 * cuBLAS use; call after the runtime has initialised it) for the metrics whose ids
 * (analysis/metrics.h: indices into gp_metrics[], or GP_METRIC_COUNT + j for extra
 * metric j) are listed in `ids`.
 * Returns NULL when counters are unavailable, writing one line to `why` that names the
 * cause and the remedy (no driver, insufficient privileges, counters held by ncu / nsys
 * / compute-sanitizer, unsupported device, CUPTI libraries missing). Never exits.
 * A session may be kept open across other GPU work (the counter phase keeps one, all its
 * metrics together, for a whole run): between measures only its range profiler stays enabled on the
 * context; no callback or subscriber is left on the launch path. */
struct prof_session *prof_open(int device, const int *ids, int nids, char *why, size_t why_len);

/* Replay passes the configured metric set needs (cuptiProfilerHostGetNumOfPasses). */
int prof_num_passes(const struct prof_session *s);

/* Runs `workload(arg)` once per replay pass (prof_num_passes times), each run inside
 * one profiler range and preceded by `prepare(arg)` (may be NULL) outside it, e.g. an
 * L2 flush so every pass starts cold. The workload must be idempotent (same kernels,
 * same device state each call) and return 0 on success; it must synchronize nothing
 * itself. All kernels it launches are summed into one set of values, stored in
 * values[id] for the opened ids (values has GP_METRIC_SLOTS entries). `kernels`
 * receives the launched kernel names in launch order, ';'-separated and demangled.
 * Returns 0, or -1 with `why` filled. */
typedef int (*prof_workload_fn)(void *arg);
typedef void (*prof_prepare_fn)(void *arg);
int prof_measure(struct prof_session *s, prof_prepare_fn prepare, prof_workload_fn workload,
                 void *arg, double *values, char *kernels, size_t kernels_len, char *why,
                 size_t why_len);

/* Ends the session: disables the profiler, frees the images, releases the context.
 * Safe on NULL and on a session that failed half-way. */
/* prof_measure for n workloads (n <= 64) in one pass sequence: each pass runs, for
 * i = 0..n-1, prepare(args[i]) then workload(args[i]) in its own range, and values[i]
 * and kernels[i] (may be NULL) receive workload i's results. Much cheaper than n
 * prof_measure calls: the profiler's fixed cost per pass is paid once per batch. */
int prof_measure_batch(struct prof_session *s, int n, prof_prepare_fn prepare,
                       prof_workload_fn workload, void *const *args, double *const *values,
                       char *const *kernels, size_t kernels_len, char *why, size_t why_len);

void prof_close(struct prof_session *s);

/* Where a session's measures spent their wall time, summed (seconds), for the counter
 * phase's cost line: `prepare` the callers' flushes (each also waits for the workload
 * before it), `ranges` pushing ranges and launching workloads into them, `pass_end`
 * stopping each pass (waits for the last workload and collects), `decode` the rest:
 * setting up the counter-data image, decoding and evaluating it. Host clocks only, never inside a timed region. */
struct prof_cost {
    double prepare_s, ranges_s, pass_end_s, decode_s;
    long passes, ranges;
};
void prof_cost_get(const struct prof_session *s, struct prof_cost *out);

/* Offline checks, no GPU or driver needed (the CUPTI host library knows the chips of
 * its release): `chip` is a CUPTI chip name such as "GH100" (H100/H200) or "AD102".
 * prof_check_metric_names: 0 when every metric id (table or extra) exists for the chip,
 * else -1 with `why` naming the first unknown one and the chip ("metric 'x__y.sum' is
 * not known to GH100's counter library ...") or the host-API failure. */
int prof_check_metric_names(const char *chip, const int *ids, int nids, char *why, size_t why_len);
/* The CUPTI chip name of `device` ("GH100"), through the driver but without a context or
 * any GPU work, so --metrics can be checked before the sweep. 0, or -1 with `why`. */
int prof_device_chip(int device, char *chip, size_t chip_len, char *why, size_t why_len);
/* Replay passes the metric set needs on `chip`, or -1 when it cannot be configured. */
int prof_count_passes_offline(const char *chip, const int *ids, int nids);

#ifdef __cplusplus
}
#endif
#endif

/* The metric table, built from analysis/metrics.def. Host-only: the collector (cupti/),
 * the CSV writer and reader and the roofline all index the same array. */
#ifndef GEMMPROF_ANALYSIS_METRICS_H
#define GEMMPROF_ANALYSIS_METRICS_H

#ifdef __cplusplus
extern "C" {   /* cupti/prof.cpp uses the metric ids */
#endif

enum gp_aggregate { GP_AGG_SUM, GP_AGG_WAVG, GP_AGG_MAX };
/* "sum", "wavg" or "max": the aggregate column as `gemmprof --list-metrics` prints it for
 * the comparison with ncu (tests/gpu/ncu_compare.py --combine). */
const char *gp_aggregate_name(enum gp_aggregate a);

enum gp_metric_id {
#define METRIC(id, name, label, unit, agg, dflt, desc) GP_M_##id,
#include "analysis/metrics.def"
#undef METRIC
    GP_METRIC_COUNT
};

struct gp_metric_info {
    const char *name;   /* ncu's exact name, also the CSV column */
    const char *label;  /* short, for terminal and report */
    const char *unit;
    enum gp_aggregate agg;
    int in_default;
    const char *description;   /* one line, for --list-metrics */
};

extern const struct gp_metric_info gp_metrics[GP_METRIC_COUNT];

/* Extra metrics: any other ncu name the chip's counter library knows (--metrics, or a
 * results.csv column that looks like one). They have no label or unit; their names are
 * a list of the run, and extra j has the id GP_METRIC_COUNT + j, so gp_result.metric[],
 * the collector and the CSV index table and extra metrics alike. */
#define GP_EXTRA_MAX 16
#define GP_METRIC_SLOTS (GP_METRIC_COUNT + GP_EXTRA_MAX)
#define GP_METRIC_NAME_MAX 128

int gp_extra_count(void);
/* The id of extra metric `name`, added to the list if new: a table metric's own id,
 * else GP_METRIC_COUNT + j; -1 when the name is malformed or the list is full. */
int gp_extra_add(const char *name);
void gp_extra_reset(void);   /* empties the list (a new command line) */

/* The ncu name of a table or extra metric id, or NULL. */
const char *gp_metric_name(int id);

/* 1 when `name` has the shape of an ncu metric name: unit__counter[.rollup[.submetric]],
 * letters, digits and '_' (e.g. "l1tex__t_sectors.sum"); whether the chip knows it is
 * checked through CUPTI (cupti/prof.h). */
int gp_metric_name_ok(const char *name);

/* 1 when collecting the metric patches the kernel's SASS (smsp__sass_* counts), 0 for
 * hardware counters and per-device peaks. The collector keeps the two kinds in
 * separate sessions: measured on the H200, instrumented code sharing a pass with the
 * DRAM counters added its own memory traffic to theirs (3x ncu's DRAM write bytes). */
int gp_metric_is_instrumented(int id);   /* table or extra id */

/* Index of the metric named exactly `name`, or -1. */
int gp_metric_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif

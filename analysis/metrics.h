/* The metric table, built from cupti/metrics.def. Host-only: the collector (cupti/),
 * the CSV writer and reader and the roofline all index the same array. */
#ifndef GEMMPROF_ANALYSIS_METRICS_H
#define GEMMPROF_ANALYSIS_METRICS_H

enum gp_aggregate { GP_AGG_SUM, GP_AGG_WAVG, GP_AGG_MAX };

enum gp_metric_id {
#define METRIC(id, name, label, unit, agg, dflt, desc) GP_M_##id,
#include "cupti/metrics.def"
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

/* 1 when collecting the metric patches the kernel's SASS (smsp__sass_* counts), 0 for
 * hardware counters and per-device peaks. The collector keeps the two kinds in
 * separate sessions: measured on the H200, instrumented code sharing a pass with the
 * DRAM counters added its own memory traffic to theirs (3x ncu's DRAM write bytes). */
int gp_metric_is_instrumented(int id);

/* Index of the metric named exactly `name`, or -1. */
int gp_metric_find(const char *name);

#endif

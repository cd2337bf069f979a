#include "analysis/metrics.h"

#include <string.h>

const struct gp_metric_info gp_metrics[GP_METRIC_COUNT] = {
#define METRIC(id, name, label, unit, agg, dflt, desc) {name, label, unit, agg, dflt, desc},
#include "cupti/metrics.def"
#undef METRIC
};

int gp_metric_find(const char *name)
{
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (strcmp(gp_metrics[i].name, name) == 0)
            return i;
    return -1;
}

int gp_metric_is_instrumented(int id)
{
    const char *n = gp_metrics[id].name;
    return (strncmp(n, "smsp__sass_", 11) == 0 || strncmp(n, "sm__sass_", 9) == 0) &&
           !strstr(n, "peak_sustained");
}

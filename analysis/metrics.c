#include "analysis/metrics.h"

#include <ctype.h>
#include <string.h>

const struct gp_metric_info gp_metrics[GP_METRIC_COUNT] = {
#define METRIC(id, name, label, unit, agg, dflt, desc) {name, label, unit, agg, dflt, desc},
#include "analysis/metrics.def"
#undef METRIC
};

const char *gp_aggregate_name(enum gp_aggregate a)
{
    return a == GP_AGG_WAVG ? "wavg" : a == GP_AGG_MAX ? "max" : "sum";
}

int gp_metric_find(const char *name)
{
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (strcmp(gp_metrics[i].name, name) == 0)
            return i;
    return -1;
}

static char extra_names[GP_EXTRA_MAX][GP_METRIC_NAME_MAX];
static int nextra;

int gp_extra_count(void) { return nextra; }
void gp_extra_reset(void) { nextra = 0; }

int gp_extra_add(const char *name)
{
    int id = gp_metric_find(name);
    if (id >= 0)
        return id;
    if (!gp_metric_name_ok(name))
        return -1;
    for (int j = 0; j < nextra; j++)
        if (strcmp(extra_names[j], name) == 0)
            return GP_METRIC_COUNT + j;
    if (nextra == GP_EXTRA_MAX)
        return -1;
    strcpy(extra_names[nextra], name);   /* fits: gp_metric_name_ok bounds the length */
    return GP_METRIC_COUNT + nextra++;
}

const char *gp_metric_name(int id)
{
    if (id >= 0 && id < GP_METRIC_COUNT)
        return gp_metrics[id].name;
    if (id >= GP_METRIC_COUNT && id < GP_METRIC_COUNT + nextra)
        return extra_names[id - GP_METRIC_COUNT];
    return NULL;
}

int gp_metric_name_ok(const char *name)
{
    size_t len = strlen(name);
    const char *unit_end = strstr(name, "__");
    if (len == 0 || len >= GP_METRIC_NAME_MAX || !unit_end || unit_end == name ||
        !isalpha((unsigned char)name[0]))
        return 0;
    const char *dot = strchr(name, '.');
    if (dot && dot < unit_end + 2)
        return 0;   /* the unit__counter part comes before any rollup */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == '.' ? (i + 1 == len || name[i + 1] == '.') : !(isalnum(c) || c == '_'))
            return 0;
    }
    return unit_end[2] && unit_end[2] != '.';
}

int gp_metric_is_instrumented(int id)
{
    const char *n = gp_metric_name(id);
    if (!n)
        return 0;
    return (strncmp(n, "smsp__sass_", 11) == 0 || strncmp(n, "sm__sass_", 9) == 0) &&
           !strstr(n, "peak_sustained");
}

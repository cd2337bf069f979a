/* The variant table, built from kernels/variants.def: launchers in src/registry.c, names
 * and lookups in src/variant_names.c (host code and tests link only the latter). */
#ifndef GEMMPROF_SRC_REGISTRY_H
#define GEMMPROF_SRC_REGISTRY_H

#include <stddef.h>

#include "analysis/precision.h"
#include "kernels/gemm.h"

struct gemm_variant {
    const char *name;
    enum gp_precision precision;
    double tol_factor;
    const char *desc;
    gemm_launch_fn launch;   /* a built-in's; NULL for a plugin */
    int (*plugin_launch)(int m, int n, int k, const float *a, const float *b, float *c, void *stream);
    gemm_config_fn config;   /* optional (kernels/gemm.h); NULL: no config column */
};

/* Launchers and descriptions (src/registry.c, GPU build only). */
extern const struct gemm_variant gemm_variants[];
/* Variant i, built-in (0..gemm_variant_count-1) or plugin (after them); NULL if none. */
const struct gemm_variant *registry_variant(int i);

/* Enqueues variant v: the one call every launch of the sweep goes through. */
static inline cudaError_t gemm_variant_launch(const struct gemm_variant *v, struct gemm_context *ctx, int m,
                                              int n, int k, const float *a, const float *b, float *c,
                                              cudaStream_t stream)
{
    if (v->plugin_launch)
        return (cudaError_t)v->plugin_launch(m, n, k, a, b, c, (void *)stream);
    return v->launch(ctx, m, n, k, a, b, c, stream);
}
/* Names only, same order (src/variant_names.c, no CUDA library needed). */
extern const char *const gemm_variant_names[];
extern const int gemm_variant_count;

/* Appends v to list[0..n) unless it is already there or the list holds max; returns
 * the new count. Keeps order: the CLI's variant and metric lists run as given. */
int index_list_add(int *list, int n, int max, int v);

/* Index of the variant called `name` (built-in or loaded plugin), or -1. */
int registry_find(const char *name);
/* Built-in variants plus loaded plugins; the name of variant i. */
int registry_count(void);
const char *registry_name(int i);

/* Parses "a,b,c" into indices (order kept, duplicates dropped); "all" selects every
 * built-in variant; "plugin:PATH.so[:SYMBOL]" loads a plugin (src/plugin.h) and selects it.
 * Returns the count, or -1 with "unknown variant 'x' (known: ...)" or the plugin's
 * problem in err. */
int registry_parse_list(const char *list, int *idx, int max, char *err, size_t errlen);

#endif

/* The variant table, built from kernels/variants.def: launchers in src/registry.c, names
 * and lookups in src/variant_names.c (host code and tests link only the latter). */
#ifndef GEMMPROF_SRC_REGISTRY_H
#define GEMMPROF_SRC_REGISTRY_H

#include <stddef.h>

#include "kernels/gemm.h"

struct gemm_variant {
    const char *name;
    enum gp_precision precision;
    double tol_factor;
    const char *desc;
    gemm_launch_fn launch;
};

/* Launchers and descriptions (src/registry.c, GPU build only). */
extern const struct gemm_variant gemm_variants[];
/* Names only, same order (src/variant_names.c, no CUDA library needed). */
extern const char *const gemm_variant_names[];
extern const int gemm_variant_count;

/* Appends v to list[0..n) unless it is already there or the list holds max; returns
 * the new count. Keeps order: the CLI's variant and metric lists run as given. */
int index_list_add(int *list, int n, int max, int v);

/* Index of the variant called `name`, or -1. */
int registry_find(const char *name);

/* Parses "a,b,c" into indices (order kept, duplicates dropped); "all" selects every
 * variant. Returns the count, or -1 with "unknown variant 'x' (known: ...)" in err. */
int registry_parse_list(const char *list, int *idx, int max, char *err, size_t errlen);

#endif

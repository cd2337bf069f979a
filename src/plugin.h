/* Plugins: GEMM kernels from shared libraries (include/gemmprof_plugin.h), loaded when the
 * variant list names them (-k plugin:PATH.so[:SYMBOL]) and then treated as variants. No
 * CUDA library is needed to load one, so the checks are host-tested. */
#ifndef GEMMPROF_SRC_PLUGIN_H
#define GEMMPROF_SRC_PLUGIN_H

#include <stddef.h>

#include "analysis/precision.h"
#include "include/gemmprof_plugin.h"

#define PLUGIN_MAX 32

struct plugin_variant {
    char name[32];
    enum gp_precision precision;
    char desc[160];
    int (*launch)(int m, int n, int k, const float *a, const float *b, float *c, void *stream);
    char spec[512];   /* as given, for messages */
};

/* Loads the plugin of `spec` (PATH.so or PATH.so:SYMBOL, without the "plugin:" prefix),
 * checks its ABI version, name, precision and launcher, and registers it. The same spec
 * twice gives the same plugin. Returns its plugin index (0..), or -1 with a one-line reason
 * (missing file, missing symbol, wrong ABI version, bad name...). `taken` says whether a
 * name is already a variant's. */
int plugin_load(const char *spec, int (*taken)(const char *name), char *err, size_t errlen);
int plugin_count(void);
const struct plugin_variant *plugin_get(int i);

#endif

/* Plugins that must be refused with a one-line error, for the host tests (no CUDA needed:
 * they are refused before anything is launched). Built into build/tests/plugins/. */
#include <stddef.h>

#include "include/gemmprof_plugin.h"

static int never(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    (void)m, (void)n, (void)k, (void)a, (void)b, (void)c, (void)stream;
    return 0;
}

static const struct gemmprof_plugin future = {GEMMPROF_PLUGIN_ABI_VERSION + 1, "future_abi", "fp32", "", never};
static const struct gemmprof_plugin bad_name = {GEMMPROF_PLUGIN_ABI_VERSION, "has space", "fp32", "", never};
static const struct gemmprof_plugin taken = {GEMMPROF_PLUGIN_ABI_VERSION, "naive", "fp32", "", never};
static const struct gemmprof_plugin bad_prec = {GEMMPROF_PLUGIN_ABI_VERSION, "double", "fp64", "", never};
static const struct gemmprof_plugin no_launch = {GEMMPROF_PLUGIN_ABI_VERSION, "nolaunch", "fp32", "", NULL};
static const struct gemmprof_plugin good_bf16 = {GEMMPROF_PLUGIN_ABI_VERSION, "host_bf16", "bf16", "loads; never runs", never};
static const struct gemmprof_plugin good = {GEMMPROF_PLUGIN_ABI_VERSION, "host_ok", "tf32", "loads; never runs", never};

const struct gemmprof_plugin *future_abi(void) { return &future; }
const struct gemmprof_plugin *bad_name_plugin(void) { return &bad_name; }
const struct gemmprof_plugin *taken_name(void) { return &taken; }
const struct gemmprof_plugin *bad_precision(void) { return &bad_prec; }
const struct gemmprof_plugin *no_launcher(void) { return &no_launch; }
const struct gemmprof_plugin *null_plugin(void) { return NULL; }
const struct gemmprof_plugin *bf16_plugin(void) { return &good_bf16; }
const struct gemmprof_plugin *gemmprof_plugin(void) { return &good; }

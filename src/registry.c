/* The variant table with its launchers: only the GPU build links this. Lookups by name
 * (registry_find, registry_parse_list) live in src/variant_names.c, which host tests
 * link without any CUDA library. */
#include "src/registry.h"

#include "src/plugin.h"

/* The launchers, each in the one signature (kernels/gemm.h); the optional config hooks
 * weak, so a variant that defines none links as NULL. */
#define GEMM_VARIANT(name, prec, tol, desc) GEMM_LAUNCHER(name);
#include "kernels/variants.def"
#undef GEMM_VARIANT
#define GEMM_VARIANT(name, prec, tol, desc) \
    extern void gemm_##name##_config(int, int, int, char *, unsigned long) __attribute__((weak));
#include "kernels/variants.def"
#undef GEMM_VARIANT

const struct gemm_variant gemm_variants[] = {
#define GEMM_VARIANT(name, prec, tol, desc) {#name, prec, tol, desc, gemm_##name##_launch, NULL, gemm_##name##_config},
#include "kernels/variants.def"
#undef GEMM_VARIANT
};

const struct gemm_variant *registry_variant(int i)
{
    static struct gemm_variant from_plugins[PLUGIN_MAX];
    if (i >= 0 && i < gemm_variant_count)
        return &gemm_variants[i];
    const struct plugin_variant *p = plugin_get(i - gemm_variant_count);
    if (!p)
        return NULL;
    /* a plugin is held to the tolerance of its precision, as the built-ins are */
    from_plugins[i - gemm_variant_count] = (struct gemm_variant){p->name, p->precision, 4.0, p->desc, NULL, p->launch, NULL};
    return &from_plugins[i - gemm_variant_count];
}

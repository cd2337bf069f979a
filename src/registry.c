/* The variant table with its launchers: only the GPU build links this. Lookups by name
 * (registry_find, registry_parse_list) live in src/variant_names.c, which host tests
 * link without any CUDA library. */
#include "src/registry.h"

const struct gemm_variant gemm_variants[] = {
#define GEMM_VARIANT(name, prec, tol, desc) {#name, prec, tol, desc, gemm_##name##_launch},
#include "kernels/variants.def"
#undef GEMM_VARIANT
};

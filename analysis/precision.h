/* Arithmetic precision of a GEMM variant. Host-only so analysis/ and tests can use it
 * without CUDA; src/registry.h includes it for the variant table. */
#ifndef GEMMPROF_ANALYSIS_PRECISION_H
#define GEMMPROF_ANALYSIS_PRECISION_H

enum gp_precision {
    GP_FP32,   /* FP32 multiply and accumulate */
    GP_TF32,   /* inputs rounded to TF32 (10-bit mantissa), FP32 accumulate */
};

static inline const char *gp_precision_name(enum gp_precision p)
{
    return p == GP_TF32 ? "tf32" : "fp32";
}

#endif

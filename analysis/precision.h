/* Arithmetic precision of a GEMM variant. Host-only so analysis/ and tests can use it
 * without CUDA; src/registry.h includes it for the variant table. Every place that reads a
 * precision from outside (results.csv, a plugin) goes through gp_precision_parse, so a new
 * precision is one enum value and one name here. */
#ifndef GEMMPROF_ANALYSIS_PRECISION_H
#define GEMMPROF_ANALYSIS_PRECISION_H

#include <string.h>

enum gp_precision {
    GP_FP32,   /* FP32 multiply and accumulate */
    GP_TF32,   /* inputs rounded to TF32 (10-bit mantissa), FP32 accumulate */
    GP_BF16,   /* inputs rounded to BF16 (7-bit mantissa) and stored in 2 bytes, FP32 accumulate */
    GP_FP16,   /* inputs rounded to FP16 (10-bit mantissa, 5-bit exponent), 2 bytes, FP32 accumulate */
    GP_PRECISION_COUNT
};

static inline const char *gp_precision_name(enum gp_precision p)
{
    switch (p) {
    case GP_TF32: return "tf32";
    case GP_BF16: return "bf16";
    case GP_FP16: return "fp16";
    default: return "fp32";
    }
}

/* The precision called `name` ("fp32", "tf32", "bf16", "fp16"), or -1 for any other. */
static inline int gp_precision_parse(const char *name)
{
    for (int p = 0; name && p < GP_PRECISION_COUNT; p++)
        if (strcmp(name, gp_precision_name((enum gp_precision)p)) == 0)
            return p;
    return -1;
}

/* 1 when the multiplies run on the tensor cores whatever the kernel: the precision exists
 * only there (3xTF32 is FP32 by accuracy and says so by its counters, not its precision). */
static inline int gp_precision_is_tensor(enum gp_precision p)
{
    return p == GP_TF32 || p == GP_BF16 || p == GP_FP16;
}

/* Bytes per element of A and B as the kernel reads them: the 16-bit precisions get their
 * inputs as 16-bit copies (made outside the timed region), the others read FP32. C is FP32
 * for all. */
static inline int gp_precision_input_bytes(enum gp_precision p)
{
    return p == GP_BF16 || p == GP_FP16 ? 2 : 4;
}

#endif

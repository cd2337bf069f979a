/* Verification against a double-precision CPU reference. Host-only (OpenMP where
 * available), so the tolerances and the reference are tested without a GPU. */
#ifndef GEMMPROF_ANALYSIS_VERIFY_H
#define GEMMPROF_ANALYSIS_VERIFY_H

#include "analysis/precision.h"

/* Above this many multiply-adds (m*n*k) the full CPU reference costs too long and the
 * harness checks sampled elements instead (plus a whole-matrix comparison with cuBLAS). */
#define VERIFY_FULL_MAX_FMAS (1L << 31)
#define VERIFY_SAMPLES 4096

/* Relative Frobenius-error bound for a product over k terms, against the reference of
 * precision p (verify_reference on the inputs as p's variants get them):
 *   factor * u_in + 4 * u32 * sqrt(k)
 * u_in is the unit roundoff the reference leaves in the inputs: 2^-24 for FP32, 2^-11
 * for TF32 (the kernel rounds inside; the reference is of the FP32 inputs), and 2^-24 for
 * BF16 and FP16, whose reference is of the rounded inputs themselves (verify_round16), so
 * that only the FP32 accumulation is left: a product of two BF16 (8-bit significands) or
 * FP16 (11-bit) values is exact in FP32, and k of them summed in FP32 err like sqrt(k)
 * u32 for random-sign data. Input rounding gives an error independent of k. */
double verify_tolerance(enum gp_precision p, double factor, long k);
/* The same bound against the product of the FP32 inputs before any rounding (the cuBLAS
 * SGEMM second opinion of sampled shapes): factor * u + 4 * u32 * sqrt(k) with u the
 * precision's own unit roundoff, 2^-8 for BF16, 2^-11 for FP16 and TF32, 2^-24 for FP32.
 * The same as verify_tolerance for FP32 and TF32. */
double verify_tolerance_fp32_inputs(enum gp_precision p, double factor, long k);

/* x[0..count) rounded to nearest (ties to even) in p = GP_BF16 or GP_FP16, as
 * __float2bfloat16_rn / __float2half_rn round: the 16-bit patterns into bits (may be NULL)
 * and their values back as floats into rounded (may be NULL; may be x). FP16 overflows to
 * +-Inf past 65504 and keeps subnormals; NaN stays NaN. Other precisions: a copy. */
void verify_round16(enum gp_precision p, const float *x, long count, unsigned short *bits, float *rounded);

/* ref[i] = sum_k A[row,k] * B[k,col] in double for each element index idx[i] = row*n+col;
 * idx == NULL means every element (ref has m*n entries). Row-major inputs. */
void verify_reference(const float *a, const float *b, long m, long n, long k, const long *idx,
                      long nidx, double *ref);

/* splitmix64's output function: a well-mixed 64-bit hash of x. Counter-based random
 * numbers (input fills, sample indices) come from hashing seed + i, reproducibly and in
 * any order. */
unsigned long long gp_splitmix64(unsigned long long x);

/* nidx element indices spread over C, corners and edges first, then pseudo-random
 * ones from `seed`. */
void verify_sample_indices(long m, long n, long nidx, unsigned long long seed, long *idx);

struct verify_stats {
    double rel_err;      /* ||c - ref||_F / ||ref||_F over the checked elements */
    double max_abs_err;
    long n_checked;
    long n_nonfinite;    /* NaN or Inf in c: never passes (poisoned = unwritten) */
};

/* Compares c (m x n, row-major) with ref at the given indices (NULL: all). */
void verify_compare(const float *c, long n_total, const double *ref, const long *idx, long nidx,
                    struct verify_stats *st);

/* Relative Frobenius difference between two float matrices of `count` elements
 * (a candidate against cuBLAS); NaN/Inf anywhere gives +inf. */
double verify_rel_diff(const float *c, const float *ref, long count);

/* Every element finite? Returns how many are not. */
long verify_count_nonfinite(const float *c, long count);

#endif

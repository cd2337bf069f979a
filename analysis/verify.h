/* Verification against a double-precision CPU reference. Host-only (OpenMP where
 * available), so the tolerances and the reference are tested without a GPU. */
#ifndef GEMMPROF_ANALYSIS_VERIFY_H
#define GEMMPROF_ANALYSIS_VERIFY_H

#include "analysis/precision.h"

/* Above this many multiply-adds (m*n*k) the full CPU reference costs too long and the
 * harness checks sampled elements instead (plus a whole-matrix comparison with cuBLAS). */
#define VERIFY_FULL_MAX_FMAS (1L << 31)
#define VERIFY_SAMPLES 4096

/* Relative Frobenius-error bound for a product over k terms:
 *   factor * u_in + 4 * u32 * sqrt(k)
 * u_in is the unit roundoff of the inputs as the multiplier sees them (2^-24 for FP32,
 * 2^-11 for TF32): input rounding gives an error independent of k, accumulation in
 * FP32 one that grows like sqrt(k) for random-sign data. */
double verify_tolerance(enum gp_precision p, double factor, long k);

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

/* The setup of one shape (src/shape.c): inputs, device buffers and the reference that
 * every variant at the shape is verified against. */
#ifndef GEMMPROF_SRC_SHAPE_H
#define GEMMPROF_SRC_SHAPE_H

#include <stddef.h>

struct run;

/* The inputs and reference of one shape, shared by every variant. */
struct shape_data {
    long m, n, k;
    float *h_a, *h_b, *h_c, *h_cublas;   /* h_cublas: whole-matrix comparison, sampled mode */
    float *d_a, *d_b, *d_c;
    void *d_pad;                         /* GEMMPROF_TEST_PAD_MB's allocation, or NULL */
    double *ref;                         /* m*n (full) or nsamples entries */
    long *idx;                           /* NULL in full mode */
    long nidx;
    char label[64];                      /* "2048x2048x2048" */
    /* The 16-bit precisions a selected variant runs ([0] BF16, [1] FP16; NULL where none):
     * A and B rounded to nearest even and uploaded as 16-bit patterns (named to the context,
     * kernels/gemm.h gemm_context_set_input16), and the reference of those rounded inputs
     * at the same elements as `ref`. */
    void *d_a16[2], *d_b16[2];
    double *ref16[2];
    struct gemm_context *ctx;            /* where the 16-bit inputs are named; forgotten on free */
};

/* The reference precision p's variants are verified against: `ref` for FP32 and TF32 (the
 * FP32 inputs), ref16 for BF16 and FP16 (their rounded inputs); NULL when the shape was set
 * up without it. */
const double *shape_reference(const struct shape_data *s, int precision);

/* Inputs, device buffers and the reference of shape `shape_index`; 0, or -1 with the
 * reason. shape_free releases them. */
int shape_prepare(struct run *r, struct shape_data *s, int shape_index, char *err, size_t errlen);
void shape_free(struct shape_data *s);
/* Before any GPU work: every shape's host and device memory against what the machine
 * has. 0, or -1 with "size MxNxK needs X GiB of host memory, Y available". */
int shapes_check_memory(const struct run *r, char *err, size_t errlen);

#endif

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
};

/* Inputs, device buffers and the reference of shape `shape_index`; 0, or -1 with the
 * reason. shape_free releases them. */
int shape_prepare(struct run *r, struct shape_data *s, int shape_index, char *err, size_t errlen);
void shape_free(struct shape_data *s);
/* Before any GPU work: every shape's host and device memory against what the machine
 * has. 0, or -1 with "size MxNxK needs X GiB of host memory, Y available". */
int shapes_check_memory(const struct run *r, char *err, size_t errlen);

#endif

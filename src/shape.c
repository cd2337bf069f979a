/* The setup of one shape: fresh random inputs, device buffers, the double-precision CPU
 * reference (whole, or sampled beyond VERIFY_FULL_MAX_FMAS), the 16-bit copies of the
 * inputs and their own references where a BF16 or FP16 variant runs and, where the CPU
 * only samples, cuBLAS's whole output as a second opinion. Also the up-front check that every
 * shape fits the host's and the device's memory. */
#include "src/shape.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "analysis/message.h"
#include "analysis/verify.h"
#include "src/cuda_try.h"
#include "src/npy.h"
#include "src/nvtx.h"
#include "src/registry.h"
#include "src/run.h"

/* Uniform in [-0.5, 0.5), counter-based so the fill is parallel and reproducible. */
static void fill_random(float *x, long count, uint64_t seed)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; i++)
        x[i] = (float)((double)(gp_splitmix64(seed + (uint64_t)i) >> 40) * 0x1p-24 - 0.5);
}

/* 1 when a selected variant runs 16-bit precision GP_BF16 + i; used[i] for i = 0, 1. */
static void shape_precisions16(const struct run *r, int used[2])
{
    used[0] = used[1] = 0;
    for (int i = 0; i < r->o->nvariants; i++) {
        const struct gemm_variant *v = registry_variant(r->o->variants[i]);
        if (v && (v->precision == GP_BF16 || v->precision == GP_FP16))
            used[v->precision - GP_BF16] = 1;
    }
}

const double *shape_reference(const struct shape_data *s, int precision)
{
    if (precision == GP_BF16 || precision == GP_FP16)
        return s->ref16[precision - GP_BF16];
    return s->ref;
}

/* Rounds A and B to 16-bit precision GP_BF16 + i, uploads the patterns and computes the
 * reference of the rounded inputs: setup, so outside every timed region. 0, or -1 with
 * the reason in why. */
static int prepare_input16(struct run *r, struct shape_data *s, int i, char *why, size_t whylen)
{
    const enum gp_precision p = (enum gp_precision)(GP_BF16 + i);
    const size_t na = (size_t)(s->m * s->k), nb = (size_t)(s->k * s->n);
    float *ra = malloc(na * sizeof(float)), *rb = malloc(nb * sizeof(float));
    unsigned short *ha = malloc(na * sizeof(unsigned short)), *hb = malloc(nb * sizeof(unsigned short));
    int rc = -1;
    s->ref16[i] = malloc((size_t)s->nidx * sizeof(double));
    if (!ra || !rb || !ha || !hb || !s->ref16[i]) {
        snprintf(why, whylen, "out of host memory for the %s inputs", gp_precision_name(p));
        goto out;
    }
    verify_round16(p, s->h_a, (long)na, ha, ra);
    verify_round16(p, s->h_b, (long)nb, hb, rb);
    CUDA_TRY(cudaMalloc(&s->d_a16[i], na * sizeof *ha), "device buffer A (16-bit)", why, whylen, out);
    CUDA_TRY(cudaMalloc(&s->d_b16[i], nb * sizeof *hb), "device buffer B (16-bit)", why, whylen, out);
    CUDA_TRY(cudaMemcpy(s->d_a16[i], ha, na * sizeof *ha, cudaMemcpyHostToDevice), "copying A (16-bit)", why, whylen, out);
    CUDA_TRY(cudaMemcpy(s->d_b16[i], hb, nb * sizeof *hb, cudaMemcpyHostToDevice), "copying B (16-bit)", why, whylen, out);
    verify_reference(ra, rb, s->m, s->n, s->k, s->idx, s->nidx, s->ref16[i]);
    gemm_context_set_input16(r->gpu.ctx, i == 0 ? GEMM_INPUT_BF16 : GEMM_INPUT_FP16, s->d_a, s->d_b, (int)s->m,
                             (int)s->n, (int)s->k, s->d_a16[i], s->d_b16[i]);
    s->ctx = r->gpu.ctx;
    rc = 0;
out:
    free(ra);
    free(rb);
    free(ha);
    free(hb);
    return rc;
}

void shape_free(struct shape_data *s)
{
    for (int i = 0; i < 2; i++) {
        if (s->ctx)   /* the context must not keep pointers to freed copies */
            gemm_context_set_input16(s->ctx, i == 0 ? GEMM_INPUT_BF16 : GEMM_INPUT_FP16, NULL, NULL, 0, 0, 0,
                                     NULL, NULL);
        free(s->ref16[i]);
        cudaFree(s->d_a16[i]);
        cudaFree(s->d_b16[i]);
    }
    free(s->h_a);
    free(s->h_b);
    free(s->h_c);
    free(s->h_cublas);
    free(s->ref);
    free(s->idx);
    cudaFree(s->d_a);
    cudaFree(s->d_b);
    cudaFree(s->d_c);
    cudaFree(s->d_pad);
}

/* Inputs, device buffers and the reference of one shape. 0, or -1 with the reason. */
int shape_prepare(struct run *r, struct shape_data *s, int shape_index, char *err, size_t errlen)
{
    const struct shape *sh = &r->o->shapes[shape_index];
    memset(s, 0, sizeof *s);
    s->m = sh->m;
    s->n = sh->n;
    s->k = sh->k;
    snprintf(s->label, sizeof s->label, "%ldx%ldx%ld", s->m, s->n, s->k);
    const size_t na = (size_t)(s->m * s->k), nb = (size_t)(s->k * s->n), nc = (size_t)(s->m * s->n);
    const int full = (double)s->m * s->n * s->k <= (double)VERIFY_FULL_MAX_FMAS && nc <= (1u << 26);

    /* progress: at large sizes the host side alone takes seconds */
    int used16[2];
    shape_precisions16(r, used16);
    gp_message("[%d/%d] %s: inputs and the fp64 reference%s (%s)", shape_index + 1, r->o->nshapes, s->label,
               used16[0] && used16[1] ? "s of FP32, BF16- and FP16-rounded inputs"
               : used16[0]            ? "s of FP32 and BF16-rounded inputs"
               : used16[1]            ? "s of FP32 and FP16-rounded inputs"
                                      : "",
               full ? "every element" : "sampled elements, cuBLAS for the rest");
    gp_nvtx_push("setup", -1);
    s->h_a = malloc(na * sizeof(float));
    s->h_b = malloc(nb * sizeof(float));
    s->h_c = malloc(nc * sizeof(float));
    s->nidx = full ? (long)nc : (nc < VERIFY_SAMPLES ? (long)nc : VERIFY_SAMPLES);
    s->ref = malloc((size_t)s->nidx * sizeof(double));
    if (!full)
        s->idx = malloc((size_t)s->nidx * sizeof(long));
    if (!s->h_a || !s->h_b || !s->h_c || !s->ref || (!full && !s->idx)) {
        snprintf(err, errlen, "%s: out of host memory", s->label);
        goto fail;
    }
    /* fresh inputs per shape: the seed mixes in the shape, so no two shapes share data */
    const uint64_t seed = gp_splitmix64(r->o->seed ^ gp_splitmix64((uint64_t)shape_index * 0x1000193ULL +
                                                         (uint64_t)s->m * 31 + (uint64_t)s->n * 17 +
                                                         (uint64_t)s->k));
    fill_random(s->h_a, (long)na, seed);
    fill_random(s->h_b, (long)nb, gp_splitmix64(seed + 1));

    char why[256];
    if (r->hooks.pad_bytes)
        CUDA_TRY(cudaMalloc(&s->d_pad, r->hooks.pad_bytes), "GEMMPROF_TEST_PAD_MB's buffer", why, sizeof why, device_fail);
    CUDA_TRY(cudaMalloc((void **)&s->d_a, na * sizeof(float)), "device buffer A", why, sizeof why, device_fail);
    CUDA_TRY(cudaMalloc((void **)&s->d_b, nb * sizeof(float)), "device buffer B", why, sizeof why, device_fail);
    CUDA_TRY(cudaMalloc((void **)&s->d_c, nc * sizeof(float)), "device buffer C", why, sizeof why, device_fail);
    CUDA_TRY(cudaMemcpy(s->d_a, s->h_a, na * sizeof(float), cudaMemcpyHostToDevice), "copying A", why, sizeof why, device_fail);
    CUDA_TRY(cudaMemcpy(s->d_b, s->h_b, nb * sizeof(float), cudaMemcpyHostToDevice), "copying B", why, sizeof why, device_fail);
    if (!full)
        verify_sample_indices(s->m, s->n, s->nidx, seed, s->idx);
    verify_reference(s->h_a, s->h_b, s->m, s->n, s->k, s->idx, s->nidx, s->ref);
    for (int i = 0; i < 2; i++)
        if (used16[i] && prepare_input16(r, s, i, why, sizeof why))
            goto device_fail;

    if (!full) {
        /* cuBLAS's output as a whole-matrix second opinion where the CPU only samples */
        int ci = registry_find("cublas");
        s->h_cublas = malloc(nc * sizeof(float));
        if (ci >= 0 && s->h_cublas &&
            gemm_variant_launch(&gemm_variants[ci], r->gpu.ctx, (int)s->m, (int)s->n, (int)s->k, s->d_a, s->d_b,
                                     s->d_c, r->gpu.stream) == cudaSuccess &&
            cudaStreamSynchronize(r->gpu.stream) == cudaSuccess &&
            cudaMemcpy(s->h_cublas, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess) {
            struct verify_stats st;
            verify_compare(s->h_cublas, (long)nc, s->ref, s->idx, s->nidx, &st);
            if (!(st.rel_err <= verify_tolerance(GP_FP32, 4.0, s->k))) {
                /* a wrong second opinion would fail every variant: drop it instead */
                gp_message("%s: cuBLAS disagrees with the CPU sample (%.3g); "
                           "checking against the sample only", s->label, st.rel_err);
                free(s->h_cublas);
                s->h_cublas = NULL;
            }
        } else {
            cudaGetLastError();
            free(s->h_cublas);
            s->h_cublas = NULL;
        }
    }
    if (r->o->dump_npy) {
        char path[1100];
        snprintf(path, sizeof path, "%s/npy/A_%s.npy", r->o->out_dir, s->label);
        if (npy_write_f32(path, s->h_a, s->m, s->k, err, errlen))
            goto fail;
        snprintf(path, sizeof path, "%s/npy/B_%s.npy", r->o->out_dir, s->label);
        if (npy_write_f32(path, s->h_b, s->k, s->n, err, errlen))
            goto fail;
    }
    gp_nvtx_pop();
    return 0;
device_fail:
    snprintf(err, errlen, "%s: %s", s->label, why);
fail:
    gp_nvtx_pop();
    shape_free(s);
    return -1;
}

/* Host bytes shape_prepare allocates for `s`: A, B, C, the reference, and in sampled
 * mode the sample indices and cuBLAS's whole output. */
static double host_bytes(const struct shape *s, int n16)
{
    const double nc = (double)s->m * s->n, nab = (double)s->m * s->k + (double)s->k * s->n;
    const int full = (double)s->m * s->n * s->k <= (double)VERIFY_FULL_MAX_FMAS && nc <= (double)(1u << 26);
    const double nidx = full ? nc : (nc < VERIFY_SAMPLES ? nc : VERIFY_SAMPLES);
    /* each 16-bit precision: its reference, and while it is made the rounded A and B
     * as floats and as 16-bit patterns */
    return (double)shape_bytes(s) + nidx * (sizeof(double) + (full ? 0 : sizeof(long))) +
           (full ? 0 : nc * sizeof(float)) + n16 * nidx * sizeof(double) + (n16 ? 6.0 * nab : 0.0);
}

/* A field of /proc/meminfo ("MemTotal") in bytes, or -1 where there is none. */
static double meminfo_bytes(const char *field)
{
    char line[256];
    double kib = -1;
    size_t flen = strlen(field);
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, flen) == 0 && line[flen] == ':' && sscanf(line + flen + 1, "%lf", &kib) == 1)
            break;
    fclose(f);
    return kib < 0 ? -1 : kib * 1024.0;
}

int shapes_check_memory(const struct run *r, char *err, size_t errlen)
{
    size_t free_b = 0, total_b = 0;
    /* More than the machine has in all can never work: refused. More than is available
     * now may (page cache gives way; VMs grow their memory as it is used): a warning. */
    const double host_total = meminfo_bytes("MemTotal"), host_avail = meminfo_bytes("MemAvailable");
    const int device_known = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess;
    if (!device_known)
        cudaGetLastError();   /* cannot tell; allocation errors will say it later */
    int used16[2];
    shape_precisions16(r, used16);
    const int n16 = used16[0] + used16[1];
    for (int i = 0; i < r->o->nshapes; i++) {
        const struct shape *s = &r->o->shapes[i];
        const double host = host_bytes(s, n16);
        if (host_total > 0 && host > 0.9 * host_total) {
            snprintf(err, errlen, "size %ldx%ldx%ld needs %.2f GiB of host memory (inputs, output and "
                                  "reference), the machine has %.2f GiB in all",
                     s->m, s->n, s->k, host / 1073741824.0, host_total / 1073741824.0);
            return -1;
        }
        if (host_avail > 0 && host > host_avail)
            gp_message("warning: size %ldx%ldx%ld needs %.2f GiB of host memory, %.2f GiB are available now",
                       s->m, s->n, s->k, host / 1073741824.0, host_avail / 1073741824.0);
        const double device = (double)shape_bytes(s) + n16 * 2.0 * ((double)s->m * s->k + (double)s->k * s->n) +
                              (r->o->l2_flush ? 2.0 * r->meta.l2_bytes : 0) + (double)r->hooks.pad_bytes;
        if (device_known && device > (double)free_b * 0.95) {
            snprintf(err, errlen, "size %ldx%ldx%ld needs %.2f GiB of device memory, the device has %.2f GiB free (%.2f GiB total)",
                     s->m, s->n, s->k, device / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0);
            return -1;
        }
    }
    return 0;
}

/* Where a counter range's memory-barrier sectors come from (lab, not built by make):
 * gemmprof's own profiler (cupti/prof.h, user ranges, user replay) over workloads that
 * differ in one thing each, printing lts__t_sectors_op_membar.sum per range and in units of
 * UNIT sectors (ncu's count for one kernel on the H100 SXM: 42,720). Built and run by
 * tools/lab/range_membar.sh. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/metrics.h"
#include "cupti/prof.h"

#define UNIT 42720.0

static __global__ void touch_kernel(int *p)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *p += 1;
}

static int *d_word;

static int one_kernel(void) { touch_kernel<<<1, 32>>>(d_word); return cudaGetLastError() != cudaSuccess; }

static int w_empty(void *a) { (void)a; return 0; }
static int w_kernel(void *a) { (void)a; return one_kernel(); }
static int w_two(void *a) { (void)a; return one_kernel() | one_kernel(); }
static int w_memset(void *a) { (void)a; return cudaMemsetAsync(d_word, 0, 4) != cudaSuccess; }
static int w_memset_kernel(void *a) { (void)a; return (cudaMemsetAsync(d_word, 0, 4) != cudaSuccess) | one_kernel(); }
static int w_kernel_sync(void *a)
{
    (void)a;
    return one_kernel() | (cudaStreamSynchronize(0) != cudaSuccess);
}

static void quiet(void *a) { (void)a; cudaDeviceSynchronize(); }

struct probe {
    const char *what;
    prof_workload_fn fn;
    prof_prepare_fn prepare;
};

int main(void)
{
    static const char *const names[] = {"lts__t_sectors_op_membar.sum", "lts__t_bytes.sum",
                                        "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum",
                                        "gpu__time_duration.sum"};
    enum { NM = sizeof names / sizeof names[0] };
    int ids[NM];
    for (int i = 0; i < NM; i++)
        ids[i] = gp_extra_add(names[i]);
    if (cudaMalloc((void **)&d_word, 4) != cudaSuccess) {
        fprintf(stderr, "range_membar: cudaMalloc failed\n");
        return 1;
    }
    char why[512] = "";
    struct prof_session *s = prof_open(0, ids, NM, why, sizeof why);
    if (!s) {
        fprintf(stderr, "range_membar: %s\n", why);
        return 1;
    }
    printf("%d passes; one unit = %.0f membar sectors (ncu, one kernel, H100 SXM)\n", prof_num_passes(s), UNIT);
    const struct probe probes[] = {
        {"empty range", w_empty, NULL},
        {"one 1-block kernel", w_kernel, NULL},
        {"one kernel, GPU idle before the push", w_kernel, quiet},
        {"two kernels", w_two, NULL},
        {"4-byte memset", w_memset, NULL},
        {"memset + kernel", w_memset_kernel, NULL},
        {"kernel, stream synchronized before the pop", w_kernel_sync, NULL},
    };
    const int np = (int)(sizeof probes / sizeof probes[0]);
    printf("%-44s %5s %10s %6s %10s %10s %10s %10s\n", "workload (5 measures each)", "#", "membar", "units",
           "L2 bytes", "read sect", "write sect", "ns");
    for (int p = 0; p < np; p++)
        for (int rep = 0; rep < 5; rep++) {
            double v[GP_METRIC_COUNT + NM] = {0};   /* indexed by metric id */
            char kernels[512] = "";
            if (prof_measure(s, probes[p].prepare, probes[p].fn, NULL, v, kernels, sizeof kernels, why,
                             sizeof why) != 0) {
                printf("%-44s %5d failed: %s\n", probes[p].what, rep, why);
                continue;
            }
            printf("%-44s %5d %10.0f %6.2f %10.0f %10.0f %10.0f %10.0f  %s\n", probes[p].what, rep, v[ids[0]],
                   v[ids[0]] / UNIT, v[ids[1]], v[ids[2]], v[ids[3]], v[ids[4]], kernels);
        }
    /* the same ranges back to back in one batch, as the counter phase measures a shape */
    void *args[4] = {NULL, NULL, NULL, NULL};
    double vals[4][GP_METRIC_COUNT + NM];
    double *vp[4] = {vals[0], vals[1], vals[2], vals[3]};
    if (prof_measure_batch(s, 4, NULL, w_kernel, args, vp, NULL, 0, why, sizeof why) == 0)
        for (int i = 0; i < 4; i++)
            printf("%-44s %5d %10.0f %6.2f\n", "batch of 4 one-kernel ranges", i, vals[i][ids[0]],
                   vals[i][ids[0]] / UNIT);
    else
        printf("batch of 4 one-kernel ranges failed: %s\n", why);
    prof_close(s);
    return 0;
}

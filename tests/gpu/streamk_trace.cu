/* Where stream-K's time goes (issue 12 diagnostic, not a test): runs the streamk kernel
 * at M x N x K with every item's segment ends timed by %globaltimer, and prints per phase
 * the items' start spread, time per k-slice of each segment kind, and flag waits.
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I. tests/gpu/streamk_trace.cu -o build/streamk_trace
 *   build/streamk_trace [M N K]   (default 4096 4096 4096) */
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define SIMT_STREAMK_TRACE 1
__device__ unsigned long long simt_sk_trace[16 * 8192];
#include "kernels/simt_gemm.cuh"

using cfg = simt_cfg_t128x256k32s4;

#define CK(...)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (__VA_ARGS__);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #__VA_ARGS__, cudaGetErrorString(e_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    const int m = argc > 3 ? atoi(argv[1]) : 4096, n = argc > 3 ? atoi(argv[2]) : 4096,
              k = argc > 3 ? atoi(argv[3]) : 4096;
    float *a, *b, *c;
    CK(cudaMalloc(&a, (size_t)m * k * 4));
    CK(cudaMalloc(&b, (size_t)k * n * 4));
    CK(cudaMalloc(&c, (size_t)m * n * 4));
    CK(cudaMemset(a, 0, (size_t)m * k * 4));
    CK(cudaMemset(b, 0, (size_t)k * n * 4));
    int dp, sk;
    CK(simt_streamk_plan<cfg, true>(m, n, &dp, &sk));
    const int items = dp + sk;
    if (items > 8192)
        return fprintf(stderr, "too many items\n"), 1;
    printf("%dx%dx%d: %d whole + %d stream-K items\n", m, n, k, dp, sk);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<unsigned long long> tr(16 * (size_t)items);
    for (int rep = 0; rep < 4; ++rep) {
        CK(cudaEventRecord(e0));
        CK(simt_streamk_launch<cfg>(m, n, k, a, b, c, 0));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaMemcpyFromSymbol(tr.data(), simt_sk_trace, tr.size() * 8));
        unsigned long long t0 = ~0ull, tend = 0;
        for (int i = 0; i < items; ++i) {
            t0 = tr[16 * i] < t0 ? tr[16 * i] : t0;
            tend = tr[16 * i + 10] > tend ? tr[16 * i + 10] : tend;
        }
        printf("rep %d: %.4f ms by events, %.4f ms first start to last end\n", rep, ms, (tend - t0) * 1e-6);
        if (rep < 3)
            continue;
        /* whole items: start and duration spread per wave of `sk` */
        double dp_ns = 0;
        unsigned long long dp_last_end = 0;
        for (int i = 0; i < dp; ++i) {
            dp_ns += tr[16 * i + 10] - tr[16 * i];
            if (tr[16 * i + 10] > dp_last_end) dp_last_end = tr[16 * i + 10];
        }
        if (dp)
            printf("  whole items: mean %.1f us per tile (%.2f ns per k-slice), last ends at %.1f us\n",
                   dp_ns / dp * 1e-3, dp_ns / dp / ((k + 31) / 32), (dp_last_end - t0) * 1e-3);
        unsigned long long s_min = ~0ull, s_max = 0, e_min = ~0ull, e_max = 0;
        double wait_ns = 0, seg_ns[6] = {0}, seg_sl[6] = {0};
        int waits = 0;
        for (int i = dp; i < items; ++i) {
            const unsigned long long *r = &tr[16 * i];
            s_min = r[0] < s_min ? r[0] : s_min; s_max = r[0] > s_max ? r[0] : s_max;
            e_min = r[10] < e_min ? r[10] : e_min; e_max = r[10] > e_max ? r[10] : e_max;
            if (r[8]) { wait_ns += r[9] - r[8]; ++waits; }
            unsigned long long prev = r[0];
            for (int s = 0; s < 4 && r[2 + s]; ++s) {
                seg_ns[s] += r[2 + s] - prev; seg_sl[s] += r[11 + s]; prev = r[2 + s];
            }
            if (i < dp + 6 || i >= items - 3)
                printf("  item %d sm %llu: start %.1f us, segs", i, r[1], (r[0] - t0) * 1e-3),
                    [&] { unsigned long long p = r[0];
                          for (int s = 0; s < 4 && r[2 + s]; ++s) { printf(" %llu sl/%.1f us", r[11 + s], (r[2 + s] - p) * 1e-3); p = r[2 + s]; }
                          printf(", wait %.1f us, end %.1f us\n", r[8] ? (r[9] - r[8]) * 1e-3 : 0.0, (r[10] - t0) * 1e-3); }();
        }
        if (sk) {
            printf("  stream-K items: start %.1f..%.1f us, end %.1f..%.1f us; %d waits, mean %.2f us\n",
                   (s_min - t0) * 1e-3, (s_max - t0) * 1e-3, (e_min - t0) * 1e-3, (e_max - t0) * 1e-3, waits,
                   waits ? wait_ns / waits * 1e-3 : 0.0);
            for (int s = 0; s < 4; ++s)
                if (seg_sl[s] > 0)
                    printf("  segment %d (walking back): %.2f ns per k-slice over %.0f slices\n", s, seg_ns[s] / seg_sl[s],
                           seg_sl[s]);
        }
    }
    return 0;
}

/* What a GEMM with few columns (n <= 32) can reach when A is streamed once: each warp reads
 * rows of A with 16-byte loads straight into registers (an element of A feeds only n FMAs, so
 * staging it through shared memory buys nothing), the block's k-chunk of B sits transposed in
 * shared memory, split-K over blocks fills the SMs (atomicAdd into C, zeroed first: a probe,
 * not deterministic). Timed beside cuBLAS SGEMM at each shape, C checked against cuBLAS's and
 * against an FP64 dot product at sampled entries. Two forms: B's k-chunk reloaded between
 * barriers (skinny), or the block's whole k-slice of B loaded once with A's next step
 * prefetched into registers (skinny_slice); each at 2, 4 and 8 blocks an SM over the grid.
 * A lab probe for issue 28, not a variant.
 *   nvcc -O3 -arch=sm_90 tools/lab/skinny_probe.cu -lcublas -o /tmp/skinny_probe
 *   /tmp/skinny_probe 3315x15x11204 4772x12x3500 ...   (m x n x k, row-major, n <= 32) */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_CUDA(x)                                                                   \
    do {                                                                                \
        cudaError_t e_ = (x);                                                           \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

enum { WARPS = 8, KC = 128 };   /* 8 warps a block; a chunk of 128 k: 4 per lane */

/* NMAX columns at most, R rows of A per warp: R * NMAX accumulators a lane */
template <int NMAX, int R>
__global__ void __launch_bounds__(WARPS * 32) skinny(const float *__restrict__ A, const float *__restrict__ B,
                                                    float *__restrict__ C, int m, int n, int k, int k_per_block)
{
    __shared__ __align__(16) float bt[NMAX][KC];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int row0 = (blockIdx.x * WARPS + warp) * R;
    const int kbeg = blockIdx.y * k_per_block, kend = min(k, kbeg + k_per_block);
    const bool vec = (k & 3) == 0;
    float acc[R][NMAX];
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int j = 0; j < NMAX; j++)
            acc[r][j] = 0;
    for (int kc = kbeg; kc < kend; kc += KC) {
        __syncthreads();
        for (int i = threadIdx.x; i < NMAX * KC; i += WARPS * 32) {
            /* consecutive threads: consecutive k of one column, so the shared stores are
             * conflict-free; the chunk of B (KC rows of n) is small enough for L1 */
            const int j = i / KC, kk = i % KC;
            bt[j][kk] = (j < n && kc + kk < kend) ? __ldg(&B[(long)(kc + kk) * n + j]) : 0.f;
        }
        __syncthreads();
        const int kl = kc + 4 * lane;
        float4 a[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const long row = row0 + r;
            const float *p = A + row * k + kl;
            if (row < m && vec && kl + 3 < kend)
                a[r] = __ldg(reinterpret_cast<const float4 *>(p));
            else {
                a[r].x = row < m && kl < kend ? p[0] : 0.f;
                a[r].y = row < m && kl + 1 < kend ? p[1] : 0.f;
                a[r].z = row < m && kl + 2 < kend ? p[2] : 0.f;
                a[r].w = row < m && kl + 3 < kend ? p[3] : 0.f;
            }
        }
#pragma unroll
        for (int j = 0; j < NMAX; j++) {
            const float4 b = *reinterpret_cast<const float4 *>(&bt[j][4 * lane]);   /* conflict-free */
#pragma unroll
            for (int r = 0; r < R; r++)
                acc[r][j] = fmaf(a[r].w, b.w, fmaf(a[r].z, b.z, fmaf(a[r].y, b.y, fmaf(a[r].x, b.x, acc[r][j]))));
        }
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        float mine = 0;
#pragma unroll
        for (int j = 0; j < NMAX; j++) {
            float v = acc[r][j];
#pragma unroll
            for (int o = 16; o > 0; o >>= 1)
                v += __shfl_xor_sync(0xffffffffu, v, o);
            if (lane == j)
                mine = v;
        }
        if (row0 + r < m && lane < n)
            atomicAdd(&C[(long)(row0 + r) * n + lane], mine);
    }
}

/* Second form: the block's whole k-slice of B transposed in shared memory once (one barrier),
 * then A streamed with no barrier at all, the next step's R x U float4 of A loaded into
 * registers before the current step's FMAs (two steps in flight per warp). KSTEP = 128 * U. */
template <int NMAX, int R, int U>
__global__ void __launch_bounds__(WARPS * 32) skinny_slice(const float *__restrict__ A, const float *__restrict__ B,
                                                          float *__restrict__ C, int m, int n, int k, int k_per_block)
{
    extern __shared__ __align__(16) float bs[];   /* [NMAX][ld], ld = k_per_block + 4 */
    const int KSTEP = 128 * U, ld = k_per_block + 4;   /* +4: the transposing stores spread over banks */
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int row0 = (blockIdx.x * WARPS + warp) * R;
    const int kbeg = blockIdx.y * k_per_block, kend = min(k, kbeg + k_per_block);
    /* B's rows kbeg..kend are one contiguous run of floats: read it coalesced, store transposed */
    const long run = (long)(kend - kbeg) * n;
    const float *bsrc = B + (long)kbeg * n;
    for (int base = threadIdx.x; base < run; base += WARPS * 32 * 8) {   /* 8 loads in flight a thread */
        float v[8];
#pragma unroll
        for (int q = 0; q < 8; q++)
            v[q] = base + q * WARPS * 32 < run ? __ldg(bsrc + base + q * WARPS * 32) : 0.f;
#pragma unroll
        for (int q = 0; q < 8; q++) {
            const int i = base + q * WARPS * 32;
            if (i < run)
                bs[(i % n) * ld + i / n] = v[q];
        }
    }
    for (int i = threadIdx.x; i < NMAX * k_per_block; i += WARPS * 32) {   /* zeros: the columns past n, the k past kend */
        const int j = i / k_per_block, kk = i % k_per_block;
        if (j >= n || kbeg + kk >= kend)
            bs[j * ld + kk] = 0.f;
    }
    __syncthreads();
    const bool vec = (k & 3) == 0;
    float acc[R][NMAX];
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int j = 0; j < NMAX; j++)
            acc[r][j] = 0;
    float4 a[R][U], nx[R][U];
    auto load = [&](float4 (&dst)[R][U], int kc) {
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int u = 0; u < U; u++) {
                const long row = row0 + r;
                const int kl = kc + 128 * u + 4 * lane;
                const float *p = A + row * k + kl;
                if (row < m && vec && kl + 3 < kend)
                    dst[r][u] = __ldg(reinterpret_cast<const float4 *>(p));
                else {
                    dst[r][u].x = row < m && kl < kend ? p[0] : 0.f;
                    dst[r][u].y = row < m && kl + 1 < kend ? p[1] : 0.f;
                    dst[r][u].z = row < m && kl + 2 < kend ? p[2] : 0.f;
                    dst[r][u].w = row < m && kl + 3 < kend ? p[3] : 0.f;
                }
            }
    };
    if (kbeg < kend)
        load(a, kbeg);
    for (int kc = kbeg; kc < kend; kc += KSTEP) {
        if (kc + KSTEP < kend)
            load(nx, kc + KSTEP);
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int j = 0; j < NMAX; j++) {
                const float4 b = *reinterpret_cast<const float4 *>(&bs[j * ld + (kc - kbeg) + 128 * u + 4 * lane]);
#pragma unroll
                for (int r = 0; r < R; r++)
                    acc[r][j] = fmaf(a[r][u].w, b.w, fmaf(a[r][u].z, b.z, fmaf(a[r][u].y, b.y, fmaf(a[r][u].x, b.x, acc[r][j]))));
            }
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int u = 0; u < U; u++)
                a[r][u] = nx[r][u];
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        float mine = 0;
#pragma unroll
        for (int j = 0; j < NMAX; j++) {
            float v = acc[r][j];
#pragma unroll
            for (int o = 16; o > 0; o >>= 1)
                v += __shfl_xor_sync(0xffffffffu, v, o);
            if (lane == j)
                mine = v;
        }
        if (row0 + r < m && lane < n)
            atomicAdd(&C[(long)(row0 + r) * n + lane], mine);
    }
}

/* Third form: a lane per row. Each lane takes RL rows of A (a warp 32 x RL rows), walks k
 * 8 at a time (two float4 of each row: a whole 32-byte sector), and reads B's row of NMAX
 * columns from shared memory as float4 that every lane of the warp reads alike (a
 * broadcast: one wavefront). No reduction across lanes: a lane owns its rows' outputs. */
template <int NMAX, int RL>
__global__ void __launch_bounds__(WARPS * 32) skinny_lane(const float *__restrict__ A, const float *__restrict__ B,
                                                         float *__restrict__ C, int m, int n, int k, int k_per_block)
{
    extern __shared__ __align__(16) float bl[];   /* [k_per_block][NMAX] */
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int kbeg = blockIdx.y * k_per_block, kend = min(k, kbeg + k_per_block), klen = kend - kbeg;
    for (int i = threadIdx.x; i < k_per_block * NMAX; i += WARPS * 32) {
        const int kk = i / NMAX, j = i % NMAX;
        bl[i] = (kk < klen && j < n) ? __ldg(&B[(long)(kbeg + kk) * n + j]) : 0.f;
    }
    __syncthreads();
    const bool vec = (k & 3) == 0;
    float acc[RL][NMAX];
#pragma unroll
    for (int r = 0; r < RL; r++)
#pragma unroll
        for (int j = 0; j < NMAX; j++)
            acc[r][j] = 0;
    const long rbase = ((long)blockIdx.x * WARPS + warp) * 32 * RL + lane;
    for (int kc = kbeg; kc < kend; kc += 8) {
        float a[RL][8];
#pragma unroll
        for (int r = 0; r < RL; r++) {
            const long row = rbase + 32 * r;
            const float *p = A + row * k + kc;
            if (row < m && vec && kc + 7 < kend) {
                const float4 x = __ldg(reinterpret_cast<const float4 *>(p)), y = __ldg(reinterpret_cast<const float4 *>(p + 4));
                a[r][0] = x.x, a[r][1] = x.y, a[r][2] = x.z, a[r][3] = x.w;
                a[r][4] = y.x, a[r][5] = y.y, a[r][6] = y.z, a[r][7] = y.w;
            } else {
#pragma unroll
                for (int q = 0; q < 8; q++)
                    a[r][q] = row < m && kc + q < kend ? p[q] : 0.f;
            }
        }
#pragma unroll
        for (int q = 0; q < 8; q++)
#pragma unroll
            for (int j4 = 0; j4 < NMAX / 4; j4++) {
                const float4 b = *reinterpret_cast<const float4 *>(&bl[(kc - kbeg + q) * NMAX + 4 * j4]);
#pragma unroll
                for (int r = 0; r < RL; r++) {
                    acc[r][4 * j4] = fmaf(a[r][q], b.x, acc[r][4 * j4]);
                    acc[r][4 * j4 + 1] = fmaf(a[r][q], b.y, acc[r][4 * j4 + 1]);
                    acc[r][4 * j4 + 2] = fmaf(a[r][q], b.z, acc[r][4 * j4 + 2]);
                    acc[r][4 * j4 + 3] = fmaf(a[r][q], b.w, acc[r][4 * j4 + 3]);
                }
            }
    }
#pragma unroll
    for (int r = 0; r < RL; r++) {
        const long row = rbase + 32 * r;
        if (row < m)
#pragma unroll
            for (int j = 0; j < NMAX; j++)
                if (j < n)
                    atomicAdd(&C[row * n + j], acc[r][j]);
    }
}

typedef void (*skinny_fn)(const float *, const float *, float *, int, int, int, int);

/* the forms tried at each shape: the smallest NMAX that holds n, every row that has it */
struct form {
    const char *name;
    skinny_fn kernel;
    int nmax, rows_per_warp, kstep, slice;   /* slice: B's whole k-slice in shared memory (2: a lane per row) */
};
static const form forms[] = {
    {"chunk8x8", skinny<8, 8>, 8, 8, KC, 0},
    {"slice8x8u1", skinny_slice<8, 8, 1>, 8, 8, 128, 1},
    {"slice8x4u2", skinny_slice<8, 4, 2>, 8, 4, 256, 1},
    {"slice8x4u1", skinny_slice<8, 4, 1>, 8, 4, 128, 1},
    {"chunk16x4", skinny<16, 4>, 16, 4, KC, 0},
    {"slice16x4u1", skinny_slice<16, 4, 1>, 16, 4, 128, 1},
    {"slice16x2u2", skinny_slice<16, 2, 2>, 16, 2, 256, 1},
    {"slice16x2u1", skinny_slice<16, 2, 1>, 16, 2, 128, 1},
    {"chunk32x2", skinny<32, 2>, 32, 2, KC, 0},
    {"slice32x2u1", skinny_slice<32, 2, 1>, 32, 2, 128, 1},
    {"slice32x2u2", skinny_slice<32, 2, 2>, 32, 2, 256, 1},
    {"slice32x1u2", skinny_slice<32, 1, 2>, 32, 1, 256, 1},
    {"slice32x1u4", skinny_slice<32, 1, 4>, 32, 1, 512, 1},
    {"lane8x4", skinny_lane<8, 4>, 8, 128, 8, 2},
    {"lane16x2", skinny_lane<16, 2>, 16, 64, 8, 2},
    {"lane16x4", skinny_lane<16, 4>, 16, 128, 8, 2},
    {"lane32x1", skinny_lane<32, 1>, 32, 32, 8, 2},
    {"lane32x2", skinny_lane<32, 2>, 32, 64, 8, 2},
};
enum { SLICE_SMEM_MAX = 100 * 1024 };   /* two blocks an SM */

static float time_ms(cudaEvent_t t0, cudaEvent_t t1)
{
    float ms;
    CHECK_CUDA(cudaEventElapsedTime(&ms, t0, t1));
    return ms;
}

int main(int argc, char **argv)
{
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return fprintf(stderr, "cublasCreate failed\n"), 1;
    int sms;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (const form &f : forms)
        if (f.slice)
            CHECK_CUDA(cudaFuncSetAttribute(f.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SLICE_SMEM_MAX));
    cudaEvent_t t0, t1;
    CHECK_CUDA(cudaEventCreate(&t0));
    CHECK_CUDA(cudaEventCreate(&t1));
    printf("%-16s %-12s %4s %6s %6s %10s %10s %8s %10s %10s\n", "shape", "form", "bpsm", "blocks", "split",
           "skinny us", "cuBLAS us", "share", "vs cuBLAS", "vs fp64");
    int failed = 0;
    for (int a = 1; a < argc; a++) {
        int m, n, k;
        if (sscanf(argv[a], "%dx%dx%d", &m, &n, &k) != 3 || m < 1 || n < 1 || n > 32 || k < 1) {
            fprintf(stderr, "skinny_probe: bad shape '%s' (want MxNxK, 1 <= N <= 32)\n", argv[a]);
            return 2;
        }
        const size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
        float *ha = (float *)malloc(na * 4), *hb = (float *)malloc(nb * 4), *hc = (float *)malloc(nc * 4),
              *hr = (float *)malloc(nc * 4);
        srand(1234 + a);
        for (size_t i = 0; i < na; i++)
            ha[i] = (float)rand() / RAND_MAX * 2 - 1;
        for (size_t i = 0; i < nb; i++)
            hb[i] = (float)rand() / RAND_MAX * 2 - 1;
        float *da, *db, *dc, *dr;
        CHECK_CUDA(cudaMalloc(&da, na * 4));
        CHECK_CUDA(cudaMalloc(&db, nb * 4));
        CHECK_CUDA(cudaMalloc(&dc, nc * 4));
        CHECK_CUDA(cudaMalloc(&dr, nc * 4));
        CHECK_CUDA(cudaMemcpy(da, ha, na * 4, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(db, hb, nb * 4, cudaMemcpyHostToDevice));
        const float one = 1, zero = 0;
        const int reps = 20;
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, db, n, da, k, &zero, dr, n);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(hr, dr, nc * 4, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaEventRecord(t0));
        for (int i = 0; i < reps; i++)
            cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, db, n, da, k, &zero, dr, n);
        CHECK_CUDA(cudaEventRecord(t1));
        CHECK_CUDA(cudaEventSynchronize(t1));
        const double us_cublas = 1e3 * time_ms(t0, t1) / reps;
        /* FP64 references at sampled entries, once a shape */
        enum { SAMPLES = 256 };
        static double ref[SAMPLES];
        static size_t at[SAMPLES];
        for (size_t s = 0; s < SAMPLES; s++) {
            const size_t i = (s * 2654435761u) % nc, r = i / n, c = i % n;
            double d = 0;
            for (int kk = 0; kk < k; kk++)
                d += (double)ha[r * k + kk] * hb[(size_t)kk * n + c];
            at[s] = i;
            ref[s] = d;
        }
        int nmax = n <= 8 ? 8 : n <= 16 ? 16 : 32;
        double best = 1e30;
        const char *best_name = "";
        for (const form &f : forms) {
            if (f.nmax != nmax)
                continue;
            const int bm = (m + WARPS * f.rows_per_warp - 1) / (WARPS * f.rows_per_warp);
            for (int bpsm = 2; bpsm <= 8; bpsm *= 2) {
                int split = (bpsm * sms + bm - 1) / bm;
                split = split < 1 ? 1 : split;
                const int max_split = (k + 2 * f.kstep - 1) / (2 * f.kstep);   /* two steps a block at least */
                split = split > max_split ? max_split : split;
                if (f.slice) {   /* the slice must fit the shared memory */
                    const int kpb_cap = (SLICE_SMEM_MAX / (4 * f.nmax) - 4) / f.kstep * f.kstep;
                    const int min_split = (k + kpb_cap - 1) / kpb_cap;
                    split = split < min_split ? min_split : split;
                }
                int kpb = ((k + split - 1) / split + f.kstep - 1) / f.kstep * f.kstep;
                split = (k + kpb - 1) / kpb;
                const size_t smem = f.slice == 2 ? (size_t)4 * f.nmax * kpb : f.slice ? (size_t)4 * f.nmax * (kpb + 4) : 0;
                const dim3 grid(bm, split);
                CHECK_CUDA(cudaMemsetAsync(dc, 0, nc * 4));
                f.kernel<<<grid, WARPS * 32, smem>>>(da, db, dc, m, n, k, kpb);
                CHECK_CUDA(cudaGetLastError());
                CHECK_CUDA(cudaDeviceSynchronize());
                CHECK_CUDA(cudaMemcpy(hc, dc, nc * 4, cudaMemcpyDeviceToHost));
                double worst_cublas = 0, worst_fp64 = 0;
                int bad = 0;
                for (size_t i = 0; i < nc; i++) {
                    if (!isfinite(hc[i]))
                        bad = 1;
                    worst_cublas = fmax(worst_cublas, fabs(hc[i] - hr[i]) / (fabs(hr[i]) + 1));
                }
                for (int s = 0; s < SAMPLES; s++)
                    worst_fp64 = fmax(worst_fp64, fabs(hc[at[s]] - ref[s]) / (fabs(ref[s]) + 1));
                /* timed: each repetition zeroes C and runs the kernel */
                CHECK_CUDA(cudaEventRecord(t0));
                for (int i = 0; i < reps; i++) {
                    CHECK_CUDA(cudaMemsetAsync(dc, 0, nc * 4));
                    f.kernel<<<grid, WARPS * 32, smem>>>(da, db, dc, m, n, k, kpb);
                }
                CHECK_CUDA(cudaEventRecord(t1));
                CHECK_CUDA(cudaEventSynchronize(t1));
                const double us = 1e3 * time_ms(t0, t1) / reps;
                const int fail = bad || !(worst_fp64 <= 1e-4);
                failed += fail;
                if (!fail && us < best)
                    best = us, best_name = f.name;
                printf("%-16s %-12s %4d %6d %6d %10.1f %10.1f %7.1f%% %10.2e %10.2e%s\n", argv[a], f.name, bpsm,
                       bm * split, split, us, us_cublas, 100 * us_cublas / us, worst_cublas, worst_fp64,
                       fail ? "  FAILED" : "");
            }
        }
        printf("%-16s best %-12s %10.1f us, cuBLAS %10.1f us: %.1f%%\n", argv[a], best_name, best, us_cublas,
               100 * us_cublas / best);
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
        cudaFree(dr);
        free(ha);
        free(hb);
        free(hc);
        free(hr);
    }
    cublasDestroy(h);
    return failed ? 1 : 0;
}

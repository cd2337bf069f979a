/* Measured and theoretical machine ceilings (see src/ceilings_measure.h).
 *
 * Timing discipline, the same for every ceiling:
 *  1. one untimed launch (module loading, first touch, clocks ramping up);
 *  2. calibration: time one launch and scale the work (loop trips) so one timed sample
 *     takes about SAMPLE_TARGET_MS; fixed-size work (DRAM, GEMM) instead repeats the
 *     launch within a sample;
 *  3. one more untimed launch at the final size, then SAMPLES samples, each between two
 *     CUDA events on a private stream; the ceiling is the median rate.
 * The SM clock of a sample comes from the kernel itself: thread 0 of block 0 reads
 * clock64 and %globaltimer at the start and end of its work (kernels/ceil.h), so
 * cycles / ns is the clock while the benchmark ran, under its own load. cuBLAS cannot
 * carry that probe, so after each TF32 sample a one-block kernel (kernels/clock_probe.cu)
 * spins for PROBE_SPIN_NS and reports the clock right after the GEMM. The reported
 * sm_clock_hz is the median over the samples.
 * Two TF32 ceilings: `tf32` is cuBLAS at 8192^3 (what a library GEMM reaches), and
 * `tf32_wgmma` our own loop of wgmma from shared memory (kernels/ceil_tensor.cu: what the
 * tensor cores do when nothing else limits them), measured on cc 9.0 with an SM=90 build.
 * The mma.sync loops (kernels/ceil_bench.cu) give `tf32_mma`, `bf16` and `fp16`, the wgmma
 * loop `bf16_wgmma` and `fp16_wgmma` too: BF16 and FP16 have our own loops only.
 */
#include "src/ceilings_measure.h"
#include "src/cuda_try.h"
#include "analysis/paths.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kernels/ceil.h"
#include "kernels/clock_probe.h"

enum {
    SAMPLES = 9,              /* timed samples per ceiling (odd: the median is one of them) */
    MAX_PER_SAMPLE = 32,      /* launches per sample, at most, for fixed-size work */
    PROBE_SPIN_NS = 500000,   /* 0.5 ms: globaltimer ticks at <= 1 us, so < 0.2% error */
    MIN_PROBE_NS = 20000      /* shorter probe windows give no clock (NaN) */
};
static const double SAMPLE_TARGET_MS = 2.0;
static const size_t GIB = (size_t)1 << 30;

/* ---- measurement state ----------------------------------------------------------- */

struct cm {
    int sms, cc_major, cc_minor;
    size_t l2_bytes;
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
    float *buf_a, *buf_b;        /* the two DRAM buffers, big_bytes each, random data */
    size_t big_bytes;
    float *sink;
    unsigned long long *probe;   /* SAMPLES x CEIL_PROBE_WORDS on the device */
    int blocks[CEIL_K_COUNT];    /* resident blocks per SM */
    size_t l2_n4;                /* L2 working set, float4, a power of two */
    cublasHandle_t blas;
    cublasStatus_t blas_status;  /* last cuBLAS failure, for the message */
    int gemm_m, gemm_n, gemm_k;  /* current TF32 shape */
    int tensor_grid;             /* blocks of the wgmma benchmark: SMs x resident */
    enum ceil_tensor_type tensor_type;   /* input type of the mma.sync and wgmma benchmarks */
    FILE *log;
    char *err;
    size_t errlen;
};

typedef cudaError_t (*bench_launch_fn)(struct cm *m, long work, unsigned long long *probe);
typedef double (*bench_amount_fn)(const struct cm *m, long work);

struct bench {
    enum gp_ceiling_id id;
    bench_launch_fn launch;
    bench_amount_fn amount;  /* bytes or flop of one launch */
    long work;               /* initial loop trips (passes, iterations) */
    int scalable;            /* work scales the time of a launch; else repeat launches */
    int probe_after;         /* clock from clock_probe_launch after the sample (cuBLAS) */
    enum ceil_kernel kernel; /* for the log line; CEIL_K_COUNT: not one of ours */
};

static void fail(struct cm *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, m->errlen, fmt, ap);
    va_end(ap);
}

/* The CUDA error family's check (src/cuda_try.h): the failing call named from its source
 * text, after "ceilings: " and what it was for. */
#define CM_OK(m, call, what) cm_ok_((m), (call), (what), #call)
static int cm_ok_(struct cm *m, cudaError_t e, const char *what, const char *call_text)
{
    if (e == cudaSuccess)
        return 1;
    char w[128];
    snprintf(w, sizeof w, "ceilings: %s", what);
    cuda_describe(e, w, call_text, m->err, m->errlen);
    return 0;
}

static int grid_of(const struct cm *m, enum ceil_kernel k)
{
    return m->sms * m->blocks[k];
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the finite values of v[0..n); NaN when there are none. */
static double median_finite(const double *v, int n)
{
    double s[SAMPLES * 2];
    int k = 0;
    for (int i = 0; i < n && k < (int)(sizeof s / sizeof s[0]); i++)
        if (isfinite(v[i]))
            s[k++] = v[i];
    if (k == 0)
        return NAN;
    qsort(s, (size_t)k, sizeof s[0], cmp_double);
    return k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]);
}

/* ---- the benchmarks ---------------------------------------------------------------- */

static size_t big_n4(const struct cm *m) { return m->big_bytes / 16; }

static cudaError_t launch_dram_copy(struct cm *m, long work, unsigned long long *probe)
{
    (void)work;
    return ceil_dram_copy_launch(m->buf_a, m->buf_b, big_n4(m), grid_of(m, CEIL_K_DRAM_COPY), probe,
                                 m->stream);
}
static double amount_dram_copy(const struct cm *m, long work)
{
    (void)work;
    return 2.0 * (double)big_n4(m) * 16.0;  /* read + written */
}

static cudaError_t launch_dram_read(struct cm *m, long work, unsigned long long *probe)
{
    (void)work;
    return ceil_dram_read_launch(m->buf_a, big_n4(m), m->sink, CEIL_NEVER, grid_of(m, CEIL_K_DRAM_READ),
                                 probe, m->stream);
}
static double amount_dram_read(const struct cm *m, long work)
{
    (void)work;
    return (double)big_n4(m) * 16.0;
}

static cudaError_t launch_l2(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_l2_read_launch(m->buf_a, m->l2_n4, (int)work, m->sink, CEIL_NEVER, grid_of(m, CEIL_K_L2),
                               probe, m->stream);
}
static double amount_l2(const struct cm *m, long work)
{
    return (double)work * (double)m->l2_n4 * 16.0;
}

/* 32 float4 = 512 bytes: each pass starts on another 128-byte line boundary. */
static const unsigned L1_ROT = 32;

static cudaError_t launch_l1(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_l1_read_launch(m->buf_a, (int)work, L1_ROT, m->sink, CEIL_NEVER, grid_of(m, CEIL_K_L1),
                               probe, m->stream);
}
static double amount_l1(const struct cm *m, long work)
{
    return (double)grid_of(m, CEIL_K_L1) * (double)work * CEIL_L1_BLOCK_FLOAT4 * 16.0;
}

static cudaError_t launch_shared(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_shared_read_launch(m->buf_a, (int)work, L1_ROT, m->sink, CEIL_NEVER,
                                   grid_of(m, CEIL_K_SHARED), probe, m->stream);
}
static double amount_shared(const struct cm *m, long work)
{
    return (double)grid_of(m, CEIL_K_SHARED) * (double)work * CEIL_L1_BLOCK_FLOAT4 * 16.0;
}

/* a = a * 0.9999 + 1e-4 converges to 1: no overflow, no subnormals. */
static const float FMA_MUL = 0.9999f, FMA_ADD = 1.0e-4f;

static cudaError_t launch_fma(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_fma_launch((int)work, FMA_MUL, FMA_ADD, m->sink, CEIL_NEVER, grid_of(m, CEIL_K_FMA), probe,
                           m->stream);
}
static double amount_fma(const struct cm *m, long work)
{
    return (double)grid_of(m, CEIL_K_FMA) * CEIL_BLOCK * (double)work * CEIL_FLOP_PER_ITER;
}

static cudaError_t launch_nofma(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_nofma_launch((int)work, FMA_MUL, FMA_ADD, m->sink, CEIL_NEVER, grid_of(m, CEIL_K_NOFMA),
                             probe, m->stream);
}
static double amount_nofma(const struct cm *m, long work)
{
    return (double)grid_of(m, CEIL_K_NOFMA) * CEIL_BLOCK * (double)work * CEIL_FLOP_PER_ITER;
}

/* The mma.sync benchmark of m->tensor_type: its kernel (for the occupancy) and flop. */
static enum ceil_kernel mma_kernel(const struct cm *m)
{
    return m->tensor_type == CEIL_BF16 ? CEIL_K_MMA_BF16 : m->tensor_type == CEIL_FP16 ? CEIL_K_MMA_FP16 : CEIL_K_MMA;
}

static cudaError_t launch_mma(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_mma_launch(m->tensor_type, (int)work, m->sink, CEIL_NEVER, grid_of(m, mma_kernel(m)), probe,
                           m->stream);
}
static double amount_mma(const struct cm *m, long work)
{
    return (double)grid_of(m, mma_kernel(m)) * CEIL_BLOCK * (double)work *
           (m->tensor_type == CEIL_TF32 ? CEIL_MMA_FLOP_PER_ITER : CEIL_MMA16_FLOP_PER_ITER);
}

/* Row-major C = A B as column-major C^T = B^T A^T; A and B sit in buf_a, C in buf_b. */
static cudaError_t launch_tf32(struct cm *m, long work, unsigned long long *probe)
{
    (void)work;
    (void)probe;
    const float alpha = 1.0f, beta = 0.0f;
    const int M = m->gemm_m, N = m->gemm_n, K = m->gemm_k;
    const float *a = m->buf_a, *b = m->buf_a + (size_t)M * K;
    cublasStatus_t s = cublasGemmEx(m->blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, b, CUDA_R_32F, N, a,
                                    CUDA_R_32F, K, &beta, m->buf_b, CUDA_R_32F, N,
                                    CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) {
        m->blas_status = s;
        return cudaErrorLaunchFailure;
    }
    return cudaGetLastError();
}
static double amount_tf32(const struct cm *m, long work)
{
    (void)work;
    return 2.0 * m->gemm_m * (double)m->gemm_n * m->gemm_k;
}

static cudaError_t launch_tensor(struct cm *m, long work, unsigned long long *probe)
{
    return ceil_tensor_launch(m->tensor_type, (int)work, m->sink, CEIL_NEVER, m->tensor_grid, probe, m->stream);
}
static double amount_tensor(const struct cm *m, long work)
{
    return (double)m->tensor_grid * (double)work *
           (m->tensor_type == CEIL_TF32 ? CEIL_TENSOR_FLOP_PER_ITER : CEIL_TENSOR16_FLOP_PER_ITER);
}

/* ---- timing ------------------------------------------------------------------------ */

static int launch_checked(struct cm *m, const struct bench *b, long work, unsigned long long *probe)
{
    cudaError_t e = b->launch(m, work, probe);
    if (e == cudaSuccess)
        return 1;
    if (b->id == GP_CEIL_tf32 && m->blas_status != CUBLAS_STATUS_SUCCESS)
        fail(m, "ceilings: %s: cublasGemmEx %dx%dx%d: %s", gp_ceiling_info[b->id].id, m->gemm_m, m->gemm_n,
             m->gemm_k, cublasGetStatusString(m->blas_status));
    else
        fail(m, "ceilings: %s: kernel launch: %s", gp_ceiling_info[b->id].id, cudaGetErrorString(e));
    return 0;
}

/* Times `per` launches between the two events; *ms gets the elapsed time. */
static int time_launches(struct cm *m, const struct bench *b, long work, int per,
                         unsigned long long *probe, float *ms)
{
    if (!CM_OK(m, cudaEventRecord(m->ev0, m->stream), "timing"))
        return 0;
    for (int i = 0; i < per; i++)
        if (!launch_checked(m, b, work, i == per - 1 && !b->probe_after ? probe : NULL))
            return 0;
    if (!CM_OK(m, cudaEventRecord(m->ev1, m->stream), "timing"))
        return 0;
    if (probe != NULL && b->probe_after &&
        !CM_OK(m, clock_probe_launch(1, PROBE_SPIN_NS, probe, m->stream), "clock probe launch"))
        return 0;
    if (!CM_OK(m, cudaEventSynchronize(m->ev1), gp_ceiling_info[b->id].id))
        return 0;
    return CM_OK(m, cudaEventElapsedTime(ms, m->ev0, m->ev1), "timing");
}

struct bench_result { double rate, clock_hz, spread; long work; int per; };

/* Warm-up, calibration and SAMPLES timed samples of one benchmark. */
static int run_bench(struct cm *m, const struct bench *b, struct bench_result *r)
{
    long work = b->work;
    int per = 1;
    float ms = 0.0f;

    /* Zeroed probes read as "no clock" (NaN) should a kernel not write them. */
    if (!CM_OK(m, cudaMemsetAsync(m->probe, 0, SAMPLES * CEIL_PROBE_WORDS * sizeof(unsigned long long), m->stream),
                 "cudaMemset of the clock probes") ||
        !launch_checked(m, b, work, NULL) || !CM_OK(m, cudaStreamSynchronize(m->stream), "warm-up"))
        return 0;
    /* Up to three rounds, because a tiny first guess is dominated by launch overhead. */
    for (int round = 0; round < 3; round++) {
        if (!time_launches(m, b, work, 1, NULL, &ms))
            return 0;
        if (ms >= 0.5 * SAMPLE_TARGET_MS || ms <= 0.0f)
            break;
        if (!b->scalable) {
            per = (int)ceil(SAMPLE_TARGET_MS / ms);
            per = per < 1 ? 1 : per > MAX_PER_SAMPLE ? MAX_PER_SAMPLE : per;
            break;
        }
        double grow = SAMPLE_TARGET_MS / ms;
        grow = grow > 1000.0 ? 1000.0 : grow;
        double w = (double)work * grow;
        work = w > (double)(1 << 30) ? 1L << 30 : (long)w;
    }
    if (!launch_checked(m, b, work, NULL))
        return 0;

    double rate[SAMPLES], clock_hz[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
        unsigned long long *probe = m->probe + (size_t)s * CEIL_PROBE_WORDS;
        if (!time_launches(m, b, work, per, probe, &ms))
            return 0;
        rate[s] = ms > 0.0f ? b->amount(m, work) * per / (ms * 1e-3) : NAN;
    }
    unsigned long long p[SAMPLES * CEIL_PROBE_WORDS];
    /* The last clock_probe_launch may still spin: the copy must wait for the stream. */
    if (!CM_OK(m, cudaStreamSynchronize(m->stream), gp_ceiling_info[b->id].id) ||
        !CM_OK(m, cudaMemcpy(p, m->probe, sizeof p, cudaMemcpyDeviceToHost), "copy of the clock probes"))
        return 0;
    for (int s = 0; s < SAMPLES; s++) {
        const unsigned long long *q = p + s * CEIL_PROBE_WORDS;
        /* clock_probe_launch writes (cycles, ns); the in-kernel probe (c0, c1, t0, t1). */
        const double cyc = b->probe_after ? (double)q[0] : (double)(q[1] - q[0]);
        const double ns = b->probe_after ? (double)q[1] : (double)(q[3] - q[2]);
        clock_hz[s] = ns >= MIN_PROBE_NS ? cyc / ns * 1e9 : NAN;
    }
    r->rate = median_finite(rate, SAMPLES);
    r->clock_hz = median_finite(clock_hz, SAMPLES);
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; s < SAMPLES; s++) {
        lo = fmin(lo, rate[s]);
        hi = fmax(hi, rate[s]);
    }
    r->spread = r->rate > 0 ? (hi - lo) / r->rate : NAN;
    r->work = work;
    r->per = per;
    return 1;
}

static void log_result(const struct cm *m, enum gp_ceiling_id id, const struct bench_result *r,
                       const char *detail)
{
    if (m->log == NULL)
        return;
    const int bw = gp_ceiling_info[id].kind == GP_CEIL_BANDWIDTH;
    fprintf(m->log, "ceilings: %-10s %8.2f %s  (%s; %d samples x %d launch%s, spread %.1f%%, SM %.3f GHz)\n",
            gp_ceiling_info[id].id, r->rate * 1e-12, bw ? "TB/s   " : "TFLOP/s", detail, SAMPLES, r->per,
            r->per == 1 ? "" : "es", r->spread * 100.0, r->clock_hz * 1e-9);
    fflush(m->log);
}

/* ---- theoretical ------------------------------------------------------------------- */

struct cc_rate { int major, minor; double per_sm; };  /* minor -1: any */

/* FP32 add/multiply/FMA results per clock per SM: CUDA C++ Programming Guide, table
 * "Throughput of Native Arithmetic Instructions". */
static const struct cc_rate fp32_lanes[] = {
    {5, -1, 128}, {6, 0, 64}, {6, 1, 128}, {6, 2, 128}, {7, -1, 64}, {8, 0, 64},
    {8, 6, 128},  {8, 7, 128}, {8, 9, 128}, {9, 0, 128}, {10, -1, 128}, {12, -1, 128},
};

/* Dense TF32 tensor flop per clock per SM: datasheet peak / (SMs x boost clock).
 * A100 156 TFLOP/s / (108 x 1.41 GHz) = 1024; RTX 3090 35.6 / (82 x 1.695) and RTX 4090
 * 82.6 / (128 x 2.52) = 256; H100 SXM 494.7 / (132 x 1.83 GHz, its tensor boost
 * clock) = 2048. Unknown architectures get NaN rather than a guess. */
static const struct cc_rate tf32_dense[] = {
    {8, 0, 1024}, {8, 6, 256}, {8, 9, 256}, {9, 0, 2048},
};

/* Dense BF16 and FP16 tensor flop per clock per SM with FP32 accumulate, the same way:
 * A100 312 TFLOP/s / (108 x 1.41 GHz) = 2048; RTX 3090 35.6 / (82 x 1.695) = 256 and RTX
 * 4090 165.2 / (128 x 2.52) = 512 (GeForce: FP32 accumulate at half the FP16-accumulate
 * rate); H100 SXM 989.4 / (132 x 1.83 GHz) = 4096, twice TF32. */
static const struct cc_rate half_dense[] = {
    {8, 0, 2048}, {8, 6, 256}, {8, 9, 512}, {9, 0, 4096},
};

static double cc_lookup(const struct cc_rate *t, size_t n, int major, int minor)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].major == major && (t[i].minor == -1 || t[i].minor == minor))
            return t[i].per_sm;
    return NAN;
}

static void set_theory(struct gp_ceilings *out, enum gp_ceiling_id id, double v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->c[id].theory_source, sizeof out->c[id].theory_source, fmt, ap);
    va_end(ap);
    out->c[id].theoretical = v;
}

int ceilings_theoretical(int device, struct gp_ceilings *out)
{
    int sms = 0, clk_khz = 0, mem_khz = 0, bus = 0, major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
        return -1;
    const double clk = clk_khz > 0 ? clk_khz * 1e3 : NAN, ghz = clk_khz * 1e-6;

    /* Some devices and drivers report 0 for an attribute: that is "unknown", not 0. */
    const double dram = mem_khz > 0 && bus > 0 ? mem_khz * 1e3 * bus * 2.0 / 8.0 : NAN;
    static const enum gp_ceiling_id dram_ids[] = {GP_CEIL_dram_copy, GP_CEIL_dram_read};
    for (size_t i = 0; i < sizeof dram_ids / sizeof dram_ids[0]; i++)
        set_theory(out, dram_ids[i], dram, "%.3f GHz memory clock x %d-bit bus x 2 (DDR) / 8", mem_khz * 1e-6, bus);
    set_theory(out, GP_CEIL_l2, NAN, "no documented figure");
    /* 32 banks x 4 bytes per clock per SM: shared memory and L1 hits share the data path. */
    set_theory(out, GP_CEIL_l1, sms * 128.0 * clk, "%d SMs x 128 B/clk x %.3f GHz", sms, ghz);
    set_theory(out, GP_CEIL_shared, sms * 128.0 * clk, "%d SMs x 128 B/clk (32 banks x 4 B) x %.3f GHz", sms, ghz);

    const double lanes = cc_lookup(fp32_lanes, sizeof fp32_lanes / sizeof fp32_lanes[0], major, minor);
    if (isnan(lanes)) {
        set_theory(out, GP_CEIL_fp32_fma, NAN, "no FP32 lane count known for cc %d.%d", major, minor);
        set_theory(out, GP_CEIL_fp32_nofma, NAN, "no FP32 lane count known for cc %d.%d", major, minor);
    } else {
        set_theory(out, GP_CEIL_fp32_fma, sms * lanes * 2.0 * clk,
                   "%d SMs x %.0f FP32 lanes (CUDA guide, cc %d.%d) x 2 flop x %.3f GHz", sms, lanes, major,
                   minor, ghz);
        set_theory(out, GP_CEIL_fp32_nofma, sms * lanes * clk,
                   "%d SMs x %.0f FP32 lanes (CUDA guide, cc %d.%d) x 1 flop x %.3f GHz", sms, lanes, major,
                   minor, ghz);
    }
    const double tf32 = cc_lookup(tf32_dense, sizeof tf32_dense / sizeof tf32_dense[0], major, minor);
    const double half = cc_lookup(half_dense, sizeof half_dense / sizeof half_dense[0], major, minor);
    /* every ceiling of a type is held to the same peak: the tensor cores at the maximum clock */
    static const struct { enum gp_ceiling_id id; int half; } tensor_ids[] = {
        {GP_CEIL_tf32, 0}, {GP_CEIL_tf32_wgmma, 0}, {GP_CEIL_tf32_mma, 0},
        {GP_CEIL_bf16, 1}, {GP_CEIL_fp16, 1}, {GP_CEIL_bf16_wgmma, 1}, {GP_CEIL_fp16_wgmma, 1}};
    for (size_t i = 0; i < sizeof tensor_ids / sizeof tensor_ids[0]; i++) {
        const double per_sm = tensor_ids[i].half ? half : tf32;
        if (isnan(per_sm))
            set_theory(out, tensor_ids[i].id, NAN, "no datasheet constant for cc %d.%d", major, minor);
        else
            set_theory(out, tensor_ids[i].id, sms * per_sm * clk,
                       "%d SMs x %.0f dense flop/clk (datasheet constant) x %.3f GHz max", sms, per_sm, ghz);
    }
    return 0;
}

/* ---- ceilings_measure ------------------------------------------------------------------ */

static void iso_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The UUID as src/device.c writes it into results.json ("GPU-8-4-4-4-12 hex"), so a report
 * can tell whose ceilings these are. */
static void gpu_uuid_text(const struct cudaDeviceProp *p, char *buf, size_t len)
{
    const unsigned char *u = (const unsigned char *)p->uuid.bytes;
    snprintf(buf, len, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* Allocates and fills everything; on failure m->err is set and the caller frees. */
static int setup(struct cm *m, int device, struct gp_ceilings *out)
{
    struct cudaDeviceProp p;
    if (!CM_OK(m, cudaGetDeviceProperties(&p, device), "device query"))
        return 0;
    snprintf(out->gpu, sizeof out->gpu, "%.95s", p.name);  /* as gp_ceilings.gpu holds it */
    gpu_uuid_text(&p, out->gpu_uuid, sizeof out->gpu_uuid);
    m->sms = p.multiProcessorCount;
    m->cc_major = p.major;
    m->cc_minor = p.minor;
    m->l2_bytes = p.l2CacheSize > 0 ? (size_t)p.l2CacheSize : ((size_t)4 << 20);

    if (!CM_OK(m, cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking), "set-up") ||
        !CM_OK(m, cudaEventCreate(&m->ev0), "set-up") ||
        !CM_OK(m, cudaEventCreate(&m->ev1), "set-up") ||
        !CM_OK(m, ceil_prepare(), "set-up"))
        return 0;
    for (int k = 0; k < CEIL_K_COUNT; k++) {
        if (!CM_OK(m, ceil_blocks_per_sm((enum ceil_kernel)k, &m->blocks[k]), "occupancy query"))
            return 0;
        if (m->blocks[k] < 1) {
            fail(m, "ceilings: benchmark kernel %d cannot be resident on an SM", k);
            return 0;
        }
    }

    /* Far beyond L2: max(1 GiB, 16 x L2), each buffer; shrunk if memory is short. */
    size_t want = 16 * m->l2_bytes > GIB ? 16 * m->l2_bytes : GIB;
    want &= ~(((size_t)1 << 20) - 1);
    size_t free_b = 0, total_b = 0;
    if (!CM_OK(m, cudaMemGetInfo(&free_b, &total_b), "memory query"))
        return 0;
    const size_t reserve = (size_t)256 << 20;
    if (2 * want + reserve > free_b) {
        size_t can = free_b > reserve ? (free_b - reserve) / 2 : 0;
        can &= ~(((size_t)64 << 20) - 1);
        if (can < 4 * m->l2_bytes) {
            fail(m, "ceilings: %.2f GiB of device memory free, the DRAM benchmark needs at least %.2f GiB",
                 free_b / (double)GIB, (8 * m->l2_bytes + reserve) / (double)GIB);
            return 0;
        }
        if (m->log)
            fprintf(m->log, "ceilings: only %.2f GiB free: DRAM buffers of %.2f GiB instead of %.2f GiB\n",
                    free_b / (double)GIB, can / (double)GIB, want / (double)GIB);
        want = can;
    }
    m->big_bytes = want;
    if (!CM_OK(m, cudaMalloc((void **)&m->buf_a, m->big_bytes), "DRAM buffers") ||
        !CM_OK(m, cudaMalloc((void **)&m->buf_b, m->big_bytes), "DRAM buffers") ||
        !CM_OK(m, cudaMalloc((void **)&m->sink, CEIL_SINK_FLOATS * sizeof(float)), "set-up") ||
        !CM_OK(m, cudaMalloc((void **)&m->probe, SAMPLES * CEIL_PROBE_WORDS * sizeof(unsigned long long)),
                 "set-up"))
        return 0;
    const int fill_grid = grid_of(m, CEIL_K_FILL);
    if (!CM_OK(m, ceil_fill_launch(m->buf_a, big_n4(m), 1u, fill_grid, m->stream), "fill launch") ||
        !CM_OK(m, ceil_fill_launch(m->buf_b, big_n4(m), 2u, fill_grid, m->stream), "fill launch") ||
        !CM_OK(m, cudaMemsetAsync(m->sink, 0, CEIL_SINK_FLOATS * sizeof(float), m->stream), "set-up") ||
        !CM_OK(m, cudaStreamSynchronize(m->stream), "fill"))
        return 0;

    /* L2 working set: the largest power of two <= L2 / 4, well inside L2 even where L2
     * is split in two partitions that may both hold a line (H100). */
    m->l2_n4 = 1;
    while (m->l2_n4 * 2 * 16 <= m->l2_bytes / 4)
        m->l2_n4 *= 2;
    return 1;
}

static void teardown(struct cm *m)
{
    if (m->blas)
        cublasDestroy(m->blas);
    cudaFree(m->buf_a);
    cudaFree(m->buf_b);
    cudaFree(m->sink);
    cudaFree(m->probe);
    if (m->ev0)
        cudaEventDestroy(m->ev0);
    if (m->ev1)
        cudaEventDestroy(m->ev1);
    if (m->stream)
        cudaStreamDestroy(m->stream);
}

static void store(struct gp_ceilings *out, enum gp_ceiling_id id, const struct bench_result *r)
{
    out->c[id].measured = r->rate;
    out->c[id].sm_clock_hz = r->clock_hz;
}

/* The SIMT benchmarks, in the order they run. */
static const struct bench simt_benches[] = {
    {GP_CEIL_dram_copy, launch_dram_copy, amount_dram_copy, 1, 0, 0, CEIL_K_DRAM_COPY},
    {GP_CEIL_dram_read, launch_dram_read, amount_dram_read, 1, 0, 0, CEIL_K_DRAM_READ},
    {GP_CEIL_l2, launch_l2, amount_l2, 16, 1, 0, CEIL_K_L2},
    {GP_CEIL_l1, launch_l1, amount_l1, 64, 1, 0, CEIL_K_L1},
    {GP_CEIL_shared, launch_shared, amount_shared, 64, 1, 0, CEIL_K_SHARED},
    {GP_CEIL_fp32_fma, launch_fma, amount_fma, 64, 1, 0, CEIL_K_FMA},
    {GP_CEIL_fp32_nofma, launch_nofma, amount_nofma, 64, 1, 0, CEIL_K_NOFMA},
};

/* TF32: cuBLAS at a large square shape; the ceiling is its median. (16384x16384x4096
 * was tried too: on the H200 it drew the SM clock down to 1.62 GHz, ran slower than
 * 8192^3, and left the clock low for the first GEMMs of the sweep.) */
static int measure_tf32(struct cm *m, struct gp_ceilings *out)
{
    static const int shapes[][3] = {{8192, 8192, 8192}};
    static const struct bench tf32 = {GP_CEIL_tf32, launch_tf32, amount_tf32, 1, 0, 1, CEIL_K_COUNT};

    if (m->cc_major < 8) {
        if (m->log)
            fprintf(m->log, "ceilings: tf32       skipped: cc %d.%d has no TF32 tensor cores\n", m->cc_major,
                    m->cc_minor);
        return 1;
    }
    cublasStatus_t s = cublasCreate(&m->blas);
    if (s != CUBLAS_STATUS_SUCCESS) {
        m->blas = NULL;
        fail(m, "ceilings: cublasCreate: %s", cublasGetStatusString(s));
        return 0;
    }
    if ((s = cublasSetStream(m->blas, m->stream)) != CUBLAS_STATUS_SUCCESS) {
        fail(m, "ceilings: cublasSetStream: %s", cublasGetStatusString(s));
        return 0;
    }
    struct bench_result best = {NAN, NAN, NAN, 0, 0};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const size_t M = (size_t)shapes[i][0], N = (size_t)shapes[i][1], K = (size_t)shapes[i][2];
        if ((M * K + K * N) * sizeof(float) > m->big_bytes || M * N * sizeof(float) > m->big_bytes) {
            if (m->log)
                fprintf(m->log, "ceilings: tf32 %zux%zux%zu skipped: does not fit the buffers\n", M, N, K);
            continue;
        }
        m->gemm_m = (int)M;
        m->gemm_n = (int)N;
        m->gemm_k = (int)K;
        struct bench_result r;
        if (!run_bench(m, &tf32, &r))
            return 0;
        char detail[64];
        snprintf(detail, sizeof detail, "cublasGemmEx FAST_TF32 %zux%zux%zu", M, N, K);
        log_result(m, GP_CEIL_tf32, &r, detail);
        if (!(best.rate >= r.rate))
            best = r;
    }
    store(out, GP_CEIL_tf32, &best);
    return 1;
}

/* The ceilings of each tensor input type: the mma.sync loop's and the wgmma loop's. */
static const struct {
    enum ceil_tensor_type type;
    const char *name, *mma_shape;
    enum gp_ceiling_id mma, wgmma;
} tensor_types[] = {
    {CEIL_TF32, "TF32", "m16n8k8", GP_CEIL_tf32_mma, GP_CEIL_tf32_wgmma},
    {CEIL_BF16, "BF16", "m16n8k16", GP_CEIL_bf16, GP_CEIL_bf16_wgmma},
    {CEIL_FP16, "FP16", "m16n8k16", GP_CEIL_fp16, GP_CEIL_fp16_wgmma},
};

/* Tensor type t through mma.sync (the HMMA path of the warp-level kernels), one wave of
 * blocks; cc >= 8.0 only. */
static int measure_mma(struct cm *m, struct gp_ceilings *out, size_t t)
{
    const struct bench mma = {tensor_types[t].mma, launch_mma, amount_mma, 64, 1, 0, CEIL_K_MMA};
    const char *id = gp_ceiling_info[mma.id].id;
    if (m->cc_major < 8) {
        if (m->log)
            fprintf(m->log, "ceilings: %-10s skipped: cc %d.%d has no %s mma.sync\n", id, m->cc_major, m->cc_minor,
                    tensor_types[t].name);
        return 1;
    }
    m->tensor_type = tensor_types[t].type;
    struct bench_result r;
    if (!run_bench(m, &mma, &r))
        return 0;
    char detail[96];
    snprintf(detail, sizeof detail, "mma.sync %s, %d x %d blocks of %d, %d chains per warp, work %ld",
             tensor_types[t].mma_shape, m->sms, m->blocks[mma_kernel(m)], CEIL_BLOCK, CEIL_MMA_CHAINS, r.work);
    log_result(m, mma.id, &r, detail);
    store(out, mma.id, &r);
    return 1;
}

/* Tensor type t on the tensor cores alone: our wgmma loop (kernels/ceil_tensor.cu), one
 * wave of blocks. Skipped (left unmeasured) where the build or the device cannot run it. */
static int measure_tensor(struct cm *m, int device, struct gp_ceilings *out, size_t t)
{
    const struct bench tensor = {tensor_types[t].wgmma, launch_tensor, amount_tensor, 16, 1, 0, CEIL_K_COUNT};
    if (!ceil_tensor_supported(device)) {
        if (m->log)
            fprintf(m->log, "ceilings: %-10s skipped: needs cc 9.0 and a build with SM=90 (sm_90a)\n",
                    gp_ceiling_info[tensor.id].id);
        return 1;
    }
    m->tensor_type = tensor_types[t].type;
    int blocks = 0;
    if (!CM_OK(m, ceil_tensor_blocks_per_sm(m->tensor_type, &blocks), "occupancy query (tensor benchmark)"))
        return 0;
    if (blocks < 1) {
        fail(m, "ceilings: the tensor benchmark cannot be resident on an SM");
        return 0;
    }
    m->tensor_grid = m->sms * blocks;
    struct bench_result r;
    if (!run_bench(m, &tensor, &r))
        return 0;
    char detail[96];
    snprintf(detail, sizeof detail, "wgmma m64n256k%d %s from shared memory, %d x %d blocks of %d, %ld iterations",
             m->tensor_type == CEIL_TF32 ? 8 : 16, tensor_types[t].name, m->sms, blocks, CEIL_TENSOR_BLOCK, r.work);
    log_result(m, tensor.id, &r, detail);
    store(out, tensor.id, &r);
    return 1;
}

int ceilings_measure(int device, struct gp_ceilings *out, FILE *log, char *err, size_t errlen)
{
    struct cm m;
    memset(&m, 0, sizeof m);
    m.log = log;
    m.err = err;
    m.errlen = errlen;
    if (errlen > 0)
        err[0] = '\0';
    ceilings_init(out);

    int prev = -1;
    cudaError_t e = cudaGetDevice(&prev);
    if (e != cudaSuccess || (e = cudaSetDevice(device)) != cudaSuccess) {
        fail(&m, "ceilings: cannot use CUDA device %d: %s", device, cudaGetErrorString(e));
        return -1;
    }
    int ok = setup(&m, device, out);
    if (ok && ceilings_theoretical(device, out) != 0) {
        fail(&m, "ceilings: cannot read the attributes of CUDA device %d", device);
        ok = 0;
    }
    iso_date(out->date, sizeof out->date);
    if (ok && log)
        fprintf(log, "ceilings: measuring %s (%d SMs): DRAM buffers 2 x %.2f GiB, L2 set %.1f MiB, L1 set 16 KiB/block\n",
                out->gpu, m.sms, m.big_bytes / (double)GIB, m.l2_n4 * 16.0 / (1 << 20));

    for (size_t i = 0; ok && i < sizeof simt_benches / sizeof simt_benches[0]; i++) {
        const struct bench *b = &simt_benches[i];
        struct bench_result r;
        if (!run_bench(&m, b, &r)) {
            ok = 0;
            break;
        }
        char detail[64];
        snprintf(detail, sizeof detail, "%d x %d blocks of %d, work %ld", m.sms, m.blocks[b->kernel], CEIL_BLOCK,
                 r.work);
        log_result(&m, b->id, &r, detail);
        store(out, b->id, &r);
    }
    for (size_t t = 0; ok && t < sizeof tensor_types / sizeof tensor_types[0]; t++)
        ok = measure_mma(&m, out, t) && measure_tensor(&m, device, out, t);
    if (ok)
        ok = measure_tf32(&m, out);
    teardown(&m);
    if (prev >= 0)
        cudaSetDevice(prev);
    return ok ? 0 : -1;
}

/* ---- cache ----------------------------------------------------------------------------- */

/* The NVIDIA kernel driver version ("580.159.04") from /proc: the first token of the
 * first line made of digits and dots with at least one dot (the line reads "NVRM version:
 * NVIDIA UNIX [Open ]Kernel Module [for x86_64]  580.159.04  Release Build ..."). Else
 * the CUDA driver API version ("cuda13000"). Either is safe in a file name. */
static void driver_version(char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (f != NULL) {
        char line[512];
        if (fgets(line, sizeof line, f) != NULL) {
            for (char *tok = strtok(line, " \t\n"); tok != NULL; tok = strtok(NULL, " \t\n")) {
                size_t n = strspn(tok, "0123456789.");
                if (n == strlen(tok) && n > 2 && tok[0] != '.' && strchr(tok, '.') != NULL && n < len) {
                    memcpy(buf, tok, n + 1);
                    break;
                }
            }
        }
        fclose(f);
    }
    if (buf[0] == '\0') {
        int v = 0;
        cudaDriverGetVersion(&v);
        snprintf(buf, len, "cuda%d", v);
    }
}

int ceilings_cache_path(int device, const char *cache_dir, char *buf, size_t len)
{
    struct cudaDeviceProp p;
    if (cache_dir == NULL || cudaGetDeviceProperties(&p, device) != cudaSuccess)
        return -1;
    char drv[48], uuid[64];
    driver_version(drv, sizeof drv);
    gpu_uuid_text(&p, uuid, sizeof uuid);
    int n = snprintf(buf, len, "%s/ceilings-%s-%s.csv", cache_dir, uuid, drv);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* A cache file is usable when it names this GPU and has every ceiling this GPU can
 * measure (TF32 and the mma.sync loops need cc >= 8.0, the wgmma loops cc 9.0 and an
 * sm_90a build): a cache from before the BF16/FP16 ceilings is measured again. */
static int cache_complete(const struct gp_ceilings *cs, const char *gpu, int cc_major, int tensor_ok,
                          const char **why)
{
    char name[sizeof cs->gpu];
    snprintf(name, sizeof name, "%.95s", gpu);  /* truncated as ceilings_measure stores it */
    if (strcmp(cs->gpu, name) != 0) {
        *why = "it names another GPU";
        return 0;
    }
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        const int needs_cc8 = i == GP_CEIL_tf32 || i == GP_CEIL_tf32_mma || i == GP_CEIL_bf16 || i == GP_CEIL_fp16;
        const int needs_wgmma = i == GP_CEIL_tf32_wgmma || i == GP_CEIL_bf16_wgmma || i == GP_CEIL_fp16_wgmma;
        if ((needs_cc8 && cc_major < 8) || (needs_wgmma && !tensor_ok))
            continue;
        if (!isfinite(cs->c[i].measured) || cs->c[i].measured <= 0) {
            *why = "a measured value is missing";
            return 0;
        }
    }
    return 1;
}

int ceilings_get(int device, const char *cache_dir, int force, struct gp_ceilings *out, FILE *log,
                 char *err, size_t errlen)
{
    char path[4096];
    if (errlen > 0)
        err[0] = '\0';
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "ceilings: cannot query CUDA device %d: %s", device, cudaGetErrorString(e));
        return -1;
    }
    if (cache_dir != NULL && ceilings_cache_path(device, cache_dir, path, sizeof path) != 0) {
        snprintf(err, errlen, "ceilings: cache directory name too long: '%.200s'", cache_dir);
        return -1;
    }
    struct stat st;
    if (cache_dir != NULL && !force && stat(path, &st) == 0) {
        char why[512];
        const char *bad = NULL;
        if (ceilings_read_csv(path, out, why, sizeof why) != 0) {
            if (log)
                fprintf(log, "ceilings: ignoring the cache: %s; measuring again\n", why);
        } else if (!cache_complete(out, p.name, p.major, ceil_tensor_supported(device), &bad)) {
            if (log)
                fprintf(log, "ceilings: ignoring %s: %s; measuring again\n", path, bad);
        } else {
            if (!out->gpu_uuid[0])   /* a cache from before the column: its path names this GPU */
                gpu_uuid_text(&p, out->gpu_uuid, sizeof out->gpu_uuid);
            if (ceilings_theoretical(device, out) != 0) {
                snprintf(err, errlen, "ceilings: cannot read the attributes of CUDA device %d", device);
                return -1;
            }
            if (log)
                fprintf(log, "ceilings: from %s (measured %s)\n", path, out->date);
            return 1;
        }
    }
    if (ceilings_measure(device, out, log, err, errlen) != 0)
        return -1;
    if (cache_dir != NULL) {
        char why[512];
        if (mkdir_p(cache_dir) != 0) {
            if (log)
                fprintf(log, "ceilings: not cached: cannot create %s: %s\n", cache_dir, strerror(errno));
        } else if (ceilings_write_csv(path, out, why, sizeof why) != 0) {
            if (log)
                fprintf(log, "ceilings: not cached: %s\n", why);
        } else if (log) {
            fprintf(log, "ceilings: cached in %s\n", path);
        }
    }
    return 0;
}

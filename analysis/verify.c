#include "analysis/verify.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* BF16/FP16 against the rounded-input reference: products exact, FP32 sums only. The
 * tensor cores may align a block's products to its largest exponent and truncate (round
 * toward zero) rather than round each add; a host model of that (blocks of 8 or 16, a
 * 24-bit window, the result truncated) on uniform [-0.5, 0.5) BF16 inputs stayed 14-22x
 * under this bound (0.7e-6 at k = 4099, 3.2e-6 at k = 32768). Inputs rounded otherwise
 * (truncated, or not at all) miss it by far: their error is near the precision's own unit
 * roundoff (2^-8 BF16, 2^-11 FP16), against 1.5e-5 here at k = 4099. */
double verify_tolerance(enum gp_precision p, double factor, long k)
{
    const double u32 = ldexp(1.0, -24);
    const double u_in = p == GP_TF32 ? ldexp(1.0, -11) : u32;
    return factor * u_in + 4.0 * u32 * sqrt((double)(k > 1 ? k : 1));
}

double verify_tolerance_fp32_inputs(enum gp_precision p, double factor, long k)
{
    const double u32 = ldexp(1.0, -24);
    const double u = p == GP_BF16 ? ldexp(1.0, -8) : p == GP_FP16 || p == GP_TF32 ? ldexp(1.0, -11) : u32;
    return factor * u + 4.0 * u32 * sqrt((double)(k > 1 ? k : 1));
}

static uint16_t bf16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x0040u);   /* NaN stays NaN (quiet) */
    x += 0x7fffu + ((x >> 16) & 1u);              /* to nearest, ties to even; may carry to Inf */
    return (uint16_t)(x >> 16);
}

static float bf16_value(uint16_t h)
{
    const uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static uint16_t fp16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return sign | 0x7e00u;
    if (ax >= 0x477ff000u)   /* 65520 and up: halfway to 65536 rounds to even, Inf */
        return sign | 0x7c00u;
    if (ax < 0x38800000u)    /* below 2^-14: a multiple of 2^-24 (subnormal), rint is ties-to-even */
        return sign | (uint16_t)rint((double)fabsf(f) * 0x1p24);
    uint32_t r = ax - 0x38000000u;   /* exponent rebiased 127 -> 15 */
    r += 0xfffu + ((r >> 13) & 1u);
    return sign | (uint16_t)(r >> 13);
}

static float fp16_value(uint16_t h)
{
    const int e = (h >> 10) & 0x1f, mant = h & 0x3ff;
    const float sign = (h & 0x8000u) ? -1.0f : 1.0f;
    if (e == 0x1f)
        return mant ? NAN : sign * INFINITY;
    return sign * (e == 0 ? ldexpf((float)mant, -24) : ldexpf((float)(mant | 0x400), e - 25));
}

void verify_round16(enum gp_precision p, const float *x, long count, unsigned short *bits, float *rounded)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; i++) {
        const uint16_t h = p == GP_BF16 ? bf16_bits(x[i]) : p == GP_FP16 ? fp16_bits(x[i]) : 0;
        const float v = p == GP_BF16 ? bf16_value(h) : p == GP_FP16 ? fp16_value(h) : x[i];
        if (bits)
            bits[i] = h;
        if (rounded)
            rounded[i] = v;
    }
}

void verify_reference(const float *a, const float *b, long m, long n, long k, const long *idx,
                      long nidx, double *ref)
{
    if (!idx) {
        /* i-k-j order streams B and C rows; each thread owns whole rows of C */
#pragma omp parallel for schedule(dynamic, 4)
        for (long i = 0; i < m; i++) {
            double *crow = ref + i * n;
            for (long j = 0; j < n; j++)
                crow[j] = 0.0;
            for (long p = 0; p < k; p++) {
                const double av = a[i * k + p];
                const float *brow = b + p * n;
                for (long j = 0; j < n; j++)
                    crow[j] += av * (double)brow[j];
            }
        }
        return;
    }
#pragma omp parallel for schedule(static)
    for (long s = 0; s < nidx; s++) {
        const long row = idx[s] / n, col = idx[s] % n;
        double acc = 0.0;
        for (long p = 0; p < k; p++)
            acc += (double)a[row * k + p] * (double)b[p * n + col];
        ref[s] = acc;
    }
}

unsigned long long gp_splitmix64(unsigned long long x)
{
    uint64_t z = (uint64_t)x + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void verify_sample_indices(long m, long n, long nidx, unsigned long long seed, long *idx)
{
    /* corners and edge midpoints first: edge tiles are where indexing bugs live */
    const long fixed[] = {0, n - 1, (m - 1) * n, m * n - 1, (m / 2) * n + n / 2, (m - 1) * n + n / 2,
                          (m / 2) * n + n - 1};
    long i = 0;
    for (; i < nidx && i < (long)(sizeof fixed / sizeof fixed[0]); i++)
        idx[i] = fixed[i];
    const uint64_t s = seed ^ 0x5eed;
    for (long j = 0; i < nidx; i++, j++)   /* the j-th output of a splitmix64 stream from s */
        idx[i] = (long)(gp_splitmix64(s + j * 0x9e3779b97f4a7c15ULL) % (uint64_t)(m * n));
}

void verify_compare(const float *c, long n_total, const double *ref, const long *idx, long nidx,
                    struct verify_stats *st)
{
    double diff2 = 0.0, ref2 = 0.0, maxabs = 0.0;
    long bad = 0, count = idx ? nidx : n_total;
    for (long s = 0; s < count; s++) {
        const float v = c[idx ? idx[s] : s];
        if (!isfinite(v)) {
            bad++;
            continue;
        }
        const double d = fabs((double)v - ref[s]);
        diff2 += d * d;
        ref2 += ref[s] * ref[s];
        if (d > maxabs)
            maxabs = d;
    }
    st->n_checked = count;
    st->n_nonfinite = bad;
    st->max_abs_err = bad ? INFINITY : maxabs;
    if (bad)
        st->rel_err = INFINITY;
    else if (ref2 > 0)
        st->rel_err = sqrt(diff2 / ref2);
    else
        st->rel_err = diff2 > 0 ? INFINITY : 0.0;
}

double verify_rel_diff(const float *c, const float *ref, long count)
{
    double diff2 = 0.0, ref2 = 0.0;
    for (long i = 0; i < count; i++) {
        if (!isfinite(c[i]) || !isfinite(ref[i]))
            return INFINITY;
        const double d = (double)c[i] - (double)ref[i];
        diff2 += d * d;
        ref2 += (double)ref[i] * ref[i];
    }
    return ref2 > 0 ? sqrt(diff2 / ref2) : (diff2 > 0 ? INFINITY : 0.0);
}

long verify_count_nonfinite(const float *c, long count)
{
    long bad = 0;
#pragma omp parallel for reduction(+ : bad)
    for (long i = 0; i < count; i++)
        bad += !isfinite(c[i]);
    return bad;
}

#include "analysis/verify.h"

#include <math.h>
#include <stdint.h>

double verify_tolerance(enum gp_precision p, double factor, long k)
{
    const double u32 = ldexp(1.0, -24);
    const double u_in = p == GP_TF32 ? ldexp(1.0, -11) : u32;
    return factor * u_in + 4.0 * u32 * sqrt((double)(k > 1 ? k : 1));
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

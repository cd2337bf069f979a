/* The SIMT kernel of kernels/simt_gemm.cuh run on the host, so that its index math (copy
 * mappings, the A swizzle, predicates, split-K slices, the epilogue) is checked without a
 * GPU: one OS thread per CUDA thread, a std::barrier for __syncthreads, cp.async as an
 * immediate copy (zero-fill when the source is off the matrix) that checks its shared and
 * global addresses and alignment, shared memory poisoned with NaN before each block. What
 * it cannot see: timing (the copies land at once), bank conflicts, real races between
 * asynchronous copies and reads (compute-sanitizer racecheck on a GPU:
 * tests/gpu/simt_probe.sh). Every configuration of kernels/simt_configs.def (k-major and
 * transposed A) and swizzle's, 4-byte and 16-byte paths, with and without split-K, at ragged shapes. */
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "tests/test.h"

/* ---- what the kernel body needs from CUDA, on the host ---- */
struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
struct float4 {
    float x, y, z, w;
};
static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
thread_local dim3 blockIdx, threadIdx;
static dim3 gridDim;
static std::barrier<> *block_barrier;
static inline void __syncthreads() { block_barrier->arrive_and_wait(); }
static inline void __threadfence() {}
static inline float __ldcg(const float *p) { return *p; }
static inline void __stcg(float *p, float v) { *p = v; }
using std::min;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__
/* one block at a time: the kernel's `extern __shared__ float4 simt_smem[]` is this */
alignas(16) float4 simt_smem[65536];

/* where copies may read and write, for the block being run */
static size_t smem_floats;
static const float *a_lo, *a_hi, *b_lo, *b_hi;

/* A bad address is a failed check, then the end: the kernel would have faulted. */
static void must(bool ok, const char *what)
{
    if (!ok) {
        printf("FAIL - %s\n", what);
        fflush(stdout);
        abort();
    }
}

static void check_copy(float *dst, const float *src, int floats, bool src_ok)
{
    const float *base = reinterpret_cast<float *>(simt_smem);
    must(dst >= base && dst + floats <= base + smem_floats, "cp.async writes inside the stage buffers");
    must(floats == 1 || ((uintptr_t)dst & 15) == 0, "16-byte cp.async to a 16-byte aligned shared address");
    if (!src_ok)
        return;
    must((src >= a_lo && src + floats <= a_hi) || (src >= b_lo && src + floats <= b_hi), "cp.async reads inside A or B");
    must(floats == 1 || ((uintptr_t)src & 15) == 0, "16-byte cp.async from a 16-byte aligned global address");
}

/* cp.async at once: the copy lands when issued, zeros when the source is off the matrix */
static inline void cp_async4(float *dst, const float *src, bool ok)
{
    check_copy(dst, src, 1, ok);
    *dst = ok ? *src : 0.f;
}
static inline void cp_async16(float *dst, const float *src, bool ok)
{
    check_copy(dst, src, 4, ok);
    for (int i = 0; i < 4; i++)
        dst[i] = ok ? src[i] : 0.f;
}
static inline void cp_async_commit() {}
template <int N> static inline void cp_async_wait() {}
/* stream-K's flags: blocks run one at a time in order (run_streamk), so the block that
 * waits must find its tile's first k already published by the block before it */
static inline unsigned atomicInc(unsigned *p, unsigned wrap)
{
    const unsigned old = *p;
    *p = old >= wrap ? 0 : old + 1;
    return old;
}
static inline void flag_publish(int *flag, int value) { *flag = value; }
static inline void flag_wait(const int *flag, int value)
{
    must(*flag == value, "stream-K: the cut tile's later part is published (this launch's epoch) before it is added");
}

#include "kernels/pipeline.cuh"
#include "kernels/simt_gemm.cuh"

/* A (m x k) and B (k x n) uniform in [-0.5, 0.5), from `seed` */
static void random_operands(int m, int n, int k, unsigned seed, std::vector<float> &a, std::vector<float> &b)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
    a.resize((size_t)m * k);
    b.resize((size_t)k * n);
    for (auto &x : a)
        x = uniform(rng);
    for (auto &x : b)
        x = uniform(rng);
}

/* One block (bx, z) of a launch, its threads as threads. */
template <class P, class Kernel> static void run_block(unsigned bx, unsigned z, Kernel kernel)
{
    smem_floats = P::SMEM / 4;
    /* a read of shared memory no copy wrote comes out NaN */
    std::fill((float *)simt_smem, (float *)simt_smem + smem_floats, NAN);
    std::barrier<> bar(P::NT);
    block_barrier = &bar;
    std::vector<std::thread> threads;
    for (int t = 0; t < P::NT; t++)
        threads.emplace_back([=] {
            blockIdx = {bx, z, 1};
            threadIdx = {(unsigned)t, 0, 0};
            kernel();
        });
    for (auto &t : threads)
        t.join();
}

/* The grid of one launch, block by block. */
template <class P, bool VEC>
static void run(int m, int n, int k, int k_slice, int split, const float *a, const float *b, float *c)
{
    const unsigned tiles = ((m + P::BM - 1) / P::BM) * ((n + P::BN - 1) / P::BN);
    gridDim = {tiles, (unsigned)split, 1};
    for (unsigned z = 0; z < (unsigned)split; z++)
        for (unsigned bx = 0; bx < tiles; bx++)
            run_block<P>(bx, z, [=] { gemm_simt_kernel<P, VEC>(m, n, k, k_slice, a, b, c); });
}

/* A stream-K launch: dp_tiles whole-tile items then sk_blocks stream-K items, blocks one at
 * a time in order (see flag_wait). The item counter must come back to 0. */
template <class P, bool VEC>
static void run_streamk(int m, int n, int k, int dp_tiles, int sk_blocks, const float *a, const float *b, float *c,
                        float *partials, int *flags, int epoch)
{
    const int grid = dp_tiles + sk_blocks;
    unsigned counter = 0;
    gridDim = {(unsigned)grid, 1, 1};
    for (int bx = 0; bx < grid; bx++)
        run_block<P>((unsigned)bx, 0, [=, &counter] {
            gemm_simt_streamk_kernel<P, VEC>(m, n, k, a, b, c, partials, flags, &counter, epoch, dp_tiles,
                                             sk_blocks);
        });
    must(counter == 0, "stream-K: the item counter wraps to 0 after the launch's last block");
}

/* The stream-K split with `sk_blocks` stream-K items after the whole tiles (the launcher's
 * rule: resident blocks, when the tiles leave a partial last wave), twice: the second
 * launch finds the first one's flags and must wait for its own epoch. */
template <class P>
static void check_streamk(int m, int n, int k, int resident, bool vec)
{
    std::vector<float> a, b;
    random_operands(m, n, k, m * 17 + n * 5 + k + resident, a, b);
    a_lo = a.data(), a_hi = a.data() + a.size(), b_lo = b.data(), b_hi = b.data() + b.size();
    const long slices = (k + P::BK - 1) / P::BK;
    const long tiles = (long)((m + P::BM - 1) / P::BM) * ((n + P::BN - 1) / P::BN);
    const long tail = tiles % resident;
    const int sk_blocks = tiles > resident && tail ? resident : 0;
    const int dp_tiles = (int)(sk_blocks ? tiles - tail - resident : tiles);
    const size_t per_block = (size_t)P::WMITER * P::TM * P::RN * P::NT;
    std::vector<float> partials((sk_blocks ? sk_blocks : 1) * per_block, NAN);
    std::vector<int> flags(sk_blocks ? sk_blocks : 1, 0);
    std::vector<float> c((size_t)m * n), first;
    for (int epoch = 1; epoch <= 2; epoch++) {
        std::fill(c.begin(), c.end(), NAN); /* unwritten stays NaN */
        if (vec)
            run_streamk<P, true>(m, n, k, dp_tiles, sk_blocks, a.data(), b.data(), c.data(), partials.data(),
                                 flags.data(), epoch);
        else
            run_streamk<P, false>(m, n, k, dp_tiles, sk_blocks, a.data(), b.data(), c.data(), partials.data(),
                                  flags.data(), epoch);
        if (epoch == 1)
            first = c;
    }
    double err = 0, ref2 = 0;
    long unwritten = 0, differ = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0;
            for (int kk = 0; kk < k; kk++)
                ref += (double)a[(size_t)i * k + kk] * b[(size_t)kk * n + j];
            const float got = c[(size_t)i * n + j];
            unwritten += !std::isfinite(got);
            differ += got != first[(size_t)i * n + j];
            err += (got - ref) * (got - ref);
            ref2 += ref * ref;
        }
    const double rel = std::sqrt(err / (ref2 + 1e-300));
    CHECK(unwritten == 0 && differ == 0 && rel < 1e-5,
          "stream-K %dx%dx%d on %dx%dx%d tiles, %ld tiles x %ld slices, %d resident: %d whole + %d stream-K items, "
          "%s copies: relative error %.2e, %ld unwritten, %ld differ between two launches", m, n, k, P::BM, P::BN,
          P::BK, tiles, slices, resident, dp_tiles, sk_blocks, vec ? "16-byte" : "4-byte", rel, unwritten, differ);
}

/* m x n x k in about split_req slices, against a double-precision product; the slices'
 * partial products summed here as simt_auto's second pass would. */
template <class P>
static void check(int m, int n, int k, int split_req, bool vec)
{
    if (vec && P::A_KMAJOR && k % 4 != 0) /* 16-byte A copies need k % 4 == 0 (simt_vec_ok) */
        return;
    std::vector<float> a, b;
    random_operands(m, n, k, m * 131 + n * 7 + k, a, b);
    const int k_slice = ((k + split_req - 1) / split_req + P::BK - 1) / P::BK * P::BK;
    const int split = (k + k_slice - 1) / k_slice;
    std::vector<float> ws((size_t)split * m * n, NAN);   /* unwritten stays NaN */
    a_lo = a.data(), a_hi = a.data() + a.size(), b_lo = b.data(), b_hi = b.data() + b.size();
    if (vec)
        run<P, true>(m, n, k, k_slice, split, a.data(), b.data(), ws.data());
    else
        run<P, false>(m, n, k, k_slice, split, a.data(), b.data(), ws.data());
    double err = 0, ref2 = 0;
    long unwritten = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0, got = 0;
            for (int kk = 0; kk < k; kk++)
                ref += (double)a[(size_t)i * k + kk] * b[(size_t)kk * n + j];
            for (int z = 0; z < split; z++)
                got += ws[(size_t)z * m * n + (size_t)i * n + j];
            unwritten += !std::isfinite(got);
            err += (got - ref) * (got - ref);
            ref2 += ref * ref;
        }
    const double rel = std::sqrt(err / (ref2 + 1e-300));
    CHECK(unwritten == 0 && rel < 1e-5, "%dx%dx%d on %dx%dx%d tiles (A %s), %d threads, %s copies, split %d (slice %d): "
          "relative error %.2e, %ld unwritten", m, n, k, P::BM, P::BN, P::BK, P::A_KMAJOR ? "k-major" : "transposed",
          P::NT, vec ? "16-byte" : "4-byte",
          split, k_slice, rel, unwritten);
}

/* every row of the table (both A layouts; dbuf's and bigtile's rows among them), and
 * swizzle's tiles (kernels/07_swizzle.cu) */
static void all_configs(int m, int n, int k, int split, bool vec)
{
#define SIMT_CONFIG(name, ...) check<simt_cfg_##name>(m, n, k, split, vec);
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG
    check<simt_tile<128, 128, 16, 64, 64, 4, 3, 2, true>>(m, n, k, split, vec);
}

int main()
{
    all_configs(1, 1, 1, 1, false);
    all_configs(130, 129, 17, 1, false);
    all_configs(33, 65, 200, 3, false);
    all_configs(132, 68, 300, 4, true);
    all_configs(260, 264, 100, 1, true);
    all_configs(600, 130, 20, 1, false); /* more tile rows than a group of 8, the last group short */
    all_configs(130, 132, 77, 2, true);  /* transposed A: 16-byte B copies with an odd k, split-K */
    all_configs(70, 260, 8, 1, true);    /* a K of one BK=8 slice: no barrier inside the loop */
    /* stream-K (the streamk variant), as if `resident` blocks fit at once. 9 tiles x 7
     * slices: 4 resident (4 whole tiles, then 5 over 4 items: cuts), 5 (no whole tile, 9
     * over 5), 2 (6 whole, 3 over 2), 3 and 9 (whole waves: no stream-K); a K of one slice;
     * 4-byte copies at an odd n; a small tile, 12 tiles x 19 slices over 7 and 5 items */
    check_streamk<simt_cfg_t128x256k32s4>(260, 520, 200, 4, true);
    check_streamk<simt_cfg_t128x256k32s4>(260, 520, 200, 5, true);
    check_streamk<simt_cfg_t128x256k32s4>(260, 520, 200, 2, true);
    check_streamk<simt_cfg_t128x256k32s4>(260, 520, 200, 3, true);
    check_streamk<simt_cfg_t128x256k32s4>(260, 520, 200, 9, true);
    check_streamk<simt_cfg_t128x256k32s4>(260, 520, 32, 4, true);
    check_streamk<simt_cfg_t128x256k32s4>(390, 259, 77, 5, false);
    check_streamk<simt_cfg_t64x64>(200, 152, 300, 7, true);
    check_streamk<simt_cfg_t64x64>(200, 152, 300, 5, true);
    TEST_EXIT();
}

/* The SIMT kernel of kernels/simt_gemm.cuh run on the host, so that its index math (copy
 * mappings, the A swizzle, predicates, split-K slices, the epilogue) is checked without a
 * GPU: one OS thread per CUDA thread, a std::barrier for __syncthreads, cp.async as an
 * immediate copy (zero-fill when the source is off the matrix) that checks its shared and
 * global addresses and alignment, shared memory poisoned with NaN before each block. What
 * it cannot see: timing (the copies land at once), bank conflicts, real races between
 * asynchronous copies and reads (compute-sanitizer racecheck on a GPU:
 * tools/lab/simt_probe.sh). Every configuration of kernels/simt_configs.def (k-major and
 * transposed A) and swizzle's, 4-byte and 16-byte paths, with and without split-K, at ragged shapes;
 * and the few-columns kernel (kernels/simt_skinny.cuh), its shuffles through a barrier per warp,
 * and the few-rows kernel (kernels/simt_short.cuh). */
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
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
static inline float __fadd_rn(float a, float b) { return a + b; }
thread_local dim3 blockIdx, threadIdx;
static std::barrier<> *block_barrier;
static inline void __syncthreads() { block_barrier->arrive_and_wait(); }
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
/* copies by the predicate-free path (interior threads, slices inside K), counted so that a
 * test can see the path is taken at all */
static std::atomic<long> copies_in;
static inline void cp_async4_in(float *dst, const float *src) { copies_in++; cp_async4(dst, src, true); }
static inline void cp_async16_in(float *dst, const float *src) { copies_in++; cp_async16(dst, src, true); }
static inline void cp_async_commit() {}
template <int N> static inline void cp_async_wait() {}

/* read-only loads (the few-columns and few-rows kernels'): inside A or B, float4 ones
 * 16-byte aligned */
static inline float __ldg(const float *p)
{
    must((p >= a_lo && p < a_hi) || (p >= b_lo && p < b_hi), "__ldg reads inside A or B");
    return *p;
}
static inline float4 __ldg(const float4 *p)
{
    const float *f = reinterpret_cast<const float *>(p);
    must(((f >= a_lo && f + 4 <= a_hi) || (f >= b_lo && f + 4 <= b_hi)) && ((uintptr_t)f & 15) == 0,
         "16-byte __ldg inside A or B, aligned");
    return *p;
}
/* __shfl_xor_sync: each lane posts its value, the warp meets, each reads its partner's, the
 * warp meets again before the slots are reused; a warp's 32 threads share one barrier */
static std::barrier<> *warp_barrier[32];
static float shfl_slot[1024];
static inline float __shfl_xor_sync(unsigned mask, float v, int offset)
{
    must(mask == 0xffffffffu, "shuffles over the whole warp");
    const int t = (int)threadIdx.x, w = t / 32;
    shfl_slot[t] = v;
    warp_barrier[w]->arrive_and_wait();
    const float got = shfl_slot[(t & ~31) | ((t & 31) ^ offset)];
    warp_barrier[w]->arrive_and_wait();
    return got;
}

#include "kernels/pipeline.cuh"
#include "kernels/simt_gemm.cuh"
#include "kernels/simt_short.cuh"
#include "kernels/simt_skinny.cuh"
#include "kernels/simt_streamk.cuh"

/* blocks 0..count-1 of NT threads each, one at a time, each thread running body(block,
 * thread) with blockIdx and threadIdx set; shared memory poisoned before each block, so a
 * read of shared memory no copy wrote comes out NaN */
template <int NT, class Body> static void run_blocks(unsigned count, unsigned grid_y, Body body)
{
    for (unsigned z = 0; z < grid_y; z++)
        for (unsigned bx = 0; bx < count; bx++) {
            std::fill((float *)simt_smem, (float *)simt_smem + smem_floats, NAN);
            std::barrier<> bar(NT);
            block_barrier = &bar;
            std::vector<std::thread> threads;
            for (int t = 0; t < NT; t++)
                threads.emplace_back([=] {
                    blockIdx = {bx, z, 1};
                    threadIdx = {(unsigned)t, 0, 0};
                    body();
                });
            for (auto &t : threads)
                t.join();
        }
}

/* The grid of one launch, block by block, each block's threads as threads. */
template <class P, bool VEC, bool VEC_C>
static void run(int m, int n, int k, int k_slice, int split, const float *a, const float *b, int ldb, float *c)
{
    smem_floats = P::SMEM / 4;
    const unsigned tiles = ((m + P::BM - 1) / P::BM) * ((n + P::BN - 1) / P::BN);
    run_blocks<P::NT>(tiles, (unsigned)split,
                      [=] { gemm_simt_kernel<P, VEC, VEC_C>(m, n, k, k_slice, a, b, ldb, c, 0); });
}

/* A stream-K plan: its `blocks` blocks of `iters` slices, then the fixup's block per tile. */
template <class P, bool VEC, bool VEC_C>
static void run_streamk(int m, int n, int k, int iters, int blocks, const float *a, const float *b, int ldb,
                        float *c, float *ws)
{
    smem_floats = P::SMEM / 4;
    const unsigned tiles = ((m + P::BM - 1) / P::BM) * ((n + P::BN - 1) / P::BN);
    run_blocks<P::NT>((unsigned)blocks, 1,
                      [=] { gemm_simt_streamk_kernel<P, VEC, VEC_C>(m, n, k, iters, a, b, ldb, c, ws, 0); });
    run_blocks<P::NT>(tiles, 1, [=] { gemm_simt_streamk_fixup<P, VEC_C>(m, n, k, iters, ws, c); });
}

/* The few-columns kernel: `split` slices of k_slice into out, its warps' barriers set up */
template <int NMAX, int ROWS, int USTEP>
static void run_skinny(int m, int n, int k, int k_slice, int split, const float *a, const float *b, float *out)
{
    constexpr int NT = SIMT_SKINNY_WARPS * 32;
    smem_floats = NMAX * (size_t)(k_slice + SIMT_SKINNY_PAD);
    std::vector<std::unique_ptr<std::barrier<>>> warps;
    for (int w = 0; w < SIMT_SKINNY_WARPS; w++)
        warps.emplace_back(new std::barrier<>(32)), warp_barrier[w] = warps.back().get();
    const unsigned rows = (unsigned)((m + SIMT_SKINNY_WARPS * ROWS - 1) / (SIMT_SKINNY_WARPS * ROWS));
    run_blocks<NT>(rows, (unsigned)split,
                   [=] { gemm_simt_skinny_kernel<NMAX, ROWS, USTEP>(m, n, k, k_slice, a, b, out); });
}

/* The few-rows kernel: `split` slices of k_slice into out (its shared memory as the launcher
 * sizes it) */
template <int MMAX, int CV, int USTEP>
static void run_short(int m, int n, int k, int k_slice, int split, const float *a, const float *b, float *out)
{
    constexpr int NT = SIMT_SHORT_WARPS * 32;
    smem_floats = std::max((size_t)MMAX * (k_slice + SIMT_SHORT_PAD), (size_t)SIMT_SHORT_WARPS * 4 * 32 * CV);
    const unsigned cols = (unsigned)((n + 32 * CV - 1) / (32 * CV));
    run_blocks<NT>(cols, (unsigned)split, [=] { gemm_simt_short_kernel<MMAX, CV, USTEP>(m, n, k, k_slice, a, b, out); });
}

/* The launcher's paths: 4-byte copies and scalar stores; 16-byte copies and float4
 * stores; 16-byte copies of B padded to rows of ldb = n rounded up to 4 (simt_auto's padB
 * plans), scalar stores into C's rows of n. */
enum path { PATH_4B, PATH_VEC, PATH_PADDED };

/* Random A (m x k) and B (k x n), and B as the kernel reads it: rows of ldb floats (n, or
 * n rounded up to 4 on the padded path, the padding NaN: pad_rows zeroes it, so a NaN in C
 * would show that a padding column reached it); the copies' bounds set to them. */
struct operands {
    int ldb;
    std::vector<float> a, b, b_read;
};

static operands make_operands(int m, int n, int k, unsigned seed, enum path path)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
    operands o;
    o.ldb = path == PATH_PADDED ? (n + 3) / 4 * 4 : n;
    o.a.resize((size_t)m * k);
    o.b.resize((size_t)k * n);
    for (auto &x : o.a)
        x = uniform(rng);
    for (auto &x : o.b)
        x = uniform(rng);
    o.b_read.assign((size_t)k * o.ldb, NAN);
    for (int kk = 0; kk < k; kk++)
        std::copy(o.b.begin() + (size_t)kk * n, o.b.begin() + (size_t)(kk + 1) * n, o.b_read.begin() + (size_t)kk * o.ldb);
    a_lo = o.a.data(), a_hi = o.a.data() + o.a.size(), b_lo = o.b_read.data(), b_hi = o.b_read.data() + o.b_read.size();
    return o;
}

/* got(i, j) against the double-precision product: the relative error over C, and how many
 * outputs are not finite (left unwritten, or reached by a NaN) */
template <class Got>
static double rel_error(const operands &o, int m, int n, int k, Got got, long *unwritten)
{
    double err = 0, ref2 = 0;
    *unwritten = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0;
            for (int kk = 0; kk < k; kk++)
                ref += (double)o.a[(size_t)i * k + kk] * o.b[(size_t)kk * n + j];
            const double g = got(i, j);
            *unwritten += !std::isfinite(g);
            err += (g - ref) * (g - ref);
            ref2 += ref * ref;
        }
    return std::sqrt(err / (ref2 + 1e-300));
}

/* The same of split partial products: slice z's m x n at ws[z * m * n], summed as simt_auto's
 * second pass would */
static double split_rel_error(const operands &o, int m, int n, int k, const std::vector<float> &ws, int split,
                              long *unwritten)
{
    return rel_error(o, m, n, k, [&](int i, int j) {
        double got = 0;
        for (int z = 0; z < split; z++)
            got += ws[(size_t)z * m * n + (size_t)i * n + j];
        return got;
    }, unwritten);
}

static const char *path_name(enum path path)
{
    return path == PATH_PADDED ? "16-byte (B padded)" : path == PATH_VEC ? "16-byte" : "4-byte";
}

/* m x n x k in about split_req slices; the slices' partial products summed here as
 * simt_auto's second pass would. */
template <class P>
static void check(int m, int n, int k, int split_req, enum path path)
{
    if (path != PATH_4B && P::A_KMAJOR && k % 4 != 0) /* 16-byte A copies need k % 4 == 0 (simt_vec_ok) */
        return;
    const operands o = make_operands(m, n, k, m * 131 + n * 7 + k, path);
    const int k_slice = ((k + split_req - 1) / split_req + P::BK - 1) / P::BK * P::BK;
    const int split = (k + k_slice - 1) / k_slice;
    std::vector<float> ws((size_t)split * m * n, NAN);   /* unwritten stays NaN */
    const float *a = o.a.data(), *b = o.b_read.data();
    if (path == PATH_VEC)
        run<P, true, true>(m, n, k, k_slice, split, a, b, o.ldb, ws.data());
    else if (path == PATH_PADDED)
        run<P, true, false>(m, n, k, k_slice, split, a, b, o.ldb, ws.data());
    else
        run<P, false, false>(m, n, k, k_slice, split, a, b, o.ldb, ws.data());
    long unwritten;
    const double rel = split_rel_error(o, m, n, k, ws, split, &unwritten);
    CHECK(unwritten == 0 && rel < 1e-5, "%dx%dx%d on %dx%dx%d tiles (A %s), %d threads, %s copies, split %d (slice %d): "
          "relative error %.2e, %ld unwritten", m, n, k, P::BM, P::BN, P::BK, P::A_KMAJOR ? "k-major" : "transposed",
          P::NT, path_name(path), split, k_slice, rel, unwritten);
}

/* m x n x k as a stream-K plan of `blocks` blocks (each ceil(slices / blocks) slices; the
 * grid then has as many blocks as that needs) into a C poisoned with NaN, the workspace
 * too: an output no segment wrote, or a slot the fixup read unwritten, comes out NaN. */
template <class P>
static void check_streamk(int m, int n, int k, int blocks_req, enum path path)
{
    const operands o = make_operands(m, n, k, m * 17 + n * 5 + k * 3 + blocks_req, path);
    const int kt = (k + P::BK - 1) / P::BK;
    const int tiles = ((m + P::BM - 1) / P::BM) * ((n + P::BN - 1) / P::BN);
    const int iters = (tiles * kt + blocks_req - 1) / blocks_req;
    const int blocks = (tiles * kt + iters - 1) / iters;
    std::vector<float> c((size_t)m * n, NAN), ws((size_t)blocks * 2 * P::BM * P::BN, NAN);
    const float *a = o.a.data(), *b = o.b_read.data();
    if (path == PATH_VEC)
        run_streamk<P, true, true>(m, n, k, iters, blocks, a, b, o.ldb, c.data(), ws.data());
    else if (path == PATH_PADDED)
        run_streamk<P, true, false>(m, n, k, iters, blocks, a, b, o.ldb, c.data(), ws.data());
    else
        run_streamk<P, false, false>(m, n, k, iters, blocks, a, b, o.ldb, c.data(), ws.data());
    long unwritten;
    const double rel = rel_error(o, m, n, k, [&](int i, int j) { return (double)c[(size_t)i * n + j]; }, &unwritten);
    CHECK(unwritten == 0 && rel < 1e-5, "stream-K %dx%dx%d on %dx%dx%d tiles, %s copies, %d blocks of %d slices "
          "(%d tiles of %d): relative error %.2e, %ld unwritten", m, n, k, P::BM, P::BN, P::BK, path_name(path),
          blocks, iters, tiles, kt, rel, unwritten);
}

/* A streaming kernel (few columns or few rows) in about split_req slices of whole k-steps of
 * `step`: run(ws) fills the split's partials, poisoned with NaN first (an output no block
 * wrote, or a NaN of shared memory that reached one, shows); their relative error, the split
 * and the slice */
template <class Run>
static double streamed_error(const operands &o, int m, int n, int k, int step, int split_req, int *split,
                             int *k_slice, long *unwritten, Run run)
{
    *k_slice = ((k + split_req - 1) / split_req + step - 1) / step * step;
    *split = (k + *k_slice - 1) / *k_slice;
    std::vector<float> ws((size_t)*split * m * n, NAN);
    run(ws.data());
    return split_rel_error(o, m, n, k, ws, *split, unwritten);
}

/* m x n x k on the few-columns form NMAX x ROWS x USTEP in about split_req slices */
template <int NMAX, int ROWS, int USTEP> static void check_skinny(int m, int n, int k, int split_req)
{
    if (n > NMAX)
        return;
    const operands o = make_operands(m, n, k, m * 31 + n * 11 + k * 7 + split_req, PATH_VEC);
    const int step = 128 * USTEP;
    int split, k_slice;
    long unwritten;
    const double rel = streamed_error(o, m, n, k, step, split_req, &split, &k_slice, &unwritten, [&](float *ws) {
        run_skinny<NMAX, ROWS, USTEP>(m, n, k, k_slice, split, o.a.data(), o.b_read.data(), ws);
    });
    CHECK(unwritten == 0 && rel < 1e-5, "few columns %dx%dx%d, form n<=%d, %d rows a warp, k-step %d, split %d (slice "
          "%d): relative error %.2e, %ld unwritten", m, n, k, NMAX, ROWS, step, split, k_slice, rel, unwritten);
}

/* m x n x k on the few-rows form MMAX x CV x USTEP, the same way; B's loads go by CV floats
 * where n allows (PATH_VEC with n % CV == 0), else by 4 bytes */
template <int MMAX, int CV, int USTEP> static void check_short(int m, int n, int k, int split_req)
{
    if (m > MMAX)
        return;
    const operands o = make_operands(m, n, k, m * 29 + n * 13 + k * 5 + split_req, PATH_VEC);
    const int step = 4 * USTEP * SIMT_SHORT_WARPS;
    int split, k_slice;
    long unwritten;
    const double rel = streamed_error(o, m, n, k, step, split_req, &split, &k_slice, &unwritten, [&](float *ws) {
        run_short<MMAX, CV, USTEP>(m, n, k, k_slice, split, o.a.data(), o.b_read.data(), ws);
    });
    CHECK(unwritten == 0 && rel < 1e-5, "few rows %dx%dx%d, form m<=%d, %d columns a lane, block k-step %d, split %d "
          "(slice %d): relative error %.2e, %ld unwritten", m, n, k, MMAX, CV, step, split, k_slice, rel, unwritten);
}

static void all_short(int m, int n, int k, int split)
{
#define SIMT_SHORT(name, mmax, cv, ustep, eff) check_short<mmax, cv, ustep>(m, n, k, split);
#include "kernels/simt_short_forms.def"
#undef SIMT_SHORT
}

/* every form of kernels/simt_skinny_forms.def */
static void all_skinny(int m, int n, int k, int split)
{
#define SIMT_SKINNY(name, nmax, rows, ustep, eff) check_skinny<nmax, rows, ustep>(m, n, k, split);
#include "kernels/simt_skinny_forms.def"
#undef SIMT_SKINNY
}

static void all_streamk(int m, int n, int k, int blocks, enum path path)
{
#define SIMT_STREAMK(name) check_streamk<simt_cfg_##name>(m, n, k, blocks, path);
#include "kernels/simt_streamk_tiles.def"
#undef SIMT_STREAMK
}

/* every row of the table (both A layouts; dbuf's and bigtile's rows among them), and
 * swizzle's tiles (kernels/07_swizzle.cu) */
static void all_configs(int m, int n, int k, int split, enum path path)
{
#define SIMT_CONFIG(name, ...) check<simt_cfg_##name>(m, n, k, split, path);
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG
    check<simt_tile<128, 128, 16, 64, 64, 4, 3, 2, true>>(m, n, k, split, path);
}

int main()
{
    all_configs(1, 1, 1, 1, PATH_4B);
    all_configs(130, 129, 17, 1, PATH_4B);
    all_configs(33, 65, 200, 3, PATH_4B);
    all_configs(132, 68, 300, 4, PATH_VEC);
    all_configs(260, 264, 100, 1, PATH_VEC);
    all_configs(600, 130, 20, 1, PATH_4B); /* more tile rows than a group of 8, the last group short */
    all_configs(130, 132, 77, 2, PATH_VEC);  /* transposed A: 16-byte B copies with an odd k, split-K */
    all_configs(70, 260, 8, 1, PATH_VEC);    /* a K of one BK=8 slice: no barrier inside the loop */
    all_configs(130, 257, 68, 1, PATH_PADDED); /* B's rows padded to 260, C's rows 257 */
    all_configs(67, 131, 100, 3, PATH_PADDED); /* padded and split: partials of rows of 131 */
    all_configs(5, 3, 9, 1, PATH_PADDED);      /* fewer columns than one 16-byte chunk */

    /* stream-K: runs cut inside tiles (a tile over 2-4 blocks), runs of several tiles with
     * cuts (tiles whole and cut in one run), runs of whole tiles only (no fixup), a ragged
     * K whose last slice crosses K's end, one slice per tile, and each copy path */
    all_streamk(200, 260, 100, 7, PATH_VEC);
    all_streamk(130, 129, 37, 5, PATH_4B);
    all_streamk(300, 140, 64, 3, PATH_VEC);
    all_streamk(67, 131, 100, 4, PATH_PADDED);
    all_streamk(129, 260, 16, 3, PATH_VEC);
    all_streamk(1, 1, 1, 1, PATH_4B);
    all_streamk(260, 264, 200, 1, PATH_VEC);

    /* the few-columns kernel: each width class and past it (n 1..32), K % 4 != 0 (the 4-byte
     * loads of A), a last slice that ends inside a k-step, rows past the last warp's, an A
     * whose rows are 16-byte multiples, split and not */
    all_skinny(1, 1, 1, 1);
    all_skinny(67, 5, 300, 1);
    all_skinny(130, 17, 301, 2);
    all_skinny(70, 8, 520, 3);
    all_skinny(33, 32, 1000, 4);
    all_skinny(65, 16, 260, 1);
    all_skinny(9, 12, 129, 1);

    /* the few-rows kernel: each row class and past it (m 1..16), n % 4 != 0 (the 4-byte
     * loads of B) and columns past the last block's, K % 4 != 0 (A's 4-byte loads), a last
     * slice that ends inside a block step, warps with no rows of a short slice, split and not */
    all_short(1, 1, 1, 1);
    all_short(3, 301, 130, 1);
    all_short(7, 260, 1000, 3);
    all_short(16, 128, 515, 2);
    all_short(12, 390, 64, 1);
    all_short(5, 129, 2050, 4);

    /* dbuf's tile takes the predicate-free copies where a whole tile lies inside A and B and
     * a slice inside K (it verified above either way), and never at 1x1x1 */
    copies_in = 0;
    check<simt_cfg_t128x256k32s4>(1, 1, 1, 1, PATH_4B); /* n % 4 != 0: the 4-byte path, as the launcher picks */
    const long at_one = copies_in;
    check<simt_cfg_t128x256k32s4>(260, 264, 100, 1, PATH_VEC);
    CHECK(at_one == 0 && copies_in > 0, "dbuf's tile: predicate-free copies at 260x264x100 (%ld), none at 1x1x1 (%ld)",
          copies_in.load() - at_one, at_one);
    TEST_EXIT();
}

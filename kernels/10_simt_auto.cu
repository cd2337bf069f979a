/* simt_auto: the SIMT kernel with its tile configuration and split of K chosen per shape.
 *
 * Idea: one fixed tile cannot fit every shape. At 1024^3 a 128x128 tile makes 64 blocks
 * for 132 SMs, and at 8192x64x4096 it makes 64 blocks that each walk all of K. The
 * configurations of kernels/simt_configs.def (128x256 down to 32x64 block tiles) are all
 * instantiated from kernels/simt_gemm.cuh; per launch the rule of kernels/simt_plan.h
 * estimates each configuration and split from the wave count and the last wave's fill on
 * this device (SM count and blocks per SM from the runtime, cached) and runs the fastest.
 * Split-K is a serial reduction in a second pass: slice z of K writes its partial product
 * to workspace[z] (m x n floats, the same layout as C), then a reduction kernel adds the
 * slices in order z = 0, 1, ... into C. No atomics, so the result is the same bit for bit
 * from run to run, and C is written exactly once (no clearing before the launch). The
 * workspace is allocated on the first launch that needs it and grown when a later one needs
 * more: after a shape's first (verify) launch, its timed launches allocate nothing. When
 * N % 4 != 0 the rule may copy B first into rows padded to 4 floats (kernels/pad_rows.cuh,
 * timed with the launch) so that the 16-byte copies of B run; the GEMM still stores C's
 * rows of N as they are, with scalar stores ("padB" in the config column). Where the tiles outnumber the grid's
 * slots a split may slice only the tiles past the full waves ("tail88": 88 tiles sliced):
 * the full waves' tile rows run whole in a kernel of their own, straight into C, and the
 * split kernel, a dependent launch that reads only A and B, starts on the SMs they leave.
 * A stream-K plan ("streamk396", kernels/simt_streamk.cuh) runs one wave of persistent
 * blocks that share the k-slices of all tiles equally, so that neither a partial last wave
 * nor a pipeline fill per tile is paid; a second kernel adds the tiles its runs cut.
 * Where n <= 32 the few-columns kernel (kernels/simt_skinny.cuh, "64x8x128 skinny r8 split12")
 * is a candidate too: it streams A once instead of staging it for reuse that n columns do
 * not give, and splits K into the same reduction. Where m <= 32 the few-rows kernel
 * (kernels/simt_short.cuh, "16x128x32 short c4 split8") streams B once the same way.
 * Changed from bigtile: the tile is chosen per shape from the table, plus split-K.
 * Tiles: kernels/simt_configs.def; the row's config column says which ran
 * ("128x256x16 w64x64 t16x8 s4 split1"), and `gemmprof --tune MxNxK` times them all.
 * Shapes: any m, n, k >= 1 (each configuration as bigtile; the reduction is vectorised
 * when m * n % 4 == 0 and C is 16-byte aligned).
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", simt_auto.
 *       ./build/gemmprof -k simt_auto,bigtile,cublas -s 1024,1000x1500x700,8192x64x4096
 */
#include <stdio.h>
#include <string.h>

#include "kernels/gemm.h"
#include "kernels/simt.h"
#include "kernels/pad_rows.cuh"
#include "kernels/plan_cache.cuh"
#include "kernels/simt_gemm.cuh"
#include "kernels/simt_short.cuh"
#include "kernels/simt_skinny.cuh"
#include "kernels/simt_streamk.cuh"
#include "kernels/splitk_reduce.cuh"

typedef cudaError_t (*simt_run_fn)(int m, int n, int k, int k_slice, int split, const float *a,
                                   const float *b, int ldb, float *c, int dep, cudaStream_t stream);

/* Resident blocks per SM of one instantiation of a configuration's GEMM kernel, as
 * launched, and its registers per thread */
template <class P, bool VEC, bool VEC_C> static cudaError_t simt_path_occupancy(int *blocks, int *regs)
{
    struct cudaFuncAttributes fa;
    cudaError_t err = simt_blocks_per_sm<P>(gemm_simt_kernel<P, VEC, VEC_C>, blocks);
    if (err == cudaSuccess)
        err = cudaFuncGetAttributes(&fa, gemm_simt_kernel<P, VEC, VEC_C>);
    if (err == cudaSuccess)
        *regs = fa.numRegs;
    return err;
}

/* The same of its three paths (enum simt_path): a padded or 4-byte plan's grid fills the
 * SMs by its own kernel's occupancy */
template <class P> static cudaError_t simt_occupancy(struct simt_machine *mc, int i)
{
    cudaError_t err = simt_path_occupancy<P, true, true>(&mc->blocks_per_sm[i], &mc->regs[i]);
    if (err == cudaSuccess)
        err = simt_path_occupancy<P, true, false>(&mc->padded_per_sm[i], &mc->padded_regs[i]);
    if (err == cudaSuccess)
        err = simt_path_occupancy<P, false, false>(&mc->narrow_per_sm[i], &mc->narrow_regs[i]);
    return err;
}

/* The same of its stream-K kernel (16-byte path), blocks only */
template <class P> static cudaError_t simt_streamk_occupancy(int *blocks)
{
    return simt_blocks_per_sm<P>(gemm_simt_streamk_kernel<P, true, true>, blocks);
}

/* A streaming form (few columns or few rows) as a row of the table: B's rows as they are
 * (ldb is n), a plain launch of its enqueue function RUN; its occupancy by OCC */
typedef cudaError_t (*simt_stream_run_fn)(int m, int n, int k, int k_slice, int split, const float *a,
                                          const float *b, float *out, cudaStream_t stream);
template <simt_stream_run_fn RUN>
static cudaError_t simt_stream_run_row(int m, int n, int k, int k_slice, int split, const float *a, const float *b,
                                       int ldb, float *c, int dep, cudaStream_t stream)
{
    (void)dep;
    return ldb != n ? cudaErrorInvalidValue : RUN(m, n, k, k_slice, split, a, b, c, stream);
}
template <cudaError_t (*OCC)(int *, int *)> static cudaError_t simt_stream_occupancy_row(struct simt_machine *mc, int i)
{
    return OCC(&mc->blocks_per_sm[i], &mc->regs[i]);
}

/* per row of the table, in its order (the host table kernels/simt_plan.c has the same):
 * the tiles, then the few-columns forms, then the few-rows forms */
static const simt_run_fn simt_runs[] = {
#define SIMT_CONFIG(name, ...) simt_gemm_run_any<simt_cfg_##name, true>,
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG
#define SIMT_SKINNY(name, nmax, rows, ustep, eff) simt_stream_run_row<simt_skinny_run<nmax, rows, ustep>>,
#include "kernels/simt_skinny_forms.def"
#undef SIMT_SKINNY
#define SIMT_SHORT(name, mmax, cv, ustep, eff) simt_stream_run_row<simt_short_run<mmax, cv, ustep>>,
#include "kernels/simt_short_forms.def"
#undef SIMT_SHORT
};
static cudaError_t (*const simt_occupancies[])(struct simt_machine *, int) = {
#define SIMT_CONFIG(name, ...) simt_occupancy<simt_cfg_##name>,
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG
#define SIMT_SKINNY(name, nmax, rows, ustep, eff) simt_stream_occupancy_row<simt_skinny_occupancy<nmax, rows, ustep>>,
#include "kernels/simt_skinny_forms.def"
#undef SIMT_SKINNY
#define SIMT_SHORT(name, mmax, cv, ustep, eff) simt_stream_occupancy_row<simt_short_occupancy<mmax, cv, ustep>>,
#include "kernels/simt_short_forms.def"
#undef SIMT_SHORT
};
static constexpr int simt_nconfigs = (int)(sizeof simt_runs / sizeof simt_runs[0]);

/* The stream-K runners (kernels/simt_streamk_tiles.def), by configuration name */
typedef cudaError_t (*simt_streamk_fn)(int m, int n, int k, int iters, int blocks, const float *a, const float *b,
                                       int ldb, float *c, float *ws, int dep, cudaStream_t stream);
static const struct {
    const char *name;
    simt_streamk_fn run;
    cudaError_t (*occupancy)(int *);
} simt_streamk_runs[] = {
#define SIMT_STREAMK(name) {#name, simt_streamk_run_any<simt_cfg_##name>, simt_streamk_occupancy<simt_cfg_##name>},
#include "kernels/simt_streamk_tiles.def"
#undef SIMT_STREAMK
};

static simt_streamk_fn simt_streamk_runner(int config)
{
    for (const auto &r : simt_streamk_runs)
        if (strcmp(r.name, simt_configs[config].name) == 0)
            return r.run;
    return NULL;
}
static_assert(simt_nconfigs <= SIMT_MAX_CONFIGS, "raise SIMT_MAX_CONFIGS");

extern "C" cudaError_t simt_machine_query(struct simt_machine *mc)
{
    static int cached_device = -1;
    static struct simt_machine cached;
    int dev;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    if (dev != cached_device) {
        struct simt_machine fresh = {};
        err = cudaDeviceGetAttribute(&fresh.sms, cudaDevAttrMultiProcessorCount, dev);
        for (int i = 0; i < simt_nconfigs && err == cudaSuccess; i++)
            err = simt_occupancies[i](&fresh, i);
        for (const auto &r : simt_streamk_runs) {
            const int i = simt_config_find(r.name);
            if (err == cudaSuccess && i >= 0)
                err = r.occupancy(&fresh.streamk_per_sm[i]);
        }
        if (err != cudaSuccess)
            return err;
        cached = fresh;
        cached_device = dev;
    }
    *mc = cached;
    return cudaSuccess;
}

/* The split-K workspace: grown on demand, kept for the process (one device at a time;
 * moving to another device frees the old one's). */
static cudaError_t simt_workspace(size_t bytes, float **out)
{
    static float *ptr;
    static size_t have;
    static int device = -1;
    int dev;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    if (dev != device || bytes > have) {
        /* cudaFree waits for the kernels that may still read the old buffer */
        if (ptr)
            cudaFree(ptr);
        ptr = NULL;
        have = 0;
        device = dev;
        err = cudaMalloc((void **)&ptr, bytes);
        if (err != cudaSuccess) {
            ptr = NULL;
            return err;
        }
        have = bytes;
    }
    *out = ptr;
    return cudaSuccess;
}

/* A peeled plan's strip: the split partials of the last R (<= SIMT_PEEL_MAX) rows of C,
 * out[z][row][n] for slice z = blockIdx.y, a starting at the strip's first row, B's rows
 * ldb floats apart. It is a
 * matrix-vector product, bound by how many loads are in flight and how few instructions
 * each element costs, so it is spread wide: a block of SIMT_STRIP_THREADS takes
 * SIMT_STRIP_COLS columns (a lane per column, a warp's loads one 128-byte line), its
 * warps take every WARPS-th k-row of the slice, SIMT_STRIP_UNROLL rows of loads issued
 * before their FFMAs. Then the warps' sums are added in a fixed order through shared
 * memory (no atomics: the same result every run).
 * It reads neither the GEMM's output nor its rows of partials, so it runs beside the GEMM
 * (a dependent launch, which starts once every GEMM block has: on the SMs the GEMM's
 * blocks leave) and waits for the GEMM only at its end: the reduction after it waits for
 * this kernel alone, and so, through it, for the GEMM. Where B is the padded copy
 * (wait_first), it waits first: that copy's kernel is the GEMM's to wait for. */
template <int R>
static __global__ void __launch_bounds__(SIMT_STRIP_THREADS)
gemm_simt_strip_kernel(int n, int ldb, int k, int k_slice, const float *__restrict__ a,
                       const float *__restrict__ b, float *__restrict__ out, int wait_first)
{
    constexpr int WARPS = SIMT_STRIP_THREADS / 32, COLS = SIMT_STRIP_COLS, U = SIMT_STRIP_UNROLL;
    static_assert(COLS == 32 && R >= 1 && R <= SIMT_PEEL_MAX, "a lane per column, the strip's rows");
    __shared__ float sums[R][WARPS][COLS];
    if (wait_first)
        pdl_wait();
    pdl_trigger();   /* the reduction may launch; it waits for this grid to end */
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int col = blockIdx.x * COLS + lane;
    const bool col_ok = col < n;
    const int k_begin = blockIdx.y * k_slice, k_end = min(k, k_begin + k_slice);
    const float *bp = b + (size_t)(k_begin + warp) * ldb + (col_ok ? col : 0);
    const float *ap = a + k_begin + warp;
    const size_t b_step = (size_t)WARPS * ldb;
    float acc[R] = {};
    int kk = k_begin + warp;
    for (; kk + (U - 1) * WARPS < k_end; kk += U * WARPS) {
        float bv[U], av[U][R];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            bv[u] = __ldg(bp + u * b_step);
#pragma unroll
            for (int r = 0; r < R; ++r)
                av[u][r] = __ldg(ap + (size_t)r * k + u * WARPS);
        }
        bp += U * b_step;
        ap += U * WARPS;
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int r = 0; r < R; ++r)
                acc[r] = fmaf(av[u][r], bv[u], acc[r]);
    }
    for (; kk < k_end; kk += WARPS) {   /* the slice's last rows, fewer than U per warp */
        const float bv = __ldg(bp);
#pragma unroll
        for (int r = 0; r < R; ++r)
            acc[r] = fmaf(__ldg(ap + (size_t)r * k), bv, acc[r]);
        bp += b_step;
        ap += WARPS;
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
        sums[r][warp][lane] = acc[r];
    __syncthreads();
    if (warp < R && col_ok) {
        float s = 0.f;
#pragma unroll 8
        for (int w = 0; w < WARPS; ++w)
            s += sums[warp][w][lane];
        out[(size_t)blockIdx.y * R * n + (size_t)warp * n + col] = s;
    }
    if (!wait_first)
        pdl_wait();  /* the GEMM, before this grid may end */
}

typedef void (*simt_strip_fn)(int, int, int, int, const float *, const float *, float *, int);
/* [rows - 1] */
static const simt_strip_fn simt_strips[SIMT_PEEL_MAX] = {gemm_simt_strip_kernel<1>, gemm_simt_strip_kernel<2>,
                                                         gemm_simt_strip_kernel<3>, gemm_simt_strip_kernel<4>};
static_assert(SIMT_PEEL_MAX == 4, "one strip kernel per row count");

extern "C" cudaError_t simt_plan_launch(const struct simt_plan *p, int m, int n, int k, const float *a,
                                        const float *b, float *c, cudaStream_t stream)
{
    if (p->config < 0 || p->config >= simt_nconfigs || p->split < 1 || p->k_slice < 1)
        return cudaErrorInvalidValue;
    if (p->split == 1 && !p->pad_n && !p->streamk)
        return simt_runs[p->config](m, n, k, p->k_slice, 1, a, b, n, c, SIMT_DEP_NONE, stream);
    if (simt_configs[p->config].form != SIMT_FORM_TILE && (p->pad_n || p->peel_m || p->head_m || p->streamk))
        return cudaErrorInvalidValue; /* the few-columns and few-rows kernels: split plans only, below */
    if (p->pad_n && (p->pad_n < n || p->pad_n % 4 != 0))
        return cudaErrorInvalidValue;
    const int bm = simt_configs[p->config].bm, bk = simt_configs[p->config].bk;
    if (p->head_m && (p->head_m < 0 || p->head_m % bm != 0 || p->head_m >= m || p->split < 2 || p->pad_n))
        return cudaErrorInvalidValue;
    float *ws;
    cudaError_t err = simt_workspace(simt_plan_workspace_bytes(p, m, n, k), &ws);
    if (err != cudaSuccess)
        return err;
    /* a padded plan: B's copy with rows of pad_n floats first (the 16-byte copies read it),
     * the GEMM after it (a dependent launch where its grid fills the slots); unsplit, that is
     * all: it stores C's rows */
    struct simt_machine mc;
    if (p->pad_n && (err = simt_machine_query(&mc)) != cudaSuccess)
        return err;
    const int after_copy = p->pad_n && simt_plan_overlaps_copy(&mc, p) ? SIMT_DEP_WAIT : SIMT_DEP_NONE;
    const int ldb = p->pad_n ? p->pad_n : n;
    const float *b_gemm = p->pad_n ? ws : b;
    float *part = ws + (size_t)k * p->pad_n;
    if (p->pad_n && (err = pad_rows(b, ws, k, n, ldb, stream)) != cudaSuccess)
        return err;
    if (p->streamk) {
        const simt_streamk_fn run = simt_streamk_runner(p->config);
        if (!run || p->split != 1 || p->head_m || p->peel_m || p->blocks < 1)
            return cudaErrorInvalidValue;
        return run(m, n, k, p->streamk, (int)p->blocks, a, b_gemm, ldb, c, ws + (size_t)k * p->pad_n,
                   after_copy, stream);
    }
    if (p->split == 1)
        return simt_runs[p->config](m, n, k, p->k_slice, 1, a, b_gemm, ldb, c, after_copy, stream);
    /* a tail plan: the full waves' tile rows whole, straight into C; the split below runs
     * on the rows after them, a dependent launch that reads only A and B, so its blocks
     * start as the head's leave (the reduction, a plain launch, waits for both) */
    if (p->head_m) {
        err = simt_runs[p->config](p->head_m, n, k, (k + bk - 1) / bk * bk, 1, a, b, n, c, SIMT_DEP_NONE, stream);
        if (err != cudaSuccess)
            return err;
        m -= p->head_m;
        a += (size_t)p->head_m * k;
        c += (size_t)p->head_m * n;
    }
    const int peel = p->peel_m, m0 = m - peel;
    if (peel && (p->split < 2 || peel > SIMT_PEEL_MAX || m0 < 1))
        return cudaErrorInvalidValue;
    /* the GEMM's split x m0 rows of partials, then (a peeled plan) the strip's split x peel */
    err = simt_runs[p->config](m0, n, k, p->k_slice, p->split, a, b_gemm, ldb, part,
                               p->pad_n ? after_copy : p->head_m ? SIMT_DEP_OVERLAP : SIMT_DEP_NONE, stream);
    const size_t strip_at = (size_t)p->split * m0 * n;
    if (err == cudaSuccess && peel) {
        const dim3 grid((unsigned)(simt_strip_blocks(n, p->split) / p->split), (unsigned)p->split);
        err = pdl_launch(true, simt_strips[peel - 1], grid, dim3(SIMT_STRIP_THREADS), 0, stream, n, ldb, k,
                         p->k_slice, a + (size_t)m0 * k, b_gemm, part + strip_at, p->pad_n ? 1 : 0);
    }
    if (err != cudaSuccess)
        return err;
    /* the rule's estimate follows this launch (kernels/simt_plan.c, simt_reduce_cycles) */
    const long gemm_threads = p->blocks * simt_config_threads(&simt_configs[p->config]);
    /* unpeeled: m0 == m, so no item is the strip's */
    const size_t count = (size_t)m * (size_t)n, stride = (size_t)m0 * n, strip_item = (size_t)m0 * n;
    const size_t strip_stride = (size_t)peel * n;
    const bool vec = count % 4 == 0 && simt_aligned16(c) && (!peel || n % 4 == 0);
    /* a dependent launch: it starts while the GEMM drains (kernels/pdl.cuh); after a tail
     * plan's split, whose head may still run, a plain one */
    int wide;
    const unsigned blocks = (unsigned)simt_reduce_launch_blocks(m, n, p->split, gemm_threads, vec, &wide);
    return splitk_reduce_launch(part, c, count, p->split, stride, strip_item, strip_at, strip_stride, vec, wide != 0,
                                blocks, !p->head_m, stream);
}

/* C = A * B (row-major) on `stream` with the plan the rule picks for this shape on this
 * device; any m, n, k >= 1. Returns the first error; never synchronizes (except the
 * workspace's first allocation or growth). */
GEMM_LAUNCHER(simt_auto);
extern "C" cudaError_t gemm_simt_auto_launch(struct gemm_context *ctx, int m, int n, int k,
                                             const float *a, const float *b, float *c,
                                             cudaStream_t stream)
{
    (void)ctx;
    struct simt_plan p;
    const cudaError_t err = plan_cached(m, n, k, &p, simt_machine_query, simt_plan_pick);
    return err != cudaSuccess ? err : simt_plan_launch(&p, m, n, k, a, b, c, stream);
}

/* The plan a launch at m x n x k runs, for the config column; empty if the device cannot
 * be asked. */
extern "C" void gemm_simt_auto_config(int m, int n, int k, char *buf, unsigned long len)
{
    struct simt_plan p;
    if (len)
        buf[0] = '\0';
    if (plan_cached(m, n, k, &p, simt_machine_query, simt_plan_pick) == cudaSuccess)
        simt_plan_describe(&p, buf, len);
}

/* tf32_auto: wgmma_rs's TF32 kernel with its tile and split of K chosen per shape, as
 * simt_auto does for the SIMT kernel.
 *
 * Why: wgmma_rs reaches cuBLAS TF32 where its one tile fills the GPU (2048^3-8192^3,
 * 3000x3000x512) and falls to a third to a half of it elsewhere (H200: results/h200/NOTES.md,
 * "Kernel notes", tf32_auto): 1024^3 makes 32 tiles of 256 x 128 for 132 SMs (60%); at 8192x64x4096 and
 * 64x8192x4096 one operand is 134 MB, the shape is DRAM-bound and wants ~130 blocks
 * streaming it, where wgmma_rs has 32 or 64 and wastes half or three quarters of each tile
 * on the short dimension (50%, 44%); 257x513x4099 makes 10 tiles that each walk all 129
 * k-tiles (33%).
 * Design:
 * - One kernel template for every tile: kernels/sm90_rs.cuh, wgmma_rs's body with the
 *   tile as a parameter (wgmma N = C's m per tile: 256, 128 or 64 through m64nNk8; one or
 *   two consumer warpgroups of 64 of C's n; stages as shared memory allows). wgmma_rs is
 *   its 256 x 128 instantiation without split-K, compiled to the same code as before.
 *   The tiles: kernels/tf32_configs.def.
 * - Split-K in one launch, deterministic: the persistent blocks walk units (tile, slice
 *   of K); every unit stores its partial tile to a workspace, counts itself on the tile's
 *   counter, and the last to arrive adds the slices in order z = 0, 1, ... and stores C
 *   (kernels/sm90_rs.cuh says how, fences included). Against simt_auto's second reduction
 *   kernel this saves a launch and a pass over C: 1024^3 takes cuBLAS 15.7 us in all, and
 *   the partial tiles stay in L2. No unit ever waits for another, so no grid size can
 *   deadlock; the counters are zeroed when allocated and every launch leaves them zero.
 *   Where the tiles outnumber the grid's slots, a split slices only the last, partial
 *   wave (the tail): the full waves run whole tiles first, then the tail's slices fill
 *   the SMs, instead of a wave that leaves most of them idle (3072^3 makes 288 tiles of
 *   256 x 128: two waves of 132 and 24 tiles, which 4 slices spread over 96 SMs).
 * - Clusters (a tile's CLUSTER column): two blocks whose tiles are neighbours in n run as a
 *   cluster and share A's tile, each block's TMA loading half of it and multicasting that
 *   half into both blocks' rings (kernels/sm90_ws.cuh). A stage is free again only once
 *   both blocks' consumers have released it, so each consumer warp arrives on both
 *   blocks' barriers; the blocks start and leave together (cluster barriers). L2 then
 *   delivers A once per pair instead of twice; the rule sees one tile of BM x 2 BN per
 *   cluster and as many clusters as the device holds at once (cudaOccupancyMaxActiveClusters).
 * - The rule (kernels/tf32_plan.h): a wave and fill model per tile as simt_auto's, plus
 *   the operand bytes an SM can bring in and the device's DRAM time, so that a DRAM-bound
 *   shape goes to the plan with enough blocks in flight and the least compute wasted.
 *   `gemmprof --tune MxNxK -k tf32_auto` times every plan with the rule's pick marked and
 *   prints the numbers the table's EFF column takes.
 * Shapes: any m, n, k >= 1, as wgmma_rs (TMA zero-fill, guarded stores). Where k % 4 or
 * n % 4 != 0 TMA cannot address the operand's rows: a plan either copies it onto padded
 * rows first (timed with the kernel) or loads it in the producer warpgroup by cp.async
 * ("directA", "directB", "directAB"; kernels/sm90_ws.cuh). Where k % 8 == 4 a plan may
 * copy A onto whole lines too ("copyA"): A's rows 16 bytes off a sector cost L2 twice.
 * Built for sm_90a only; elsewhere the launcher returns cudaErrorNotSupported.
 *       ./build/gemmprof -k wgmma_rs,tf32_auto,cublas_tf32 -s 1024,8192x64x4096,257x513x4099
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/pdl.cuh"
#include "kernels/plan_cache.cuh"
#include "kernels/sm90_rs.cuh"
#include "kernels/sm90_tf32.cuh"
#include "kernels/sm90_ws.cuh"
#include "kernels/splitk_reduce.cuh"
#include "kernels/tf32_auto.h"

#define TF32_CONFIG(name, bm, consumers, stages, minb, cluster, eff)                                          \
    using tf32_cfg_##name = sm90_ws_tile<bm, consumers, stages, minb, cluster>;                                \
    static_assert(cluster > 1 ||                                                                               \
                      sm90_b_maps_tile<tf32_cfg_##name>::STAGES == TF32_MAPS_B_STAGES(bm, 64 * consumers, stages, minb), \
                  "the rule's stages of B's maps are the kernel's");                                         \
    static_assert(cluster > 1 ||                                                                               \
                      sm90_a_maps_tile<tf32_cfg_##name>::STAGES == TF32_MAPS_A_STAGES(bm, 64 * consumers, stages, minb), \
                  "the rule's stages of A's maps are the kernel's");
#include "kernels/tf32_configs.def"
#undef TF32_CONFIG

/* DIRECT: the operands the producer warpgroup loads itself (a, b: as the caller passed
 * them), the others by TMA through the maps (kernels/sm90_ws.cuh); with SM90_MAPS_B, B
 * through its four row maps (b_rows, b_shifts) and P a tile of B_MAPS. */
template <class P, int DIRECT>
static __global__ void __launch_bounds__(P::NT, P::MIN_BLOCKS)
gemm_tf32_auto_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                      const __grid_constant__ CUtensorMap map_b, float *__restrict__ c, float *ws,
                      unsigned *counters, int split, int kts, int dp, const float *a, const float *b,
                      const __grid_constant__ sm90_row_maps b_rows, unsigned b_shifts,
                      const __grid_constant__ sm90_row_maps a_rows, unsigned a_shifts)
{
#if SM90_TF32_DEVICE
    extern __shared__ uint8_t tf32_auto_smem_raw[];
    pdl_wait();   /* an odd shape: the operands' padded copies */
    sm90_rs_gemm<P, 32, true, DIRECT>(tf32_auto_smem_raw, m, n, k, &map_a, &map_b, c,
                                      sm90_split{ws, counters, split, kts, dp},
                                      sm90_direct{a, b, b_rows.row, b_shifts, a_rows.row, a_shifts});
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c, (void)ws, (void)counters, (void)split, (void)kts,
        (void)dp, (void)a, (void)b, (void)b_rows, (void)b_shifts, (void)a_rows, (void)a_shifts;
#endif
}

/* Resident blocks per SM of one configuration, as launched, its registers and, with
 * clusters, how many clusters the device's `sms` SMs hold at once. */
template <class P> static cudaError_t tf32_occupancy(int sms, int *blocks, int *regs, int *clusters)
{
    cudaError_t err =
        cudaFuncSetAttribute(gemm_tf32_auto_kernel<P, 0>, cudaFuncAttributeMaxDynamicSharedMemorySize, P::SMEM);
    struct cudaFuncAttributes fa;
    if (err == cudaSuccess)
        err = cudaFuncGetAttributes(&fa, gemm_tf32_auto_kernel<P, 0>);
    if (err != cudaSuccess)
        return err;
    *regs = fa.numRegs;
    *clusters = 0;
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, gemm_tf32_auto_kernel<P, 0>, P::NT, P::SMEM);
    if (err != cudaSuccess || P::CLUSTER == 1)
        return err;
    cudaLaunchAttribute attr = pdl_cluster_attr((unsigned)P::CLUSTER);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(sms / P::CLUSTER * P::CLUSTER));
    cfg.blockDim = dim3(P::NT);
    cfg.dynamicSmemBytes = P::SMEM;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return cudaOccupancyMaxActiveClusters(clusters, gemm_tf32_auto_kernel<P, 0>, &cfg);
}

/* One plan of configuration P, DIRECT operands loaded by the kernel itself (SM90_MAPS_B:
 * B by its four row maps, on P's tile with B_MAPS): maps kept per configuration (the A box
 * is BM rows, half of them with clusters of 2). */
template <class P, int DIRECT>
static cudaError_t tf32_run(const struct tf32_plan *p, int m, int n, int k, const float *a, const float *b, float *c,
                            float *ws, unsigned *counters, cudaStream_t stream)
{
    using Q = std::conditional_t<(DIRECT & SM90_MAPS_B) != 0, sm90_b_maps_tile<P>,
                                 std::conditional_t<(DIRECT & SM90_MAPS_A) != 0, sm90_a_maps_tile<P>, P>>;
    static struct sm90_maps maps;
    static bool smem_raised = false;
    maps.b_box_n = 32, maps.b_swizzle128 = true, maps.direct = DIRECT;
    const unsigned grid = (unsigned)p->grid;
    const int split = p->split, kts = p->kts, dp = (int)p->dp_tiles;
    return sm90_tf32_gemm(&maps, &smem_raised, (const void *)gemm_tf32_auto_kernel<Q, DIRECT>, Q::SMEM,
                          Q::A_BOX_ROWS, Q::B_ROWS, m, n, k, a, b, stream, [&](const struct sm90_maps &mp) {
                              /* after the padded copies: a dependent launch (kernels/pdl.cuh) */
                              pdl_launch_clustered(mp.pa != a || mp.pb != b, (unsigned)Q::CLUSTER,
                                                   gemm_tf32_auto_kernel<Q, DIRECT>, dim3(grid * Q::CLUSTER),
                                                   dim3(Q::NT), Q::SMEM, stream, m, n, k, mp.a, mp.b, c, ws,
                                                   counters, split, kts, dp, a, b, mp.b_rows, mp.b_shifts, mp.a_rows,
                                                   mp.a_shifts);
                          },
                          p->copy_a != 0);
}

typedef cudaError_t (*tf32_run_fn)(const struct tf32_plan *, int, int, int, const float *, const float *, float *,
                                   float *, unsigned *, cudaStream_t);

/* per row of the table, in its order (the host table kernels/tf32_plan.c has the same), by
 * the plan's load mask (tf32_plan_load_mask: direct operands, 4 for B's row maps);
 * clustered tiles load both operands by their one map each (NULL otherwise) */
template <class P> struct tf32_runs_of {
    static constexpr tf32_run_fn load(int mask)
    {
        if constexpr (P::CLUSTER > 1)
            return mask == 0 ? tf32_run<P, 0> : nullptr;
        else
            return mask == 0   ? tf32_run<P, 0>
                   : mask == 1 ? tf32_run<P, 1>
                   : mask == 2 ? tf32_run<P, 2>
                   : mask == 3 ? tf32_run<P, 3>
                   : mask == 4 ? tf32_run<P, SM90_MAPS_B>
                   : mask == 8 ? tf32_run<P, SM90_MAPS_A>
                               : nullptr;
    }
};
static const tf32_run_fn tf32_runs[][TF32_LOAD_MASKS] = {
#define TF32_CONFIG(name, ...)                                                                                  \
    {tf32_runs_of<tf32_cfg_##name>::load(0), tf32_runs_of<tf32_cfg_##name>::load(1),                           \
     tf32_runs_of<tf32_cfg_##name>::load(2), tf32_runs_of<tf32_cfg_##name>::load(3),                           \
     tf32_runs_of<tf32_cfg_##name>::load(4), nullptr, nullptr, nullptr, tf32_runs_of<tf32_cfg_##name>::load(8)},
#include "kernels/tf32_configs.def"
#undef TF32_CONFIG
};
static cudaError_t (*const tf32_occupancies[])(int, int *, int *, int *) = {
#define TF32_CONFIG(name, ...) tf32_occupancy<tf32_cfg_##name>,
#include "kernels/tf32_configs.def"
#undef TF32_CONFIG
};
static constexpr int tf32_nconfigs = (int)(sizeof tf32_runs / sizeof tf32_runs[0]);
static_assert(tf32_nconfigs <= TF32_MAX_CONFIGS, "raise TF32_MAX_CONFIGS");

extern "C" cudaError_t tf32_machine_query(struct tf32_machine *mc)
{
    static int cached_device = -1;
    static struct tf32_machine cached;
    cudaError_t err = sm90_check_device(SM90_TF32_BUILT);
    int dev;
    if (err == cudaSuccess)
        err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    if (dev != cached_device) {
        struct tf32_machine fresh = {};
        err = cudaDeviceGetAttribute(&fresh.sms, cudaDevAttrMultiProcessorCount, dev);
        for (int i = 0; i < tf32_nconfigs && err == cudaSuccess; i++)
            err = tf32_occupancies[i](fresh.sms, &fresh.blocks_per_sm[i], &fresh.regs[i], &fresh.cluster_slots[i]);
        if (err != cudaSuccess)
            return err;
        cached = fresh;
        cached_device = dev;
    }
    *mc = cached;
    return cudaSuccess;
}

/* The split-K workspace (partial tiles) and the per-tile counters: grown on demand and
 * kept for the process, one device at a time. Counters are zeroed on the stream when
 * (re)allocated, and every launch leaves them zero. */
static cudaError_t tf32_workspace(size_t ws_bytes, size_t counter_bytes, cudaStream_t stream, float **ws,
                                  unsigned **counters)
{
    static float *ws_ptr;
    static unsigned *cnt_ptr;
    static size_t ws_have, cnt_have;
    static int device = -1;
    int dev;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    if (dev != device || ws_bytes > ws_have || counter_bytes > cnt_have) {
        /* cudaFree waits for the kernels that may still use the old buffers */
        if (ws_ptr)
            cudaFree(ws_ptr);
        if (cnt_ptr)
            cudaFree(cnt_ptr);
        ws_ptr = NULL, cnt_ptr = NULL;
        if (dev != device)
            ws_have = cnt_have = 0;
        device = dev;
        /* never less than before: growing one buffer must not shrink the other */
        ws_bytes = ws_bytes > ws_have ? ws_bytes : ws_have;
        counter_bytes = counter_bytes > cnt_have ? counter_bytes : cnt_have;
        ws_have = cnt_have = 0;
        err = cudaMalloc((void **)&ws_ptr, ws_bytes);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&cnt_ptr, counter_bytes);
        if (err == cudaSuccess)
            err = cudaMemsetAsync(cnt_ptr, 0, counter_bytes, stream);
        if (err != cudaSuccess) {
            cudaFree(ws_ptr);
            cudaFree(cnt_ptr);
            ws_ptr = NULL, cnt_ptr = NULL;
            return err;
        }
        ws_have = ws_bytes, cnt_have = counter_bytes;
    }
    *ws = ws_ptr, *counters = cnt_ptr;
    return cudaSuccess;
}

extern "C" cudaError_t tf32_plan_launch(const struct tf32_plan *p, int m, int n, int k, const float *a,
                                        const float *b, float *c, cudaStream_t stream)
{
    if (p->config < 0 || p->config >= tf32_nconfigs || p->split < 1 || p->kts < 1 || p->grid < 1 ||
        p->dp_tiles < 0 || p->dp_tiles >= p->tiles)
        return cudaErrorInvalidValue;
    cudaError_t err = sm90_check_device(SM90_TF32_BUILT);
    if (err != cudaSuccess)
        return err;
    float *ws = NULL;
    unsigned *counters = NULL;
    if (p->split > 1 &&
        (err = tf32_workspace(tf32_plan_workspace_bytes(p), tf32_plan_counter_bytes(p), stream, &ws, &counters)) !=
            cudaSuccess)
        return err;
    if (p->reduce && (p->split < 2 || p->dp_tiles != 0 || tf32_configs[p->config].cluster != 1))
        return cudaErrorInvalidValue;
    const int mask = tf32_plan_load_mask(p);
    const tf32_run_fn run = mask >= 0 && mask < TF32_LOAD_MASKS ? tf32_runs[p->config][mask] : nullptr;
    if (run == nullptr)
        return cudaErrorInvalidValue;
    if (!p->reduce)
        return run(p, m, n, k, a, b, c, ws, counters, stream);
    /* the slices' partial products into ws, then their sum into C: a dependent launch
     * (kernels/splitk_reduce.cuh, with the grid simt_auto's rule estimates) */
    if ((err = run(p, m, n, k, a, b, c, ws, NULL, stream)) != cudaSuccess)
        return err;
    const size_t count = (size_t)m * (size_t)n;
    const bool vec = count % 4 == 0 && ((uintptr_t)c & 15) == 0;
    const long threads = tf32_plan_launch_threads(p);
    int wide;
    const unsigned blocks = (unsigned)simt_reduce_launch_blocks(m, n, p->split, threads, vec, &wide);
    return splitk_reduce_launch(ws, c, count, p->split, count, count, 0, 0, vec, wide != 0, blocks, true, stream);
}

/* C = A * B (row-major) on `stream` with the plan the rule picks for this shape on this
 * device; any m, n, k >= 1. Returns cudaErrorNotSupported unless built for sm_90a and run
 * on compute capability 9.0, else the first error; never synchronizes (except the
 * workspace's first allocation or growth). */
GEMM_LAUNCHER(tf32_auto);
extern "C" cudaError_t gemm_tf32_auto_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                             const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    struct tf32_plan p;
    const cudaError_t err = plan_cached(m, n, k, &p, tf32_machine_query, tf32_plan_pick);
    return err != cudaSuccess ? err : tf32_plan_launch(&p, m, n, k, a, b, c, stream);
}

/* The plan a launch at m x n x k runs, for the config column; empty if the device cannot
 * run it. */
extern "C" void gemm_tf32_auto_config(int m, int n, int k, char *buf, unsigned long len)
{
    struct tf32_plan p;
    if (len)
        buf[0] = '\0';
    if (plan_cached(m, n, k, &p, tf32_machine_query, tf32_plan_pick) == cudaSuccess)
        tf32_plan_describe(&p, buf, len);
}

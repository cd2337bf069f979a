/* Stream-K for the transposed-A SIMT tiles (kernels/simt_gemm.cuh): a persistent grid in
 * which every block takes the same number of k-slices of the whole GEMM, wherever the tile
 * boundaries fall.
 *
 * Why. A split-K or tiled grid runs in waves of whole blocks: 159 tiles x 8 slices on 396
 * slots is 3.2 waves, so the fourth runs a fifth full; and each block pays its pipeline
 * fill and its epilogue once per tile (the rule's SIMT_FILL_K, 22 k-steps, against 75 in a
 * tile of K = 1200). Here the k-slices of all tiles are laid end to end, tile after tile
 * (tiles in grouped order, each tile's slices in k order), and block b takes the run
 * [b * iters, (b + 1) * iters). Its cp.async pipeline flows across the tile boundaries in
 * its run: the next tile's first slices are in flight while this tile's last ones compute,
 * and the epilogue (C's stores) overlaps them. So the grid is one wave, every SM gets the
 * same work to within a slice, and a block fills its pipeline once.
 *
 * A tile inside one block's run is stored straight into C. A tile that a run boundary cuts
 * is a partial at each block it touches: the first segment of a block's run goes to its
 * workspace slot 0, the last to slot 1 (a run inside one tile: slot 0). The fixup kernel, a
 * dependent launch, adds a cut tile's partials in block order and stores C: no atomics, the
 * same result bit for bit every run, C written once. A slot holds a thread's outputs in its
 * own register order, float4 by float4 across the block's threads (coalesced both ways).
 *
 * The slice loop is the transposed body's (fragments double-buffered, one barrier per
 * slice, see simt_body_transposed); what differs is that the copies' source (the tile's
 * row and column, its predicates) is re-aimed when the copies cross into the next tile, and
 * the epilogue runs inside the loop at the last slice of each segment. The copy loops are
 * written out here as in each body of simt_gemm.cuh, not shared: a shared helper gave the
 * transposed kernels other register allocations and dbuf ran 1.6-2.2% slower there. */
#ifndef GEMMPROF_KERNELS_SIMT_STREAMK_CUH
#define GEMMPROF_KERNELS_SIMT_STREAMK_CUH

#include "kernels/simt_gemm.cuh"

/* Which workspace slot block `blk`'s segment of tile `tile` uses: 0 when the block's run
 * starts inside (or at the start of) the tile, else 1 (the tile is where its run ends). */
static __device__ __forceinline__ int simt_sk_slot(long long blk, long long tile, int iters, int kt)
{
    return blk * iters >= tile * kt ? 0 : 1;
}

/* Float4 q of thread tid's outputs in a slot of BM x BN floats */
template <class P> static __device__ __forceinline__ size_t simt_sk_at(int q, int tid)
{
    return ((size_t)q * P::NT + (size_t)tid) * 4;
}

template <class P, bool VEC, bool VEC_C>
static __device__ __forceinline__ void simt_body_streamk(int m, int n, int k, int iters,
                                                         const float *__restrict__ a,
                                                         const float *__restrict__ b, int ldb,
                                                         float *__restrict__ c, float *__restrict__ ws)
{
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, WM = P::WM, WN = P::WN, NT = P::NT;
    constexpr int TM = P::TM, TN = P::TN, STAGES = P::STAGES, WMITER = P::WMITER;
    constexpr int WSUBM = P::WSUBM, LANES_N = P::LANES_N;
    constexpr int WSUBN = P::WSUBN, WNITER = P::WNITER, LDA = P::LDA;
    constexpr int A_STAGE = P::A_STAGE, B_STAGE = P::B_STAGE;
    constexpr int RM = WMITER * TM, RN = WNITER * TN;
    constexpr int A_KT = 8, A_RP = NT / A_KT;
    constexpr int A_KQ = BK / A_KT, A_PASSES = BM / A_RP;
    constexpr int UNIT = VEC ? 4 : 1;
    constexpr int B_PER_ROW = BN / UNIT, B_ROWS = NT / B_PER_ROW, B_PASSES = BK / B_ROWS;
    static_assert(!P::A_KMAJOR, "stream-K runs the transposed-A tiles");
    static_assert(BK % A_KT == 0 && NT % A_KT == 0 && BM % A_RP == 0, "A copy mapping");
    static_assert(NT % B_PER_ROW == 0 && BK % B_ROWS == 0, "B copy mapping");
    static_assert(RN % 4 == 0 && STAGES >= 2, "float4 slots, pipeline depth");

    extern __shared__ float4 simt_smem[];
    float *const as = reinterpret_cast<float *>(simt_smem);
    float *const bs = as + STAGES * A_STAGE;

    const int kt = (k + BK - 1) / BK; /* slices per tile */
    const int tiles = ((m + BM - 1) / BM) * ((n + BN - 1) / BN);
    const int g_begin = (int)blockIdx.x * iters;
    const int g_end = min(tiles * kt, g_begin + iters);
    const int tid = threadIdx.x;

    /* the copies' side: the next slice to load (tile ld_tile, slice ld_kt of it) and its
     * tile's sources, re-aimed when the copies cross into the next tile */
    const int a_kk = tid % A_KT, a_r = tid / A_KT;
    const int b_c = (tid % B_PER_ROW) * UNIT, b_r = tid / B_PER_ROW;
    const int a_dst = a_kk * LDA + a_r;
    const size_t a_pass = (size_t)A_RP * k;
    int ld_g = g_begin, ld_tile = g_begin / kt, ld_kt = g_begin - ld_tile * kt;
    int a_rows_left;
    bool b_col_ok, copies_inside;
    const float *a_src, *b_src;
    auto aim = [&](int tile) {
        int row0, col0;
        grouped_tile<BM, BN>(tile, m, n, P::GROUP_M, &row0, &col0);
        a_rows_left = m - row0 - a_r;
        a_src = a + (size_t)(a_rows_left > 0 ? row0 + a_r : 0) * k + a_kk;
        b_col_ok = col0 + b_c < n;
        b_src = b + (b_col_ok ? col0 + b_c : 0);
        copies_inside = (A_PASSES - 1) * A_RP < a_rows_left && b_col_ok;
    };
    aim(ld_tile);

    auto load_slice = [&](int stage, int k0, auto full) {
        constexpr bool FULL = decltype(full)::value;
        float *const as_s = as + stage * A_STAGE + a_dst;
        float *const bs_s = bs + stage * B_STAGE;
#pragma unroll
        for (int q = 0; q < A_KQ; ++q) {
            const bool k_ok = FULL || k0 + q * A_KT + a_kk < k;
#pragma unroll
            for (int p = 0; p < A_PASSES; ++p) {
                const bool ok = k_ok && p * A_RP < a_rows_left;
                const float *src = ok ? a_src + p * a_pass + (k0 + q * A_KT) : a;
                cp_async4(as_s + q * A_KT * LDA + p * A_RP, src, ok);
            }
        }
#pragma unroll
        for (int p = 0; p < B_PASSES; ++p) {
            const int kr = b_r + p * B_ROWS;
            const bool ok = b_col_ok && (FULL || k0 + kr < k);
            const float *src = ok ? b_src + (size_t)(k0 + kr) * ldb : b;
            if (VEC)
                cp_async16(bs_s + kr * BN + b_c, src, ok);
            else
                cp_async4(bs_s + kr * BN + b_c, src, ok);
        }
    };
    auto load_inside = [&](int stage, int k0) {
        float *const as_s = as + stage * A_STAGE + a_dst;
        float *const bs_s = bs + stage * B_STAGE;
        const float *const a_k = a_src + k0;
#pragma unroll
        for (int p = 0; p < A_PASSES; ++p) {
            const float *const a_p = a_k + p * a_pass;
#pragma unroll
            for (int q = 0; q < A_KQ; ++q)
                cp_async4_in(as_s + q * A_KT * LDA + p * A_RP, a_p + q * A_KT);
        }
        const float *const b_k = b_src + (size_t)(k0 + b_r) * ldb;
#pragma unroll
        for (int p = 0; p < B_PASSES; ++p) {
            const int kr = b_r + p * B_ROWS;
            if (VEC)
                cp_async16_in(bs_s + kr * BN + b_c, b_k + (size_t)(p * B_ROWS) * ldb);
            else
                cp_async4_in(bs_s + kr * BN + b_c, b_k + (size_t)(p * B_ROWS) * ldb);
        }
    };
    /* the next slice of the run into `stage` (no commit), if the run has one */
    auto load_next = [&](int stage) {
        if (ld_g >= g_end)
            return;
        const int k0 = ld_kt * BK;
        if (k0 + BK <= k) {
            if (copies_inside)
                load_inside(stage, k0);
            else
                load_slice(stage, k0, std::true_type{});
        } else {
            load_slice(stage, k0, std::false_type{});
        }
        ++ld_g;
        if (++ld_kt == kt && ld_g < g_end) {
            ld_kt = 0;
            aim(++ld_tile);
        }
    };

    const int warp = tid / 32, lane = tid % 32;
    const int w_row = warp / (BN / WN), w_col = warp % (BN / WN);
    const int l_row = lane / LANES_N, l_col = lane % LANES_N;
    const int a_off = w_row * WM + l_row * TM;
    const int b_off = w_col * WN + l_col * TN;

    float acc[RM][RN];
#pragma unroll
    for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j)
            acc[i][j] = 0.f;

    /* the compute side: the tile being accumulated and the end of its segment of the run */
    int cp_tile = g_begin / kt, seg_begin = g_begin;
    int seg_end = min(g_end, (cp_tile + 1) * kt);
    /* the epilogue of a segment: C itself for a whole tile, else the block's slot */
    auto finish_segment = [&]() {
        if (seg_begin == cp_tile * kt && seg_end == (cp_tile + 1) * kt) {
            int row0, col0;
            grouped_tile<BM, BN>(cp_tile, m, n, P::GROUP_M, &row0, &col0);
            simt_store<P, VEC_C, simt_unpin<P>>(acc, c, m, n, row0 + a_off, col0 + b_off);
        } else {
            float *const slot = ws + ((size_t)blockIdx.x * 2 + (seg_begin == g_begin ? 0 : 1)) * (BM * BN);
#pragma unroll
            for (int i = 0; i < RM; ++i)
#pragma unroll
                for (int j = 0; j < RN; j += 4)
                    *reinterpret_cast<float4 *>(slot + simt_sk_at<P>((i * RN + j) / 4, tid)) =
                        simt_quad<simt_unpin<P>>(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
        }
#pragma unroll
        for (int i = 0; i < RM; ++i)
#pragma unroll
            for (int j = 0; j < RN; ++j)
                acc[i][j] = 0.f;
        ++cp_tile;
        seg_begin = seg_end;
        seg_end = min(g_end, seg_end + kt);
    };

    float fa[2][RM], fb[2][RN];
    auto load_frag = [&](float(&ra)[RM], float(&rb)[RN], const float *as_s, const float *bs_s, int kk) {
#pragma unroll
        for (int wm = 0; wm < WMITER; ++wm) {
            const float4 v = *reinterpret_cast<const float4 *>(as_s + kk * LDA + wm * WSUBM);
            ra[wm * TM] = v.x, ra[wm * TM + 1] = v.y, ra[wm * TM + 2] = v.z, ra[wm * TM + 3] = v.w;
        }
#pragma unroll
        for (int wn = 0; wn < WNITER; ++wn) {
            const float4 v = *reinterpret_cast<const float4 *>(bs_s + kk * BN + wn * WSUBN);
            rb[wn * TN] = v.x, rb[wn * TN + 1] = v.y, rb[wn * TN + 2] = v.z, rb[wn * TN + 3] = v.w;
        }
    };

    if (g_begin < g_end) {
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            load_next(s);
            cp_async_commit();
        }
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        int rd = 0, wr = STAGES - 1;
        load_frag(fa[0], fb[0], as + a_off, bs + b_off, 0);
        load_next(wr);
        cp_async_commit();
        for (int g = g_begin; g < g_end; ++g) {
            const float *const as_s = as + rd * A_STAGE + a_off;
            const float *const bs_s = bs + rd * B_STAGE + b_off;
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk < BK - 1) {
                    load_frag(fa[(kk + 1) & 1], fb[(kk + 1) & 1], as_s, bs_s, kk + 1);
                } else if (g + 1 < g_end) {
                    /* as the transposed body: slice g+1 has landed, stage rd is free */
                    cp_async_wait<STAGES - 2>();
                    __syncthreads();
                    wr = rd;
                    rd = rd + 1 == STAGES ? 0 : rd + 1;
                    load_frag(fa[0], fb[0], as + rd * A_STAGE + a_off, bs + rd * B_STAGE + b_off, 0);
                    load_next(wr);
                    cp_async_commit();
                }
                const float(&ra)[RM] = fa[kk & 1];
                const float(&rb)[RN] = fb[kk & 1];
#pragma unroll
                for (int i = 0; i < RM; ++i)
#pragma unroll
                    for (int jj = 0; jj < RN; ++jj) {
                        const int j = (i & 1) ? RN - 1 - jj : jj;
                        acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
                    }
            }
            if (g + 1 == seg_end)
                finish_segment();
        }
    }
    cp_async_wait<0>();
}

template <class P, bool VEC, bool VEC_C>
static __global__ void __launch_bounds__(P::NT, P::MIN_BLOCKS)
gemm_simt_streamk_kernel(int m, int n, int k, int iters, const float *__restrict__ a,
                         const float *__restrict__ b, int ldb, float *__restrict__ c, float *__restrict__ ws,
                         int wait)
{
    if (wait)
        pdl_wait();  /* B's padded copy */
    pdl_trigger();   /* the fixup may launch */
    const int b_pitch = VEC && !VEC_C ? ldb : n;
    simt_body_streamk<P, VEC, VEC_C>(m, n, k, iters, a, b, b_pitch, c, ws);
}

/* The tiles a run boundary cuts: block per tile (a whole tile's block returns at once), the
 * GEMM kernel's threads, each adding its own outputs from the slots of the blocks that
 * touched the tile, in block order. */
template <class P, bool VEC_C>
static __global__ void __launch_bounds__(P::NT)
gemm_simt_streamk_fixup(int m, int n, int k, int iters, const float *__restrict__ ws, float *__restrict__ c)
{
    constexpr int RM = P::WMITER * P::TM, RN = P::WNITER * P::TN, BM = P::BM, BN = P::BN;
    pdl_wait();
    const int kt = (k + P::BK - 1) / P::BK, tile = (int)blockIdx.x, tid = threadIdx.x;
    const int first = (int)((long long)tile * kt / iters), last = (int)(((long long)tile * kt + kt - 1) / iters);
    if (first == last)
        return;
    float acc[RM][RN] = {};
    for (int blk = first; blk <= last; ++blk) {
        const float *const slot = ws + ((size_t)blk * 2 + simt_sk_slot(blk, tile, iters, kt)) * (BM * BN);
#pragma unroll
        for (int i = 0; i < RM; ++i)
#pragma unroll
            for (int j = 0; j < RN; j += 4) {
                const float4 v = *reinterpret_cast<const float4 *>(slot + simt_sk_at<P>((i * RN + j) / 4, tid));
                acc[i][j] += v.x, acc[i][j + 1] += v.y, acc[i][j + 2] += v.z, acc[i][j + 3] += v.w;
            }
    }
    const int warp = tid / 32, lane = tid % 32;
    const int a_off = warp / (BN / P::WN) * P::WM + lane / P::LANES_N * P::TM;
    const int b_off = warp % (BN / P::WN) * P::WN + lane % P::LANES_N * P::TN;
    int row0, col0;
    grouped_tile<BM, BN>(tile, m, n, P::GROUP_M, &row0, &col0);
    simt_store<P, VEC_C>(acc, c, m, n, row0 + a_off, col0 + b_off);
}

#ifdef __CUDACC__
/* Enqueues a stream-K plan: `blocks` blocks of `iters` slices each, then the fixup where a
 * run boundary cuts a tile (iters not a multiple of the tiles' slices). ws holds blocks x 2
 * slots of BM x BN floats. */
template <class P, bool VEC, bool VEC_C>
static cudaError_t simt_streamk_run(int m, int n, int k, int iters, int blocks, const float *a, const float *b,
                                    int ldb, float *c, float *ws, int dep, cudaStream_t stream)
{
    cudaError_t err = simt_allow_smem<P>(gemm_simt_streamk_kernel<P, VEC, VEC_C>);
    if (err != cudaSuccess)
        return err;
    err = pdl_launch(dep != SIMT_DEP_NONE, gemm_simt_streamk_kernel<P, VEC, VEC_C>, dim3((unsigned)blocks),
                     dim3(P::NT), P::SMEM, stream, m, n, k, iters, a, b, ldb, c, ws, dep == SIMT_DEP_WAIT ? 1 : 0);
    const int kt = (k + P::BK - 1) / P::BK;
    if (err != cudaSuccess || iters % kt == 0)
        return err;
    const unsigned tiles = (unsigned)((m + P::BM - 1) / P::BM) * (unsigned)((n + P::BN - 1) / P::BN);
    return pdl_launch(true, gemm_simt_streamk_fixup<P, VEC_C>, dim3(tiles), dim3(P::NT), 0, stream, m, n, k, iters,
                      (const float *)ws, c);
}

/* The paths, chosen by the operands as simt_gemm_run_any's (a padded B: ldb > n) */
template <class P>
static cudaError_t simt_streamk_run_any(int m, int n, int k, int iters, int blocks, const float *a,
                                        const float *b, int ldb, float *c, float *ws, int dep,
                                        cudaStream_t stream)
{
    const bool vec = simt_vec_ok<P>(ldb, k, a, b);
    if (ldb != n)
        return vec ? simt_streamk_run<P, true, false>(m, n, k, iters, blocks, a, b, ldb, c, ws, dep, stream)
                   : cudaErrorInvalidValue;
    if (vec && n % 4 == 0 && simt_aligned16(c))
        return simt_streamk_run<P, true, true>(m, n, k, iters, blocks, a, b, ldb, c, ws, dep, stream);
    if (vec)
        return simt_streamk_run<P, true, false>(m, n, k, iters, blocks, a, b, ldb, c, ws, dep, stream);
    return simt_streamk_run<P, false, false>(m, n, k, iters, blocks, a, b, ldb, c, ws, dep, stream);
}
#endif /* __CUDACC__ */

#endif

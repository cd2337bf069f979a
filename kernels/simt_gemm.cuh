/* The templated FP32 SIMT GEMM behind swizzle, bigtile and simt_auto: one kernel body,
 * instantiated per tile configuration (struct simt_tile; the table of them is
 * kernels/simt_configs.def).
 *
 * Layout. A block computes a BM x BN tile of C (or of one split-K partial) in k-slices of
 * BK, STAGES slices in flight through cp.async. Each warp owns a WM x WN warp tile and
 * each lane (WMITER*4) x (WNITER*4) outputs spread over it as 4x4 lane sub-tiles (the
 * warptile layout), so every shared read is an LDS.128. Two layouts of A (P::A_KMAJOR, the
 * table's AK column):
 *  - transposed (simt_body_transposed): As[stage][BK][BM+4], 4-byte copies, register
 *    fragments double-buffered; described at that body;
 *  - k-major (simt_body_kmajor, swizzle and bigtile): As[stage][BM][BK] is k-major, as A is in memory, so A arrives in 16-byte copies
 *    (warptile transposes it with 4-byte copies). A lane reads 4 consecutive k of one row
 *    per LDS.128. The 16-byte chunk q of row r is stored at chunk q ^ ((r / 4) % LANES_M):
 *    the LANES_M rows a warp reads at once (4 apart) then sit in distinct banks, and so
 *    do the rows a warp's copies write.
 *  - Bs[stage][BK][BN] is row-major: a warp's B reads are 8 consecutive float4.
 * Predication: rows and columns outside C are decided once per thread (loop-invariant);
 * the k bound is checked only in a slice that crosses the end of K. Copies outside A/B
 * write zeros (cp.async src-size 0), so any m, n, k >= 1 is computed; stores are guarded.
 * B's rows are ldb floats apart (ldb >= n: simt_auto's padded copy of B; else ldb == n).
 * VEC (16-byte B copies; k-major: 16-byte A copies) needs ldb % 4 == 0 and 16-byte aligned
 * operands (k-major: and k % 4 == 0); VEC_C (float4 stores) n % 4 == 0 and an aligned C.
 * Otherwise the same body runs with 4-byte copies and scalar stores.
 * Split-K: blockIdx.y is the slice index; slice z covers k in [z*k_slice, (z+1)*k_slice)
 * and writes its partial product to c + z*m*n (the caller's workspace).
 * Barriers (k-major body; the transposed one moves it to the last k-step): one per k-slice. cp_async_wait<STAGES-2> leaves only the newer slices in
 * flight, so this thread's copies of slice t have landed; the __syncthreads after it makes
 * every thread's copies of slice t visible, and proves that every thread has finished
 * computing slice t-1, whose stage the copies issued right after it overwrite.
 * Each body keeps its own B-copy loop and slice dispatch: sharing them through one helper
 * left the k-major kernels' code unchanged but gave the transposed ones other register
 * allocations, and dbuf ran 1.6% (4096^3) and 2.2% (8192^3) slower on the H200
 * (results/h200/NOTES.md, "Kernel notes", simt_gemm.cuh). */
#ifndef GEMMPROF_KERNELS_SIMT_GEMM_CUH
#define GEMMPROF_KERNELS_SIMT_GEMM_CUH

#include <stddef.h>
#include <stdint.h>
#include <type_traits>

#include "kernels/simt_plan.h"
#include "kernels/pdl.cuh"
#include "kernels/pipeline.cuh"

template <int BM_, int BN_, int BK_, int WM_, int WN_, int WMITER_, int STAGES_, int MIN_BLOCKS_, bool A_KMAJOR_>
struct simt_tile {
    static constexpr int BM = BM_, BN = BN_, BK = BK_;   /* block tile, k-slice */
    static constexpr int WM = WM_, WN = WN_;             /* warp tile */
    static constexpr int WMITER = WMITER_;               /* lane sub-tiles down a warp tile */
    static constexpr int STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr bool A_KMAJOR = A_KMAJOR_;          /* As k-major swizzled, or transposed */
    static constexpr int TM = 4, TN = 4;                 /* lane sub-tile: one float4 each way */
    static constexpr int NT = (BM / WM) * (BN / WN) * 32;
    static constexpr int WSUBM = WM / WMITER;            /* rows of a warp sub-tile */
    static constexpr int LANES_M = WSUBM / TM;           /* lanes down a sub-tile */
    static constexpr int LANES_N = 32 / LANES_M;         /* lanes across it */
    static constexpr int WSUBN = LANES_N * TN;           /* columns of a warp sub-tile */
    static constexpr int WNITER = WN / WSUBN;            /* sub-tiles across a warp tile */
    static constexpr int RN = WNITER * TN;               /* outputs per thread across */
    static constexpr int CHUNKS = BK / 4;                /* 16-byte chunks in a row of As */
    static constexpr int LDA = BM + 4;                   /* transposed As: padded k-row */
    static constexpr int A_STAGE = A_KMAJOR ? BM * BK : BK * LDA, B_STAGE = BK * BN;
    static constexpr int GROUP_M = 8;                    /* tile rows per L2 group */
    static constexpr size_t SMEM = (size_t)STAGES * (A_STAGE + B_STAGE) * sizeof(float);
};

/* A tile type as the host's table describes it (for the config column). */
template <class P> static inline struct simt_config simt_config_of(const char *name)
{
    return simt_config{name, P::BM, P::BN, P::BK, P::WM, P::WN, P::WMITER,
                       P::STAGES, P::MIN_BLOCKS, P::A_KMAJOR, 1.0, 0};
}

/* simt_cfg_<name> for every row of the table */
#define SIMT_CONFIG(name, bm, bn, bk, wm, wn, wmiter, stages, minb, akmajor, eff) \
    using simt_cfg_##name = simt_tile<bm, bn, bk, wm, wn, wmiter, stages, minb, akmajor>;
#include "kernels/simt_configs.def"
#undef SIMT_CONFIG

/* The tiles whose kernels store copies of their sums (simt_quad): those timed faster so. Not
 * t128x64 (timed slower), t128x256, the k32 tiles and t64x64 (no faster), the 128-register
 * t8x8 tiles (the copies cost t128x128t8 a spilled register in the k loop), nor t256x128 and
 * t32x64 (not timed both ways). The k-major body keeps its sums as they are. */
template <class P> inline constexpr bool simt_unpin = false;
template <> inline constexpr bool simt_unpin<simt_cfg_t128x128> = true;
template <> inline constexpr bool simt_unpin<simt_cfg_t128x128s4> = true;
template <> inline constexpr bool simt_unpin<simt_cfg_t128x128k8> = true;
template <> inline constexpr bool simt_unpin<simt_cfg_t128x256s3> = true;
template <> inline constexpr bool simt_unpin<simt_cfg_t64x128> = true;

/* Four sums as a float4 to store. UNPIN: from copies of the sums (an FADD of +0 each), not
 * the sums themselves. A float4 store takes an aligned quad of registers, and ptxas gave the
 * sums (mostly) the quads of their store through the whole k loop: the sum of column j sat in
 * the register bank (index % 2) of the B fragment's column j, which an LDS.128 also puts
 * at quad position j, so nearly every FFMA read two sources from one bank. The copies are
 * exact: a sum starts at +0 and an FMA gives -0 only from two -0s, so no sum is -0, and
 * x + 0 = x for every other x (tools/lab/sass_banks.py counts the conflicts). */
template <bool UNPIN> static __device__ __forceinline__ float4 simt_quad(float a, float b, float c, float d)
{
    if (UNPIN)
        return make_float4(__fadd_rn(a, 0.f), __fadd_rn(b, 0.f), __fadd_rn(c, 0.f), __fadd_rn(d, 0.f));
    return make_float4(a, b, c, d);
}

/* The epilogue of both bodies: a lane's (WMITER*4) x (WNITER*4) outputs, whose first is
 * at (out_row, out_col) of C (or of a split's partial product), as float4 stores when VEC_C
 * (n % 4 == 0: all four columns are inside or none) or guarded scalar ones.
 * UNPIN: the float4s from copies of the sums (simt_quad). */
template <class P, bool VEC_C, bool UNPIN = false>
static __device__ __forceinline__ void simt_store(const float (&acc)[P::WMITER * P::TM][P::RN], float *c_out,
                                                  int m, int n, int out_row, int out_col)
{
    constexpr int TM = P::TM, TN = P::TN, WMITER = P::WMITER, WNITER = P::WNITER;
    constexpr int WSUBM = P::WSUBM, WSUBN = P::WSUBN;
#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = out_row + wm * WSUBM + i;
            if (row >= m)
                continue;
            float *const c_row = c_out + (size_t)row * n;
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn) {
                const int col = out_col + wn * WSUBN;
                const float *v = &acc[wm * TM + i][wn * TN];
                if (VEC_C) {
                    if (col < n) /* n % 4 == 0: all four columns are inside */
                        *reinterpret_cast<float4 *>(c_row + col) = simt_quad<UNPIN>(v[0], v[1], v[2], v[3]);
                } else {
#pragma unroll
                    for (int j = 0; j < TN; ++j)
                        if (col + j < n)
                            c_row[col + j] = v[j];
                }
            }
        }
}

/* The k-major body (A_KMAJOR: swizzle, bigtile and the table's k-major rows). */
template <class P, bool VEC, bool VEC_C>
static __device__ __forceinline__ void simt_body_kmajor(int m, int n, int k, int k_slice, const float *__restrict__ a,
                                                        const float *__restrict__ b, int ldb, float *__restrict__ c)
{
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, WM = P::WM, WN = P::WN, NT = P::NT;
    constexpr int TM = P::TM, TN = P::TN, STAGES = P::STAGES, WMITER = P::WMITER;
    constexpr int WSUBM = P::WSUBM, LANES_M = P::LANES_M, LANES_N = P::LANES_N;
    constexpr int WSUBN = P::WSUBN, WNITER = P::WNITER, CHUNKS = P::CHUNKS;
    constexpr int A_STAGE = P::A_STAGE, B_STAGE = P::B_STAGE;
    constexpr int RM = WMITER * TM, RN = WNITER * TN;   /* outputs per thread */
    constexpr int UNIT = VEC ? 4 : 1;                   /* floats per copy */
    constexpr int A_PER_ROW = BK / UNIT, A_ROWS = NT / A_PER_ROW, A_PASSES = BM / A_ROWS;
    constexpr int B_PER_ROW = BN / UNIT, B_ROWS = NT / B_PER_ROW, B_PASSES = BK / B_ROWS;
    static_assert((BM / WM) * (BN / WN) * 32 == NT && NT <= 1024, "one warp per warp tile");
    static_assert(WM % WMITER == 0 && WSUBM % TM == 0 && 32 % LANES_M == 0, "warp rows");
    static_assert(WN % WSUBN == 0 && WNITER >= 1, "warp columns");
    static_assert(BK % 4 == 0 && CHUNKS >= LANES_M && (CHUNKS & (CHUNKS - 1)) == 0,
                  "swizzle: a chunk per concurrently read row");
    static_assert(NT % A_PER_ROW == 0 && BM % A_ROWS == 0, "A copy mapping");
    static_assert(NT % B_PER_ROW == 0 && BK % B_ROWS == 0, "B copy mapping");
    static_assert(STAGES >= 2, "pipeline depth");

    extern __shared__ float4 simt_smem[];
    float *const as = reinterpret_cast<float *>(simt_smem); /* [STAGES][BM][BK], swizzled */
    float *const bs = as + STAGES * A_STAGE;                /* [STAGES][BK][BN] */

    int row0, col0; /* this block's C tile, in grouped order */
    grouped_tile<BM, BN>((int)blockIdx.x, m, n, P::GROUP_M, &row0, &col0);

    const int k_begin = (int)blockIdx.y * k_slice;
    const int k_end = min(k, k_begin + k_slice);
    float *const c_out = c + (size_t)blockIdx.y * (size_t)m * (size_t)n;
    const int tid = threadIdx.x;

    /* A copies: element/chunk a_kk of rows a_r + p*A_ROWS. The swizzle key of a row is
     * (row / TM) % LANES_M; when A_ROWS is a multiple of TM*LANES_M it is the same for
     * every pass. */
    const int a_kk = (tid % A_PER_ROW) * UNIT, a_r = tid / A_PER_ROW;
    const int a_rows_left = m - row0 - a_r; /* pass p is inside A when p*A_ROWS < this */
    const float *const a_src = a + (size_t)(a_rows_left > 0 ? row0 + a_r : 0) * k + a_kk;
    const size_t a_pass = (size_t)A_ROWS * k;
    auto a_dst = [&](int p) {
        const int r = a_r + p * A_ROWS;
        const int key = (A_ROWS % (TM * LANES_M) == 0 ? a_r : r) / TM % LANES_M;
        return r * BK + ((((a_kk >> 2) ^ key) << 2) | (a_kk & 3));
    };

    /* B copies: columns b_c.. of k-rows b_r + p*B_ROWS */
    const int b_c = (tid % B_PER_ROW) * UNIT, b_r = tid / B_PER_ROW;
    const bool b_col_ok = col0 + b_c < n; /* VEC: ldb % 4 == 0, so the whole chunk is in B's row */
    const float *const b_src = b + (b_col_ok ? col0 + b_c : 0);

    /* Issues the copies of the slice starting at k0 into `stage` (no commit). FULL: the
     * slice lies inside [k_begin, k_end), so only the row/column predicates apply. */
    auto load_slice = [&](int stage, int k0, auto full) {
        constexpr bool FULL = decltype(full)::value;
        float *const as_s = as + stage * A_STAGE;
        float *const bs_s = bs + stage * B_STAGE;
        const bool a_k_ok = FULL || k0 + a_kk < k_end; /* VEC: k_end % 4 == 0 */
#pragma unroll
        for (int p = 0; p < A_PASSES; ++p) {
            const bool ok = a_k_ok && p * A_ROWS < a_rows_left;
            const float *src = ok ? a_src + p * a_pass + k0 : a;
            if (VEC)
                cp_async16(as_s + a_dst(p), src, ok);
            else
                cp_async4(as_s + a_dst(p), src, ok);
        }
#pragma unroll
        for (int p = 0; p < B_PASSES; ++p) {
            const int kr = b_r + p * B_ROWS;
            const bool ok = b_col_ok && (FULL || k0 + kr < k_end);
            const float *src = ok ? b_src + (size_t)(k0 + kr) * ldb : b;
            if (VEC)
                cp_async16(bs_s + kr * BN + b_c, src, ok);
            else
                cp_async4(bs_s + kr * BN + b_c, src, ok);
        }
    };
    auto load = [&](int stage, int k0) {
        if (k0 + BK <= k_end)
            load_slice(stage, k0, std::true_type{});
        else
            load_slice(stage, k0, std::false_type{});
    };

    /* compute mapping: warp (w_row, w_col), lane (l_row, l_col); lane output (wm, i; wn, j)
     * is C row w_row*WM + wm*WSUBM + l_row*TM + i, column w_col*WN + wn*WSUBN + l_col*TN + j
     * (relative to row0, col0). Every row a lane reads has swizzle key l_row. */
    const int warp = tid / 32, lane = tid % 32;
    const int w_row = warp / (BN / WN), w_col = warp % (BN / WN);
    const int l_row = lane / LANES_N, l_col = lane % LANES_N;
    const int a_off = (w_row * WM + l_row * TM) * BK;
    const int b_off = w_col * WN + l_col * TN;

    float acc[RM][RN];
#pragma unroll
    for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j)
            acc[i][j] = 0.f;

    const int nslices = k_end > k_begin ? (k_end - k_begin + BK - 1) / BK : 0;
    /* prologue: slices 0..STAGES-2 in flight, one commit group each (maybe empty) */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < nslices)
            load(s, k_begin + s * BK);
        cp_async_commit();
    }

    for (int t = 0; t < nslices; ++t) {
        /* committed so far: t + STAGES - 1 groups; slice t is group t, so at most
         * STAGES - 2 may still be pending */
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        const int tn = t + STAGES - 1;
        if (tn < nslices)
            load(tn % STAGES, k_begin + tn * BK);
        cp_async_commit(); /* always, to keep the group count uniform */

        const float *const as_s = as + (t % STAGES) * A_STAGE + a_off;
        const float *const bs_s = bs + (t % STAGES) * B_STAGE + b_off;
#pragma unroll
        for (int q = 0; q < CHUNKS; ++q) {
            /* 4 consecutive k of each of the lane's RM rows: RM LDS.128 */
            float ra[RM][4];
            const float *const a_q = as_s + ((q ^ l_row) << 2);
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; ++i) {
                    const float4 v =
                        *reinterpret_cast<const float4 *>(a_q + (wm * WSUBM + i) * BK);
                    ra[wm * TM + i][0] = v.x, ra[wm * TM + i][1] = v.y;
                    ra[wm * TM + i][2] = v.z, ra[wm * TM + i][3] = v.w;
                }
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                float rb[RN];
#pragma unroll
                for (int wn = 0; wn < WNITER; ++wn) {
                    const float4 v = *reinterpret_cast<const float4 *>(
                        bs_s + (q * 4 + kk) * BN + wn * WSUBN);
                    rb[wn * TN] = v.x, rb[wn * TN + 1] = v.y;
                    rb[wn * TN + 2] = v.z, rb[wn * TN + 3] = v.w;
                }
#pragma unroll
                for (int i = 0; i < RM; ++i)
#pragma unroll
                    for (int j = 0; j < RN; ++j)
                        acc[i][j] = fmaf(ra[i][kk], rb[j], acc[i][j]);
            }
        }
    }
    cp_async_wait<0>(); /* only empty groups remain; leave none behind */

    static_assert(!simt_unpin<P>, "the copies of the sums were timed for transposed-A tiles only");
    simt_store<P, VEC_C>(acc, c_out, m, n, row0 + w_row * WM + l_row * TM, col0 + b_off);
}

/* The transposed body (!A_KMAJOR: the table's aT rows and dbuf). As[stage][BK][LDA] holds A
 * transposed, LDA = BM + 4, filled by 4-byte copies (warptile's layout): a warp's copies
 * are A_KT = 8 consecutive k of 4 rows, which land in banks 4*kk + r, all 32 distinct;
 * a lane reads its 4 rows of one k with an LDS.128, the LANES_M lanes of a warp that read
 * different rows hit consecutive 16-byte chunks. So a lane holds RM + RN fragment floats
 * per k-step (24 for 16x8, against 64 + 8 for the k-major body), and there is room to
 * double-buffer them: the shared loads of k-step kk+1 are issued before the FFMAs of kk,
 * and the first fragments of slice t+1 right after the slice's barrier, before the last
 * FFMAs of slice t. One barrier per slice, at the last k-step: it proves every thread has
 * loaded its last fragments of slice t (so slice t+STAGES's copies may overwrite its
 * stage) and, after cp_async_wait, that slice t+1 has landed. FFMAs walk the thread tile
 * in a serpentine (odd rows right to left) so consecutive FFMAs share an operand. */
template <class P, bool VEC, bool VEC_C>
static __device__ __forceinline__ void simt_body_transposed(int m, int n, int k, int k_slice,
                                                            const float *__restrict__ a,
                                                            const float *__restrict__ b, int ldb,
                                                            float *__restrict__ c)
{
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, WM = P::WM, WN = P::WN, NT = P::NT;
    constexpr int TM = P::TM, TN = P::TN, STAGES = P::STAGES, WMITER = P::WMITER;
    constexpr int WSUBM = P::WSUBM, LANES_M = P::LANES_M, LANES_N = P::LANES_N;
    constexpr int WSUBN = P::WSUBN, WNITER = P::WNITER, LDA = P::LDA;
    constexpr int A_STAGE = P::A_STAGE, B_STAGE = P::B_STAGE;
    constexpr int RM = WMITER * TM, RN = WNITER * TN;    /* outputs per thread */
    constexpr int A_KT = 8, A_RP = NT / A_KT;            /* A copies: 8 k x A_RP rows a pass */
    constexpr int A_KQ = BK / A_KT, A_PASSES = BM / A_RP;
    constexpr int UNIT = VEC ? 4 : 1;                    /* floats per B copy */
    constexpr int B_PER_ROW = BN / UNIT, B_ROWS = NT / B_PER_ROW, B_PASSES = BK / B_ROWS;
    static_assert((BM / WM) * (BN / WN) * 32 == NT && NT <= 1024, "one warp per warp tile");
    static_assert(WM % WMITER == 0 && WSUBM % TM == 0 && 32 % LANES_M == 0, "warp rows");
    static_assert(WN % WSUBN == 0 && WNITER >= 1, "warp columns");
    static_assert(BM % 32 == 0 && LDA % 4 == 0, "conflict-free transposed stores, LDS.128 alignment");
    static_assert(BK % A_KT == 0 && BK % 2 == 0 && NT % A_KT == 0 && BM % A_RP == 0, "A copy mapping");
    static_assert(NT % B_PER_ROW == 0 && BK % B_ROWS == 0, "B copy mapping");
    static_assert(STAGES >= 2, "pipeline depth");

    extern __shared__ float4 simt_smem[];
    float *const as = reinterpret_cast<float *>(simt_smem); /* [STAGES][BK][LDA] */
    float *const bs = as + STAGES * A_STAGE;                /* [STAGES][BK][BN] */

    int row0, col0; /* this block's C tile, in grouped order */
    grouped_tile<BM, BN>((int)blockIdx.x, m, n, P::GROUP_M, &row0, &col0);

    const int k_begin = (int)blockIdx.y * k_slice;
    const int k_end = min(k, k_begin + k_slice);
    float *const c_out = c + (size_t)blockIdx.y * (size_t)m * (size_t)n;
    const int tid = threadIdx.x;

    /* A copies: k a_kk + q*A_KT of rows a_r + p*A_RP, stored at [k][row] */
    const int a_kk = tid % A_KT, a_r = tid / A_KT;
    const int a_rows_left = m - row0 - a_r; /* pass p is inside A when p*A_RP < this */
    const float *const a_src = a + (size_t)(a_rows_left > 0 ? row0 + a_r : 0) * k + a_kk;
    const size_t a_pass = (size_t)A_RP * k;
    const int a_dst = a_kk * LDA + a_r;

    /* B copies: columns b_c.. of k-rows b_r + p*B_ROWS */
    const int b_c = (tid % B_PER_ROW) * UNIT, b_r = tid / B_PER_ROW;
    const bool b_col_ok = col0 + b_c < n; /* VEC: ldb % 4 == 0, so the whole chunk is in B's row */
    const float *const b_src = b + (b_col_ok ? col0 + b_c : 0);

    /* Issues the copies of the slice starting at k0 into `stage` (no commit). FULL: the
     * slice lies inside [k_begin, k_end), so only the row/column predicates apply. */
    auto load_slice = [&](int stage, int k0, auto full) {
        constexpr bool FULL = decltype(full)::value;
        float *const as_s = as + stage * A_STAGE + a_dst;
        float *const bs_s = bs + stage * B_STAGE;
#pragma unroll
        for (int q = 0; q < A_KQ; ++q) {
            const bool k_ok = FULL || k0 + q * A_KT + a_kk < k_end;
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
            const bool ok = b_col_ok && (FULL || k0 + kr < k_end);
            const float *src = ok ? b_src + (size_t)(k0 + kr) * ldb : b;
            if (VEC)
                cp_async16(bs_s + kr * BN + b_c, src, ok);
            else
                cp_async4(bs_s + kr * BN + b_c, src, ok);
        }
    };
    /* A slice inside K for a thread whose copies all lie inside A and B (every tile but
     * the last row and column of tiles): no predicates, and each copy's source is one
     * pointer per pass plus a constant offset. The general load_slice spent about 240
     * instructions per slice on per-copy addresses and fallbacks, and its register reuse
     * stalled the copies' successors (long_scoreboard); ncu's source counters put 10.5% of
     * dbuf's warp samples there (results/h200/NOTES.md, "Kernel notes", dbuf). */
    const bool copies_inside = (A_PASSES - 1) * A_RP < a_rows_left && b_col_ok;
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
    auto load = [&](int stage, int k0) {
        if (k0 + BK <= k_end) {
            if (copies_inside)
                load_inside(stage, k0);
            else
                load_slice(stage, k0, std::true_type{});
        } else {
            load_slice(stage, k0, std::false_type{});
        }
    };

    /* compute mapping, as the k-major body: lane output (wm, i; wn, j) is C row
     * w_row*WM + wm*WSUBM + l_row*TM + i, column w_col*WN + wn*WSUBN + l_col*TN + j */
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

    float fa[2][RM], fb[2][RN]; /* the fragments of k-steps kk (in use) and kk+1 (loading) */
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

    const int nslices = k_end > k_begin ? (k_end - k_begin + BK - 1) / BK : 0;
    if (nslices > 0) { /* (an empty slice still writes its zeros) */
        /* prologue: slices 0..STAGES-2 in flight, one commit group each (maybe empty) */
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (s < nslices)
                load(s, k_begin + s * BK);
            cp_async_commit();
        }
        /* the barrier that opens slice 0: slice 0 has landed; stage STAGES-1 is unread */
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        int rd = 0, wr = STAGES - 1; /* stage being read, stage the next copies fill */
        load_frag(fa[0], fb[0], as + a_off, bs + b_off, 0);
        if (STAGES - 1 < nslices)
            load(wr, k_begin + (STAGES - 1) * BK);
        cp_async_commit();
        for (int t = 0; t < nslices; ++t) {
            const float *const as_s = as + rd * A_STAGE + a_off;
            const float *const bs_s = bs + rd * B_STAGE + b_off;
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk < BK - 1) {
                    load_frag(fa[(kk + 1) & 1], fb[(kk + 1) & 1], as_s, bs_s, kk + 1);
                } else if (t + 1 < nslices) {
                    /* opens slice t+1: committed so far STAGES - 1 + (t + 1) groups, slice
                     * t+1 is group t+1, so at most STAGES - 2 may be pending; every thread
                     * has loaded its last fragments of stage rd, which slice
                     * t + STAGES now overwrites */
                    cp_async_wait<STAGES - 2>();
                    __syncthreads();
                    wr = rd;
                    rd = rd + 1 == STAGES ? 0 : rd + 1;
                    load_frag(fa[0], fb[0], as + rd * A_STAGE + a_off, bs + rd * B_STAGE + b_off, 0);
                    if (t + STAGES < nslices)
                        load(wr, k_begin + (t + STAGES) * BK);
                    cp_async_commit(); /* always, to keep the group count uniform */
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
        }
    }
    cp_async_wait<0>(); /* only empty groups remain; leave none behind */

    simt_store<P, VEC_C, simt_unpin<P>>(acc, c_out, m, n, row0 + a_off, col0 + b_off);
}

/* wait: 0 when the kernel ahead of this one in the stream writes nothing this one reads
 * (a tail plan's split after its head), so that its blocks may start as the head's leave */
template <class P, bool VEC, bool VEC_C>
static __global__ void __launch_bounds__(P::NT, P::MIN_BLOCKS)
gemm_simt_kernel(int m, int n, int k, int k_slice, const float *__restrict__ a,
                 const float *__restrict__ b, int ldb, float *__restrict__ c, int wait)
{
    if (wait)
        pdl_wait();  /* a padded plan: B's copy */
    pdl_trigger();   /* a split plan: the reduction may launch */
    /* ldb != n only with 16-byte copies and scalar stores (a padded B); the other two
     * instantiations keep n, and with it the code they had before B had a pitch of its own */
    const int b_pitch = VEC && !VEC_C ? ldb : n;
    if constexpr (P::A_KMAJOR)
        simt_body_kmajor<P, VEC, VEC_C>(m, n, k, k_slice, a, b, b_pitch, c);
    else
        simt_body_transposed<P, VEC, VEC_C>(m, n, k, k_slice, a, b, b_pitch, c);
}

#ifdef __CUDACC__ /* the launchers need nvcc; the kernel body alone also compiles as host C++ */
static inline bool simt_aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* Whether the 16-byte copies may run: rows of B (and of A when it is copied 16 bytes at a
 * time, k-major) start on 16-byte boundaries. */
template <class P>
static inline bool simt_vec_ok(int ldb, int k, const float *a, const float *b)
{
    return ldb % 4 == 0 && (!P::A_KMAJOR || (k % 4 == 0 && simt_aligned16(a))) && simt_aligned16(b);
}

/* Lets `kernel` (one of P's instantiations) launch with P's pipeline: raises the 48 KB
 * dynamic shared-memory limit where it needs more. */
template <class P, class Kernel> static inline cudaError_t simt_allow_smem(Kernel kernel)
{
    return P::SMEM > 48 * 1024
               ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)P::SMEM)
               : cudaSuccess;
}

/* Blocks of `kernel` (one of P's instantiations) resident per SM, as launched. */
template <class P, class Kernel> static inline cudaError_t simt_blocks_per_sm(Kernel kernel, int *blocks)
{
    const cudaError_t err = simt_allow_smem<P>(kernel);
    return err != cudaSuccess ? err : cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, P::NT, P::SMEM);
}

/* How a GEMM launch follows the kernel ahead of it in the stream (kernels/pdl.cuh). */
enum simt_dep {
    SIMT_DEP_NONE,    /* a plain launch */
    SIMT_DEP_WAIT,    /* dependent, waits for its memory (after B's padded copy) */
    SIMT_DEP_OVERLAP, /* dependent, reads nothing it writes: starts as its blocks leave */
};

/* Enqueues one instantiation: `split` slices of k_slice (a multiple of BK) into c, which
 * holds split * m * n floats when split > 1. Raises the 48 KB dynamic shared-memory limit
 * when the pipeline needs more. */
template <class P, bool VEC, bool VEC_C>
static cudaError_t simt_gemm_run(int m, int n, int k, int k_slice, int split, const float *a,
                                 const float *b, int ldb, float *c, int dep, cudaStream_t stream)
{
    const cudaError_t err = simt_allow_smem<P>(gemm_simt_kernel<P, VEC, VEC_C>);
    if (err != cudaSuccess)
        return err;
    const unsigned tiles = (unsigned)((m + P::BM - 1) / P::BM) * (unsigned)((n + P::BN - 1) / P::BN);
    return pdl_launch(dep != SIMT_DEP_NONE, gemm_simt_kernel<P, VEC, VEC_C>, dim3(tiles, (unsigned)split),
                      dim3(P::NT), P::SMEM, stream, m, n, k, k_slice, a, b, ldb, c, dep == SIMT_DEP_WAIT ? 1 : 0);
}

/* The paths of one configuration, chosen by the operands: 16-byte copies and stores, or
 * 4-byte ones; with PADDED_B also 16-byte copies of a B whose rows were padded (ldb > n)
 * beside scalar stores into C's odd rows (simt_auto's padded plans), the one instantiation
 * that reads B at a pitch of its own (gemm_simt_kernel). */
template <class P, bool PADDED_B = false>
static cudaError_t simt_gemm_run_any(int m, int n, int k, int k_slice, int split, const float *a,
                                     const float *b, int ldb, float *c, int dep, cudaStream_t stream)
{
    const bool vec = simt_vec_ok<P>(ldb, k, a, b);
    if (ldb != n) {
        if constexpr (PADDED_B)
            if (vec)
                return simt_gemm_run<P, true, false>(m, n, k, k_slice, split, a, b, ldb, c, dep, stream);
        return cudaErrorInvalidValue;
    }
    if (vec && n % 4 == 0 && simt_aligned16(c))
        return simt_gemm_run<P, true, true>(m, n, k, k_slice, split, a, b, ldb, c, dep, stream);
    if constexpr (PADDED_B)
        if (vec) /* rows of 4k floats, C unaligned */
            return simt_gemm_run<P, true, false>(m, n, k, k_slice, split, a, b, ldb, c, dep, stream);
    return simt_gemm_run<P, false, false>(m, n, k, k_slice, split, a, b, ldb, c, dep, stream);
}

/* A fixed-tile variant (swizzle, bigtile): the whole of K in one slice. */
template <class P>
static cudaError_t simt_fixed_launch(int m, int n, int k, const float *a, const float *b, float *c,
                                     cudaStream_t stream)
{
    const int k_slice = (k + P::BK - 1) / P::BK * P::BK;
    return simt_gemm_run_any<P>(m, n, k, k_slice, 1, a, b, n, c, SIMT_DEP_NONE, stream);
}

/* Its config column ("128x256x16 w64x64 t16x8 s4 split1"). */
template <class P> static void simt_fixed_config(char *buf, unsigned long len)
{
    const struct simt_config c = simt_config_of<P>("fixed");
    simt_config_describe(&c, 1, buf, len);
}

#endif /* __CUDACC__ */

#endif

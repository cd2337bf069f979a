/* What the warp-specialised wgmma kernels share: the tile (sm90_ws_tile), the stage
 * ring's barriers, the producer thread and the block's start (sm90_ws_start). wgmma_ws
 * (13_wgmma_ws.cu) and wgmma_rs (15_wgmma_rs.cu) run the tile sm90_ws_cfg and differ only
 * in their consumers (when fragments are loaded) and in the width of B's TMA boxes (BW);
 * tf32_auto (16_tf32_auto.cu) runs the tiles of kernels/tf32_configs.def with split-K.
 * Shared memory, 1024-aligned: A^T [STAGES][BM][BK] (128B-swizzled TMA boxes), B
 * [STAGES][BN/BW][BK][BW], then full[STAGES], empty[STAGES] and a flag word (split-K). */
#ifndef GEMMPROF_KERNELS_SM90_WS_CUH
#define GEMMPROF_KERNELS_SM90_WS_CUH

#include <stdint.h>

#include "kernels/pipeline.cuh"
#include "kernels/sm90_tf32.cuh"

/* A block of one producer warpgroup and CONSUMERS consumer warpgroups: tile BM (m, the
 * wgmma N) x 64 CONSUMERS (n) x 32 (k), STAGES stages, MIN_BLOCKS blocks per SM.
 * CLUSTER 2: blocks run in clusters of 2 whose tiles share their rows of m (neighbours in
 * n); each block's TMA loads half of the A tile and multicasts it to both, so that L2
 * delivers A once per pair. */
template <int BM_, int CONSUMERS_, int STAGES_, int MIN_BLOCKS_ = 1, int CLUSTER_ = 1, bool B_MAPS_ = false,
          bool A_MAPS_ = false>
struct sm90_ws_tile {
    static constexpr int BM = BM_;     /* m per tile = wgmma N */
    static constexpr int CONSUMERS = CONSUMERS_;
    static constexpr int BN = 64 * CONSUMERS; /* n per tile = 64 per consumer warpgroup */
    static constexpr int BK = 32;      /* k per stage: one 128-byte swizzle row of A */
    static constexpr int NT = (CONSUMERS + 1) * 128;
    static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr int CLUSTER = CLUSTER_;
    /* A_MAPS: A lands by four tensor maps, one per residue of its row mod 4 (SM90_MAPS_A),
     * as [4][BM / 4][32 k] boxes, each residue's 32 k shifted back by its s_j (0-3); B then
     * lands with 8 rows before the k-tile's 32 (B_ROWS 40), for the shifted products */
    static constexpr bool A_MAPS = A_MAPS_;
    static constexpr int A_BOX_ROWS = A_MAPS ? BM / 4 : BM / CLUSTER; /* rows of one TMA box of A */
    static constexpr int B_ROWS = A_MAPS ? 40 : 32, B_LEAD = B_ROWS - 32; /* B's rows a stage, those before */
    static constexpr int GROUP_M = 8;  /* tile rows per L2 group */
    /* Two consumer warpgroups of one block per SM take the producer's registers
     * (setmaxnreg: 128 accumulators + fragments at BM 256); one consumer warpgroup has
     * 255 registers a thread without it. */
    static constexpr bool REG_SPLIT = CONSUMERS == 2 && MIN_BLOCKS == 1;
    static constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;
    /* B_MAPS: B lands by four tensor maps, one per residue of its row mod 4 (see
     * SM90_MAPS_B), as [4][B_PANELS][8 k][32 n] boxes: one 32-wide panel more than BN
     * (each residue's columns are shifted by up to 3), and a stage fewer where the
     * larger stages would not fit */
    static constexpr bool B_MAPS = B_MAPS_;
    static constexpr int B_PANELS = BN / 32 + (B_MAPS ? 1 : 0);
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = B_MAPS ? 4 * B_PANELS * 8 * 32 * 4 : BN * B_ROWS * 4;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    static constexpr int SMEM_CAP = MIN_BLOCKS == 1 ? 232448 : 233472 / MIN_BLOCKS - 1024; /* per block, sm_90 */
    static constexpr int STAGES_FIT = (SMEM_CAP - 16 - 1024) / (STAGE_BYTES + 16);
    static constexpr int STAGES = (B_MAPS || A_MAPS) && STAGES_FIT < STAGES_ ? STAGES_FIT : STAGES_;
    static constexpr int SMEM = STAGES * STAGE_BYTES + 2 * STAGES * 8 + 16 + 1024; /* + flag, alignment */
    static_assert(BK == 32 && BM % 8 == 0 && BM <= 256 && (CONSUMERS == 1 || CONSUMERS == 2), "tile shape");
    static_assert(SMEM <= SMEM_CAP && !(A_MAPS && B_MAPS) && (!A_MAPS || BM % 32 == 0), "shared memory; maps");
    /* each half of A a whole number of 1024-byte swizzle atoms (8 rows of 128 bytes) */
    static_assert((CLUSTER == 1 || CLUSTER == 2) && A_BOX_ROWS % 8 == 0, "cluster");
    static_assert(!REG_SPLIT || PRODUCER_REGS * 128 + CONSUMER_REGS * 128 * CONSUMERS <= 65536, "register file");
};

/* wgmma_ws's and wgmma_rs's tile: 256 x 128 x 32, 4 stages x 48 KB */
using sm90_ws_cfg = sm90_ws_tile<256, 2, 4>;
/* P's tile with B by its four row maps (SM90_MAPS_B) */
template <class P>
using sm90_b_maps_tile = sm90_ws_tile<P::BM, P::CONSUMERS, P::STAGES, P::MIN_BLOCKS, P::CLUSTER, true>;
/* P's tile with A by its four row maps (SM90_MAPS_A) */
template <class P>
using sm90_a_maps_tile = sm90_ws_tile<P::BM, P::CONSUMERS, P::STAGES, P::MIN_BLOCKS, P::CLUSTER, false, true>;

/* Operands the producer warpgroup loads itself, by 4-byte cp.async into the layout TMA
 * would have written, instead of TMA (a DIRECT mask of the kernels' templates): a row
 * pitch that is not a multiple of 16 bytes (k % 4 or n % 4 != 0) cannot be a tensor map's,
 * and a pitch-padded copy first reads and writes the whole operand once more (34.6 MB of A
 * at 1111x47x7777). Unclustered tiles with B in 32-wide boxes only.
 * B by four tensor maps (SM90_MAPS_B in the same mask, with a tile of B_MAPS): where B's
 * pitch n is not a multiple of 4 floats, rows r, r + 4, ... still lie 4n floats (16n
 * bytes) apart, a pitch TMA takes. Map j (j = 0..3) covers rows 4i + j, its base aligned
 * down by shift s_j floats (0-3) to 16 bytes, so its column c is B's column c - s_j; its
 * boxes start at whole 32-float columns, as TMA needs. The consumers read B through
 * registers, so they simply look s_j columns further on (the panel after the tile's
 * holds the overrun); the s_j columns before B's first are never read.
 * A by four tensor maps (SM90_MAPS_A, a tile of A_MAPS) the same way where k % 4 != 0: map
 * j's box at k-tile t holds row 4i + j's k = 32t - s_j .. 32t + 31 - s_j, so each residue
 * is its own wgmma (N = BM / 4) with B^T's fragments taken s_j rows earlier (B's stage
 * starts 8 rows before the k-tile); the walk has ceil((k + 3) / 32) k-tiles, and the s_j
 * columns before a row's first (the previous row's last) are zeroed in the first k-tile. */
enum { SM90_DIRECT_A = 1, SM90_DIRECT_B = 2, SM90_MAPS_B = 4, SM90_MAPS_A = 8 };
/* Whether the producer warpgroup copies an operand itself (cp.async, the generic proxy).
 * Then every consumer thread releases a stage, not one lane per warp: compute-sanitizer's
 * racecheck orders a thread's reads before the producer's next writes only through that
 * thread's own arrival. */
template <int DIRECT> constexpr bool sm90_producer_copies = (DIRECT & (SM90_DIRECT_A | SM90_DIRECT_B)) != 0;
struct sm90_direct {
    const float *a, *b;          /* row-major, pitches k and n */
    const CUtensorMap *b_maps;   /* SM90_MAPS_B: B's four maps (sm90_row_maps, kernels/sm90_tf32.cuh) */
    unsigned b_shifts;           /* SM90_MAPS_B: s_j in bits 2j, 2j + 1 */
    const CUtensorMap *a_maps;   /* SM90_MAPS_A: A's four maps */
    unsigned a_shifts;
};

#if SM90_TF32_DEVICE
/* Thread 0: prefetch the tensor maps in use and set up the ring's barriers. A stage is
 * full after the TMA thread's expect_tx arrival (where TMA loads any of it) and, with
 * DIRECT operands, one arrival per producer thread once its copies have landed. */
template <class P, int DIRECT = 0>
static __device__ __forceinline__ void sm90_ws_ring_init(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                         uint64_t *full, uint64_t *empty)
{
    if (!(DIRECT & (SM90_DIRECT_A | SM90_MAPS_A)))
        tma_prefetch_map(map_a);
    if (!(DIRECT & (SM90_DIRECT_B | SM90_MAPS_B)))
        tma_prefetch_map(map_b);
    constexpr bool TMA_TOO = (DIRECT & (SM90_DIRECT_A | SM90_DIRECT_B)) != (SM90_DIRECT_A | SM90_DIRECT_B);
    constexpr unsigned arrivals = (TMA_TOO ? 1 : 0) + (sm90_producer_copies<DIRECT> ? 128 : 0);
    for (int s = 0; s < P::STAGES; ++s) {
        mbar_init(&full[s], arrivals);
        /* per consumer warp of the cluster, or per consumer thread */
        mbar_init(&empty[s], P::CONSUMERS * (sm90_producer_copies<DIRECT> ? 128 : 4) * P::CLUSTER);
    }
    mbar_init_fence();
}

/* A consumer's view of the block: its shared memory, carved, and the work. */
struct sm90_ws_block {
    float *as;               /* A^T [STAGES][BM][BK], 128B-swizzled */
    float *bs;               /* B [STAGES][BN/BW][BK][BW] */
    uint64_t *full, *empty;  /* the ring's barriers */
    int *flag;               /* a word the consumers share (split-K's verdict) */
    int tiles, ktiles;
    int units;               /* work units: the tiles, or (split-K) dp + (tiles - dp) x slices */
    int kts;                 /* split-K: k-tiles per slice */
    int dp;                  /* split-K: tiles 0 .. dp-1 run whole, before the sliced ones */
    int rank;                /* the block's rank in its cluster (0 without clusters) */
};

/* A block's first unit and the stride between its units: clusters walk the units, every
 * block of a cluster the same ones (a cluster's blocks are consecutive in x, so its index
 * is blockIdx.x / CLUSTER and its rank blockIdx.x % CLUSTER). */
template <class P> static __device__ __forceinline__ int sm90_ws_first_unit(void)
{
    return (int)blockIdx.x / P::CLUSTER;
}
template <class P> static __device__ __forceinline__ int sm90_ws_unit_stride(void)
{
    return (int)gridDim.x / P::CLUSTER;
}

/* Work unit u: its tile, slice z of K, the block's tile origin and its k-tiles kt0 .. kt0 +
 * nkt - 1. With clusters a tile is BM x BN x CLUSTER, a block's part of it BN wide at
 * col0 (the tile's origin is col0 - rank x BN). Without split-K a unit is a tile and
 * walks all of K. With it, the first dp
 * units are tiles 0 .. dp-1, whole (the full waves of a shape that has more tiles than
 * the grid has blocks), and unit dp + v is slice v / r of tile dp + v % r, r = tiles - dp
 * (the last, partial wave, sliced to fill the SMs): the blocks running at once hold the
 * same slice of neighbouring tiles (the L2 grouping still applies), and every slice is
 * non-empty (the plan's k-tiles per slice, kernels/tf32_plan.h). */
template <class P, bool SPLIT>
static __device__ __forceinline__ void sm90_ws_unit(const sm90_ws_block &b, int u, int m, int n, int *tile, int *z,
                                                    int *row0, int *col0, int *kt0, int *nkt)
{
    if (SPLIT && u >= b.dp) {
        const int v = u - b.dp, rest = b.tiles - b.dp;
        *z = v / rest;
        *tile = b.dp + v - *z * rest;
        *kt0 = *z * b.kts;
        *nkt = min(b.kts, b.ktiles - *kt0);
    } else {
        *z = 0, *tile = u, *kt0 = 0, *nkt = b.ktiles;
    }
    grouped_tile<P::BM, P::BN * P::CLUSTER>(*tile, m, n, P::GROUP_M, row0, col0);
    *col0 += b.rank * P::BN;
}

/* The producers' walk: the block's units and their k-tiles in order, `it` counting stage
 * uses over all of them, so the ring carries on across units. Before each use it waits
 * for the consumers' release of the stage's previous use (both blocks' consumers, in a
 * cluster: A lands in both), then calls load(stage, k-tile, row0, col0, it). Returns the
 * uses. */
template <class P, bool SPLIT, class Load>
static __device__ __forceinline__ int sm90_ws_walk(int m, int n, const sm90_ws_block &b, Load load)
{
    int it = 0;
    for (int u = sm90_ws_first_unit<P>(); u < b.units; u += sm90_ws_unit_stride<P>()) {
        int tile, z, row0, col0, kt0, nkt;
        sm90_ws_unit<P, SPLIT>(b, u, m, n, &tile, &z, &row0, &col0, &kt0, &nkt);
        for (int t = kt0; t < kt0 + nkt; ++t, ++it) {
            const int s = it % P::STAGES;
            if (it >= P::STAGES)
                mbar_wait(&b.empty[s], (unsigned)(it / P::STAGES - 1) & 1u);
            load(s, t, row0, col0, it);
        }
    }
    return it;
}

/* B's part of k-tile t by TMA into its stage: BN / BW boxes of [BK][BW] through map_b or,
 * with B's four maps (P::B_MAPS), for each row residue j the B_PANELS boxes [8 k][32 n]
 * of rows 4i + j (map j's rows 8t ..) from column col0 on (map j's columns, shifted) */
template <class P, int BW>
static __device__ __forceinline__ void sm90_ws_tma_b(float *stage, const CUtensorMap *map_b, const sm90_direct &d,
                                                     int col0, int t, uint64_t *bar)
{
    if constexpr (P::B_MAPS) {
        static_assert(BW == 32 && P::BK == 32, "B's maps: 32-wide boxes of 8 rows per residue");
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int p = 0; p < P::B_PANELS; ++p)
                tma_load_2d(stage + (j * P::B_PANELS + p) * 256, &d.b_maps[j], col0 + 32 * p, 8 * t, bar);
    } else {
#pragma unroll
        for (int p = 0; p < P::BN / BW; ++p)
            tma_load_2d(stage + p * (P::B_ROWS * BW), map_b, col0 + BW * p, t * P::BK - P::B_LEAD, bar);
    }
}

/* The producer thread: every stage by TMA. B lands as BN / BW boxes of [BK][BW] (or by
 * its four maps: sm90_ws_tma_b). */
template <class P, int BW, bool SPLIT>
static __device__ __forceinline__ void sm90_ws_produce(int m, int n, const sm90_ws_block &b,
                                                       const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                       const sm90_direct &d)
{
    constexpr int BM = P::BM, BK = P::BK;
    float *const as = b.as, *const bs = b.bs;
    uint64_t *const full = b.full;
    sm90_ws_walk<P, SPLIT>(m, n, b, [&](int s, int t, int row0, int col0, int) {
        /* the whole A tile lands here (in a cluster, half from each block) and B's part */
        mbar_arrive_expect_tx(&full[s], P::STAGE_BYTES);
        if constexpr (P::CLUSTER > 1) {
            const int half = b.rank * P::A_BOX_ROWS;
            tma_load_2d_multicast(as + s * (BM * BK) + half * BK, map_a, t * BK, row0 + half, &full[s],
                                  (uint16_t)((1u << P::CLUSTER) - 1));
        } else if constexpr (P::A_MAPS) {
#pragma unroll
            for (int j = 0; j < 4; ++j)
                tma_load_2d(as + s * (BM * BK) + j * (BM / 4) * BK, &d.a_maps[j], t * BK, row0 / 4, &full[s]);
        } else {
            tma_load_2d(as + s * (BM * BK), map_a, t * BK, row0, &full[s]);
        }
        sm90_ws_tma_b<P, BW>(bs + s * (P::B_BYTES / 4), map_b, d, col0, t, &full[s]);
    });
}

/* The producer warpgroup with DIRECT operands (pt: its thread, 0-127). Thread 0 still
 * loads the other operand by TMA. Each thread copies its share of a stage's DIRECT tiles
 * by 4-byte cp.async (a warp: 128 contiguous bytes of a row), zeros outside the matrix,
 * into TMA's layout (128B swizzle: 16-byte chunk c of 128-byte row r at chunk c ^ r % 8;
 * A^T as [BM][32 k], B as [BN/32][32 k][32 n]). The copies are generic-proxy writes that
 * wgmma reads through the async proxy: a stage is handed over only after the thread has
 * waited for them and fenced the proxies, LAG stages behind its newest copies, so LAG + 1
 * stages are in flight. LAG <= STAGES - 2: a consumer releases stage use j only after use
 * j + 1 is full, and the producer needs that release before it copies use j + STAGES. */
template <class P, int BW, bool SPLIT, int DIRECT>
static __device__ __forceinline__ void sm90_ws_produce_direct(int m, int n, int k, const sm90_ws_block &b,
                                                              const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                              const sm90_direct &d, int pt)
{
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES, LAG = STAGES - 2;
    constexpr unsigned TMA_BYTES = (DIRECT & SM90_DIRECT_A ? 0 : P::A_BYTES) + (DIRECT & SM90_DIRECT_B ? 0 : P::B_BYTES);
    static_assert(P::CLUSTER == 1 && BW == 32 && BK == 32 && LAG >= 1, "direct loads: unclustered, 32-wide B boxes");
    static_assert(!P::B_MAPS && !P::A_MAPS && !(DIRECT & (SM90_MAPS_B | SM90_MAPS_A)), "direct loads: one map each");
    float *const as = b.as, *const bs = b.bs;
    uint64_t *const full = b.full;
    const int uses = sm90_ws_walk<P, SPLIT>(m, n, b, [&](int s, int t, int row0, int col0, int it) {
        if (TMA_BYTES != 0 && pt == 0) {
            mbar_arrive_expect_tx(&full[s], TMA_BYTES);
            if constexpr (!(DIRECT & SM90_DIRECT_A))
                tma_load_2d(as + s * (BM * BK), map_a, t * BK, row0, &full[s]);
            if constexpr (!(DIRECT & SM90_DIRECT_B))
                sm90_ws_tma_b<P, BW>(bs + s * (P::B_BYTES / 4), map_b, d, col0, t, &full[s]);
        }
        if constexpr (DIRECT & SM90_DIRECT_A) {
            /* warp w copies rows w, w + 4, ...: r % 8 takes two values, so two offsets */
            const int kk = pt % 32, r0 = pt / 32, rows = m - row0;
            float *dst = as + s * (BM * BK) + r0 * 32 + (kk & 3);
            const int sw0 = ((kk >> 2) ^ r0) << 2, sw1 = ((kk >> 2) ^ (r0 + 4)) << 2;
            const bool k_ok = t * BK + kk < k;
            const float *src = d.a + (size_t)(row0 + r0) * k + t * BK + kk;
#pragma unroll 1
            for (int r = r0; r < BM; r += 8, dst += 256, src += 8 * (size_t)k) {
                cp_async4(dst + sw0, k_ok && r < rows ? src : d.a, k_ok && r < rows);
                cp_async4(dst + 128 + sw1, k_ok && r + 4 < rows ? src + 4 * (size_t)k : d.a, k_ok && r + 4 < rows);
            }
        }
        if constexpr (DIRECT & SM90_DIRECT_B) {
            /* thread pt copies column nn of rows kk0, kk0 + 128 / BN, ... */
            constexpr int KSTEP = 128 / BN;
            const int nn = pt % BN, kk0 = pt / BN, gk_end = k - t * BK;
            const bool n_ok = col0 + nn < n;
            float *const dst = bs + s * (BN * BK) + (nn / 32) * (BK * 32) + (nn & 3);
            const float *src = d.b + (size_t)(t * BK + kk0) * n + col0 + nn;
#pragma unroll 2
            for (int kk = kk0; kk < BK; kk += KSTEP, src += KSTEP * (size_t)n) {
                const bool ok = n_ok && kk < gk_end;
                cp_async4(dst + kk * 32 + ((((nn % 32) >> 2) ^ (kk & 7)) << 2), ok ? src : d.b, ok);
            }
        }
        cp_async_commit();
        if (it >= LAG) {
            cp_async_wait<LAG>();
            fence_proxy_async_smem();
            mbar_arrive(&full[(it - LAG) % STAGES]);
        }
    });
    cp_async_wait<0>();
    fence_proxy_async_smem();
    for (int j = uses > LAG ? uses - LAG : 0; j < uses; ++j)
        mbar_arrive(&full[j % STAGES]);
}

/* Everything before the consumers: carve the 1024-aligned shared memory, set up the ring,
 * then warpgroup 0 gives up registers and its thread 0 produces. Returns false in the
 * producer warpgroup (the kernel returns), true in the consumers, with `b` filled and
 * their registers raised. SPLIT: tiles dp .. tiles-1 in `split` slices of K of `kts`
 * k-tiles each (the last may be shorter), the first dp whole; otherwise all three are
 * ignored. */
template <int BW, class P = sm90_ws_cfg, bool SPLIT = false, int DIRECT = 0>
static __device__ __forceinline__ bool sm90_ws_start(uint8_t *smem_raw, int m, int n, int k,
                                                     const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                     sm90_ws_block *b, int split = 1, int kts = 0, int dp = 0,
                                                     const sm90_direct &direct = sm90_direct{})
{
    uint8_t *const smem = smem_raw + ((1024 - (sm90_smem_addr(smem_raw) & 1023)) & 1023);
    b->as = reinterpret_cast<float *>(smem);
    b->bs = reinterpret_cast<float *>(smem + P::STAGES * P::A_BYTES);
    b->full = reinterpret_cast<uint64_t *>(smem + P::STAGES * P::STAGE_BYTES);
    b->empty = b->full + P::STAGES;
    b->flag = reinterpret_cast<int *>(b->empty + P::STAGES);
    const int tiles_m = (m + P::BM - 1) / P::BM, tiles_n = (n + P::BN * P::CLUSTER - 1) / (P::BN * P::CLUSTER);
    b->tiles = tiles_m * tiles_n;
    b->ktiles = (k + (P::A_MAPS ? 3 : 0) + P::BK - 1) / P::BK; /* A's maps: up to 3 k shifted past */
    b->dp = SPLIT ? dp : 0;
    b->units = SPLIT ? b->dp + (b->tiles - b->dp) * split : b->tiles;
    b->kts = SPLIT ? kts : b->ktiles;
    b->rank = 0;
    if constexpr (P::CLUSTER > 1)
        b->rank = (int)cluster_cta_rank();
    const int tid = threadIdx.x, wg = tid / 128;
    if (tid == 0)
        sm90_ws_ring_init<P, DIRECT>(map_a, map_b, b->full, b->empty);
    if constexpr (P::CLUSTER > 1)
        cluster_sync(); /* the other block's barriers are ready before any TMA or arrival */
    else
        __syncthreads();
    if (wg == 0) {
        if constexpr (P::REG_SPLIT)
            setmaxnreg_dec<P::PRODUCER_REGS>();
        if constexpr (sm90_producer_copies<DIRECT>) {
            sm90_ws_produce_direct<P, BW, SPLIT, DIRECT>(m, n, k, *b, map_a, map_b, direct, tid);
            return false;
        }
        if (tid != 0)
            return false;
        sm90_ws_produce<P, BW, SPLIT>(m, n, *b, map_a, map_b, direct);
        return false;
    }
    if constexpr (P::REG_SPLIT)
        setmaxnreg_inc<P::CONSUMER_REGS>();
    return true;
}
#endif

#endif

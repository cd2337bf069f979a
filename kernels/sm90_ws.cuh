/* What wgmma_ws (13_wgmma_ws.cu) and wgmma_rs (15_wgmma_rs.cu) share: the tile, the
 * stage ring's barriers, the producer thread and the block's start (sm90_ws_start). They differ only in their consumers
 * (when fragments are loaded) and in the width of B's TMA boxes (BW).
 * Shared memory, 1024-aligned: A^T [STAGES][BM][BK] (128B-swizzled TMA boxes), B
 * [STAGES][BN/BW][BK][BW], then full[STAGES] and empty[STAGES]. */
#ifndef GEMMPROF_KERNELS_SM90_WS_CUH
#define GEMMPROF_KERNELS_SM90_WS_CUH

#include <stdint.h>

#include "kernels/pipeline.cuh"
#include "kernels/sm90_tf32.cuh"

struct sm90_ws_cfg {
    static constexpr int BM = 256;     /* m per tile = wgmma N */
    static constexpr int BN = 128;     /* n per tile = 64 per consumer warpgroup */
    static constexpr int BK = 32;      /* k per stage: one 128-byte swizzle row of A */
    static constexpr int CONSUMERS = BN / 64;
    static constexpr int NT = (CONSUMERS + 1) * 128;
    static constexpr int STAGES = 4;
    static constexpr int GROUP_M = 8;  /* tile rows per L2 group */
    static constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    static constexpr int SMEM = STAGES * STAGE_BYTES + 2 * STAGES * 8 + 1024;
    static_assert(BK == 32 && BM % 8 == 0 && BM <= 256 && BN % 64 == 0, "tile shape");
    static_assert(PRODUCER_REGS * 128 + CONSUMER_REGS * 128 * CONSUMERS <= 65536, "register file");
};

#if SM90_TF32_DEVICE
/* Thread 0: prefetch both tensor maps and set up the ring's barriers. */
static __device__ __forceinline__ void sm90_ws_ring_init(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                         uint64_t *full, uint64_t *empty)
{
    using P = sm90_ws_cfg;
    tma_prefetch_map(map_a);
    tma_prefetch_map(map_b);
    for (int s = 0; s < P::STAGES; ++s) {
        mbar_init(&full[s], 1);                    /* the producer's expect_tx arrival */
        mbar_init(&empty[s], P::CONSUMERS * 4);    /* one arrival per consumer warp */
    }
    mbar_init_fence();
}

/* The producer thread: walks the block's tiles and k-tiles; `it` counts stage uses over
 * all of them, so the ring carries on across tiles. B lands as BN / BW boxes of [BK][BW]. */
template <int BW>
static __device__ __forceinline__ void sm90_ws_produce(int m, int n, int tiles, int ktiles, const CUtensorMap *map_a,
                                                       const CUtensorMap *map_b, float *as, float *bs,
                                                       uint64_t *full, uint64_t *empty)
{
    using P = sm90_ws_cfg;
    constexpr int BM = P::BM, BN = P::BN, BK = P::BK, STAGES = P::STAGES;
    int it = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0, col0;
        grouped_tile<BM, BN>(tile, m, n, P::GROUP_M, &row0, &col0);
        for (int t = 0; t < ktiles; ++t, ++it) {
            const int s = it % STAGES;
            if (it >= STAGES) /* wait for the consumers' release of the previous use */
                mbar_wait(&empty[s], (unsigned)(it / STAGES - 1) & 1u);
            mbar_arrive_expect_tx(&full[s], P::STAGE_BYTES);
            tma_load_2d(as + s * (BM * BK), map_a, t * BK, row0, &full[s]);
#pragma unroll
            for (int p = 0; p < BN / BW; ++p)
                tma_load_2d(bs + s * (BN * BK) + p * (BK * BW), map_b, col0 + BW * p, t * BK, &full[s]);
        }
    }
}

/* A consumer's view of the block: its shared memory, carved, and the work. */
struct sm90_ws_block {
    float *as;               /* A^T [STAGES][BM][BK], 128B-swizzled */
    float *bs;               /* B [STAGES][BN/BW][BK][BW] */
    uint64_t *full, *empty;  /* the ring's barriers */
    int tiles, ktiles;
};

/* Everything before the consumers: carve the 1024-aligned shared memory, set up the ring,
 * then warpgroup 0 gives up registers and its thread 0 produces. Returns false in the
 * producer warpgroup (the kernel returns), true in the consumers, with `b` filled and
 * their registers raised. */
template <int BW>
static __device__ __forceinline__ bool sm90_ws_start(uint8_t *smem_raw, int m, int n, int k,
                                                     const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                     sm90_ws_block *b)
{
    using P = sm90_ws_cfg;
    uint8_t *const smem = smem_raw + ((1024 - (sm90_smem_addr(smem_raw) & 1023)) & 1023);
    b->as = reinterpret_cast<float *>(smem);
    b->bs = reinterpret_cast<float *>(smem + P::STAGES * P::A_BYTES);
    b->full = reinterpret_cast<uint64_t *>(smem + P::STAGES * P::STAGE_BYTES);
    b->empty = b->full + P::STAGES;
    const int tiles_m = (m + P::BM - 1) / P::BM, tiles_n = (n + P::BN - 1) / P::BN;
    b->tiles = tiles_m * tiles_n;
    b->ktiles = (k + P::BK - 1) / P::BK;
    const int tid = threadIdx.x, wg = tid / 128;
    if (tid == 0)
        sm90_ws_ring_init(map_a, map_b, b->full, b->empty);
    __syncthreads();
    if (wg == 0) {
        setmaxnreg_dec<P::PRODUCER_REGS>();
        if (tid != 0)
            return false;
        sm90_ws_produce<BW>(m, n, b->tiles, b->ktiles, map_a, map_b, b->as, b->bs, b->full, b->empty);
        return false;
    }
    setmaxnreg_inc<P::CONSUMER_REGS>();
    return true;
}
#endif

#endif

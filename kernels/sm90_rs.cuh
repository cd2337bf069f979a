/* The RS-mode warp-specialised GEMM of wgmma_rs (15_wgmma_rs.cu, where its design is
 * told) as a template over the tile (kernels/sm90_ws.cuh's sm90_ws_tile: BM 256, 128 or 64
 * rows of C's m as the wgmma N; one or two consumer warpgroups of 64 of C's n; stages) and
 * over split-K, the work unit being a tile (wgmma_rs) or one slice of K of a tile
 * (tf32_auto, 16_tf32_auto.cu).
 *
 * Split-K, one launch, deterministic ("serial split-K" with an in-kernel fixup): every
 * unit stores its partial tile to the workspace (slot tile x split + z, the accumulators
 * in register order, 16-byte stores), fences, and its thread 0 counts the stored slices
 * of the tile with an atomic per tile. The unit that sees the count reach `split` (the
 * last to arrive, whichever slice it is) resets the counter to 0 for the next launch,
 * fences, adds the partial tiles in order z = 0 .. split-1 and stores C. No unit waits
 * for another (the last one only finds the others done), so no grid size or residency
 * can deadlock, and C is written once, bit for bit the same from run to run whatever
 * the arrival order.
 * Memory order: each storing thread's __threadfence() and the consumers' barrier come
 * before thread 0's atomic (with its own fence); the last unit's thread 0 fences after
 * the atomic, the barrier hands the verdict on, and every thread fences again before it
 * reads the partials, by ld.global.cg (L2: no L1 line of them can exist in this block).
 *
 * Clusters of 2 (P::CLUSTER, kernels/sm90_ws.cuh): each consumer warp releases a stage to
 * both blocks' producers (both multicast A into it), each block stores and fixes up its own
 * part of the tile (workspace slot and counter per block), and the blocks leave together.
 */
#ifndef GEMMPROF_KERNELS_SM90_RS_CUH
#define GEMMPROF_KERNELS_SM90_RS_CUH

#include <stdint.h>
#include <type_traits>

#include "kernels/sm90_tf32.cuh"
#include "kernels/sm90_ws.cuh"

/* A split-K launch's extra arguments (ignored without split-K). */
struct sm90_split {
    float *ws;           /* partial tiles: [tiles - dp][split][BM x BN floats], register order;
                          * without counters: [split][m x n], C's layout, for the reduction kernel */
    unsigned *counters;  /* per sliced tile: slices stored; 0 before and after every launch; NULL:
                          * no fixup, each slice stores its partial product into ws */
    int split;           /* slices of K */
    int kts;             /* k-tiles (of 32) per slice; the last slice may be shorter */
    int dp;              /* tiles run whole before the sliced ones (the full waves) */
};

#if SM90_TF32_DEVICE
/* Keeps a fragment set's registers live up to this point: the tensor core reads them
 * after the wgmma instruction has issued, which the compiler cannot see. */
static __device__ __forceinline__ void pin_fragments(uint32_t (&f)[4][4])
{
#pragma unroll
    for (int i = 0; i < 4; ++i)
        asm volatile("" : "+r"(f[i][0]), "+r"(f[i][1]), "+r"(f[i][2]), "+r"(f[i][3])::"memory");
}

/* acc (+)= A fragments x B descriptor, m64 x BM x k8: wgmma's N is the tile's BM. */
template <int BM>
static __device__ __forceinline__ void sm90_rs_k8(float (&acc)[BM / 2], const uint32_t (&a)[4], uint64_t desc)
{
    static_assert(BM == 256 || BM == 128 || BM == 64 || BM == 32 || BM == 16, "wgmma N of the RS tiles");
    if constexpr (BM == 256)
        wgmma_m64n256k8_rs(acc, a, desc, 1);
    else if constexpr (BM == 128)
        wgmma_m64n128k8_rs(acc, a, desc, 1);
    else if constexpr (BM == 64)
        wgmma_m64n64k8_rs(acc, a, desc, 1);
    else if constexpr (BM == 32) /* A's maps: one residue of a 128-row tile */
        wgmma_m64n32k8_rs(acc, a, desc, 1);
    else
        wgmma_m64n16k8_rs(acc, a, desc, 1);
}

/* Residue j's accumulators of an A_MAPS tile: BM / 8 of the BM / 2, as one wgmma's. */
template <int BM>
static __device__ __forceinline__ float (&sm90_residue_acc(float (&acc)[BM / 2], int j))[BM / 8]
{
    return *reinterpret_cast<float(*)[BM / 8]>(&acc[j * (BM / 8)]);
}

/* A consumer warp's release of a stage (all its lanes call this): to its block's producer,
 * and in a cluster to every block's, since each producer's multicast writes A into all of
 * them (me: this block's rank in the cluster). Lane 0 arrives for the warp once all lanes
 * have read their B fragments (__syncwarp), or with THREADS every lane arrives
 * (sm90_producer_copies, kernels/sm90_ws.cuh). */
template <class P, bool THREADS> static __device__ __forceinline__ void sm90_release_stage(uint64_t *empty, int me, int lane)
{
    if constexpr (THREADS) {
        static_assert(P::CLUSTER == 1, "the producer's own copies: unclustered");
        mbar_arrive(empty);
        return;
    }
    __syncwarp();
    if (lane != 0)
        return;
    mbar_arrive(empty);
    if constexpr (P::CLUSTER > 1) {
#pragma unroll
        for (int r = 0; r < P::CLUSTER; ++r)
            if (r != me)
                mbar_arrive_in_cta(empty, (unsigned)r);
    }
}

/* The consumer warpgroups only (the producer thread has left): named barrier 1. */
template <class P> static __device__ __forceinline__ void sm90_consumers_sync(void)
{
    named_barrier_sync<P::CONSUMERS * 128>(1);
}

/* Split-K fixup of one unit (the file comment): stores this slice's partial tile, then
 * returns true only in the tile's last slice to arrive, with acc = the sum of all slices
 * in order of z (the caller stores C), false in the others. ct: the consumer thread;
 * last_slice: a shared word that hands thread 0's verdict to the others. */
template <class P>
static __device__ __forceinline__ bool sm90_splitk_fixup(float (&acc)[P::BM / 2], const sm90_split &sk, int tile,
                                                         int z, int ct, int *last_slice)
{
    constexpr int CT = P::CONSUMERS * 128, CHUNKS = P::BM / 8; /* float4s per thread */
    /* float4 loads in flight per slice: all of them where the registers allow (each group
     * is a round trip to L2 per slice), 8 beside 128 accumulators, 4 under 2 blocks' cap */
    constexpr int GROUP = P::MIN_BLOCKS > 1 ? 4 : CHUNKS > 16 ? 8 : CHUNKS;
    static_assert(CHUNKS % GROUP == 0, "chunk groups");
    float4 *const slots = reinterpret_cast<float4 *>(sk.ws) + (size_t)tile * sk.split * (CHUNKS * CT) + ct;
    float4 *const mine = slots + (size_t)z * (CHUNKS * CT);
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j)
        __stcg(mine + j * CT, make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]));
    __threadfence();
    sm90_consumers_sync<P>();
    if (ct == 0) {
        __threadfence();
        const unsigned before = atomicAdd(&sk.counters[tile], 1u);
        const int last = before == (unsigned)sk.split - 1;
        if (last) {
            sk.counters[tile] = 0; /* every slice has counted: the next launch starts at 0 */
            __threadfence();
        }
        *last_slice = last;
    }
    sm90_consumers_sync<P>();
    if (!*last_slice)
        return false;
    __threadfence();
    /* acc = slice 0, then + slice 1, ...: its own values are in the workspace too */
#pragma unroll
    for (int j0 = 0; j0 < CHUNKS; j0 += GROUP)
        for (int s = 0; s < sk.split; ++s) {
            const float4 *const part = slots + (size_t)s * (CHUNKS * CT);
            float4 v[GROUP];
#pragma unroll
            for (int j = 0; j < GROUP; ++j)
                v[j] = __ldcg(part + (j0 + j) * CT);
#pragma unroll
            for (int j = 0; j < GROUP; ++j) {
                float *const a = &acc[4 * (j0 + j)];
                if (s == 0)
                    a[0] = v[j].x, a[1] = v[j].y, a[2] = v[j].z, a[3] = v[j].w;
                else
                    a[0] += v[j].x, a[1] += v[j].y, a[2] += v[j].z, a[3] += v[j].w;
            }
        }
    return true;
}

/* The block's whole work: C = A * B by tiles of P, B's TMA boxes BW (8 or 32) n wide;
 * DIRECT: the operands the producer warpgroup copies itself (kernels/sm90_ws.cuh).
 * Two fragment register sets: k-tile t uses set t % 2; after issuing k-tile t and
 * retiring k-tile t-1 (wait_group 1), k-tile t+1's fragments go into set (t+1) % 2, which
 * k-tile t-1 (just retired) used. BW: the width in n of B's TMA boxes: 8 (16 unswizzled
 * [32 k][8 n] panels per stage, as wgmma_ws) or 32 (BN / 32 boxes [32 k][32 n], 128-byte
 * rows with TMA's 128B swizzle). SPLIT: units are slices of K (sk), else whole tiles. */
template <class P, int BW, bool SPLIT, int DIRECT = 0>
static __device__ __forceinline__ void sm90_rs_gemm(uint8_t *smem_raw, int m, int n, int k, const CUtensorMap *map_a,
                                                    const CUtensorMap *map_b, float *__restrict__ c,
                                                    const sm90_split &sk, const sm90_direct &direct = sm90_direct{})
{
    constexpr int BM = P::BM, BK = P::BK, STAGES = P::STAGES;
    static_assert(P::B_MAPS == ((DIRECT & SM90_MAPS_B) != 0), "B's four maps: the tile's layout and the loads");
    static_assert(P::A_MAPS == ((DIRECT & SM90_MAPS_A) != 0), "A's four maps: the tile's layout and the loads");
    sm90_ws_block blk;
    if (!sm90_ws_start<BW, P, SPLIT, DIRECT>(smem_raw, m, n, k, map_a, map_b, &blk, sk.split, sk.kts, sk.dp,
                                             direct)) {
        if constexpr (P::CLUSTER > 1)
            cluster_sync(); /* the producer warpgroup too: see the end */
        return; /* the producer warpgroup */
    }

    /* consumers: warpgroup cw owns n rows 64 cw .. 64 cw + 63 of the tile, all BM m */
    float *const as = blk.as, *const bs = blk.bs;
    uint64_t *const full = blk.full, *const empty = blk.empty;
    const int tid = threadIdx.x, wg = tid / 128;
    const int cw = wg - 1, warp = (tid / 32) % 4, lane = tid % 32, g = lane / 4, tig = lane % 4;
    float acc[BM / 2];
    constexpr int SETS = 2;
    uint32_t frag[SETS][BK / 8][4];
    int it = 0;

    /* B^T fragments of stage s into register set BUF: element (n, k) of the tile. BW 8:
     * panel n/8, row k, 8 floats (conflict-free: a warp reads 4 rows x 32 bytes). BW 32:
     * box n/32, row k of 128 bytes, 16-byte chunk (n % 32) / 4 XOR k % 8 (TMA's 128B
     * swizzle): a warp reads 2 chunks x 4 rows, 2-way conflicts at most. */
    auto b_at = [&](int s, int nn, int kk) -> float {
        const float *const box = bs + s * (P::B_BYTES / 4) + (nn / BW) * (P::B_ROWS * BW);
        if (BW == 8)
            return box[kk * 8 + nn % 8];
        return box[kk * 32 + ((((nn % 32) >> 2) ^ (kk & 7)) << 2) + (nn & 3)];
    };
    /* B's four maps: a thread's k (8 ks + tig and 4 more) all have residue tig, rows
     * 2 ks and 2 ks + 1 of that residue's boxes; its two columns n0 and n0 + 8 lie
     * s_tig further on in them (swizzled as above, the box's row being 2 ks or 2 ks + 1) */
    const int n_first = 64 * cw + 16 * warp + g;
    const int shifted = n_first + (P::B_MAPS ? (int)(direct.b_shifts >> (2 * tig)) & 3 : 0);
    const int b4_base0 = (tig * P::B_PANELS + shifted / 32) * 256 + (shifted & 3);
    const int b4_base1 = (tig * P::B_PANELS + (shifted + 8) / 32) * 256 + ((shifted + 8) & 3);
    const int b4_chunk0 = (shifted % 32) >> 2, b4_chunk1 = ((shifted + 8) % 32) >> 2;
    /* A's maps: residue j's products take B's rows s_j earlier; B's stage begins B_LEAD
     * rows before the k-tile */
    auto load_frag_from = [&](auto buf_c, int s, int k0) { /* rows k0 + 8 ks and 4 more */
        constexpr int BUF = decltype(buf_c)::value;
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks) {
            frag[BUF][ks][0] = __float_as_uint(b_at(s, n_first, k0 + 8 * ks));
            frag[BUF][ks][1] = __float_as_uint(b_at(s, n_first + 8, k0 + 8 * ks));
            frag[BUF][ks][2] = __float_as_uint(b_at(s, n_first, k0 + 8 * ks + 4));
            frag[BUF][ks][3] = __float_as_uint(b_at(s, n_first + 8, k0 + 8 * ks + 4));
        }
    };
    auto load_frag_residue = [&](auto buf_c, int s, int j) {
        load_frag_from(buf_c, s, P::B_LEAD - (int)((direct.a_shifts >> (2 * j)) & 3) + tig);
    };
    auto load_frag = [&](auto buf_c, int s) {
        if constexpr (P::A_MAPS) {
            load_frag_residue(buf_c, s, 0);
        } else if constexpr (P::B_MAPS) {
            constexpr int BUF = decltype(buf_c)::value;
            const float *const stage = bs + s * (P::B_BYTES / 4);
#pragma unroll
            for (int ks = 0; ks < BK / 8; ++ks)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int row = 2 * ks + h;
                    frag[BUF][ks][2 * h] = __float_as_uint(stage[b4_base0 + row * 32 + ((b4_chunk0 ^ row) << 2)]);
                    frag[BUF][ks][2 * h + 1] = __float_as_uint(stage[b4_base1 + row * 32 + ((b4_chunk1 ^ row) << 2)]);
                }
        } else {
            load_frag_from(buf_c, s, tig);
        }
    };
    /* k-tile it-1's stage back to the producer(s) */
    auto release_prev_stage = [&] {
        sm90_release_stage<P, sm90_producer_copies<DIRECT>>(&empty[(it + STAGES - 1) % STAGES], blk.rank, lane);
    };
    /* k-tile `it` (fragments in set BUF): four wgmmas, committed; k-tile it-1 retired
     * (wait_group 1), its set pinned up to here and its stage released; then k-tile it+1's
     * stage awaited and its fragments loaded while k-tile it runs */
    auto step = [&](auto buf_c, bool release_prev, bool has_next) {
        constexpr int BUF = decltype(buf_c)::value;
        constexpr int PREV = (BUF + SETS - 1) % SETS, NEXT = (BUF + 1) % SETS;
        const int s = it % STAGES;
        wgmma_fence();
        const float *const ap = as + s * (BM * BK);
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks)
            sm90_rs_k8<BM>(acc, frag[BUF][ks], wgmma_desc_k128(ap + 8 * ks));
        wgmma_commit();
        wgmma_wait<1>();
        pin_fragments(frag[PREV]);
        if (release_prev)
            release_prev_stage();
        if (has_next) {
            const int s1 = (it + 1) % STAGES;
            mbar_wait(&full[s1], (unsigned)((it + 1) / STAGES) & 1u);
            load_frag(std::integral_constant<int, NEXT>(), s1);
        }
        ++it;
    };
    /* A's maps: k-tile `it` as four steps, one per residue j (its rows' wgmmas, N = BM / 4,
     * fragments in set j % 2); each retires the step before (wait_group 1), so residue 0
     * releases the previous k-tile's stage, and loads the next step's fragments */
    auto step_residue = [&](auto j_c, bool release_prev, bool has_next) {
        constexpr int J = decltype(j_c)::value, BUF = J % 2, PREV = 1 - BUF;
        const int s = it % STAGES;
        wgmma_fence();
        const float *const ap = as + s * (BM * BK) + J * (BM / 4) * BK;
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks)
            sm90_rs_k8<BM / 4>(sm90_residue_acc<BM>(acc, J), frag[BUF][ks], wgmma_desc_k128(ap + 8 * ks));
        wgmma_commit();
        wgmma_wait<1>();
        pin_fragments(frag[PREV]);
        if (J == 0 && release_prev)
            release_prev_stage();
        if constexpr (J < 3) {
            load_frag_residue(std::integral_constant<int, PREV>(), s, J + 1);
        } else {
            if (has_next) {
                const int s1 = (it + 1) % STAGES;
                mbar_wait(&full[s1], (unsigned)((it + 1) / STAGES) & 1u);
                load_frag_residue(std::integral_constant<int, PREV>(), s1, 0);
            }
            ++it;
        }
    };
    /* A's maps, a unit's first k-tile: the s_j columns before each row's first (the row
     * before it, or nothing) are zeroed, since B's zeros there would not cancel an
     * infinity; generic writes that wgmma reads through the async proxy */
    auto zero_lead = [&](int s) {
        constexpr int CT = P::CONSUMERS * 128, ROWS = BM / 4;
        for (int e = tid - 128; e < 4 * ROWS * 3; e += CT) {
            const int j = e / (ROWS * 3), row = e % (ROWS * 3) / 3, col = e % 3;
            if (col < (int)((direct.a_shifts >> (2 * j)) & 3))
                as[s * (BM * BK) + (j * ROWS + row) * BK + ((row & 7) << 2) + col] = 0.f;
        }
        fence_proxy_async_smem();
        sm90_consumers_sync<P>();
    };

    for (int u = sm90_ws_first_unit<P>(); u < blk.units; u += sm90_ws_unit_stride<P>()) {
        int tile, z, row0, col0, kt0, ktiles;
        sm90_ws_unit<P, SPLIT>(blk, u, m, n, &tile, &z, &row0, &col0, &kt0, &ktiles);
#pragma unroll
        for (int i = 0; i < BM / 2; ++i)
            acc[i] = 0.f;
        mbar_wait(&full[it % STAGES], (unsigned)(it / STAGES) & 1u);
        if constexpr (P::A_MAPS) {
            if (kt0 == 0)
                zero_lead(it % STAGES);
        }
        load_frag(std::integral_constant<int, 0>(), it % STAGES);
        if constexpr (P::A_MAPS) {
            for (int t = 0; t < ktiles; ++t) {
                step_residue(std::integral_constant<int, 0>(), t > 0, false);
                step_residue(std::integral_constant<int, 1>(), false, false);
                step_residue(std::integral_constant<int, 2>(), false, false);
                step_residue(std::integral_constant<int, 3>(), false, t + 1 < ktiles);
            }
        } else {
            for (int t = 0; t < ktiles; t += SETS) {
                step(std::integral_constant<int, 0>(), t > 0, t + 1 < ktiles);
                if (t + 1 < ktiles)
                    step(std::integral_constant<int, 1 % SETS>(), true, t + 2 < ktiles);
                if (SETS > 2 && t + 2 < ktiles)
                    step(std::integral_constant<int, 2 % SETS>(), true, t + 3 < ktiles);
            }
        }
        wgmma_wait<0>();
#pragma unroll
        for (int b2 = 0; b2 < SETS; ++b2)
            pin_fragments(frag[b2]);
        release_prev_stage(); /* the unit's last stage */

        float *out = c;
        if constexpr (SPLIT) {
            /* sliced tiles only; the workspace and the counters hold those alone */
            if (sk.split > 1 && tile >= blk.dp) {
                if (!sk.counters) /* the reduction kernel after this one sums the slices */
                    out = sk.ws + (size_t)z * (size_t)m * (size_t)n;
                else if (!sm90_splitk_fixup<P>(acc, sk, (tile - blk.dp) * P::CLUSTER + blk.rank, z, tid - 128,
                                               blk.flag))
                    continue; /* the tile's last slice to arrive stores it */
            }
        }
        if constexpr (P::A_MAPS)
            sm90_store_ct_residues<BM>(acc, out, m, n, row0, col0 + 64 * cw + 16 * warp + g, tig);
        else
            sm90_store_ct<BM>(acc, out, m, n, row0, col0 + 64 * cw + 16 * warp + g, tig);
    }
    /* a cluster's blocks leave together: the other block may still arrive on this one's
     * barriers (its consumers' releases) until it is done */
    if constexpr (P::CLUSTER > 1)
        cluster_sync();
}
#endif

#endif

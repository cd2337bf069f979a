/* The warp-specialised RS kernel of kernels/sm90_rs.cuh (wgmma_rs, and tf32_auto's tiles
 * with split-K) run on the host, so that its index math and protocols are checked without
 * a GPU: one OS thread per CUDA thread, the mbarriers as phase counters with arrivals and
 * transaction bytes (a wait that never ends fails), TMA as an immediate box copy with
 * zero-fill and the 128B swizzle applied to the shared address, wgmma m64nNk8 as a
 * warpgroup-collective product that reads B^T from its fragment registers and A^T through
 * the shared-memory descriptor (swizzle included), named barriers, atomics and fences as
 * the host's. Shared memory is poisoned with NaN before each block, C and the workspace
 * have guard words. Every tile of kernels/tf32_configs.def runs the plans the rule makes
 * (kernels/tf32_plan.c) on a machine of 3 slots (3 SMs, or 6 for clusters of 2: both
 * blocks of a cluster run at once, sharing A by multicast), so the persistent blocks walk several units,
 * at ragged shapes with and without split-K (mostly with whole tiles before the sliced
 * last wave: few slots); split-K runs twice with the blocks in
 * opposite orders (another unit of each tile arrives last) and C must be the same bit for
 * bit, the tile counters zero after each launch. The direct plans (operands TMA cannot
 * address, loaded by the producer warpgroup's cp.async) read unpadded operands; a copy lands
 * only when the thread's cp_async_wait retires it, so a stage handed over before its
 * copies arrive holds NaN. wgmma_rs's instantiation runs too.
 * What it cannot see: timing (a wgmma completes when issued, so register operands can
 * never be overwritten in flight), the hardware's own rounding of TF32 (inputs truncated
 * here), bank conflicts; compute-sanitizer on the H200 (tools/h200_session.sh tf32tune)
 * covers races. */
#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <cuda.h> /* CUtensorMap: 128 opaque bytes, filled here with the emulator's map */

#include "tests/test.h"

/* ---- what the kernel body needs from CUDA, on the host ---- */
#define SM90_EMULATED 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
struct float4 {
    float x, y, z, w;
};
static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
thread_local dim3 blockIdx, threadIdx;
static dim3 gridDim;
using std::min;

/* A bad address or a broken protocol is a failed check, then the end. */
static void must(bool ok, const char *what)
{
    if (!ok) {
        printf("FAIL - %s\n", what);
        fflush(stdout);
        abort();
    }
}

static inline uint32_t __float_as_uint(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline float uint_as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static inline void __stcg(float4 *p, float4 v) { *p = v; }
static inline float4 __ldcg(const float4 *p) { return *p; }

/* mbarriers: per shared address, the arrivals still expected in the current phase, the
 * transaction bytes still to land, and the phase number */
struct mbarrier {
    unsigned count, pending, phase;
    long tx;
};

/* One running block: its shared memory (address 0 of its shared window is smem), its
 * mbarriers, its barriers and the wgmma operand exchange; in a cluster, the cluster's
 * blocks by rank and the cluster barrier. The blocks of a cluster run at once, each
 * thread knowing its own block. */
struct emu_block {
    uint8_t *smem;
    size_t smem_size;
    std::map<uint32_t, mbarrier> mbars;
    std::barrier<> *all, *consumers, *wg[2], *cluster_barrier;
    int consumer_count, rank, cluster_size;
    emu_block **cluster;
    float wg_a[2][64][8];
};
static thread_local emu_block *blk_now;

static inline uint32_t sm90_smem_addr(const void *p)
{
    const uint8_t *q = static_cast<const uint8_t *>(p);
    must(q >= blk_now->smem && q < blk_now->smem + blk_now->smem_size,
         "a shared-memory address inside the block's shared memory");
    return (uint32_t)(q - blk_now->smem);
}
static inline float smem_float(uint32_t off)
{
    must(off % 4 == 0 && off + 4 <= blk_now->smem_size, "a wgmma operand read inside shared memory, aligned");
    float v;
    memcpy(&v, blk_now->smem + off, 4);
    return v;
}

static inline void __syncthreads() { blk_now->all->arrive_and_wait(); }
/* no-op: every lane's fragment reads precede its warpgroup's next wgmma, whose operand
 * exchange is a barrier of the warpgroup, before lane 0 releases the stage */
static inline void __syncwarp() {}
template <int COUNT> static inline void named_barrier_sync(int id)
{
    must(id == 1 && COUNT == blk_now->consumer_count, "named barrier 1 counts the consumer warpgroups' threads");
    blk_now->consumers->arrive_and_wait();
}
template <int R> static inline void setmaxnreg_inc() {}
template <int R> static inline void setmaxnreg_dec() {}
static inline void mbar_init_fence() {}
static inline void fence_proxy_async_smem() {}
static inline void wgmma_fence() {}
static inline void wgmma_commit() {}
template <int N> static inline void wgmma_wait() {}

static std::mutex mbar_mutex;
static std::condition_variable mbar_cv;
/* the barrier at shared address a of block `in` (this thread's, or another of its cluster) */
static mbarrier &mbar_in(emu_block *in, uint32_t a)
{
    must(a % 8 == 0 && in->mbars.count(a), "an mbarrier operation on an initialised, 8-byte aligned barrier");
    return in->mbars[a];
}
static mbarrier &mbar_at(uint64_t *bar) { return mbar_in(blk_now, sm90_smem_addr(bar)); }
static void mbar_settle(mbarrier &b)
{
    /* bytes may land before the arrival that expects them (another block's multicast:
     * the count is signed), but never more than expected once every arrival is in */
    must(b.pending > 0 || b.tx >= 0, "no more transaction bytes complete than the phase's arrivals expected");
    if (b.pending == 0 && b.tx == 0) {
        b.phase++;
        b.pending = b.count;
        mbar_cv.notify_all();
    }
}
static inline void mbar_init(uint64_t *bar, unsigned count)
{
    std::lock_guard<std::mutex> lock(mbar_mutex);
    blk_now->mbars[sm90_smem_addr(bar)] = {count, count, 0, 0};
}
static void mbar_arrive_tx_in(emu_block *in, uint32_t a, long bytes)
{
    std::lock_guard<std::mutex> lock(mbar_mutex);
    mbarrier &b = mbar_in(in, a);
    must(b.pending > 0, "no arrival beyond an mbarrier's count in one phase");
    b.tx += bytes;
    b.pending--;
    mbar_settle(b);
}
static inline void mbar_arrive_expect_tx(uint64_t *bar, unsigned bytes)
{
    mbar_arrive_tx_in(blk_now, sm90_smem_addr(bar), bytes);
}
static inline void mbar_arrive(uint64_t *bar) { mbar_arrive_tx_in(blk_now, sm90_smem_addr(bar), 0); }
static emu_block *cluster_block(unsigned cta)
{
    must(cta < (unsigned)blk_now->cluster_size, "a CTA rank inside the cluster");
    return blk_now->cluster[cta];
}
/* mapa + arrive: the barrier at the same offset in block `cta` of the cluster */
static inline void mbar_arrive_in_cta(uint64_t *bar, unsigned cta)
{
    mbar_arrive_tx_in(cluster_block(cta), sm90_smem_addr(bar), 0);
}
static inline unsigned cluster_cta_rank() { return (unsigned)blk_now->rank; }
static inline void cluster_sync() { blk_now->cluster_barrier->arrive_and_wait(); }
static void mbar_complete_tx_in(emu_block *in, uint32_t a, long bytes)
{
    std::lock_guard<std::mutex> lock(mbar_mutex);
    mbarrier &b = mbar_in(in, a);
    b.tx -= bytes;
    mbar_settle(b);
}
/* try_wait.parity: done once the phase of that parity has completed, i.e. the current
 * phase has the other parity */
static void mbar_wait(uint64_t *bar, unsigned parity)
{
    std::unique_lock<std::mutex> lock(mbar_mutex);
    mbarrier &b = mbar_at(bar);
    const bool done = mbar_cv.wait_for(lock, std::chrono::seconds(30), [&] { return (b.phase & 1u) != parity; });
    must(done, "an mbarrier wait completes (30 s without the phase: a deadlock)");
}

/* A tensor map, as the emulator fills CUtensorMap's 128 bytes: a rows x cols row-major
 * matrix with row pitch `pitch` floats, boxes of box_cols x box_rows. */
struct emu_map {
    const float *base;
    long rows, cols, pitch;
    int box_cols, box_rows, swizzle128;
};
static_assert(sizeof(emu_map) <= sizeof(CUtensorMap), "a tensor map holds the emulator's");
static inline void tma_prefetch_map(const CUtensorMap *) {}
/* the box at (c0 innermost, c1) into shared memory at once, zeros outside the matrix;
 * 128B swizzle: 16-byte chunk bits 4-6 of the shared address XOR its bits 7-9. Into the
 * blocks of cta_mask (multicast: the same offset in each, each one's barrier at bar's
 * offset) */
static void tma_load_box(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar, unsigned cta_mask)
{
    emu_map m;
    memcpy(&m, map, sizeof m);
    const uint32_t d = sm90_smem_addr(dst), ba = sm90_smem_addr(bar);
    const long bytes = (long)m.box_rows * m.box_cols * 4;
    must(d + (size_t)bytes <= blk_now->smem_size, "a TMA box lands inside shared memory");
    must(!m.swizzle128 || (m.box_cols * 4 == 128 && d % 1024 == 0), "a 128B-swizzled box: 128-byte rows, 1024-aligned");
    must(d % 128 == 0, "a TMA destination 128-byte aligned");
    for (int r = 0; r < m.box_rows; r++)
        for (int cc = 0; cc < m.box_cols; cc++) {
            const long gr = (long)c1 + r, gc = (long)c0 + cc;
            const float v = gr >= 0 && gr < m.rows && gc >= 0 && gc < m.cols ? m.base[gr * m.pitch + gc] : 0.f;
            uint32_t off = d + (uint32_t)(r * m.box_cols + cc) * 4;
            if (m.swizzle128)
                off ^= ((off >> 7) & 7u) << 4;
            for (unsigned cta = 0; cta < 16; cta++)
                if (cta_mask >> cta & 1u)
                    memcpy(cluster_block(cta)->smem + off, &v, 4);
        }
    for (unsigned cta = 0; cta < 16; cta++)
        if (cta_mask >> cta & 1u)
            mbar_complete_tx_in(cluster_block(cta), ba, bytes);
}
static void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar)
{
    tma_load_box(dst, map, c0, c1, bar, 1u << blk_now->rank);
}
static void tma_load_2d_multicast(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar,
                                  uint16_t cta_mask)
{
    must(cta_mask != 0 && cta_mask >> blk_now->cluster_size == 0, "a multicast mask of the cluster's CTAs");
    tma_load_box(dst, map, c0, c1, bar, cta_mask);
}

/* cp.async of 4 bytes (kernels/pipeline.cuh): the source is read at issue, from inside an
 * operand (emu_sources); the shared word is written only when a cp_async_wait retires the
 * copy's group, so a stage handed over before its copies land holds NaN. */
static std::vector<std::pair<const float *, const float *>> emu_sources;
struct emu_copy {
    float *dst;
    float value;
};
static thread_local std::vector<emu_copy> copies_open;
static thread_local std::vector<std::vector<emu_copy>> copy_groups;
static inline void cp_async4(float *dst, const float *src, bool src_ok)
{
    sm90_smem_addr(dst);
    must(((uintptr_t)dst & 3) == 0, "a cp.async destination 4-byte aligned");
    bool inside = false;
    for (auto &r : emu_sources)
        inside = inside || (src >= r.first && src < r.second);
    must(inside, "a cp.async source inside an operand (the base, where src_ok is false)");
    copies_open.push_back({dst, src_ok ? *src : 0.f});
}
static inline void cp_async_commit() { copy_groups.push_back(std::move(copies_open)), copies_open.clear(); }
template <int N> static inline void cp_async_wait()
{
    while (copy_groups.size() > (size_t)N) {
        for (const emu_copy &c : copy_groups.front())
            memcpy(c.dst, &c.value, 4);
        copy_groups.erase(copy_groups.begin());
    }
}

/* TF32: the 10 mantissa bits an input keeps (truncated) */
static inline double tf32(float f) { return uint_as_float(__float_as_uint(f) & 0xFFFFE000u); }

/* wgmma m64nNk8 with A from registers: the warpgroup's 128 threads hand in their A
 * fragments (a0 row 16q+g col tig, a1 row +8, a2 col +4, a3 both), then each computes its
 * accumulators d[4j+2h+e] = (row 16q+g+8h, column 8j+2tig+e) from B^T by the descriptor:
 * K-major, 128B swizzle, 8-row groups SBO bytes apart. */
template <int N> static void wgmma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t desc, int scale_d)
{
    const int wgi = (int)threadIdx.x / 128 - 1, t = (int)threadIdx.x % 128;
    must(wgi >= 0 && wgi < 2, "wgmma from a consumer warpgroup");
    const int q = t / 32, g = (t % 32) / 4, tig = t % 4;
    blk_now->wg_a[wgi][16 * q + g][tig] = uint_as_float(a[0]);
    blk_now->wg_a[wgi][16 * q + g + 8][tig] = uint_as_float(a[1]);
    blk_now->wg_a[wgi][16 * q + g][tig + 4] = uint_as_float(a[2]);
    blk_now->wg_a[wgi][16 * q + g + 8][tig + 4] = uint_as_float(a[3]);
    blk_now->wg[wgi]->arrive_and_wait();
    const uint32_t start = (uint32_t)(desc & 0x3FFF) << 4, sbo = (uint32_t)((desc >> 32) & 0x3FFF) << 4;
    must((desc >> 62) == 1 && sbo == 1024 && ((desc >> 49) & 7) == 0, "a K-major 128B-swizzle descriptor, SBO 1024");
    for (int j = 0; j < N / 8; j++)
        for (int h = 0; h < 2; h++)
            for (int e = 0; e < 2; e++) {
                const int row = 16 * q + g + 8 * h, col = 8 * j + 2 * tig + e;
                double sum = 0;
                for (int kk = 0; kk < 8; kk++) {
                    uint32_t off = start + (uint32_t)(col / 8) * sbo + (uint32_t)(col % 8) * 128 + kk * 4;
                    off ^= ((off >> 7) & 7u) << 4;
                    sum += tf32(blk_now->wg_a[wgi][row][kk]) * tf32(smem_float(off));
                }
                float &acc = d[4 * j + 2 * h + e];
                acc = (scale_d ? acc : 0.f) + (float)sum;
            }
    blk_now->wg[wgi]->arrive_and_wait();
}
static inline void wgmma_m64n16k8_rs(float (&d)[8], const uint32_t (&a)[4], uint64_t desc, int s) { wgmma_rs<16>(d, a, desc, s); }
static inline void wgmma_m64n32k8_rs(float (&d)[16], const uint32_t (&a)[4], uint64_t desc, int s) { wgmma_rs<32>(d, a, desc, s); }
static inline void wgmma_m64n64k8_rs(float (&d)[32], const uint32_t (&a)[4], uint64_t desc, int s) { wgmma_rs<64>(d, a, desc, s); }
static inline void wgmma_m64n128k8_rs(float (&d)[64], const uint32_t (&a)[4], uint64_t desc, int s) { wgmma_rs<128>(d, a, desc, s); }
static inline void wgmma_m64n256k8_rs(float (&d)[128], const uint32_t (&a)[4], uint64_t desc, int s) { wgmma_rs<256>(d, a, desc, s); }

#include "kernels/sm90_rs.cuh"
#include "kernels/tf32_plan.h"

#define TF32_CONFIG(name, bm, consumers, stages, minb, cluster, eff) \
    using tf32_cfg_##name = sm90_ws_tile<bm, consumers, stages, minb, cluster>;
#include "kernels/tf32_configs.def"
#undef TF32_CONFIG

/* guard words around a device buffer: a write past either end changes them */
static const int GUARD = 64;
static bool guards_intact(const std::vector<float> &v)
{
    for (int i = 0; i < GUARD; i++)
        if (__float_as_uint(v[i]) != 0x7fc00bad || __float_as_uint(v[v.size() - 1 - i]) != 0x7fc00bad)
            return false;
    return true;
}
static std::vector<float> guarded(size_t n, float fill)
{
    std::vector<float> v(n + 2 * GUARD, fill);
    for (int i = 0; i < GUARD; i++)
        v[i] = v[v.size() - 1 - i] = uint_as_float(0x7fc00bad);
    return v;
}

/* One launch of P on `grid` blocks, block by block (forward or reversed), each block's
 * threads as threads; A and B with row pitches rounded up to 4 floats (as the launcher's
 * padded copies), the padding NaN. */
template <class P, bool SPLIT, int DIRECT = 0>
static void launch(int m, int n, int k, const std::vector<float> &a, long lda, const std::vector<float> &b, long ldb,
                   float *c, const sm90_split &sk, unsigned grid, bool reversed, const float *b_first = nullptr,
                   const float *a_first = nullptr)
{
    emu_sources = {{a.data(), a.data() + a.size()}, {b.data(), b.data() + b.size()}};
    /* the operands' first elements (row maps: any 4-byte alignment) */
    const float *const pb = b_first ? b_first : b.data(), *const pa = a_first ? a_first : a.data();
    CUtensorMap map_a, map_b, b_rows[4], a_rows[4];
    const emu_map ea = {pa, m, k, lda, 32, P::A_BOX_ROWS, 1}, eb = {pb, k, n, ldb, 32, P::B_ROWS, 1};
    memset(&map_a, 0, sizeof map_a);
    memset(&map_b, 0, sizeof map_b);
    memcpy(&map_a, &ea, sizeof ea);
    memcpy(&map_b, &eb, sizeof eb);
    /* B's four row maps as the launcher makes them (kernels/sm90_tf32.cuh, sm90_b_row_maps):
     * rows j, j + 4, ... at pitch 4 ldb, the base aligned down to 16 bytes by s_j floats */
    auto row_maps = [](CUtensorMap (&maps)[4], const float *base, const std::vector<float> &buf, long rows, long cols,
                       long ld, int box_rows) {
        unsigned shifts = 0;
        memset(maps, 0, sizeof maps);
        for (int j = 0; j < 4; j++) {
            const float *first = base + (size_t)j * ld;
            const int shift = (int)(((uintptr_t)first & 15) / 4);
            must(first - shift >= buf.data(), "row maps begin inside the operand's buffer");
            const emu_map ej = {first - shift, (rows - j + 3) / 4, cols + shift, 4 * ld, 32, box_rows, 1};
            memcpy(&maps[j], &ej, sizeof ej);
            shifts |= (unsigned)shift << (2 * j);
        }
        return shifts;
    };
    const unsigned b_shifts = DIRECT & SM90_MAPS_B ? row_maps(b_rows, pb, b, k, n, ldb, 8) : 0;
    const unsigned a_shifts = DIRECT & SM90_MAPS_A ? row_maps(a_rows, pa, a, m, k, lda, P::A_BOX_ROWS) : 0;
    /* grid: clusters of P::CLUSTER blocks, run one cluster at a time, its blocks at once;
     * each block's dynamic shared memory starts 16 bytes into a 1024-aligned window (as
     * after a static variable), so the kernel's own alignment is exercised */
    constexpr int CL = P::CLUSTER;
    std::vector<std::vector<uint8_t>> windows(CL, std::vector<uint8_t>(16 + P::SMEM + 1024));
    gridDim = {grid * CL, 1, 1};
    for (unsigned i = 0; i < grid; i++) {
        const unsigned cl = reversed ? grid - 1 - i : i;
        std::vector<emu_block> blocks(CL);
        emu_block *ranks[CL];
        std::barrier<> cluster_barrier(CL * P::NT);
        std::vector<std::unique_ptr<std::barrier<>>> bars;
        for (int r = 0; r < CL; r++) {
            emu_block &e = blocks[r];
            e.smem = windows[r].data() + ((1024 - ((uintptr_t)windows[r].data() & 1023)) & 1023);
            e.smem_size = 16 + P::SMEM;
            std::fill((float *)e.smem, (float *)(e.smem + e.smem_size), NAN);
            for (int want : {P::NT, P::CONSUMERS * 128, 128, 128})
                bars.emplace_back(new std::barrier<>(want));
            e.all = bars[4 * r].get(), e.consumers = bars[4 * r + 1].get();
            e.wg[0] = bars[4 * r + 2].get(), e.wg[1] = bars[4 * r + 3].get();
            e.cluster_barrier = &cluster_barrier;
            e.consumer_count = P::CONSUMERS * 128;
            e.rank = r, e.cluster_size = CL, e.cluster = ranks;
            ranks[r] = &e;
        }
        std::vector<std::thread> threads;
        for (int r = 0; r < CL; r++)
            for (int t = 0; t < P::NT; t++)
                threads.emplace_back([&, r, t] {
                    blk_now = ranks[r];
                    blockIdx = {cl * CL + (unsigned)r, 0, 0};
                    threadIdx = {(unsigned)t, 0, 0};
                    sm90_rs_gemm<P, 32, SPLIT, DIRECT>(ranks[r]->smem + 16, m, n, k, (const CUtensorMap *)&map_a,
                                                       (const CUtensorMap *)&map_b, c, sk,
                                                       sm90_direct{pa, pb, b_rows, b_shifts, a_rows, a_shifts});
                    must(copy_groups.empty() && copies_open.empty(), "every cp.async retired by its thread");
                });
        for (auto &t : threads)
            t.join();
    }
}

struct operands {
    int m, n, k;
    long lda, ldb;
    std::vector<float> a, b;
    std::vector<double> ref; /* the product of the TF32-truncated inputs, in double */
};

static operands make_operands(int m, int n, int k)
{
    operands o{m, n, k, (k + 3) / 4 * 4, (n + 3) / 4 * 4, {}, {}, {}};
    std::mt19937 rng(m * 131 + n * 7 + k);
    std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
    o.a.assign((size_t)m * o.lda, NAN);
    o.b.assign((size_t)k * o.ldb, NAN);
    for (int i = 0; i < m; i++)
        for (int kk = 0; kk < k; kk++)
            o.a[(size_t)i * o.lda + kk] = uniform(rng);
    for (int kk = 0; kk < k; kk++)
        for (int j = 0; j < n; j++)
            o.b[(size_t)kk * o.ldb + j] = uniform(rng);
    o.ref.assign((size_t)m * n, 0.0);
    for (int i = 0; i < m; i++)
        for (int kk = 0; kk < k; kk++) {
            const double x = tf32(o.a[(size_t)i * o.lda + kk]);
            for (int j = 0; j < n; j++)
                o.ref[(size_t)i * n + j] += x * tf32(o.b[(size_t)kk * o.ldb + j]);
        }
    return o;
}

/* relative error of C against the reference, NaN when an element was never written */
static double rel_error(const operands &o, const std::vector<float> &c)
{
    double err = 0, ref2 = 0;
    for (size_t i = 0; i < o.ref.size(); i++) {
        const double got = c[GUARD + i];
        if (!std::isfinite(got))
            return NAN;
        err += (got - o.ref[i]) * (got - o.ref[i]);
        ref2 += o.ref[i] * o.ref[i];
    }
    return std::sqrt(err / (ref2 + 1e-300));
}

/* A reduce plan's second kernel, on the host: C = the slices of ws summed in order of z;
 * false if the GEMM wrote any element of C itself (it must write only ws). */
static bool reduce_on_host(const float *ws, int split, int m, int n, std::vector<float> &c)
{
    const size_t count = (size_t)m * n;
    bool untouched = true;
    for (size_t i = 0; i < count; i++) {
        untouched = untouched && std::isnan(c[GUARD + i]);
        float sum = ws[i];
        for (int z = 1; z < split; z++)
            sum += ws[(size_t)z * count + i];
        c[GUARD + i] = sum;
    }
    return untouched;
}

/* A and B row by row at pitches k and n (no padding): what a direct plan's kernel reads */
static std::vector<float> tight(const std::vector<float> &v, long rows, long cols, long pitch)
{
    std::vector<float> t((size_t)rows * cols);
    for (long r = 0; r < rows; r++)
        std::copy(v.begin() + r * pitch, v.begin() + r * pitch + cols, t.begin() + r * cols);
    return t;
}

/* One launch of a plan: by TMA from the padded operands, or with its direct operands
 * (p.direct) loaded by the kernel from tight ones */
template <class P>
static void launch_plan(const operands &o, const tf32_plan &p, float *c, const sm90_split &sk, bool reversed)
{
    if constexpr (P::CLUSTER == 1) {
        if (p.maps_b) {
            /* B tight (pitch n) one float into its buffer: every s_j, s_0 too, non-zero or not
             * by the row, and the maps' first columns read B's buffer before B itself */
            const std::vector<float> tb = tight(o.b, o.k, o.n, o.ldb);
            std::vector<float> b(tb.size() + 1, NAN);
            std::copy(tb.begin(), tb.end(), b.begin() + 1);
            launch<sm90_b_maps_tile<P>, true, SM90_MAPS_B>(o.m, o.n, o.k, o.a, o.lda, b, o.n, c, sk, (unsigned)p.grid,
                                                           reversed, b.data() + 1);
            return;
        }
        if (p.maps_a) {
            /* A tight (pitch k) one float into its buffer; its first columns before A read
             * the buffer's NaN or the row before: zeroed by the kernel, or C fails */
            const std::vector<float> ta = tight(o.a, o.m, o.k, o.lda);
            std::vector<float> a(ta.size() + 1, INFINITY);
            std::copy(ta.begin(), ta.end(), a.begin() + 1);
            launch<sm90_a_maps_tile<P>, true, SM90_MAPS_A>(o.m, o.n, o.k, a, o.k, o.b, o.ldb, c, sk, (unsigned)p.grid,
                                                           reversed, nullptr, a.data() + 1);
            return;
        }
        if (p.direct != 0) {
            const std::vector<float> a = tight(o.a, o.m, o.k, o.lda), b = tight(o.b, o.k, o.n, o.ldb);
            if (p.direct == 1)
                launch<P, true, 1>(o.m, o.n, o.k, a, o.k, b, o.n, c, sk, (unsigned)p.grid, reversed);
            else if (p.direct == 2)
                launch<P, true, 2>(o.m, o.n, o.k, a, o.k, b, o.n, c, sk, (unsigned)p.grid, reversed);
            else
                launch<P, true, 3>(o.m, o.n, o.k, a, o.k, b, o.n, c, sk, (unsigned)p.grid, reversed);
            return;
        }
    }
    launch<P, true>(o.m, o.n, o.k, o.a, o.lda, o.b, o.ldb, c, sk, (unsigned)p.grid, reversed);
}

/* tf32_auto's plan of tile `config` with `split` slices at o's shape on a 3-slot machine
 * (reduce: the slices' partials into the workspace, summed as the reduction kernel does;
 * load: TF32_LOAD_TMA or TF32_LOAD_DIRECT), run (twice with split-K, the blocks in
 * opposite orders) and checked */
template <class P>
static void check_plan(int config, const operands &o, int split, int reduce = 0, int load = TF32_LOAD_TMA)
{
    struct tf32_machine mc = {3 * P::CLUSTER, {0}, {0}, {0}}; /* 3 slots: blocks, or clusters */
    struct tf32_plan p;
    if (tf32_plan_make_kind(&mc, o.m, o.n, o.k, config, split, load, reduce, &p) != 0)
        return; /* not a candidate at this shape */
    char what[96];
    tf32_plan_describe(&p, what, sizeof what);
    std::vector<float> ws = guarded(tf32_plan_workspace_bytes(&p) / 4, NAN);
    /* counters for the sliced tiles only (the full waves' tiles run whole), guarded */
    const long sliced = (long)(tf32_plan_counter_bytes(&p) / sizeof(unsigned));
    std::vector<unsigned> counters(sliced + 2, 0);
    counters[0] = counters[sliced + 1] = 0xdeadbeef;
    const sm90_split sk = {ws.data() + GUARD, reduce ? nullptr : counters.data() + 1, p.split, p.kts,
                           (int)p.dp_tiles};
    std::vector<float> c1 = guarded((size_t)o.m * o.n, NAN), c2 = c1;
    launch_plan<P>(o, p, c1.data() + GUARD, sk, false);
    bool untouched = !reduce || reduce_on_host(ws.data() + GUARD, p.split, o.m, o.n, c1);
    bool zero = std::all_of(counters.begin() + 1, counters.end() - 1, [](unsigned x) { return x == 0; });
    const double rel = rel_error(o, c1);
    bool same = true;
    if (p.split > 1) {
        std::fill(ws.begin() + GUARD, ws.end() - GUARD, NAN);
        launch_plan<P>(o, p, c2.data() + GUARD, sk, true);
        untouched = untouched && (!reduce || reduce_on_host(ws.data() + GUARD, p.split, o.m, o.n, c2));
        same = memcmp(c1.data(), c2.data(), c1.size() * 4) == 0;
        zero = zero && std::all_of(counters.begin() + 1, counters.end() - 1, [](unsigned x) { return x == 0; });
    }
    zero = zero && untouched;
    const bool guards = guards_intact(c1) && guards_intact(c2) && guards_intact(ws) && counters[0] == 0xdeadbeef &&
                        counters[sliced + 1] == 0xdeadbeef;
    CHECK(rel < 1e-5 && same && zero && guards,
          "%dx%dx%d, %s: %ld units (%ld whole tiles) on %ld blocks, %d k-tiles a slice: relative error %.2e%s%s%s", o.m,
          o.n, o.k, what, p.units, p.dp_tiles, p.grid * P::CLUSTER, p.kts, rel, p.split > 1 ? (same ? ", C bit for bit the same in reverse block order" : ", C differs in reverse block order") : "",
          zero ? "" : ", counters left non-zero or C written by a reduce plan's GEMM",
          guards ? "" : ", a write past a buffer's end");
}

template <class P>
static void check_config(int config, const operands &o, std::initializer_list<int> splits, int reduce = 0,
                         int load = TF32_LOAD_TMA)
{
    for (int s : splits)
        check_plan<P>(config, o, s, reduce, load);
}

/* wgmma_rs: the template's 256 x 128 tile without split-K, 2 persistent blocks */
static void check_wgmma_rs(const operands &o)
{
    std::vector<float> c = guarded((size_t)o.m * o.n, NAN);
    const int tiles = ((o.m + 255) / 256) * ((o.n + 127) / 128);
    launch<sm90_ws_cfg, false>(o.m, o.n, o.k, o.a, o.lda, o.b, o.ldb, c.data() + GUARD, sm90_split{}, tiles < 2 ? tiles : 2,
                               false);
    const double rel = rel_error(o, c);
    CHECK(rel < 1e-5 && guards_intact(c), "wgmma_rs's instantiation at %dx%dx%d, %d tiles on %d blocks: relative error %.2e",
          o.m, o.n, o.k, tiles, tiles < 2 ? tiles : 2, rel);
}

int main()
{
    const operands tiny = make_operands(1, 1, 1), ragged = make_operands(17, 33, 65);
    const operands mid = make_operands(130, 67, 300), deep = make_operands(200, 136, 1000);
    const operands wide = make_operands(70, 300, 700);
    const operands waves = make_operands(770, 300, 400); /* more tiles than slots for the large tiles */
    const operands odd_k = make_operands(150, 72, 333);  /* A's rows off 16 bytes: loaded directly */
    const operands odd_n = make_operands(140, 201, 334);  /* B's rows 4 bytes apart mod 16: B's maps */
    const operands waves_odd = make_operands(770, 300, 401); /* A's maps over several waves of tiles */
    check_wgmma_rs(tiny);
    check_wgmma_rs(make_operands(300, 200, 100));
    int ci = 0;
#define TF32_CONFIG(name, ...)                                                                               \
    check_config<tf32_cfg_##name>(ci, tiny, {1});                                                            \
    check_config<tf32_cfg_##name>(ci, ragged, {1});                                                          \
    check_config<tf32_cfg_##name>(ci, mid, {1, 2});                                                          \
    check_config<tf32_cfg_##name>(ci, deep, {3, 8});                                                         \
    check_config<tf32_cfg_##name>(ci, wide, {4});                                                            \
    check_config<tf32_cfg_##name>(ci, waves, {2});                                                           \
    check_config<tf32_cfg_##name>(ci, deep, {8}, 1);                                                         \
    check_config<tf32_cfg_##name>(ci, waves, {2}, 1);                                                        \
    check_config<tf32_cfg_##name>(ci, ragged, {1}, 0, TF32_LOAD_DIRECT);                                     \
    check_config<tf32_cfg_##name>(ci, mid, {1, 2}, 0, TF32_LOAD_DIRECT);                                     \
    check_config<tf32_cfg_##name>(ci, odd_k, {1, 3}, 0, TF32_LOAD_DIRECT);                                   \
    check_config<tf32_cfg_##name>(ci, odd_k, {3}, 1, TF32_LOAD_DIRECT);                                      \
    check_config<tf32_cfg_##name>(ci, ragged, {1}, 0, TF32_LOAD_MAPS_B);                                     \
    check_config<tf32_cfg_##name>(ci, mid, {1, 2}, 0, TF32_LOAD_MAPS_B);                                     \
    check_config<tf32_cfg_##name>(ci, odd_n, {1, 3}, 0, TF32_LOAD_MAPS_B);                                   \
    check_config<tf32_cfg_##name>(ci, odd_n, {3}, 1, TF32_LOAD_MAPS_B);                                      \
    check_config<tf32_cfg_##name>(ci, ragged, {1}, 0, TF32_LOAD_MAPS_A);                                     \
    check_config<tf32_cfg_##name>(ci, odd_k, {1, 3}, 0, TF32_LOAD_MAPS_A);                                   \
    check_config<tf32_cfg_##name>(ci, odd_k, {3}, 1, TF32_LOAD_MAPS_A);                                      \
    check_config<tf32_cfg_##name>(ci, waves_odd, {2}, 0, TF32_LOAD_MAPS_A);                                  \
    ci++;
#include "kernels/tf32_configs.def"
#undef TF32_CONFIG
    TEST_EXIT();
}

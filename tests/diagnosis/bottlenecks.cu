/* Diagnosis benchmark: correct SGEMM kernels, each with exactly one injected performance
 * bottleneck, plus a control without one, so that a diagnosis can be checked for naming the
 * injected cause. Built by `make` into build/tests/diagnosis/libgemmprof_bottlenecks.so; the
 * cases, their shapes and the counter evidence each should produce are in
 * tests/diagnosis/README.md and cases.txt.
 *
 * All but the DRAM and block-size cases share one kernel, bn_gemm<F>: 64x64 block tiles, BK = 8, 256 threads
 * as a 16x16 grid, each thread 4x4 outputs strided by the grid (rows tr + 16i, columns
 * tc + 16j), so the inner loop's shared reads are broadcasts (A) or 16 consecutive words (B)
 * and the C stores are coalesced. F holds at most one cause bit; each `F & CAUSE` below is the
 * whole of that injection. */
#include <cuda_runtime.h>

#include <climits>
#include <type_traits>

#include "include/gemmprof_plugin.h"

namespace {

enum : unsigned {
    NONE = 0,
    UNCOAL_LD = 1u << 0, /* global->shared copy: consecutive lanes walk down a column */
    UNCOAL_ST = 1u << 1, /* output ownership: consecutive lanes own consecutive rows */
    BANKS = 1u << 2,     /* B tile laid out so the inner loop's column reads are 16-way conflicted */
    REGS = 1u << 3,      /* ~200 extra values kept live: 1 block of 256 threads per SM */
    SPILL = 1u << 4,     /* accumulators in a local array indexed at run time */
    DIVERGE = 1u << 5,   /* odd and even lanes run the k steps in opposite orders */
    BARRIERS = 1u << 6,  /* __syncthreads() after every FMA */
    FP64 = 1u << 7,      /* double operands and accumulators */
    UNFUSED = 1u << 8,   /* each multiply-add as an FMUL and an FADD (__fmul_rn, __fadd_rn) */
    /* launch-side causes: the control's code, its own instance so profiles tell them apart */
    SMEM = 1u << 9, /* 180 KiB of unused dynamic shared memory: 1 block per SM */
    FEW = 1u << 10, /* 12 blocks in all */
    TAIL = 1u << 11, /* 1.08 blocks per SM: 11 of 132 SMs get a second */
    UNEVEN = 1u << 12, /* one block per SM, every fourth with a run of tiles 4x the others' */
    EVEN = 1u << 13    /* UNEVEN's fix, for its gain: one block per SM, equal runs */
};

constexpr int BK = 8, TM = 4, TN = 4;
constexpr int NKEEP = 176;                    /* REGS: values held live (tuned with -Xptxas -v) */
constexpr int OCC_SMEM_BYTES = 180 * 1024;    /* SMEM: 2 blocks would need more than 228 KiB */
constexpr int FEW_BLOCKS = 12;                /* FEW: 120 of 132 SMs idle */
/* TAIL: 1.08 x SMs equal blocks, all resident at once (the SM could hold 5): the SMs that
 * get a second block take twice as long as the rest, which idle: a partial wave of SM
 * work, not of resident slots */
constexpr double TAIL_WAVES = 1.08;

/* The thread grid: 16x16. */
template <unsigned F> struct geo {
    static constexpr int TX = 16, TY = 16;
    static constexpr int NT = TX * TY, BM = TY * TM, BN = TX * TN;
    static constexpr int APAD = 4; /* the transposed A store: lanes 8 columns x 4 rows land on 32 banks */
};

/* Where B element (kk, col) lives in shared memory. The control pads rows by one word (the
 * UNCOAL_LD copy then also stores conflict-free); BANKS puts column c at row c % 16 of a
 * 16 x 32 layout, so the 16 lanes reading columns tc + 16j hit one bank at 16 addresses. */
template <unsigned F> __device__ __forceinline__ int bs_index(int kk, int col)
{
    if constexpr ((F & BANKS) != 0)
        return (col % 16) * 32 + kk * 4 + col / 16;
    else
        return kk * (geo<F>::BN + 1) + col;
}

template <unsigned F>
__global__ void __launch_bounds__(geo<F>::NT)
bn_gemm(int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
        int tiles_n, long long ntiles, long long per_block)
{
    using G = geo<F>;
    using Val = std::conditional_t<(F & FP64) != 0, double, float>;
    constexpr int TX = G::TX, TY = G::TY, NT = G::NT, BM = G::BM, BN = G::BN;
    static_assert(BM * BK % NT == 0 && BN * BK % NT == 0, "the copy must divide evenly");
    static_assert(!(F & (UNCOAL_LD | UNCOAL_ST | BANKS)) || (BM == 64 && BN == 64 && BK == 8 && NT == 256),
                  "the layout injections are written for the 64x64x8 tile");
    static_assert(!((F & DIVERGE) && (F & BARRIERS)), "one cause at a time");

    __shared__ float as[BK * (BM + G::APAD)]; /* transposed: as[kk][row] */
    __shared__ float bs[(F & BANKS) ? BK * BN : BK * (BN + 1)];
    __shared__ int opaque[(F & REGS) ? NKEEP : 1];

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    /* the thread owns rows tr + TY*i and columns tc + TX*j of the tile */
    const int tc = (F & UNCOAL_ST) ? warp + 8 * (lane / 16) : tid % TX;
    const int tr = (F & UNCOAL_ST) ? lane % 16 : tid / TX;

    /* REGS: values the compiler cannot know (volatile shared loads, before any barrier) and
     * must keep until after the tile loop, where their sum (always NKEEP*(NKEEP-1)/2) is checked. */
    int keep[(F & REGS) ? NKEEP : 1];
    if constexpr ((F & REGS) != 0) {
        for (int i = tid; i < NKEEP; i += NT)
            opaque[i] = i;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < NKEEP; i++)
            keep[i] = ((volatile int *)opaque)[i];
    }

    long long first = blockIdx.x * per_block;
    long long last = first + per_block < ntiles ? first + per_block : ntiles;
    if constexpr ((F & UNEVEN) != 0) {
        /* shares of the tiles in units: one a block, four for every fourth block */
        auto units_before = [](long long b) { return b + 3 * ((b + 3) / 4); };
        const long long units = units_before(gridDim.x);
        first = ntiles * units_before(blockIdx.x) / units;
        last = ntiles * units_before(blockIdx.x + 1) / units;
    }
    for (long long t = first; t < last; t++) {
        const int row0 = (int)(t / tiles_n) * BM, col0 = (int)(t % tiles_n) * BN;
        Val acc[TM][TN] = {};
        /* SPILL: 4 partial sums per output, striped over k by a run-time index */
        float part[(F & SPILL) ? 4 : 1][TM * TN] = {};

        for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
            for (int p = 0; p < BM * BK / NT; p++) {
                const int e = tid + p * NT;
                /* UNCOAL_LD: lane i reads row i (k floats apart) instead of 8 lanes per row */
                const int r = (F & UNCOAL_LD) ? e % BM : e / BK, kc = (F & UNCOAL_LD) ? e / BM : e % BK;
                const int gr = row0 + r, gk = k0 + kc;
                as[kc * (BM + G::APAD) + r] = gr < m && gk < k ? a[(size_t)gr * k + gk] : 0.0f;
            }
#pragma unroll
            for (int p = 0; p < BN * BK / NT; p++) {
                const int e = tid + p * NT;
                /* UNCOAL_LD: lanes read 8 rows x 4 columns 8 floats apart: 32 sectors */
                const int q = e / BK;
                const int kr = (F & UNCOAL_LD) ? e % BK : e / BN, cc = (F & UNCOAL_LD) ? q % 8 * 8 + q / 8 : e % BN;
                const int gk = k0 + kr, gc = col0 + cc;
                bs[bs_index<F>(kr, cc)] = gk < k && gc < n ? b[(size_t)gk * n + gc] : 0.0f;
            }
            __syncthreads();

            auto step = [&](int kk) {
                float av[TM], bv[TN];
#pragma unroll
                for (int i = 0; i < TM; i++)
                    av[i] = as[kk * (BM + G::APAD) + tr + TY * i];
#pragma unroll
                for (int j = 0; j < TN; j++)
                    bv[j] = bs[bs_index<F>(kk, tc + TX * j)];
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++) {
                        if constexpr ((F & SPILL) != 0) {
                            /* the k-tile count is not a multiple of 4 the compiler can see */
                            float &p = part[(k0 / BK + kk) & 3][i * TN + j];
                            p = fmaf(av[i], bv[j], p);
                        } else if constexpr ((F & UNFUSED) != 0)
                            acc[i][j] = __fadd_rn(acc[i][j], __fmul_rn(av[i], bv[j]));   /* never contracted */
                        else
                            acc[i][j] = fma((Val)av[i], (Val)bv[j], acc[i][j]);
                        if constexpr ((F & BARRIERS) != 0)
                            __syncthreads();
                    }
            };
            /* DIVERGE: two different instruction streams (the sums run in opposite orders,
             * both exact to FP32 rounding), so the warp runs them one after the other */
            if ((F & DIVERGE) && (lane & 1)) {
#pragma unroll
                for (int kk = BK - 1; kk >= 0; kk--)
                    step(kk);
            } else {
#pragma unroll
                for (int kk = 0; kk < BK; kk++)
                    step(kk);
            }
            __syncthreads();
        }

        if constexpr ((F & SPILL) != 0)
#pragma unroll
            for (int o = 0; o < TM * TN; o++)
                acc[o / TN][o % TN] = part[0][o] + part[1][o] + part[2][o] + part[3][o];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++) {
                const int r = row0 + tr + TY * i, cc = col0 + tc + TX * j;
                if (r < m && cc < n)
                    c[(size_t)r * n + cc] = (float)acc[i][j];
            }
    }

    if constexpr ((F & REGS) != 0) {
        int sum = 0;
#pragma unroll
        for (int i = 0; i < NKEEP; i++)
            sum += keep[i];
        if (sum != NKEEP * (NKEEP - 1) / 2) /* never: only here so keep[] must stay live */
            c[0] = (float)sum;
    }
}

/* The grid: one tile per block, or (FEW, TAIL) fewer blocks with equal runs of consecutive
 * tiles (the last block's may be shorter), or (UNEVEN, EVEN) one block per SM with unequal or
 * equal runs. */
template <unsigned F> int launch_gemm(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    using G = geo<F>;
    const size_t smem = (F & SMEM) ? OCC_SMEM_BYTES : 0;
    cudaError_t err = cudaSuccess;
    if (F & SMEM)
        err = cudaFuncSetAttribute(bn_gemm<F>, cudaFuncAttributeMaxDynamicSharedMemorySize, OCC_SMEM_BYTES);
    const int tiles_n = (n + G::BN - 1) / G::BN;
    const long long ntiles = (long long)((m + G::BM - 1) / G::BM) * tiles_n;
    long long blocks = ntiles;
    if (F & FEW)
        blocks = FEW_BLOCKS;
    if (F & (TAIL | UNEVEN | EVEN)) {
        int dev = 0, sms = 0;
        if (err == cudaSuccess)
            err = cudaGetDevice(&dev);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        blocks = (F & TAIL) ? (long long)(TAIL_WAVES * sms) : sms;
    }
    if (err != cudaSuccess)
        return (int)err;
    if (blocks > ntiles)
        blocks = ntiles;
    if (blocks > INT_MAX)
        blocks = INT_MAX;
    if (blocks < 1)
        blocks = 1;
    /* rounded down for TAIL so that the grid is at least the asked blocks, up otherwise */
    long long per_block = (F & TAIL) ? ntiles / blocks : (ntiles + blocks - 1) / blocks;
    if (per_block < 1)
        per_block = 1;
    const long long grid = (F & UNEVEN) ? blocks : (ntiles + per_block - 1) / per_block;
    bn_gemm<F><<<(unsigned)grid, G::NT, smem, (cudaStream_t)stream>>>(m, n, k, a, b, c, tiles_n, ntiles, per_block);
    return (int)cudaGetLastError();
}

/* occ_block: a kernel that needs many warps, in blocks too small to have them. Each warp
 * computes 32 consecutive outputs of one row, one per lane, streaming A's row and B's
 * columns from L2 (ld.global.cg: no reuse through L1 or shared memory) one k at a time,
 * so a warp has one pair of loads in flight and only more warps cover the L2 latency.
 * In 32-thread blocks the 32-blocks-per-SM limit leaves the SM 32 of its 64 warps;
 * stream_control is the same kernel in 256-thread blocks, the fix. */
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
stream_gemm(int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    const int lane = threadIdx.x % 32, warps_per_row = (n + 31) / 32;
    const long long w = (long long)blockIdx.x * (THREADS / 32) + threadIdx.x / 32;
    const int row = (int)(w / warps_per_row), col = (int)(w % warps_per_row) * 32 + lane;
    if (row >= m) /* whole warps leave; there is no block barrier */
        return;
    const bool in = col < n;
    const float *ar = a + (size_t)row * k, *bc = b + (in ? col : 0);
    float acc = 0.0f;
#pragma unroll 1
    for (int kk = 0; kk < k; kk++)
        acc = fmaf(__ldcg(ar + kk), in ? __ldcg(bc + (size_t)kk * n) : 0.0f, acc);
    if (in)
        c[(size_t)row * n + col] = acc;
}

template <int THREADS> int launch_stream(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    const long long warps = (long long)m * ((n + 31) / 32), per_block = THREADS / 32;
    const long long grid = (warps + per_block - 1) / per_block;
    if (grid > INT_MAX)
        return (int)cudaErrorInvalidConfiguration;
    stream_gemm<THREADS><<<(unsigned)grid, THREADS, 0, (cudaStream_t)stream>>>(m, n, k, a, b, c);
    return (int)cudaGetLastError();
}

/* dram_bound: a skinny-n kernel that reads A once. Each warp owns SK_R rows; per step its
 * lanes read 128 consecutive k of each row (4 loads of 128 bytes per row, all issued before
 * the FMAs: 32 loads in flight per lane), B's 128 x SK_NC values once for all SK_R rows (L1
 * hits: B is k x n floats), then a warp sum per output. Columns beyond SK_NC re-read A. */
constexpr int SK_R = 8, SK_NC = 4, SK_WARPS = 8, SK_KSTEP = 128;

__global__ void __launch_bounds__(SK_WARPS * 32)
skinny_gemm(int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    const int lane = threadIdx.x % 32;
    const int row0 = (blockIdx.x * SK_WARPS + threadIdx.x / 32) * SK_R;
    if (row0 >= m) /* a whole warp leaves; there is no block barrier */
        return;
    for (int c0 = 0; c0 < n; c0 += SK_NC) {
        float acc[SK_R][SK_NC] = {};
        for (int k0 = 0; k0 < k; k0 += SK_KSTEP) {
            float bv[SK_KSTEP / 32][SK_NC];
#pragma unroll
            for (int q = 0; q < SK_KSTEP / 32; q++)
#pragma unroll
                for (int j = 0; j < SK_NC; j++) {
                    const int kk = k0 + lane + 32 * q;
                    bv[q][j] = kk < k && c0 + j < n ? b[(size_t)kk * n + c0 + j] : 0.0f;
                }
#pragma unroll
            for (int r = 0; r < SK_R; r++)
#pragma unroll
                for (int q = 0; q < SK_KSTEP / 32; q++) {
                    const int kk = k0 + lane + 32 * q, row = row0 + r;
                    const float av = row < m && kk < k ? a[(size_t)row * k + kk] : 0.0f;
#pragma unroll
                    for (int j = 0; j < SK_NC; j++)
                        acc[r][j] = fmaf(av, bv[q][j], acc[r][j]);
                }
        }
#pragma unroll
        for (int r = 0; r < SK_R; r++)
#pragma unroll
            for (int j = 0; j < SK_NC; j++) {
                float v = acc[r][j];
#pragma unroll
                for (int off = 16; off > 0; off /= 2)
                    v += __shfl_xor_sync(0xffffffffu, v, off);
                if (lane == 0 && row0 + r < m && c0 + j < n)
                    c[(size_t)(row0 + r) * n + c0 + j] = v;
            }
    }
}

int launch_skinny(int m, int n, int k, const float *a, const float *b, float *c, void *stream)
{
    const int rows_per_block = SK_WARPS * SK_R;
    skinny_gemm<<<(m + rows_per_block - 1) / rows_per_block, SK_WARPS * 32, 0, (cudaStream_t)stream>>>(m, n, k, a,
                                                                                                       b, c);
    return (int)cudaGetLastError();
}

} // namespace

/* One entry point per case: gemmprof_plugin_bn_<cause>, variant name bn_<cause>. */
#define BN_CASE(cause, launcher, desc)                                                                     \
    static const struct gemmprof_plugin info_##cause = {GEMMPROF_PLUGIN_ABI_VERSION, "bn_" #cause, "fp32", \
                                                        desc, launcher};                                  \
    extern "C" const struct gemmprof_plugin *gemmprof_plugin_bn_##cause(void) { return &info_##cause; }

BN_CASE(control, launch_gemm<NONE>, "control: 64x64x8 tiles, 4x4 per thread, no injected bottleneck")
BN_CASE(uncoalesced_ld, launch_gemm<UNCOAL_LD>, "injected: A and B copies read one row per lane (32 sectors/request)")
BN_CASE(uncoalesced_st, launch_gemm<UNCOAL_ST>, "injected: C stores write one row per lane (32 sectors/request)")
BN_CASE(bank_conflicts, launch_gemm<BANKS>, "injected: B tile layout makes inner-loop shared loads 16-way conflicted")
BN_CASE(occ_smem, launch_gemm<SMEM>, "injected: 180 KiB unused dynamic shared memory, 1 block (8 warps) per SM")
BN_CASE(occ_regs, launch_gemm<REGS>, "injected: ~200 extra live registers per thread, 1 block (8 warps) per SM")
BN_CASE(occ_block, launch_stream<32>, "injected: a latency-bound streaming kernel in 32-thread blocks: the 32 blocks/SM limit caps 32 of 64 warps")
BN_CASE(stream_control, launch_stream<256>, "control for occ_block: the same streaming kernel in 256-thread blocks (64 warps per SM)")
BN_CASE(few_blocks, launch_gemm<FEW>, "injected: 12 blocks in all, each looping over many tiles")
BN_CASE(tail_wave, launch_gemm<TAIL>, "injected: 1.08 equal blocks per SM, so 11 SMs run two and the rest idle half the time")
BN_CASE(imbalance, launch_gemm<UNEVEN>, "injected: one block per SM, every fourth given a run of tiles four times the others'")
/* the fix of imbalance, few_blocks and tail_wave, not judged itself (cause "fix" in
 * cases.txt): its time against theirs is the gain their rules estimate (check.py --gains) */
BN_CASE(even_runs, launch_gemm<EVEN>, "imbalance's fix: one block per SM, each an equal run of tiles")
BN_CASE(fp64, launch_gemm<FP64>, "injected: operands converted to double, FP64 FMA accumulation")
BN_CASE(unfused, launch_gemm<UNFUSED>, "injected: each multiply-add an FMUL and an FADD, two instructions where one FFMA would do")
BN_CASE(local_spill, launch_gemm<SPILL>, "injected: 64 partial sums in a run-time indexed local array")
BN_CASE(divergence, launch_gemm<DIVERGE>, "injected: odd and even lanes take different paths for the same math")
BN_CASE(barriers, launch_gemm<BARRIERS>, "injected: __syncthreads() after every FMA of the inner loop")
BN_CASE(dram_bound, launch_skinny, "skinny-n kernel reading A once, coalesced: DRAM-bound at n <= 4")

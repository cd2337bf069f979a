/* The index math of wgmma_ss's producer-side transpose (kernels/14_wgmma_ss.cu), kept
 * apart so that the host test tests/test_wgmma_ss_map.c checks the very functions the
 * kernel uses (plain C: the test is C11, the kernel CUDA C++).
 *
 * Per stage the transposer threads turn the B tile as TMA leaves it, [32 k][128 n] row-major
 * and unswizzled (one box of 128 n x 32 k), into B^T K-major in wgmma's canonical 128-byte
 * swizzled layout: row n (0..127) is 128 bytes = the 32 k of that n; 8-row groups are 1024
 * bytes apart; within each 1024-byte group the 16-byte chunk index (address bits 4-6) is
 * XORed with the row in the group (bits 7-9). That is the layout TMA would give a K-major
 * [128][32] box with CU_TENSOR_MAP_SWIZZLE_128B, the one wgmma_desc_k128 describes.
 *
 * Work unit: a 4 x 4 block, n-chunk nb (n = 4 nb .. 4 nb + 3) by k-chunk kb (k = 4 kb ..
 * 4 kb + 3): 4 LDS.128 (one per k row, 4 n each), a 4 x 4 transpose in registers, 4 STS.128
 * (one per n row, 4 k each = one 16-byte chunk of B^T). 32 x 8 = 256 blocks per stage over
 * WGSS_TRANS_THREADS = 64 threads, 4 blocks (r = 0..3) each.
 * Thread tt (warp w = tt / 32, lane l, quarter q = l / 8, p = l % 8):
 *   nb = 16 w + 8 (q / 2) + p                 (fixed for the thread)
 *   kb = (((p >> 1) + r) & 3) | 4 (q & 1)      (4 of the 8 k-chunks, rotated by p >> 1)
 * Bank conflicts (a 128-bit access is served per quarter warp, 8 lanes x 16 bytes):
 *   reads: the 8 lanes of a quarter read n-chunks nb = ... + p, p = 0..7, of k rows 512
 *     bytes apart: 16-byte bank group = nb % 8 = p, all distinct: one wavefront each.
 *   writes: lane p writes row n = 4 nb + j (j the instruction's n in the block), chunk
 *     kb ^ (n % 8) = ((((p >> 1) + r) & 3) ^ j) | 4 ((q & 1) ^ (p & 1)): distinct over p.
 * So every quarter warp is one wavefront: 0 conflicts (tests/test_wgmma_ss_map.c counts). */
#ifndef GEMMPROF_KERNELS_WGMMA_SS_MAP_H
#define GEMMPROF_KERNELS_WGMMA_SS_MAP_H

#if defined(__CUDACC__)
#define WGSS_FN static __host__ __device__ __forceinline__
#else
#define WGSS_FN static inline
#endif

enum {
    WGSS_BN = 128,             /* n per tile: rows of B^T */
    WGSS_BK = 32,              /* k per stage: one 128-byte row of B^T */
    WGSS_TRANS_THREADS = 64,   /* transposer threads (producer warps 1 and 2) */
    WGSS_BLOCKS_PER_THREAD = 4 /* (WGSS_BN / 4) * (WGSS_BK / 4) / WGSS_TRANS_THREADS */
};

/* n-chunk (n = 4 nb .. 4 nb + 3) of transposer thread tt (0 .. 63) */
WGSS_FN int wgss_nb(int tt)
{
    const int w = tt / 32, l = tt % 32;
    return 16 * w + 8 * (l / 16) + l % 8;
}

/* k-chunk (k = 4 kb .. 4 kb + 3) of block r (0 .. 3) of transposer thread tt */
WGSS_FN int wgss_kb(int tt, int r)
{
    const int l = tt % 32, p = l % 8, q = l / 8;
    return (((p >> 1) + r) & 3) | (4 * (q & 1));
}

/* float index, in the stage's B source buffer [WGSS_BK][WGSS_BN], of (k, n) */
WGSS_FN int wgss_src_index(int k, int n)
{
    return k * WGSS_BN + n;
}

/* float index, in the stage's B^T buffer, of the 16-byte chunk holding k = 4 kb .. 4 kb + 3
 * of row n: 128 bytes per row, chunk XOR (n % 8) */
WGSS_FN int wgss_bt_index(int n, int kb)
{
    return n * WGSS_BK + 4 * (kb ^ (n & 7));
}

#endif

/* wgmma_ss's producer-side transpose (kernels/14_wgmma_ss.cu) on the host, through the
 * index functions the kernel itself uses (kernels/wgmma_ss_map.h):
 *  - the reads cover the stage's B source [32 k][128 n] exactly once, the writes cover the
 *    B^T buffer exactly once, and element (k, n) lands where wgmma's K-major 128B-swizzle
 *    layout puts (row n, column k): the layout as the PTX ISA defines it (address bits 4-6
 *    XOR bits 7-9 of the unswizzled row-major [n][32 k] offset, 8-row groups 1024 bytes
 *    apart), and as the consumers' descriptors read it (start = 1024-aligned rows of the
 *    consumer warpgroup + 32 bytes per k8 step, stride byte offset 1024);
 *  - shared-memory bank conflicts of every LDS.128 / STS.128 of the transposer warps,
 *    counted per quarter warp (the 8 lanes a 128-bit access is served in): 0.
 * Shared-memory model: 32 banks x 4 bytes; a quarter warp takes as many wavefronts as the
 * most distinct 4-byte words any one bank holds among its lanes' accesses. */
#include <stdint.h>
#include <string.h>

#include "kernels/wgmma_ss_map.h"
#include "tests/test.h"

#define TILE (WGSS_BK * WGSS_BN) /* floats per stage buffer */

/* The canonical K-major 128B-swizzle offset (bytes) of (row n, column k), 4-byte elements */
static int canonical_bytes(int n, int k)
{
    const int u = n * 128 + 4 * k; /* rows of 128 bytes, 8-row groups contiguous (1024 B) */
    return u ^ (((u >> 7) & 7) << 4);
}

/* As a consumer's descriptor addresses element (row r of its 64, column kk of k8 step ks):
 * start (unswizzled) = warpgroup rows * 128 + 32 ks bytes, core-matrix row groups 1024
 * bytes apart (stride byte offset), then the hardware's address XOR. */
static int descriptor_bytes(int cw, int ks, int r, int kk)
{
    const int start = cw * 64 * 128 + 32 * ks;
    const int u = start + (r / 8) * 1024 + (r % 8) * 128 + 4 * kk;
    return u ^ (((u >> 7) & 7) << 4);
}

/* wavefronts `lanes` lanes x 4 words need at least: the most distinct word addresses
 * (bytes / 4) any one bank holds */
static int wavefronts_n(const int (*words)[4], int lanes)
{
    int worst = 0;
    for (int bank = 0; bank < 32; bank++) {
        int seen[128], nseen = 0;
        for (int l = 0; l < lanes; l++)
            for (int e = 0; e < 4; e++) {
                const int w = words[l][e];
                if (w % 32 != bank)
                    continue;
                int dup = 0;
                for (int i = 0; i < nseen; i++)
                    dup |= seen[i] == w;
                if (!dup && nseen < 128)
                    seen[nseen++] = w;
            }
        worst = nseen > worst ? nseen : worst;
    }
    return worst;
}

/* a quarter warp: 8 lanes */
static int wavefronts(const int words[8][4])
{
    return wavefronts_n(words, 8);
}

int main(void)
{
    static int read_count[TILE], write_count[TILE], landed[TILE]; /* landed: B^T word -> source word */
    memset(read_count, 0, sizeof read_count);
    memset(write_count, 0, sizeof write_count);
    for (int i = 0; i < TILE; i++)
        landed[i] = -1;

    CHECK(WGSS_BLOCKS_PER_THREAD * WGSS_TRANS_THREADS == (WGSS_BN / 4) * (WGSS_BK / 4),
          "64 threads x 4 blocks = the 256 4x4 blocks of a 128 x 32 stage");

    int range_ok = 1;
    for (int tt = 0; tt < WGSS_TRANS_THREADS; tt++)
        for (int r = 0; r < WGSS_BLOCKS_PER_THREAD; r++) {
            const int nb = wgss_nb(tt), kb = wgss_kb(tt, r);
            range_ok &= nb >= 0 && nb < WGSS_BN / 4 && kb >= 0 && kb < WGSS_BK / 4;
            if (!range_ok)
                continue;
            for (int i = 0; i < 4; i++)     /* LDS.128 i: k = 4 kb + i, n = 4 nb .. 4 nb + 3 */
                for (int j = 0; j < 4; j++) { /* STS.128 j: n = 4 nb + j, k = 4 kb .. 4 kb + 3 */
                    const int k = 4 * kb + i, n = 4 * nb + j;
                    const int src = wgss_src_index(k, 4 * nb) + j;
                    const int dst = wgss_bt_index(n, kb) + i;
                    read_count[src]++;
                    write_count[dst]++;
                    landed[dst] = src;
                }
        }
    CHECK(range_ok, "every thread's n-chunk and k-chunks lie inside the tile");

    int reads_once = 1, writes_once = 1, canonical_ok = 1, descriptor_ok = 1;
    for (int i = 0; i < TILE; i++) {
        reads_once &= read_count[i] == 1;
        writes_once &= write_count[i] == 1;
    }
    for (int n = 0; n < WGSS_BN; n++)
        for (int k = 0; k < WGSS_BK; k++) {
            const int b = canonical_bytes(n, k);
            canonical_ok &= landed[b / 4] == wgss_src_index(k, n);
        }
    for (int cw = 0; cw < 2; cw++)
        for (int ks = 0; ks < WGSS_BK / 8; ks++)
            for (int r = 0; r < 64; r++)
                for (int kk = 0; kk < 8; kk++) {
                    const int b = descriptor_bytes(cw, ks, r, kk);
                    descriptor_ok &= landed[b / 4] == wgss_src_index(8 * ks + kk, 64 * cw + r);
                }
    CHECK(reads_once, "the transpose reads every element of the [32][128] B source exactly once");
    CHECK(writes_once, "the transpose writes every word of the 16 KB B^T buffer exactly once");
    CHECK(canonical_ok, "B(k, n) lands at the canonical K-major 128B-swizzle offset of (n, k)");
    CHECK(descriptor_ok, "each consumer's descriptors (64 rows, 4 k8 steps) read B^T(n, k) = B(k, n)");

    /* bank conflicts: every instruction of both transposer warps, per quarter warp */
    int extra_reads = 0, extra_writes = 0, instr = 0, warp_worst = 0;
    for (int w = 0; w < WGSS_TRANS_THREADS / 32; w++)
        for (int r = 0; r < WGSS_BLOCKS_PER_THREAD; r++)
            for (int x = 0; x < 4; x++) { /* i for the loads, j for the stores */
                int wrd[32][4], wwr[32][4]; /* the whole warp, however the lanes are grouped */
                for (int l = 0; l < 32; l++) {
                    const int tt = 32 * w + l, nb = wgss_nb(tt), kb = wgss_kb(tt, r);
                    for (int e = 0; e < 4; e++) {
                        wrd[l][e] = wgss_src_index(4 * kb + x, 4 * nb) + e;
                        wwr[l][e] = wgss_bt_index(4 * nb + x, kb) + e;
                    }
                }
                const int wr_f = wavefronts_n(wrd, 32), ww_f = wavefronts_n(wwr, 32);
                warp_worst = wr_f > warp_worst ? wr_f : warp_worst;
                warp_worst = ww_f > warp_worst ? ww_f : warp_worst;
                for (int q = 0; q < 4; q++) {
                    int rd[8][4], wr[8][4];
                    for (int p = 0; p < 8; p++) {
                        const int tt = 32 * w + 8 * q + p, nb = wgss_nb(tt), kb = wgss_kb(tt, r);
                        for (int e = 0; e < 4; e++) {
                            rd[p][e] = wgss_src_index(4 * kb + x, 4 * nb) + e;
                            wr[p][e] = wgss_bt_index(4 * nb + x, kb) + e;
                        }
                    }
                    extra_reads += wavefronts(rd) - 1;
                    extra_writes += wavefronts(wr) - 1;
                }
                instr++;
            }
    printf("# %d LDS.128 and %d STS.128 warp instructions per stage (both warps); extra wavefronts: reads %d, writes %d\n", instr,
           instr, extra_reads, extra_writes);
    CHECK(extra_reads == 0, "transpose loads: no bank conflicts (%d extra wavefronts)", extra_reads);
    CHECK(extra_writes == 0, "transpose stores: no bank conflicts (%d extra wavefronts)", extra_writes);
    CHECK(warp_worst == 4, "whole warp: at most 4 words per bank per instruction, the 512-byte minimum (%d)",
          warp_worst);

    /* the model itself: a naive mapping (lane = n-chunk, one k-chunk per warp) would conflict */
    {
        int wr[8][4];
        for (int p = 0; p < 8; p++)
            for (int e = 0; e < 4; e++)
                wr[p][e] = wgss_bt_index(4 * p, 0) + e;
        CHECK(wavefronts(wr) == 4, "the model sees the 4-way conflict of lanes writing rows 4p, one k-chunk");
    }
    TEST_EXIT();
}

/* streamk: dbuf's kernel with the partial last wave shared out by stream-K.
 *
 * Idea: at 4096^3 dbuf's 128x256 tile makes 512 blocks, 3.88 waves on 132 SMs, so the last
 * wave leaves 16 SMs idle and the busiest SMs run 4 tiles' time: the tile count, not the
 * kernel, caps it at 3.88 / 4 = 97% of the issue rate it sustains (8192^3: 15.52 / 16).
 * cuBLAS's 256x128 tile has the same waves. Here the tiles of all waves but the last two
 * run whole, one block each, as in dbuf; the last full wave and the partial one are shared
 * out by k-slices over exactly one wave of blocks (132), so the tail runs as one even wave.
 * Two blocks that share a cut tile meet through a 128 KB partial tile in a workspace: the
 * one with the tile's first k computes it first and publishes a flag, the next adds it at
 * the very end of its range and stores C. No atomics on C, the same sum order every run;
 * blocks take their item numbers from a counter, so a block only waits for one that has
 * already started (kernels/simt_gemm.cuh, gemm_simt_streamk_kernel).
 * Changed from dbuf: which k-slices of which tile each block computes; the tile, pipeline,
 * fragments and FFMA order are dbuf's.
 * History (H200): a persistent grid (132 blocks, each an equal share of every tile's
 * k-slices) read 5.8x the DRAM bytes and ran at 66% of dbuf at 8192^3
 * (results/h200/logs/streamk-v1-7d7c03d-run1.log); with its whole tiles dealt out
 * statically, wave by wave, and stream-K on the last two waves, it was still 7-10% slower
 * (logs/streamk-v2-ae62140-probe.txt): the hardware's own block scheduling, which hands the
 * next tile to whichever SM frees first, is kept here for the whole tiles.
 * Costs: one 128 KB partial write and read per cut tile (at most 131 per call), a pipeline
 * fill per segment (at most two more per stream-K block).
 * Where it changes nothing: one wave or less, or whole waves (2048^3: 128 tiles).
 * Tiles: the row t128x256k32s4 of kernels/simt_configs.def (dbuf's).
 * Shapes: any m, n, k >= 1 (dbuf's predication; a K of one slice cuts no tile).
 * Expected bound: instruction issue, as dbuf, without the partial last wave.
 */
#include <stdio.h>
#include <string.h>

#include "kernels/gemm.h"
#include "kernels/simt_gemm.cuh"

using streamk_cfg = simt_cfg_t128x256k32s4;

/* C = A * B (row-major) on `stream`, any m, n, k >= 1. Returns the launch's error. */
extern "C" cudaError_t gemm_streamk_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                           const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return simt_streamk_launch<streamk_cfg>(m, n, k, a, b, c, stream);
}

extern "C" void gemm_streamk_config(int m, int n, int k, char *buf, unsigned long len)
{
    char tile[96];
    simt_fixed_config<streamk_cfg>(tile, sizeof tile);
    int dp_tiles = 0, sk_blocks = 0;
    if (simt_streamk_plan<streamk_cfg, true>(m, n, &dp_tiles, &sk_blocks) != cudaSuccess)
        dp_tiles = sk_blocks = -1;
    /* "split1" is dbuf's whole-K slice; here the tail's tiles are shared out by k */
    char *const split = strstr(tile, " split1");
    if (split)
        *split = '\0';
    snprintf(buf, len, "%s %d whole + %d stream-K", tile, dp_tiles, sk_blocks);
    (void)k;
}

/* streamk: dbuf's kernel on a persistent stream-K schedule.
 *
 * Idea: at 4096^3 dbuf's 128x256 tile makes 512 blocks, 3.88 waves on 132 SMs, so the last
 * wave leaves 16 SMs idle and the busiest SMs run 4 tiles' time: the tile count, not the
 * kernel, caps it at 3.88 / 4 = 97% of the issue rate it sustains. cuBLAS's 256x128 tile has
 * the same 3.88 waves. Here a grid of one block per SM (as many as are resident at once)
 * shares out the work by k-slices instead of tiles: tiles x ceil(K / 32) slices, tile-major
 * in dbuf's grouped order, each block a contiguous range of 1/grid of them. A range starts
 * and ends inside a tile at most once each; the two blocks that share a tile meet through
 * a 128 KB partial tile in a workspace: the block with the tile's first k computes it
 * first and publishes a flag, the next block adds it at the very end of its range and
 * stores C. No atomics, the same sum order every run, and a block only waits for a
 * lower-numbered one.
 * Changed from dbuf: the grid and the k-range of each block (kernels/simt_gemm.cuh,
 * gemm_simt_streamk_kernel); the tile, pipeline, fragments and FFMA order are dbuf's.
 * Costs: one 128 KB partial write and read per cut tile (131 of 512 at 4096^3, 17 MB of L2
 * traffic against 3 GB of operand reads), a pipeline fill per segment (at most two more per
 * block), and tiles in flight spread over the whole of C instead of one grouped wave.
 * Where it changes nothing: fewer tiles than SMs (1024^3: 32 tiles) run one block per
 * tile, as dbuf.
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
    const long tiles = (long)((m + streamk_cfg::BM - 1) / streamk_cfg::BM) * ((n + streamk_cfg::BN - 1) / streamk_cfg::BN);
    int grid = 0;
    if (simt_streamk_grid<streamk_cfg, true>(tiles, &grid) != cudaSuccess)
        grid = 0;
    /* "split1" is dbuf's whole-K slice; here the k-range is the block's share */
    char *const split = strstr(tile, " split1");
    if (split)
        *split = '\0';
    snprintf(buf, len, "%s stream-K %d blocks", tile, grid);
    (void)k;
}

/* Block -> C tile order shared by the tiled kernels (warptile, the mma.sync kernels). */
#ifndef GEMMPROF_KERNELS_TILE_ORDER_CUH
#define GEMMPROF_KERNELS_TILE_ORDER_CUH

struct gemm_tile_origin {
    int row0, col0; /* the tile's first row and column of C */
};

/* The tile of block `block` when blocks walk group_m tile rows column by column, so that
 * the blocks resident at once reuse a few A row panels and B column panels from L2. */
static __device__ __forceinline__ gemm_tile_origin gemm_grouped_tile(int block, int m, int n, int bm, int bn,
                                                                     int group_m)
{
    const int tiles_m = (m + bm - 1) / bm, tiles_n = (n + bn - 1) / bn;
    const int per_group = group_m * tiles_n;
    const int first_m = block / per_group * group_m;
    const int group_rows = min(tiles_m - first_m, group_m);
    const int in_group = block % per_group;
    return {(first_m + in_group % group_rows) * bm, (in_group / group_rows) * bn};
}

#endif

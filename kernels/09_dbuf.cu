/* dbuf: bigtile's 128x256 tile with A transposed in shared memory again (warptile's padded
 * layout) and the register fragments double-buffered.
 *
 * Idea: swizzle kept A k-major so that it could be copied 16 bytes at a time, but then a
 * lane must hold 4 k of each of its 16 rows (64 registers of A fragments besides 128
 * accumulators): every 16x8 configuration of that kernel used all 255 registers, with no
 * room to load ahead, and at warptile's own tiles it ran at 83% of cuBLAS against
 * warptile's 90% (H200; results/h200/NOTES.md, "Kernel notes", dbuf). Transposed, a lane
 * holds only the 16 + 8 floats of one k-step, so the fragments of step k+1 can be loaded
 * (6 LDS.128) while step k's 128 FFMAs issue, and the first fragments of the next slice
 * right after its barrier, before the last FFMAs of this one: the FFMAs never wait for a
 * shared load. The 4-byte A copies cost 8 LDGSTS per thread per slice here (256 threads),
 * with the row and k predicates hoisted as in swizzle. FFMAs walk the thread tile in a
 * serpentine so consecutive FFMAs share an operand (register reuse cache).
 * Changed from bigtile: A transposed into As[k][BM+4] by 4-byte copies (conflict-free
 * stores, LDS.128 reads), double-buffered fragments with the slice barrier at the last
 * k-step, serpentine FFMA order. Tiles, lane layout, 4 stages, grouped order and float4
 * stores are bigtile's, so the difference is the layout and the schedule.
 * Tiles: the row t128x256k32s4 of kernels/simt_configs.def (BM=128, BN=256, BK=32, warp
 * tile 64x64, 16x8 per thread, 256 threads, STAGES=4: 4 x (32 x 132 + 32 x 256) x 4 =
 * 198,656 B of dynamic shared memory, __launch_bounds__(256, 1)), the winner of `gemmprof
 * --tune` at 4096^3 and 8192^3 on the H200 (figures: results/h200/NOTES.md, "Kernel notes",
 * dbuf): a 32-deep slice halves the
 * barriers and the pipeline's bookkeeping per FFMA. Pointing dbuf_cfg at another row of the
 * table is a one-word edit.
 * Shapes: any m, n, k >= 1 (16-byte B copies and float4 stores when n % 4 == 0 and b, c
 * are 16-byte aligned; A is always copied in 4-byte pieces, so k is free).
 * Expected bound: instruction issue (FFMA ~95% of issued instructions); target >= 95% of
 * cuBLAS SGEMM at 4096^3 and 8192^3.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", dbuf. ncu's source counters found
 * the last gap to cuBLAS: the next slice's copies, each with its own address, fallback and
 * predicate, took a tenth of the warp samples. Interior threads now copy a slice inside K
 * without predicates (kernels/simt_gemm.cuh, load_inside).
 * Tried and dropped (H200; docs/ladders.md): the slice as a loop of 4-16-step blocks to cut
 * the code size (4.6-11% slower: fewer no_instruction stalls, more dispatch stalls), the last
 * partial wave's tiles cut in K (no gain), and a persistent stream-K grid for the partial
 * last wave (three forms, 7-34% slower; issue 12).
 */
#include "kernels/gemm.h"
#include "kernels/simt_gemm.cuh"

using dbuf_cfg = simt_cfg_t128x256k32s4;

/* C = A * B (row-major) on `stream`, any m, n, k >= 1. Returns the launch's error. */
GEMM_LAUNCHER(dbuf);
extern "C" cudaError_t gemm_dbuf_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                        const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return simt_fixed_launch<dbuf_cfg>(m, n, k, a, b, c, stream);
}

extern "C" void gemm_dbuf_config(int m, int n, int k, char *buf, unsigned long len)
{
    (void)m, (void)n, (void)k;
    simt_fixed_config<dbuf_cfg>(buf, len);
}

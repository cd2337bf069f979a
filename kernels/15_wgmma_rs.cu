/* wgmma_rs: back to wgmma_ws's register operand (RS mode), with B landing as four TMA
 * boxes 32 n wide under the 128B swizzle instead of sixteen 8-wide panels, and the next
 * k-tile's fragments loaded while the current k-tile runs. The step to cuBLAS TF32.
 *
 * Changed from wgmma_ss (the step before), and why:
 * - wgmma_ss reads both operands from shared memory: per m64n256k8 a 2 KB and an 8 KB
 *   operand per 128 tensor cycles, plus the TMA writes and its B transpose: 160 KB of
 *   shared traffic per 1,024 tensor cycles against the SM's 128 B/cycle (ncu at 4096^3:
 *   L1/shared 81% busy, tensor pipe 72%). In RS mode the 64-row operand (B^T) comes from
 *   registers, loaded once per k-tile by LDS.32, and there is no transpose pass.
 * - Why wgmma_ws, also RS, ran at 270-280 TFLOP/s: its B arrives as 16 unswizzled TMA
 *   boxes of [32 k][8 n] per stage, rows of 32 bytes. Measured on the H200 with this
 *   kernel built with those boxes as well (results/h200/NOTES.md, "Kernel notes",
 *   wgmma_rs): about 72% of the speed and 2.7x the DRAM traffic of the 32-wide boxes.
 *   (The cause was the tensor maps' 256-byte L2 promotion, which 32-byte rows waste; no
 *   map is promoted now and wgmma_ws itself reaches 84% of cuBLAS TF32: docs/ladders.md,
 *   "The TMA maps' L2 promotion".) So B lands here as 4 boxes
 *   of [32 k][32 n], 128-byte rows, with TMA's 128B swizzle: element (n, k) of a box sits
 *   in row k, 16-byte chunk ((n % 32) / 4) XOR (k % 8). A warp's fragment load reads 8
 *   consecutive n in 4 k rows: 2 chunks per row, XORed by the row: at most 2-way bank
 *   conflicts.
 * - The fragment schedule (against wgmma_ws's wait_group 0 before every fragment write):
 *   the consumer issues k-tile t, retires k-tile t-1 (wait_group 1), releases its stage,
 *   then loads k-tile t+1's fragments into the register set k-tile t-1 used, while k-tile
 *   t is in the tensor pipe. No register is written while a wgmma that reads it may be in
 *   flight; each set is pinned live up to the wait that retires it (an empty asm reading
 *   and writing the registers). With three sets and the same order the results were wrong
 *   at 2048^3-8192^3 (results/h200/NOTES.md, "Kernel notes", wgmma_rs), as wgmma_ws's
 *   first schedule was: two sets it is. The overlap alone, with the 8-wide boxes, gained
 *   nothing.
 * Unchanged from wgmma_ws: C^T = B^T A^T (A^T by 128B-swizzled TMA boxes and descriptors),
 * tile 256 (m) x 128 (n, 2 consumer warpgroups x 64) x 32 (k), 4 stages x 48 KB, one
 * producer thread, persistent blocks in the L2-grouped order, accumulators stored
 * transposed (sm90_store_ct), guarded. Transposing B costs nothing extra here: B^T is
 * never stored; the register loads pick B's elements in the order wgmma wants.
 * Shapes: any m, n, k >= 1, as wgmma_ws (TMA zero-fill, guarded stores, pitch-padded
 * copies for k % 4 or n % 4 != 0, timed with the kernel).
 * The kernel body is the template of kernels/sm90_rs.cuh at this tile without split-K
 * (tf32_auto instantiates it at other tiles, with it); the template's code at this tile is
 * byte for byte the code this file held before (the cubins' .text sections compared, nvcc
 * 13.0: 168 registers, no spills).
 * Built for sm_90a only; elsewhere the launcher returns cudaErrorNotSupported.
 * Measured on the H200: results/h200/NOTES.md, "Kernel notes", wgmma_rs.
 *       ./build/gemmprof -k wgmma_ss,wgmma_rs,cublas_tf32
 */
#include <stdint.h>

#include "kernels/gemm.h"
#include "kernels/sm90_rs.cuh"
#include "kernels/sm90_tf32.cuh"
#include "kernels/sm90_ws.cuh"

using wgmma_rs_cfg = sm90_ws_cfg; /* kernels/sm90_ws.cuh */

/* The body is kernels/sm90_rs.cuh's template at this tile, without split-K (tf32_auto
 * runs the same template at other tiles, with it). */
template <int BW>
static __global__ void __launch_bounds__(wgmma_rs_cfg::NT, 1)
gemm_wgmma_rs_kernel(int m, int n, int k, const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b, float *__restrict__ c)
{
#if SM90_TF32_DEVICE
    extern __shared__ uint8_t wgmma_rs_smem_raw[];
    sm90_rs_gemm<wgmma_rs_cfg, BW, false>(wgmma_rs_smem_raw, m, n, k, &map_a, &map_b, c, sm90_split{});
#else
    (void)m, (void)n, (void)k, (void)map_a, (void)map_b, (void)c;
#endif
}

/* C = A * B (row-major) with the warp-specialised persistent kernel on `stream`; any m, n,
 * k >= 1. Returns cudaErrorNotSupported unless built for sm_90a and run on compute
 * capability 9.0. Never synchronizes. */
template <int BW>
static cudaError_t wgmma_rs_run(int m, int n, int k, const float *a, const float *b, float *c, cudaStream_t stream)
{
    using P = wgmma_rs_cfg;
    static struct sm90_maps maps;
    static bool smem_raised = false;
    maps.b_box_n = BW, maps.b_swizzle128 = BW == 32;
    unsigned grid; /* persistent: at most one block per SM */
    const cudaError_t e = sm90_persistent_grid(m, n, P::BM, P::BN, &grid);
    if (e != cudaSuccess)
        return e;
    return sm90_tf32_gemm(&maps, &smem_raised, (const void *)gemm_wgmma_rs_kernel<BW>, P::SMEM, P::BM, P::BK, m,
                          n, k, a, b, stream, [&](const struct sm90_maps &mp) {
                              gemm_wgmma_rs_kernel<BW><<<grid, P::NT, P::SMEM, stream>>>(m, n, k, mp.a, mp.b, c);
                          });
}

/* C = A * B (row-major) on `stream`; any m, n, k >= 1. Returns cudaErrorNotSupported
 * unless built for sm_90a and run on compute capability 9.0. Never synchronizes. (The
 * template's BW 8, wgmma_ws's panels, was the comparison on the H200; only 32 is built.) */
GEMM_LAUNCHER(wgmma_rs);
extern "C" cudaError_t gemm_wgmma_rs_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                            const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return wgmma_rs_run<32>(m, n, k, a, b, c, stream);
}

/* Experiment (issue 12): dbuf with the slice's first BK - KU k-steps as a loop over KU-step
 * blocks (KU = 4 or 8), the last block straight with the slice barrier, so the hot code is
 * about 2 x KU steps instead of 32 (dbuf stalls on no_instruction). */
#include "kernels/gemm.h"
#include "kernels/simt_gemm.cuh"

using dbuf_u8_cfg = simt_tile<128, 256, 32, 64, 64, 4, 4, 1, false, 8>;
using dbuf_u4_cfg = simt_tile<128, 256, 32, 64, 64, 4, 4, 1, false, 4>;

extern "C" cudaError_t gemm_dbuf_u8_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                           const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return simt_fixed_launch<dbuf_u8_cfg>(m, n, k, a, b, c, stream);
}

extern "C" cudaError_t gemm_dbuf_u4_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                            const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    return simt_fixed_launch<dbuf_u4_cfg>(m, n, k, a, b, c, stream);
}

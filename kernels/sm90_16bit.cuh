/* Hopper (sm_90a) building blocks for 16-bit (BF16, FP16) operands, beside the TF32 ones of
 * kernels/sm90_tf32.cuh (whose TMA encoder, mbarriers, wgmma fences, K-major descriptor
 * and device check they use): 16-bit tensor maps and pitch-padded copies (19_mma16.cu's
 * too), the MN-major 128B-swizzled shared-memory descriptor, wgmma m64n256k16 from shared
 * memory, and one stage's loads, k-tile and store of the tile that 20_wgmma16.cu and
 * tools/lab/probe_wgmma16.cu share, so the probe checks the very layout the kernel uses.
 *
 * The tile in shared memory (every stage 1024-aligned):
 *  - A (m x k row-major, K-major for wgmma): one TMA box of [rows][64 k], 128-byte rows
 *    under TMA's 128B swizzle; the wgmma A operand of rows 64w.. starts 64w x 128 bytes in,
 *    k16-step s 32 s bytes in (wgmma_desc_k128: 8-row groups 1024 bytes apart).
 *  - B (k x n row-major, MN-major for wgmma: n contiguous): BN / 64 TMA boxes of
 *    [BK k rows][64 n], box p (n 64p..64p+63) at p x BK x 128 bytes; k16-step s starts
 *    16 s rows = 2048 s bytes in. wgmma reads it transposed (imm-trans-b = 1) through an
 *    MN-major descriptor whose two strides are: between 64-wide n blocks, BK x 128 bytes
 *    (one box), and between groups of 8 k rows, 1024 bytes (a swizzle atom: 8 rows x 128 B).
 * PTX ISA ("Matrix Descriptor Format", "Shared Memory Matrix Layout"): K-major layouts are the
 * instruction's default, imm-trans-b = 1 makes B N-major (16-bit types only). Which of the
 * descriptor's two offset fields carries which stride for a swizzled MN-major operand:
 * CUTLASS's canonical MN-major form ((64 elements, n blocks), (8 k rows, k groups)) puts the
 * n-block stride in the leading byte offset and the k-group stride in the stride byte
 * offset (for K-major operands the stride byte offset is the 8-row group stride, the leading
 * one unused); WGMMA16_MN_LBO_IS_MN below is that choice, in one place, and
 * tools/lab/probe_wgmma16.cu runs both on the GPU.
 */
#ifndef GEMMPROF_KERNELS_SM90_16BIT_CUH
#define GEMMPROF_KERNELS_SM90_16BIT_CUH

#include <stdint.h>

#include "kernels/sm90_tf32.cuh"

/* The MN-major encoding (see above; the probe says which is right on the GPU):
 * WGMMA16_MN_LBO_IS_MN 1: leading byte offset = the n-block stride, stride byte offset =
 * the 8-row k-group stride; 0: swapped. WGMMA16_TRANS_B: the instruction's imm-trans-b. */
#define WGMMA16_MN_LBO_IS_MN 1
#define WGMMA16_TRANS_B 1

/* Elements of one 128-byte swizzle row (TMA's box width under the 128B swizzle). */
#define WGMMA16_ROW 64

/* The kernel's descriptor offsets for its N-major B boxes ([BK][64] each, BK x 128 bytes
 * apart; 8-row k groups 1024 bytes apart), as WGMMA16_MN_LBO_IS_MN says (host too: the probe
 * names them). */
template <int BK>
static __host__ __device__ __forceinline__ void wgmma16_b_offsets(uint32_t *lbo, uint32_t *sbo)
{
    *lbo = WGMMA16_MN_LBO_IS_MN ? BK * 128 : 1024;
    *sbo = WGMMA16_MN_LBO_IS_MN ? 1024 : BK * 128;
}

/* ---- host ------------------------------------------------------------------------------ */

/* A 2-D tensor map of a row-major rows x cols matrix of 16-bit elements (BF16 when bf16, else
 * FP16) with row pitch `ld` elements, boxes of box_cols x box_rows under the 128B swizzle;
 * elements outside the matrix read as zero. */
static inline cudaError_t sm90_tensor_map16(CUtensorMap *map, const void *base, bool bf16, int rows, int cols,
                                            long ld, int box_cols, int box_rows)
{
    const sm90_encode_tiled_fn enc = sm90_encoder();
    if (enc == NULL)
        return cudaErrorNotSupported;
    const cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t stride[1] = {(cuuint64_t)ld * 2};
    const cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
    const cuuint32_t estride[2] = {1, 1};
    const CUresult r = enc(map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                           (void *)base, dim, stride, box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                           CU_TENSOR_MAP_SWIZZLE_128B, sm90_l2_promotion(), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/* The 16-bit operands as TMA can read them (sm90_operands_prepare<uint16_t>): global
 * strides must be multiples of 16 bytes (k % 8 == 0 for A, n % 8 == 0 for B). */
typedef sm90_operands_of<uint16_t> sm90_operands16;

/* The two tensor maps of one launch, kept while the operands stay the same: A boxes of
 * 64 k x bm rows, B boxes of 64 n x bk k rows (see the file comment). */
struct sm90_maps16 {
    CUtensorMap a, b;
    const void *pa, *pb;
    int m, n, k, bm, bk;
    long lda, ldb;
    bool bf16, valid;
};

static inline cudaError_t sm90_maps16_get(struct sm90_maps16 *c, const sm90_operands16 *op, bool bf16, int m,
                                          int n, int k, int bm, int bk)
{
    if (c->valid && c->pa == op->a && c->pb == op->b && c->m == m && c->n == n && c->k == k && c->bm == bm &&
        c->bk == bk && c->lda == op->lda && c->ldb == op->ldb && c->bf16 == bf16)
        return cudaSuccess;
    c->valid = false;
    cudaError_t e = sm90_tensor_map16(&c->a, op->a, bf16, m, k, op->lda, WGMMA16_ROW, bm);
    if (e == cudaSuccess)
        e = sm90_tensor_map16(&c->b, op->b, bf16, k, n, op->ldb, WGMMA16_ROW, bk);
    if (e != cudaSuccess)
        return e;
    c->pa = op->a, c->pb = op->b, c->m = m, c->n = n, c->k = k, c->bm = bm, c->bk = bk;
    c->lda = op->lda, c->ldb = op->ldb, c->bf16 = bf16, c->valid = true;
    return cudaSuccess;
}

/* sm90_tf32_gemm for 16-bit operands a16, b16 (bf16 or FP16). */
template <class Launch>
static inline cudaError_t sm90_16bit_gemm(struct sm90_maps16 *maps, bool *smem_raised, const void *kernel, int smem,
                                          bool bf16, int bm, int bk, int m, int n, int k, const void *a16,
                                          const void *b16, cudaStream_t stream, Launch launch)
{
    return sm90_gemm_host<uint16_t>(
        maps, smem_raised, kernel, smem, m, n, k, a16, b16, stream,
        [&](const sm90_operands16 &op) { return sm90_maps16_get(maps, &op, bf16, m, n, k, bm, bk); }, launch);
}

/* ---- device ---------------------------------------------------------------------------- */

/* C(row, col) and C(row, col + 1) of the row at c_row, guarded by n (col even): one 8-byte
 * store when `pairs` (n even, C 8-byte aligned), else scalars. Any architecture. */
static __device__ __forceinline__ void c_store_pair(float *c_row, int col, int n, float v0, float v1, bool pairs)
{
    if (col >= n)
        return;
    if (pairs) {
        *reinterpret_cast<float2 *>(c_row + col) = make_float2(v0, v1);
    } else {
        c_row[col] = v0;
        if (col + 1 < n)
            c_row[col + 1] = v1;
    }
}

#if SM90_TF32_DEVICE

/* A 128B-swizzled shared-memory descriptor with explicit byte offsets (multiples of 16). */
static __device__ __forceinline__ uint64_t wgmma_desc_sw128(const void *start, uint32_t lbo, uint32_t sbo)
{
    const uint64_t addr = sm90_smem_addr(start);
    return ((addr & 0x3FFFFull) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3FFF) << 32) | (1ull << 62);
}

/* D (+)= A * B, 64 x 256 x 16, BF16 (bf16) or FP16 inputs both from shared memory, FP32
 * accumulators (d as in kernels/sm90_tf32.cuh: d[4j + 2h + e] is row 16 warp + g + 8h,
 * column 8j + 2 tig + e). A K-major; B K-major (TRANS_B 0) or N-major (TRANS_B 1). */
template <bool bf16, int TRANS_B = 0>
static __device__ __forceinline__ void wgmma_m64n256k16_ss(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                                           int scale_d)
{
    static_assert(TRANS_B == 0 || TRANS_B == 1, "imm-trans-b is 0 or 1");
    if (bf16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {" SM90_D128_REGS "}, "
                     "%128, %129, p, 1, 1, 0, %131;\n}\n"
                     : SM90_D128_OPERANDS(d)
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_B));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" SM90_D128_REGS "}, "
                     "%128, %129, p, 1, 1, 0, %131;\n}\n"
                     : SM90_D128_OPERANDS(d)
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_B));
}

/* One stage of the tile: A rows row0.. x k k0..k0+63 (one box of BM rows) and B k rows
 * k0..k0+BK-1 x n col0..col0+BN-1 (BN / 64 boxes of [BK][64]) into a_st, b_st, signalled on
 * `bar` (whose expected bytes the caller announced: (BM + BN) x BK x 2). */
template <int BM, int BN, int BK>
static __device__ __forceinline__ void wgmma16_load_stage(uint8_t *a_st, uint8_t *b_st, const CUtensorMap *map_a,
                                                          const CUtensorMap *map_b, int row0, int col0, int k0,
                                                          uint64_t *bar)
{
    static_assert(BK == WGMMA16_ROW && BN % WGMMA16_ROW == 0, "A boxes one swizzle row of k, B boxes 64 n wide");
    tma_load_2d(a_st, map_a, k0, row0, bar);
#pragma unroll
    for (int p = 0; p < BN / WGMMA16_ROW; ++p)
        tma_load_2d(b_st + p * (BK * 128), map_b, col0 + WGMMA16_ROW * p, k0, bar);
}

/* One k-tile of BK (4 k16 steps) of a warpgroup's 64 x 256 product: A from a_rows (its 64
 * rows of the stage's A box), B the stage's [256/64][BK][64] boxes, descriptor offsets
 * b_lbo / b_sbo and imm-trans-b TRANS_B as given (the kernel passes its encoding, the probe
 * its candidates). Issues the wgmmas; the caller fences, commits and waits. */
template <bool bf16, int TRANS_B, int BK>
static __device__ __forceinline__ void wgmma16_ktile(float (&acc)[128], const uint8_t *a_rows, const uint8_t *b_st,
                                                     uint32_t b_lbo, uint32_t b_sbo)
{
#pragma unroll
    for (int s = 0; s < BK / 16; ++s)
        wgmma_m64n256k16_ss<bf16, TRANS_B>(acc, wgmma_desc_k128(a_rows + 32 * s),
                                           wgmma_desc_sw128(b_st + 16 * 128 * s, b_lbo, b_sbo), 1);
}

/* Stores a warpgroup's accumulators, rows row_base + 16 warp + g (+8) and columns col_base +
 * 2 tig (+8j, +1) of a row-major m x n FP32 C (row_base, col_base: the warpgroup's origin),
 * guarded; pairs as 8-byte stores where n is even. */
static __device__ __forceinline__ void wgmma16_store(const float (&acc)[128], float *__restrict__ c, int m, int n,
                                                     int row_base, int col_base, int warp, int g, int tig)
{
    const bool pairs = (n & 1) == 0 && ((uintptr_t)c & 7) == 0;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int row = row_base + 16 * warp + g + 8 * h;
        if (row >= m)
            continue;
        float *const c_row = c + (size_t)row * n;
#pragma unroll
        for (int j = 0; j < 32; ++j)
            c_store_pair(c_row, col_base + 8 * j + 2 * tig, n, acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1], pairs);
    }
}

#endif /* SM90_TF32_DEVICE */

#endif

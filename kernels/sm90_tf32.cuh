/* Hopper (sm_90a) building blocks shared by the wgmma variants (12_wgmma.cu,
 * 13_wgmma_ws.cu) and the tensor-core ceiling (ceil_tensor.cu): TMA tensor maps, mbarriers,
 * and TF32 wgmma with its shared-memory descriptors. Device code only exists where the
 * file is compiled for sm_90a (the Makefile's SM90A_SRC list); elsewhere SM90_TF32_DEVICE
 * is 0 and the launchers return cudaErrorNotSupported.
 *
 * Facts the code relies on, checked against the PTX ISA (wgmma "Register Fragments and
 * Shared Memory Matrix Layouts", "Matrix Descriptor Format") and CUTLASS's ALayout_64x8 /
 * CLayout_64xN; lane = 4 * groupID + tig (thread in group), warp q of the warpgroup:
 *  - A from registers, m64nNk8 tf32: 4 x b32 per thread; a0 (row 16q+g, col tig),
 *    a1 (row +8), a2 (col +4), a3 (row +8, col +4): per warp the mma.m16n8k8 A fragment.
 *  - D, f32: d[4j + 2h + e] is (row 16q + g + 8h, column 8j + 2 tig + e).
 *  - B from shared memory is "column-major" = K-major: each of its N columns holds K
 *    contiguous elements. TF32 has no transpose bit, so B must be K-major.
 *  - descriptor: bits 0-13 start address >> 4, 16-29 leading byte offset >> 4, 32-45
 *    stride byte offset >> 4, 49-51 base offset, 62-63 swizzle (1 = 128B).
 *  - 128B swizzle (TMA and wgmma agree): within each 1024-byte block of 8 rows x 128 B,
 *    the 16-byte chunk index (address bits 4-6) is XORed with the row (bits 7-9).
 */
#ifndef GEMMPROF_KERNELS_SM90_TF32_CUH
#define GEMMPROF_KERNELS_SM90_TF32_CUH

#include <cuda.h> /* CUtensorMap and the encoder's types only: libcuda is not linked */
#ifndef SM90_EMULATED
#include <cuda_runtime.h>

#include "kernels/pad_rows.cuh"
#endif
#include "kernels/pipeline.cuh" /* grouped_tile */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SM90_TF32_DEVICE: this device pass has the sm_90a features (nvcc defines
 * __CUDA_ARCH_FEAT_SM90_ALL for compute_90a). SM90_TF32_BUILT: for host code, the object
 * holds sm_90a kernels (the Makefile adds -DGP_SM90A with the sm_90a gencode). */
#if defined(SM90_EMULATED)
/* tests/sm90_emulated.cpp: the device code on the host, with its own primitives (mbarriers,
 * TMA, wgmma, barriers) in place of the PTX below; it leaves out the host part */
#define SM90_TF32_DEVICE 1
#elif defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define SM90_TF32_DEVICE 1
#else
#define SM90_TF32_DEVICE 0
#endif
#ifdef GP_SM90A
#define SM90_TF32_BUILT true
#else
#define SM90_TF32_BUILT false
#endif

#ifndef SM90_EMULATED
/* ---- host: tensor maps --------------------------------------------------------------- */

/* cuTensorMapEncodeTiled through the runtime's driver entry point (the process already
 * has the driver loaded through the runtime), so nothing links libcuda. NULL when the
 * driver does not have it. */
typedef CUresult (*sm90_encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                         const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                         const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                         CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static inline sm90_encode_tiled_fn sm90_encoder(void)
{
    static sm90_encode_tiled_fn fn = NULL;
    static int tried = 0;
    if (!tried) {
        void *p = NULL;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        /* 12000: the ABI of cuTensorMapEncodeTiled since CUDA 12.0 */
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) ==
                cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (sm90_encode_tiled_fn)p;
        tried = 1;
    }
    return fn;
}

/* The L2 promotion of every TMA map: none. Promoting to 256-byte L2 fetches (what these
 * maps asked for before) fetched far more than the boxes use: on the H200 (one call, cuBLAS
 * TF32 within 1% between the two sweeps; logs: results/h200/NOTES.md, "Kernel notes",
 * sm90_tf32.cuh) wgmma_ws ran 311/334/351 TFLOP/s at 2048/4096/8192^3 without
 * it against 276/286/272 with it (DRAM at 8192^3: 2.66 GB against 8.29), wgmma 207/222/220
 * against 180/186/187, and wgmma_ss and wgmma_rs within 1% either way. Promoting only the
 * 128-byte rows still left wgmma_ws 4.41 GB of DRAM traffic at 8192^3.
 * GEMMPROF_TMA_L2_PROMOTION=64|128|256 promotes every map again (a diagnostic). */
static inline CUtensorMapL2promotion sm90_l2_promotion(void)
{
    static const struct { const char *name; CUtensorMapL2promotion p; } choices[] = {
        {"none", CU_TENSOR_MAP_L2_PROMOTION_NONE}, {"64", CU_TENSOR_MAP_L2_PROMOTION_L2_64B},
        {"128", CU_TENSOR_MAP_L2_PROMOTION_L2_128B}, {"256", CU_TENSOR_MAP_L2_PROMOTION_L2_256B}};
    static bool warned = false;
    const char *e = getenv("GEMMPROF_TMA_L2_PROMOTION");
    if (e == NULL || e[0] == '\0')
        return CU_TENSOR_MAP_L2_PROMOTION_NONE;
    for (const auto &c : choices)
        if (strcmp(e, c.name) == 0)
            return c.p;
    if (!warned)
        fprintf(stderr, "gemmprof: GEMMPROF_TMA_L2_PROMOTION=%s: unknown, one of none, 64, 128, 256; using none\n", e);
    warned = true;
    return CU_TENSOR_MAP_L2_PROMOTION_NONE;
}

/* A 2-D FP32 tensor map of a row-major rows x cols matrix with row pitch `ld` elements;
 * a box is box_cols x box_rows; elements outside the matrix read as zero. */
static inline cudaError_t sm90_tensor_map_2d(CUtensorMap *map, const float *base, int rows, int cols, long ld,
                                      int box_cols, int box_rows, CUtensorMapSwizzle swizzle)
{
    const sm90_encode_tiled_fn enc = sm90_encoder();
    if (enc == NULL)
        return cudaErrorNotSupported;
    const cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t stride[1] = {(cuuint64_t)ld * sizeof(float)};
    const cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
    const cuuint32_t estride[2] = {1, 1};
    const CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dim, stride, box, estride,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, sm90_l2_promotion(),
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/* The device is a Hopper that runs sm_90a code, and this object holds it. */
static inline cudaError_t sm90_check_device(bool built_for_sm90a)
{
    if (!built_for_sm90a)
        return cudaErrorNotSupported;
    int dev = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (e != cudaSuccess)
        return e;
    return major == 9 && minor == 0 ? cudaSuccess : cudaErrorNotSupported;
}

static inline bool sm90_aligned16(const void *p)
{
    return pad_rows_aligned16(p);
}

/* The operands (T elements) as TMA can read them: a and b themselves when their row
 * pitches (k and n elements) are multiples of 16 bytes and both are 16-byte aligned;
 * otherwise copies with the pitch rounded up to 128 bytes, in stream-ordered scratch memory
 * (the copy runs on `stream` before the GEMM, so its time counts in the variant's). */
template <class T> struct sm90_operands_of {
    const T *a, *b;
    long lda, ldb;   /* row pitches, elements */
    T *scratch;      /* NULL, or the copies: free with sm90_operands_release after the launch */
};
typedef sm90_operands_of<float> sm90_operands;

/* The padded copies' row pitch in bytes: whole 128-byte lines, so that no box row of a
 * TMA load straddles two L2 lines (faster than the 16 bytes TMA needs: results/h200/NOTES.md);
 * GEMMPROF_PAD_PITCH=16 gives the minimum back, to compare. Read once: the copies are made
 * inside timed calls. */
static inline int sm90_pad_pitch_bytes(void)
{
    static int bytes = 0;
    if (bytes)
        return bytes;
    const char *e = getenv("GEMMPROF_PAD_PITCH");
    bytes = 128;
    if (e != NULL && strcmp(e, "16") == 0)
        bytes = 16;
    else if (e != NULL && e[0] != '\0' && strcmp(e, "128") != 0)
        fprintf(stderr, "gemmprof: GEMMPROF_PAD_PITCH=%s: unknown, one of 16, 128; using 128\n", e);
    return bytes;
}

/* The pitch-padded copies of A (m x k) and B (k x n) of T elements that TMA needs: a
 * global stride must be a multiple of 16 bytes and the base 16-byte aligned (the copies
 * take whole 128-byte lines, sm90_pad_pitch_bytes); copy_a copies A also where TMA could
 * read it in place (tf32_auto's plans, kernels/tf32_plan.h: TF32_A_SPLIT); direct (1: A,
 * 2: B, kernels/sm90_ws.cuh's SM90_DIRECT_*) names operands the kernel loads itself,
 * never copied. Either copy is
 * made only when needed, both in one launch (kernels/pad_rows.cuh) on `stream`, into
 * stream-ordered scratch memory (*scratch, NULL when none); *a, *b and the pitches are
 * replaced by the copies'. */
template <class T>
static inline cudaError_t sm90_pad_operands(int m, int n, int k, const void **a, const void **b, long *lda,
                                            long *ldb, void **scratch, cudaStream_t stream, bool copy_a, int direct)
{
    constexpr int V = 16 / sizeof(T);
    const bool pad_a = (k % V != 0 || !sm90_aligned16(*a) || copy_a) && !(direct & 9);
    const bool pad_b = (n % V != 0 || !sm90_aligned16(*b)) && !(direct & 6);
    *lda = k, *ldb = n, *scratch = NULL;
    if (!pad_a && !pad_b)
        return cudaSuccess;
    const int P = sm90_pad_pitch_bytes() / (int)sizeof(T);
    const int pitch_a = (k + P - 1) / P * P, pitch_b = (n + P - 1) / P * P;
    const size_t a_elems = pad_a ? (size_t)m * pitch_a : 0, b_elems = pad_b ? (size_t)k * pitch_b : 0;
    cudaError_t e = cudaMallocAsync(scratch, (a_elems + b_elems) * sizeof(T), stream);
    if (e != cudaSuccess) {
        *scratch = NULL;
        return e;
    }
    T *a_copy = static_cast<T *>(*scratch), *b_copy = a_copy + a_elems;
    struct pad_copy copies[2];
    int n_copies = 0;
    if (pad_a)
        copies[n_copies++] = {*a, a_copy, m, k, pitch_a};
    if (pad_b)
        copies[n_copies++] = {*b, b_copy, k, n, pitch_b};
    if ((e = pad_rows_launch<T>(copies, n_copies, stream)) != cudaSuccess)
        return e;
    if (pad_a)
        *a = a_copy, *lda = pitch_a;
    if (pad_b)
        *b = b_copy, *ldb = pitch_b;
    return cudaSuccess;
}

template <class T>
static inline cudaError_t sm90_operands_prepare(int m, int n, int k, const void *a, const void *b,
                                                cudaStream_t stream, sm90_operands_of<T> *op, bool copy_a = false,
                                                int direct = 0)
{
    const void *pa = a, *pb = b;
    void *scratch;
    const cudaError_t e =
        sm90_pad_operands<T>(m, n, k, &pa, &pb, &op->lda, &op->ldb, &scratch, stream, copy_a, direct);
    op->a = static_cast<const T *>(pa), op->b = static_cast<const T *>(pb);
    op->scratch = static_cast<T *>(scratch);
    return e;
}

/* Frees the copies sm90_operands_prepare made (after the launch that reads them,
 * stream-ordered) and clears the pointer. */
template <class T> static inline cudaError_t sm90_operands_release(sm90_operands_of<T> *op, cudaStream_t stream)
{
    const cudaError_t e = op->scratch != NULL ? cudaFreeAsync(op->scratch, stream) : cudaSuccess;
    op->scratch = NULL;
    return e;
}

/* The two tensor maps of one launch, kept while the operands stay the same (a sweep
 * launches the same GEMM many times; encoding is host work inside the timed loop).
 * A (m x k, pitch lda): boxes of 32 k x bm rows, 128B swizzle, for wgmma's B operand.
 * B (k x n, pitch ldb): boxes of b_box_n n x bk rows, unswizzled: with b_box_n 0 (the
 * default of a zeroed struct) 8 n, one [bk][8] panel; wgmma_ss sets 128, its whole tile. */
/* A matrix (rows x cols floats, pitch ld) as four tensor maps, map j of its rows j, j + 4,
 * ... (pitch 4 ld floats, a multiple of 16 bytes whatever ld), its base aligned down to 16
 * bytes by s_j floats, which *shifts gets in bits 2j, 2j + 1; boxes of box_rows rows x 32
 * columns, 128B swizzle (kernels/sm90_ws.cuh, SM90_MAPS_A and SM90_MAPS_B). Needs rows >= 4
 * (every map a row) and base 4-byte aligned. A kernel parameter (__grid_constant__). */
struct sm90_row_maps {
    CUtensorMap row[4];
};
static inline cudaError_t sm90_row_maps_make(struct sm90_row_maps *maps, unsigned *shifts, const float *base, int rows,
                                             int cols, long ld, int box_rows)
{
    if (rows < 4 || ((uintptr_t)base & 3) != 0)
        return cudaErrorInvalidValue;
    *shifts = 0;
    for (int j = 0; j < 4; j++) {
        const float *first = base + (size_t)j * ld;
        const int shift = (int)(((uintptr_t)first & 15) / 4);
        const cudaError_t e = sm90_tensor_map_2d(&maps->row[j], first - shift, (rows - j + 3) / 4, cols + shift, 4 * ld,
                                                 32, box_rows, CU_TENSOR_MAP_SWIZZLE_128B);
        if (e != cudaSuccess)
            return e;
        *shifts |= (unsigned)shift << (2 * j);
    }
    return cudaSuccess;
}

struct sm90_maps {
    CUtensorMap a, b;
    struct sm90_row_maps a_rows, b_rows; /* direct & 8, & 4: A, B by four row maps instead of a, b */
    unsigned a_shifts, b_shifts;
    const float *pa, *pb;
    int m, n, k, bm, bk;
    long lda, ldb;
    bool valid;
    int b_box_n; /* set by the kernel's launcher before the first call; 0 means 8 */
    bool b_swizzle128; /* B boxes with TMA's 128B swizzle (b_box_n 32: rows of 128 bytes) */
    int direct; /* operands the kernel loads without TMA (1: A, 2: B): no map, left zero;
                 * 4: B, 8: A by its four row maps (b_rows, a_rows: bm is A's box rows), never copied */
};

static inline cudaError_t sm90_maps_get(struct sm90_maps *c, const sm90_operands *op, int m, int n, int k, int bm,
                                 int bk)
{
    if (c->valid && c->pa == op->a && c->pb == op->b && c->m == m && c->n == n && c->k == k && c->bm == bm &&
        c->bk == bk && c->lda == op->lda && c->ldb == op->ldb)
        return cudaSuccess;
    c->valid = false;
    memset(&c->a, 0, sizeof c->a);
    memset(&c->b, 0, sizeof c->b);
    cudaError_t e = cudaSuccess;
    memset(&c->a_rows, 0, sizeof c->a_rows);
    memset(&c->b_rows, 0, sizeof c->b_rows);
    c->a_shifts = c->b_shifts = 0;
    if (c->direct & 8)
        e = sm90_row_maps_make(&c->a_rows, &c->a_shifts, op->a, m, k, op->lda, bm);
    else if (!(c->direct & 1))
        e = sm90_tensor_map_2d(&c->a, op->a, m, k, op->lda, 32, bm, CU_TENSOR_MAP_SWIZZLE_128B);
    if (e == cudaSuccess && (c->direct & 4))
        e = sm90_row_maps_make(&c->b_rows, &c->b_shifts, op->b, k, n, op->ldb, 8);
    else if (e == cudaSuccess && !(c->direct & 2))
        e = sm90_tensor_map_2d(&c->b, op->b, k, n, op->ldb, c->b_box_n > 0 ? c->b_box_n : 8, bk,
                               c->b_swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE);
    if (e != cudaSuccess)
        return e;
    c->pa = op->a, c->pb = op->b, c->m = m, c->n = n, c->k = k, c->bm = bm, c->bk = bk;
    c->lda = op->lda, c->ldb = op->ldb, c->valid = true;
    return cudaSuccess;
}

/* The host side the wgmma variants share: the device check, the kernel's dynamic
 * shared-memory limit (raised on the first call: *smem_raised), the operands of T
 * (pitch-padded copies where TMA needs them) and their tensor maps (get_maps(op): kept in
 * *maps while the operands do not change), then launch(maps) enqueues the kernel, then the
 * copies are released on the stream. Returns the first error. */
template <class T, class Maps, class GetMaps, class Launch>
static inline cudaError_t sm90_gemm_host(Maps *maps, bool *smem_raised, const void *kernel, int smem, int m, int n,
                                         int k, const void *a, const void *b, cudaStream_t stream, GetMaps get_maps,
                                         Launch launch, bool copy_a = false, int direct = 0)
{
    cudaError_t e = sm90_check_device(SM90_TF32_BUILT);
    if (e != cudaSuccess)
        return e;
    if (!*smem_raised) {
        if ((e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)) != cudaSuccess)
            return e;
        *smem_raised = true;
    }
    sm90_operands_of<T> op;
    e = sm90_operands_prepare(m, n, k, a, b, stream, &op, copy_a, direct);
    if (e == cudaSuccess)
        e = get_maps(op);
    if (e == cudaSuccess) {
        launch(*maps);
        e = cudaGetLastError();
    }
    const cudaError_t r = sm90_operands_release(&op, stream);
    return e != cudaSuccess ? e : r;
}

/* sm90_gemm_host for FP32 operands, with maps of bm x bk tiles. */
template <class Launch>
static inline cudaError_t sm90_tf32_gemm(struct sm90_maps *maps, bool *smem_raised, const void *kernel, int smem,
                                         int bm, int bk, int m, int n, int k, const float *a, const float *b,
                                         cudaStream_t stream, Launch launch, bool copy_a = false)
{
    return sm90_gemm_host<float>(
        maps, smem_raised, kernel, smem, m, n, k, a, b, stream,
        [&](const sm90_operands &op) { return sm90_maps_get(maps, &op, m, n, k, bm, bk); }, launch, copy_a,
        maps->direct);
}

/* The persistent kernels' grid (wgmma_ws, wgmma_ss, tf32x3_wgmma): one block per SM, fewer
 * when there are fewer bm x bn tiles. The SM count is queried once per process. */
static inline cudaError_t sm90_persistent_grid(int m, int n, int bm, int bn, unsigned *grid)
{
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaError_t e;
        if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
            (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) {
            sms = 0;
            return e;
        }
    }
    const long tiles = (long)((m + bm - 1) / bm) * ((n + bn - 1) / bn);
    *grid = (unsigned)(tiles < sms ? tiles : sms);
    return cudaSuccess;
}

/* sm90_tf32_gemm for a persistent kernel of configuration P (wgmma_ws, wgmma_ss,
 * tf32x3_wgmma): Kernel(m, n, k, map_a, map_b, c) on sm90_persistent_grid's grid. The maps
 * and the raised limit are kept per kernel; b_box_n as in struct sm90_maps. */
template <class P, auto Kernel>
static inline cudaError_t sm90_persistent_gemm(int m, int n, int k, const float *a, const float *b, float *c,
                                               cudaStream_t stream, int b_box_n = 0)
{
    static struct sm90_maps maps;
    static bool smem_raised = false;
    maps.b_box_n = b_box_n;
    unsigned grid;
    const cudaError_t e = sm90_persistent_grid(m, n, P::BM, P::BN, &grid);
    if (e != cudaSuccess)
        return e;
    return sm90_tf32_gemm(&maps, &smem_raised, (const void *)Kernel, P::SMEM, P::BM, P::BK, m, n, k, a, b, stream,
                          [&](const struct sm90_maps &mp) {
                              Kernel<<<grid, P::NT, P::SMEM, stream>>>(m, n, k, mp.a, mp.b, c);
                          });
}

#endif /* SM90_EMULATED */

/* ---- device ---------------------------------------------------------------------------- */

#ifndef SM90_EMULATED
static __device__ __forceinline__ uint32_t sm90_smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}
#endif

#if SM90_TF32_DEVICE
#ifndef SM90_EMULATED /* the PTX primitives (the emulator has its own) */

static __device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sm90_smem_addr(bar)), "r"(count) : "memory");
}

/* Makes the initialised barriers visible to the async proxy (TMA) and the other threads
 * (with the __syncthreads that follows). */
static __device__ __forceinline__ void mbar_init_fence(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* One arrival that also announces `bytes` of TMA traffic to come on this phase. */
static __device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(sm90_smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
}

static __device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(sm90_smem_addr(bar)) : "memory");
}

/* Spins until the phase with parity `parity` has completed. */
static __device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    const uint32_t a = sm90_smem_addr(bar);
    uint32_t done = 0;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(a), "r"(parity)
                     : "memory");
    } while (!done);
}

/* TMA: the box at element coordinates (c0 innermost, c1) of `map` into shared `dst`;
 * completion is signalled as transaction bytes on `bar`. */
static __device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1,
                                                   uint64_t *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(sm90_smem_addr(dst)),
                 "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(sm90_smem_addr(bar))
                 : "memory");
}

/* tma_load_2d into the same shared offset of every CTA of the cluster in cta_mask, each
 * CTA's barrier at bar's offset receiving the box's bytes. */
static __device__ __forceinline__ void tma_load_2d_multicast(void *dst, const CUtensorMap *map, int c0, int c1,
                                                             uint64_t *bar, uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(sm90_smem_addr(dst)),
                 "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(sm90_smem_addr(bar)), "h"(cta_mask)
                 : "memory");
}

/* One arrival on the barrier at bar's offset in CTA `cta` of the cluster (this one too).
 * Release at CTA scope, as a local arrival: what it orders are this thread's reads of its
 * own block's stage, which the other block's TMA then overwrites. */
static __device__ __forceinline__ void mbar_arrive_in_cta(uint64_t *bar, unsigned cta)
{
    asm volatile("{\n.reg .b32 ra;\nmapa.shared::cluster.u32 ra, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n" ::"r"(sm90_smem_addr(bar)),
                 "r"(cta)
                 : "memory");
}

static __device__ __forceinline__ unsigned cluster_cta_rank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* Every thread of every CTA of the cluster meets here; shared-memory writes before it are
 * visible to the cluster after it. */
static __device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

static __device__ __forceinline__ void tma_prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)map) : "memory");
}

/* Orders this thread's generic-proxy shared-memory writes before later async-proxy reads
 * (wgmma operands written with st.shared). */
static __device__ __forceinline__ void fence_proxy_async_smem(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

static __device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

static __device__ __forceinline__ void wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Waits until at most N committed wgmma groups of this warp are pending. */
template <int N> static __device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

template <int R> static __device__ __forceinline__ void setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}

template <int R> static __device__ __forceinline__ void setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}

/* Named barrier `id` (1-15; 0 is __syncthreads) for COUNT threads, whole warps: a part of
 * the block synchronises without the rest. */
template <int COUNT> static __device__ __forceinline__ void named_barrier_sync(int id)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "n"(COUNT) : "memory");
}
#endif /* SM90_EMULATED */

/* The producer thread of the persistent kernels: the block's tiles and their k-tiles;
 * `it` counts stage uses over all of them, so the ring carries on across tiles. Each use
 * waits for the consumers' release of the stage's previous use (empty[s]), then
 * load(it, s, t, row0, col0) fills stage s with k-tile t of the tile at row0, col0. */
template <int BM, int BN, int STAGES, int GROUP_M, class Load>
static __device__ __forceinline__ void sm90_produce_tiles(int m, int n, int tiles, int ktiles, uint64_t *empty,
                                                          Load load)
{
    int it = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0, col0;
        grouped_tile<BM, BN>(tile, m, n, GROUP_M, &row0, &col0);
        for (int t = 0; t < ktiles; ++t, ++it) {
            const int s = it % STAGES;
            if (it >= STAGES)
                mbar_wait(&empty[s], (unsigned)(it / STAGES - 1) & 1u);
            load(it, s, t, row0, col0);
        }
    }
}

/* A consumer warpgroup of the same kernels that keeps one k-tile of wgmmas in flight
 * (wgmma_ss, wgmma16), in the producer's order: per tile acc zeroed; per k-tile the wait
 * for stage s (phase: its parity), issue(s, phase) (the fence and the k-tile's wgmmas),
 * then the previous k-tile retired and its stage released by the warp's `leader`; after
 * the tile's last k-tile, all retired and store(row0, col0). */
template <int BM, int BN, int STAGES, int GROUP_M, int NACC, class Issue, class Store>
static __device__ __forceinline__ void sm90_consume_tiles(int m, int n, int tiles, int ktiles, uint64_t *full,
                                                          uint64_t *empty, bool leader, float (&acc)[NACC],
                                                          Issue issue, Store store)
{
    int it = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0, col0;
        grouped_tile<BM, BN>(tile, m, n, GROUP_M, &row0, &col0);
#pragma unroll
        for (int i = 0; i < NACC; ++i)
            acc[i] = 0.f;
        for (int t = 0; t < ktiles; ++t, ++it) {
            const int s = it % STAGES;
            const unsigned phase = (unsigned)(it / STAGES) & 1u;
            mbar_wait(&full[s], phase);
            issue(s, phase);
            wgmma_commit();
            wgmma_wait<1>(); /* k-tile t-1 retired (t stays in flight): its stage may be refilled */
            if (t > 0 && leader)
                mbar_arrive(&empty[(it + STAGES - 1) % STAGES]);
        }
        wgmma_wait<0>();
        if (leader)
            mbar_arrive(&empty[(it + STAGES - 1) % STAGES]); /* the tile's last stage */
        store(row0, col0);
    }
}

/* Descriptor of a K-major operand laid out by TMA with 128B swizzle: rows of 128 bytes
 * (32 tf32 of k), 8-row groups 1024 bytes apart (stride byte offset); the leading byte
 * offset is not used by swizzled K-major layouts (1 by convention). `start` may sit
 * 32*s bytes into a 1024-aligned tile to select k-step s: the swizzle is a function of
 * the address, so TMA's placement and wgmma's reads agree. */
static __device__ __forceinline__ uint64_t wgmma_desc_k128(const void *start)
{
    const uint64_t addr = sm90_smem_addr(start);
    return ((addr & 0x3FFFFull) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

#ifndef SM90_EMULATED
/* D (+)= A * B, 64 x N x 8, TF32 inputs, FP32 accumulators (d as in the file comment).
 * _rs: A from registers (a0..a3 above), B by descriptor; _ss: both by descriptor.
 * scale_d 0 ignores d's old value (D = A * B). */
static __device__ __forceinline__ void wgmma_m64n128k8_rs(float (&d)[64], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 "{"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
                 "}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}

/* the 128 accumulators of an n256 wgmma: their place-holders and their operands */
#define SM90_D128_REGS \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31," \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47," \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63," \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79," \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95," \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111," \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define SM90_D128_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
    "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
    "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
    "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
    "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
    "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
    "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

static __device__ __forceinline__ void wgmma_m64n256k8_rs(float (&d)[128], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" SM90_D128_REGS "}, "
                 "{%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : SM90_D128_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}

static __device__ __forceinline__ void wgmma_m64n256k8_ss(float (&d)[128], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" SM90_D128_REGS "}, "
                 "%128, %129, p, 1, 1;\n}\n"
                 : SM90_D128_OPERANDS(d)
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

/* m64n64k8, A from registers: the narrowest tile of tf32_auto (kernels/sm90_rs.cuh). */
static __device__ __forceinline__ void wgmma_m64n64k8_rs(float (&d)[32], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
                 "{"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                 "}, {%32, %33, %34, %35}, %36, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}

/* m64n32k8 and m64n16k8, A from registers: one row residue of tf32_auto's 128- and 64-row
 * tiles with A by its four row maps (kernels/sm90_rs.cuh). */
static __device__ __forceinline__ void wgmma_m64n32k8_rs(float (&d)[16], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
                 "{%16, %17, %18, %19}, %20, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}
static __device__ __forceinline__ void wgmma_m64n16k8_rs(float (&d)[8], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}

#endif /* SM90_EMULATED */

/* Stores a consumer warpgroup's accumulators, C^T of 64 n x BM m, into row-major C:
 * acc[4j + 2h + e] is C(row0 + 8j + 2 tig + e, n_base + 8h) with n_base = the warp's
 * first n + g. Each store instruction writes 4 rows x 32 contiguous bytes; guarded. */
template <int BM>
static __device__ __forceinline__ void sm90_store_ct(const float (&acc)[BM / 2], float *__restrict__ c, int m, int n,
                                                     int row0, int n_base, int tig)
{
#pragma unroll
    for (int j = 0; j < BM / 8; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int row = row0 + 8 * j + 2 * tig + e;
            if (row >= m)
                continue;
            float *const c_row = c + (size_t)row * n;
#pragma unroll
            for (int h = 0; h < 2; ++h)
                if (n_base + 8 * h < n)
                    c_row[n_base + 8 * h] = acc[4 * j + 2 * h + e];
        }
}

/* The same for a tile whose rows came as four residues (A by its four row maps): residue
 * j's BM / 8 accumulators, from acc[j BM / 8], are C^T of its BM / 4 rows, row x of the
 * residue being C's row row0 + 4x + j. */
template <int BM>
static __device__ __forceinline__ void sm90_store_ct_residues(const float (&acc)[BM / 2], float *__restrict__ c, int m,
                                                              int n, int row0, int n_base, int tig)
{
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int j = 0; j < BM / 32; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int row = row0 + 4 * (8 * j + 2 * tig + e) + r;
                if (row >= m)
                    continue;
                float *const c_row = c + (size_t)row * n;
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    if (n_base + 8 * h < n)
                        c_row[n_base + 8 * h] = acc[r * (BM / 8) + 4 * j + 2 * h + e];
            }
}

#endif /* SM90_TF32_DEVICE */

#endif

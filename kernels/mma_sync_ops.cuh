/* The warp-level tensor instructions that the mma.sync GEMMs (kernels/mma_tf32.cuh) and
 * the mma.sync ceilings (kernels/ceil_bench.cu) share, so a ceiling times the very
 * instruction the kernels issue: TF32 m16n8k8, and the BF16/FP16 m16n8k16 the 16-bit
 * ladder will issue. Needs cc >= 8.0 where it is called. */
#ifndef GEMMPROF_KERNELS_MMA_SYNC_OPS_CUH
#define GEMMPROF_KERNELS_MMA_SYNC_OPS_CUH

#include <stdint.h>

/* d += A (16x8, tf32) * B (8x8, tf32), FP32 accumulate. */
static __device__ __forceinline__ void mt_mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* x rounded to TF32 (to nearest, ties away), as the bits mma reads. */
static __device__ __forceinline__ uint32_t mt_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

/* d += A (16x16) * B (16x8), BF16 (bf16 = 1) or FP16 inputs packed two to a register,
 * FP32 accumulate: the m16n8k16 that BF16/FP16 mma.sync GEMMs issue. */
template <bool bf16>
static __device__ __forceinline__ void mt_mma16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    if (bf16)
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
            "{%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
            "{%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* lo and hi rounded to nearest even in BF16 (bf16 = 1) or FP16, packed (lo in the low half). */
template <bool bf16>
static __device__ __forceinline__ uint32_t mt_pack16(float lo, float hi)
{
    uint32_t r;
    if (bf16)
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    else
        asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

#endif

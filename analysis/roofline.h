/* Roofline math, host-only: per result row, work and traffic at each level of the memory
 * hierarchy, the attainable performance at each level against the measured ceilings,
 * and the level that binds. */
#ifndef GEMMPROF_ANALYSIS_ROOFLINE_H
#define GEMMPROF_ANALYSIS_ROOFLINE_H

#include <stdio.h>

#include "analysis/ceilings.h"
#include "analysis/dataset_types.h"
#include "analysis/precision.h"
#include "analysis/results.h"

enum gp_compute_path { GP_PATH_FP32, GP_PATH_TENSOR };

enum gp_level { GP_LEVEL_DRAM, GP_LEVEL_L2, GP_LEVEL_L1, GP_LEVEL_SHARED, GP_LEVEL_COUNT };
#define GP_BOUND_COMPUTE GP_LEVEL_COUNT   /* bound_level value when the compute roof binds */

extern const char *const gp_level_name[GP_LEVEL_COUNT + 1];   /* "dram","l2","l1","shared","compute" */

struct gp_roof {
    double flops_analytic;        /* 2 m n k */
    double flops_counted;         /* 2 ffma + fadd + fmul + tensor ops; NaN without counters */
    double bytes[GP_LEVEL_COUNT]; /* NaN when that counter was not collected */
    double ai[GP_LEVEL_COUNT];    /* flops_analytic / bytes, FLOP/byte */
    double roof_bw[GP_LEVEL_COUNT];      /* measured bandwidth ceiling used, byte/s */
    double attainable[GP_LEVEL_COUNT];   /* min(peak_compute, ai * roof_bw), flop/s */
    double peak_compute;          /* the compute roof in GEMM FLOP/s (2 m n k per second): see
                                   * compute_path and tensor_per_flop */
    int compute_path;             /* GP_PATH_TENSOR when the counters saw tensor work (or, without
                                   * counters, the row's precision is tf32, bf16 or fp16), else
                                   * GP_PATH_FP32 */
    double tensor_per_flop;       /* tensor ops counted / flops_analytic (3 for 3xTF32); NaN
                                   * without the tensor counter */
    int tensor_type;              /* enum gp_precision of the tensor work: GP_TF32, GP_BF16 or
                                   * GP_FP16, by the counters, else the row's precision (TF32
                                   * for FP32 rows) */
    int tensor_ceiling;           /* enum gp_ceiling_id of the tensor roof (roof_tensor_ceiling);
                                   * -1 without ceilings */
    double achieved;              /* flops_analytic / median time, flop/s */
    int bound_level;              /* lowest attainable level, GP_BOUND_COMPUTE, or -1 with no data */
    double bound_attainable;      /* attainable at bound_level, flop/s */
    double bound_share;           /* achieved / bound_attainable */
};

/* Fills `out` from one row and the ceilings (either may lack data: fields become NaN). */
void roof_derive(const struct gp_result *r, const struct gp_ceilings *cs, struct gp_roof *out);

/* 1 when the row has any of the counters a binding level needs (bytes at some level, or
 * FFMA counts): without them the compute roof alone is left, which is no evidence. */
int roof_row_has_counters(const struct gp_result *r);

/* The roofs of ds's rows as the report and the README summary read them: a metric that
 * is not finite and >= 0, a time or ceiling that is not finite and > 0, counts as missing;
 * usable[i] = verified, positive shape, positive finite median time, and not marked
 * implausible (analysis/plausible.h); a row without counters (roof_row_has_counters) gets
 * no binding level. Returns the number of impossible values set aside; *bad_time (may be
 * NULL) counts verified rows without a usable time; clean_cs (may be NULL) receives the
 * ceilings as they were used. */
int roof_derive_rows(const struct gp_dataset *ds, struct gp_roof *roof, unsigned char *usable, int *bad_time,
                     struct gp_ceilings *clean_cs);
/* The same cleaning, for one row (returns 1 when verified with a positive shape and
 * time) and for the ceilings; *bad counts the values set aside. */
int roof_clean_row(const struct gp_result *r, struct gp_result *out, int *bad);
void roof_clean_ceilings(const struct gp_ceilings *cs, struct gp_ceilings *out, int *bad);

/* The derived CSV columns (after the raw ones in results.csv): names and values in the
 * same order. Returns the count. */
int roof_column_count(void);
const char *roof_column_name(int i);
/* 1 for a column holding a name (bound_level), not a number: JSON quotes it */
int roof_column_is_text(int i);

/* The TF32 compute roof: our own wgmma loop (tf32_wgmma) where it was measured, else
 * cuBLAS TF32 at 8192^3 (tf32), which would make cuBLAS's own share 100% by construction. */
enum gp_ceiling_id roof_tf32_ceiling(const struct gp_ceilings *cs);
/* The roof of tensor type `type` (GP_TF32, GP_BF16, GP_FP16) for a row without mma.sync
 * evidence: roof_tf32_ceiling for TF32; for BF16 and FP16 our wgmma loop where it was
 * measured, else our mma.sync loop (there is no cuBLAS ceiling of theirs). */
enum gp_ceiling_id roof_type_ceiling(const struct gp_ceilings *cs, enum gp_precision type);
/* The tensor roof of row r, of its tensor type (struct gp_roof's tensor_type): that type's
 * mma.sync loop (tf32_mma, bf16, fp16) where the counters show that most of its tensor
 * work went through mma.sync and that ceiling was measured, else roof_type_ceiling. */
enum gp_ceiling_id roof_tensor_ceiling(const struct gp_ceilings *cs, const struct gp_result *r);
/* "TF32 tensor", "BF16 tensor (mma.sync)", ...: the tensor roof of a derived row. */
const char *roof_tensor_name(const struct gp_roof *roof);
/* The compute roof's name, for chart legends: "FP32 FMA", "TF32 tensor", or for 3xTF32
 * "3xTF32: TF32 / 3" (the tensor ceiling over the tensor ops counted per FLOP). */
void roof_compute_name(const struct gp_roof *roof, char *buf, size_t len);
/* Writes column i's value for `roof` into buf ("" when NaN). */
void roof_column_format(const struct gp_roof *roof, int i, char *buf, size_t len);

#endif

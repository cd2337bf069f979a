/* Checks of a tutorial's claims against the data, as structs: a speedup from a base
 * variant to an improved one at given square sizes, whether the gap widens with size,
 * and whether the base variant is bandwidth-bound at about a given share of peak. The
 * variants and numbers come from a gp_claim_spec, not from names in the code.
 *
 *   struct gp_claims c;
 *   claims_check(ds, roofs, usable, &gp_seed_claims, &c);   report.c renders c */
#ifndef GEMMPROF_ANALYSIS_CLAIMS_H
#define GEMMPROF_ANALYSIS_CLAIMS_H

#include "analysis/dataset.h"
#include "analysis/roofline.h"

#define GP_CLAIM_SIZES 4
#define GP_CLAIM_ROWS 20      /* base-variant rows checked one by one; the rest are counted */

struct gp_claim_spec {
    const char *base, *improved;        /* e.g. "naive", "tiled" */
    long sizes[GP_CLAIM_SIZES];         /* square sizes the speedup is claimed at */
    int nsizes;
    double speedup_lo, speedup_hi;      /* claimed speedup range */
    double peak_share;                  /* "runs at ~5% of peak" */
    double peak_close;                  /* "~" read as within this factor */
};
extern const struct gp_claim_spec gp_seed_claims;   /* the seed tutorial's (RTX 4090) */

enum gp_claim_outcome {
    GP_CLAIM_NOT_MEASURED,   /* a row is missing */
    GP_CLAIM_NOT_VERIFIED,   /* a row failed or has no valid time */
    GP_CLAIM_FAILS,
    GP_CLAIM_HOLDS,
    GP_CLAIM_EXCEEDED,       /* holds, beyond the claimed range */
};

struct gp_speedup_check {
    long n;
    int base_row, improved_row;   /* -1 when absent */
    int outcome;
    int bad_row;                  /* the unverified row when NOT_VERIFIED */
    double ratio;                 /* time(base) / time(improved) */
    double predicted;             /* bound(improved) / bound(base), NaN without bounds */
    int explained;                /* 1 measured within the claim's own tolerance of predicted */
};

enum gp_bw_outcome { GP_BW_UNKNOWN, GP_BW_DRAM, GP_BW_OTHER_LEVEL, GP_BW_COMPUTE };

struct gp_bandwidth_check {
    int row;
    int usable;
    int outcome;                  /* enum gp_bw_outcome */
    double dram_allows;           /* flop/s DRAM alone would allow (another level binding) */
    double dram_bw;               /* DRAM bytes / time */
    double peak_share;            /* achieved / compute ceiling */
    double peak_factor;           /* peak_share / claimed share */
    int peak_outcome;             /* GP_CLAIM_HOLDS or GP_CLAIM_FAILS; NOT_MEASURED w/o ceiling */
};

#define GP_CLAIM_SWEEP 16

struct gp_claims {
    const struct gp_claim_spec *spec;
    struct gp_speedup_check speedup[GP_CLAIM_SIZES];
    int gap_known;                /* both of the first two sizes measured */
    double gap_growth;            /* ratio at sizes[1] / ratio at sizes[0] */
    int gap_outcome;              /* HOLDS (widens by > 5%) or FAILS */
    /* the ratio at every square size of the run where both variants were measured,
     * smallest first: the claim names two sizes, the sweep may say otherwise */
    int nsweep;
    struct { long n; double ratio; } sweep[GP_CLAIM_SWEEP];
    int nbase;                    /* base-variant rows in the data */
    int nbw;                      /* of them, checked below (at most GP_CLAIM_ROWS) */
    struct gp_bandwidth_check bw[GP_CLAIM_ROWS];
};

/* Fills c; roofs and usable per row as report.c derives them. */
void claims_check(const struct gp_dataset *ds, const struct gp_roof *roofs, const unsigned char *usable,
                  const struct gp_claim_spec *spec, struct gp_claims *c);

#endif

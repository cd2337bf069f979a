/* The plausibility check (see analysis/plausible.h). Values that are merely missing,
 * negative or not finite are roof_derive_rows's to set aside; this catches values that
 * parse and are positive but no GPU could have produced. */
#include "analysis/plausible.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dataset_types.h"
#include "analysis/precision.h"
#include "analysis/roofline.h"

static const char *const level_words[GP_LEVEL_COUNT] = {"DRAM", "L2", "L1", "shared-memory"};

/* One ceiling against its theory: both are positive here, or the check is skipped. */
static void check_ceiling(struct gp_dataset *ds, int i, const struct gp_ceiling *c)
{
    const char *unit = gp_ceiling_info[i].kind == GP_CEIL_BANDWIDTH ? "TB/s" : "TFLOP/s";
    const double r = c->measured / c->theoretical;
    char *why = ds->ceiling_why[i];
    if (r > GP_PLAUS_OVER)
        snprintf(why, GP_WHY_LEN, "measured %.3g %s is %.3gx its theoretical %.3g %s", c->measured / 1e12, unit,
                 r, c->theoretical / 1e12, unit);
    else if (r < GP_PLAUS_CEIL_UNDER)
        snprintf(why, GP_WHY_LEN, "measured %.3g %s is %.3g%% of its theoretical %.3g %s", c->measured / 1e12,
                 unit, 100 * r, c->theoretical / 1e12, unit);
    else
        return;
    /* out of the data itself, so no consumer (the plots included) can use it */
    ds->ceilings.c[i].measured = ds->ceilings.c[i].theoretical = NAN;
    ds->n_implausible_ceilings++;
}

/* Why row r cannot be real, into why ("" when it can). roofs: the ceilings a row may
 * reach, each the larger of measured and theoretical; NULL without ceilings. */
static void check_row(const struct gp_result *raw, const struct gp_ceilings *roofs, char *why, size_t len)
{
    struct gp_result r;
    struct gp_roof ro;
    int bad = 0;
    why[0] = '\0';
    if (!roof_clean_row(raw, &r, &bad))
        return;   /* not usable anyway: said as a missing time or a failed row */
    roof_derive(&r, roofs, &ro);
    const double W = ro.flops_analytic, t = r.time_median_s;
    if (ro.achieved > GP_PLAUS_OVER * ro.peak_compute) {
        char roof[64];
        roof_compute_name(&ro, roof, sizeof roof);
        snprintf(why, len, "it achieves %.3g TFLOP/s, %.3gx the %s ceiling of %.3g TFLOP/s", ro.achieved / 1e12,
                 ro.achieved / ro.peak_compute, roof, ro.peak_compute / 1e12);
        return;
    }
    for (int l = 0; l < GP_LEVEL_COUNT; l++) {
        const double rate = ro.bytes[l] / t;
        if (rate > GP_PLAUS_OVER * ro.roof_bw[l]) {
            snprintf(why, len, "its %s traffic runs at %.3g TB/s, %.3gx the %s ceiling of %.3g TB/s", level_words[l],
                     rate / 1e12, rate / ro.roof_bw[l], level_words[l], ro.roof_bw[l] / 1e12);
            return;
        }
    }
    if (ro.flops_counted < GP_PLAUS_WORK_UNDER * W) {
        snprintf(why, len, "its FLOP counters sum to %.3g, %.3g%% of the 2mnk = %.3g FLOPs it must do",
                 ro.flops_counted, 100 * ro.flops_counted / W, W);
        return;
    }
    /* A and B at the bytes the kernel reads them (4, or 2 for the 16-bit copies), C as
     * 4-byte floats; a precision this build does not know is not judged */
    const int prec = gp_precision_parse(r.precision);
    if (prec < 0)
        return;
    const double m = (double)r.m, n = (double)r.n, k = (double)r.k,
                 ab = gp_precision_input_bytes((enum gp_precision)prec) * (m * k + k * n);
    if (ro.bytes[GP_LEVEL_L2] < GP_PLAUS_BYTES_UNDER * (ab + 4 * m * n)) {
        snprintf(why, len, "its L2 bytes, %.3g, are %.3g%% of the %.3g that A, B and C move through the L2 at "
                 "least once", ro.bytes[GP_LEVEL_L2], 100 * ro.bytes[GP_LEVEL_L2] / (ab + 4 * m * n), ab + 4 * m * n);
        return;
    }
    const double rd = r.metric[GP_M_dram_read];
    if (r.l2_flush == 1 && rd < GP_PLAUS_BYTES_UNDER * ab)
        snprintf(why, len, "its DRAM reads, %.3g bytes, are %.3g%% of the %.3g that A and B need from DRAM "
                 "with the L2 flushed", rd, 100 * rd / ab, ab);
}

int plausible_check(struct gp_dataset *ds, char *err, size_t errlen)
{
    struct gp_ceilings clean, roofs;
    int bad = 0;
    roof_clean_ceilings(&ds->ceilings, &clean, &bad);
    for (int i = 0; i < GP_CEIL_COUNT; i++) {
        ds->ceiling_why[i][0] = '\0';
        if (ds->have_ceilings)
            check_ceiling(ds, i, &clean.c[i]);
    }
    roof_clean_ceilings(&ds->ceilings, &roofs, &bad);
    for (int i = 0; i < GP_CEIL_COUNT; i++) {   /* fmax keeps the one that is there */
        roofs.c[i].measured = fmax(roofs.c[i].measured, roofs.c[i].theoretical);
        roofs.c[i].sm_clock_hz = NAN;   /* theory is at the highest clock: not rescaled per row */
    }
    /* again after rows were changed in memory: the earlier verdicts go */
    for (int i = 0; ds->row_why && i < ds->row_why_n; i++)
        free(ds->row_why[i]);
    free(ds->row_why);
    ds->n_implausible_rows = 0;
    ds->row_why_n = 0;
    ds->row_why = calloc((size_t)(ds->nrows > 0 ? ds->nrows : 0) + 1, sizeof *ds->row_why);
    if (!ds->row_why) {
        snprintf(err, errlen, "%s: out of memory for %d rows", ds->dir, ds->nrows);
        return -1;
    }
    ds->row_why_n = ds->nrows;
    char why[GP_WHY_LEN];
    for (int i = 0; i < ds->nrows; i++) {
        check_row(&ds->rows[i], ds->have_ceilings ? &roofs : NULL, why, sizeof why);
        if (!why[0])
            continue;
        if (!(ds->row_why[i] = strdup(why))) {
            snprintf(err, errlen, "%s: out of memory for %d rows", ds->dir, ds->nrows);
            return -1;
        }
        ds->n_implausible_rows++;
    }
    return 0;
}

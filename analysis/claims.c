/* A tutorial's claims checked against the data (see analysis/claims.h). */
#include "analysis/claims.h"

#include <math.h>
#include <string.h>

#include "analysis/findings.h"

/* The seed tutorial (an RTX 4090): tiled 5-10x faster than naive at 1024 and 2048, the
 * gap widening at 2048, naive bandwidth-bound at ~5% of peak. */
const struct gp_claim_spec gp_seed_claims = {
    .base = "naive", .improved = "tiled", .sizes = {1024, 2048}, .nsizes = 2,
    .speedup_lo = 5.0, .speedup_hi = 10.0, .peak_share = 0.05, .peak_close = 1.5,
};

/* The gap "widens" when the ratio grows by more than this factor. */
#define GAP_WIDENS 1.05

static int find_square(const struct gp_dataset *ds, const char *variant, long n)
{
    for (int i = 0; i < ds->nrows; i++) {
        const struct gp_result *o = &ds->rows[i];
        if (o->m == n && o->n == n && o->k == n && strcmp(o->variant, variant) == 0)
            return i;
    }
    return -1;
}

static double spread_tol(const struct gp_result *a, const struct gp_result *b)
{
    double sa = a->time_spread, sb = b->time_spread;
    return isfinite(sa) && isfinite(sb) && sa >= 0 && sb >= 0 ? sa + sb : GP_STEP_TOL_DEFAULT;
}

static void check_speedup(const struct gp_dataset *ds, const struct gp_roof *roofs,
                          const unsigned char *usable, const struct gp_claim_spec *sp, long n,
                          struct gp_speedup_check *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->ratio = s->predicted = NAN;
    s->bad_row = -1;
    s->base_row = find_square(ds, sp->base, n);
    s->improved_row = find_square(ds, sp->improved, n);
    if (s->base_row < 0 || s->improved_row < 0) {
        s->outcome = GP_CLAIM_NOT_MEASURED;
        return;
    }
    if (!usable[s->base_row] || !usable[s->improved_row]) {
        s->outcome = GP_CLAIM_NOT_VERIFIED;
        s->bad_row = !usable[s->base_row] ? s->base_row : s->improved_row;
        return;
    }
    const struct gp_result *a = &ds->rows[s->base_row], *b = &ds->rows[s->improved_row];
    s->ratio = a->time_median_s / b->time_median_s;
    s->outcome = s->ratio < sp->speedup_lo    ? GP_CLAIM_FAILS
                 : s->ratio <= sp->speedup_hi ? GP_CLAIM_HOLDS
                                              : GP_CLAIM_EXCEEDED;
    const struct gp_roof *ra = &roofs[s->base_row], *rb = &roofs[s->improved_row];
    if (ra->bound_level >= 0 && rb->bound_level >= 0) {
        s->predicted = rb->bound_attainable / ra->bound_attainable;
        s->explained = findings_step_verdict(s->ratio, s->predicted, spread_tol(a, b)) == GP_STEP_EXPLAINED;
    }
}

static void check_bandwidth(const struct gp_dataset *ds, const struct gp_roof *roofs,
                            const unsigned char *usable, const struct gp_claim_spec *sp, int i,
                            struct gp_bandwidth_check *b)
{
    const struct gp_result *r = &ds->rows[i];
    const struct gp_roof *ro = &roofs[i];
    memset(b, 0, sizeof *b);
    b->row = i;
    b->usable = usable[i];
    b->dram_allows = b->dram_bw = b->peak_share = b->peak_factor = NAN;
    b->peak_outcome = GP_CLAIM_NOT_MEASURED;
    if (!b->usable)
        return;
    int L = ro->bound_level;
    b->outcome = L < 0 ? GP_BW_UNKNOWN : L == GP_BOUND_COMPUTE ? GP_BW_COMPUTE
                 : L == GP_LEVEL_DRAM                       ? GP_BW_DRAM
                                                            : GP_BW_OTHER_LEVEL;
    if (b->outcome == GP_BW_OTHER_LEVEL) {
        b->dram_allows = ro->ai[GP_LEVEL_DRAM] * ro->roof_bw[GP_LEVEL_DRAM];
        b->dram_bw = ro->bytes[GP_LEVEL_DRAM] / r->time_median_s;
    }
    if (ro->peak_compute > 0) {
        b->peak_share = ro->achieved / ro->peak_compute;
        b->peak_factor = b->peak_share / sp->peak_share;
        b->peak_outcome = b->peak_factor >= 1 / sp->peak_close && b->peak_factor <= sp->peak_close
                              ? GP_CLAIM_HOLDS
                              : GP_CLAIM_FAILS;
    }
}

void claims_check(const struct gp_dataset *ds, const struct gp_roof *roofs, const unsigned char *usable,
                  const struct gp_claim_spec *spec, struct gp_claims *c)
{
    memset(c, 0, sizeof *c);
    c->spec = spec;
    c->gap_growth = NAN;
    for (int s = 0; s < spec->nsizes && s < GP_CLAIM_SIZES; s++)
        check_speedup(ds, roofs, usable, spec, spec->sizes[s], &c->speedup[s]);
    if (spec->nsizes >= 2 && isfinite(c->speedup[0].ratio) && isfinite(c->speedup[1].ratio)) {
        c->gap_known = 1;
        c->gap_growth = c->speedup[1].ratio / c->speedup[0].ratio;
        c->gap_outcome = c->gap_growth > GAP_WIDENS ? GP_CLAIM_HOLDS : GP_CLAIM_FAILS;
    }
    for (int i = 0; i < ds->nrows; i++) {
        if (strcmp(ds->rows[i].variant, spec->base) != 0)
            continue;
        if (c->nbase++ < GP_CLAIM_ROWS)
            check_bandwidth(ds, roofs, usable, spec, i, &c->bw[c->nbw++]);
        const struct gp_result *a = &ds->rows[i];
        if (a->m != a->n || a->n != a->k || !usable[i] || c->nsweep == GP_CLAIM_SWEEP)
            continue;
        int j = find_square(ds, spec->improved, a->n);
        if (j < 0 || !usable[j] || !(ds->rows[j].time_median_s > 0))
            continue;
        int at = c->nsweep++;   /* insertion by size */
        while (at > 0 && c->sweep[at - 1].n > a->n) {
            c->sweep[at] = c->sweep[at - 1];
            at--;
        }
        c->sweep[at].n = a->n;
        c->sweep[at].ratio = a->time_median_s / ds->rows[j].time_median_s;
    }
}

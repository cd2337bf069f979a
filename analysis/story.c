/* The physical story of a run in words (see analysis/story.h). */
#include "analysis/story.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/markdown.h"

#define NEW_LOW 0.9        /* a step that cuts the shared bytes per FMA by 10% or more */
#define MAX_STEPS 12       /* register-tiling steps told */
#define TENSOR_3X 1.05     /* tensor ops per GEMM FLOP above this: 3xTF32 (roofline.c's test) */

static const char *const level_words[GP_LEVEL_COUNT + 1] = {"DRAM", "L2", "L1", "shared memory", "compute"};

/* 3 significant digits as report.md prints them: 395, 0.0619, 3.17e-07, 1230. */
static const char *n3(double v)
{
    static char ring[32][32];
    static int at;
    char *b = ring[at++ % 32];
    if (!isfinite(v))
        return "n/a";
    if (fabs(v) >= 1000)
        snprintf(b, 32, "%.0f", v);
    else {
        snprintf(b, 32, "%#.3g", v);
        size_t n = strlen(b);
        if (n && b[n - 1] == '.')   /* "395." */
            b[n - 1] = '\0';
    }
    return b;
}

struct out { char *s; size_t len, n; };

static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->s + o->n, o->len - o->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        o->n += (size_t)k < o->len - o->n ? (size_t)k : o->len - 1 - o->n;
}

/* Item k of n in a list: "" first, " and " before the last, else ", ". */
static const char *sep(int k, int n) { return k == 0 ? "" : k == n - 1 ? " and " : ", "; }

static double per_fma(const struct gp_roof *ro, int l) { return ro->bytes[l] / (ro->flops_analytic / 2); }

static int is_library(const struct gp_result *r) { return strncmp(r->variant, "cublas", 6) == 0; }

enum kind { K_SIMT, K_TF32, K_3X, K_OTHER };

/* A hand-written kernel's family by the pipe that did its work; cuBLAS is the reference. */
static int kind_of(const struct story_input *in, int i)
{
    const struct gp_roof *ro = &in->roof[i];
    if (!in->usable[i] || is_library(&in->ds->rows[i]))
        return K_OTHER;
    if (ro->compute_path != GP_PATH_TENSOR)
        return K_SIMT;
    if (ro->tensor_type != GP_TF32)
        return K_OTHER;   /* BF16/FP16 tensor work: not the TF32 story's */
    return ro->tensor_per_flop > TENSOR_3X ? K_3X : K_TF32;
}

/* The fastest row of kind k at the shape, or -1. */
static int best_of(const struct story_input *in, int k)
{
    int best = -1;
    for (int j = 0; j < in->cnt; j++) {
        int i = in->idx[j];
        if (kind_of(in, i) == k && (best < 0 || in->roof[i].achieved > in->roof[best].achieved))
            best = i;
    }
    return best;
}

static const char *shape_words(const struct gp_result *r)
{
    static char b[96];
    snprintf(b, sizeof b, "%ldx%ldx%ld", r->m, r->n, r->k);
    return b;
}

int story_register_tiling(const struct story_input *in, char *out, size_t len)
{
    struct out o = {out, len, 0};
    out[0] = '\0';
    int kept[MAX_STEPS], nk = 0;
    double last = INFINITY;
    for (int j = 0; j < in->cnt && nk < MAX_STEPS; j++) {
        int i = in->idx[j];
        const struct gp_roof *ro = &in->roof[i];
        double b = per_fma(ro, GP_LEVEL_SHARED);
        if (kind_of(in, i) != K_SIMT || !(b > 0 && b < NEW_LOW * last))
            continue;
        kept[nk++] = i;
        last = b;
        if (ro->ai[GP_LEVEL_SHARED] * ro->roof_bw[GP_LEVEL_SHARED] > ro->peak_compute)
            break;   /* shared memory no longer binds: the steps after this one are compute's */
    }
    if (nk < 2)
        return -1;
    const struct gp_dataset *ds = in->ds;
    put(&o, "**Why register tiling is what pays:** a thread that keeps a tile of C in registers uses each "
            "value it reads from shared memory for a whole row or column of that tile. Down the FP32 ladder at "
            "%s the shared-memory bytes per FMA fall from ", shape_words(&ds->rows[kept[0]]));
    int caps = 1;
    for (int k = 0; k < nk; k++) {
        const struct gp_result *r = &ds->rows[kept[k]];
        put(&o, "%s%s (%s", k == 0 ? "" : k == 1 ? " to " : sep(k - 1, nk - 1),
            n3(per_fma(&in->roof[kept[k]], GP_LEVEL_SHARED)), mdc(r->variant));
        if (r->registers_per_thread > 0)
            put(&o, k == 0 ? ", %.0f registers a thread)" : ", %.0f)", r->registers_per_thread);
        else
            put(&o, ")");
        caps &= isfinite(in->roof[kept[k]].ai[GP_LEVEL_SHARED] * in->roof[kept[k]].roof_bw[GP_LEVEL_SHARED]);
    }
    if (caps) {
        put(&o, ", so the cap shared memory sets rises from ");
        for (int k = 0; k < nk; k++) {
            const struct gp_roof *ro = &in->roof[kept[k]];
            put(&o, "%s%s", k == 0 ? "" : k == 1 ? " to " : sep(k - 1, nk - 1),
                n3(ro->ai[GP_LEVEL_SHARED] * ro->roof_bw[GP_LEVEL_SHARED] / 1e12));
        }
        put(&o, " TFLOP/s");
    }
    const struct gp_roof *lr = &in->roof[kept[nk - 1]];
    double fma = in->cs ? in->cs->c[GP_CEIL_fp32_fma].measured : NAN;
    if (caps && lr->ai[GP_LEVEL_SHARED] * lr->roof_bw[GP_LEVEL_SHARED] > lr->peak_compute && fma > 0) {
        const char *v = mdc(ds->rows[kept[nk - 1]].variant);
        put(&o, "; at %s it passes the FP32 FMA ceiling (%s TFLOP/s)", v, n3(fma / 1e12));
        if (lr->bound_level >= 0 && lr->bound_level <= GP_LEVEL_COUNT)
            put(&o, ", and %s is bound by %s", v, level_words[lr->bound_level]);
    }
    put(&o, ".");
    return 0;
}

int story_tensor(const struct story_input *in, char *out, size_t len)
{
    struct out o = {out, len, 0};
    out[0] = '\0';
    const struct gp_ceilings *cs = in->cs;
    if (!cs)
        return -1;
    enum gp_ceiling_id tc = roof_tf32_ceiling(cs);
    double T = cs->c[tc].measured, F = cs->c[GP_CEIL_fp32_fma].measured, S = cs->c[GP_CEIL_shared].measured;
    int simt = best_of(in, K_SIMT), tf32 = best_of(in, K_TF32), x3 = best_of(in, K_3X);
    if (!(T > 0 && F > 0) || simt < 0 || tf32 < 0)
        return -1;
    const struct gp_dataset *ds = in->ds;
    const struct gp_roof *rs = &in->roof[simt], *rt = &in->roof[tf32];
    const char *vs = mdc(ds->rows[simt].variant), *vt = mdc(ds->rows[tf32].variant);
    put(&o, "**Why tensor cores change the roof:** the TF32 tensor ceiling, %s TFLOP/s (%s), is %sx the "
            "FP32 FMA ceiling (%s TFLOP/s), so every memory level must serve %sx fewer bytes per FMA for compute "
            "to bind", n3(T / 1e12), mdc(gp_ceiling_info[tc].id), n3(T / F), n3(F / 1e12), n3(T / F));
    double bs = per_fma(rs, GP_LEVEL_SHARED);
    if (S > 0) {
        /* at the tensor roof the SMs do T / 2 FMAs a second: shared memory gives each 2 S / T bytes */
        put(&o, ": shared memory (%s TB/s) keeps up only below %s B per FMA", n3(S / 1e12), n3(2 * S / T));
        if (bs > 0)
            put(&o, ", and the best FP32 SIMT kernel, %s, moves %s", vs, n3(bs));
    }
    put(&o, ". The best TF32 kernel at %s, %s, reaches %s TFLOP/s (%sx %s)", shape_words(&ds->rows[tf32]), vt,
        n3(rt->achieved / 1e12), n3(rt->achieved / rs->achieved), vs);
    double bt = per_fma(rt, GP_LEVEL_SHARED);
    if (bt >= 0)
        put(&o, " at %s B per FMA from shared memory", n3(bt));
    int L = rt->bound_level;
    if (L == GP_BOUND_COMPUTE || L == GP_LEVEL_SHARED)
        put(&o, " and is bound by %s.", level_words[L]);
    else if (L >= 0 && L < GP_LEVEL_COUNT)
        put(&o, " and is bound by %s, at %s B per FMA there.", level_words[L], n3(per_fma(rt, L)));
    else
        put(&o, "; its binding level is unknown.");
    if (x3 < 0)
        return 0;
    const struct gp_roof *rx = &in->roof[x3];
    put(&o, " 3xTF32 buys FP32 accuracy with extra tensor products (%s tensor operations per GEMM FLOP, a "
            "roof of %s TFLOP/s): %s reaches %s TFLOP/s, %sx %s", n3(rx->tensor_per_flop),
        n3(T / rx->tensor_per_flop / 1e12), mdc(ds->rows[x3].variant), n3(rx->achieved / 1e12),
        n3(rx->achieved / rs->achieved), vs);
    double ex = ds->rows[x3].rel_err;
    if (isfinite(ex) && ex >= 0) {
        put(&o, ", at a relative error of %.2e against FP64", ex);
        int cb = -1;
        for (int j = 0; j < in->cnt && cb < 0; j++)
            if (in->usable[in->idx[j]] && strcmp(ds->rows[in->idx[j]].variant, "cublas") == 0)
                cb = in->idx[j];
        double ec = cb >= 0 ? ds->rows[cb].rel_err : NAN, et = ds->rows[tf32].rel_err;
        if (isfinite(ec) && ec >= 0 && isfinite(et) && et >= 0)
            put(&o, " (%s %.2e, %s %.2e)", mdc(ds->rows[cb].variant), ec, vt, et);
    }
    put(&o, ".");
    return 0;
}

/* The CPU reference GEMM and the tolerances. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/verify.h"
#include "tests/test.h"

int main(void)
{
    /* 2x3 * 3x2 by hand */
    const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12};
    double ref[4];
    verify_reference(a, b, 2, 2, 3, NULL, 4, ref);
    CHECK(ref[0] == 58 && ref[1] == 64 && ref[2] == 139 && ref[3] == 154, "2x3x2 product by hand");
    long idx[2] = {3, 1};
    double sref[2];
    verify_reference(a, b, 2, 2, 3, idx, 2, sref);
    CHECK(sref[0] == 154 && sref[1] == 64, "sampled reference picks the right elements");

    /* a 17x33x65 product: float result vs double reference within FP32 tolerance */
    enum { M = 17, N = 33, K = 65 };
    static float A[M * K], B[K * N], C[M * N];
    static double R[M * N];
    for (int i = 0; i < M * K; i++) A[i] = (float)sin(i * 0.37) * 0.5f;
    for (int i = 0; i < K * N; i++) B[i] = (float)cos(i * 0.91) * 0.5f;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int p = 0; p < K; p++) acc += A[i * K + p] * B[p * N + j];
            C[i * N + j] = acc;
        }
    verify_reference(A, B, M, N, K, NULL, M * N, R);
    struct verify_stats st;
    verify_compare(C, M * N, R, NULL, 0, &st);
    double tol = verify_tolerance(GP_FP32, 4.0, K);
    CHECK(st.rel_err < tol && st.n_nonfinite == 0, "FP32 product within tolerance (%.2e < %.2e)", st.rel_err, tol);

    C[5] += 0.01f;   /* one wrong element must fail */
    verify_compare(C, M * N, R, NULL, 0, &st);
    CHECK(st.rel_err > tol, "one element off by 0.01 fails (%.2e > %.2e)", st.rel_err, tol);
    C[5] -= 0.01f;
    C[7] = NAN;      /* an unwritten (poisoned) element must fail */
    verify_compare(C, M * N, R, NULL, 0, &st);
    CHECK(st.n_nonfinite == 1 && !(st.rel_err <= tol), "a NaN never passes");
    CHECK(verify_count_nonfinite(C, M * N) == 1, "non-finite count");

    CHECK(verify_tolerance(GP_TF32, 4.0, 2048) > 1e-3 && verify_tolerance(GP_TF32, 4.0, 2048) < 3e-3,
          "TF32 tolerance near 4 x 2^-11 (%.2e)", verify_tolerance(GP_TF32, 4.0, 2048));
    CHECK(verify_tolerance(GP_FP32, 4.0, 8192) < 1e-4 && verify_tolerance(GP_FP32, 4.0, 8192) > 1e-5,
          "FP32 tolerance at k=8192 (%.2e) far below TF32's 2.6e-4 error", verify_tolerance(GP_FP32, 4.0, 8192));
    CHECK(verify_tolerance(GP_FP32, 4.0, 1) < verify_tolerance(GP_FP32, 4.0, 4096), "tolerance grows with k");

    /* 16-bit rounding: to nearest, ties to even, as __float2bfloat16_rn / __float2half_rn */
    {
        const float in[] = {1.0f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, -2.5f, 1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f,
                            65504.0f, 65519.0f, 65520.0f, 0x1p-24f, 0x1p-25f, 1.5f * 0x1p-25f, 0x1p-14f, -0.0f,
                            3.0e38f, 0.1f};
        enum { NV = sizeof in / sizeof in[0] };
        const unsigned short want_bf[NV] = {0x3f80, 0x3f80, 0x3f82, 0xc020, 0x3f80, 0x3f80, 0x4780, 0x4780, 0x4780,
                                            0x3380, 0x3300, 0x3340, 0x3880, 0x8000, 0x7f62, 0x3dcd};
        const unsigned short want_h[NV] = {0x3c00, 0x3c04, 0x3c0c, 0xc100, 0x3c00, 0x3c02, 0x7bff, 0x7bff, 0x7c00,
                                           0x0001, 0x0000, 0x0001, 0x0400, 0x8000, 0x7c00, 0x2e66};
        unsigned short bf[NV], h[NV];
        float rbf[NV], rh[NV];
        verify_round16(GP_BF16, in, NV, bf, rbf);
        verify_round16(GP_FP16, in, NV, h, rh);
        int same_bf = 1, same_h = 1;
        for (int i = 0; i < NV; i++) {
            same_bf &= bf[i] == want_bf[i];
            same_h &= h[i] == want_h[i];
            if (bf[i] != want_bf[i] || h[i] != want_h[i])
                printf("# %a: bf16 %04x (want %04x), fp16 %04x (want %04x)\n", (double)in[i], bf[i], want_bf[i], h[i],
                       want_h[i]);
        }
        CHECK(same_bf, "BF16 bits: ties to even, 65504 carried into the exponent, subnormal FP32 and 3e38 kept");
        CHECK(same_h, "FP16 bits: ties to even, 65520 and up to Inf, subnormals to 2^-24, 2^-25 a tie to 0");
        CHECK(rbf[2] == 1.0f + 4 * 0x1p-8f && rbf[15] == 0.10009765625f && rh[5] == 1.0f + 4 * 0x1p-11f &&
                  rh[9] == 0x1p-24f && isinf(rh[8]) && rh[15] == 0.0999755859375f && signbit(rh[13]),
              "the rounded values read back from the bits");
        const float nan_in = NAN;
        unsigned short nb, nh;
        float nbv, nhv;
        verify_round16(GP_BF16, &nan_in, 1, &nb, &nbv);
        verify_round16(GP_FP16, &nan_in, 1, &nh, &nhv);
        CHECK(isnan(nbv) && isnan(nhv), "NaN stays NaN in both (%04x, %04x)", nb, nh);
    }
    /* BF16/FP16 are checked against the reference of their rounded inputs: the bound is
     * FP32 accumulation alone, and a kernel that skipped the rounding fails it */
    {
        enum { KK = 4099 };
        static float x[KK], y[KK], xr[KK], yr[KK];
        for (int i = 0; i < KK; i++) {
            x[i] = (float)sin(i * 0.37 + 0.1) * 0.5f;
            y[i] = (float)cos(i * 1.91) * 0.5f;
        }
        for (int p = GP_BF16; p <= GP_FP16; p++) {
            verify_round16((enum gp_precision)p, x, KK, NULL, xr);
            verify_round16((enum gp_precision)p, y, KK, NULL, yr);
            double ref_r, ref_x;
            verify_reference(xr, yr, 1, 1, KK, NULL, 1, &ref_r);
            verify_reference(x, y, 1, 1, KK, NULL, 1, &ref_x);
            float acc = 0;   /* FP32 sum of exact products of the rounded inputs */
            for (int i = 0; i < KK; i++)
                acc += xr[i] * yr[i];
            const float unrounded = (float)ref_x;
            struct verify_stats ok_st, bad_st;
            verify_compare(&acc, 1, &ref_r, NULL, 0, &ok_st);
            verify_compare(&unrounded, 1, &ref_r, NULL, 0, &bad_st);
            const double t = verify_tolerance((enum gp_precision)p, 4.0, KK);
            CHECK(ok_st.rel_err <= t && bad_st.rel_err > t && t == verify_tolerance(GP_FP32, 4.0, KK),
                  "%s at k=%d: an FP32 sum of the rounded products passes (%.2e), the unrounded product fails "
                  "(%.2e) the tolerance %.2e (FP32's)", p == GP_BF16 ? "bf16" : "fp16", KK, ok_st.rel_err,
                  bad_st.rel_err, t);
        }
        CHECK(verify_tolerance_fp32_inputs(GP_BF16, 4.0, 2048) > 1.5e-2 &&
                  verify_tolerance_fp32_inputs(GP_FP16, 4.0, 2048) == verify_tolerance(GP_TF32, 4.0, 2048) &&
                  verify_tolerance_fp32_inputs(GP_FP32, 4.0, 2048) == verify_tolerance(GP_FP32, 4.0, 2048),
              "against unrounded inputs: 4 x 2^-8 for bf16, TF32's 2^-11 for fp16, FP32 unchanged");
    }

    long samples[64];
    verify_sample_indices(10, 20, 64, 42, samples);
    int inside = 1;
    for (int i = 0; i < 64; i++) inside &= samples[i] >= 0 && samples[i] < 200;
    CHECK(inside && samples[0] == 0 && samples[3] == 199, "sample indices in range, corners first");

    float x[3] = {1, 2, 3}, y[3] = {1, 2, 3};
    CHECK(verify_rel_diff(x, y, 3) == 0, "identical matrices differ by 0");
    y[1] = NAN;
    CHECK(isinf(verify_rel_diff(x, y, 3)), "NaN in the comparison gives inf");
    TEST_EXIT();
}

/* The CPU reference GEMM and the tolerances. */
#include <math.h>
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

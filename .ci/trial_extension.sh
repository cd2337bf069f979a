#!/bin/sh
# The README's recipes, tried: in a temporary copy of the tree (and of BUILD, so only what
# the additions touch is rebuilt) a variant is added as one kernels/NN_name.cu plus one line
# of kernels/variants.def, a chart as one plots/NAME.gp plus one line of plots/charts.def,
# and a default metric as one line of analysis/metrics.def; then the copy is built and its
# host tests run. Any test that counted the registries by hand, or any place that had to be
# edited beside the recipe, fails here.
#   .ci/trial_extension.sh [BUILD]      (after `make`; BUILD defaults to build)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the tracked and untracked files as they are (mtimes kept, so the copied objects count)
git ls-files -z --cached --others --exclude-standard | tar -cf - --null -T - | tar -xf - -C "$tmp"
[ -d "$build" ] && cp -a "$build" "$tmp/build"
cd "$tmp"

# a variant: one file and one line
cat >kernels/99_trial.cu <<'EOF'
/* trial: the recipe check's variant (.ci/trial_extension.sh), a grid-stride loop over C's elements. */
#include "kernels/gemm.h"

static __global__ void gemm_trial_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    /* a grid-stride loop over C's elements, row-major */
    for (long e = blockIdx.x * (long)blockDim.x + threadIdx.x; e < (long)m * n; e += (long)gridDim.x * blockDim.x) {
        const long row = e / n, col = e % n;
        float acc = 0.f;
        for (int p = 0; p < k; ++p)
            acc += a[row * k + p] * b[(long)p * n + col];
        c[e] = acc;
    }
}

GEMM_LAUNCHER(trial);
extern "C" cudaError_t gemm_trial_launch(struct gemm_context *ctx, int m, int n, int k, const float *a,
                                         const float *b, float *c, cudaStream_t stream)
{
    (void)ctx;
    const long cells = (long)m * n;
    const int grid = (int)((cells + 255) / 256 < 65535 ? (cells + 255) / 256 : 65535);
    gemm_trial_kernel<<<grid, 256, 0, stream>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
EOF
echo 'GEMM_VARIANT(trial,       GP_FP32, 4.0, "trial: the recipe check'"'"'s variant, a grid-stride loop over C")' \
    >>kernels/variants.def

# a chart: one script and one line (the sweep's script under another name)
cp plots/sweep.gp plots/trial.gp
echo 'PLOT_CHART(trial,          PLOTS_DATA_SWEEP,  "Trial: the recipe check'"'"'s chart, the sweep again")' \
    >>plots/charts.def

# a default metric: one line (a hardware count that rides in the existing passes)
echo 'METRIC(trial_ctas,     "sm__ctas_launched.sum",                                   "CTAs launched",      "1",       GP_AGG_SUM,  1, "thread blocks launched (the recipe check'"'"'s metric)")' \
    >>analysis/metrics.def

make -j"$(nproc)" BUILD=build
out=$(tests/run.sh build host 2>&1) || true
printf '%s\n' "$out" | sed -n '/^skipped:$/,$p'
if printf '%s\n' "$out" | grep -q '^FAIL - '; then
    echo "the recipes are not one file plus one line: with a trial variant, chart and metric added," >&2
    printf '%s\n' "$out" | grep '^FAIL - ' >&2
    exit 1
fi
echo "trial extension: a variant, a chart and a default metric added by the recipes; the host tests pass"

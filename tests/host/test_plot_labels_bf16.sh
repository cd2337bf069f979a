#!/bin/sh
# The charts of a run with BF16 and FP16 rows (tests/data/h200_bf16, a real H200 run) pass
# the label and style checks: no roof label over a line, a marker or another label or past
# the plot's edge, no two variants alike, no legend cut short. Their 16-bit tensor roof, near
# 1 PFLOP/s, pushed every other mark down the y axis, where the bandwidth roofs' labels met
# the slow kernels' lines, and made the hierarchical charts' legends too tall.
cd "$(dirname "$0")/../.." || exit 1
LABELS_RUN=tests/data/h200_bf16 sh tests/host/test_plot_labels.sh
STYLES_RUN=tests/data/h200_bf16 sh tests/host/test_plot_styles.sh

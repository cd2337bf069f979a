#!/bin/sh
# Writes a large results directory for scale checks of `gemmprof report` and `gemmprof plots`:
#   sh tests/host/gen_results.sh ROWS OUTDIR [TEMPLATE_DIR]
# OUTDIR gets results.csv with ROWS rows, plus the template's results.json and ceilings.csv.
# Rows cycle through the template's rows (default results/h200); pass p over the template
# adds p to M and N and 2p to K, so no pass repeats a shape of another (M N K = s+p, s+p, s+2p
# meets s'+q, s'+q, s'+2q only when s = s'): 100,000 rows of results/h200 are 12,500 shapes,
# the worst case for anything that groups rows by shape. Times are scaled with the work, so
# FLOP/s stay as measured. Not a test itself (tests/run.sh runs only test_*.sh).
rows=$1 out=$2 tpl=${3:-results/h200}
[ -n "$rows" ] && [ -n "$out" ] || { echo "usage: sh $0 ROWS OUTDIR [TEMPLATE_DIR]" >&2; exit 2; }
[ -r "$tpl/results.csv" ] || { echo "$0: no $tpl/results.csv" >&2; exit 1; }
mkdir -p "$out" || exit 1
for f in results.json ceilings.csv; do
    [ -r "$tpl/$f" ] && cp "$tpl/$f" "$out/$f"
done
awk -F, -v OFS=, -v rows="$rows" '
NR == 1 {
    print
    for (i = 1; i <= NF; i++) col[$i] = i
    next
}
{ tpl[++nt] = $0 }
END {
    # columns whose value scales with the work m n k (times) or against it (rates)
    nt_cols = split("time_median_s time_min_s time_max_s", tcols, " ")
    for (r = 0; r < rows; r++) {
        $0 = tpl[r % nt + 1]
        p = int(r / nt)
        m = $col["m"]; n = $col["n"]; k = $col["k"]
        f = ((m + p) * (n + p) * (k + 2 * p)) / (m * n * k)
        $col["m"] = m + p; $col["n"] = n + p; $col["k"] = k + 2 * p
        for (c = 1; c <= nt_cols; c++)
            if ((tcols[c] in col) && $col[tcols[c]] != "")
                $col[tcols[c]] = sprintf("%.9g", $col[tcols[c]] * f)
        print
    }
}' "$tpl/results.csv" >"$out/results.csv"

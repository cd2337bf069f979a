/* results.csv loading (analysis/results_csv.c): every accepted row must hold values in range. */
#include <math.h>

#include "analysis/results_csv.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_result *rows = NULL;
    int n = 0;
    char err[512];
    if (results_csv_read(fuzz_file("results.csv", data, size), &rows, &n, err, sizeof err) == 0)
        for (int i = 0; i < n; i++) {
            const struct gp_result *r = &rows[i];
            /* what the loader promises: a crash here is a validation hole */
            if (r->m < 1 || r->n < 1 || r->k < 1 || !(isnan(r->time_median_s) || r->time_median_s > 0) ||
                !(isnan(r->flop_per_s) || r->flop_per_s > 0) || isinf(r->rel_err))
                abort();
        }
    free(rows);
    return 0;
}

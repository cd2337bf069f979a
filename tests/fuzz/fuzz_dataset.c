/* A whole results directory through dataset_load (analysis/dataset.c). The input is
 * results.csv, then results.json, then ceilings.csv, separated by NUL bytes; a part that
 * is not there is a file that is not there. */
#include "analysis/dataset.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_results_dir(data, size);
    struct gp_dataset ds;
    char err[512];
    if (dataset_load(dir, &ds, err, sizeof err) == 0) {
        if (ds.nrows < 1 || !ds.rows)
            abort();   /* success promises at least one row */
        dataset_free(&ds);
    }
    return 0;
}

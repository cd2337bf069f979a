/* A whole results directory through dataset_load (analysis/dataset.c). The input is
 * results.csv, then results.json, then ceilings.csv, separated by NUL bytes; a part that
 * is not there is a file that is not there. */
#include "analysis/dataset.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"results.csv", "results.json", "ceilings.csv"};
    size_t at = 0;
    for (int i = 0; i < 3; i++) {
        if (at > size) {
            fuzz_file(names[i], NULL, 0);
            continue;
        }
        const uint8_t *nul = memchr(data + at, 0, size - at);
        size_t len = nul ? (size_t)(nul - (data + at)) : size - at;
        fuzz_file(names[i], data + at, len);
        at += len + 1;
    }
    struct gp_dataset ds;
    char err[512];
    if (dataset_load(fuzz_workdir(), &ds, err, sizeof err) == 0) {
        if (ds.nrows < 1 || !ds.rows)
            abort();   /* success promises at least one row */
        dataset_free(&ds);
    }
    return 0;
}

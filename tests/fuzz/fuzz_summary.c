/* `gemmprof report DIR --summary` (analysis/summary.c) on a whole results directory: the
 * input is results.csv, results.json and ceilings.csv separated by NUL bytes, as for
 * fuzz_dataset; every directory that loads is summarised, so the formatting of extreme
 * values (denormal ceilings, a 1e-310 L2 size) runs under UBSan. */
#include "analysis/dataset.h"
#include "analysis/summary.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    const char *dir = fuzz_results_dir(data, size);
    struct gp_dataset ds;
    char err[512];
    if (dataset_load(dir, &ds, err, sizeof err) == 0) {
        if (summary_write(&ds, dir, sink, err, sizeof err) != 0 && !err[0])
            abort();   /* a failure always says why */
        dataset_free(&ds);
    }
    return 0;
}

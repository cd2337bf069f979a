/* The results.json reader (analysis/meta.c): strict JSON, ranges per field. */
#include <math.h>

#include "analysis/meta.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_meta m;
    char err[512];
    meta_init(&m);
    if (meta_read_json(fuzz_file("results.json", data, size), &m, err, sizeof err) == 0 &&
        (isinf(m.sm_clock_max_hz) || m.sm_clock_max_hz <= 0 || m.l2_bytes < 0 || m.reps < 0))
        abort();   /* an accepted file broke a promised range */
    return 0;
}

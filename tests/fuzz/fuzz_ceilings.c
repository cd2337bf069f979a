/* The ceilings.csv reader (analysis/ceilings.c). */
#include <math.h>

#include "analysis/ceilings.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_ceilings cs;
    char err[512];
    if (ceilings_read_csv(fuzz_file("ceilings.csv", data, size), &cs, err, sizeof err) == 0)
        for (int i = 0; i < GP_CEIL_COUNT; i++)
            if (cs.c[i].measured <= 0 || cs.c[i].theoretical <= 0 || isinf(cs.c[i].measured))
                abort();   /* NaN (not measured) or a finite positive roof only */
    return 0;
}

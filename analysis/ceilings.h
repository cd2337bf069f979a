/* Measured and theoretical machine ceilings, and their CSV file (ceilings.csv).
 * Host-only. Measuring is src/ceilings.c + kernels/ceil_*.cu; this is the data. */
#ifndef GEMMPROF_ANALYSIS_CEILINGS_H
#define GEMMPROF_ANALYSIS_CEILINGS_H

#include <stddef.h>

enum gp_ceiling_kind { GP_CEIL_BANDWIDTH, GP_CEIL_COMPUTE };

enum gp_ceiling_id {
#define CEILING(id, label, kind, unit) GP_CEIL_##id,
#include "analysis/ceilings.def"
#undef CEILING
    GP_CEIL_COUNT
};

struct gp_ceiling_info { const char *id, *label; enum gp_ceiling_kind kind; const char *unit; };
extern const struct gp_ceiling_info gp_ceiling_info[GP_CEIL_COUNT];

struct gp_ceiling {
    double measured;       /* SI (byte/s or flop/s); NaN when not measured */
    double theoretical;    /* SI; NaN when unknown */
    double sm_clock_hz;    /* SM clock while it was measured; NaN if unknown */
    char theory_source[96];/* how `theoretical` was derived, e.g. "132 SMs x 128 lanes x 2 x 1.98 GHz" */
};

struct gp_ceilings {
    char gpu[96];          /* device name the ceilings belong to */
    char gpu_uuid[64];     /* its UUID as results.json writes it ("GPU-..."); "" in older files */
    char date[32];         /* ISO 8601, when measured */
    struct gp_ceiling c[GP_CEIL_COUNT];
};

void ceilings_init(struct gp_ceilings *cs);   /* everything NaN / empty */

/* ceilings.csv: one row per ceiling, columns id,label,unit,measured,theoretical,
 * sm_clock_hz,theory_source,gpu,date,gpu_uuid (gpu_uuid optional on reading: older files
 * lack it). Write is atomic (temp file + rename).
 * Returns 0, or -1 with a one-line reason naming file, line and column in `err`. */
int ceilings_write_csv(const char *path, const struct gp_ceilings *cs, char *err, size_t errlen);
int ceilings_read_csv(const char *path, struct gp_ceilings *cs, char *err, size_t errlen);

#endif

/* Loads a results directory for the report and the plots, without a GPU:
 *   results.csv   required; a missing, empty or older-schema file is an error
 *   results.json  optional; missing or unreadable -> a warning, metadata unknown
 *   ceilings.csv  optional; missing or unreadable -> a warning, no roofline bounds
 * Rows that did not run (cuda_error, skipped) and a sweep with fewer rows than the run
 * planned are warnings: what was measured still loads. Each file is read only if it is a
 * regular file within the size limits of analysis/infile.h, and every number is checked
 * on loading (analysis/results.h, meta.h, ceilings.h). */
#include "analysis/dataset.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/plausible.h"
#include "analysis/results_csv.h"

/* Appends one line to ds->warnings, cutting it (with "...") when the buffer is full. */
static void warn(struct gp_dataset *ds, const char *fmt, ...)
{
    size_t used = strlen(ds->warnings), cap = sizeof ds->warnings;
    if (used + 5 >= cap)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    int n = snprintf(ds->warnings + used, cap - used, "%s%s", used ? "\n" : "", line);
    if (n < 0 || (size_t)n >= cap - used)
        memcpy(ds->warnings + cap - 4, "...", 4);
}

static int join(char *out, size_t len, const char *dir, const char *name)
{
    return (size_t)snprintf(out, len, "%s/%s", dir, name) < len ? 0 : -1;
}

/* Whether the optional file `name` of dir is there (its path left in path): 1 yes, 0 no,
 * -1 when it cannot even be looked at (a directory without search permission), which is
 * warned about with the reason rather than reported as missing. */
static int sidecar_present(char *path, size_t len, const char *dir, const char *name,
                           struct gp_dataset *ds)
{
    struct stat st;
    if (join(path, len, dir, name) != 0)
        return 0;
    if (stat(path, &st) == 0)
        return 1;
    if (errno == ENOENT)
        return 0;
    warn(ds, "%s unreadable (cannot read '%s': %s)", name, path, strerror(errno));
    return -1;
}

/* A ceilings.csv of another GPU (another model, or another board of it where both files
 * name a UUID) would judge every row against the wrong roofs: said, and left out unless
 * the caller allows it. Unknown on either side is no mismatch (older files). */
static void check_ceilings_gpu(struct gp_dataset *ds, int any_gpu)
{
    const struct gp_ceilings *c = &ds->ceilings;
    const struct gp_meta *m = &ds->meta;
    if (!ds->have_ceilings || !ds->have_meta)
        return;
    int names = *c->gpu && *m->gpu_name && strcmp(c->gpu, m->gpu_name) != 0;
    int uuids = *c->gpu_uuid && *m->gpu_uuid && strcmp(c->gpu_uuid, m->gpu_uuid) != 0;
    if (!names && !uuids)
        return;
    snprintf(ds->ceilings_foreign, sizeof ds->ceilings_foreign,
             "ceilings.csv was measured on %.96s%s%.64s%s, the results on %.96s%s%.64s%s", c->gpu,
             uuids ? " (" : "", uuids ? c->gpu_uuid : "", uuids ? ")" : "", m->gpu_name, uuids ? " (" : "",
             uuids ? m->gpu_uuid : "", uuids ? ")" : "");
    if (any_gpu) {
        warn(ds, "%s: its ceilings are used anyway (--ceilings-any-gpu)", ds->ceilings_foreign);
        return;
    }
    warn(ds, "%s: its ceilings are left out of every bound and verdict (--ceilings-any-gpu uses them)",
         ds->ceilings_foreign);
    ds->have_ceilings = 0;
}

int dataset_load(const char *dir, struct gp_dataset *ds, char *err, size_t errlen)
{
    return dataset_load_opts(dir, 0, ds, err, errlen);
}

int dataset_load_opts(const char *dir, int flags, struct gp_dataset *ds, char *err, size_t errlen)
{
    char path[1024];
    struct stat st;

    memset(ds, 0, sizeof *ds);
    meta_init(&ds->meta);
    ceilings_init(&ds->ceilings);
    if (strlen(dir) >= sizeof ds->dir) {
        snprintf(err, errlen, "results directory name too long: '%.60s...'", dir);
        return -1;
    }
    strcpy(ds->dir, dir);
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT)
            snprintf(err, errlen, "results directory '%s' does not exist", dir);
        else
            snprintf(err, errlen, "results directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "'%s' is not a directory (expected a gemmprof results directory)", dir);
        return -1;
    }

    /* results.csv: the data itself */
    if (join(path, sizeof path, dir, "results.csv")) {
        snprintf(err, errlen, "results directory name too long: '%.60s...'", dir);
        return -1;
    }
    if (stat(path, &st) != 0) {
        /* only a file that is truly absent is "no results.csv"; EACCES on a chmod 000
         * directory is said as such */
        if (errno == ENOENT)
            snprintf(err, errlen, "'%s' has no results.csv: not a gemmprof results directory, or "
                     "the run stopped before measuring anything", dir);
        else
            snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_size == 0) {   /* anything not regular: the reader says what */
        snprintf(err, errlen, "%s: empty file (the run stopped before writing its header)", path);
        return -1;
    }
    if (results_csv_read(path, &ds->rows, &ds->nrows, err, errlen))
        return -1;
    if (ds->nrows == 0) {
        snprintf(err, errlen, "%s: a header but no result rows (the run stopped before its first "
                 "measurement)", path);
        dataset_free(ds);
        return -1;
    }

    /* results.json: where and how it was measured */
    char why[512];
    int present = sidecar_present(path, sizeof path, dir, "results.json", ds);
    if (present > 0) {
        if (meta_read_json(path, &ds->meta, why, sizeof why) == 0) {
            if (ds->meta.schema < GP_SCHEMA_VERSION) {
                snprintf(err, errlen, "%s: schema %d is older than this gemmprof's schema %d: "
                         "re-run the measurement (gemmprof --out %s)",
                         path, ds->meta.schema, GP_SCHEMA_VERSION, dir);
                dataset_free(ds);
                return -1;
            }
            if (ds->meta.schema > GP_SCHEMA_VERSION) {
                snprintf(err, errlen, "%s: schema %d is newer than this gemmprof's schema %d: "
                         "use the gemmprof that wrote it", path, ds->meta.schema, GP_SCHEMA_VERSION);
                dataset_free(ds);
                return -1;
            }
            ds->have_meta = 1;
        } else {
            meta_init(&ds->meta);
            warn(ds, "results.json unreadable (%s): machine and run details unknown", why);
        }
    } else if (present == 0) {
        warn(ds, "no results.json: machine and run details (GPU, clocks, versions, command) unknown");
    }

    /* ceilings.csv: the roofs the rows are judged against */
    present = sidecar_present(path, sizeof path, dir, "ceilings.csv", ds);
    if (present > 0) {
        if (ceilings_read_csv(path, &ds->ceilings, why, sizeof why) == 0) {
            ds->have_ceilings = 1;
        } else {
            ceilings_init(&ds->ceilings);
            warn(ds, "ceilings.csv unreadable (%s): no roofline bounds", why);
        }
    } else if (present == 0) {
        warn(ds, "no ceilings.csv: no measured ceilings, so no roofline bounds or %% of peak");
    }

    /* a partial sweep still loads; say what is missing */
    int n_err = 0, n_skip = 0;
    for (int i = 0; i < ds->nrows; i++) {
        n_err += ds->rows[i].status == GP_STATUS_CUDA_ERROR;
        n_skip += ds->rows[i].status == GP_STATUS_SKIPPED;
    }
    if (n_err || n_skip)
        warn(ds, "partial sweep: %d of %d rows did not run (%d cuda_error, %d skipped)",
             n_err + n_skip, ds->nrows, n_err, n_skip);
    if (ds->have_meta && ds->meta.planned_rows > ds->nrows)
        warn(ds, "partial sweep: results.csv has %d rows, the run planned %d (interrupted?)",
             ds->nrows, ds->meta.planned_rows);
    check_ceilings_gpu(ds, flags & GP_LOAD_CEILINGS_ANY_GPU);
    if (plausible_check(ds, err, errlen)) {
        dataset_free(ds);
        return -1;
    }
    return 0;
}

void dataset_free(struct gp_dataset *ds)
{
    for (int i = 0; ds->row_why && i < ds->row_why_n; i++)
        free(ds->row_why[i]);
    free(ds->row_why);
    ds->row_why = NULL;
    free(ds->rows);
    ds->rows = NULL;
    ds->nrows = 0;
}

/* One row of results (struct gp_result): a fresh row, its analytic FLOPs and its status
 * as text. The file that holds the rows is analysis/results_csv.c. */
#include "analysis/results.h"

#include <math.h>
#include <string.h>

void gp_result_init(struct gp_result *r)
{
    memset(r, 0, sizeof *r);
    r->rel_err = r->max_abs_err = r->tolerance = r->rel_err_vs_cublas = NAN;
    r->time_median_s = r->time_min_s = r->time_max_s = r->time_spread = NAN;
    r->flop_per_s = r->sm_clock_hz = NAN;
    for (int i = 0; i < GP_METRIC_SLOTS; i++)
        r->metric[i] = NAN;
    r->grid_x = r->grid_y = r->grid_z = r->block_x = r->block_y = r->block_z = NAN;
    r->registers_per_thread = r->smem_static_bytes = r->smem_dynamic_bytes = r->blocks = NAN;
    r->block_limit_registers = r->block_limit_smem = r->block_limit_warps = r->block_limit_blocks = NAN;
    r->smem_config_bytes = r->local_bytes_per_thread = NAN;
    r->blocks_per_sm = r->occupancy_theoretical_pct = r->waves = r->tail_efficiency = NAN;
}

double gp_flops_analytic(const struct gp_result *r)
{
    return 2.0 * (double)r->m * (double)r->n * (double)r->k;
}

static const char *const status_names[] = {"ok", "verify_failed", "cuda_error", "skipped"};

const char *gp_status_name(enum gp_status s)
{
    return (unsigned)s < sizeof status_names / sizeof status_names[0] ? status_names[s] : "unknown";
}

int gp_status_parse(const char *s, enum gp_status *out)
{
    for (unsigned i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
        if (strcmp(s, status_names[i]) == 0) {
            *out = (enum gp_status)i;
            return 0;
        }
    return -1;
}

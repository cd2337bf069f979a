#include "src/print.h"

#include <math.h>

void print_table_header(FILE *f)
{
    fprintf(f, "%-14s %-16s %-13s %10s %7s %9s %9s %9s %9s %9s %7s\n", "variant", "shape", "status",
            "median ms", "spread", "TFLOP/s", "rel err", "DRAM MB", "L2 MB", "L1 MB", "passes");
}

static void print_mb(FILE *f, double bytes)
{
    if (isnan(bytes))
        fprintf(f, " %9s", "-");
    else
        fprintf(f, " %9.1f", bytes / 1e6);
}

void print_table_row(FILE *f, const struct gp_result *r)
{
    char shape[48];
    snprintf(shape, sizeof shape, "%ldx%ldx%ld", r->m, r->n, r->k);
    fprintf(f, "%-14s %-16s %-13s", r->variant, shape, gp_status_name(r->status));
    if (isnan(r->time_median_s))
        fprintf(f, " %10s %7s %9s", "-", "-", "-");
    else
        fprintf(f, " %10.4f %6.1f%% %9.2f", r->time_median_s * 1e3, r->time_spread * 100,
                r->flop_per_s / 1e12);
    fprintf(f, " %9.2e", r->rel_err);
    print_mb(f, r->metric[GP_M_dram_read] + r->metric[GP_M_dram_write]);
    print_mb(f, r->metric[GP_M_l2_bytes]);
    print_mb(f, r->metric[GP_M_l1_bytes]);
    if (r->counter_passes)
        fprintf(f, " %7d", r->counter_passes);
    else
        fprintf(f, " %7s", "-");
    fputc('\n', f);
    if (r->error[0])
        fprintf(f, "    %s\n", r->error);
    fflush(f);
}

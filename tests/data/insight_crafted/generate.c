/* Writes tests/data/insight_crafted from hand-entered numbers (see its README.md). Run
 * from the repository root after `make` (the host archive), e.g. when the CSV schema changes:
 *   cc -std=c11 -D_GNU_SOURCE -I. tests/data/insight_crafted/generate.c \
 *      build/libgemmprof_host.a -lm -fopenmp -o /tmp/gen && /tmp/gen tests/data/insight_crafted */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/ceilings.h"
#include "analysis/meta.h"
#include "analysis/results_csv.h"

static const double F = 2.0 * 1024 * 1024 * 1024;   /* 2 n^3 at 1024^3 */
static const double CLK = 1.755e9;

static void base(struct gp_result *r, const char *v, double tflops, double shared_roof_tflops,
                 double blocks, double bps)
{
    gp_result_init(r);
    strcpy(r->variant, v);
    strcpy(r->precision, "fp32");
    r->m = r->n = r->k = 1024;
    r->status = GP_STATUS_OK;
    strcpy(r->verify_method, "cpu_fp64_full");
    r->rel_err = 1e-7; r->max_abs_err = 1e-5; r->tolerance = 1e-5;
    r->reps = 20; r->warmups = 2; r->l2_flush = 1;
    r->time_median_s = F / (tflops * 1e12);
    r->time_min_s = r->time_median_s * 0.995;
    r->time_max_s = r->time_median_s * 1.005;
    r->time_spread = (r->time_max_s - r->time_min_s) / r->time_median_s;
    r->flop_per_s = F / r->time_median_s;
    r->sm_clock_hz = CLK;
    r->metric[GP_M_dram_read] = 3 * 4 * 1024.0 * 1024;
    r->metric[GP_M_dram_write] = 4 * 1024.0 * 1024;
    r->metric[GP_M_l2_bytes] = 1e8;
    r->metric[GP_M_l1_bytes] = 2e8;
    /* shared bytes = 128 x wavefronts; the 30 TB/s shared ceiling then allows the roof asked */
    r->metric[GP_M_smem_ld_wf] = F * 30e12 / (shared_roof_tflops * 1e12) / 128.0;
    r->metric[GP_M_smem_st_wf] = 0;
    r->metric[GP_M_smem_ld_confl] = 0;
    r->metric[GP_M_smem_st_confl] = 0;
    r->metric[GP_M_ffma] = F / 2;
    r->metric[GP_M_sm_clock] = CLK;
    r->counter_passes = 6;
    strcpy(r->kernels, v);
    snprintf(r->launch_kernel, sizeof r->launch_kernel, "%s_kernel", v);
    r->grid_x = blocks; r->grid_y = 1; r->grid_z = 1;
    r->block_x = 256; r->block_y = 1; r->block_z = 1;
    r->registers_per_thread = 128; r->smem_static_bytes = 16384; r->smem_dynamic_bytes = 0;
    r->blocks = blocks;
    r->block_limit_registers = 2; r->block_limit_smem = 3; r->block_limit_warps = 8; r->block_limit_blocks = 32;
    r->blocks_per_sm = bps;
    strcpy(r->occupancy_limiter, "registers");
    r->occupancy_theoretical_pct = 100.0 * bps * 8 / 64;
    r->waves = blocks / (132 * bps);
    r->tail_efficiency = r->waves / ceil(r->waves);
}

static void stalls(struct gp_result *r, double mio, double nsel, double lsb, double bar, double ssb,
                   double wait, double sel, double math)
{
    int ids[] = {GP_M_stall_barrier, GP_M_stall_branch_resolving, GP_M_stall_dispatch_stall,
                 GP_M_stall_drain, GP_M_stall_imc_miss, GP_M_stall_lg_throttle,
                 GP_M_stall_long_scoreboard, GP_M_stall_math_pipe_throttle, GP_M_stall_membar,
                 GP_M_stall_mio_throttle, GP_M_stall_misc, GP_M_stall_no_instruction,
                 GP_M_stall_not_selected, GP_M_stall_selected, GP_M_stall_short_scoreboard,
                 GP_M_stall_sleeping, GP_M_stall_tex_throttle, GP_M_stall_wait};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        r->metric[ids[i]] = 0.01;
    r->metric[GP_M_stall_mio_throttle] = mio;
    r->metric[GP_M_stall_not_selected] = nsel;
    r->metric[GP_M_stall_long_scoreboard] = lsb;
    r->metric[GP_M_stall_barrier] = bar;
    r->metric[GP_M_stall_short_scoreboard] = ssb;
    r->metric[GP_M_stall_wait] = wait;
    r->metric[GP_M_stall_selected] = sel;
    r->metric[GP_M_stall_math_pipe_throttle] = math;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    char path[512], err[512];
    struct gp_ceilings cs;
    if (ceilings_read_csv("tests/data/h200_crafted/ceilings.csv", &cs, err, sizeof err)) { puts(err); return 1; }
    strcpy(cs.gpu, "NVIDIA H200 (crafted test data)");
    snprintf(path, sizeof path, "%s/ceilings.csv", dir);
    if (ceilings_write_csv(path, &cs, err, sizeof err)) { puts(err); return 1; }
    struct gp_meta m;
    meta_init(&m);
    strcpy(m.tool_version, "crafted");
    strcpy(m.gpu_name, "NVIDIA H200 (crafted test data)");
    m.cc_major = 9; m.sm_count = 132; m.sm_clock_measured_hz = CLK; m.sm_clock_max_hz = 1.98e9;
    strcpy(m.date, "2026-11-30T00:00:00Z");
    strcpy(m.counters, "crafted: launch facts, issue and stall counters entered by hand");
    m.reps = 20; m.warmups = 2; m.l2_flush = 1; m.planned_rows = 4;
    snprintf(path, sizeof path, "%s/results.json", dir);
    if (meta_write_json(path, &m, err, sizeof err)) { puts(err); return 1; }

    struct gp_result r[4];
    const double issue_peak = 4 * 132 * CLK;     /* warp instructions per second */
    /* one wave short: 64 blocks on 132 SMs; shared roof 40, issue roof 2x that; 93% of 40 x 64/132 */
    base(&r[0], "oneshort", 0.93 * 40 * 64 / 132.0, 40, 64, 2);
    r[0].metric[GP_M_inst_executed] = F / (80e12 / issue_peak);
    r[0].metric[GP_M_issue_active] = 20;
    r[0].metric[GP_M_warps_active] = 24;
    stalls(&r[0], 2.0, 0.5, 3.0, 1.0, 0.3, 0.5, 1.0, 0.2);
    /* issue-bound: 20 FLOP per warp instruction, 4.00 waves; 90% of the issue roof */
    base(&r[1], "issuebound", 0.9 * 20 * issue_peak / 1e12, 40, 1056, 2);
    r[1].metric[GP_M_inst_executed] = F / 20;
    r[1].metric[GP_M_issue_active] = 90;
    r[1].metric[GP_M_warps_active] = 95;
    stalls(&r[1], 0.5, 6.0, 0.5, 0.5, 0.3, 1.0, 1.0, 0.5);
    /* stall-dominated: 25% of the shared roof, ncu's tiled stall ratios at 2048^3 */
    base(&r[2], "stalled", 0.25 * 40, 40, 2112, 2);
    r[2].metric[GP_M_inst_executed] = F / (80e12 / issue_peak);
    r[2].metric[GP_M_issue_active] = 44.0;
    r[2].metric[GP_M_warps_active] = 98.3;
    stalls(&r[2], 17.85, 7.00, 3.01, 2.89, 0.5, 0.5, 1.0, 0.1);
    /* bank conflicts: 40% of the load wavefronts, 60% of the shared roof */
    base(&r[3], "conflicted", 0.6 * 40, 40, 2112, 2);
    r[3].metric[GP_M_smem_ld_confl] = 0.4 * r[3].metric[GP_M_smem_ld_wf];
    r[3].metric[GP_M_inst_executed] = F / (80e12 / issue_peak);
    r[3].metric[GP_M_issue_active] = 50;
    r[3].metric[GP_M_warps_active] = 90;
    stalls(&r[3], 4.0, 1.0, 1.0, 1.0, 2.5, 0.5, 1.0, 0.2);

    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    results_csv_write_header(f);
    for (int i = 0; i < 4; i++)
        results_csv_write_row(f, &r[i], &cs);
    fclose(f);
    return 0;
}

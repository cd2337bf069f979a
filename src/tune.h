/* gemmprof --tune (src/tune.c; src/tune_tf32.c for -k tf32_auto): every plan an auto
 * variant could run at one shape, timed as the sweep times a variant. */
#ifndef GEMMPROF_SRC_TUNE_H
#define GEMMPROF_SRC_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/results.h"

struct run;
struct shape_data;
struct gemm_variant;

/* Runs in place of the sweep; returns the exit code. */
int tune_run(struct run *r);

/* The same for tf32_auto's plans (src/tune_tf32.c, `--tune MxNxK -k tf32_auto`). */
int tune_tf32_run(struct run *r);

/* One row of a tuner's table: the tuner's plan `plan`, timed into res. */
struct tune_row {
    int plan;
    int picked;     /* the rule's pick */
    double waves;   /* blocks / (SMs x resident blocks per SM) */
    struct gp_result res;
};

/* What a tuner gives tune_drive, which does the rest as both tuners do: the shape, the
 * GEMMPROF_TUNE_ONLY filter, timing each plan then the references, the table, the CSV. */
struct tune_spec {
    const struct gemm_variant *v;   /* its launcher runs the plan select made current */
    const char *const *refs;        /* the fixed variants timed after the plans */
    int nrefs;                      /* at most TUNE_MAX_REFS */
    int name_width, config_width;   /* the references' column widths */
    const char *csv_header;
    /* queries the device and lists the plans at s: how many, or -1 with the reason said */
    int (*plans)(const struct shape_data *s);
    const char *(*tile)(int plan);  /* the name GEMMPROF_TUNE_ONLY's prefixes match */
    /* makes plan current for v's launcher and sets t's picked and waves */
    void (*select)(int plan, struct tune_row *t);
    void (*describe)(int plan, char *buf, size_t len);
    double (*eff)(const struct run *r, const struct gp_result *res);
    /* the table's column header and plan rows */
    void (*print)(FILE *f, const struct run *r, const struct tune_row *rows, int n, double best_s);
    /* one CSV row, ending with tune_csv_cells */
    void (*csv_row)(FILE *f, const struct run *r, const struct shape_data *s, const struct tune_row *t,
                    double best_s);
};

#define TUNE_MAX_REFS 8

/* Runs the tuner of sp; returns the exit code. */
int tune_drive(struct run *r, const struct tune_spec *sp);
/* The timing columns of a table row (median ms, TFLOP/s, % best, eff), or dashes. */
void tune_print_times(FILE *f, const struct gp_result *x, double best_s, double eff);
/* The CSV columns from waves to eff, then more[0..nmore-1], then the newline. */
void tune_csv_cells(FILE *f, const struct tune_row *t, double best_s, double eff, const double *more, int nmore);

/* The columns of tf32_auto's DIR/tune.csv, which `gemmprof tune-check` reads back
 * (src/cmd_tune_check.c). block_m x block_n is one block's tile; grid: the blocks launched
 * (as ncu's launch__grid_size); cluster: blocks per cluster (then tiles and units count
 * clusters' tiles, and waves the blocks over the SMs); reduce: 1, the slices are summed by
 * the reduction kernel. */
#define TUNE_TF32_CSV_HEADER                                                                                  \
    "variant,m,n,k,sms,config,config_name,block_m,block_n,block_k,consumers,stages,min_blocks,threads,split," \
    "k_tiles_per_slice,tiles,units,grid,registers,blocks_per_sm,waves,picked,status,rel_err,time_median_s,"    \
    "time_min_s,time_max_s,flop_per_s,pct_of_best,eff,sm_bytes_per_clk,model_s,cluster,reduce"

#endif

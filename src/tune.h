/* gemmprof --tune (src/tune.c; src/tune_tf32.c for -k tf32_auto): every plan an auto
 * variant could run at one shape, timed as the sweep times a variant. */
#ifndef GEMMPROF_SRC_TUNE_H
#define GEMMPROF_SRC_TUNE_H

#include <stdio.h>

struct run;
struct shape_data;
struct gp_result;

/* Runs in place of the sweep; returns the exit code. */
int tune_run(struct run *r);

/* The same for tf32_auto's plans (src/tune_tf32.c, `--tune MxNxK -k tf32_auto`). */
int tune_tf32_run(struct run *r);

/* The parts both tuners share. tune_time_references: the fixed variants `names[0..n-1]`
 * timed at shape s as the sweep times them (a name the registry lacks gets an empty
 * result), stopping early on a lost context or an interrupt; returns how many ran.
 * tune_account: plan i of nplans measured into res: counted as a failure or, when the
 * fastest so far, made the best, and said on stderr.
 * tune_say_pick: the line that judges the rule, the pick's time against the best plan's. */
int tune_time_references(struct run *r, struct shape_data *s, const char *const *names, int n,
                         struct gp_result *refs);
void tune_account(const struct gp_result *res, int i, int nplans, double *best_s, int *best, int *failures);
void tune_say_pick(const struct gp_result *pick, const struct gp_result *best);
/* A reference variant's row of a tuner's table, in that table's column widths. */
void tune_print_reference(FILE *f, int name_width, int config_width, const char *name, const struct gp_result *x,
                          double best_s, double eff);

/* The columns of tf32_auto's DIR/tune.csv, which `gemmprof tune-check` reads back
 * (src/cmd_tune_check.c). */
#define TUNE_TF32_CSV_HEADER                                                                                  \
    "variant,m,n,k,sms,config,config_name,block_m,block_n,block_k,consumers,stages,min_blocks,threads,split," \
    "k_tiles_per_slice,tiles,units,grid,registers,blocks_per_sm,waves,picked,status,rel_err,time_median_s,"    \
    "time_min_s,time_max_s,flop_per_s,pct_of_best,eff,sm_bytes_per_clk,model_s"

#endif

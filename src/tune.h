/* gemmprof --tune (src/tune.c; src/tune_tf32.c for -k tf32_auto): every plan an auto
 * variant could run at one shape, timed as the sweep times a variant. */
#ifndef GEMMPROF_SRC_TUNE_H
#define GEMMPROF_SRC_TUNE_H

struct run;

/* Runs in place of the sweep; returns the exit code. */
int tune_run(struct run *r);

/* The same for tf32_auto's plans (src/tune_tf32.c, `--tune MxNxK -k tf32_auto`). */
int tune_tf32_run(struct run *r);

/* The columns of tf32_auto's DIR/tune.csv, which `gemmprof tune-check` reads back
 * (src/cmd_tune_check.c). */
#define TUNE_TF32_CSV_HEADER                                                                                  \
    "variant,m,n,k,sms,config,config_name,block_m,block_n,block_k,consumers,stages,min_blocks,threads,split," \
    "k_tiles_per_slice,tiles,units,grid,registers,blocks_per_sm,waves,picked,status,rel_err,time_median_s,"    \
    "time_min_s,time_max_s,flop_per_s,pct_of_best,eff,sm_bytes_per_clk,model_s"

#endif

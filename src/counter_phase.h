/* The counter phase of a shape (src/counter_phase.c): the CUPTI range profiler over
 * every variant of the shape, once all of them are timed. */
#ifndef GEMMPROF_SRC_COUNTER_PHASE_H
#define GEMMPROF_SRC_COUNTER_PHASE_H

#include <stddef.h>

struct counter_flush;
struct gp_result;
struct run;
struct shape_data;

/* GEMMPROF_COUNTER_FLUSH, read once before GPU work: 0, or -1 naming the choices. */
int counter_flush_from_env(struct counter_flush *how, char *err, size_t errlen);
/* GEMMPROF_COUNTER_SESSIONS=run|shape, read with it: *per_shape 1 for shape; 0, or -1
 * naming the choices. */
int counter_sessions_from_env(int *per_shape, char *err, size_t errlen);
/* GEMMPROF_COUNTER_PDL=off|on: dependent launches while the counters measure (default off). */
int counter_pdl_from_env(int *on, char *err, size_t errlen);
/* Fills the counters of the rows of shape s (rows[0..nrows), one per variant). */
void count_shape(struct run *r, struct shape_data *s, struct gp_result *rows, int nrows);
/* Closes the sessions the counter phases kept open, before the GPU state goes (safe to
 * call again, and with none open). */
void counter_phase_end(struct run *r);

#endif

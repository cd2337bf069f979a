/* The terminal printer of the results table: one line per row as it completes. */
#ifndef GEMMPROF_SRC_PRINT_H
#define GEMMPROF_SRC_PRINT_H

#include <stdio.h>

#include "analysis/results.h"

void print_table_header(FILE *f);
void print_table_row(FILE *f, const struct gp_result *r);

#endif

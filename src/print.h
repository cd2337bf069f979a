/* The printers of the results table on stdout, one row as it completes: the terminal
 * table, CSV (results.csv's columns), JSON (an array of objects keyed by the same column
 * names) and Markdown (the terminal table's columns). All read the one results table. */
#ifndef GEMMPROF_SRC_PRINT_H
#define GEMMPROF_SRC_PRINT_H

#include <stdio.h>

#include "analysis/results.h"
#include "src/cli.h"

struct gp_ceilings;

struct printer {
    FILE *f;
    enum cli_format format;
    const struct gp_ceilings *ceilings;   /* for the derived roofline columns; may be NULL */
    int rows;
};

void print_begin(struct printer *p);
void print_row(struct printer *p, const struct gp_result *r);
void print_end(struct printer *p);

/* The terminal table alone (print_* with FORMAT_TABLE use these). */
void print_table_header(FILE *f);
void print_table_row(FILE *f, const struct gp_result *r);

#endif

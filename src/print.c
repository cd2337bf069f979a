#include "src/print.h"

#include <math.h>
#include <string.h>

#include "analysis/markdown.h"
#include "analysis/meta.h"
#include "analysis/results_csv.h"

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
    if (r->config[0])
        fprintf(f, "    config %s\n", r->config);
    fflush(f);
}

/* ---- JSON: one object per row, every column under its CSV name ---- */

struct json_ctx {
    FILE *f;
    int first;
};

static void json_cell(void *ctx, const char *name, const char *text, int numeric)
{
    struct json_ctx *c = ctx;
    fprintf(c->f, "%s", c->first ? "{" : ", ");
    c->first = 0;
    json_write_string(c->f, name);
    fputs(": ", c->f);
    if (numeric && !*text)
        fputs("null", c->f);   /* not collected */
    else if (numeric)
        fputs(text, c->f);
    else
        json_write_string(c->f, text);
}

/* ---- Markdown: the terminal table's columns ---- */

static void md_mb(FILE *f, double bytes)
{
    if (isnan(bytes))
        fprintf(f, " |");
    else
        fprintf(f, " %.1f |", bytes / 1e6);
}

static void md_row(FILE *f, const struct gp_result *r)
{
    fprintf(f, "| %s | %ldx%ldx%ld | %s |", mdt(r->variant), r->m, r->n, r->k, gp_status_name(r->status));
    if (isnan(r->time_median_s))
        fprintf(f, " | | |");
    else
        fprintf(f, " %.4f | %.1f%% | %.2f |", r->time_median_s * 1e3, r->time_spread * 100, r->flop_per_s / 1e12);
    if (isnan(r->rel_err))
        fprintf(f, " |");
    else
        fprintf(f, " %.2e |", r->rel_err);
    md_mb(f, r->metric[GP_M_dram_read] + r->metric[GP_M_dram_write]);
    md_mb(f, r->metric[GP_M_l2_bytes]);
    md_mb(f, r->metric[GP_M_l1_bytes]);
    if (r->counter_passes)
        fprintf(f, " %d |\n", r->counter_passes);
    else
        fprintf(f, " |\n");
}

void print_begin(struct printer *p)
{
    p->rows = 0;
    switch (p->format) {
    case FORMAT_TABLE: print_table_header(p->f); break;
    case FORMAT_CSV: results_csv_write_header(p->f); break;
    case FORMAT_JSON: fputs("[\n", p->f); break;
    case FORMAT_MD:
        fputs("| variant | shape | status | median ms | spread | TFLOP/s | rel err | DRAM MB | L2 MB | L1 MB | passes |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|\n", p->f);
        break;
    }
    fflush(p->f);
}

void print_row(struct printer *p, const struct gp_result *r)
{
    switch (p->format) {
    case FORMAT_TABLE: print_table_row(p->f, r); break;
    case FORMAT_CSV: results_csv_write_row(p->f, r, p->ceilings); break;
    case FORMAT_JSON: {
        struct json_ctx c = {p->f, 1};
        fputs(p->rows ? ",\n" : "", p->f);
        results_visit_row(r, p->ceilings, json_cell, &c);
        fputs("}", p->f);
        break;
    }
    case FORMAT_MD: md_row(p->f, r); break;
    }
    p->rows++;
    fflush(p->f);
}

void print_end(struct printer *p)
{
    if (p->format == FORMAT_JSON)
        fputs(p->rows ? "\n]\n" : "]\n", p->f);
    fflush(p->f);
}

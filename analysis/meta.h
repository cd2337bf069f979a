/* The JSON sidecar (results.json): machine, software and run metadata. Host-only. */
#ifndef GEMMPROF_ANALYSIS_META_H
#define GEMMPROF_ANALYSIS_META_H

#include <stddef.h>

/* One variant as the build that measured it described it. */
#define GP_META_VARIANTS 64            /* the most one run measures (src/cli.h's list) */
struct gp_meta_variant {
    char name[32];                     /* as in results.csv's variant column */
    char precision[8];                 /* "fp32", "tf32", "bf16" or "fp16" */
    char description[256];
};
struct gp_meta_variants {
    int n;
    struct gp_meta_variant v[GP_META_VARIANTS];
};

struct gp_meta {
    int schema;                   /* GP_SCHEMA_VERSION of the writer */
    char tool_version[128];       /* GP_VERSION_STRING: a whole revision, or a long git describe, fits */
    char gpu_name[96];
    char gpu_uuid[64];
    int cc_major, cc_minor;
    int sm_count;
    double sm_clock_max_hz;       /* cudaDevAttrClockRate */
    double sm_clock_measured_hz;  /* median SM clock measured during the run; NaN if unknown */
    double mem_clock_hz;          /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;
    double l2_bytes;
    double smem_per_block_optin_bytes;
    double global_mem_bytes;
    char driver_version[32];      /* "13.0" style from cudaDriverGetVersion */
    char runtime_version[32];
    char cublas_version[32];
    char command[1024];           /* argv joined, shell-quoted */
    char git_rev[128];
    char date[32];                /* ISO 8601 UTC of the run */
    char hostname[64];
    char counters[256];           /* "collected (N passes)" or why not */
    int l2_flush, reps, warmups;
    unsigned long long seed;
    int planned_rows;             /* variant x shape rows the run set out to measure; -1 unknown */
    /* which process of a multi-GPU run wrote this (src/ranks.h); 0 of 1 and "single" alone */
    int rank, world_size, local_rank;
    char mode[8];                 /* "single", "shard" (a share of the sweep) or "fleet" (all of it) */
    /* "variants": what the run measured, in its order, so that a recorded run is described
     * from its own data; none in a results.json written before they were recorded */
    struct gp_meta_variants variants;
};

/* Strings empty, numbers NaN, integers 0, schema = GP_SCHEMA_VERSION, planned_rows = -1,
 * world_size 1, mode "single". */
void meta_init(struct gp_meta *m);
/* Atomic write (temp + rename). 0 or -1 with reason in err. */
int meta_write_json(const char *path, const struct gp_meta *m, char *err, size_t errlen);
/* Reads what the writer writes; unknown keys are ignored, missing ones stay as
 * meta_init left them, except "schema": a file without it reads as schema 0 (it
 * predates versioning). Only a regular file of at most 1 MiB is read. Every number must
 * be finite and in its field's range (clocks 0..100 GHz, 0 read as unknown; sizes and
 * counts >= 0; "mode" single, shard or fleet; rank and local_rank below world_size). 0 or -1 with a one-line reason naming the file, line and column
 * ("out/results.json:3:14: expected ':' after an object key"). */
int meta_read_json(const char *path, struct gp_meta *m, char *err, size_t errlen);

/* The entry of variant `name` in vs, or NULL. */
const struct gp_meta_variant *meta_variant_find(const struct gp_meta_variants *vs, const char *name);
/* Appends to `into` the entries of `from` whose names it lacks, as long as it has room;
 * returns how many did not fit. */
int meta_variants_add(struct gp_meta_variants *into, const struct gp_meta_variants *from);

/* The same reader for any results.json key, for callers that need more than gp_meta (the
 * "merge" object of a merged directory). Every value is handed to the visitor as the
 * reader meets it: its path (the keys from the top level down, an array element's being
 * its index in decimal: "merge", "ranks_missing", "0", "rank"), its kind, and for a string
 * its decoded text, for a number its text as written ("" past 63 characters). Objects and
 * arrays come before their contents. */
enum json_kind { JSON_OBJECT, JSON_ARRAY, JSON_STRING, JSON_NUMBER, JSON_TRUE, JSON_FALSE, JSON_NULL };
struct json_at {
    const char *const *path;
    int depth;                    /* entries of path; 0 for the top-level object */
    enum json_kind kind;
    const char *text;             /* NULL but for strings and numbers */
};
typedef void (*json_visit_fn)(void *ctx, const struct json_at *v);
/* Parses the file with meta_read_json's grammar and limits (a top-level object, regular
 * file, at most 1 MiB); 0, or -1 with file:line:column and the reason in err. */
int json_read_file(const char *path, json_visit_fn visit, void *ctx, char *err, size_t errlen);

/* Writes s as a JSON string literal (quotes and escapes included). */
#include <stdio.h>
void json_write_string(FILE *f, const char *s);

#endif

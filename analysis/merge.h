/* gemmprof merge: one dataset from the per-rank results directories of a --shard or
 * --fleet run, each row tagged with the host, GPU UUID and rank it ran on. Host-only.
 *   gemmprof merge OUT DIR... [--allow-mixed] [--force]
 * An OUT that already holds results (results.csv or results.json) is refused without
 * --force: with OUT forgotten, the first rank directory would be overwritten.
 * A DIR without results.csv or results.json whose subdirectories hold them stands for
 * those subdirectories (so `gemmprof merge merged out` takes every rank under out/). */
#ifndef GEMMPROF_ANALYSIS_MERGE_H
#define GEMMPROF_ANALYSIS_MERGE_H

#include <stddef.h>

/* The largest run.world_size merge takes: each missing rank is an entry of results.json. */
#define MERGE_MAX_WORLD 4096

/* Exit statuses of the verb. */
enum {
    MERGE_EXIT_OK = 0,       /* every rank merged */
    MERGE_EXIT_FAILED = 1,   /* a data or output error: nothing written */
    MERGE_EXIT_USAGE = 2,    /* usage, mixed gemmprof versions, duplicate rows: nothing written */
    MERGE_EXIT_MISSING = 3,  /* merged, but ranks are missing (listed on stderr and in results.json) */
};

/* The launcher keys a rank's results.json carries ("rank", "world_size", "local_rank",
 * "mode"); -1 / "" when absent (a single run). */
struct merge_rank_keys {
    int rank, world_size, local_rank;
    char mode[16];           /* "single", "shard" or "fleet" */
    /* a merged directory's "merge" object (-1 when there is none) */
    int nmerged, nmissing;   /* entries of ranks_merged and ranks_missing */
    char missing[256];       /* the missing ranks, "2, 3" ("?" for one of unknown rank) */
};

/* Reads those keys from a results.json, at the top level or in an object there ("run"),
 * and the "merge" object, parsed as JSON (analysis/meta.h's reader), so any layout of the
 * same JSON reads the same; a file that lacks them leaves the defaults. Only a regular file
 * of at most 1 MiB is read. 0, or -1 (the defaults) when it cannot be read or parsed. */
int merge_read_rank_keys(const char *json_path, struct merge_rank_keys *k);

/* A file-name-safe form of s ([A-Za-z0-9._-] kept, anything else '_'), "unknown" if empty. */
void merge_safe_name(char *out, size_t len, const char *s);

#define MERGE_USAGE "gemmprof merge OUT DIR... [--allow-mixed] [--force]"

/* Merges the rank directories dirs[0..ndirs) (each one a rank, or the parent of ranks as
 * above) into out; allow_mixed takes ranks of different gemmprof builds, force replaces
 * results out already holds. Returns a MERGE_EXIT_* status (`gemmprof merge`,
 * src/cmd_merge.c); errors are one line on stderr, and the merged directory's path and
 * what was merged on stdout. */
int merge_run(const char *out, const char *const *dirs, int ndirs, int allow_mixed, int force);

#endif

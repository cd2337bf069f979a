/* The results directory of a sweep. A run never destroys data it did not write: the new
 * results.csv grows under a temporary name and replaces the old one only once its first
 * row is complete; a run that ends before that (no GPU, an interrupt, a failed setup)
 * leaves the directory as it found it, and removes a directory it created itself. A lock
 * refuses a second run into the same directory while one is writing there. */
#ifndef GEMMPROF_SRC_OUTDIR_H
#define GEMMPROF_SRC_OUTDIR_H

#include <stddef.h>
#include <stdio.h>

/* The longest --out path: every file name gemmprof writes is appended to it, and a path
 * that would be cut short is refused rather than written truncated. */
#define OUTDIR_MAX_PATH 900

struct outdir {
    const char *dir;
    char created[4096];   /* the topmost directory this run created, "" if none */
    char partial[4096];   /* the CSV until it is published */
    char csv_path[4096];  /* DIR/results.csv */
    char lock_path[4096];
    int lock_fd;
    FILE *csv;            /* open on the partial file, then (same file) on results.csv */
    int published;
};

/* Without creating anything: 0 when `dir` is a directory gemmprof can write, or a missing
 * path whose nearest existing parent is one; else -1 with a one-line reason. */
int outdir_check(const char *dir, char *err, size_t errlen);

/* Creates `dir` as needed, takes its lock and opens the temporary CSV. 0, or -1 with a
 * one-line reason (another run holds the lock, results.csv is not a regular file, ...). */
int outdir_open(struct outdir *od, const char *dir, char *err, size_t errlen);

/* Moves the temporary CSV into place as DIR/results.csv (call once its first row is
 * written). 0, or -1 with the reason. */
int outdir_publish(struct outdir *od, char *err, size_t errlen);

/* Closes the CSV and releases the lock. Unpublished: removes the temporary CSV and every
 * directory outdir_open created. */
void outdir_close(struct outdir *od);

#endif

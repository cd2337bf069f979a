/* Files written whole or not at all: output goes to a temporary file beside the target,
 * renamed over it only once everything was written, so a reader (or a run that dies half
 * way) never sees half a file. */
#ifndef GEMMPROF_ANALYSIS_ATOMIC_FILE_H
#define GEMMPROF_ANALYSIS_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

struct atomic_file {
    char tmp[4096];
    const char *path;   /* the caller's string; must outlive the atomic_file */
    FILE *f;
};

/* Opens a temporary file next to `path`, readable by others (0644). NULL with the reason
 * in err when it cannot be created. */
FILE *atomic_open(struct atomic_file *t, const char *path, char *err, size_t errlen);
/* Closes and renames it over `path`: 0, or -1 with the reason in err (a write error shows
 * here, at the latest), the temporary file removed either way. */
int atomic_commit(struct atomic_file *t, char *err, size_t errlen);
/* Gives up: closes and removes the temporary file; `path` stays as it was. */
void atomic_abort(struct atomic_file *t);

#endif

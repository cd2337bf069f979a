/* Files written whole or not at all: output goes to a temporary file beside the target,
 * renamed over it only once everything was written, so a reader (or a run that dies half
 * way) never sees half a file. SIGINT or SIGTERM while one is open removes the temporary
 * file (analysis/tmpfiles.h). */
#ifndef GEMMPROF_ANALYSIS_ATOMIC_FILE_H
#define GEMMPROF_ANALYSIS_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct atomic_file {
    char tmp[4096];
    const char *path;   /* the caller's string; must outlive the atomic_file */
    FILE *f;
    int slot;           /* its registration with analysis/tmpfiles.h: removed on SIGINT/SIGTERM */
};

/* 0 when `path` is absent or a regular file; -1 with "refusing to replace 'PATH': it is a
 * FIFO, not a regular file" in err for anything else (symlink, device, FIFO, socket,
 * directory): renaming over it would replace the device or link itself. */
int atomic_target_ok(const char *path, char *err, size_t errlen);
/* "a character device", "a symbolic link", ... for an lstat mode. */
const char *atomic_file_kind(mode_t mode);

/* Opens a temporary file next to `path`, readable by others (0644). NULL with the reason
 * in err when it cannot be created, or when `path` exists and is not a regular file. */
FILE *atomic_open(struct atomic_file *t, const char *path, char *err, size_t errlen);
/* Closes and renames it over `path` (refused, as in atomic_open, when `path` has become
 * something other than a regular file): 0, or -1 with the reason in err (a write error
 * shows here, at the latest), the temporary file removed either way. */
int atomic_commit(struct atomic_file *t, char *err, size_t errlen);
/* Gives up: closes and removes the temporary file; `path` stays as it was. */
void atomic_abort(struct atomic_file *t);

#endif

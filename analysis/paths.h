/* File-system helpers shared by the harness and the ceilings cache. */
#ifndef GEMMPROF_ANALYSIS_PATHS_H
#define GEMMPROF_ANALYSIS_PATHS_H

#include <stddef.h>

/* mkdir -p: creates `path` and its missing parents. 0, or -1 with errno set. */
int mkdir_p(const char *path);

/* mkdir -p that also says what it created: the topmost directory it made goes into
 * `created` ("" when `path` already existed), so a caller can remove it again. */
int mkdir_p_created(const char *path, char *created, size_t created_len);

#endif

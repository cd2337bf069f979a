/* File-system helpers shared by the harness and the ceilings cache. */
#ifndef GEMMPROF_SRC_PATHS_H
#define GEMMPROF_SRC_PATHS_H

/* mkdir -p: creates `path` and its missing parents. 0, or -1 with errno set. */
int mkdir_p(const char *path);

#endif

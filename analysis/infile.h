/* Opening the files gemmprof reads (results.csv, results.json, ceilings.csv) so that a
 * hostile or careless input cannot hang it or exhaust memory: only regular files are
 * read, and every reader caps a record's and a whole file's size. Host-only. */
#ifndef GEMMPROF_ANALYSIS_INFILE_H
#define GEMMPROF_ANALYSIS_INFILE_H

#include <stddef.h>
#include <stdio.h>

/* A 100,000-row results.csv is about 60 MiB; a record is one CSV row or the whole JSON
 * sidecar. Both limits are named in the errors that enforce them. */
#define GP_MAX_FILE_BYTES (256LL << 20)
#define GP_MAX_FILE_TEXT "256 MiB"
#define GP_MAX_RECORD_BYTES (64 << 10)
#define GP_MAX_RECORD_TEXT "64 KiB"

/* Opens `path` for reading if it is a regular file (a symlink to one is fine) of at most
 * `max_bytes`. The open itself cannot block (O_NONBLOCK, so a FIFO returns at once) and
 * fstat on the opened descriptor refuses a FIFO, device, directory or socket. NULL with
 * a one-line reason in err: "cannot open 'p': Permission denied", "'p' is a FIFO, not a
 * regular file", "'p' is 300 MiB, over the 256 MiB limit". errno is kept from the
 * failing call (ENOENT, EACCES, ...) or set to EINVAL / EFBIG. */
FILE *gp_open_regular(const char *path, long long max_bytes, const char *max_text, char *err,
                      size_t errlen);

#endif

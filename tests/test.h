/* A tiny test helper. Each tests/test_*.c is one program; every check prints one line,
 *   ok - <what>            FAIL - <what> (file:line)            skip - <what>: <reason>
 * and tests/run.sh counts them into "N passed, N failed, N skipped". The exit status is
 * 1 when anything failed. */
#ifndef GEMMPROF_TESTS_TEST_H
#define GEMMPROF_TESTS_TEST_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failed_count;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (cond) {                                                                       \
            printf("ok - ");                                                              \
            printf(__VA_ARGS__);                                                          \
            printf("\n");                                                                 \
        } else {                                                                          \
            test_failed_count++;                                                          \
            printf("FAIL - ");                                                            \
            printf(__VA_ARGS__);                                                          \
            printf(" (%s:%d: %s)\n", __FILE__, __LINE__, #cond);                          \
        }                                                                                 \
        fflush(stdout);                                                                   \
    } while (0)

/* Relative closeness; NaN never passes. */
#define CHECK_NEAR(got, want, rel, ...)                                                   \
    CHECK(!isnan((double)(got)) && fabs((double)(got) - (double)(want)) <=                \
              (rel) * fabs((double)(want)) + 1e-300, __VA_ARGS__)

#define SKIP(reason, ...)                                                                 \
    do {                                                                                  \
        printf("skip - ");                                                                \
        printf(__VA_ARGS__);                                                              \
        printf(": %s\n", reason);                                                         \
        fflush(stdout);                                                                   \
    } while (0)

/* How many entries of `dir` have `part` in their name; -1 when it cannot be read. For
 * "no temporary file left behind" after an atomic write. */
static inline int count_files_named(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, part) != NULL;
    closedir(d);
    return n;
}

#define TEST_EXIT() return test_failed_count ? 1 : 0

#endif

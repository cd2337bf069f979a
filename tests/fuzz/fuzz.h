/* Shared by the libFuzzer targets (tests/fuzz/fuzz_*.c, built and run by `make fuzz`).
 * gemmprof's readers take paths, as they do in real use, so each input is first written
 * to a file in a directory of this process's own (in /dev/shm when there is one, to keep
 * the file system out of the loop). */
#ifndef GEMMPROF_TESTS_FUZZ_H
#define GEMMPROF_TESTS_FUZZ_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir[64];

static void fuzz_cleanup(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    if (fuzz_dir[0] && system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
}

/* The per-process directory, created on first use and removed at exit. */
static const char *fuzz_workdir(void)
{
    if (!fuzz_dir[0]) {
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/gp_fuzz_XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(fuzz_dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_cleanup);
    }
    return fuzz_dir;
}

/* Writes data to fuzz_workdir()/name (data NULL: removes it); returns the path. */
static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[4][128];
    static int slot;
    char *p = path[slot++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", fuzz_workdir(), name);
    unlink(p);
    if (!data)
        return p;
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
        perror("fuzz: writing the input file");
        abort();
    }
    close(fd);
    return p;
}

/* Splits one input into a results directory: results.csv, results.json and ceilings.csv,
 * separated by NUL bytes; a part that is not there is a file that is not there. Returns
 * the directory. */
static const char *fuzz_results_dir(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"results.csv", "results.json", "ceilings.csv"};
    size_t at = 0;
    for (int i = 0; i < 3; i++) {
        if (at > size) {
            fuzz_file(names[i], NULL, 0);
            continue;
        }
        const uint8_t *nul = memchr(data + at, 0, size - at);
        size_t len = nul ? (size_t)(nul - (data + at)) : size - at;
        fuzz_file(names[i], data + at, len);
        at += len + 1;
    }
    return fuzz_workdir();
}

#endif

/* gemmprof merge (analysis/merge.c) on two rank directories: r0 holds the recorded run of
 * tests/data/h200_da80385 (absent when the fuzzer runs elsewhere), r1 the input: its
 * results.json, then a NUL, then its results.csv (no NUL: no results.csv, a dead rank).
 * Each input merges into a fresh OUT, removed afterwards; the statuses are the verb's. */
#include <dirent.h>
#include <sys/stat.h>

#include "analysis/merge.h"
#include "tests/fuzz/fuzz.h"

#define TEMPLATE "tests/data/h200_da80385"

/* Removes dir and the files in it (merge writes no subdirectories); how many of them
 * were temporary files an atomic write left behind. */
static int remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char p[256];
    int tmp = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name) < (int)sizeof p) {
            tmp += strstr(e->d_name, ".tmp") != NULL;
            unlink(p);
        }
    closedir(d);
    rmdir(dir);
    return tmp;
}

/* Copies TEMPLATE/name to r0/name once. */
static void copy_template(const char *name)
{
    static char buf[1 << 20];
    char src[128], dst[64];
    snprintf(src, sizeof src, "%s/%s", TEMPLATE, name);
    snprintf(dst, sizeof dst, "r0/%s", name);
    FILE *f = fopen(src, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    fuzz_file(dst, (const uint8_t *)buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    static char r0[128], r1[128], out[128];
    if (!ready) {
        snprintf(r0, sizeof r0, "%s/r0", fuzz_workdir());
        snprintf(r1, sizeof r1, "%s/r1", fuzz_workdir());
        snprintf(out, sizeof out, "%s/out", fuzz_workdir());
        mkdir(r0, 0700);
        mkdir(r1, 0700);
        copy_template("results.csv");
        copy_template("results.json");
        copy_template("ceilings.csv");
        /* merge's summary and messages are not what is tested: a flood in the log. The
         * sanitizers write to fd 2 themselves, so their reports still show. */
        stdout = fopen("/dev/null", "w");
        stderr = stdout;
        ready = 1;
    }
    const uint8_t *nul = memchr(data, 0, size);
    size_t jlen = nul ? (size_t)(nul - data) : size;
    fuzz_file("r1/results.json", data, jlen);
    if (nul)
        fuzz_file("r1/results.csv", nul + 1, size - jlen - 1);
    else
        fuzz_file("r1/results.csv", NULL, 0);
    remove_dir(out);
    const char *dirs[] = {r0, r1};
    int rc = merge_run(out, dirs, 2, 0, 0);
    if (rc < MERGE_EXIT_OK || rc > MERGE_EXIT_MISSING)
        abort();
    /* a refusal writes nothing; no error leaves a temporary file */
    struct stat st;
    char p[160];
    snprintf(p, sizeof p, "%s/results.csv", out);
    if (rc == MERGE_EXIT_USAGE && stat(p, &st) == 0)
        abort();
    if (remove_dir(out))
        abort();
    return 0;
}

/* The results directory (src/outdir.c): a run never destroys what it did not write, a
 * second run into the same directory is refused, non-directories and non-regular files
 * are refused by name, a run that wrote nothing leaves nothing behind. Host-only. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/outdir.h"
#include "tests/test.h"

static char base[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int file_is(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strcmp(buf, text) == 0;
}

int main(void)
{
    char dir[512], path[600], err[1024];
    struct outdir a, b;
    snprintf(base, sizeof base, "/tmp/gp_outdir.%d", (int)getpid());
    mkdir(base, 0755);

    /* an existing run: untouched until the new run's first row is published */
    snprintf(dir, sizeof dir, "%s/run", base);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    write_file(path, "old\n");
    CHECK(outdir_open(&a, dir, err, sizeof err) == 0, "opens an existing results directory: %s", err);
    fputs("new\n", a.csv);
    CHECK(file_is(path, "old\n"), "the old results.csv stays while the new run has no complete row");
    CHECK(outdir_open(&b, dir, err, sizeof err) != 0 && strstr(err, "another gemmprof run") &&
              strstr(err, "pid"), "a second run into the same directory is refused: %s", err);
    CHECK(access(a.partial, F_OK) == 0, "the refused run leaves the first run's temporary CSV alone");
    CHECK(outdir_publish(&a, err, sizeof err) == 0 && file_is(path, "new\n"),
          "publishing moves the new results.csv into place");
    outdir_close(&a);
    CHECK(count_files_named(dir, ".partial") == 0 && count_files_named(dir, ".gemmprof.lock") == 0,
          "no temporary or lock file left after a published run");
    CHECK(outdir_open(&b, dir, err, sizeof err) == 0, "the lock is released at the end: %s", err);
    outdir_close(&b);   /* unpublished */
    CHECK(file_is(path, "new\n") && count_files_named(dir, ".partial") == 0,
          "a run that wrote no row leaves results.csv as it was and no temporary file");

    /* a directory the run created is removed again when nothing was written */
    snprintf(dir, sizeof dir, "%s/made/deeper/still", base);
    CHECK(outdir_open(&a, dir, err, sizeof err) == 0, "creates missing directories: %s", err);
    outdir_close(&a);
    snprintf(path, sizeof path, "%s/made", base);
    CHECK(access(path, F_OK) != 0, "an unpublished run removes every directory it created");

    /* what is not a directory, or not a regular results.csv, is refused by name */
    snprintf(path, sizeof path, "%s/fifo", base);
    CHECK(mkfifo(path, 0644) == 0 && outdir_check(path, err, sizeof err) != 0 && strstr(err, "a FIFO"),
          "a FIFO as --out is refused: %s", err);
    CHECK(outdir_check("/dev/null", err, sizeof err) != 0 && strstr(err, "a character device"),
          "a character device as --out is refused: %s", err);
    snprintf(path, sizeof path, "%s/fifo/sub", base);
    CHECK(outdir_check(path, err, sizeof err) != 0 && strstr(err, "cannot create directory"),
          "a path under a non-directory is refused: %s", err);
    char longpath[OUTDIR_MAX_PATH + 64];
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[0] = '/';
    longpath[sizeof longpath - 1] = '\0';
    CHECK(outdir_check(longpath, err, sizeof err) != 0 && strstr(err, "bytes long"),
          "a path too long to append file names to is refused, not truncated: %.80s", err);
    snprintf(dir, sizeof dir, "%s/linked", base);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    CHECK(symlink("/dev/null", path) == 0 && outdir_open(&a, dir, err, sizeof err) != 0 &&
              strstr(err, "symbolic link"), "a results.csv that is a symbolic link is not replaced: %s", err);
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the symbolic link is still there");

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", base);
    TEST_EXIT();
}

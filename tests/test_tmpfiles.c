/* Temporary files under SIGINT and SIGTERM (analysis/tmpfiles.h): an atomic_open file
 * (results.json.tmp.* of merge, report.md's, a chart's data) is removed when a signal
 * ends the process; an ignored signal stays ignored; a handler installed by someone else
 * (src/interrupt.c during a sweep) keeps the signal and can clean up through
 * tmpfiles_cleanup; and a private directory whose process died of SIGKILL is removed by
 * the next tmpfiles_reap_stale, while a live process's stays. Each case runs in a child. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/atomic_file.h"
#include "analysis/tmpfiles.h"
#include "tests/test.h"

static char dir[256];

enum mode { DEFAULT_ACTION, IGNORED, FOREIGN_HANDLER, FOREIGN_EXIT };

static volatile sig_atomic_t foreign_seen;
static void foreign(int sig) { foreign_seen = sig; }
static void foreign_exit(int sig)
{
    tmpfiles_cleanup();   /* what src/interrupt.c does on its second signal */
    _exit(100 + sig);
}

/* In a child: opens DIR/NAME atomically, then raises sig. Exits 0 when the signal let it
 * go on and the file was committed, 1 when the commit failed. */
static pid_t write_then_raise(const char *name, int sig, enum mode mode)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* DEFAULT_ACTION sets it too: a test run in the background of a shell (tests/run.sh runs them
     * concurrently) inherits SIGINT ignored, which atomic_open rightly keeps */
    signal(sig, mode == IGNORED          ? SIG_IGN
                : mode == FOREIGN_HANDLER ? foreign
                : mode == FOREIGN_EXIT    ? foreign_exit
                                          : SIG_DFL);
    static char path[512];
    char err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, sizeof err);
    if (!f)
        _exit(2);
    fputs("{\"half\": ", f);
    fflush(f);
    raise(sig);
    fputs("1}\n", f);
    _exit(atomic_commit(&t, err, sizeof err) == 0 && (mode != FOREIGN_HANDLER || foreign_seen == sig) ? 0 : 1);
}

static int wait_status(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

static int exists(const char *name)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return lstat(p, &st) == 0;
}

static void test_signals(void)
{
    const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        const char *sn = sigs[i] == SIGINT ? "SIGINT" : "SIGTERM";
        int st = wait_status(write_then_raise("results.json", sigs[i], DEFAULT_ACTION));
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i],
              "%s during an atomic write: the process dies of it, as with the default action", sn);
        CHECK(count_files_named(dir, ".tmp") == 0 && !exists("results.json"),
              "%s during an atomic write: no results.json.tmp.* left, no results.json (%d left)", sn,
              count_files_named(dir, ".tmp"));

        st = wait_status(write_then_raise("ignored.json", sigs[i], IGNORED));
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && exists("ignored.json"),
              "%s ignored (nohup): still ignored, the file is written", sn);

        st = wait_status(write_then_raise("foreign.json", sigs[i], FOREIGN_HANDLER));
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && exists("foreign.json"),
              "%s with another handler installed: that handler gets it, the write completes", sn);

        st = wait_status(write_then_raise("exiting.json", sigs[i], FOREIGN_EXIT));
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 100 + sigs[i] && count_files_named(dir, ".tmp") == 0 &&
                  !exists("exiting.json"),
              "%s with another handler that exits: its tmpfiles_cleanup removes the temporary file", sn);
    }
    /* the handler is gone once nothing is registered: the default action again */
    char err[256], path[512];
    snprintf(path, sizeof path, "%s/after.json", dir);
    struct atomic_file t;
    FILE *f = atomic_open(&t, path, err, sizeof err);
    if (f)
        atomic_commit(&t, err, sizeof err);
    struct sigaction cur;
    sigaction(SIGTERM, NULL, &cur);
    CHECK(f && cur.sa_handler == SIG_DFL, "after the commit SIGTERM has its default action again");
}

static void test_stale_dirs(void)
{
    /* a child makes a private directory with a file in it and dies of SIGKILL */
    pid_t pid = fork();
    if (pid == 0) {
        char d[4096], p[4200], err[256];
        int slot;
        if (tmpfiles_mkdtemp(dir, d, sizeof d, &slot, err, sizeof err))
            _exit(2);
        snprintf(p, sizeof p, "%s/points_dram.csv", d);
        FILE *f = fopen(p, "w");
        if (f)
            fclose(f);
        raise(SIGKILL);
    }
    int st = wait_status(pid);
    CHECK(WIFSIGNALED(st) && count_files_named(dir, TMPFILES_DIR_PREFIX) == 1,
          "SIGKILL leaves one private directory (%d)", count_files_named(dir, TMPFILES_DIR_PREFIX));
    char mine[4096], err[256] = "";
    int slot = -1;
    CHECK(tmpfiles_mkdtemp(dir, mine, sizeof mine, &slot, err, sizeof err) == 0 && slot >= 0,
          "a private directory of this process: %s", err);
    tmpfiles_reap_stale(dir);
    struct stat st2;
    CHECK(count_files_named(dir, TMPFILES_DIR_PREFIX) == 1 && stat(mine, &st2) == 0,
          "tmpfiles_reap_stale removes the dead process's directory and keeps a live one's");
    tmpfiles_remove_dir(slot);
    CHECK(count_files_named(dir, TMPFILES_DIR_PREFIX) == 0, "tmpfiles_remove_dir removes it");
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/gemmprof_test_tmpfiles_XXXXXX");
    if (!mkdtemp(dir)) {
        printf("FAIL - mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    test_signals();
    test_stale_dirs();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "clean up");
    TEST_EXIT();
}

/* A sweep's signals (src/interrupt.h): the first asks it to stop after the row in flight; a
 * second stops it at once (exit 128 + signal); the same signal again from the same process
 * within a second is not a second signal (`timeout` signals its child and then its process
 * group, and a process with several threads can take both). Each case runs in a child that
 * waits 1.5 s for its signals and exits 0 when it was never stopped at once. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/interrupt.h"
#include "tests/test.h"

static void nap(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0) {
    }
}

/* A child with the sweep's handlers gets `first`, then `second` (0: none) `gap` seconds
 * later, both from this process; returns the child's exit status (-1: it did not exit). */
static int child_status(int first, int second, double gap, int *saw)
{
    int ready[2];
    if (pipe(ready))
        return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        interrupt_install();
        if (write(ready[1], "r", 1) != 1)
            _exit(3);
        nap(1.5);   /* nanosleep resumes after the handler; the second signal may end it */
        _exit(interrupt_pending() == first ? 0 : 4);
    }
    char c;
    if (pid < 0 || read(ready[0], &c, 1) != 1)
        return -1;
    kill(pid, first);
    if (second) {
        nap(gap);
        kill(pid, second);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(ready[0]);
    close(ready[1]);
    *saw = WIFEXITED(st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
    int exited = 0, st;
    st = child_status(SIGTERM, 0, 0, &exited);
    CHECK(exited && st == 0, "one SIGTERM: the sweep is asked to stop and goes on to its row's end (exit %d)", st);
    st = child_status(SIGTERM, SIGTERM, 0.05, &exited);
    CHECK(exited && st == 0, "SIGTERM twice from one process 50 ms apart (as `timeout` sends it): one stop request, "
          "not an exit at once (exit %d)", st);
    st = child_status(SIGTERM, SIGTERM, 1.2, &exited);
    CHECK(exited && st == 128 + SIGTERM, "SIGTERM again 1.2 s later: stopped at once, exit %d (want %d)", st,
          128 + SIGTERM);
    st = child_status(SIGTERM, SIGINT, 0.05, &exited);
    CHECK(exited && st == 128 + SIGINT, "SIGINT after SIGTERM: stopped at once, exit %d (want %d)", st, 128 + SIGINT);
    TEST_EXIT();
}

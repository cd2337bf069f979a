#include "src/interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/tmpfiles.h"

static volatile sig_atomic_t pending_signal;
static volatile sig_atomic_t first_sender;   /* kill(2)'s sender of the first signal, 0: none */
static struct timespec first_at;             /* when it came (written before pending_signal) */
static char temp_file[4096];   /* read by the handler: only unlink(2) touches it there */
static volatile sig_atomic_t temp_file_set;

/* `timeout` signals its child and then its whole process group, and a process with several
 * threads (the CUDA runtime's) can take the two as two signals: the same signal from the
 * same sender within a second is that one signal again. Ctrl-C twice (the terminal sends
 * it, no sender pid) still stops at once. */
static int repeated(int sig, pid_t sender, const struct timespec *now)
{
    const double since = (double)(now->tv_sec - first_at.tv_sec) + 1e-9 * (double)(now->tv_nsec - first_at.tv_nsec);
    return sender > 0 && sender == first_sender && sig == pending_signal && since < 1.0;
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    const pid_t sender = info && info->si_code == SI_USER ? info->si_pid : 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);   /* async-signal-safe */
    if (pending_signal) {
        if (repeated(sig, sender, &now))
            return;
        /* the second signal: the user wants out now */
        if (temp_file_set)
            unlink(temp_file);
        /* this handler owns the signal here, so it removes the report's temporaries
         * and stops its gnuplot (analysis/tmpfiles.h) */
        tmpfiles_cleanup();
        static const char msg[] = "\ngemmprof: stopped at once (second signal); rows written so far are kept\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(128 + sig);
    }
    first_sender = sender;
    first_at = now;
    pending_signal = sig;
    static const char msg[] = "\ngemmprof: stopping after the measurement in flight (a second signal stops at once)\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
}

static void set_handlers(void (*handler)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    if (handler) {
        sa.sa_sigaction = handler;
        sa.sa_flags = SA_SIGINFO;
    } else
        sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags |= SA_RESTART;   /* a write or a wait in flight completes */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void interrupt_install(void)
{
    pending_signal = 0;
    first_sender = 0;
    set_handlers(on_signal);
}

void interrupt_uninstall(void)
{
    set_handlers(NULL);
}

int interrupt_pending(void)
{
    return pending_signal;
}

void interrupt_set_temp_file(const char *path)
{
    temp_file_set = 0;
    if (path && strlen(path) < sizeof temp_file) {
        memcpy(temp_file, path, strlen(path) + 1);
        temp_file_set = 1;
    }
}

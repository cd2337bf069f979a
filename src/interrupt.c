#include "src/interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/tmpfiles.h"

static volatile sig_atomic_t pending_signal;
static char temp_file[4096];   /* read by the handler: only unlink(2) touches it there */
static volatile sig_atomic_t temp_file_set;

static void on_signal(int sig)
{
    if (pending_signal) {
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
    pending_signal = sig;
    static const char msg[] = "\ngemmprof: stopping after the measurement in flight (a second signal stops at once)\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
}

static void set_handlers(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;   /* a write or a wait in flight completes */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void interrupt_install(void)
{
    pending_signal = 0;
    set_handlers(on_signal);
}

void interrupt_uninstall(void)
{
    set_handlers(SIG_DFL);
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

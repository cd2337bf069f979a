/* Temporary files, private temporary directories and one child process that SIGINT or
 * SIGTERM must not leave behind: the handler removes every registered path, kills and
 * reaps the child, then dies of the signal with its default action (exit status 130 or
 * 143 in a shell).
 *
 *   int slot; int fd = tmpfiles_mkstemp(tmpl, &slot);   ... rename(tmpl, path);
 *   tmpfiles_drop(slot);
 *
 * The handler is installed while something is registered, and only over the default
 * action: an ignored signal stays ignored, and where another handler owns the signal
 * (src/interrupt.c during a GPU sweep) that handler decides and calls tmpfiles_cleanup()
 * on its way out. A private directory is named .gemmprof-tmp.HOST.PID.XXXXXX, so a later
 * run can remove one whose process died of SIGKILL (tmpfiles_reap_stale). */
#ifndef GEMMPROF_ANALYSIS_TMPFILES_H
#define GEMMPROF_ANALYSIS_TMPFILES_H

#include <stddef.h>
#include <sys/types.h>

#define TMPFILES_DIR_PREFIX ".gemmprof-tmp."

/* mkstemp(tmpl) with the file registered, signals held off in between so no signal can
 * leave it unregistered: the fd (0600), or -1 with errno set. *slot is for tmpfiles_drop
 * (-1 when the registry was full: the file is then not removed on a signal). */
int tmpfiles_mkstemp(char *tmpl, int *slot);

/* Creates a private directory (0700) in parent, named as above, into out, registered:
 * 0 with *slot set, or -1 with the reason in err. */
int tmpfiles_mkdtemp(const char *parent, char *out, size_t outlen, int *slot, char *err,
                     size_t errlen);

/* Forgets a registration (the file was renamed or removed by its owner); slot < 0 is
 * ignored. */
void tmpfiles_drop(int slot);

/* Removes a registered private directory and the files in it, then forgets it. */
void tmpfiles_remove_dir(int slot);

/* The child the handler kills and reaps (0: none). */
void tmpfiles_set_child(pid_t pid);

/* Kills and reaps the child and removes everything registered; async-signal-safe, for
 * another signal handler's exit path. */
void tmpfiles_cleanup(void);

/* Removes the private directories in parent left by processes of this host that are
 * gone (killed by SIGKILL, or the machine lost power mid-render). */
void tmpfiles_reap_stale(const char *parent);

#endif

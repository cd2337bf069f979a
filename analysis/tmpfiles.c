#include "analysis/tmpfiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* A few at a time is the most any caller holds (a render's directory, the file being
 * written in it, a report or merge output); a full registry only loses the protection. */
#define SLOTS 16
enum { FREE, FILE_PATH, DIR_PATH };

/* The handler may run on any thread: a slot's path is complete before its kind is
 * published, and the handler reads only slots whose kind is set. */
static char paths[SLOTS][4096];
static atomic_int kind[SLOTS];
static atomic_int child;
static int nregistered;              /* changed with the signals blocked, from one thread at
                                        a time (gemmprof writes its files from the main one) */
static int installed[2];             /* ours is the action of SIGINT, SIGTERM */
static const int sigs[2] = {SIGINT, SIGTERM};

/* One level of a directory's entries, then the directory: only with system calls, so it
 * is safe in a handler. Never follows a link (unlinkat removes the link itself). */
static void remove_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        char buf[4096] __attribute__((aligned(8)));
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long off = 0; off < n;) {
                /* struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name */
                unsigned short reclen;
                memcpy(&reclen, buf + off + 16, sizeof reclen);
                const char *name = buf + off + 19;
                if (!(name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))))
                    unlinkat(fd, name, 0);
                off += reclen;
            }
        close(fd);
    }
    rmdir(dir);
}

void tmpfiles_cleanup(void)
{
    int saved = errno;
    pid_t pid = atomic_exchange(&child, 0);
    if (pid > 0) {
        kill(pid, SIGKILL);   /* it may be writing into a directory about to go */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    for (int i = 0; i < SLOTS; i++) {
        int k = atomic_exchange(&kind[i], FREE);
        if (k == FILE_PATH)
            unlink(paths[i]);
        else if (k == DIR_PATH)
            remove_tree(paths[i]);
    }
    errno = saved;
}

static void on_signal(int sig)
{
    tmpfiles_cleanup();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);   /* delivered, with the default action, once this handler returns */
}

static void block(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &s, old);
}

static void unblock(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* The first registration installs the handler where the action is the default one. */
static void handler_hold(void)
{
    if (nregistered++ > 0)
        return;
    for (int i = 0; i < 2; i++) {
        struct sigaction cur;
        installed[i] = 0;
        if (sigaction(sigs[i], NULL, &cur) != 0 || (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
            continue;   /* ignored, or someone else's handler: theirs to decide */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaddset(&sa.sa_mask, SIGINT);
        sigaddset(&sa.sa_mask, SIGTERM);
        installed[i] = sigaction(sigs[i], &sa, NULL) == 0;
    }
}

/* The last one gone restores the default action, unless someone replaced ours since. */
static void handler_release(void)
{
    if (nregistered == 0 || --nregistered > 0)
        return;
    for (int i = 0; i < 2; i++) {
        struct sigaction cur;
        if (!installed[i] || sigaction(sigs[i], NULL, &cur) != 0 || cur.sa_handler != on_signal)
            continue;
        cur.sa_handler = SIG_DFL;
        sigaction(sigs[i], &cur, NULL);
        installed[i] = 0;
    }
}

/* Registers path; the signals are blocked by the caller. The slot, or -1 when full. */
static int add_locked(const char *path, int k)
{
    if (strlen(path) >= sizeof paths[0])
        return -1;
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&kind[i]) == FREE) {
            memcpy(paths[i], path, strlen(path) + 1);
            handler_hold();
            atomic_store(&kind[i], k);
            return i;
        }
    return -1;
}

int tmpfiles_mkstemp(char *tmpl, int *slot)
{
    sigset_t old;
    block(&old);
    int fd = mkostemp(tmpl, O_CLOEXEC);
    int e = errno;
    *slot = fd >= 0 ? add_locked(tmpl, FILE_PATH) : -1;
    unblock(&old);
    errno = e;
    return fd;
}

/* This host's name, cut to what fits a file name and without '/' or '.'. */
static void host_tag(char *out, size_t len)
{
    char h[256] = "";
    if (gethostname(h, sizeof h - 1) != 0 || !h[0])
        snprintf(h, sizeof h, "host");
    size_t o = 0;
    for (const char *p = h; *p && o + 1 < len && o < 64; p++)
        out[o++] = (*p == '/' || *p == '.') ? '_' : *p;
    out[o] = '\0';
}

int tmpfiles_mkdtemp(const char *parent, char *out, size_t outlen, int *slot, char *err,
                     size_t errlen)
{
    char host[80];
    host_tag(host, sizeof host);
    *slot = -1;
    int n = snprintf(out, outlen, "%s/" TMPFILES_DIR_PREFIX "%s.%ld.XXXXXX", parent, host, (long)getpid());
    if (n < 0 || (size_t)n >= outlen || (size_t)n >= sizeof paths[0]) {
        snprintf(err, errlen, "'%.80s...': too long for a temporary directory in it", parent);
        return -1;
    }
    sigset_t old;
    block(&old);
    char *made = mkdtemp(out);
    int e = errno;
    if (made)
        *slot = add_locked(out, DIR_PATH);
    unblock(&old);
    if (!made) {
        snprintf(err, errlen, "cannot create a temporary directory in '%s': %s", parent, strerror(e));
        return -1;
    }
    return 0;
}

static void drop(int slot, int remove)
{
    if (slot < 0 || slot >= SLOTS)
        return;
    sigset_t old;
    block(&old);
    int k = atomic_exchange(&kind[slot], FREE);
    if (k != FREE) {
        if (remove && k == DIR_PATH)
            remove_tree(paths[slot]);
        handler_release();
    }
    unblock(&old);
}

void tmpfiles_drop(int slot)
{
    drop(slot, 0);
}

void tmpfiles_remove_dir(int slot)
{
    drop(slot, 1);
}

void tmpfiles_set_child(pid_t pid)
{
    atomic_store(&child, (int)pid);
}

void tmpfiles_reap_stale(const char *parent)
{
    char host[80], dir[4096];
    host_tag(host, sizeof host);
    size_t plen = strlen(TMPFILES_DIR_PREFIX), hlen = strlen(host);
    DIR *d = opendir(parent);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        /* NAME = PREFIX HOST "." PID "." XXXXXX: another host's PIDs say nothing here */
        const char *name = e->d_name;
        if (strncmp(name, TMPFILES_DIR_PREFIX, plen) != 0 || strncmp(name + plen, host, hlen) != 0 ||
            name[plen + hlen] != '.')
            continue;
        char *end;
        long pid = strtol(name + plen + hlen + 1, &end, 10);
        if (pid <= 0 || *end != '.' || strlen(end) != 7 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;   /* alive, or someone else's process */
        struct stat st;
        if ((size_t)snprintf(dir, sizeof dir, "%s/%s", parent, name) >= sizeof dir ||
            lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
            continue;
        remove_tree(dir);
    }
    closedir(d);
}

#include "src/outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/paths.h"

/* "a character device", "a FIFO", ... for messages about what a path is instead. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
         : S_ISREG(m) ? "a regular file" : "not a regular file";
}

int outdir_check(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    size_t len = strlen(dir);
    if (len > OUTDIR_MAX_PATH) {
        snprintf(err, errlen, "--out: the path is %zu bytes long, more than the %d gemmprof allows "
                              "(file names are appended to it)", len, OUTDIR_MAX_PATH);
        return -1;
    }
    if (stat(dir, &st) == 0) {   /* follows a link: a link to a directory is a directory */
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "--out '%s' is %s, not a directory", dir, file_kind(st.st_mode));
            return -1;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            snprintf(err, errlen, "--out '%s': cannot write there: %s", dir, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (errno != ENOENT && errno != ENOTDIR) {
        snprintf(err, errlen, "--out '%s': %s", dir, strerror(errno));
        return -1;
    }
    /* missing: the nearest existing parent must be a writable directory */
    char parent[OUTDIR_MAX_PATH + 1];
    memcpy(parent, dir, len + 1);
    for (;;) {
        char *slash = strrchr(parent, '/');
        while (slash && slash > parent && slash[1] == '\0') {   /* trailing slashes */
            *slash = '\0';
            slash = strrchr(parent, '/');
        }
        if (!slash)
            snprintf(parent, sizeof parent, ".");
        else if (slash == parent)
            parent[1] = '\0';
        else
            *slash = '\0';
        if (stat(parent, &st) == 0)
            break;
        if ((errno != ENOENT && errno != ENOTDIR) || strcmp(parent, ".") == 0 || strcmp(parent, "/") == 0) {
            snprintf(err, errlen, "--out: cannot create directory '%s': %s", dir, strerror(errno));
            return -1;
        }
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--out: cannot create directory '%s': '%s' is %s", dir, parent,
                 file_kind(st.st_mode));
        return -1;
    }
    if (access(parent, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "--out: cannot create directory '%s': '%s': %s", dir, parent, strerror(errno));
        return -1;
    }
    return 0;
}

/* Takes DIR/.gemmprof.lock. A lock file unlinked by a finishing run while this one waited
 * on it would lock nothing: retry until the locked file is the one at the path. */
static int take_lock(struct outdir *od, char *err, size_t errlen)
{
    for (int attempt = 0; attempt < 10; attempt++) {
        int fd = open(od->lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            snprintf(err, errlen, "cannot create the lock file '%s': %s", od->lock_path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            char pid[32] = "";
            ssize_t n = read(fd, pid, sizeof pid - 1);
            pid[n > 0 ? n : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            close(fd);
            snprintf(err, errlen, "--out '%s': another gemmprof run (pid %s) is writing there; wait for "
                                  "it to end or choose another directory", od->dir, pid[0] ? pid : "?");
            return -1;
        }
        struct stat held, now;
        if (fstat(fd, &held) == 0 && stat(od->lock_path, &now) == 0 && held.st_ino == now.st_ino &&
            held.st_dev == now.st_dev) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            /* the pid is only for the message of a refused run: no error if it fails */
            if (ftruncate(fd, 0) == 0 && write(fd, pid, (size_t)n) != n)
                pid[0] = '\0';
            od->lock_fd = fd;
            return 0;
        }
        close(fd);
    }
    snprintf(err, errlen, "cannot take the lock '%s': it keeps being replaced", od->lock_path);
    return -1;
}

/* Removes `path` and its parents up to `top`, those this run created, where empty. */
static void remove_created_dirs(const char *path, const char *top)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    size_t top_len = strlen(top);
    while (strlen(p) >= top_len && rmdir(p) == 0) {
        char *slash = strrchr(p, '/');
        if (!slash || strlen(p) == top_len)
            break;
        *slash = '\0';
    }
}

int outdir_open(struct outdir *od, const char *dir, char *err, size_t errlen)
{
    memset(od, 0, sizeof *od);
    od->dir = dir;
    od->lock_fd = -1;
    if (outdir_check(dir, err, errlen))
        return -1;
    if (mkdir_p_created(dir, od->created, sizeof od->created) != 0) {
        snprintf(err, errlen, "--out: cannot create directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    snprintf(od->lock_path, sizeof od->lock_path, "%s/.gemmprof.lock", dir);
    if (take_lock(od, err, errlen))
        goto fail;
    /* named only under the lock: a refused run must not remove the other run's file */
    snprintf(od->partial, sizeof od->partial, "%s/.results.csv.partial", dir);
    snprintf(od->csv_path, sizeof od->csv_path, "%s/results.csv", dir);
    struct stat st;
    if (lstat(od->csv_path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "'%s' is %s; gemmprof replaces only regular files", od->csv_path,
                 file_kind(st.st_mode));
        goto fail;
    }
    int fd = open(od->partial, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 || !(od->csv = fdopen(fd, "w"))) {
        snprintf(err, errlen, "--out: cannot write '%s': %s", od->partial, strerror(errno));
        if (fd >= 0)
            close(fd);
        goto fail;
    }
    return 0;
fail:
    outdir_close(od);
    return -1;
}

int outdir_publish(struct outdir *od, char *err, size_t errlen)
{
    if (od->published)
        return 0;
    if (fflush(od->csv) != 0 || rename(od->partial, od->csv_path) != 0) {
        snprintf(err, errlen, "cannot move '%s' to '%s': %s", od->partial, od->csv_path, strerror(errno));
        return -1;
    }
    od->published = 1;
    return 0;
}

void outdir_close(struct outdir *od)
{
    if (od->csv)
        fclose(od->csv);
    od->csv = NULL;
    if (!od->published && od->partial[0])
        unlink(od->partial);
    if (od->lock_fd >= 0) {
        unlink(od->lock_path);   /* while still held: a waiting run re-checks the inode */
        close(od->lock_fd);
        od->lock_fd = -1;
    }
    if (!od->published && od->created[0])
        remove_created_dirs(od->dir, od->created);
}

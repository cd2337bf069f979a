#include "analysis/atomic_file.h"

#include "analysis/tmpfiles.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *atomic_file_kind(mode_t mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISLNK(mode)  ? "a symbolic link"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

int atomic_target_ok(const char *path, char *err, size_t errlen)
{
    struct stat st;
    /* lstat: a symlink is refused itself, never followed to what it names */
    if (lstat(path, &st) != 0)
        return 0;   /* absent (or unreachable, which open or rename reports) */
    if (S_ISREG(st.st_mode))
        return 0;
    snprintf(err, errlen, "refusing to replace '%s': it is %s, not a regular file", path,
             atomic_file_kind(st.st_mode));
    return -1;
}

FILE *atomic_open(struct atomic_file *t, const char *path, char *err, size_t errlen)
{
    t->path = path;
    t->f = NULL;
    t->slot = -1;
    if ((size_t)snprintf(t->tmp, sizeof t->tmp, "%s.tmp.XXXXXX", path) >= sizeof t->tmp) {
        snprintf(err, errlen, "%s: path too long (limit %zu bytes)", path, sizeof t->tmp - 12);
        return NULL;
    }
    if (atomic_target_ok(path, err, errlen) != 0)
        return NULL;
    int fd = tmpfiles_mkstemp(t->tmp, &t->slot);   /* removed by SIGINT or SIGTERM too */
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file next to '%s': %s", path, strerror(errno));
        return NULL;
    }
    fchmod(fd, 0644);   /* mkstemp makes it 0600; these are files for people to read */
    t->f = fdopen(fd, "w");
    if (!t->f) {
        snprintf(err, errlen, "cannot write '%s': %s", t->tmp, strerror(errno));
        close(fd);
        unlink(t->tmp);
        tmpfiles_drop(t->slot);
    }
    return t->f;
}

/* Removes the temporary file (gone already after a rename) and its registration. */
static int finish(struct atomic_file *t, int rc)
{
    if (rc != 0)
        unlink(t->tmp);
    tmpfiles_drop(t->slot);
    t->slot = -1;
    return rc;
}

int atomic_commit(struct atomic_file *t, char *err, size_t errlen)
{
    int bad = ferror(t->f);
    if (fclose(t->f) != 0 || bad) {
        snprintf(err, errlen, "cannot write '%s': %s", t->path, strerror(errno ? errno : EIO));
        return finish(t, -1);
    }
    /* checked again: the target may have been replaced while we wrote */
    if (atomic_target_ok(t->path, err, errlen) != 0)
        return finish(t, -1);
    if (rename(t->tmp, t->path) != 0) {
        snprintf(err, errlen, "cannot rename '%s' to '%s': %s", t->tmp, t->path, strerror(errno));
        return finish(t, -1);
    }
    return finish(t, 0);
}

void atomic_abort(struct atomic_file *t)
{
    fclose(t->f);
    finish(t, -1);
}

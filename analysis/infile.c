#include "analysis/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_name(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

FILE *gp_open_regular(const char *path, long long max_bytes, const char *max_text, char *err,
                      size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    int saved = 0;
    if (fstat(fd, &st) != 0) {
        saved = errno;
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        saved = EINVAL;
        snprintf(err, errlen, "'%s' is %s, not a regular file: refusing to read it", path,
                 kind_name(st.st_mode));
    } else if ((long long)st.st_size > max_bytes) {
        saved = EFBIG;
        snprintf(err, errlen, "'%s' is %lld bytes, over the %s limit for this file", path,
                 (long long)st.st_size, max_text);
    }
    /* regular files never block; clear the flag so reads behave as usual */
    if (!saved && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        saved = errno;
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    }
    FILE *f = saved ? NULL : fdopen(fd, "rb");
    if (!f) {
        if (!saved) {
            saved = errno;
            snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        }
        close(fd);
        errno = saved;
    }
    return f;
}

#include "analysis/paths.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int mkdir_p_created(const char *path, char *created, size_t created_len)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s", path);
    if (created && created_len)
        created[0] = '\0';
    if (n <= 0 || (size_t)n >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = tmp + 1;; p++) {
        if (*p && *p != '/')
            continue;
        const char saved = *p;
        *p = '\0';
        if (mkdir(tmp, 0755) == 0) {
            if (created && created_len && !created[0])
                snprintf(created, created_len, "%s", tmp);
        } else if (errno != EEXIST) {
            return -1;
        }
        if (!saved)
            break;
        *p = saved;
    }
    return 0;
}

int mkdir_p(const char *path)
{
    return mkdir_p_created(path, NULL, 0);
}

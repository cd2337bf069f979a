#include "src/npy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int npy_write_f32(const char *path, const float *data, long rows, long cols, char *err,
                  size_t errlen)
{
    char header[128];
    int len = snprintf(header, sizeof header,
                       "{'descr': '<f4', 'fortran_order': False, 'shape': (%ld, %ld), }", rows, cols);
    /* magic(6) + version(2) + header length(2) + header, padded with spaces to a
     * multiple of 64 and ended by '\n', as the format requires */
    int total = 10 + len + 1;
    int pad = (64 - total % 64) % 64;
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    unsigned short hlen = (unsigned short)(len + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc(hlen & 0xff, f);
    fputc(hlen >> 8, f);
    fwrite(header, 1, (size_t)len, f);
    for (int i = 0; i < pad; i++)
        fputc(' ', f);
    fputc('\n', f);
    fwrite(data, sizeof(float), (size_t)rows * (size_t)cols, f);
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

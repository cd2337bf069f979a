/* Writes float32 matrices as NumPy .npy files (format 1.0), for checking with numpy. */
#ifndef GEMMPROF_SRC_NPY_H
#define GEMMPROF_SRC_NPY_H

#include <stddef.h>

/* rows x cols, row-major, little-endian float32. 0 or -1 with reason in err. */
int npy_write_f32(const char *path, const float *data, long rows, long cols, char *err, size_t errlen);

#endif

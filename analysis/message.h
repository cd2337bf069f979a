/* The one way gemmprof writes a message for the user: "gemmprof: <text>" on stderr, on
 * exactly one line. Control bytes in the text (a newline or ESC inside a path, a variant
 * name or a value the user typed) are written as C escapes, so no value can split a
 * message or drive the terminal. */
#ifndef GEMMPROF_ANALYSIS_MESSAGE_H
#define GEMMPROF_ANALYSIS_MESSAGE_H

#include <stddef.h>

void gp_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The escaping alone: `in` with control bytes as \n, \t, \xNN into out (always
 * NUL-terminated, cut short to fit). Returns out. */
char *gp_escape_controls(const char *in, char *out, size_t outlen);

#endif

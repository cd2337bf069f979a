#include "analysis/message.h"

#include <stdarg.h>
#include <stdio.h>

char *gp_escape_controls(const char *in, char *out, size_t outlen)
{
    size_t o = 0;
    if (!outlen)
        return out;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char esc[5];
        int n;
        if (*p == '\n')
            n = snprintf(esc, sizeof esc, "\\n");
        else if (*p == '\t')
            n = snprintf(esc, sizeof esc, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            n = snprintf(esc, sizeof esc, "\\x%02x", *p);
        else
            esc[0] = (char)*p, esc[1] = '\0', n = 1;
        if (o + (size_t)n >= outlen)
            break;
        for (int i = 0; i < n; i++)
            out[o++] = esc[i];
    }
    out[o] = '\0';
    return out;
}

void gp_message(const char *fmt, ...)
{
    char raw[4096], clean[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gemmprof: %s\n", gp_escape_controls(raw, clean, sizeof clean));
}

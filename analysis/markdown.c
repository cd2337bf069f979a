#include "analysis/markdown.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static char md_ring[16][4200];
static unsigned md_next;

const char *md_escape(const char *s, int code)
{
    char *out = md_ring[md_next++ % 16];
    size_t len = sizeof md_ring[0], n = 0;
    int run = 0, longest = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    int fence = code ? longest + 1 : 0;
    /* a span that starts or ends with a backtick needs a space inside its fence */
    int pad = code && (s[0] == '`' || (*s && s[strlen(s) - 1] == '`'));
    for (int i = 0; i < fence; i++)
        out[n++] = '`';
    if (pad)
        out[n++] = ' ';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char piece[8];
        unsigned char c = *p;
        int intraword = p > (const unsigned char *)s && isalnum(p[-1]) && isalnum(p[1]);
        if (c < 0x20 || c == 0x7f)
            snprintf(piece, sizeof piece, "\\x%02X", c);
        else if (c == '|' || (!code && (strchr("\\`*[]<>#&", c) || (c == '_' && !intraword))))
            snprintf(piece, sizeof piece, "\\%c", c);
        else
            snprintf(piece, sizeof piece, "%c", c);
        size_t k = strlen(piece);
        if (n + k + (size_t)fence + 5 >= len) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        memcpy(out + n, piece, k);
        n += k;
    }
    if (pad)
        out[n++] = ' ';
    for (int i = 0; i < fence; i++)
        out[n++] = '`';
    out[n] = '\0';
    return out;
}

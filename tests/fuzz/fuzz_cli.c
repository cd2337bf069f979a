/* The command line (src/cli.c cli_parse): the input is split into arguments at newlines
 * and NUL bytes. */
#include <getopt.h>

#include "src/cli.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 64 };
    char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
    int argc = 0;
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = "gemmprof";
    for (char *p = buf; argc <= MAX_ARGS && p <= buf + size;) {
        argv[argc++] = p;
        while (p < buf + size && *p != '\n' && *p)
            p++;
        *p++ = '\0';
    }
    argv[argc] = NULL;
    /* cli_parse resets getopt itself (optind = 0); this harness does it too, so a
     * regression there shows as a crash of cli_parse's own call, not of a later one. */
    static char *none[] = {"gemmprof", NULL};
    optind = 0;
    (void)getopt(1, none, "");
    static struct cli_options o;
    char err[512];
    (void)cli_parse(argc, argv, &o, err, sizeof err);
    free(buf);
    return 0;
}

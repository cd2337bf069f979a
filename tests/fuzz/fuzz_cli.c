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
    /* cli_parse restarts getopt with optind = 1, which leaves glibc's position inside a
     * cluster such as "-zh" from the previous call; optind = 0 resets it fully. The real
     * program parses once, so only a harness calling it repeatedly needs this. */
    static char *none[] = {"gemmprof", NULL};
    optind = 0;
    (void)getopt(1, none, "");
    static struct cli_options o;
    char err[512];
    (void)cli_parse(argc, argv, &o, err, sizeof err);
    free(buf);
    return 0;
}

/* The gemmprof command line end to end: every bad input gets one line on stderr that
 * names the problem and a non-zero exit status, before any GPU work. Runs the built
 * binary next to this test (BUILD/gemmprof). */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/metrics.h"
#include "tests/test.h"

static char gemmprof[512];
static char out[65536], errtxt[8192];   /* out: --list-metrics whole */

/* Runs gemmprof with `args`; stdout into out, stderr into errtxt; returns the status. */
static int run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s >/tmp/gp_main_out.$PPID 2>/tmp/gp_main_err.$PPID; echo $?", gemmprof, args);
    FILE *p = popen(cmd, "r");
    int rc = -1;
    if (!p || fscanf(p, "%d", &rc) != 1)
        rc = -1;
    if (p)
        pclose(p);
    out[0] = errtxt[0] = '\0';
    FILE *f;
    snprintf(cmd, sizeof cmd, "/tmp/gp_main_out.%d", (int)getpid());
    if ((f = fopen(cmd, "r"))) {
        out[fread(out, 1, sizeof out - 1, f)] = '\0';
        fclose(f);
        remove(cmd);
    }
    snprintf(cmd, sizeof cmd, "/tmp/gp_main_err.%d", (int)getpid());
    if ((f = fopen(cmd, "r"))) {
        errtxt[fread(errtxt, 1, sizeof errtxt - 1, f)] = '\0';
        fclose(f);
        remove(cmd);
    }
    return rc;
}

static int one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl && nl[1] == '\0';
}

static void bad(const char *args, int want_rc, const char *needle)
{
    int rc = run(args);
    int single = one_line(errtxt);
    errtxt[strcspn(errtxt, "\n")] = '\0';   /* one line in the message below */
    CHECK(rc == want_rc && strstr(errtxt, needle) && single,
          "gemmprof %s -> exit %d, one line naming '%s': %s", args, rc, needle, errtxt);
}

/* bad() with environment variable `var` set to `value` first (left set) */
static void bad_env(const char *var, const char *value, const char *args, int want_rc, const char *needle)
{
    setenv(var, value, 1);
    bad(args, want_rc, needle);
}

int main(int argc, char **argv)
{
    (void)argc;
    char self[512];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(gemmprof, sizeof gemmprof, "%s/../gemmprof", dirname(self));

    CHECK(run("--help") == 0 && strstr(out, "usage: gemmprof"), "--help prints the usage");
    CHECK(run("--version") == 0 && strstr(out, "gemmprof "), "--version: %s", out);
    {
        /* one version string: --version, the report and results.json's tool_version */
        char version[128];
        snprintf(version, sizeof version, "%.100s", out + strlen("gemmprof "));
        version[strcspn(version, "\n")] = '\0';
        int rc = run("report results/h200 --no-plots --out /tmp/gp_main_version/");
        FILE *f = fopen("/tmp/gp_main_version/report.md", "r");
        char head[512] = "";
        if (f) {
            head[fread(head, 1, sizeof head - 1, f)] = '\0';
            fclose(f);
        }
        char want[200];
        snprintf(want, sizeof want, "rendered by gemmprof %s.", version);
        CHECK(rc == 0 && strstr(version, " (") && strstr(head, want),
              "--version and the report print the same string: %s; report --out DIR/ created DIR", version);
        int removed = system("rm -rf /tmp/gp_main_version");
        (void)removed;
    }
    for (int i = 0; i < 6; i++) {
        static const char *const helps[] = {"report --help", "report -h", "plots --help", "plots -h",
                                            "compare --help", "compare -h"};
        CHECK(run(helps[i]) == 0 && strstr(out, "usage: gemmprof ") && strstr(out, "Exit status: 0"),
              "gemmprof %s: the usage and every exit status on stdout", helps[i]);
    }
    CHECK(run("--list") == 0 && strstr(out, "naive") && strstr(out, "cublas_tf32"), "--list shows the registry");
    CHECK(run("--list-metrics") == 0 && strstr(out, "dram__bytes_read.sum") && strstr(out, "yes") &&
              strstr(out, "bytes read from device memory") && strstr(out, " byte "),
          "--list-metrics shows each metric's unit, description and the default set");
    {
        /* the combine column is metrics.def's aggregate: each metric's line names its rule */
        int listed = 1;
        for (int i = 0; i < GP_METRIC_COUNT && listed; i++) {
            char at[160], rule[16];
            snprintf(at, sizeof at, "\n%s ", gp_metrics[i].name);   /* at a line's start */
            const char *line = strstr(out, at), *eol = line ? strchr(line + 1, '\n') : NULL;
            snprintf(rule, sizeof rule, " %s ", gp_aggregate_name(gp_metrics[i].agg));
            listed = line && eol && memmem(line, (size_t)(eol - line), rule, strlen(rule)) != NULL;
        }
        CHECK(listed, "--list-metrics names each metric's combine rule (sum, wavg, max) from analysis/metrics.def");
    }

    bad("-s 0", 2, "size 0");
    bad("-s -5", 2, "-5");
    bad("-s abc", 2, "abc");
    bad("-s 64x64", 2, "MxNxK");
    bad("-s 2000000000x2000000000x2000000000", 2, "overflow");
    bad("-k naive,bogus", 2, "unknown variant 'bogus'");
    /* a well-formed name outside the table is checked on the GPU's chip (tests/test_cupti.c);
     * a malformed one is refused here */
    bad("--metrics lts__t_bytes.sum,bogus.metric", 2, "unknown metric 'bogus.metric'");
    bad("-r 0", 2, "--reps");
    bad("--bogus", 2, "--bogus");
    bad("-s 64 -o /etc/passwd/sub", 2, "cannot create directory");
    bad("-zh", 2, "unknown option '-z'");
    bad("-k", 2, "option -k needs a value");
    bad("--seed", 2, "option --seed needs a value");
    bad("-k 'naive\nbogus'", 2, "unknown variant 'naive\\nbogus'");   /* one line, newline escaped */
    bad("-k \"$(printf 'x\\033[31m')\"", 2, "unknown variant 'x\\x1b[31m'");
    bad("-s 100000x100000x4", 2, "C (MxN) would have 10000000000 elements");
    bad("-s 64 -o /dev/null", 2, "is a character device, not a directory");
    bad("-s 64 -o /etc/passwd", 2, "is a regular file, not a directory");
    bad("-s 64 -o /$(printf '%01000d' 0)", 2, "more than the 900 gemmprof allows");
    /* plugins (include/gemmprof_plugin.h): every broken one refused in one line, exit 2 */
    bad("-s 64 -k plugin:/nonexistent/libx.so", 2, "plugin '/nonexistent/libx.so': cannot load");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:nosuch", 2, "no symbol 'nosuch'");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:future_abi", 2, "ABI version 2, this gemmprof takes 1");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:bad_name_plugin", 2, "its name must be");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:taken_name", 2, "already a variant's");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:bad_precision", 2, "precision must be");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:no_launcher", 2, "no launch function");
    bad("-s 64 -k plugin:build/tests/plugins/libbad_plugins.so:null_plugin", 2, "returned NULL");
    CHECK(run("-k naive,plugin:build/tests/plugins/libbad_plugins.so --list") == 0 && strstr(out, "host_ok") &&
              strstr(out, "tf32  plugin build/tests/plugins/libbad_plugins.so"),
          "a good plugin is listed as a variant with its precision and description");
    /* the diagnosis benchmark's kernels at one shape, each its own plugin, in one run */
    {
        static const char *const bn[] = {"control", "uncoalesced_ld", "uncoalesced_st", "bank_conflicts",
                                         "occ_smem", "occ_regs", "occ_block", "stream_control", "few_blocks",
                                         "tail_wave", "even_runs", "imbalance", "fp64", "unfused", "local_spill",
                                         "divergence", "barriers", "dram_bound"};
        char args[3072] = "-k ";
        for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++)
            snprintf(args + strlen(args), sizeof args - strlen(args),
                     "%splugin:build/tests/diagnosis/libgemmprof_bottlenecks.so:gemmprof_plugin_bn_%s", i ? "," : "",
                     bn[i]);
        strcat(args, " --list");
        CHECK(run(args) == 0 && strstr(out, "bn_dram_bound") && strstr(out, "bn_even_runs"),
              "18 plugins in one run are taken (the diagnosis benchmark at one shape): %s", errtxt);
    }
    CHECK(run("-k plugin:build/tests/plugins/libbad_plugins.so:bf16_plugin --list") == 0 && strstr(out, "host_bf16") &&
              strstr(out, "bf16  plugin build/tests/plugins/libbad_plugins.so"),
          "a plugin may declare bf16 (and fp16): the precisions of analysis/precision.h");
    bad("--format xml", 2, "--format: 'xml' is not one of table, csv, json, md");
    bad("report /nonexistent/dir", 1, "does not exist");
    bad("report", 2, "missing the results directory");
    bad("plots /nonexistent/dir", 1, "does not exist");
    setenv("GEMMPROF_COUNTER_FLUSH", "bogus", 1);   /* the diagnostic flush choice, before GPU work */
    bad("-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "GEMMPROF_COUNTER_FLUSH=bogus: unknown; one of read-discard");
    unsetenv("GEMMPROF_COUNTER_FLUSH");
    /* the counter sessions' lifetime: a bad value refused up front; a good one gets past,
     * to the next check (here the --out that is a file, with or without a GPU) */
    const char *sessions = "GEMMPROF_COUNTER_SESSIONS";
    bad_env(sessions, "once", "-s 64 -k naive -o /tmp/gp_main_nogpu", 2,
            "GEMMPROF_COUNTER_SESSIONS=once: unknown; one of run, shape");
    bad_env(sessions, "", "-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "GEMMPROF_COUNTER_SESSIONS=: unknown");
    bad_env(sessions, "shape", "-s 64 -k naive -o /etc/passwd", 2, "is a regular file, not a directory");
    bad_env(sessions, "run", "-s 64 -k naive -o /etc/passwd", 2, "is a regular file, not a directory");
    unsetenv(sessions);
    /* dependent launches while counting: the same up-front check */
    const char *pdl = "GEMMPROF_COUNTER_PDL";
    bad_env(pdl, "yes", "-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "GEMMPROF_COUNTER_PDL=yes: unknown; one of off, on");
    bad_env(pdl, "on", "-s 64 -k naive -o /etc/passwd", 2, "is a regular file, not a directory");
    bad_env(pdl, "off", "-s 64 -k naive -o /etc/passwd", 2, "is a regular file, not a directory");
    unsetenv(pdl);
    setenv("GEMMPROF_TEST_SLOWDOWN", "tiled:abc", 1);   /* compare's test hook, checked up front too */
    bad("-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "GEMMPROF_TEST_SLOWDOWN=tiled:abc: expected VARIANT:NANOSECONDS");
    setenv("GEMMPROF_TEST_SLOWDOWN", "nosuch:100", 1);
    bad("-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "a known variant");
    setenv("GEMMPROF_TEST_SLOWDOWN", "all:abc", 1);   /* all:NS, every variant: the fleet check's slow GPU */
    bad("-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "GEMMPROF_TEST_SLOWDOWN=all:abc: expected VARIANT:NANOSECONDS");
    setenv("GEMMPROF_TEST_SLOWDOWN", "all:1000", 1);
    int slow_rc = run("-s 64 -k naive --no-counters --no-ceilings --no-report -o /tmp/gp_main_slowall");
    CHECK((slow_rc == 0 || slow_rc == 3) && strstr(errtxt, "every variant's timed launches get 1000 ns more"),
          "GEMMPROF_TEST_SLOWDOWN=all:1000 is taken and announced (exit %d): %s", slow_rc, errtxt);
    int slow_rm = system("rm -rf /tmp/gp_main_slowall");
    (void)slow_rm;
    unsetenv("GEMMPROF_TEST_SLOWDOWN");
    /* the ncu comparison's placement hook */
    bad_env("GEMMPROF_TEST_PAD_MB", "8x", "-s 64 -k naive -o /tmp/gp_main_nogpu", 2,
            "GEMMPROF_TEST_PAD_MB=8x: expected a whole number of MiB");
    bad_env("GEMMPROF_TEST_PAD_MB", "70000", "-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "0 to 65536");
    bad_env("GEMMPROF_TEST_PAD_MB", "-1", "-s 64 -k naive -o /tmp/gp_main_nogpu", 2, "GEMMPROF_TEST_PAD_MB=-1");
    unsetenv("GEMMPROF_TEST_PAD_MB");

    /* no GPU: its own exit status and message, no half-written results left, and an
     * existing results directory left exactly as it was */
    int rc = run("-s 64 -k naive -o /tmp/gp_main_nogpu/new/dir");
    if (rc == 3) {
        errtxt[strcspn(errtxt, "\n")] = '\0';
        CHECK((strstr(errtxt, "no NVIDIA driver") || strstr(errtxt, "no CUDA device") || strstr(errtxt, "older than")) &&
                  (access("/proc/driver/nvidia/version", F_OK) == 0 || !strstr(errtxt, "insufficient")),
              "no GPU: exit 3 naming what is missing, never 'insufficient' without a driver: %s", errtxt);
        CHECK(access("/tmp/gp_main_nogpu", F_OK) != 0, "no GPU: no empty --out directory left behind");
        CHECK(run("-s 64 --format csv -o /tmp/gp_main_nogpu") == 3 && out[0] == '\0',
              "--format csv: nothing but the table on stdout (here, without a GPU, nothing at all)");
        int copied = system("mkdir -p /tmp/gp_main_nogpu && cp results/h200/results.csv results/h200/results.json "
                            "/tmp/gp_main_nogpu/ 2>/dev/null");
        rc = run("-s 64 -o /tmp/gp_main_nogpu");
        int same = system("cmp -s results/h200/results.csv /tmp/gp_main_nogpu/results.csv && "
                          "cmp -s results/h200/results.json /tmp/gp_main_nogpu/results.json");
        CHECK(copied == 0 && rc == 3 && same == 0, "no GPU: an existing results directory keeps its results.csv and results.json");
    } else {
        SKIP("a CUDA device is present", "the no-GPU exit status");
    }
    int cleaned = system("rm -rf /tmp/gp_main_nogpu");
    (void)cleaned;   /* a leftover directory in /tmp is no test failure */
    TEST_EXIT();
}

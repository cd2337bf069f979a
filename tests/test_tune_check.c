/* gemmprof tune-check (src/cmd_tune_check.c): tf32_auto's rule judged against tuner tables
 * written here in the tuner's own columns (src/tune.h), with the rule's pick made fastest,
 * slower than the best, or failed; and its one-line refusals. No GPU. */
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "kernels/tf32_plan.h"
#include "src/cmd.h"
#include "src/tune.h"
#include "tests/test.h"

static char dir[] = "/tmp/gemmprof_tunecheck_XXXXXX";

/* A table at m x n x k on a 132-SM machine: every candidate plan, timed as the rule
 * estimates it, the pick's time times pick_factor (NAN: its row failed). */
static void write_table(const char *path, long m, long n, long k, double pick_factor)
{
    struct tf32_machine mc = {132, {0}, {0}, {0}};
    for (int i = 0; i < tf32_config_count; i++)
        mc.blocks_per_sm[i] = tf32_configs[i].min_blocks;
    static struct tf32_plan plans[TF32_MAX_PLANS];
    const int np = tf32_plan_candidates(&mc, m, n, k, plans, TF32_MAX_PLANS);
    const struct tf32_plan pick = tf32_plan_pick(&mc, m, n, k);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "%s\n", TUNE_TF32_CSV_HEADER);
    char header[] = TUNE_TF32_CSV_HEADER;
    for (int i = 0; i < np; i++) {
        const struct tf32_plan *p = &plans[i];
        const int picked = p->config == pick.config && p->split == pick.split && p->copy_a == pick.copy_a &&
                           p->direct == pick.direct && p->maps_b == pick.maps_b && p->maps_a == pick.maps_a;
        double t = p->est_cycles / TF32_MODEL_SM_HZ;
        const char *status = "ok";
        if (picked && isnan(pick_factor))
            status = "wrong";
        else if (picked)
            t *= pick_factor;
        char name[80];
        tf32_plan_describe(p, name, sizeof name);
        int first = 1;
        char *save = NULL, copy[sizeof header];
        memcpy(copy, header, sizeof header);
        for (char *col = strtok_r(copy, ",", &save); col; col = strtok_r(NULL, ",", &save), first = 0) {
            if (!first)
                fputc(',', f);
            if (!strcmp(col, "variant"))
                fputs("tf32_auto", f);
            else if (!strcmp(col, "m") || !strcmp(col, "n") || !strcmp(col, "k"))
                fprintf(f, "%ld", col[0] == 'm' ? m : col[0] == 'n' ? n : k);
            else if (!strcmp(col, "sms"))
                fputs("132", f);
            else if (!strcmp(col, "config"))
                fprintf(f, "\"%s\"", name);
            else if (!strcmp(col, "config_name"))
                fputs(tf32_configs[p->config].name, f);
            else if (!strcmp(col, "split"))
                fprintf(f, "%d", p->split);
            else if (!strcmp(col, "blocks_per_sm"))
                fprintf(f, "%d", tf32_configs[p->config].min_blocks);
            else if (!strcmp(col, "status"))
                fputs(status, f);
            else if (!strcmp(col, "time_median_s"))
                fprintf(f, "%.9g", t);
            else if (!strcmp(col, "eff"))
                fprintf(f, "%.3f", 0.5 + 0.01 * p->config);
            else
                fputs("0", f);
        }
        fputc('\n', f);
    }
    fclose(f);
}

/* tune_check_main on argv, stdout and stderr into out and err (NUL-terminated) */
static int run(const char *const *args, int n, char *out, size_t outlen, char *err, size_t errlen)
{
    char opath[256], epath[256];
    snprintf(opath, sizeof opath, "%s/out.txt", dir);
    snprintf(epath, sizeof epath, "%s/err.txt", dir);
    fflush(stdout);
    fflush(stderr);
    const int so = dup(1), se = dup(2);
    const int fo = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fo, 1);
    dup2(fe, 2);
    char *argv[16];
    argv[0] = "tune-check";
    for (int i = 0; i < n && i < 15; i++)
        argv[i + 1] = (char *)args[i];
    const int rc = tune_check_main(n + 1, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so), close(se), close(fo), close(fe);
    FILE *f = fopen(opath, "r");
    size_t got = f ? fread(out, 1, outlen - 1, f) : 0;
    out[got] = '\0';
    if (f)
        fclose(f);
    f = fopen(epath, "r");
    got = f ? fread(err, 1, errlen - 1, f) : 0;
    err[got] = '\0';
    if (f)
        fclose(f);
    return rc;
}

static int one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return s[0] && nl && nl[1] == '\0';
}

int main(void)
{
    if (!mkdtemp(dir)) {
        CHECK(0, "a temporary directory");
        TEST_EXIT();
    }
    char good[300], big[300], slow[300], failed[300], out[8192], err[2048];
    snprintf(good, sizeof good, "%s/good.csv", dir);
    snprintf(big, sizeof big, "%s/big.csv", dir);
    snprintf(slow, sizeof slow, "%s/slow.csv", dir);
    snprintf(failed, sizeof failed, "%s/failed.csv", dir);
    write_table(good, 1024, 1024, 1024, 1.0);
    write_table(big, 8192, 8192, 8192, 1.0);
    write_table(slow, 8192, 64, 4096, 1.2);
    write_table(failed, 257, 513, 4099, NAN);

    const char *a1[] = {good, big};
    int rc = run(a1, 2, out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && strstr(out, "1024x1024x1024") && strstr(out, "100.0%") && !strstr(out, "under"),
          "the rule's pick, fastest in its tables, is judged at 100%% (exit %d)", rc);
    CHECK(strstr(out, "unsplit at 8192x8192x8192") && strstr(out, "w256x128 0.500/"),
          "the eff line comes from the largest shape's split-1 rows, beside the table's EFF");

    const char *a2[] = {good, slow};
    rc = run(a2, 2, out, sizeof out, err, sizeof err);
    const char *line = strstr(out, "8192x64x4096"), *other = strstr(out, "1024x1024x1024");
    CHECK(rc == 1 && line && other && strstr(line, "%  <-- under 95%") && strstr(other, "under") > line,
          "a pick 1.2x slower than the best plan it had is flagged under 95%%, the other table not, exit 1 (exit %d)",
          rc);
    const char *a3[] = {failed};
    rc = run(a3, 1, out, sizeof out, err, sizeof err);
    CHECK(rc == 1 && strstr(out, "not measured"), "a pick whose row failed is 'not measured', exit 1 (exit %d)", rc);

    char simt[300], mixed[300];
    snprintf(simt, sizeof simt, "%s/simt.csv", dir);
    snprintf(mixed, sizeof mixed, "%s/mixed.csv", dir);
    FILE *f = fopen(simt, "w");
    if (f) {
        fputs("m,n,k,config,config_name,split,status,time_median_s\n1024,1024,1024,x,b128x256,1,ok,1e-4\n", f);
        fclose(f);
    }
    write_table(mixed, 1024, 1024, 1024, 1.0);
    f = fopen(mixed, "a");
    if (f) {
        fputs("tf32_auto,2048,1024,1024,132,x,w256x128,256,128,32,2,4,1,384,1,32,0,0,0,0,1,0,0,ok,0,1e-4,0,0,0,0,0.5,0,0\n", f);
        fclose(f);
    }
    const struct {
        const char *args[3];
        int n;
        const char *says;
    } bad[] = {{{NULL}, 0, "no tables"},
               {{"--sms", "132"}, 2, "unknown option"},
               {{"/nonexistent/tune.csv"}, 1, "cannot open"},
               {{simt}, 1, "no 'variant' column"},
               {{mixed}, 1, "not a row of one tf32_auto tuner table"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = run(bad[i].args, bad[i].n, out, sizeof out, err, sizeof err);
        CHECK(rc == 2 && one_line(err) && strstr(err, bad[i].says), "refused in one line, exit 2: %.*s",
              (int)strcspn(err, "\n"), err);
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "temporary files removed");
    TEST_EXIT();
}

/* The bad-input battery for everything gemmprof reads (results.csv, results.json,
 * ceilings.csv, a results directory): FIFOs and devices must be refused at once, not
 * block; records and files are capped with an error naming the limit, in bounded memory;
 * impossible numbers are refused with file, line and column; an unreadable directory
 * says "Permission denied". Repros of issue 9, defects 4, 6 and 8. */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/ceilings.h"
#include "analysis/dataset.h"
#include "analysis/meta.h"
#include "analysis/results_csv.h"
#include "tests/test.h"

static char tmp[64];
static const char *current = "setup";   /* what runs now, for the hang message */

/* A reader that blocks (a FIFO with no writer) would hang the suite: fail loudly instead. */
static void on_alarm(int sig)
{
    (void)sig;
    char msg[256];
    int n = snprintf(msg, sizeof msg, "FAIL - %s: still blocked after 5 s (a hang)\n", current);
    if (write(1, msg, (size_t)n) < 0)
        _exit(2);
    _exit(1);
}

static void start(const char *what)
{
    current = what;
    alarm(5);
}

static const char *path_of(const char *dir, const char *name)
{
    static char path[4][256];
    static int slot;
    char *p = path[slot++ % 4];
    snprintf(p, sizeof path[0], "%s/%s%s%s", tmp, dir, *name ? "/" : "", name);
    return p;
}

static const char *put(const char *dir, const char *name, const char *text)
{
    mkdir(path_of(dir, ""), 0755);
    const char *p = path_of(dir, name);
    unlink(p);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return p;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static long maxrss_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

#define HDR "variant,precision,m,n,k,status,error,rel_err,time_min_s,time_median_s,time_max_s,flop_per_s,sm_clock_hz\n"
#define GOOD_ROW "naive,fp32,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n"
#define CEIL_HDR "id,label,unit,measured,theoretical,sm_clock_hz,theory_source,gpu,date\n"
#define GOOD_JSON "{\"schema\": 1, \"gpu\": {\"name\": \"G\", \"sm_clock_max_hz\": 1980000000}}"

static int results_err(const char *text, char *err, size_t len)
{
    struct gp_result *rows = NULL;
    int n = 0;
    err[0] = '\0';
    int rc = results_csv_read(put("csv", "results.csv", text), &rows, &n, err, len);
    free(rows);
    return rc;
}

static int json_err(const char *text, struct gp_meta *m, char *err, size_t len)
{
    meta_init(m);
    err[0] = '\0';
    return meta_read_json(put("json", "results.json", text), m, err, len);
}

static int ceil_err(const char *text, char *err, size_t len)
{
    struct gp_ceilings cs;
    err[0] = '\0';
    return ceilings_read_csv(put("ceil", "ceilings.csv", text), &cs, err, len);
}

/* Defect 4: FIFOs and devices are refused without blocking, in bounded memory. */
static void test_special_files(void)
{
    char err[512];
    struct gp_meta m;
    struct gp_ceilings cs;
    struct gp_dataset ds;

    put("fifo", "results.csv", HDR GOOD_ROW);
    const char *json = path_of("fifo", "results.json"), *ceil = path_of("fifo", "ceilings.csv");
    if (mkfifo(json, 0644) != 0 || mkfifo(ceil, 0644) != 0) {
        SKIP(strerror(errno), "FIFO inputs");
        return;
    }
    double t0 = now_s();
    start("meta_read_json on a FIFO");
    int rc = meta_read_json(json, &m, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "results.json") && strstr(err, "FIFO"), "FIFO results.json refused: %s", err);
    start("ceilings_read_csv on a FIFO");
    rc = ceilings_read_csv(ceil, &cs, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "ceilings.csv") && strstr(err, "FIFO"), "FIFO ceilings.csv refused: %s", err);
    start("dataset_load with FIFO sidecars");
    rc = dataset_load(path_of("fifo", ""), &ds, err, sizeof err);
    CHECK(rc == 0 && strstr(ds.warnings, "results.json unreadable") && strstr(ds.warnings, "ceilings.csv unreadable") &&
              strstr(ds.warnings, "FIFO"),
          "dataset with FIFO results.json and ceilings.csv loads its rows and warns: %s", rc ? err : ds.warnings);
    if (rc == 0)
        dataset_free(&ds);
    unlink(path_of("fifo", "results.csv"));
    if (mkfifo(path_of("fifo", "results.csv"), 0644) == 0) {
        start("dataset_load with a FIFO results.csv");
        rc = dataset_load(path_of("fifo", ""), &ds, err, sizeof err);
        CHECK(rc == -1 && strstr(err, "results.csv") && strstr(err, "FIFO"), "FIFO results.csv refused: %s", err);
    }
    alarm(0);
    double dt = now_s() - t0;
    CHECK(dt < 2, "all FIFO cases returned at once (%.3f s)", dt);

    /* ceilings.csv -> /dev/zero grew to 1.7 GB in 8 s before */
    long rss0 = maxrss_kib();
    const char *z = path_of("zero", "ceilings.csv");
    mkdir(path_of("zero", ""), 0755);
    if (symlink("/dev/zero", z) != 0) {
        SKIP(strerror(errno), "ceilings.csv linked to /dev/zero");
        return;
    }
    t0 = now_s();
    start("ceilings_read_csv on /dev/zero");
    rc = ceilings_read_csv(z, &cs, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "ceilings.csv") && strstr(err, "character device"),
          "ceilings.csv linked to /dev/zero refused: %s", err);
    start("results_csv_read on /dev/zero");
    struct gp_result *rows = NULL;
    int n = 0;
    rc = results_csv_read(z, &rows, &n, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "character device"), "/dev/zero as results.csv refused: %s", err);
    start("meta_read_json on /dev/zero");
    rc = meta_read_json(z, &m, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "character device"), "/dev/zero as results.json refused: %s", err);
    start("a directory as ceilings.csv");
    rc = ceilings_read_csv(path_of("zero", ""), &cs, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "directory"), "a directory as ceilings.csv refused: %s", err);
    alarm(0);
    long grew = maxrss_kib() - rss0;
    CHECK(now_s() - t0 < 2 && grew < 16 * 1024, "device inputs: %.3f s, peak memory grew %ld KiB",
          now_s() - t0, grew);
}

/* Defect 4: a record and a file are capped, with the limit in the error. */
static void test_limits(void)
{
    char err[512];
    long rss0 = maxrss_kib();

    /* the content of /dev/zero in a regular file: NUL bytes and no newline, 8 MiB */
    const char *p = put("lim", "ceilings.csv", "");
    FILE *f = fopen(p, "w");
    for (int i = 0; f && i < 8 * 1024; i++) {
        static const char zeros[1024];
        fwrite(zeros, 1, sizeof zeros, f);
    }
    if (f)
        fclose(f);
    struct gp_ceilings cs;
    start("8 MiB of NUL bytes as ceilings.csv");
    int rc = ceilings_read_csv(p, &cs, err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":1:") && strstr(err, "64 KiB"), "8 MiB without a newline: record limit named: %s", err);

    /* one 100 KiB row after the header */
    size_t len = 100 * 1024;
    char *big = malloc(sizeof HDR + len + 2);
    strcpy(big, HDR);
    memset(big + strlen(HDR), 'a', len);
    strcpy(big + strlen(HDR) + len, "\n");
    start("a 100 KiB line");
    rc = results_err(big, err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2:") && strstr(err, "64 KiB"), "100 KiB line: %s", err);
    /* the same length inside one quoted field, spanning lines */
    big[strlen(HDR)] = '"';
    for (size_t i = 1000; i < len; i += 1000)
        big[strlen(HDR) + i] = '\n';
    rc = results_err(big, err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2:") && strstr(err, "64 KiB"), "100 KiB quoted field over many lines: %s", err);
    free(big);
    alarm(0);
    long grew = maxrss_kib() - rss0;
    CHECK(grew < 16 * 1024, "record limits kept memory bounded (peak grew %ld KiB)", grew);

    /* files over the size limit, made sparse so the test writes nothing */
    const char *csv = put("lim", "results.csv", HDR);
    rc = truncate(csv, 300LL << 20);
    struct gp_result *rows = NULL;
    int n = 0;
    rc = rc == 0 ? results_csv_read(csv, &rows, &n, err, sizeof err) : -2;
    CHECK(rc == -1 && strstr(err, "256 MiB") && strstr(err, "results.csv"), "300 MiB results.csv: %s", err);
    const char *json = put("lim", "results.json", GOOD_JSON);
    struct gp_meta m;
    rc = truncate(json, 2 << 20);
    rc = rc == 0 ? meta_read_json(json, &m, err, sizeof err) : -2;
    CHECK(rc == -1 && strstr(err, "1 MiB"), "2 MiB results.json: %s", err);
}

/* Defect 6: impossible values in results.csv name the file, line and column. */
static void test_results_values(void)
{
    char err[512];
    static const struct { const char *row, *col, *what; } bad[] = {
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,nan,3e-5,2.6e10,1.98e9\n", "time_median_s", "NaN time"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,-5e-4,3e-5,2.6e10,1.98e9\n", "time_median_s", "negative time"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,0,3e-5,2.6e10,1.98e9\n", "time_median_s", "zero time"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,,3e-5,2.6e10,1.98e9\n", "time_median_s", "empty time in a row that ran"},
        {"naive,fp32,64,64,64,verify_failed,,,1e-5,2e-5,3e-5,2.6e10,\n", "rel_err", "empty rel_err in a row that ran"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,,1.98e9\n", "flop_per_s", "empty flop_per_s"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,inf,1.98e9\n", "flop_per_s", "infinite flop/s"},
        {"naive,fp32,64,64,64,ok,,-1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "rel_err", "negative error"},
        {"naive,fp32,-5,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "column m", "size -5"},
        {"naive,fp32,64,3000000000,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "column n", "size over INT_MAX"},
        {"naive,fp32,64,64,,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "column k", "empty size"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1e999\n", "sm_clock_hz", "clock 1e999"},
        {"naive,fp32,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,-1.98e9\n", "sm_clock_hz", "negative clock"},
        {"naive,fp32,64,64,64,ok,,1e-7,4e-5,2e-5,3e-5,2.6e10,1.98e9\n", "time_median_s", "median below min"},
        {"naive,fp64,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "precision", "unknown precision"},
        {",fp32,64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "variant", "empty variant"},
        {"naive,fp32,64,64,64,,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "status", "empty status"},
        {"naive,\"fp\n\x1b[31m64\",64,64,64,ok,,1e-7,1e-5,2e-5,3e-5,2.6e10,1.98e9\n", "\\x0a\\x1b",
         "newline and ESC in a cell"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s%s", HDR, GOOD_ROW, bad[i].row);
        int rc = results_err(text, err, sizeof err);
        CHECK(rc == -1 && strstr(err, "results.csv:3:") && strstr(err, bad[i].col) && !strchr(err, '\n') &&
                  !strchr(err, '\x1b'),
              "results.csv %s refused on one line naming line 3, %s: %s", bad[i].what, bad[i].col, err);
    }
    /* what a real run writes must still load: rows that did not run have no numbers */
    int rc = results_err(HDR GOOD_ROW "tiled,fp32,64,64,64,skipped,too large,,,,,,\n"
                             "cublas,fp32,64,64,64,cuda_error,\"launch, failed\",,,,,,\n",
                         err, sizeof err);
    CHECK(rc == 0, "rows that did not run may leave numbers empty%s%s", rc ? ": " : "", err);
    rc = results_err("variant,precision,m,n,k,status,rel_err,time_median_s,flop_per_s,"
                     "sm__throughput.avg.pct_of_peak_sustained_elapsed\nnaive,fp32,1,2,3,ok,0,1,1,250\n",
                     err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2:") && strstr(err, "sm__throughput"), "a percentage of 250: %s", err);
}

/* Defect 6: results.json and ceilings.csv numbers. */
static void test_sidecar_values(void)
{
    char err[512];
    struct gp_meta m;
    int rc = json_err("{\"schema\": 1,\n \"gpu\": {\"sm_clock_max_hz\": 1e999}}", &m, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "results.json:2:") && strstr(err, "gpu.sm_clock_max_hz") && strstr(err, "1e999"),
          "JSON clock 1e999 refused with line and column: %s", err);
    rc = json_err("{\"schema\": 1, \"gpu\": {\"l2_bytes\": -5}}", &m, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "gpu.l2_bytes"), "JSON size -5 refused: %s", err);
    rc = json_err("{\"schema\": 1, \"run\": {\"reps\": -5}}", &m, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "run.reps"), "JSON reps -5 refused: %s", err);
    rc = json_err("{\"schema\": 1, \"gpu\": {\"sm_clock_measured_hz\": -1.9e9}}", &m, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "sm_clock_measured_hz"), "JSON negative clock refused: %s", err);
    rc = json_err("{\"schema\": 1, \"gpu\": {\"mem_clock_hz\": 0, \"sm_clock_max_hz\": 1980000000}}", &m, err, sizeof err);
    CHECK(rc == 0 && isnan(m.mem_clock_hz) && m.sm_clock_max_hz == 1.98e9,
          "JSON clock 0 (not reported by the driver) reads as unknown%s%s", rc ? ": " : "", err);

    rc = ceil_err(CEIL_HDR "l2,L2,byte/s,1e13,1.2e13,1e999,,G,d\n", err, sizeof err);
    CHECK(rc == -1 && strstr(err, "ceilings.csv:2:") && strstr(err, "sm_clock_hz"), "ceilings clock 1e999: %s", err);
    rc = ceil_err(CEIL_HDR "l2,L2,byte/s,-5,1.2e13,,,G,d\n", err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2:") && strstr(err, "measured"), "ceilings measured -5: %s", err);
    rc = ceil_err(CEIL_HDR "l2,L2,byte/s,1e30,1.2e13,,,G,d\n", err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2:") && strstr(err, "measured"), "ceilings measured 1e30 byte/s: %s", err);
    rc = ceil_err(CEIL_HDR "l2,L2,byte/s,nan,1.2e13,,,G,d\n", err, sizeof err);
    CHECK(rc == -1 && strstr(err, ":2:") && strstr(err, "measured"), "ceilings measured NaN: %s", err);
}

/* Runs dataset_load on dir and checks it names Permission denied, never "has no". */
static void expect_denied(const char *dir, const char *what)
{
    struct gp_dataset ds;
    char err[512] = "";
    int rc = dataset_load(dir, &ds, err, sizeof err);
    CHECK(rc == -1 && strstr(err, dir) && strstr(err, "Permission denied") && !strstr(err, "has no"), "%s: %s",
          what, err);
    if (rc == 0)
        dataset_free(&ds);
}

/* Defect 8: an unreadable results directory says so. As root, where chmod denies
 * nothing, the check runs in a child that drops to the nobody user. */
static void test_unreadable(void)
{
    char locked[256], csv000[256], csv000_dir[256];
    put("locked", "results.csv", HDR GOOD_ROW);
    put("csv000", "results.csv", HDR GOOD_ROW);
    /* copies: path_of's buffers are reused */
    snprintf(locked, sizeof locked, "%s", path_of("locked", ""));
    snprintf(csv000, sizeof csv000, "%s", path_of("csv000", "results.csv"));
    snprintf(csv000_dir, sizeof csv000_dir, "%s", path_of("csv000", ""));
    chmod(locked, 0);
    chmod(csv000, 0);
    if (geteuid() != 0) {
        expect_denied(locked, "chmod 000 results directory");
        expect_denied(csv000_dir, "chmod 000 results.csv");
    } else {
        chmod(tmp, 0755);   /* the child must reach the entries */
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) {
                SKIP("running as root and cannot drop to uid 65534", "unreadable results directory");
                _exit(0);
            }
            printf("note: running as root: these checks run as uid 65534, where chmod 000 denies\n");
            expect_denied(locked, "chmod 000 results directory");
            expect_denied(csv000_dir, "chmod 000 results.csv");
            fflush(stdout);
            _exit(test_failed_count ? 1 : 0);
        }
        int st = 0;
        CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
              "unprivileged child ran the permission checks");
    }
    chmod(locked, 0755);
    chmod(csv000, 0644);
}

/* A large real file still loads: the limits are far above what a run writes. */
static void test_large_file(void)
{
    const char *p = put("large", "results.csv", "");
    FILE *f = fopen(p, "w");
    if (!f || results_csv_write_header(f) != 0) {
        CHECK(0, "write a 100,000-row results.csv");
        if (f)
            fclose(f);
        return;
    }
    struct gp_result r;
    gp_result_init(&r);
    strcpy(r.variant, "naive");
    strcpy(r.precision, "fp32");
    r.rel_err = 1e-7;
    r.time_min_s = 1e-5, r.time_median_s = 2e-5, r.time_max_s = 3e-5;
    r.reps = 10, r.l2_flush = 1;
    for (int i = 0; i < 100000; i++) {
        r.m = 64 + i, r.n = r.k = 64;
        r.flop_per_s = gp_flops_analytic(&r) / r.time_median_s;
        if (results_csv_write_row(f, &r, NULL) != 0)
            break;
    }
    fclose(f);
    struct gp_dataset ds;
    char err[512] = "";
    double t0 = now_s();
    int rc = dataset_load(path_of("large", ""), &ds, err, sizeof err);
    double dt = now_s() - t0;
    CHECK(rc == 0 && ds.nrows == 100000 && ds.rows[99999].m == 64 + 99999,
          "a 100,000-row results.csv loads (%.2f s)%s%s", dt, rc ? ": " : "", err);
    if (rc == 0)
        dataset_free(&ds);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    strcpy(tmp, "/tmp/gp_hostile_XXXXXX");
    if (!mkdtemp(tmp)) {
        CHECK(0, "mkdtemp");
        TEST_EXIT();
    }
    test_special_files();
    test_limits();
    test_results_values();
    test_sidecar_values();
    test_unreadable();
    test_large_file();
    alarm(0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    CHECK(system(cmd) == 0, "clean up");
    TEST_EXIT();
}

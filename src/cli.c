#include "src/cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "analysis/numparse.h"
#include "src/registry.h"

static const char *const default_sizes = "1024,2048,4096,8192";

void cli_usage(FILE *f)
{
    fprintf(f,
            "usage: gemmprof [options]            run, verify, time and profile GEMM variants\n"
            "       gemmprof report DIR [--out F]  write DIR/report.md from a results directory (no GPU)\n"
            "       gemmprof plots DIR             render DIR's charts with gnuplot (no GPU)\n"
            "       gemmprof compare BASE NEW      faster or slower, row by row, and which counters moved\n"
            "       gemmprof tune-check CSV...     tf32_auto's rule, as built, against --tune's measured plans\n"
            "\n"
            "  -k, --variants LIST    variants to run, comma-separated, or 'all' (default: all; see --list)\n"
            "  -s, --sizes LIST       N (square), MxNxK, ranges A:B:xF or A:B:+S, comma-separated\n"
            "                         (default: %s)\n"
            "  -r, --reps N           timed repetitions, median reported (default 10, or as many as\n"
            "                         fit in 0.5 s by the warm-ups' time, at least 3)\n"
            "  -w, --warmups N        untimed warm-up launches (default 2)\n"
            "  -o, --out DIR          results directory (default out)\n"
            "      --seed N           random seed of the inputs (default 1)\n"
            "  -d, --device N         CUDA device index (default 0, or the launcher's local rank\n"
            "                         modulo the visible GPUs under srun/mpirun)\n"
            "      --shard            under srun/mpirun: split the variant x shape rows over the ranks,\n"
            "                         balanced by FLOPs; each rank writes OUT/HOST-GPU_UUID/\n"
            "      --shard-costs CSV  with --shard: balance by the GPU seconds each row took in an earlier\n"
            "                         run's results.csv (the same file for every rank; FLOPs for rows not in it)\n"
            "      --fleet            under srun/mpirun: every rank runs the whole sweep (find the slow GPU)\n"
            "      --no-flush         do not flush the L2 between timed repetitions\n"
            "      --no-counters      timing only, no CUPTI hardware counters\n"
            "  -m, --metrics LIST     counters to collect by ncu name: any the GPU's counter library knows, checked\n"
            "                         before the sweep (default: the default set, see --list-metrics)\n"
            "      --stalls           add the warp-stall reasons of ncu's WarpStateStats (more replay passes)\n"
            "      --no-ceilings      do not measure or load the machine ceilings\n"
            "      --remeasure-ceilings  measure the ceilings again instead of reusing the cached ones\n"
            "      --no-report        do not write report.md and the charts at the end\n"
            "      --dump-npy         write A, B and C of each run as .npy into DIR/npy/ (for numpy checks)\n"
            "      --trace            write a Perfetto timeline DIR/trace.json from CUPTI activity\n"
            "      --format F         the results table on stdout as table (default), csv, json or md;\n"
            "                         progress and warnings always go to stderr\n"
            "      --no-launch-facts  no CUPTI capture around the verify launches (grid, block, occupancy)\n"
            "      --tune MxNxK       run, verify and time every tile configuration and split-K of\n"
            "                         simt_auto at one shape, simt_auto's pick marked; also DIR/tune.csv;\n"
            "                         with -k tf32_auto, tf32_auto's plans instead\n"
            "      --list             list the variants\n"
            "      --list-metrics     list the metrics gemmprof knows\n"
            "  -h, --help             this help\n"
            "  -V, --version          version\n"
            "\nExit status: 0 all verified, 1 a verification or CUDA failure (rows so far kept),\n"
            "2 bad arguments (also: --out not a directory or busy with another run, --device\n"
            "beyond the GPUs, a size memory cannot hold), 3 no CUDA device, 130/143 stopped by\n"
            "SIGINT/SIGTERM (whole rows so far kept). report, plots and compare print their own\n"
            "options and exit statuses with --help.\n",
            default_sizes);
}

/* Parses a whole decimal size; "", "abc", "12x", "-3", " 5", "+5" and "0" are errors. */
static int parse_size(const char *s, const char *spec, long *out, char *err, size_t errlen)
{
    unsigned long long v;
    if (!*s || s[strspn(s, "0123456789")]) {
        snprintf(err, errlen, "bad size '%s' in '%s': sizes are positive integers", s, spec);
        return -1;
    }
    if (parse_ull(s, INT_MAX, &v)) {   /* digits only: the range is what failed */
        snprintf(err, errlen, "size %s in '%s' is too large (at most %d)", s, spec, INT_MAX);
        return -1;
    }
    if (v < 1) {
        snprintf(err, errlen, "size 0 in '%s': sizes must be >= 1", spec);
        return -1;
    }
    *out = (long)v;
    return 0;
}

static int add_shape(struct shape *shapes, int *n, int max, long m, long nn, long k,
                     const char *spec, char *err, size_t errlen)
{
    if (*n >= max) {
        snprintf(err, errlen, "too many sizes in '%s' (at most %d)", spec, max);
        return -1;
    }
    shapes[*n] = (struct shape){m, nn, k};
    struct shape *s = &shapes[*n];
    if (shape_bytes(s) < 0) {
        snprintf(err, errlen, "size %ldx%ldx%ld in '%s': buffers overflow 64-bit byte counts",
                 m, nn, k, spec);
        return -1;
    }
    /* the kernels index each matrix with 32-bit integers, and the host work (inputs,
     * comparison) grows with M*N: a matrix of more elements is refused up front */
    const struct { const char *name; double elems; } mats[] = {
        {"A (MxK)", (double)m * k}, {"B (KxN)", (double)k * nn}, {"C (MxN)", (double)m * nn}};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i].elems > (double)CLI_MAX_MATRIX_ELEMS) {
            snprintf(err, errlen, "size %ldx%ldx%ld in '%s': %s would have %.0f elements, more than the "
                                  "%ld the kernels can index (32-bit)", m, nn, k, spec, mats[i].name,
                     mats[i].elems, (long)CLI_MAX_MATRIX_ELEMS);
            return -1;
        }
    (*n)++;
    return 0;
}

static int parse_range(char *tok, const char *spec, struct shape *shapes, int *n, int max,
                       char *err, size_t errlen)
{
    char *c1 = strchr(tok, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    long lo, hi, step;
    if (!c2) {
        snprintf(err, errlen, "bad range '%s': use A:B:xF or A:B:+S", tok);
        return -1;
    }
    *c1 = *c2 = '\0';
    char op = c2[1];
    if (parse_size(tok, spec, &lo, err, errlen) || parse_size(c1 + 1, spec, &hi, err, errlen))
        return -1;
    if ((op != 'x' && op != '+') || parse_size(c2 + 2, spec, &step, err, errlen)) {
        snprintf(err, errlen, "bad range step '%s' in '%s': use xF (factor >= 2) or +S", c2 + 1, spec);
        return -1;
    }
    if (lo > hi) {
        snprintf(err, errlen, "bad range in '%s': start %ld is above end %ld", spec, lo, hi);
        return -1;
    }
    if (op == 'x' && step < 2) {
        snprintf(err, errlen, "bad range in '%s': factor must be >= 2", spec);
        return -1;
    }
    for (long v = lo; v <= hi; v = op == 'x' ? v * step : v + step)
        if (add_shape(shapes, n, max, v, v, v, spec, err, errlen))
            return -1;
    return 0;
}

int cli_parse_sizes(const char *spec, struct shape *shapes, int *nshapes, int max, char *err,
                    size_t errlen)
{
    char buf[1024];
    if (strlen(spec) >= sizeof buf) {
        snprintf(err, errlen, "size list too long");
        return -1;
    }
    strcpy(buf, spec);
    int before = *nshapes;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strchr(tok, ':')) {
            if (parse_range(tok, spec, shapes, nshapes, max, err, errlen))
                return -1;
            continue;
        }
        char *x1 = strchr(tok, 'x');
        if (!x1) {
            long v;
            if (parse_size(tok, spec, &v, err, errlen) ||
                add_shape(shapes, nshapes, max, v, v, v, spec, err, errlen))
                return -1;
            continue;
        }
        char *x2 = strchr(x1 + 1, 'x');
        if (!x2 || strchr(x2 + 1, 'x')) {
            snprintf(err, errlen, "bad size '%s': use N or MxNxK", tok);
            return -1;
        }
        *x1 = *x2 = '\0';
        long m, n, k;
        if (parse_size(tok, spec, &m, err, errlen) || parse_size(x1 + 1, spec, &n, err, errlen) ||
            parse_size(x2 + 1, spec, &k, err, errlen) ||
            add_shape(shapes, nshapes, max, m, n, k, spec, err, errlen))
            return -1;
    }
    if (*nshapes == before) {
        snprintf(err, errlen, "empty size list '%s'", spec);
        return -1;
    }
    return 0;
}

long long shape_bytes(const struct shape *s)
{
    long long ab, bb, cb, sum;
    if (__builtin_mul_overflow((long long)s->m, (long long)s->k, &ab) ||
        __builtin_mul_overflow(ab, 4LL, &ab) ||
        __builtin_mul_overflow((long long)s->k, (long long)s->n, &bb) ||
        __builtin_mul_overflow(bb, 4LL, &bb) ||
        __builtin_mul_overflow((long long)s->m, (long long)s->n, &cb) ||
        __builtin_mul_overflow(cb, 4LL, &cb) || __builtin_add_overflow(ab, bb, &sum) ||
        __builtin_add_overflow(sum, cb, &sum))
        return -1;
    return sum;
}

static int parse_count(const char *opt, const char *s, int lo, int hi, int *out, char *err,
                       size_t errlen)
{
    long long v;
    if (parse_ll(s, lo, hi, &v)) {
        snprintf(err, errlen, "%s: '%s' is not an integer in %d..%d", opt, s, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_metrics(const char *list, struct cli_options *o, char *err, size_t errlen)
{
    char buf[4096];
    if (strlen(list) >= sizeof buf) {
        snprintf(err, errlen, "metric list too long");
        return -1;
    }
    strcpy(buf, list);
    o->nmetrics = 0;
    gp_extra_reset();   /* a later -m replaces the list */
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        /* a name outside the table is an extra metric, checked against the chip before
         * the sweep (harness); here only its shape */
        int id = gp_extra_add(tok);
        if (id < 0) {
            if (gp_metric_name_ok(tok))
                snprintf(err, errlen, "metric '%s': more than %d metrics outside gemmprof's table", tok, GP_EXTRA_MAX);
            else
                snprintf(err, errlen, "unknown metric '%s': not an ncu metric name such as l1tex__t_sectors.sum "
                         "(gemmprof --list-metrics shows its table)", tok);
            return -1;
        }
        o->nmetrics = index_list_add(o->metrics, o->nmetrics, CLI_MAX_METRICS, id);
    }
    if (!o->nmetrics) {
        snprintf(err, errlen, "empty metric list");
        return -1;
    }
    return 0;
}

/* The option getopt stopped at: a long one is the word itself (up to '='); a short one
 * is optopt, since inside a cluster ("-zh") optind has not moved past its word yet. */
static const char *option_name(char **argv, int opt, char *buf, size_t len)
{
    const char *word = optind > 0 ? argv[optind - 1] : "";
    if (strncmp(word, "--", 2) == 0)
        snprintf(buf, len, "%.*s", (int)strcspn(word, "="), word);
    else
        snprintf(buf, len, "-%c", opt > 32 && opt < 127 ? opt : '?');
    return buf;
}

enum { OPT_SEED = 256, OPT_NO_FLUSH, OPT_NO_COUNTERS, OPT_NO_CEILINGS, OPT_REMEASURE,
       OPT_NO_REPORT, OPT_DUMP_NPY, OPT_TRACE, OPT_LIST, OPT_LIST_METRICS, OPT_STALLS, OPT_FORMAT, OPT_NO_LAUNCH_FACTS,
       OPT_SHARD, OPT_FLEET, OPT_TUNE, OPT_SHARD_COSTS };

/* --stalls: every stall-reason ratio of metrics.def joins the metric list. They cost
 * replay passes (on GH100 the counter phase goes from 4 passes to 9), so not by default. */
static int add_stall_metrics(struct cli_options *o, char *err, size_t errlen)
{
    if (!o->counters) {
        snprintf(err, errlen, "--stalls: the stall reasons are counters, which --no-counters turns off");
        return -1;
    }
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (strstr(gp_metrics[i].name, "__average_warps_issue_stalled_"))
            o->nmetrics = index_list_add(o->metrics, o->nmetrics, CLI_MAX_METRICS, i);
    return 0;
}

/* --tune SHAPE: one shape, one auto variant's plans (simt_auto unless -k names
 * tf32_auto), timing only (no counters, ceilings or report: the tuner compares plans with
 * each other). -s does not apply. */
static int tune_options(const char *shape, const char *sizes, const char *variants, struct cli_options *o,
                        char *err, size_t errlen)
{
    if (sizes) {
        snprintf(err, errlen, "--tune %s: the tuner takes its one shape; drop -s/--sizes", shape);
        return -1;
    }
    if (strcmp(variants, "all") == 0)
        variants = "simt_auto";
    if (strcmp(variants, "simt_auto") != 0 && strcmp(variants, "tf32_auto") != 0) {
        snprintf(err, errlen, "--tune %s: -k '%s': the tuner times the plans of simt_auto or tf32_auto, one of them",
                 shape, variants);
        return -1;
    }
    if (cli_parse_sizes(shape, o->shapes, &o->nshapes, CLI_MAX_SHAPES, err, errlen))
        return -1;
    if (o->nshapes != 1) {
        snprintf(err, errlen, "--tune '%s': one shape (N or MxNxK), not %d", shape, o->nshapes);
        return -1;
    }
    int n = registry_parse_list(variants, o->variants, CLI_MAX_VARIANTS, err, errlen);
    if (n < 0)
        return -1;
    o->nvariants = n;
    o->tune = strcmp(variants, "tf32_auto") == 0 ? CLI_TUNE_TF32 : CLI_TUNE_SIMT;
    o->counters = o->ceilings = o->report = o->launch_facts = 0;
    return 0;
}

int cli_parse(int argc, char **argv, struct cli_options *o, char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"variants", required_argument, 0, 'k'},   {"sizes", required_argument, 0, 's'},
        {"reps", required_argument, 0, 'r'},       {"warmups", required_argument, 0, 'w'},
        {"out", required_argument, 0, 'o'},        {"seed", required_argument, 0, OPT_SEED},
        {"device", required_argument, 0, 'd'},     {"no-flush", no_argument, 0, OPT_NO_FLUSH},
        {"no-counters", no_argument, 0, OPT_NO_COUNTERS},
        {"metrics", required_argument, 0, 'm'},    {"no-ceilings", no_argument, 0, OPT_NO_CEILINGS},
        {"remeasure-ceilings", no_argument, 0, OPT_REMEASURE},
        {"no-report", no_argument, 0, OPT_NO_REPORT},
        {"dump-npy", no_argument, 0, OPT_DUMP_NPY}, {"trace", no_argument, 0, OPT_TRACE},
        {"list", no_argument, 0, OPT_LIST},        {"list-metrics", no_argument, 0, OPT_LIST_METRICS},
        {"format", required_argument, 0, OPT_FORMAT},
        {"no-launch-facts", no_argument, 0, OPT_NO_LAUNCH_FACTS},
        {"stalls", no_argument, 0, OPT_STALLS},
        {"shard", no_argument, 0, OPT_SHARD},     {"fleet", no_argument, 0, OPT_FLEET},
        {"tune", required_argument, 0, OPT_TUNE},
        {"shard-costs", required_argument, 0, OPT_SHARD_COSTS},
        {"help", no_argument, 0, 'h'},             {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0}};
    const char *sizes = NULL, *variants = "all", *tune = NULL;
    char buf[128];
    int stalls = 0;

    memset(o, 0, sizeof *o);
    gp_extra_reset();
    o->action = CLI_RUN;
    o->reps = 10;
    o->warmups = 2;
    o->l2_flush = 1;
    o->counters = 1;
    o->seed = 1;
    o->out_dir = "out";
    o->ceilings = 1;
    o->report = 1;
    o->launch_facts = 1;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (gp_metrics[i].in_default)
            o->metrics[o->nmetrics++] = i;

    optind = 0;   /* 0, not 1: glibc then resets its state from an earlier failed cluster ("-zh") */
    opterr = 0;   /* we print our own one-line errors */
    int c;
    while ((c = getopt_long(argc, argv, ":k:s:r:w:o:d:m:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': variants = optarg; break;
        case 's': sizes = optarg; break;
        case 'r': if (parse_count("--reps", optarg, 1, 100000, &o->reps, err, errlen)) return -1; o->reps_given = 1; break;
        case 'w': if (parse_count("--warmups", optarg, 0, 100000, &o->warmups, err, errlen)) return -1; break;
        case 'o':
            if (!*optarg) {
                snprintf(err, errlen, "--out: empty directory name");
                return -1;
            }
            o->out_dir = optarg;
            break;
        case 'd':
            if (parse_count("--device", optarg, 0, 1024, &o->device, err, errlen))
                return -1;
            o->device_given = 1;
            break;
        case OPT_SHARD:
        case OPT_FLEET: {
            enum rank_mode m = c == OPT_SHARD ? RANK_SHARD : RANK_FLEET;
            if (o->mode != RANK_SINGLE && o->mode != m) {
                snprintf(err, errlen, "--shard and --fleet exclude each other: pick one");
                return -1;
            }
            o->mode = m;
            break;
        }
        case 'm': if (parse_metrics(optarg, o, err, errlen)) return -1; break;
        case OPT_SEED: {
            if (parse_ull(optarg, ULLONG_MAX, &o->seed)) {
                snprintf(err, errlen, "--seed: '%s' is not a non-negative integer", optarg);
                return -1;
            }
            break;
        }
        case OPT_NO_FLUSH: o->l2_flush = 0; break;
        case OPT_NO_COUNTERS: o->counters = 0; break;
        case OPT_NO_CEILINGS: o->ceilings = 0; break;
        case OPT_REMEASURE: o->force_ceilings = 1; break;
        case OPT_NO_REPORT: o->report = 0; break;
        case OPT_DUMP_NPY: o->dump_npy = 1; break;
        case OPT_TRACE: o->trace = 1; break;
        case OPT_STALLS: stalls = 1; break;
        case OPT_LIST: o->action = CLI_LIST; break;
        case OPT_LIST_METRICS: o->action = CLI_LIST_METRICS; break;
        case OPT_NO_LAUNCH_FACTS: o->launch_facts = 0; break;
        case OPT_TUNE: tune = optarg; break;
        case OPT_SHARD_COSTS:
            if (!*optarg) {
                snprintf(err, errlen, "--shard-costs: empty file name");
                return -1;
            }
            o->shard_costs = optarg;
            break;
        case OPT_FORMAT: {
            static const char *const names[] = {"table", "csv", "json", "md"};
            int found = -1;
            for (int i = 0; i < 4; i++)
                if (strcmp(optarg, names[i]) == 0)
                    found = i;
            if (found < 0) {
                snprintf(err, errlen, "--format: '%s' is not one of table, csv, json, md", optarg);
                return -1;
            }
            o->format = (enum cli_format)found;
            break;
        }
        case 'h': o->action = CLI_HELP; break;
        case 'V': o->action = CLI_VERSION; break;
        case ':':
            snprintf(err, errlen, "option %s needs a value", option_name(argv, optopt, buf, sizeof buf));
            return -1;
        default:
            snprintf(err, errlen, "unknown option '%s' (gemmprof --help lists them)",
                     option_name(argv, optopt, buf, sizeof buf));
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s' (gemmprof --help)", argv[optind]);
        return -1;
    }
    /* after the loop, so --stalls adds to a --metrics list given after it too */
    if (stalls && add_stall_metrics(o, err, errlen))
        return -1;
    if (o->shard_costs && o->mode != RANK_SHARD) {
        snprintf(err, errlen, "--shard-costs balances a --shard run: give --shard too");
        return -1;
    }
    if (tune)
        return tune_options(tune, sizes, variants, o, err, errlen);
    int n = registry_parse_list(variants, o->variants, CLI_MAX_VARIANTS, err, errlen);
    if (n < 0)
        return -1;
    o->nvariants = n;
    if (cli_parse_sizes(sizes ? sizes : default_sizes, o->shapes, &o->nshapes, CLI_MAX_SHAPES,
                        err, errlen))
        return -1;
    return 0;
}

/* gemmprof: run, verify, time and profile GEMM variants; render reports and charts.
 *   gemmprof [options]          the sweep (see --help)
 *   gemmprof report DIR         report.md from a results directory, no GPU needed
 *   gemmprof plots DIR          the charts of a results directory, no GPU needed
 *   gemmprof merge OUT DIR...   one dataset from the rank directories of a multi-GPU run
 *   gemmprof tune-check CSV...  tf32_auto's rule against the tuner's measured plans */
#include <stdio.h>
#include <string.h>

#include "analysis/message.h"
#include "analysis/metrics.h"
#include "analysis/version.h"
#include "cupti/trace.h"
#include "src/cli.h"
#include "src/cmd.h"
#include "src/harness.h"
#include "src/registry.h"

static void list_variants(void)
{
    printf("%-14s %-5s %s\n", "variant", "prec", "description");
    for (int i = 0; i < registry_count(); i++) {
        const struct gemm_variant *v = registry_variant(i);
        printf("%-14s %-5s %s\n", v->name, gp_precision_name(v->precision), v->desc);
    }
}

static void list_metrics(void)
{
    /* combine: how a call's several kernels add up in a per-kernel tool's values (ncu's),
     * read by tests/gpu/ncu_compare.py */
    printf("%-74s %-7s %-7s %-11s %s\n", "metric (ncu name)", "default", "combine", "unit", "what it counts");
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        printf("%-74s %-7s %-7s %-11s %s\n", gp_metrics[i].name, gp_metrics[i].in_default ? "yes" : "no",
               gp_aggregate_name(gp_metrics[i].agg), gp_metrics[i].unit, gp_metrics[i].description);
}

int main(int argc, char **argv)
{
    struct cli_options opts;
    char err[1024];

    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return report_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "compare") == 0)
        return compare_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "plots") == 0)
        return plots_cli(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return merge_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "tune-check") == 0)
        return tune_check_main(argc - 1, argv + 1);

    if (cli_parse(argc, argv, &opts, err, sizeof err)) {
        gp_message("%s", err);
        return EXIT_USAGE;
    }
    switch (opts.action) {
    case CLI_HELP: cli_usage(stdout); return EXIT_OK;
    case CLI_VERSION: printf("gemmprof %s\n", GP_VERSION_STRING); return EXIT_OK;
    case CLI_LIST: list_variants(); return EXIT_OK;
    case CLI_LIST_METRICS: list_metrics(); return EXIT_OK;
    case CLI_RUN: break;
    }
    if (opts.trace)
        trace_prepare();   /* before the first NVTX call, so NVTX reaches CUPTI */
    return harness_run(&opts, argc, argv);   /* ends with the report of what it measured */
}

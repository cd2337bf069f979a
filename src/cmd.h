/* The verbs of the command line beside the sweep. Each parses its arguments (argv[0] is
 * the verb) and calls the library function that does the work, the one the sweep and the
 * tests call directly; each returns the exit status, with errors one line on stderr.
 * Host-only: linked into the host tests. */
#ifndef GEMMPROF_SRC_CMD_H
#define GEMMPROF_SRC_CMD_H

/* gemmprof report DIR [--out FILE_OR_DIR] [--no-plots] [--max-shape-charts N]
 * [--ceilings-any-gpu] [--measured-here], or DIR --summary|--causes: report_render
 * (analysis/report.h), which prints the report's path on stdout; --summary and --causes
 * print summary_main's block instead. --measured-here drops the "recorded elsewhere"
 * note. 0; 1 for a data or output error, or when a chart failed (the report is still
 * written, naming it); 2 for a usage error. */
int report_main(int argc, char **argv);

/* gemmprof plots DIR [--max-shape-charts N]: plots_render_ex (analysis/plots.h). Prints
 * what was rendered, what failed and which shapes were left out; 0, 1 when a chart failed
 * or the data could not be read, 2 for a usage error. */
int plots_cli(int argc, char **argv);

/* gemmprof merge OUT DIR... [--allow-mixed] [--force]: merge_run (analysis/merge.h).
 * A MERGE_EXIT_* status; the merged directory's path and what was merged on stdout. */
int merge_main(int argc, char **argv);

/* gemmprof compare BASE NEW [--out FILE] [--threshold PCT]: compare_dirs
 * (analysis/compare.h). The Markdown on stdout (and in FILE with --out). 0 no row slower,
 * 1 at least one row slower beyond the noise, 2 bad arguments or an unreadable results
 * directory. */
int compare_main(int argc, char **argv);

/* gemmprof tune-check TUNE_CSV...: tf32_auto's rule as built against tables of `gemmprof
 * --tune MxNxK -k tf32_auto` (src/cmd_tune_check.c). Per table the pick and its share of
 * the best measured plan on stdout. 0 every pick within 5% of the best, 1 one is not, 2 bad
 * arguments or an unreadable table. */
int tune_check_main(int argc, char **argv);

#endif

/* The charts (analysis/plots.c and the plots/ scripts) rendered from the recorded test dataset
 * tests/data/h200_crafted, without a GPU: every chart comes out as a valid, non-empty
 * PNG and SVG with gnuplot silent; each bad input fails with a clear message and leaves
 * no half-written chart. Needs gnuplot (apt-get install gnuplot-nox); the rendering
 * checks are skipped, with that reason, where it is missing. Run from the repository root. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/dataset.h"
#include "analysis/plausible.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "src/cmd.h"
#include "tests/test.h"

static char tmpdir[256];

/* The charts of plots/charts.def that draw from the data kinds in `kinds` (bits
 * 1 << PLOTS_DATA_*): what a dataset holding those kinds renders, so that a chart added
 * there is expected here without an edit. */
#define DATA(kind) (1u << (kind))
static int charts_for(unsigned kinds)
{
    int n = 0;
    for (int i = 0; i < PLOTS_CHART_KINDS; i++)
        n += (kinds & DATA(plots_charts[i].data)) != 0;
    return n;
}
/* one GPU's rows with counters (h200_crafted): no stall or instruction counters */
#define COUNTED charts_for(DATA(PLOTS_DATA_DRAM) | DATA(PLOTS_DATA_SHAPES) | DATA(PLOTS_DATA_SHAPE) | DATA(PLOTS_DATA_SWEEP))
/* with stall and instruction counters too (insight_crafted) */
#define INSIGHT charts_for(DATA(PLOTS_DATA_DRAM) | DATA(PLOTS_DATA_SHAPES) | DATA(PLOTS_DATA_SHAPE) | \
                           DATA(PLOTS_DATA_SWEEP) | DATA(PLOTS_DATA_STALLS) | DATA(PLOTS_DATA_ISSUE))
/* times only */
#define UNCOUNTED charts_for(DATA(PLOTS_DATA_SWEEP))

static void path_in(char *out, size_t len, const char *dir, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* PNG: the 8-byte signature, then an IHDR chunk with a non-zero width and height. */
static int png_valid(const char *path, unsigned *w, unsigned *h)
{
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n < 24 || memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0)
        return 0;
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    return *w > 0 && *h > 0;
}

/* SVG: an <svg element, a closing </svg>, and some drawing in between. */
static int svg_valid(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 1000 && strstr(buf, "<svg") && strstr(buf, "</svg>") && strstr(buf, "<path");
}

/* The whole file as a string (malloc'd), or NULL. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
    size_t n = buf ? fread(buf, 1, (size_t)len, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Whether the whole file holds `needle` (charts run past 64 kB). */
static int file_contains(const char *path, const char *needle)
{
    char *buf = read_all(path);
    int found = buf && strstr(buf, needle) != NULL;
    free(buf);
    return found;
}

/* Loads a dataset of tests/data, failing the check (and returning -1) when it cannot. */
static int load(const char *dir, struct gp_dataset *ds)
{
    char err[2048];
    int rc = dataset_load(dir, ds, err, sizeof err);
    if (rc)
        CHECK(0, "load %s: %s", dir, err);
    return rc;
}

/* Finds the line of `path` starting with `prefix` and parses the two numbers after it. */
static int line_numbers(const char *path, const char *prefix, double *a, double *b)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            char *end;
            *a = strtod(line + strlen(prefix), &end);
            found = *end == ',' && (*b = strtod(end + 1, &end), *end == ',');
        }
    if (f)
        fclose(f);
    return found;
}

/* Count of entries in dir whose name contains `part`. */
static void test_render_dataset(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    int rc = dataset_load("tests/data/h200_crafted", &ds, err, sizeof err);
    CHECK(rc == 0, "load the recorded dataset tests/data/h200_crafted: %s", rc ? err : "ok");
    if (rc)
        return;
    CHECK(ds.nrows == 20 && ds.have_ceilings, "dataset has 20 rows and ceilings (%d rows)", ds.nrows);

    path_in(out, sizeof out, tmpdir, "render");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    CHECK(n == COUNTED, "plots_render draws %d charts, gnuplot silent (got %d: %s)", COUNTED, n, err);
    /* every chart of the registry: drawn, or skipped with a note naming it and why */
    for (int i = 0; i < PLOTS_CHART_KINDS; i++) {
        const char *name = plots_charts[i].name;
        char note[200];
        snprintf(note, sizeof note, "%s: skipped, no row has", name);
        int skipped = strstr(err, note) != NULL;
        int want_skip = plots_charts[i].data == PLOTS_DATA_STALLS || plots_charts[i].data == PLOTS_DATA_ISSUE;
        unsigned w = 0, h = 0;
        snprintf(path, sizeof path, "%s/%s.png", out, name);
        int png = png_valid(path, &w, &h) && file_size(path) > 10000;
        snprintf(path, sizeof path, "%s/%s.svg", out, name);
        int svg = svg_valid(path);
        if (plots_charts[i].data == PLOTS_DATA_FLEET) {
            CHECK(!png && !svg && !strstr(err, name), "registry chart %s: one GPU, not drawn and not noted", name);
            continue;
        }
        if (plots_charts[i].data == PLOTS_DATA_FAMILIES) {   /* 4 variants: one chart holds them */
            snprintf(path, sizeof path, "%s/%s_fp32_simt.png", out, name);
            CHECK(file_size(path) < 0 && !strstr(err, name), "registry chart %s: 4 variants, not drawn and not noted",
                  name);
            continue;
        }
        CHECK(want_skip ? skipped && !png && !svg : png && svg && !skipped,
              "registry chart %s: %s (png %d, svg %d, note %d)", name,
              want_skip ? "skipped with a note, this data has no counters for it" : "valid PNG and SVG", png, svg,
              skipped);
    }
    CHECK(count_files_named(out, "tmp") == 0, "no temporary files left in the output directory");

    /* the plot inputs: by-name columns, one row per kernel and level with data */
    path_in(path, sizeof path, out, "roofline_points.csv");
    CHECK(file_contains(path, "variant,variant_index,family,precision,m,n,k,shape,level,bytes,ai_flop_per_byte,"
                              "flop_per_s,attainable_flop_per_s,bound\n"),
          "roofline_points.csv header");
    double a = 0, b = 0;
    CHECK(line_numbers(path, "naive,1,FP32 SIMT,fp32,2048,2048,2048,2048x2048x2048,l1,", &a, &b) &&
              fabs(a - 42966271456.) < 1e3 && fabs(b - 0.399845474) < 1e-8,
          "naive at 2048: L1 bytes 43 GB, AI 0.40 FLOP/byte (%g, %g)", a, b);
    CHECK(!file_contains(path, ",512x512x512,"), "rows without counters give no roofline points");
    path_in(path, sizeof path, out, "roofline_roofs.csv");
    CHECK(line_numbers(path, "ridge,dram/fp32_fma,dram,measured,DRAM / FP32 FMA,", &a, &b) && a == 60.1e12 &&
              fabs(b - 15.1767677) < 1e-6,
          "ridge of DRAM 3.96 TB/s and FP32 60.1 TFLOP/s at 15.18 FLOP/byte (%g, %g)", a, b);
    CHECK(!file_contains(path, "memory,l2,l2,theoretical"), "an unknown ceiling is left out, not guessed");
    path_in(path, sizeof path, out, "sweep.csv");
    CHECK(line_numbers(path, "cublas_tf32,4,cuBLAS,tf32,8192,8192,8192,8192x8192x8192,", &a, &b) && a == 8192 &&
              fabs(b / 420e12 - 1) < 1e-6,
          "sweep.csv: cuBLAS TF32 at 8192 = 420 TFLOP/s (%g, %g)", a, b);
    CHECK(!file_contains(path, "naive,fp32,8192"), "sweep.csv leaves out the skipped row");

    /* an implausible row (DRAM bytes x1000: 5x the DRAM ceiling) is left off the charts */
    for (int i = 0; i < ds.nrows; i++)
        if (strcmp(ds.rows[i].variant, "naive") == 0 && ds.rows[i].m == 2048)
            ds.rows[i].metric[GP_M_dram_read] *= 1000;
    char perr[256];
    int prc = plausible_check(&ds, perr, sizeof perr);
    char bad[512];
    path_in(bad, sizeof bad, tmpdir, "implausible");
    int nb = plots_render(&ds, bad, NULL, err, sizeof err);
    path_in(path, sizeof path, bad, "roofline_points.csv");
    CHECK(prc == 0 && ds.n_implausible_rows == 1 && nb == COUNTED && file_contains(path, ",2048x2048x2048,") &&
              !file_contains(path, "naive,1,fp32,2048,"),
          "an implausible row (naive 2048, DRAM bytes x1000) has no roofline point; the others keep theirs");
    dataset_free(&ds);
    rc = dataset_load("tests/data/h200_crafted", &ds, err, sizeof err);

    /* re-render over existing charts: replaced in place, still valid */
    n = plots_render(&ds, out, NULL, err, sizeof err);
    unsigned w, h;
    path_in(path, sizeof path, out, "sweep.png");
    CHECK(n == COUNTED && png_valid(path, &w, &h), "re-render into the same directory (got %d)", n);

    /* a directory without counters: only the sweep, with a note naming what was skipped */
    for (int i = 0; i < ds.nrows; i++)
        for (int m = 0; m < GP_METRIC_COUNT; m++)
            ds.rows[i].metric[m] = NAN;
    path_in(out, sizeof out, tmpdir, "nocounters");
    n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "sweep.png");
    char dram[600];
    path_in(dram, sizeof dram, out, "roofline_dram.png");
    CHECK(n == UNCOUNTED && png_valid(path, &w, &h) && file_size(dram) < 0 && strstr(err, "roofline_dram: skipped"),
          "no counters: sweep only, roofline skipped with a note (got %d: %s)", n, err);

    /* no ceilings file: points without roofs still render */
    dataset_free(&ds);
    rc = dataset_load("tests/data/h200_crafted", &ds, err, sizeof err);
    ds.have_ceilings = 0;
    path_in(out, sizeof out, tmpdir, "noceilings");
    n = plots_render(&ds, out, NULL, err, sizeof err);
    CHECK(rc == 0 && n == COUNTED, "no ceilings: all %d charts still render, without roofs (got %d: %s)", COUNTED, n,
          err);
    dataset_free(&ds);
}

/* A dataset filled in C: one variant, two shapes, no counters, no metadata. */
static void test_render_minimal(void)
{
    struct gp_dataset ds;
    memset(&ds, 0, sizeof ds);
    meta_init(&ds.meta);
    ceilings_init(&ds.ceilings);
    struct gp_result rows[2];
    for (int i = 0; i < 2; i++) {
        gp_result_init(&rows[i]);
        strcpy(rows[i].variant, "solo");
        strcpy(rows[i].precision, "fp32");
        rows[i].m = rows[i].n = rows[i].k = 1000 * (i + 1);
        rows[i].k = 300;   /* non-square: plotted at the cube root of M N K */
        rows[i].status = GP_STATUS_OK;
        rows[i].time_median_s = 1e-3 * (i + 1);
    }
    ds.rows = rows;
    ds.nrows = 2;
    char err[2048], out[512], path[600];
    path_in(out, sizeof out, tmpdir, "minimal");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    unsigned w, h;
    path_in(path, sizeof path, out, "sweep.png");
    CHECK(n == UNCOUNTED && png_valid(path, &w, &h), "hand-filled dataset, non-square shapes: sweep renders (%d: %s)",
          n, err);
    path_in(path, sizeof path, out, "sweep.svg");
    CHECK(file_contains(path, "unknown GPU"), "title says the GPU is unknown when no metadata names it");

    /* two sizes 1% apart (1000x1500x700 plots at 1016, 1024^3 at 1024): one tic, not "10164" */
    rows[0].m = 1000, rows[0].n = 1500, rows[0].k = 700;
    rows[1].m = rows[1].n = rows[1].k = 1024;
    path_in(out, sizeof out, tmpdir, "ticks");
    n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "sweep.svg");
    CHECK(n == UNCOUNTED && file_contains(path, "<text>1016</text>") && !file_contains(path, "<text>1024</text>"),
          "sizes 1016 and 1024: one tic label, so the two cannot overprint (%d: %s)", n, err);
}

/* Each script run directly on bad CSVs: a message naming file, line and column; no output. */
static void script_error(const char *script, const char *name, const char *text, const char *want)
{
    char csv[600], outbase[600], cmd[2048], msg[4096] = "";
    path_in(csv, sizeof csv, tmpdir, name);
    if (text) {
        FILE *f = fopen(csv, "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    }
    snprintf(outbase, sizeof outbase, "%s/bad_%s", tmpdir, name);
    /* every script takes the same arguments (plots/charts.def) */
    snprintf(cmd, sizeof cmd, "gnuplot -c plots/%s '%s' none '%s' T png 2>&1", script, csv, outbase);
    FILE *p = popen(cmd, "r");
    size_t used = 0;
    if (p) {
        used = fread(msg, 1, sizeof msg - 1, p);
        msg[used] = '\0';
        int st = pclose(p);
        char png[700];
        snprintf(png, sizeof png, "%s.png", outbase);
        char *nl;
        while ((nl = strchr(msg, '\n')))
            *nl = ' ';
        CHECK(st != 0 && strstr(msg, want) && file_size(png) < 0, "%s on %s: fails with '%s' (%s)", script,
              name, want, msg);
    } else {
        CHECK(0, "popen gnuplot");
    }
}

#define PTS_HDR "variant,variant_index,precision,m,n,k,shape,level,bytes,ai_flop_per_byte,flop_per_s," \
                "attainable_flop_per_s,bound\n"
#define PTS_ROW "naive,1,fp32,2048,2048,2048,2048x2048x2048,dram,46342144,370.7,6.18e+12,6.01e+13,0\n"

static void test_script_bad_input(void)
{
    script_error("roofline_dram.gp", "missing.csv", NULL, "Cannot find or open file");
    script_error("roofline_dram.gp", "missing.csv", NULL, "missing.csv: no data rows");
    script_error("roofline_dram.gp", "empty.csv", "", "empty.csv: no data rows");
    script_error("roofline_hier.gp", "hdr.csv", PTS_HDR, "hdr.csv: no data rows");
    script_error("roofline_dram.gp", "nocol.csv",
                 "variant,variant_index,m,n,k,shape,level,flop_per_s\nnaive,1,1,1,1,1x1x1,dram,5\n",
                 "nocol.csv:1: missing column 'ai_flop_per_byte'");
    script_error("roofline_hier.gp", "text.csv", PTS_HDR PTS_ROW
                 "naive,1,fp32,2048,2048,2048,2048x2048x2048,l2,1,fast,6.18e+12,6.01e+13,0\n",
                 "text.csv:3: column ai_flop_per_byte (10): 'fast' is not a number");
    script_error("roofline_dram.gp", "neg.csv", PTS_HDR PTS_ROW
                 "tiled,2,fp32,2048,2048,2048,2048x2048x2048,dram,1,2,-9.2e+12,6.01e+13,0\n",
                 "neg.csv:3: column flop_per_s (11): '-9.2e+12' is not a number >= 0");
    script_error("bytes.gp", "negbytes.csv", PTS_HDR
                 "naive,1,fp32,2048,2048,2048,2048x2048x2048,dram,-4,370.7,6.18e+12,6.01e+13,0\n",
                 "negbytes.csv:2: column bytes (9)");
    script_error("sweep.gp", "sweepspread.csv",
                 "variant,variant_index,m,n,k,size,flop_per_s,time_min_s,time_max_s,time_median_s\n"
                 "naive,1,8,8,8,8,1e9,slow,2e-6,1e-6\n",
                 "sweepspread.csv:2: column time_min_s (8): 'slow' is not a number >= 0");
    script_error("sweep.gp", "sweepcol.csv", "variant,variant_index,m,n,k,size\nnaive,1,1,1,1,1\n",
                 "sweepcol.csv:1: missing column 'flop_per_s'");
    script_error("sweep.gp", "sweepmin.csv", "variant,variant_index,m,n,k,size,flop_per_s,time_median_s\n"
                 "naive,1,1,1,1,1,2,3\n", "sweepmin.csv:1: missing column 'time_min_s'");
    script_error("roofline_dram.gp", "nodram.csv", PTS_HDR
                 "naive,1,fp32,2048,2048,2048,2048x2048x2048,l2,1,2,6.18e+12,6.01e+13,0\n",
                 "no rows at level 'dram'");
    script_error("issue_roofline.gp", "issuecol.csv", "variant,variant_index,shape,flop_per_inst\nx,1,1x1x1,20\n",
                 "issuecol.csv:1: missing column 'flop_per_s'");
    script_error("stalls.gp", "stallcol.csv", "variant,variant_index,slot,shape,reason,share\nx,1,1,1x1x1,wait,1\n",
                 "stallcol.csv:1: missing column 'reason_index'");
    script_error("stalls.gp", "stallneg.csv", "variant,variant_index,slot,shape,reason,reason_index,share,base,top\n"
                 "x,1,1,1x1x1,wait,1,-0.5,0,1\n", "stallneg.csv:2: column share (7)");
}

/* Writes csv_text to TMP/name.csv and runs plots/SCRIPT on it into TMP/name.svg (its path
 * into svg); returns system()'s status, -1 when the file cannot be written. */
static int render_svg(const char *script, const char *name, const char *csv_text, char *svg, size_t svglen)
{
    char csv[600], outbase[600], file[64], cmd[2000];
    snprintf(file, sizeof file, "%s.csv", name);
    path_in(csv, sizeof csv, tmpdir, file);
    path_in(outbase, sizeof outbase, tmpdir, name);
    snprintf(svg, svglen, "%s.svg", outbase);
    FILE *f = fopen(csv, "w");
    if (!f)
        return -1;
    fputs(csv_text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "gnuplot -c plots/%s '%s' none '%s' T svg 2>&1", script, csv, outbase);
    return system(cmd);
}

/* Stall bars all of one long shape: the shape is named once (axis label), not under each
 * bar, where "8192x64x4096" twice in a row ran together. */
static void test_stalls_one_shape(void)
{
    char svg[700];
    int st = render_svg("stalls.gp", "oneshape",
                        "variant,variant_index,slot,shape,reason,reason_index,share,base,top\n"
                        "naive,1,1,8192x64x4096,wait,1,0.6,0,0.6\nnaive,1,1,8192x64x4096,other,2,0.4,0.6,1\n"
                        "tiled,2,2,8192x64x4096,wait,1,0.3,0,0.3\ntiled,2,2,8192x64x4096,other,2,0.7,0.3,1\n",
                        svg, sizeof svg);
    CHECK(st == 0 && file_contains(svg, "stall counters: 8192x64x4096<") && file_contains(svg, "<text>naive</text>") &&
              !file_contains(svg, ">8192x64x4096<"),
          "stalls of one shape: the shape named once, each bar by its variant alone");
}

/* 19 stall bars (every variant of the H200 run): names slanted under the bars, not side by
 * side where "blocktile_1d" ran into "blocktile_2d"; up to 10 bars stay level. */
static void test_stalls_many_bars(void)
{
    char svg[700], text[4096];
    for (int bars = 10; bars <= 19; bars += 9) {
        int len = snprintf(text, sizeof text, "variant,variant_index,slot,shape,reason,reason_index,share,base,top\n");
        for (int i = 1; i <= bars; i++)
            len += snprintf(text + len, sizeof text - len,
                            "blocktile_%d,%d,%d,4096x4096x4096,wait,1,0.5,0,0.5\n"
                            "blocktile_%d,%d,%d,4096x4096x4096,other,2,0.5,0.5,1\n", i, i, i, i, i, i);
        int st = render_svg("stalls.gp", "manybars", text, svg, sizeof svg);
        CHECK(st == 0 && file_contains(svg, "<text>blocktile_1</text>") &&
                  (bars > 10) == file_contains(svg, "rotate(-40)\" stroke=\"none\" fill=\"black\" font-family=\"DejaVu Sans\" font-size=\"12.00\"  text-anchor=\"end\""),
              "%d stall bars: names %s", bars, bars > 10 ? "slanted" : "level");
    }
}

/* Two compute roofs within 15% of each other (the tensor ceiling at two clocks): one ridge
 * label, the higher roof's; both ridges keep their marker and both roofs their key entry. */
static void test_issue_roofline_close_roofs(void)
{
    char svg[700];
    int st = render_svg("issue_roofline.gp", "closeroofs",
                        "variant,variant_index,shape,flop_per_inst,flop_per_s,issue_peak_inst_per_s,compute_peak_flop_per_s\n"
                        "a,1,4096x4096x4096,1000,4.0e14,1.05e12,4.78e14\n"
                        "b,2,8192x64x4096,800,0.5e14,1.05e12,4.53e14\n"
                        "c,3,4096x4096x4096,60,4.0e13,1.05e12,6.48e13\n", svg, sizeof svg);
    CHECK(st == 0 && file_contains(svg, "ridge, issue and 478 TFLOP/s roofs") &&
              !file_contains(svg, "ridge, issue and 453 TFLOP/s roofs") &&
              file_contains(svg, "ridge, issue and 64.8 TFLOP/s roofs") && file_contains(svg, ">roof 453 TFLOP/s<"),
          "roofs 478 and 453 TFLOP/s: one ridge label (478), 64.8 labelled apart, 453 still in the key");
    /* with the compute_roof column the key names each roof (not "roof (65.1 TFLOP/s)") */
    st = render_svg("issue_roofline.gp", "namedroofs",
                    "variant,variant_index,family,shape,flop_per_inst,flop_per_s,issue_peak_inst_per_s,"
                    "compute_peak_flop_per_s,compute_roof\n"
                    "a,1,TF32 tensor,4096x4096x4096,1000,4.0e14,1.05e12,5.28e14,TF32 tensor\n"
                    "b,2,3xTF32,4096x4096x4096,300,1.0e14,1.05e12,1.76e14,3xTF32: TF32 / 3\n"
                    "c,3,FP32 SIMT,4096x4096x4096,60,4.0e13,1.05e12,6.51e13,FP32 FMA\n", svg, sizeof svg);
    CHECK(st == 0 && file_contains(svg, ">TF32 tensor 528 TFLOP/s<") &&
              file_contains(svg, ">3xTF32: TF32 / 3 176 TFLOP/s<") && file_contains(svg, ">FP32 FMA 65.1 TFLOP/s<") &&
              !file_contains(svg, ">roof "),
          "issue roofline: each roof's legend entry names it (FP32 FMA, TF32 tensor, 3xTF32: TF32 / 3)");
}

/* The stall breakdown: drawn from a dataset with stall counters (tests/data/insight_crafted),
 * each bar's shares are ratio / sum of ratios and add up to 1; skipped, with a note, without. */
static void test_render_stalls(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    path_in(out, sizeof out, tmpdir, "stalls");
    int n = -1, rc = dataset_load("tests/data/insight_crafted", &ds, err, sizeof err);
    if (rc == 0)
        n = plots_render(&ds, out, NULL, err, sizeof err);
    else
        CHECK(0, "load tests/data/insight_crafted: %s", err);
    unsigned w = 0, h = 0;
    path_in(path, sizeof path, out, "stalls.png");
    CHECK(n == INSIGHT && png_valid(path, &w, &h) && w == 1400 && h == 900,
          "insight_crafted: %d charts, stalls.png 1400x900 (got %d: %s)", INSIGHT, n, err);
    path_in(path, sizeof path, out, "issue_roofline.png");
    CHECK(png_valid(path, &w, &h) && w == 1400, "issue_roofline.png rendered");
    path_in(path, sizeof path, out, "issue_roofline.svg");
    CHECK(file_contains(path, "ridge, issue and "), "issue_roofline.svg: each ridge names the roofs that meet there");
    path_in(path, sizeof path, out, "issue_points.csv");
    double fi = 0, fs = 0;
    CHECK(line_numbers(path, "issuebound,2,FP32 SIMT,fp32,1024x1024x1024,", &fi, &fs) && fabs(fi - 20) < 1e-5 &&
              fabs(fs / (0.9 * 20 * 4 * 132 * 1.755e9) - 1) < 1e-6,
          "issue_points.csv: issuebound at 20 FLOP per warp instruction, 90%% of the issue roof (%g, %g)", fi, fs);
    path_in(path, sizeof path, out, "stalls.svg");
    CHECK(svg_valid(path) && file_contains(path, "mio_throttle"), "stalls.svg valid, names mio_throttle");
    path_in(path, sizeof path, out, "stalls.csv");
    CHECK(file_contains(path, "variant,variant_index,slot,shape,reason,reason_index,share,base,top\n"),
          "stalls.csv header");
    double a = 0, b = 0, sum = 17.85 + 7.00 + 3.01 + 2.89 + 0.5 + 0.5 + 1.0 + 0.1 + 10 * 0.01;
    CHECK(line_numbers(path, "stalled,3,3,1024x1024x1024,mio_throttle,1,", &a, &b) &&
              fabs(a - 17.85 / sum) < 1e-5 && b == 0,
          "stalled: mio_throttle first, share 17.85 / sum of ratios (%g, %g)", a, b);
    CHECK(line_numbers(path, "stalled,3,3,1024x1024x1024,other,8,", &a, &b) && fabs(b + a - 1) < 1e-5,
          "stalled: the segments stack up to 1 (%g + %g)", b, a);
    if (rc == 0)
        dataset_free(&ds);

    /* instruction counts without ceilings.csv (report DIR on a directory that never had
     * one): the issue roof alone, no compute roofs and no ridge labels */
    rc = dataset_load("tests/data/insight_crafted", &ds, err, sizeof err);
    ds.have_ceilings = 0;
    path_in(out, sizeof out, tmpdir, "stalls_noceilings");
    n = rc == 0 ? plots_render(&ds, out, NULL, err, sizeof err) : -1;
    path_in(path, sizeof path, out, "issue_roofline.svg");
    CHECK(n == INSIGHT && svg_valid(path) && file_contains(path, "issue roof") && !file_contains(path, "ridge, issue and "),
          "no ceilings: issue_roofline still renders, the issue roof alone (got %d: %s)", n, err);
    if (rc == 0)
        dataset_free(&ds);

    rc = dataset_load("tests/data/h200_crafted", &ds, err, sizeof err);
    path_in(out, sizeof out, tmpdir, "nostalls");
    n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "stalls.png");
    CHECK(rc == 0 && n == COUNTED && file_size(path) < 0 && strstr(err, "stalls: skipped") &&
              strstr(err, "issue_roofline: skipped"),
          "no stall or instruction counters: no stalls or instruction roofline, a note says so (%d: %s)", n, err);
    dataset_free(&ds);
}

/* plots_output_complete: gnuplot exits 0 when the disk fills, so a chart is accepted only
 * when it is whole, a PNG up to its IEND chunk, an SVG up to </svg>. */
static void test_output_complete(void)
{
    static const char png_head[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x02\0\0\0";
    static const char png_iend[] = "\0\0\0\0IEND\xae\x42\x60\x82";
    const struct {
        const char *name, *ext, *bytes;
        size_t len;
        int whole;
    } cases[] = {
        {"whole.png", "png", NULL, 0, 1},
        {"cut.png", "png", png_head, sizeof png_head - 1, 0},
        {"empty.png", "png", "", 0, 0},
        {"notpng.png", "png", "GIF89a\0\0\0\0IEND\xae\x42\x60\x82", 20, 0},
        {"whole.svg", "svg", "<?xml version=\"1.0\"?>\n<svg width=\"6\">\n<path d=\"M 1 2\"/>\n</svg>\n\n", 0, 1},
        {"cut.svg", "svg", "<?xml version=\"1.0\"?>\n<svg width=\"6\">\n<path d=\"M 1 2", 0, 0},
        {"cutclose.svg", "svg", "<?xml version=\"1.0\"?>\n<svg width=\"6\">\n</sv", 0, 0},
    };
    char path[600], why[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        path_in(path, sizeof path, tmpdir, cases[i].name);
        FILE *f = fopen(path, "wb");
        if (!f) {
            CHECK(0, "create %s", path);
            continue;
        }
        if (i == 0) {
            fwrite(png_head, 1, sizeof png_head - 1, f);
            fwrite(png_iend, 1, sizeof png_iend - 1, f);
        } else {
            fwrite(cases[i].bytes, 1, cases[i].len ? cases[i].len : strlen(cases[i].bytes), f);
        }
        fclose(f);
        why[0] = '\0';
        int rc = plots_output_complete(path, cases[i].ext, why, sizeof why);
        if (cases[i].whole)
            CHECK(rc == 0, "%s is accepted as whole (%s)", cases[i].name, why);
        else
            CHECK(rc == -1 && strstr(why, cases[i].name[0] == 'e' ? "produced no png output" : cases[i].name) &&
                      !strchr(why, '\n'),
                  "%s is refused in one line: %s", cases[i].name, why);
    }
    path_in(path, sizeof path, tmpdir, "absent.svg");
    CHECK(plots_output_complete(path, "svg", why, sizeof why) == -1 && strstr(why, "produced no svg output"),
          "a missing SVG is refused: %s", why);
}

/* gnuplot missing, scripts missing, output directory unusable, gnuplot failing halfway. */
static void test_render_failures(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    if (dataset_load("tests/data/h200_crafted", &ds, err, sizeof err) != 0) {
        CHECK(0, "load tests/data/h200_crafted: %s", err);
        return;
    }

    /* gnuplot not installed: PATH without it */
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("PATH", tmpdir, 1);
    char why[512];
    int avail = plots_gnuplot_available(why, sizeof why);
    path_in(out, sizeof out, tmpdir, "nognuplot");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    CHECK(!avail && strstr(why, "apt-get install gnuplot-nox"), "gnuplot missing: says how to install: %s", why);
    path_in(path, sizeof path, out, "roofline_dram.png");
    CHECK(n == -1 && strstr(err, "gnuplot not found") && strstr(err, "apt-get install gnuplot-nox") &&
              file_size(path) < 0,
          "plots_render without gnuplot: clear error, no chart: %s", err);
    path_in(path, sizeof path, out, "roofline_points.csv");
    CHECK(file_size(path) > 0, "the plot data is still written for a later render");

    /* scripts not found */
    path_in(out, sizeof out, tmpdir, "noscripts");
    n = plots_render(&ds, out, "/nonexistent/plots", err, sizeof err);
    CHECK(n == -1 && strstr(err, "/nonexistent/plots/roofline_dram.gp") && strstr(err, "GEMMPROF_PLOTS"),
          "scripts missing: names the path and the override: %s", err);
    setenv("GEMMPROF_PLOTS", "/nonexistent/env/plots", 1);
    n = plots_render(&ds, out, NULL, err, sizeof err);
    unsetenv("GEMMPROF_PLOTS");
    CHECK(n == -1 && strstr(err, "/nonexistent/env/plots"), "GEMMPROF_PLOTS is honoured: %s", err);

    /* output directory that cannot be created */
    n = plots_render(&ds, "/proc/gemmprof_no/out", NULL, err, sizeof err);
    CHECK(n == -1 && strstr(err, "/proc/gemmprof_no/out"), "unusable output directory named: %s", err);

    /* a script that writes part of its output and then fails: nothing left behind */
    if (plots_gnuplot_available(why, sizeof why)) {
        char pdir[600], cmd[1400];
        path_in(pdir, sizeof pdir, tmpdir, "brokenplots");
        snprintf(cmd, sizeof cmd, "mkdir -p '%.500s' && cp plots/*.gp '%.500s'/", pdir, pdir);
        int sys = system(cmd);
        snprintf(cmd, sizeof cmd, "printf '%s' > '%.500s/sweep.gp'",
                 "set terminal pngcairo\\nset output ARG3.\".png\"\\nplot x\\nunset output\\n"
                 "exit error \"sweep failed on purpose\"\\n",
                 pdir);
        sys |= system(cmd);
        path_in(out, sizeof out, tmpdir, "broken");
        n = plots_render(&ds, out, pdir, err, sizeof err);
        path_in(path, sizeof path, out, "sweep.png");
        CHECK(sys == 0 && n == -1 && strstr(err, "sweep failed on purpose") && strstr(err, "sweep.gp") &&
                  file_size(path) < 0 && count_files_named(out, "tmp") == 0,
              "gnuplot failing halfway: its text reported, no sweep.png, no temp file: %s", err);

        /* a warning alone (exit status 0) is a failure too */
        snprintf(cmd, sizeof cmd, "printf '%s' > '%.500s/sweep.gp'",
                 "set terminal pngcairo\\nset output ARG3.\".png\"\\nplot \"/nonexistent.dat\"\\n"
                 "set terminal svg\\nset output ARG3.\".svg\"\\nplot x\\n",
                 pdir);
        sys = system(cmd);
        n = plots_render(&ds, out, pdir, err, sizeof err);
        CHECK(sys == 0 && n == -1 && strstr(err, "nonexistent.dat") && file_size(path) < 0,
              "gnuplot warning with exit status 0 counts as a failure: %s", err);
    } else {
        SKIP(why, "gnuplot failing halfway");
    }
    dataset_free(&ds);
}


/* ---- hostile names, failing charts, bounds ---- */

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* A results directory name that is shell code, and one that gnuplot would run as a command
 * ('<...'): both render, and nothing runs. */
static void test_no_shell(void)
{
    struct gp_dataset ds;
    char err[2048], cwd[1024], plots[1100], out[600], pwned[700];
    if (dataset_load("tests/data/h200_crafted", &ds, err, sizeof err) || !getcwd(cwd, sizeof cwd)) {
        CHECK(0, "load tests/data/h200_crafted: %s", err);
        return;
    }
    snprintf(plots, sizeof plots, "%s/plots", cwd);
    struct plots_options opt = {plots, -1};
    struct plots_outcome *po = malloc(sizeof *po);
    snprintf(out, sizeof out, "%s/i';touch PWNED;'", tmpdir);
    int moved = chdir(tmpdir) == 0;   /* where a `touch PWNED` would land */
    int n1 = plots_render_ex(&ds, out, &opt, po, err, sizeof err);
    int f1 = po->failed;
    int n2 = plots_render_ex(&ds, "<touch PWNED2;x", &opt, po, err, sizeof err);
    int f2 = po->failed;
    int n3 = plots_render_ex(&ds, "|touch PWNED3;x", &opt, po, err, sizeof err);
    if (moved && chdir(cwd) != 0)
        printf("note: cannot return to %s\n", cwd);
    snprintf(pwned, sizeof pwned, "%s/PWNED", tmpdir);
    CHECK(n1 == COUNTED && f1 == 0, "a directory named i';touch PWNED;' renders its %d charts (%d, %d failed: %s)",
          COUNTED, n1, f1, err);
    CHECK(n2 == COUNTED && f2 == 0 && n3 == COUNTED, "directories named '<touch ...' and '|touch ...' render too (%d, %d)",
          n2, n3);
    CHECK(moved && !exists(pwned) && !exists("PWNED") && count_files_named(tmpdir, "PWNED") == 3,
          "no PWNED file created: no name reached a shell (only the three directories carry the name)");
    free(po);
    dataset_free(&ds);
}

/* A variant named with spaces is one series and one legend entry, with its data. */
static void test_variant_with_spaces(void)
{
    struct gp_dataset ds;
    char err[2048], out[600], path[700];
    if (dataset_load("tests/data/h200_crafted", &ds, err, sizeof err)) {
        CHECK(0, "load tests/data/h200_crafted: %s", err);
        return;
    }
    for (int i = 0; i < ds.nrows; i++)
        if (strcmp(ds.rows[i].variant, "tiled") == 0)
            strcpy(ds.rows[i].variant, "tiled kernel v2");
    path_in(out, sizeof out, tmpdir, "spaces");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    CHECK(n == COUNTED, "variant 'tiled kernel v2': all %d charts render (%d: %s)", COUNTED, n, err);
    path_in(path, sizeof path, out, "sweep.csv");
    CHECK(file_contains(path, "\ntiled kernel v2,2,FP32 SIMT,fp32,1024,"), "sweep.csv keys it by variant_index 2");
    static const char *const charts[] = {"sweep.svg", "roofline_dram.svg", "roofline_hier.svg", "bytes.svg"};
    for (int c = 0; c < 4; c++) {
        path_in(path, sizeof path, out, charts[c]);
        CHECK(file_contains(path, ">tiled kernel v2<") && !file_contains(path, ">kernel<") &&
                  !file_contains(path, ">v2<"),
              "%s names 'tiled kernel v2' once, not word by word", charts[c]);
    }
    dataset_free(&ds);
}

/* A chart whose script fails: the others still render, its old PNG is removed, the
 * report links only this run's charts and names the failure, and the exit status is 1. */
static void test_failed_chart(void)
{
    char why[512];
    if (!plots_gnuplot_available(why, sizeof why)) {
        SKIP(why, "a failing chart among working ones");
        return;
    }
    struct gp_dataset ds;
    char err[2048], pdir[600], out[600], path[700], cmd[2048];
    if (dataset_load("tests/data/h200_crafted", &ds, err, sizeof err)) {
        CHECK(0, "load tests/data/h200_crafted: %s", err);
        return;
    }
    path_in(pdir, sizeof pdir, tmpdir, "failplots");
    path_in(out, sizeof out, tmpdir, "failout");
    snprintf(cmd, sizeof cmd, "mkdir -p '%.300s' '%.300s' && cp plots/*.gp '%.300s'/ && "
             "echo 'exit error \"sweep broken\"' > '%.300s/sweep.gp' && "
             "cp tests/data/h200_crafted/results.csv '%.300s'/", pdir, out, pdir, pdir, out);
    int sys = system(cmd);
    char stale[700];
    path_in(stale, sizeof stale, out, "sweep.png");
    FILE *f = fopen(stale, "w");
    if (f) {
        fputs("old chart of another run", f);
        fclose(f);
    }
    struct plots_outcome *po = malloc(sizeof *po);
    struct plots_options opt = {pdir, -1};
    int n = plots_render_ex(&ds, out, &opt, po, err, sizeof err);
    unsigned w, h;
    path_in(path, sizeof path, out, "roofline_dram.png");
    CHECK(sys == 0 && n == COUNTED - 1 && po->failed == 1 && png_valid(path, &w, &h),
          "sweep fails, the other %d charts still render (%d rendered, %d failed)", COUNTED - 1, n, po->failed);
    CHECK(!exists(stale), "the previous run's sweep.png is removed");
    CHECK(strstr(po->summary, "sweep FAILED") && strstr(po->summary, "sweep broken"),
          "the summary names the failed chart and gnuplot's reason: %s", po->summary);

    /* the report of the same directory: exit 1, only the rendered charts linked */
    f = fopen(stale, "w");   /* stale again */
    if (f)
        fclose(f);
    setenv("GEMMPROF_PLOTS", pdir, 1);
    char *argv[] = {"report", "tests/data/h200_crafted", "--out", out, NULL};
    int rc = report_main(4, argv);
    unsetenv("GEMMPROF_PLOTS");
    path_in(path, sizeof path, out, "report.md");
    FILE *r = fopen(path, "r");
    static char text[1 << 17];
    size_t got = r ? fread(text, 1, sizeof text - 1, r) : 0;
    text[got] = '\0';
    if (r)
        fclose(r);
    CHECK(rc == 1, "gemmprof report exits 1 when a chart failed (got %d)", rc);
    CHECK(strstr(text, "](roofline_dram.png)") && strstr(text, "](bytes.png)") && !strstr(text, "](sweep.png)"),
          "report.md links the charts rendered now and not the failed one");
    CHECK(strstr(text, "**1 chart could not be rendered**") && strstr(text, "- `sweep`: gnuplot -c sweep.gp:"),
          "report.md says which chart failed and why");
    CHECK(!exists(stale), "no stale sweep.png is left for the report to show");

    char *pargv[] = {"plots", out, NULL};
    setenv("GEMMPROF_PLOTS", pdir, 1);
    rc = plots_cli(2, pargv);
    unsetenv("GEMMPROF_PLOTS");
    CHECK(rc == 1, "gemmprof plots exits 1 when a chart failed (got %d)", rc);
    free(po);
    dataset_free(&ds);
}

/* tests/data/h200_da80385: 4 shapes with counters. The bound on per-shape charts, and 20,000 rows
 * built from it (2,500 shapes): indexed, bounded, and said. */
static void test_shape_bound(void)
{
    struct gp_dataset ds;
    char err[2048], out[600];
    if (dataset_load("tests/data/h200_da80385", &ds, err, sizeof err)) {
        CHECK(0, "load tests/data/h200_da80385: %s", err);
        return;
    }
    struct plots_outcome *po = malloc(sizeof *po);
    struct plots_options opt = {NULL, 1};
    path_in(out, sizeof out, tmpdir, "bound1");
    int n = plots_render_ex(&ds, out, &opt, po, err, sizeof err);
    const int per_shape = charts_for(DATA(PLOTS_DATA_SHAPES));   /* drawn again for each further shape */
    CHECK(n == COUNTED + per_shape && po->shapes_with_counters == 4 && po->shapes_left_out == 2 &&
              count_files_named(out, "roofline_hier_") == 2,
          "--max-shape-charts 1: main shape plus 1, 2 shapes left out (%d charts, %d left out)", n,
          po->shapes_left_out);
    CHECK(strstr(po->summary, "hierarchical rooflines drawn for 2 of 4 shapes with counters, 2 left out"),
          "the outcome says which were left out: %s", po->summary);

    /* 20,000 rows */
    struct gp_result *base = ds.rows;
    int nbase = ds.nrows, nrows = 20000;
    struct gp_result *rows = malloc((size_t)nrows * sizeof *rows);
    for (int i = 0; rows && i < nrows; i++) {
        rows[i] = base[i % nbase];
        long step = i / nbase;   /* 1, 2, ...: no shape meets another base shape */
        rows[i].m += step;
        rows[i].n += step;
        rows[i].k += step;
    }
    ds.rows = rows;
    ds.nrows = rows ? nrows : 0;
    path_in(out, sizeof out, tmpdir, "rows20k");
    n = plots_render_ex(&ds, out, NULL, po, err, sizeof err);
    int shapes = nrows / nbase * 4;
    CHECK(n == COUNTED + per_shape * PLOTS_SHAPE_CHARTS_DEFAULT && po->failed == 0 && po->shapes_with_counters == shapes &&
              po->shapes_left_out == shapes - 1 - PLOTS_SHAPE_CHARTS_DEFAULT &&
              count_files_named(out, "roofline_hier_") == 2 * PLOTS_SHAPE_CHARTS_DEFAULT,
          "20,000 rows: %d charts, %d of %d shapes left out (%s)", n, po->shapes_left_out, shapes, err);
    /* every shape has all 8 variants with counters: the tie goes to the largest */
    CHECK(strcmp(po->chart[1].name, "roofline_hier") == 0 && strcmp(po->chart[1].shape, "8816x8816x8816") == 0,
          "the main hierarchical roofline is of the largest best-covered shape (%s %s)", po->chart[1].name,
          po->chart[1].shape);
    CHECK(count_files_named(out, ".tmp") == 0 && count_files_named(out, ".points_") == 0,
          "no temporary point files left behind");
    ds.rows = base;
    ds.nrows = nbase;
    free(rows);
    free(po);
    dataset_free(&ds);

    char *a1[] = {"plots", "tests/data/h200_da80385", "--max-shape-charts", "-1", NULL};
    char *a2[] = {"plots", "tests/data/h200_da80385", "--max-shape-charts", "9999", NULL};
    char *a3[] = {"plots", NULL};
    char *a4[] = {"plots", "tests/data/report_missing", NULL};
    CHECK(plots_cli(4, a1) == 2 && plots_cli(4, a2) == 2 && plots_cli(1, a3) == 2,
          "plots: a bad --max-shape-charts or no directory is a usage error (2)");
    CHECK(plots_cli(2, a4) == 1, "plots: a missing directory is a data error (1)");
}


/* ---- what the charts show, read back from their SVGs ---- */

/* The markers an SVG draws in a colour: colour (0xRRGGBB) -> gnuplot point type. The open
 * circle (pt 6: binding-level rings, ridges, size legends) and invisible markers (scale 0,
 * white) are left out; a colour drawn with two point types gets pt -1. Returns the number
 * of colours, or -1 when unreadable. */
#define MAX_MARKS 64
struct marks {
    int n;
    unsigned rgb[MAX_MARKS];
    int pt[MAX_MARKS];
};

static int svg_marks(const char *path, struct marks *mk)
{
    mk->n = 0;
    char *svg = read_all(path);
    if (!svg)
        return -1;
    for (const char *p = svg; (p = strstr(p, "<use xlink:href='#gpPt")); p++) {
        int pt = atoi(p + 22) + 1;   /* gnuplot's gpPtN is point type N + 1 */
        const char *end = strchr(p, '>');
        const char *sc = strstr(p, "scale("), *col = strstr(p, "color='rgb(");
        unsigned r, g, b;
        if (!end || !sc || sc > end || !col || col > end || atof(sc + 6) <= 0 || pt == 6 ||
            sscanf(col + 11, "%u , %u , %u", &r, &g, &b) != 3 || (r & g & b) == 255)
            continue;   /* white: a family name's legend row, which has no sample to see */
        unsigned rgb = r << 16 | g << 8 | b;
        int k = 0;
        while (k < mk->n && mk->rgb[k] != rgb)
            k++;
        if (k == mk->n && mk->n < MAX_MARKS) {
            mk->rgb[mk->n] = rgb;
            mk->pt[mk->n++] = pt;
        } else if (k < mk->n && mk->pt[k] != pt) {
            mk->pt[k] = -1;
        }
    }
    free(svg);
    return mk->n;
}

/* Yellow on white: red and green high, blue low (Okabe-Ito's #F0E442, #E6E600, ...). */
static int yellowish(unsigned rgb)
{
    unsigned r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
    return r > 200 && g > 180 && b < 120;
}

/* Each variant one colour and one marker shape, none yellow, the same in every chart. */
static void test_variant_styles(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    if (load("tests/data/h200_crafted", &ds))
        return;
    path_in(out, sizeof out, tmpdir, "styles");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    CHECK(n == COUNTED, "styles: %d charts (%d: %s)", COUNTED, n, err);
    struct marks ref, mk;
    path_in(path, sizeof path, out, "sweep.svg");
    svg_marks(path, &ref);
    int distinct_pt = 1, one_pt = 1, yellow = 0;
    for (int i = 0; i < ref.n; i++) {
        one_pt &= ref.pt[i] > 0;
        yellow |= yellowish(ref.rgb[i]);
        for (int j = 0; j < i; j++)
            distinct_pt &= ref.pt[i] != ref.pt[j];
    }
    CHECK(ref.n == 4 && one_pt && distinct_pt,
          "sweep.svg: the 4 variants in 4 colours, each with its own marker shape (%d colours)", ref.n);
    CHECK(!yellow, "no variant is drawn in yellow on the white background");
    static const char *const others[] = {"roofline_dram.svg", "roofline_hier.svg", "bytes.svg"};
    for (int c = 0; c < 3; c++) {
        path_in(path, sizeof path, out, others[c]);
        int same = svg_marks(path, &mk) == ref.n;
        for (int i = 0; same && i < ref.n; i++)
            same = mk.rgb[i] == ref.rgb[i] && mk.pt[i] == ref.pt[i];
        CHECK(same, "%s: each variant has the colour and marker it has in sweep.svg (%d colours)", others[c],
              mk.n);
    }
    /* no point label that could collide: the DRAM roofline of 4 sizes keys them by marker size */
    struct gp_dataset sz;
    if (load("tests/data/h200_da80385", &sz) == 0) {
        char sdir[400];
        path_in(sdir, sizeof sdir, tmpdir, "sizes");
        struct plots_options opt = {NULL, 0};
        struct plots_outcome *po = malloc(sizeof *po);
        n = po ? plots_render_ex(&sz, sdir, &opt, po, err, sizeof err) : -1;
        path_in(path, sizeof path, sdir, "roofline_dram.svg");
        CHECK(n > 0 && !file_contains(path, ">4096<") && !file_contains(path, ">2048<") &&
                  file_contains(path, ">size 1024<") && file_contains(path, ">size 8192<"),
              "roofline_dram.svg labels no point with its size; the legend gives the smallest and largest");
        free(po);
        dataset_free(&sz);
    }

    /* titles name the GPU, the shapes and the precisions */
    static const char *const titled[][3] = {
        {"roofline_hier.svg", "M x N x K = 2048x2048x2048", "FP32, TF32"},
        {"bytes.svg", "M x N x K = 2048x2048x2048", "FP32, TF32"},
        {"sweep.svg", "5 shapes, 512x512x512 to 8192x8192x8192", "FP32, TF32"},
        {"roofline_dram.svg", "M x N x K = 2048x2048x2048", "FP32, TF32"},
    };
    for (int c = 0; c < 4; c++) {
        path_in(path, sizeof path, out, titled[c][0]);
        CHECK(file_contains(path, "NVIDIA H200 (crafted test data)") && file_contains(path, titled[c][1]) &&
                  file_contains(path, titled[c][2]),
              "%s: the title names the GPU, '%s' and '%s'", titled[c][0], titled[c][1], titled[c][2]);
    }

    /* every compute roof has its ridge, attributed to both its roofs; the no-FMA one too */
    path_in(path, sizeof path, out, "roofline_roofs.csv");
    double a = 0, b = 0;
    CHECK(line_numbers(path, "ridge,dram/fp32_nofma,dram,measured,DRAM / FP32 no FMA,", &a, &b) && a > 0 &&
              fabs(b - a / 3.96e12) < 1e-6 * b,
          "roofline_roofs.csv: the FP32-without-FMA roof's ridge with DRAM (%g flop/s at %g FLOP/byte)", a, b);
    path_in(path, sizeof path, out, "roofline_dram.svg");
    CHECK(file_contains(path, ", ridge 7.63 FLOP/B<") && file_contains(path, ", ridge 15.2 FLOP/B<"),
          "roofline_dram.svg: each compute roof's label gives its ridge with DRAM, no FMA included");
    /* right of the TF32 ridge the longer texts ran past the plot's edge into the legend */
    CHECK(file_contains(path, ">TF32 tensor (cuBLAS)  450 TFLOP/s<") && !file_contains(path, ", ridge 114 FLOP/B<"),
          "roofline_dram.svg: the TF32 roof's label, with no room for its ridge, in its shortest text");
    path_in(path, sizeof path, out, "roofline_hier.svg");
    CHECK(file_contains(path, ">FP32 FMA ridges, FLOP/B:<") && file_contains(path, ">DRAM 15.2  L2 6.01<") &&
              file_contains(path, ">L1 2.15  shared 2<"),
          "roofline_hier.svg: the legend gives each ridge with its memory roof");

    /* the sweep's error bars: the min and max time by name, a legend entry saying so */
    path_in(path, sizeof path, out, "sweep.csv");
    CHECK(file_contains(path, ",flop_per_s,time_min_s,time_max_s,time_median_s\n") &&
              line_numbers(path, "naive,1,FP32 SIMT,fp32,512,512,512,512x512x512,512,", &a, &b),
          "sweep.csv carries time_min_s and time_max_s");
    path_in(path, sizeof path, out, "sweep.svg");
    CHECK(file_contains(path, ">min-max of the repetitions<"), "sweep.svg: a legend entry for the min-max error bars");
    /* without the spread the bars and their legend entry go */
    for (int i = 0; i < ds.nrows; i++)
        ds.rows[i].time_min_s = ds.rows[i].time_max_s = NAN;
    path_in(out, sizeof out, tmpdir, "nospread");
    n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "sweep.svg");
    CHECK(n == COUNTED && !file_contains(path, ">min-max of the repetitions<"),
          "no min or max time: the sweep renders without error bars (%d: %s)", n, err);

    /* the bytes chart shows bytes per FMA, as its caption says */
    path_in(path, sizeof path, tmpdir, "styles/bytes.svg");
    CHECK(file_contains(path, "bytes per FMA") && file_contains(path, "Bytes per FMA at each memory level"),
          "bytes.svg: bytes per FMA, the quantity its report caption names");
    dataset_free(&ds);
}

/* A point far outside the others is clipped and marked, and the x axis fits the rest:
 * the crafted cuBLAS TF32 row's L1 intensity of 1.8e4 FLOP/byte is over 30 times its
 * last ridge's (114), as the H200's 1e5 is. */
static void test_clipped_points(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    if (load("tests/data/h200_crafted", &ds))
        return;
    path_in(out, sizeof out, tmpdir, "clip");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "roofline_hier.svg");
    CHECK(n == COUNTED && file_contains(path, ">clipped at the edge, FLOP/B:<") && file_contains(path, ">L1 1.8e4<"),
          "roofline_hier.svg: the far L1 point is marked clipped, its true value in the legend (%d: %s)", n, err);
    CHECK(file_contains(path, ">1000<") && !file_contains(path, ">10000<") && !file_contains(path, ">100000<"),
          "roofline_hier.svg: the x axis ends below 1e4, fitting the other points");
    /* without the far point, nothing is clipped */
    for (int i = 0; i < ds.nrows; i++)
        if (strcmp(ds.rows[i].variant, "cublas_tf32") == 0)
            ds.rows[i].metric[GP_M_l1_bytes] = ds.rows[i].metric[GP_M_l1_lgds_wb] = NAN;
    path_in(out, sizeof out, tmpdir, "noclip");
    n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "roofline_hier.svg");
    CHECK(n == COUNTED && file_size(path) > 0 && !file_contains(path, "clipped"),
          "no point clipped where none is far out (%d: %s)", n, err);
    dataset_free(&ds);
}

/* The recorded H200 run (25 variants in 5 families at its main shape): one hierarchical
 * roofline per family besides the main one, each holding its family and the cuBLAS of its
 * pipe (BF16/FP16's for the 16-bit kernels, and only there), and only the compute roofs those run against (for
 * 3xTF32, TF32 over its tensor products); the report links each with its family.
 * Re-rendered from 7 variants, the family charts go. */
static void test_render_families(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    if (load("results/h200", &ds))
        return;
    path_in(out, sizeof out, tmpdir, "families");
    struct plots_options opt = {NULL, 0};
    struct plots_outcome *po = malloc(sizeof *po);
    int n = po ? plots_render_ex(&ds, out, &opt, po, err, sizeof err) : -1;
    int fams = 0;
    for (int c = 0; po && c < po->ncharts; c++)
        fams += po->chart[c].rendered && po->chart[c].family[0];
    CHECK(n > 0 && fams == 4, "results/h200: 4 family charts rendered (%d charts: %s)", n, err);
    static const struct { const char *slug, *has[3], *lacks[3]; } want[] = {
        {"fp32_simt", {">naive<", ">dbuf<", ">cublas<"}, {">wgmma_rs<", ">cublas_tf32<", "TF32 tensor  "}},
        {"tf32_tensor", {">wgmma_rs<", ">cublas_tf32<", "TF32 tensor  "}, {">naive<", ">cublas<", "FP32 FMA  "}},
        {"3xtf32", {">tf32x3_wgmma<", ">cublas<", ">cublas_tf32<"}, {">naive<", ">wgmma_rs<", ">tiled<"}},
        {"tensor16", {">bf16_wgmma<", ">cublas_bf16<", ">cublas_fp16<"}, {">cublas<", ">cublas_tf32<", "FP32 FMA  "}},
    };
    for (size_t f = 0; f < sizeof want / sizeof want[0]; f++) {
        char png[700];
        unsigned w = 0, h = 0;
        snprintf(path, sizeof path, "%s/roofline_family_%s.svg", out, want[f].slug);
        snprintf(png, sizeof png, "%s/roofline_family_%s.png", out, want[f].slug);
        int ok = svg_valid(path) && png_valid(png, &w, &h) && file_contains(path, "8192x8192x8192");
        for (int k = 0; k < 3; k++)
            ok = ok && file_contains(path, want[f].has[k]) && !file_contains(path, want[f].lacks[k]);
        CHECK(ok, "roofline_family_%s: its family and cuBLAS references, %s %s %s, without %s %s %s", want[f].slug,
              want[f].has[0], want[f].has[1], want[f].has[2], want[f].lacks[0], want[f].lacks[1], want[f].lacks[2]);
    }
    path_in(path, sizeof path, out, "roofline_family_3xtf32.svg");
    char x3_roof[64];   /* the recorded run's own TF32 (wgmma loop) ceiling over 3 */
    snprintf(x3_roof, sizeof x3_roof, "3xTF32 (TF32/3)  %.3g TFLOP/s", ds.ceilings.c[GP_CEIL_tf32_wgmma].measured / 3e12);
    CHECK(file_contains(path, x3_roof),
          "roofline_family_3xtf32: the roof its kernels run against, TF32 over their 3 tensor products, is drawn (%s)",
          x3_roof);
    char rdir[600], md[700];
    path_in(rdir, sizeof rdir, tmpdir, "families_report");
    char *argv[] = {"report", "results/h200", "--out", rdir, NULL};
    int rc = report_main(4, argv);
    path_in(md, sizeof md, rdir, "report.md");
    CHECK(rc == 0 && file_contains(md, "with its cuBLAS references: TF32 tensor](roofline_family_tf32_tensor.png)"),
          "report.md links each family chart with its family (rc %d)", rc);
    /* 7 variants of 3 families fit the palette's 11 colours: no family charts, none left behind */
    static const char *const seven = " naive tiled wgmma wgmma_rs tf32x3_wgmma cublas cublas_tf32 ";
    for (int i = 0; i < ds.nrows; i++) {
        char key[40];
        snprintf(key, sizeof key, " %s ", ds.rows[i].variant);
        if (!strstr(seven, key))
            ds.rows[i].status = GP_STATUS_SKIPPED;
    }
    n = po ? plots_render_ex(&ds, out, &opt, po, err, sizeof err) : -1;
    fams = 0;
    for (int c = 0; po && c < po->ncharts; c++)
        fams += po->chart[c].family[0] != '\0';
    path_in(path, sizeof path, out, "roofline_family_fp32_simt.png");
    CHECK(n > 0 && fams == 0 && file_size(path) < 0, "7 variants of 3 families: no family chart, the earlier ones removed (%d: %s)",
          n, err);
    free(po);
    dataset_free(&ds);
}

/* A real H200 run with cuBLAS BF16 and FP16 rows (tests/data/h200_bf16): the all-variant
 * charts draw the one 16-bit roof, the bytes chart names the three bars below its axis, the
 * TF32 and 3xTF32 family charts leave the 16-bit rows out (they are no reference of theirs,
 * and those charts lack the roof they run against). */
static void test_render_16bit(void)
{
    struct gp_dataset ds;
    char err[2048], out[512], path[600];
    if (load("tests/data/h200_bf16", &ds))
        return;
    path_in(out, sizeof out, tmpdir, "bf16");
    int n = plots_render(&ds, out, NULL, err, sizeof err);
    path_in(path, sizeof path, out, "roofline_hier.svg");
    CHECK(n > 0 && file_contains(path, "BF16/FP16 tensor  938 TFLOP/s (datasheet 1071)"),
          "the BF16 run's hierarchical roofline draws the 16-bit roof, its datasheet figure whole (%d: %s)", n, err);
    path_in(path, sizeof path, out, "bytes.svg");
    CHECK(file_contains(path, ">cublas_tf32 L1 1.9e-05 B<") && file_contains(path, ">cublas_bf16 L1 5.5e-07 B<") &&
              file_contains(path, ">cublas_fp16 L1 5.5e-07 B<"),
          "bytes.svg: each bar below the axis in a legend row of its own (in one, they ran off the canvas)");
    static const char *const fams[] = {"roofline_family_tf32_tensor.svg", "roofline_family_3xtf32.svg"};
    for (int f = 0; f < 2; f++) {
        path_in(path, sizeof path, out, fams[f]);
        CHECK(file_contains(path, ">cublas_tf32<") && !file_contains(path, ">cublas_bf16<") &&
                  !file_contains(path, ">cublas_fp16<"),
              "%s: cuBLAS TF32 for reference, not cuBLAS BF16 or FP16", fams[f]);
    }
    dataset_free(&ds);
}

/* The registry drives the report: every chart drawn is linked with its caption. */
static void test_registry_report(void)
{
    char out[600], path[700];
    path_in(out, sizeof out, tmpdir, "regreport");
    char *argv[] = {"report", "tests/data/insight_crafted", "--out", out, NULL};
    int rc = report_main(4, argv);
    path_in(path, sizeof path, out, "report.md");
    char *md = read_all(path);
    int all = md != NULL;
    for (int i = 0; all && i < PLOTS_CHART_KINDS; i++) {
        if (plots_charts[i].data == PLOTS_DATA_FLEET || plots_charts[i].data == PLOTS_DATA_FAMILIES)
            continue;   /* one GPU: no fleet chart (tests/test_merge.c draws it); 5 variants: no family charts */
        char link[400];
        snprintf(link, sizeof link, "![%s](%s.png)", plots_charts[i].caption, plots_charts[i].name);
        all = strstr(md, link) != NULL;
        CHECK(all, "report.md links %s with its registry caption", plots_charts[i].name);
    }
    CHECK(rc == 0 && all, "insight_crafted: every chart of plots/charts.def is linked (rc %d)", rc);
    free(md);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gp_test_plots.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        TEST_EXIT();
    }
    char why[512];
    if (plots_gnuplot_available(why, sizeof why)) {
        test_render_dataset();
        test_render_minimal();
        test_script_bad_input();
        test_render_stalls();
        test_stalls_one_shape();
        test_stalls_many_bars();
        test_issue_roofline_close_roofs();
        test_no_shell();
        test_variant_with_spaces();
        test_shape_bound();
        test_variant_styles();
        test_clipped_points();
        test_registry_report();
        test_render_families();
        test_render_16bit();
    } else {
        SKIP(why, "rendering the charts");
    }
    test_output_complete();
    test_render_failures();
    test_failed_chart();
    if (!getenv("GP_TEST_KEEP")) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            printf("note: could not remove %s\n", tmpdir);
    } else {
        printf("kept %s\n", tmpdir);
    }
    TEST_EXIT();
}

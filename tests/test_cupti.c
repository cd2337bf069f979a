/* cupti/: the range profiler and the activity trace.
 * Without a GPU (CI, build machines): prof_open/trace_start must fail with a reason
 * and never crash; metric names and pass counts are checked offline against the
 * CUPTI host library for GH100 (H100/H200); the trace writer is checked on records
 * built by hand. With a GPU: one cuBLAS SGEMM traced and profiled for real. */
#include "analysis/metrics.h"
#include "analysis/results.h"
#include "cupti/common.h"
#include "cupti/launch.h"
#include "cupti/prof.h"
#include "cupti/trace.h"
#include "cupti/trace_internal.h"
#include "src/device.h"
#include "tests/test.h"

/* Replay passes the default set may take on GH100: 4 hardware (the L1 data-path cycles,
 * the L1 bytes and the L1's coalescing sectors cannot share one) and 1 SASS-instrumented. */
#define GP_DEFAULT_PASS_BUDGET 5

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Brackets balance outside strings and the text is one object: a cheap JSON check. */
static int json_balanced(const char *s)
{
    int depth = 0, in_str = 0;
    for (const char *p = s; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_str = 0;
        } else if (*p == '"') {
            in_str = 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            if (--depth < 0)
                return 0;
        }
    }
    return depth == 0 && !in_str && s[0] == '{';
}

/* Passes of a metric set as the counter phase spends them: hardware counters and
 * SASS-instrumented counts in separate sessions (src/counter_phase.c). */
static int run_passes(const int *ids, int n)
{
    int hw[GP_METRIC_COUNT], sass[GP_METRIC_COUNT], nhw = 0, nsass = 0;
    for (int i = 0; i < n; i++) {
        if (gp_metric_is_instrumented(ids[i]))
            sass[nsass++] = ids[i];
        else
            hw[nhw++] = ids[i];
    }
    int a = nhw ? prof_count_passes_offline("GH100", hw, nhw) : 0;
    int b = nsass ? prof_count_passes_offline("GH100", sass, nsass) : 0;
    return a < 0 || b < 0 ? -1 : a + b;
}

/* The pass budget: the default set fits 4 hardware passes plus 1 SASS pass on GH100, and
 * the counters that joined it for the limits model and the diagnosis rules (occupancy,
 * issue slots, warp and thread instructions, tensor work, the L2 reads merged, coalescing,
 * local memory, FP64 work, two stall reasons) cost no pass over the set without them. The
 * other stall reasons do cost passes, hence --stalls. Counts come from the table. */
static void test_offline_pass_costs(void)
{
    static const int joined[] = {GP_M_warps_active, GP_M_issue_active, GP_M_inst_executed, GP_M_tensor_busy,
                                 GP_M_tensor_hmma, GP_M_l2_merged, GP_M_gld_sectors, GP_M_gst_sectors,
                                 GP_M_gld_inst, GP_M_gst_inst, GP_M_local_ld_bytes, GP_M_local_st_bytes, GP_M_thread_inst, GP_M_dfma,
                                 GP_M_dadd, GP_M_dmul, GP_M_conversions, GP_M_stall_long_scoreboard, GP_M_stall_barrier};
    int before[GP_METRIC_COUNT], now[GP_METRIC_COUNT], stalls[GP_METRIC_COUNT];
    int nb = 0, nn = 0, ns = 0, nstall_other = 0;
    for (int i = 0; i < GP_METRIC_COUNT; i++) {
        int added = 0;
        for (size_t j = 0; j < sizeof joined / sizeof joined[0]; j++)
            added |= joined[j] == i;
        if (gp_metrics[i].in_default) {
            now[nn++] = i;
            stalls[ns++] = i;
            if (!added)
                before[nb++] = i;
        }
    }
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (strstr(gp_metrics[i].name, "__average_warps_issue_stalled_") && !gp_metrics[i].in_default) {
            stalls[ns++] = i;
            nstall_other++;
        }
    int pb = run_passes(before, nb), pn = run_passes(now, nn), ps = run_passes(stalls, ns);
    printf("  GH100 passes: %d metrics %d (without the joined ones), %d metrics %d (default), %d metrics %d (--stalls)\n",
           nb, pb, nn, pn, ns, ps);
    CHECK(pn >= 1 && pn <= GP_DEFAULT_PASS_BUDGET, "the default set (%d metrics) fits the budget of %d passes (got %d)",
          nn, GP_DEFAULT_PASS_BUDGET, pn);
    CHECK(nn == nb + (int)(sizeof joined / sizeof joined[0]) && pn <= pb + 1,
          "the %d counters that joined the default set add at most one pass, the L1's coalescing sectors (%d -> %d)",
          (int)(sizeof joined / sizeof joined[0]), pb, pn);
    CHECK(nstall_other > 0 && ps > pn, "the other %d stall reasons cost passes (%d -> %d): behind --stalls",
          nstall_other, pn, ps);
}

/* The BF16/FP16 path counters (analysis/metrics.def) stay out of the default set because
 * each would cost a pass there: this says so from the counter library, so the day one fits
 * the test says it may join. */
static void test_offline_16bit_counters(void)
{
    static const int ids[] = {GP_M_tensor_bf16, GP_M_tensor_fp16, GP_M_tensor_hmma_bf16, GP_M_tensor_hmma_fp16};
    int set[GP_METRIC_COUNT], n = 0;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (gp_metrics[i].in_default)
            set[n++] = i;
    const int base = run_passes(set, n);
    for (size_t j = 0; j < sizeof ids / sizeof ids[0]; j++) {
        set[n] = ids[j];
        const int with = run_passes(set, n + 1);
        CHECK(!gp_metrics[ids[j]].in_default && with > base,
              "%s: not in the default set, where it would cost a pass on GH100 (%d -> %d)", gp_metrics[ids[j]].name,
              base, with);
    }
}

static void test_offline_metrics(void)
{
    char why[512];
    int all[GP_METRIC_COUNT], dflt[GP_METRIC_COUNT], ndflt = 0;
    for (int i = 0; i < GP_METRIC_COUNT; i++) {
        all[i] = i;
        if (gp_metrics[i].in_default)
            dflt[ndflt++] = i;
    }
    /* each metric alone, so a failure names every bad row of metrics.def */
    int bad = 0;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (prof_check_metric_names("GH100", &all[i], 1, why, sizeof why) != 0) {
            bad++;
            printf("  GH100 rejects: %s\n", why);
        }
    CHECK(bad == 0, "all %d metrics of analysis/metrics.def exist for GH100", GP_METRIC_COUNT);
    CHECK(prof_check_metric_names("GH100", all, GP_METRIC_COUNT, why, sizeof why) == 0 && why[0] == '\0',
          "the whole table validates in one host session");

    int p = prof_count_passes_offline("GH100", dflt, ndflt);
    printf("  default set: %d metrics, %d passes on GH100\n", ndflt, p);
    CHECK(p >= 1 && p <= GP_DEFAULT_PASS_BUDGET, "default metric set needs 1..%d replay passes on GH100 (got %d)",
          GP_DEFAULT_PASS_BUDGET, p);
    int pall = prof_count_passes_offline("GH100", all, GP_METRIC_COUNT);
    printf("  all metrics: %d passes on GH100\n", pall);
    CHECK(pall >= p, "the full table needs at least as many passes as the default set (%d >= %d)", pall, p);
    for (int i = 0; i < GP_METRIC_COUNT; i++) {
        int one = prof_count_passes_offline("GH100", &all[i], 1);
        if (one > 1)
            printf("  %s alone costs %d passes\n", gp_metrics[i].name, one);
    }

    /* a Hopper-only metric on Ada: the validation must name it */
    int hg = GP_M_tensor_hgmma;
    CHECK(prof_check_metric_names("AD102", &hg, 1, why, sizeof why) == -1 &&
              strstr(why, gp_metrics[hg].name) && strstr(why, "AD102"),
          "unknown metric for the chip is named in the reason: %s", why);
    int ad_bad = 0;
    for (int i = 0; i < ndflt; i++)
        if (prof_check_metric_names("AD102", &dflt[i], 1, why, sizeof why) != 0) {
            ad_bad++;
            printf("  note: AD102 (RTX 4090, SM=89) lacks default metric %s\n", gp_metrics[dflt[i]].name);
        }
    printf("  AD102: %d default metrics unavailable\n", ad_bad);
    CHECK(prof_check_metric_names("NOSUCHCHIP", dflt, ndflt, why, sizeof why) == -1 && strstr(why, "NOSUCHCHIP"),
          "unknown chip is a clear error: %s", why);
    int oob = GP_METRIC_COUNT;
    CHECK(prof_check_metric_names("GH100", &oob, 1, why, sizeof why) == -1 && strstr(why, "outside"),
          "out-of-range metric index is rejected: %s", why);
    CHECK(prof_count_passes_offline("GH100", dflt, 0) == -1, "an empty metric set is rejected");
}

/* --metrics outside the table: checked by name against GH100's counter library and
 * configured with the table metrics in the same passes. */
static void test_offline_extra_metrics(void)
{
    char why[512] = "";
    gp_extra_reset();
    int fma = gp_extra_add("sm__inst_executed_pipe_fma.sum");
    int sectors = gp_extra_add("l1tex__t_sectors.sum");
    int bogus = gp_extra_add("sm__bogus_counter.sum");
    CHECK(fma == GP_METRIC_COUNT && sectors == GP_METRIC_COUNT + 1 && bogus == GP_METRIC_COUNT + 2,
          "extra metrics get the ids after the table (%d %d %d)", fma, sectors, bogus);
    int good[2] = {fma, sectors};
    CHECK(prof_check_metric_names("GH100", good, 2, why, sizeof why) == 0 && !why[0],
          "sm__inst_executed_pipe_fma.sum and l1tex__t_sectors.sum are known to GH100: %s", why);
    CHECK(prof_check_metric_names("GH100", &bogus, 1, why, sizeof why) == -1 &&
              strstr(why, "metric 'sm__bogus_counter.sum' is not known to GH100's counter library") &&
              !strchr(why, '\n'),
          "an unknown extra metric is refused on one line naming it and the chip: %s", why);

    /* the default set plus the two extras: one config, the extras in its passes */
    int set[GP_METRIC_COUNT + 2], n = 0;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (gp_metrics[i].in_default && !gp_metric_is_instrumented(i))
            set[n++] = i;
    int base = prof_count_passes_offline("GH100", set, n);
    set[n++] = fma;
    set[n++] = sectors;
    int with = prof_count_passes_offline("GH100", set, n);
    printf("  default hardware set %d passes, with the 2 extras %d\n", base, with);
    CHECK(base >= 1 && with >= base, "extras configure with the table metrics (%d -> %d passes)", base, with);
    set[n++] = bogus;
    CHECK(prof_count_passes_offline("GH100", set, n) == -1, "a set holding an unknown extra is not configured");

    int sass = gp_extra_add("smsp__sass_inst_executed_op_global_ld.sum");
    CHECK(gp_metric_is_instrumented(sass) && !gp_metric_is_instrumented(fma),
          "an extra smsp__sass_* metric is collected with the instrumented ones");
    gp_extra_reset();
    CHECK(gp_metric_name(fma) == NULL, "reset empties the extra list");
}

static void test_error_text(void)
{
    char why[512];
    unsetenv("CUDA_INJECTION64_PATH");
    cupti_describe_error("cuptiRangeProfilerEnable", 35, why, sizeof why);
    CHECK(strstr(why, "NVreg_RestrictProfilingToAdminUsers=0") && strstr(why, "root") &&
              strstr(why, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
          "35: admin-only counters, remedy named: %s", why);
    cupti_describe_error("cuptiSubscribe", 39, why, sizeof why);
    CHECK(strstr(why, "ncu") && strstr(why, "--no-counters"), "39: another tool holds CUPTI: %s", why);
    cupti_describe_error("cuptiRangeProfilerStart", 26, why, sizeof why);
    CHECK(strstr(why, "DCGM") && strstr(why, "HARDWARE_BUSY"), "26: counters busy: %s", why);
    cupti_describe_error("cuptiProfilerDeviceSupported", 43, why, sizeof why);
    CHECK(strstr(why, "MIG") && strstr(why, "does not support"), "43: MIG is an unsupported device: %s", why);
    cupti_describe_error("cuptiProfilerInitialize", 999, why, sizeof why);
    CHECK(strstr(why, "driver") && strstr(why, "cuptiProfilerInitialize"), "999 at init: no usable driver: %s", why);
    CHECK(!strstr(why, "\n"), "the reason is one line");
    setenv("CUDA_INJECTION64_PATH", "/opt/nsight/libToolsInjection64.so", 1);
    cupti_describe_error("cuptiSubscribe", 39, why, sizeof why);
    CHECK(strstr(why, "CUDA_INJECTION64_PATH") && strstr(why, "libToolsInjection64"),
          "an injected tool is mentioned: %s", why);
    unsetenv("CUDA_INJECTION64_PATH");
}

static void test_kernel_names(void)
{
    char n[256];
    cupti_kernel_name("_ZL11sgemm_naiveiiiPKfS0_Pf", n, sizeof n);
    CHECK(strcmp(n, "sgemm_naive") == 0, "static kernel demangles without parameters: %s", n);
    cupti_kernel_name("_Z6kernelIfEvPT_", n, sizeof n);
    CHECK(strcmp(n, "kernel<float>") == 0, "template kernel drops return type and parameters: %s", n);
    cupti_kernel_name("_ZN7cutlass6KernelI28cutlass_80_simt_sgemm_128x32EEvNT_6ParamsE", n, sizeof n);
    CHECK(strcmp(n, "cutlass::Kernel<cutlass_80_simt_sgemm_128x32>") == 0, "scoped template kernel: %s", n);
    cupti_kernel_name("plain_c_name", n, sizeof n);
    CHECK(strcmp(n, "plain_c_name") == 0, "a name that is not mangled is kept: %s", n);
    cupti_kernel_name(NULL, n, sizeof n);
    CHECK(strcmp(n, "?") == 0, "no name gives ?");
    cupti_kernel_name("_ZL11sgemm_naiveiiiPKfS0_Pf", n, 6);
    CHECK(strcmp(n, "sgemm") == 0, "output is truncated to the buffer: %s", n);
}

static void test_trace_writer(void)
{
    char why[512], path[256];
    snprintf(path, sizeof path, "/tmp/gemmprof_test_trace_%ld.json", (long)getpid());
    struct trace *t = trace_alloc();
    CHECK(t != NULL, "trace_alloc");
    if (!t)
        return;
    const uint64_t base = 1700000000000000000ull; /* realistic CUPTI ns timestamps */

    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = base + 1000;
    k.end = base + 3500;
    k.deviceId = 0;
    k.streamId = 7;
    k.gridX = 16, k.gridY = 8, k.gridZ = 1;
    k.blockX = 256, k.blockY = 1, k.blockZ = 1;
    k.registersPerThread = 128;
    k.staticSharedMemory = 4096;
    k.dynamicSharedMemory = 32768;
    k.correlationId = 42;
    k.name = "_ZL11sgemm_naiveiiiPKfS0_Pf";
    trace_add_record(t, (const CUpti_Activity *)&k);
    k.start = base + 4000;
    k.end = base + 5000;
    k.streamId = 13;
    k.correlationId = 43;
    k.name = "odd\"name\\x";
    trace_add_record(t, (const CUpti_Activity *)&k);
    k.start = 0; /* CUPTI could not time it: must be skipped */
    k.name = "untimed_kernel";
    trace_add_record(t, (const CUpti_Activity *)&k);

    CUpti_ActivityMemcpy6 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.bytes = 1u << 20;
    m.start = base + 500;
    m.end = base + 900;
    m.streamId = 7;
    trace_add_record(t, (const CUpti_Activity *)&m);

    CUpti_ActivityMarker2 mk;
    memset(&mk, 0, sizeof mk);
    mk.kind = CUPTI_ACTIVITY_KIND_MARKER;
    mk.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    mk.objectId.pt.threadId = 777;
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, mk.id = 5, mk.timestamp = base + 200, mk.name = "variant naive";
    mk.domain = "gemmprof";
    trace_add_record(t, (const CUpti_Activity *)&mk);
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, mk.id = 6, mk.timestamp = base + 300, mk.name = "rep 0";
    trace_add_record(t, (const CUpti_Activity *)&mk);
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, mk.id = 6, mk.timestamp = base + 3600, mk.name = NULL;
    trace_add_record(t, (const CUpti_Activity *)&mk);
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, mk.id = 5, mk.timestamp = base + 6000;
    trace_add_record(t, (const CUpti_Activity *)&mk);
    mk.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, mk.id = 9, mk.timestamp = base + 6100; /* no START */
    trace_add_record(t, (const CUpti_Activity *)&mk);

    CUpti_ActivityExternalCorrelation ec;
    memset(&ec, 0, sizeof ec);
    ec.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
    ec.correlationId = 42;
    ec.externalId = 1001;
    trace_add_record(t, (const CUpti_Activity *)&ec);
    trace_add_dropped(t, 3);

    int rc = trace_write(t, path, why, sizeof why);
    trace_free(t);
    CHECK(rc == 0, "trace_write succeeds (%s)", why);
    CHECK(strstr(why, "3 activity records dropped") && strstr(why, "1 NVTX markers unpaired"),
          "dropped and unpaired records are reported: %s", why);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    CHECK(access(tmp, F_OK) != 0, "no temp file is left behind");
    char *s = slurp(path);
    CHECK(s != NULL, "the trace file exists");
    if (!s)
        return;
    CHECK(json_balanced(s), "the trace is balanced JSON");
    CHECK(strncmp(s, "{\"traceEvents\":[", 16) == 0 && strstr(s, "\"displayTimeUnit\":\"ns\""),
          "trace-event envelope");
    CHECK(count(s, "\"ph\":\"X\"") == 5, "2 kernels + 1 memcpy + 2 NVTX ranges are X events (got %d)",
          count(s, "\"ph\":\"X\""));
    CHECK(!strstr(s, "untimed_kernel"), "a record without timestamps is skipped");
    CHECK(strstr(s, "\"name\":\"sgemm_naive\"") != NULL, "kernel named by its demangled short name");
    CHECK(strstr(s, "odd\\\"name\\\\x") != NULL, "names are JSON-escaped");
    /* t0 is the first record (NVTX START at base+200): the kernel starts 0.800 us later */
    CHECK(strstr(s, "\"ts\":0.800,\"dur\":2.500") != NULL, "kernel ts/dur in fractional microseconds");
    CHECK(strstr(s, "\"name\":\"variant naive\",\"cat\":\"nvtx\"") && strstr(s, "\"ts\":0.000,\"dur\":5.800"),
          "NVTX START/END paired by id into one slice");
    CHECK(strstr(s, "\"grid\":[16,8,1],\"block\":[256,1,1],\"registers_per_thread\":128") &&
              strstr(s, "\"dynamic_shared_bytes\":32768"),
          "kernel args carry grid, block, registers and shared memory");
    CHECK(strstr(s, "\"external_id\":1001") != NULL, "external correlation id joined to its kernel");
    CHECK(strstr(s, "\"name\":\"Memcpy HtoD\"") && strstr(s, "\"bytes\":1048576"), "memcpy slice");
    CHECK(count(s, "\"name\":\"thread_name\"") == 3, "one named track per stream (2) and one NVTX track (got %d)",
          count(s, "\"name\":\"thread_name\""));
    CHECK(strstr(s, "\"args\":{\"name\":\"GPU 0\"}") && strstr(s, "\"args\":{\"name\":\"stream 13\"}"),
          "GPU process and stream tracks are named");
    CHECK(strstr(s, "\"dropped_records\":3") && strstr(s, "\"unpaired_nvtx_markers\":1"),
          "counts recorded in otherData");
    free(s);
    unlink(path);

    CHECK(trace_write(NULL, path, why, sizeof why) == -1 && why[0], "no trace: error, not a crash");
    struct trace *e = trace_alloc();
    CHECK(trace_write(e, "/nonexistent-dir/x/trace.json", why, sizeof why) == -1 && strstr(why, "nonexistent-dir"),
          "unwritable path names the file: %s", why);
    trace_free(e);
}

/* ---- with a GPU ---- */

struct sgemm {
    cublasHandle_t h;
    int n;
    float *a, *b, *c;
};

static int run_sgemm(void *arg)
{
    struct sgemm *g = arg;
    const float one = 1.0f, zero = 0.0f;
    if (cublasSgemm(g->h, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one, g->a, g->n, g->b, g->n, &zero, g->c,
                    g->n) != CUBLAS_STATUS_SUCCESS)
        return -1;
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

/* The launch facts of a cuBLAS SGEMM, captured as the harness captures them; the
 * third round inside a --trace timeline, which shares the activity registration. */
static void test_gpu_launch_facts(struct sgemm *g)
{
    char why[512];
    int reserved = 0;
    cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0);
    for (int round = 0; round < 3; round++) {   /* the second: subscribing again works */
        struct gp_result r;
        gp_result_init(&r);
        char path[256];
        snprintf(path, sizeof path, "/tmp/gemmprof_test_launch_trace_%ld.json", (long)getpid());
        struct trace *t = round == 2 ? trace_start(why, sizeof why) : NULL;
        if (round == 2)
            CHECK(t != NULL, "trace_start for the capture inside a trace (%s)", why);
        int b = launch_capture_begin(why, sizeof why);
        CHECK(b == 0, "launch capture begins (%s)", why);
        if (b != 0) {
            if (t)
                trace_finish(t, path, why, sizeof why);
            unlink(path);
            return;
        }
        run_sgemm(g);
        int rc = launch_capture_end(&r, why, sizeof why);
        CHECK(rc >= 0, "launch facts of a cuBLAS SGEMM (%s)", why);
        if (t) {
            run_sgemm(g);   /* after the capture: the trace must still see kernels */
            cudaDeviceSynchronize();
            CHECK(trace_finish(t, path, why, sizeof why) == 0, "the trace around a capture finishes (%s)", why);
            char *s = slurp(path);
            CHECK(s && json_balanced(s) && count(s, "\"cat\":\"kernel\"") >= 2,
                  "the trace kept the kernels of the captured call and of the one after it (%d)",
                  s ? count(s, "\"cat\":\"kernel\"") : -1);
            free(s);
            unlink(path);
        }
        if (rc < 0)
            continue;
        printf("  %s: grid %gx%gx%g block %gx%gx%g, %g regs, %g+%g B smem, limits %g/%g/%g/%g -> %g per SM "
               "(%s), config %g B, occupancy %.1f%%, %.3f waves, tail %.3f%s%s\n",
               r.launch_kernel, r.grid_x, r.grid_y, r.grid_z, r.block_x, r.block_y, r.block_z,
               r.registers_per_thread, r.smem_static_bytes, r.smem_dynamic_bytes, r.block_limit_registers,
               r.block_limit_smem, r.block_limit_warps, r.block_limit_blocks, r.blocks_per_sm,
               r.occupancy_limiter, r.smem_config_bytes, r.occupancy_theoretical_pct, r.waves, r.tail_efficiency,
               rc ? "; note: " : "", rc ? why : "");
        CHECK(r.launch_kernel[0] && !strstr(r.launch_kernel, "_Z"), "the kernel named, demangled: %s", r.launch_kernel);
        CHECK(r.blocks >= 1 && r.blocks == r.grid_x * r.grid_y * r.grid_z && r.block_x >= 1,
              "grid and block recorded (%g blocks)", r.blocks);
        CHECK(r.registers_per_thread >= 1 && r.registers_per_thread <= 255, "registers per thread: %g",
              r.registers_per_thread);
        CHECK(rc == 0, "the limits agree with the occupancy API, the driver's configuration known (%s)",
              rc ? why : "yes");
        /* the limit is the driver's configuration over the per-block need */
        double per_block = ceil((r.smem_static_bytes + r.smem_dynamic_bytes + reserved) / 128.0) * 128.0;
        CHECK(r.smem_config_bytes > 0 && r.block_limit_smem == floor(r.smem_config_bytes / per_block),
              "block_limit_smem %g = floor(configuration %g B / %g B per block)", r.block_limit_smem,
              r.smem_config_bytes, per_block);
        CHECK(r.blocks_per_sm >= 1 && r.occupancy_theoretical_pct > 0 && r.occupancy_theoretical_pct <= 100 &&
                  r.occupancy_limiter[0],
              "blocks per SM, occupancy and limiter: %g, %.1f%%, %s", r.blocks_per_sm, r.occupancy_theoretical_pct,
              r.occupancy_limiter);
        CHECK(r.waves > 0 && r.tail_efficiency > 0 && r.tail_efficiency <= 1, "waves %g, tail %g", r.waves,
              r.tail_efficiency);
    }
}

static void test_gpu(void)
{
    char why[512];
    int ndev = 0;
    cudaError_t ce = cudaGetDeviceCount(&ndev);
    int dflt[GP_METRIC_COUNT], ndflt = 0;
    for (int i = 0; i < GP_METRIC_COUNT; i++)
        if (gp_metrics[i].in_default)
            dflt[ndflt++] = i;

    if (ce != cudaSuccess || ndev == 0) {
        struct prof_session *s = prof_open(0, dflt, ndflt, why, sizeof why);
        CHECK(s == NULL, "prof_open without a GPU returns NULL");
        CHECK(why[0] && (strstr(why, "driver") || strstr(why, "CUPTI")) && !strchr(why, '\n'),
              "and says why in one line: %s", why);
        prof_close(s);
        prof_close(NULL);
        CHECK(prof_num_passes(NULL) == -1, "prof_num_passes(NULL) is -1");
        double v[GP_METRIC_COUNT];
        CHECK(prof_measure(NULL, NULL, run_sgemm, NULL, v, NULL, 0, why, sizeof why) == -1 && why[0],
              "prof_measure on no session fails cleanly");
        struct trace *t = trace_start(why, sizeof why);
        if (t) {
            char path[256];
            snprintf(path, sizeof path, "/tmp/gemmprof_test_empty_%ld.json", (long)getpid());
            CHECK(trace_finish(t, path, why, sizeof why) == 0, "trace without a GPU still finishes (%s)", why);
            unlink(path);
        } else {
            CHECK(why[0] && strstr(why, "CUPTI") && strstr(why, "cuptiActivity"),
                  "trace_start without a GPU returns NULL with the reason: %s", why);
        }
        struct gp_result row;
        gp_result_init(&row);
        CHECK(launch_capture_begin(why, sizeof why) == -1 && why[0] && !strchr(why, '\n'),
              "launch capture without a GPU refused in one line: %s", why);
        CHECK(launch_capture_end(&row, why, sizeof why) == -1 && isnan(row.grid_x),
              "ending a capture that never began: refused, the row untouched (%s)", why);
        char absent[256];
        device_absence_reason(ce, absent, sizeof absent);
        SKIP(absent, "GPU profiling and tracing of a cuBLAS SGEMM");
        return;
    }

    struct sgemm g = {.n = 512};
    size_t bytes = (size_t)g.n * g.n * sizeof(float);
    if (cudaSetDevice(0) != cudaSuccess || cublasCreate(&g.h) != CUBLAS_STATUS_SUCCESS ||
        cudaMalloc((void **)&g.a, bytes) != cudaSuccess || cudaMalloc((void **)&g.b, bytes) != cudaSuccess ||
        cudaMalloc((void **)&g.c, bytes) != cudaSuccess) {
        CHECK(0, "GPU setup for the SGEMM");
        return;
    }
    cudaMemset(g.a, 0, bytes);
    cudaMemset(g.b, 0, bytes);
    run_sgemm(&g); /* warm up: cuBLAS loads its kernels outside the trace */

    char path[256];
    snprintf(path, sizeof path, "/tmp/gemmprof_test_gpu_trace_%ld.json", (long)getpid());
    struct trace *t = trace_start(why, sizeof why);
    CHECK(t != NULL, "trace_start on the GPU (%s)", why);
    if (t) {
        nvtxRangePushA("test_cupti_sgemm");
        run_sgemm(&g);
        nvtxRangePop();
        cudaDeviceSynchronize();
        CHECK(trace_finish(t, path, why, sizeof why) == 0, "trace_finish (%s)", why);
        char *s = slurp(path);
        CHECK(s && json_balanced(s), "GPU trace is balanced JSON");
        CHECK(s && count(s, "\"cat\":\"kernel\"") >= 1, "the SGEMM kernel is in the trace");
        CHECK(s && strstr(s, "\"name\":\"test_cupti_sgemm\""), "the NVTX range reached CUPTI (trace_prepare)");
        CHECK(s && count(s, "\"cat\":\"cuda_api\"") >= 1, "runtime API calls are traced");
        if (s)
            printf("  trace: %d kernel, %d memset/memcpy, %d API slices; warning: %s\n",
                   count(s, "\"cat\":\"kernel\""), count(s, "\"cat\":\"memset\"") + count(s, "\"cat\":\"memcpy\""),
                   count(s, "\"cat\":\"cuda_api\""), why[0] ? why : "none");
        free(s);
        unlink(path);
    }

    struct prof_session *s = prof_open(0, dflt, ndflt, why, sizeof why);
    if (!s && (strstr(why, "admin") || strstr(why, "another tool"))) {
        SKIP(why, "range profiler measurement");
    } else {
        CHECK(s != NULL, "prof_open on the GPU (%s)", why);
    }
    const int had_session = s != NULL;
    if (s) {
        int passes = prof_num_passes(s);
        CHECK(passes >= 1 && passes <= GP_DEFAULT_PASS_BUDGET, "default set: %d passes on this GPU", passes);
        double v1[GP_METRIC_COUNT], v2[GP_METRIC_COUNT];
        char k1[1024], k2[1024];
        int r1 = prof_measure(s, NULL, run_sgemm, &g, v1, k1, sizeof k1, why, sizeof why);
        CHECK(r1 == 0, "prof_measure of a cuBLAS SGEMM (%s)", why);
        int r2 = prof_measure(s, NULL, run_sgemm, &g, v2, k2, sizeof k2, why, sizeof why);
        CHECK(r2 == 0, "a second prof_measure (%s)", why);
        if (r1 == 0 && r2 == 0) {
            double mnk = (double)g.n * g.n * g.n;
            printf("  kernels: %s\n", k1);
            for (int i = 0; i < ndflt; i++)
                printf("  %-60s %.6g\n", gp_metrics[dflt[i]].name, v1[dflt[i]]);
            CHECK(k1[0] && k1[0] != '?' && !strstr(k1, "_Z"), "kernel names are captured and demangled: %s", k1);
            CHECK(strcmp(k1, k2) == 0, "both measures see the same kernels (second: %s)", k2);
            CHECK_NEAR(v1[GP_M_ffma], mnk, 0.03, "FFMA thread instructions ~ M*N*K (%.0f vs %.0f)", v1[GP_M_ffma], mnk);
            CHECK_NEAR(v2[GP_M_ffma], v1[GP_M_ffma], 1e-9, "counts do not accumulate across measures");
            CHECK(v1[GP_M_duration] > 0 && v1[GP_M_duration] < 1e9, "kernel duration in ns: %.0f", v1[GP_M_duration]);
            CHECK(v1[GP_M_sm_clock] > 1e8 && v1[GP_M_sm_clock] < 5e9, "SM clock in Hz: %.3g", v1[GP_M_sm_clock]);
            CHECK(v1[GP_M_l2_bytes] >= 2.0 * bytes, "L2 traffic at least reads A and B: %.3g", v1[GP_M_l2_bytes]);
        }
        /* a batch: two SGEMMs of different sizes, one range each, one pass sequence */
        struct sgemm small = g;
        small.n = g.n / 2;
        void *args[2] = {&g, &small};
        double b1[GP_METRIC_COUNT], b2[GP_METRIC_COUNT], *bv[2] = {b1, b2};
        char bk1[1024], bk2[1024], *bk[2] = {bk1, bk2};
        int rb = prof_measure_batch(s, 2, NULL, run_sgemm, args, bv, bk, sizeof bk1, why, sizeof why);
        CHECK(rb == 0, "prof_measure_batch of two SGEMMs (%s)", why);
        if (rb == 0) {
            double n1 = (double)g.n * g.n * g.n, n2 = (double)small.n * small.n * small.n;
            CHECK_NEAR(b1[GP_M_ffma], n1, 0.03, "batch: first range's FFMA ~ its M*N*K (%.0f vs %.0f)", b1[GP_M_ffma], n1);
            CHECK_NEAR(b2[GP_M_ffma], n2, 0.10, "batch: second range's FFMA ~ its M*N*K (%.0f vs %.0f)", b2[GP_M_ffma], n2);
            CHECK(bk1[0] && bk2[0], "batch: kernel names per range (%s | %s)", bk1, bk2);
        }
        /* CUPTI has one subscriber, and a run keeps its sessions open while the next
         * shape's verify launch is captured: between measures the session holds none */
        struct gp_result row;
        gp_result_init(&row);
        int cap = launch_capture_begin(why, sizeof why);
        CHECK(cap == 0, "launch capture with a session open between measures (%s)", why);
        if (cap == 0) {
            run_sgemm(&g);
            CHECK(launch_capture_end(&row, why, sizeof why) >= 0, "its launch facts (%s)", why);
        }
        int r3 = prof_measure(s, NULL, run_sgemm, &g, v1, k1, sizeof k1, why, sizeof why);
        CHECK(r3 == 0 && k1[0], "the session measures after the capture, names included (%s)", why);
        /* a second session beside a kept one: on the H200 CUPTI refuses it (counter
         * availability: CUPTI_ERROR_INVALID_PARAMETER), which is why the run keeps only one
         * (src/counter_phase.c). Refused or not, it must say why, and leave the first
         * session measuring */
        const int ffma = GP_M_ffma;
        why[0] = '\0';
        struct prof_session *s2 = prof_open(0, &ffma, 1, why, sizeof why);
        CHECK(s2 != NULL || why[0], "a second session beside the first opens or says why (%s)", s2 ? "opened" : why);
        prof_close(s2);
        const double mnk = (double)g.n * g.n * g.n;
        r3 = prof_measure(s, NULL, run_sgemm, &g, v1, k1, sizeof k1, why, sizeof why);
        CHECK(r3 == 0, "the first session measures after the second (%s)", why);
        if (r3 == 0)
            CHECK_NEAR(v1[GP_M_ffma], mnk, 0.03, "its FFMA ~ M*N*K (%.0f vs %.0f)", v1[GP_M_ffma], mnk);
        prof_close(s);
    }
    test_gpu_launch_facts(&g);
    if (had_session) {
        /* a second session in the same process: nothing left over from the first, nor
         * from the launch captures */
        s = prof_open(0, dflt, ndflt, why, sizeof why);
        CHECK(s != NULL, "prof_open again after prof_close and the launch captures (%s)", why);
        prof_close(s);
    }
    cudaFree(g.a);
    cudaFree(g.b);
    cudaFree(g.c);
    cublasDestroy(g.h);
}

int main(void)
{
    /* before any NVTX call, as gemmprof's main does */
    const char *pre = getenv("NVTX_INJECTION64_PATH");
    trace_prepare();
    const char *nvtx = getenv("NVTX_INJECTION64_PATH");
    if (pre)
        CHECK(nvtx && strcmp(nvtx, pre) == 0, "trace_prepare keeps an NVTX_INJECTION64_PATH set by another tool");
    else
        CHECK(nvtx && strstr(nvtx, "libcupti.so") && nvtx[0] == '/',
              "trace_prepare points NVTX at the loaded libcupti: %s", nvtx ? nvtx : "(unset)");

    test_offline_metrics();
    test_offline_pass_costs();
    test_offline_16bit_counters();
    test_offline_extra_metrics();
    test_error_text();
    test_kernel_names();
    test_trace_writer();
    test_gpu();
    TEST_EXIT();
}

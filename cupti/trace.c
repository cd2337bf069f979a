/* A Perfetto / chrome://tracing timeline from CUPTI activity records (cupti/trace.h).
 *
 *   trace_prepare();                      before the first NVTX call of the process
 *   struct trace *t = trace_start(why, sizeof why);
 *   ... run, then cudaDeviceSynchronize() ...
 *   trace_finish(t, "out/trace.json", why, sizeof why);
 *
 * The JSON is the trace-event format: kernels, memcpys and memsets as "X" slices on
 * one track per stream under a "GPU n" process; NVTX push/pop ranges and CUDA runtime
 * calls on separate tracks of the host process; "M" events name processes and tracks.
 * Timestamps are microseconds (fractional, ns resolution) from the first record.
 * CUPTI delivers records in buffers on its own thread, so the store is behind a mutex;
 * one trace can run at a time because the buffer callbacks are process-wide.
 * The activity headers compile as C, so this is C (unlike prof.cpp).
 */
#include "cupti/trace.h"

#include "analysis/atomic_file.h"
#include "analysis/meta.h"
#include "cupti/activity.h"
#include "cupti/common.h"
#include "cupti/trace_internal.h"

#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GPU processes get pids far above any Linux pid (pid_max <= 2^22). */
#define TR_GPU_PID_BASE (1 << 30)
#define TR_MAX_HOST_THREADS 256

enum tr_what { TR_KERNEL, TR_MEMCPY, TR_MEMSET };

struct tr_gpu {
    uint64_t start, end;
    uint32_t device, stream, corr;
    enum tr_what what;
    char *name;    /* kernels: short demangled name (owned) */
    char *symbol;  /* kernels: mangled symbol (owned) */
    int32_t grid[3], block[3];
    int32_t static_smem, dynamic_smem;
    uint32_t regs;
    uint64_t bytes;
    uint32_t sub;  /* memcpy: copy kind; memset: value */
};

struct tr_api {
    uint64_t start, end;
    uint32_t thread, corr, cbid;
};

struct tr_marker {
    uint64_t ts;
    uint32_t id, thread, flags;
    char *name, *domain;  /* owned; NULL on END records */
};

struct tr_ext {
    uint32_t corr;
    uint64_t id;
};

struct trace {
    struct tr_gpu *gpu;
    size_t ngpu, capgpu;
    struct tr_api *api;
    size_t napi, capapi;
    struct tr_marker *mk;
    size_t nmk, capmk;
    struct tr_ext *ext;
    size_t next, capext;
    size_t dropped;
    int nvtx_routed;                /* NVTX_INJECTION64_PATH set when the trace started */
    CUpti_ActivityKind enabled[8];
    int nenabled;
};

#define say cupti_say

/* Room for one more element in *arr; 0 or -1 when out of memory. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 256;
    void *p = realloc(*arr, nc * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}
#define TR_GROW(t, arr, n, cap) grow((void **)&(t)->arr, &(t)->cap, (t)->n, sizeof *(t)->arr)

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

struct trace *trace_alloc(void)
{
    struct trace *t = calloc(1, sizeof *t);
    return t;
}

void trace_add_dropped(struct trace *t, size_t n)
{
    if (t)
        t->dropped += n;
}

void trace_add_record(struct trace *t, const CUpti_Activity *rec)
{
    if (!t || !rec)
        return;
    switch (rec->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (TR_GROW(t, gpu, ngpu, capgpu) != 0) {
            t->dropped++;
            return;
        }
        char name[512];
        cupti_kernel_name(k->name, name, sizeof name);
        struct tr_gpu *g = &t->gpu[t->ngpu++];
        *g = (struct tr_gpu){
            .start = k->start, .end = k->end, .device = k->deviceId, .stream = k->streamId,
            .corr = k->correlationId, .what = TR_KERNEL, .name = strdup(name),
            .symbol = dup_or_null(k->name),
            .grid = {k->gridX, k->gridY, k->gridZ}, .block = {k->blockX, k->blockY, k->blockZ},
            .static_smem = k->staticSharedMemory, .dynamic_smem = k->dynamicSharedMemory,
            .regs = k->registersPerThread,
        };
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)rec;
        if (TR_GROW(t, gpu, ngpu, capgpu) != 0) {
            t->dropped++;
            return;
        }
        t->gpu[t->ngpu++] = (struct tr_gpu){
            .start = m->start, .end = m->end, .device = m->deviceId, .stream = m->streamId,
            .corr = m->correlationId, .what = TR_MEMCPY, .bytes = m->bytes, .sub = m->copyKind,
        };
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
        if (TR_GROW(t, gpu, ngpu, capgpu) != 0) {
            t->dropped++;
            return;
        }
        t->gpu[t->ngpu++] = (struct tr_gpu){
            .start = m->start, .end = m->end, .device = m->deviceId, .stream = m->streamId,
            .corr = m->correlationId, .what = TR_MEMSET, .bytes = m->bytes, .sub = m->value,
        };
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const CUpti_ActivityAPI *a = (const CUpti_ActivityAPI *)rec;
        if (TR_GROW(t, api, napi, capapi) != 0) {
            t->dropped++;
            return;
        }
        t->api[t->napi++] = (struct tr_api){a->start, a->end, a->threadId, a->correlationId, a->cbid};
        break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {
        const CUpti_ActivityMarker2 *m = (const CUpti_ActivityMarker2 *)rec;
        if (TR_GROW(t, mk, nmk, capmk) != 0) {
            t->dropped++;
            return;
        }
        t->mk[t->nmk++] = (struct tr_marker){
            .ts = m->timestamp, .id = m->id, .flags = (uint32_t)m->flags,
            .thread = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0,
            .name = dup_or_null(m->name), .domain = dup_or_null(m->domain),
        };
        break;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const CUpti_ActivityExternalCorrelation *e = (const CUpti_ActivityExternalCorrelation *)rec;
        if (TR_GROW(t, ext, next, capext) != 0) {
            t->dropped++;
            return;
        }
        t->ext[t->next++] = (struct tr_ext){e->correlationId, e->externalId};
        break;
    }
    default:
        break;
    }
}

void trace_free(struct trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ngpu; i++) {
        free(t->gpu[i].name);
        free(t->gpu[i].symbol);
    }
    for (size_t i = 0; i < t->nmk; i++) {
        free(t->mk[i].name);
        free(t->mk[i].domain);
    }
    free(t->gpu);
    free(t->api);
    free(t->mk);
    free(t->ext);
    free(t);
}

/* ---- JSON ---- */

struct tr_writer {
    FILE *f;
    int first;
    uint64_t t0;
    int host_pid;
    uint32_t threads[TR_MAX_HOST_THREADS];  /* host thread ids, by first appearance */
    int nthreads;
    uint64_t named[1024];                   /* (pid, tid) pairs already given a name */
    int nnamed;
};

static void ev_begin(struct tr_writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

static double us(uint64_t t, uint64_t t0)
{
    return t >= t0 ? (double)(t - t0) / 1e3 : -(double)(t0 - t) / 1e3;
}

static void ev_meta(struct tr_writer *w, const char *what, int pid, long long tid, const char *name)
{
    ev_begin(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%lld,\"args\":{\"name\":", what, pid, tid);
    json_write_string(w->f, name);
    fputs("}}", w->f);
}

static void ev_sort(struct tr_writer *w, const char *what, int pid, long long tid, int index)
{
    ev_begin(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%lld,\"args\":{\"sort_index\":%d}}",
            what, pid, tid, index);
}

/* 1 if (pid, tid) was seen before; remembers it otherwise. tid -1 stands for the
 * process itself. */
static int seen(struct tr_writer *w, int pid, long long tid)
{
    uint64_t key = ((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid;
    for (int i = 0; i < w->nnamed; i++)
        if (w->named[i] == key)
            return 1;
    if (w->nnamed < (int)(sizeof w->named / sizeof w->named[0]))
        w->named[w->nnamed++] = key;
    return 0;
}

/* Names a track the first time it is used. */
static void track(struct tr_writer *w, int pid, long long tid, const char *name, int sort)
{
    if (seen(w, pid, tid))
        return;
    ev_meta(w, "thread_name", pid, tid, name);
    ev_sort(w, "thread_sort_index", pid, tid, sort);
}

/* Small per-thread index for the host tracks: 2i+1 NVTX, 2i+2 CUDA API. */
static int host_thread(struct tr_writer *w, uint32_t thread)
{
    for (int i = 0; i < w->nthreads; i++)
        if (w->threads[i] == thread)
            return i;
    if (w->nthreads < TR_MAX_HOST_THREADS) {
        w->threads[w->nthreads] = thread;
        return w->nthreads++;
    }
    return TR_MAX_HOST_THREADS - 1;
}

static void ev_slice(struct tr_writer *w, const char *name, const char *cat, int pid, long long tid,
                     uint64_t start, uint64_t end)
{
    ev_begin(w);
    fputs("{\"ph\":\"X\",\"name\":", w->f);
    json_write_string(w->f, name ? name : "?");
    fprintf(w->f, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%lld,\"ts\":%.3f,\"dur\":%.3f", cat, pid, tid,
            us(start, w->t0), (double)(end - start) / 1e3);
}

static const char *memcpy_name(uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "Memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "Memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "Memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "Memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "Memcpy PtoP";
    default: return "Memcpy";
    }
}

static int cmp_ext(const void *a, const void *b)
{
    const struct tr_ext *x = a, *y = b;
    return x->corr < y->corr ? -1 : x->corr > y->corr;
}

static int cmp_marker(const void *a, const void *b)
{
    const struct tr_marker *x = *(const struct tr_marker *const *)a, *y = *(const struct tr_marker *const *)b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* A usable time span: CUPTI leaves timestamps 0 when it could not take them. */
static int valid_span(uint64_t start, uint64_t end)
{
    return start != 0 && end >= start;
}

static void write_gpu(struct tr_writer *w, const struct trace *t, const struct tr_ext *ext)
{
    char label[64];
    for (size_t i = 0; i < t->ngpu; i++) {
        const struct tr_gpu *g = &t->gpu[i];
        if (!valid_span(g->start, g->end))
            continue;
        int pid = TR_GPU_PID_BASE + (int)g->device;
        snprintf(label, sizeof label, "GPU %u", g->device);
        if (!seen(w, pid, -1)) {
            ev_meta(w, "process_name", pid, 0, label);
            ev_sort(w, "process_sort_index", pid, 0, 1 + (int)g->device);
        }
        snprintf(label, sizeof label, "stream %u", g->stream);
        track(w, pid, g->stream, label, (int)g->stream);
        switch (g->what) {
        case TR_KERNEL:
            ev_slice(w, g->name, "kernel", pid, g->stream, g->start, g->end);
            fprintf(w->f,
                    ",\"args\":{\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"registers_per_thread\":%u,"
                    "\"static_shared_bytes\":%d,\"dynamic_shared_bytes\":%d,\"correlation_id\":%u",
                    g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2], g->regs,
                    g->static_smem, g->dynamic_smem, g->corr);
            if (ext) {
                struct tr_ext key = {g->corr, 0};
                const struct tr_ext *e = bsearch(&key, ext, t->next, sizeof *ext, cmp_ext);
                if (e)
                    fprintf(w->f, ",\"external_id\":%llu", (unsigned long long)e->id);
            }
            if (g->symbol) {
                fputs(",\"symbol\":", w->f);
                json_write_string(w->f, g->symbol);
            }
            fputs("}}", w->f);
            break;
        case TR_MEMCPY:
        case TR_MEMSET: {
            double dur_s = (double)(g->end - g->start) * 1e-9;
            ev_slice(w, g->what == TR_MEMCPY ? memcpy_name(g->sub) : "Memset", g->what == TR_MEMCPY ? "memcpy" : "memset",
                     pid, g->stream, g->start, g->end);
            fprintf(w->f, ",\"args\":{\"bytes\":%llu,\"GB/s\":%.3f,\"correlation_id\":%u}}",
                    (unsigned long long)g->bytes, dur_s > 0 ? (double)g->bytes / dur_s / 1e9 : 0.0, g->corr);
            break;
        }
        }
    }
}

static void write_api(struct tr_writer *w, const struct trace *t)
{
    char label[64], fn[128];
    for (size_t i = 0; i < t->napi; i++) {
        const struct tr_api *a = &t->api[i];
        if (!valid_span(a->start, a->end))
            continue;
        int ti = host_thread(w, a->thread);
        snprintf(label, sizeof label, "CUDA API (thread %u)", a->thread);
        track(w, w->host_pid, 2 * ti + 2, label, 2 * ti + 2);
        const char *name = NULL;
        if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name) != CUPTI_SUCCESS || !name)
            name = "cuda runtime call";
        /* "cudaLaunchKernel_v7000" -> "cudaLaunchKernel" */
        snprintf(fn, sizeof fn, "%s", name);
        char *v = strstr(fn, "_v");
        if (v && v[2] >= '0' && v[2] <= '9')
            *v = '\0';
        ev_slice(w, fn, "cuda_api", w->host_pid, 2 * ti + 2, a->start, a->end);
        fprintf(w->f, ",\"args\":{\"correlation_id\":%u}}", a->corr);
    }
}

/* NVTX: a START and an END record share an id; instantaneous marks stand alone. */
static size_t write_nvtx(struct tr_writer *w, const struct trace *t)
{
    size_t unpaired = 0;
    char label[64];
    const struct tr_marker **by_id = malloc((t->nmk ? t->nmk : 1) * sizeof *by_id);
    if (!by_id)
        return t->nmk;
    for (size_t i = 0; i < t->nmk; i++)
        by_id[i] = &t->mk[i];
    qsort(by_id, t->nmk, sizeof *by_id, cmp_marker);
    for (size_t i = 0; i < t->nmk; i++) {
        const struct tr_marker *m = by_id[i];
        if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
            int ti = host_thread(w, m->thread);
            snprintf(label, sizeof label, "NVTX (thread %u)", m->thread);
            track(w, w->host_pid, 2 * ti + 1, label, 2 * ti + 1);
            ev_begin(w);
            fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":", w->f);
            json_write_string(w->f, m->name ? m->name : "mark");
            fprintf(w->f, ",\"cat\":\"nvtx\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f}", w->host_pid, 2 * ti + 1,
                    us(m->ts, w->t0));
            continue;
        }
        if (!(m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START))
            continue; /* ENDs are consumed by their START; a lone END is counted below */
        const struct tr_marker *end = NULL;
        for (size_t j = i + 1; j < t->nmk && by_id[j]->id == m->id; j++)
            if (by_id[j]->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
                end = by_id[j];
                break;
            }
        if (!end || end->ts < m->ts) {
            unpaired++;
            continue;
        }
        int ti = host_thread(w, m->thread);
        snprintf(label, sizeof label, "NVTX (thread %u)", m->thread);
        track(w, w->host_pid, 2 * ti + 1, label, 2 * ti + 1);
        ev_slice(w, m->name ? m->name : "range", "nvtx", w->host_pid, 2 * ti + 1, m->ts, end->ts);
        fputs(",\"args\":{\"domain\":", w->f);
        json_write_string(w->f, m->domain ? m->domain : "default");
        fputs("}}", w->f);
    }
    /* ENDs without a START */
    for (size_t i = 0; i < t->nmk; i++) {
        const struct tr_marker *m = by_id[i];
        if (!(m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END))
            continue;
        int has_start = 0;
        for (size_t j = i; j-- > 0 && by_id[j]->id == m->id;)
            has_start |= (by_id[j]->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) != 0;
        if (!has_start)
            unpaired++;
    }
    free(by_id);
    return unpaired;
}

int trace_write(const struct trace *t, const char *path, char *why, size_t len)
{
    if (why && len)
        why[0] = '\0';
    if (!t || !path || !*path) {
        say(why, len, "trace_write: no trace or no output path");
        return -1;
    }
    struct tr_writer *w = calloc(1, sizeof *w);
    struct tr_ext *ext = NULL;
    if (!w) {
        say(why, len, "%s: out of memory writing the trace", path);
        return -1;
    }

    /* t0: the earliest timestamp of any record, so ts stays small and exact */
    uint64_t t0 = UINT64_MAX;
    for (size_t i = 0; i < t->ngpu; i++)
        if (valid_span(t->gpu[i].start, t->gpu[i].end) && t->gpu[i].start < t0)
            t0 = t->gpu[i].start;
    for (size_t i = 0; i < t->napi; i++)
        if (valid_span(t->api[i].start, t->api[i].end) && t->api[i].start < t0)
            t0 = t->api[i].start;
    for (size_t i = 0; i < t->nmk; i++)
        if (t->mk[i].ts && t->mk[i].ts < t0)
            t0 = t->mk[i].ts;
    if (t0 == UINT64_MAX)
        t0 = 0;

    if (t->next) {
        ext = malloc(t->next * sizeof *ext);
        if (ext) {
            memcpy(ext, t->ext, t->next * sizeof *ext);
            qsort(ext, t->next, sizeof *ext, cmp_ext);
        }
    }

    struct atomic_file out;
    char err[4400];
    FILE *f = atomic_open(&out, path, err, sizeof err);
    if (!f) {
        say(why, len, "%s", err);
        free(w);
        free(ext);
        return -1;
    }
    w->f = f;
    w->first = 1;
    w->t0 = t0;
    w->host_pid = (int)getpid();
    fputs("{\"traceEvents\":[", f);
    ev_meta(w, "process_name", w->host_pid, 0, "gemmprof (host)");
    ev_sort(w, "process_sort_index", w->host_pid, 0, 0);
    write_gpu(w, t, ext);
    write_api(w, t);
    size_t unpaired = write_nvtx(w, t);
    fprintf(f,
            "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"gemmprof cupti/trace.c\","
            "\"time_origin_ns\":%llu,\"dropped_records\":%zu,\"unpaired_nvtx_markers\":%zu}}\n",
            (unsigned long long)t0, t->dropped, unpaired);
    free(w);
    free(ext);
    if (atomic_commit(&out, err, sizeof err) != 0) {
        say(why, len, "%s", err);
        return -1;
    }
    if (t->dropped || unpaired)
        say(why, len, "%s: %zu activity records dropped, %zu NVTX markers unpaired (timeline incomplete)",
            path, t->dropped, unpaired);
    else if (!t->nvtx_routed && t->nmk == 0 && t->ngpu > 0)
        say(why, len, "%s: no NVTX ranges recorded: NVTX_INJECTION64_PATH was unset (call trace_prepare first)",
            path);
    return 0;
}

/* ---- CUPTI plumbing ---- */

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static struct trace *g_active;  /* the trace receiving records, or NULL */

/* the trace's reader of the shared activity buffers (cupti/activity.h) */
static void trace_sink(void *arg, const CUpti_Activity *rec, size_t dropped)
{
    (void)arg;
    pthread_mutex_lock(&g_mu);
    if (g_active) {
        if (rec)
            trace_add_record(g_active, rec);
        g_active->dropped += dropped;
    }
    pthread_mutex_unlock(&g_mu);
}

/* Finds the file of the loaded libcupti, for dl_iterate_phdr. */
static int find_cupti(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    if (info->dlpi_name && strstr(info->dlpi_name, "libcupti.so")) {
        snprintf((char *)data, 4096, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

void trace_prepare(void)
{
    char path[4096] = "";
    Dl_info info;
    /* the library that defines a CUPTI function is the libcupti this binary uses */
    void *sym = dlsym(RTLD_DEFAULT, "cuptiActivityEnable");
    if (sym && dladdr(sym, &info) && info.dli_fname && strstr(info.dli_fname, "libcupti.so"))
        snprintf(path, sizeof path, "%s", info.dli_fname);
    else
        dl_iterate_phdr(find_cupti, path);
    if (path[0])
        setenv("NVTX_INJECTION64_PATH", path, 0);  /* 0: keep a value set by nsys */
}

static const CUpti_ActivityKind required_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_MARKER,
};
/* Nice to have: the API track and the external ids; the trace works without them. */
static const CUpti_ActivityKind optional_kinds[] = {
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

static const char *kind_name(CUpti_ActivityKind k)
{
    switch (k) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return "CONCURRENT_KERNEL";
    case CUPTI_ACTIVITY_KIND_MEMCPY: return "MEMCPY";
    case CUPTI_ACTIVITY_KIND_MEMSET: return "MEMSET";
    case CUPTI_ACTIVITY_KIND_MARKER: return "MARKER";
    default: return "?";
    }
}

static void disable_all(struct trace *t)
{
    for (int i = t->nenabled; i-- > 0;)
        activity_disable(t->enabled[i]);
    t->nenabled = 0;
}

struct trace *trace_start(char *why, size_t why_len)
{
    pthread_mutex_lock(&g_mu);
    int busy = g_active != NULL;
    pthread_mutex_unlock(&g_mu);
    if (busy) {
        say(why, why_len, "a trace is already running (one at a time per process)");
        return NULL;
    }
    struct trace *t = trace_alloc();
    if (!t) {
        say(why, why_len, "out of memory starting the trace");
        return NULL;
    }
    const char *nvtx = getenv("NVTX_INJECTION64_PATH");
    t->nvtx_routed = nvtx && *nvtx;
    CUptiResult r;
    if (activity_add_sink(trace_sink, NULL, why, why_len) != 0) {
        trace_free(t);
        return NULL;
    }
    pthread_mutex_lock(&g_mu);
    g_active = t;
    pthread_mutex_unlock(&g_mu);
    for (size_t i = 0; i < sizeof required_kinds / sizeof required_kinds[0]; i++) {
        if ((r = activity_enable(required_kinds[i])) != CUPTI_SUCCESS) {
            char call[96];
            snprintf(call, sizeof call, "cuptiActivityEnable(%s)", kind_name(required_kinds[i]));
            cupti_describe_error(call, r, why, why_len);
            disable_all(t);
            activity_remove_sink(trace_sink, NULL);
            pthread_mutex_lock(&g_mu);
            g_active = NULL;
            pthread_mutex_unlock(&g_mu);
            trace_free(t);
            return NULL;
        }
        t->enabled[t->nenabled++] = required_kinds[i];
    }
    for (size_t i = 0; i < sizeof optional_kinds / sizeof optional_kinds[0]; i++)
        if (activity_enable(optional_kinds[i]) == CUPTI_SUCCESS)
            t->enabled[t->nenabled++] = optional_kinds[i];
    if (why && why_len)
        why[0] = '\0';
    return t;
}

int trace_finish(struct trace *t, const char *path, char *why, size_t why_len)
{
    if (!t) {
        say(why, why_len, "trace_finish: no trace");
        return -1;
    }
    /* Forced flush hands over partly filled buffers too; it does not synchronize the
     * device, which is why the caller synchronizes first. */
    CUptiResult r = CUPTI_TRY(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), why, why_len);
    disable_all(t);
    if (r == CUPTI_SUCCESS)
        r = CUPTI_TRY(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), why, why_len);
    activity_remove_sink(trace_sink, NULL);
    pthread_mutex_lock(&g_mu);
    g_active = NULL;
    pthread_mutex_unlock(&g_mu);
    int rc;
    if (r != CUPTI_SUCCESS) {
        rc = -1;
    } else {
        rc = trace_write(t, path, why, why_len);
    }
    trace_free(t);
    return rc;
}

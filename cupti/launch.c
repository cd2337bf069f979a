/* Launch facts through a CUPTI callback subscription on the driver's kernel-launch
 * APIs (cupti/launch.h). Every kernel, whether launched by the runtime or by a library
 * calling the driver (cuBLAS), passes one of them, and their parameters carry the
 * CUfunction, grid, block and dynamic shared memory. After the call, the function's
 * attributes and the occupancy API give registers, static shared memory and resident
 * blocks; analysis/launch_facts.c does the arithmetic.
 *
 * The shared-memory configuration the driver picked for the launch is in no attribute
 * and follows no documented rule; CUPTI's kernel activity record carries it
 * (sharedMemoryExecuted, what ncu reports as launch__shared_mem_config_size). So the
 * capture also enables kernel records, read through the process's one activity
 * registration (cupti/activity.h, shared with --trace), and finds the record of the
 * captured launch by correlation id, or by symbol, grid and block.
 *
 * The driver is opened with dlopen, as in prof.cpp, so gemmprof still starts where
 * there is no driver. CUPTI calls the callback on the launching thread; the record is
 * still guarded, since a library may launch from a thread of its own. */
#include "cupti/launch.h"

#include <cuda.h>
#include <cupti.h>   /* with the launch APIs' parameter structs (generated_cuda_meta.h) */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/launch_facts.h"
#include "analysis/results.h"
#include "cupti/activity.h"
#include "cupti/common.h"

/* The launches of the current capture, the first LF_LAUNCHES kept. The call's main
 * kernel is chosen once their kernel records have arrived: the one that ran longest. A
 * call may launch helpers that launch more threads (the TMA kernels' operand copy: 1024
 * blocks of 256 threads against the GEMM's 120 blocks of 384, a third of its time), so
 * "most threads" would describe the helper. Without records: the most threads. */
#define LF_LAUNCHES 16
struct lf_launch {
    double threads;
    CUfunction f;
    unsigned grid[3], block[3], dyn_smem;
    int carveout_pct;   /* from a launch attribute; -1 when none */
    uint32_t corr;      /* the launch call's correlation id */
    char symbol[512];
};
static struct {
    pthread_mutex_t mu;
    CUpti_SubscriberHandle sub;
    int n;   /* launches seen in this capture */
    struct lf_launch l[LF_LAUNCHES];
} cap = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* The kernel records that arrive while a capture runs, the newest LF_RECORDS kept (a
 * call launches a few kernels; under --trace a buffer may also bring earlier ones). */
#define LF_RECORDS 64
static struct {
    pthread_mutex_t mu;
    unsigned n;   /* records seen in this capture */
    struct lf_record {
        uint32_t corr, smem_config;
        uint64_t duration_ns;
        int32_t grid[3], block[3];
        char symbol[512];   /* truncated as cap.symbol is, so the two compare */
    } r[LF_RECORDS];
} recs = {.mu = PTHREAD_MUTEX_INITIALIZER};
static int records_on;        /* this capture enabled kernel records */
static char records_why[320]; /* why not, or why none matched */

static void kernel_sink(void *arg, const CUpti_Activity *rec, size_t dropped)
{
    (void)arg;
    (void)dropped;   /* a dropped record shows as none matching */
    if (!rec || (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL))
        return;
    const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
    pthread_mutex_lock(&recs.mu);
    struct lf_record *d = &recs.r[recs.n++ % LF_RECORDS];
    *d = (struct lf_record){.corr = k->correlationId, .smem_config = k->sharedMemoryExecuted,
                            .duration_ns = k->end > k->start ? k->end - k->start : 0,
                            .grid = {k->gridX, k->gridY, k->gridZ}, .block = {k->blockX, k->blockY, k->blockZ}};
    snprintf(d->symbol, sizeof d->symbol, "%s", k->name ? k->name : "");
    pthread_mutex_unlock(&recs.mu);
}

/* The record of a captured launch: the one with its correlation id, else the newest with
 * its symbol (the driver callback's id need not be the one a runtime launch's record
 * carries); grid and block must agree either way. 0, or -1 when no record matches. */
static int record_of(const struct lf_launch *l, struct lf_record *out)
{
    const char *symbol = l->symbol;
    const unsigned *g = l->grid, *b = l->block;
    const struct lf_record *by_corr = NULL, *by_symbol = NULL;
    pthread_mutex_lock(&recs.mu);
    const unsigned n = recs.n < LF_RECORDS ? recs.n : LF_RECORDS;
    for (unsigned i = 0; i < n; i++) {   /* oldest first, so the newest by symbol wins */
        const struct lf_record *r = &recs.r[(recs.n - n + i) % LF_RECORDS];
        int same = 1;
        for (int d = 0; d < 3; d++)
            same &= (unsigned)r->grid[d] == g[d] && (unsigned)r->block[d] == b[d];
        if (!same)
            continue;
        if (r->corr == l->corr)
            by_corr = r;
        if (symbol[0] && strcmp(r->symbol, symbol) == 0)
            by_symbol = r;
    }
    const struct lf_record *r = by_corr ? by_corr : by_symbol;
    if (r)
        *out = *r;
    pthread_mutex_unlock(&recs.mu);
    return r ? 0 : -1;
}

/* The call's main kernel: the longest-running launch with a record, else (no records,
 * or none with a duration) the one launching the most threads; ties go to the first. */
static int main_launch(const struct lf_launch *l, int n)
{
    int best = 0, timed = 0;
    uint64_t longest = 0;
    for (int i = 0; i < n; i++) {
        struct lf_record r;
        if (records_on && record_of(&l[i], &r) == 0 && r.duration_ns > longest) {
            longest = r.duration_ns;
            best = i;
            timed = 1;
        }
    }
    if (timed)
        return best;
    for (int i = 1; i < n; i++)
        if (l[i].threads > l[best].threads)
            best = i;
    return best;
}

/* Kernel records on for the capture. Failing is not fatal: the model stands in. */
static void records_begin(void)
{
    records_on = 0;
    records_why[0] = '\0';
    pthread_mutex_lock(&recs.mu);
    recs.n = 0;
    pthread_mutex_unlock(&recs.mu);
    if (activity_add_sink(kernel_sink, NULL, records_why, sizeof records_why) != 0)
        return;
    CUptiResult r = activity_enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        cupti_describe_error("cuptiActivityEnable(CONCURRENT_KERNEL)", r, records_why, sizeof records_why);
        activity_remove_sink(kernel_sink, NULL);
        return;
    }
    records_on = 1;
}

/* Delivers the records (the caller synchronized) and switches them off again, so no
 * timed launch runs with them on. */
static void records_end(void)
{
    if (!records_on)
        return;
    CUptiResult r = CUPTI_TRY(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), records_why,
                              sizeof records_why);
    activity_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    activity_remove_sink(kernel_sink, NULL);
    records_on = r == CUPTI_SUCCESS;   /* records to look in */
}

static void keep(CUfunction f, const unsigned g[3], const unsigned b[3], unsigned dyn, int carveout,
                 uint32_t corr, const char *symbol)
{
    pthread_mutex_lock(&cap.mu);
    if (cap.n < LF_LAUNCHES) {
        struct lf_launch *l = &cap.l[cap.n];
        l->threads = (double)g[0] * g[1] * g[2] * b[0] * b[1] * b[2];
        l->f = f;
        memcpy(l->grid, g, sizeof l->grid);
        memcpy(l->block, b, sizeof l->block);
        l->dyn_smem = dyn;
        l->carveout_pct = carveout;
        l->corr = corr;
        snprintf(l->symbol, sizeof l->symbol, "%s", symbol ? symbol : "");
    }
    cap.n++;
    pthread_mutex_unlock(&cap.mu);
}

#define LF_SAME_AT(T, field)                                                                \
    _Static_assert(offsetof(T, field) == offsetof(cuLaunchKernel_params, field), #T " differs at " #field)
LF_SAME_AT(cuLaunchKernel_ptsz_params, f);
LF_SAME_AT(cuLaunchKernel_ptsz_params, sharedMemBytes);
LF_SAME_AT(cuLaunchCooperativeKernel_params, f);
LF_SAME_AT(cuLaunchCooperativeKernel_params, sharedMemBytes);
LF_SAME_AT(cuLaunchCooperativeKernel_ptsz_params, f);
LF_SAME_AT(cuLaunchCooperativeKernel_ptsz_params, sharedMemBytes);

static void CUPTIAPI on_launch(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void *cbdata)
{
    (void)userdata;
    const CUpti_CallbackData *cb = cbdata;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER || !cb->functionParams)
        return;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        /* the _ptsz and cooperative parameters begin as cuLaunchKernel's (checked below) */
        const cuLaunchKernel_params *p = cb->functionParams;
        unsigned g[3] = {p->gridDimX, p->gridDimY, p->gridDimZ}, b[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
        keep(p->f, g, b, p->sharedMemBytes, -1, cb->correlationId, cb->symbolName);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const cuLaunchKernelEx_params *p = cb->functionParams;
        const CUlaunchConfig *c = p->config;
        if (!c)
            break;
        int carveout = -1;
        for (unsigned i = 0; c->attrs && i < c->numAttrs; i++)
            if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
                carveout = (int)c->attrs[i].value.sharedMemCarveout;
        unsigned g[3] = {c->gridDimX, c->gridDimY, c->gridDimZ}, b[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
        keep(p->f, g, b, c->sharedMemBytes, carveout, cb->correlationId, cb->symbolName);
        break;
    }
    default:
        break;
    }
}

int launch_capture_begin(char *why, size_t why_len)
{
    if (cap.sub) {
        cupti_say(why, why_len, "launch facts: a capture is already running");
        return -1;
    }
    pthread_mutex_lock(&cap.mu);
    cap.n = 0;
    pthread_mutex_unlock(&cap.mu);
    CUptiResult rc = cuptiSubscribe(&cap.sub, on_launch, NULL);
    if (rc != CUPTI_SUCCESS) {
        /* the common case, under ncu or compute-sanitizer: --no-counters would not help */
        if (rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            cupti_say(why, why_len, "CUPTI is held by another tool (ncu, nsys, compute-sanitizer, a "
                                    "debugger): run gemmprof outside it for these columns");
        else
            cupti_describe_error("cuptiSubscribe", rc, why, why_len);
        cap.sub = NULL;
        return -1;
    }
    for (size_t i = 0; i < cupti_launch_cbid_count; i++)
        if (CUPTI_TRY(cuptiEnableCallback(1, cap.sub, CUPTI_CB_DOMAIN_DRIVER_API, cupti_launch_cbids[i]), why,
                      why_len) != CUPTI_SUCCESS) {
            cuptiUnsubscribe(cap.sub);
            cap.sub = NULL;
            return -1;
        }
    records_begin();
    return 0;
}

/* The driver entry points, looked up once (versioned names through cuda.h's macros). */
#define LF_XSTR(x) LF_STR(x)
#define LF_STR(x) #x
static struct {
    int tried, ok;
    CUresult (*ctx_device)(CUdevice *);
    CUresult (*dev_attr)(int *, CUdevice_attribute, CUdevice);
    CUresult (*func_attr)(int *, CUfunction_attribute, CUfunction);
    CUresult (*occupancy)(int *, CUfunction, int, size_t);
    CUresult (*kernel_function)(CUfunction *, CUkernel);   /* optional */
} drv;

static int driver_ready(char *why, size_t len)
{
    if (!drv.tried) {
        drv.tried = 1;
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);   /* kept for the process */
        if (lib) {
            drv.ctx_device = (CUresult(*)(CUdevice *))dlsym(lib, LF_XSTR(cuCtxGetDevice));
            drv.dev_attr = (CUresult(*)(int *, CUdevice_attribute, CUdevice))dlsym(lib, LF_XSTR(cuDeviceGetAttribute));
            drv.func_attr = (CUresult(*)(int *, CUfunction_attribute, CUfunction))dlsym(lib, LF_XSTR(cuFuncGetAttribute));
            drv.occupancy = (CUresult(*)(int *, CUfunction, int, size_t))dlsym(
                lib, LF_XSTR(cuOccupancyMaxActiveBlocksPerMultiprocessor));
            drv.kernel_function = (CUresult(*)(CUfunction *, CUkernel))dlsym(lib, LF_XSTR(cuKernelGetFunction));
            drv.ok = drv.ctx_device && drv.dev_attr && drv.func_attr && drv.occupancy;
        }
    }
    if (!drv.ok)
        cupti_say(why, len, "launch facts: the CUDA driver (libcuda.so.1) or its occupancy calls are missing");
    return drv.ok ? 0 : -1;
}

static int device_limits(struct launch_device *d, char *why, size_t len)
{
    CUdevice dev;
    CUresult e = drv.ctx_device(&dev);
    if (e != CUDA_SUCCESS) {
        cupti_say(why, len, "launch facts: cuCtxGetDevice failed (%d): no current context", (int)e);
        return -1;
    }
    int threads_per_sm = 0, smem_sm = 0, optin = 0, reserved = 0;
    struct { CUdevice_attribute a; int *to; } q[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d->cc_major},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d->cc_minor},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d->sm_count},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &d->warp_size},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, &d->regs_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &d->regs_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &threads_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, &d->max_blocks_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &smem_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &optin},
        {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, &reserved},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        if ((e = drv.dev_attr(q[i].to, q[i].a, dev)) != CUDA_SUCCESS) {
            cupti_say(why, len, "launch facts: cuDeviceGetAttribute(%d) failed (%d)", (int)q[i].a, (int)e);
            return -1;
        }
    d->max_warps_per_sm = d->warp_size > 0 ? threads_per_sm / d->warp_size : 0;
    d->smem_per_sm = smem_sm;
    d->smem_per_block_optin = optin;
    d->reserved_smem_per_block = reserved;
    return 0;
}

int launch_capture_end(struct gp_result *row, char *why, size_t why_len)
{
    if (!cap.sub) {
        cupti_say(why, why_len, "launch facts: no capture running");
        return -1;
    }
    cuptiUnsubscribe(cap.sub);   /* also disables its callbacks */
    cap.sub = NULL;
    /* a snapshot, in case a library thread's callback was still running */
    static struct lf_launch launches[LF_LAUNCHES];
    pthread_mutex_lock(&cap.mu);
    const int seen = cap.n < LF_LAUNCHES ? cap.n : LF_LAUNCHES;
    memcpy(launches, cap.l, sizeof launches);
    pthread_mutex_unlock(&cap.mu);
    records_end();
    if (!seen) {
        cupti_say(why, why_len, "launch facts: no kernel launch was seen");
        return -1;
    }
    const struct lf_launch *main_kernel = &launches[main_launch(launches, seen)];
    struct launch_kernel k = {.regs = -1};
    const CUfunction launched = main_kernel->f;
    k.carveout_pct = main_kernel->carveout_pct;
    memcpy(k.grid, main_kernel->grid, sizeof k.grid);
    memcpy(k.block, main_kernel->block, sizeof k.block);
    k.smem_dynamic = main_kernel->dyn_smem;
    cupti_kernel_name(main_kernel->symbol, k.name, sizeof k.name);
    if (driver_ready(why, why_len))
        return -1;
    struct launch_device dev = {0};
    if (device_limits(&dev, why, why_len))
        return -1;
    int regs = 0, smem_static = 0, carveout = -1, api = -1;
    CUfunction f = launched;
    CUresult e = drv.func_attr(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    /* a launch may pass a context-less CUkernel cast to CUfunction: its function in the
     * current context answers the attribute queries */
    CUfunction in_ctx;
    if (e != CUDA_SUCCESS && drv.kernel_function && drv.kernel_function(&in_ctx, (CUkernel)launched) == CUDA_SUCCESS) {
        f = in_ctx;
        e = drv.func_attr(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    }
    if (e != CUDA_SUCCESS || (e = drv.func_attr(&smem_static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)) != CUDA_SUCCESS) {
        cupti_say(why, why_len, "launch facts: cuFuncGetAttribute for %s failed (%d)", k.name, (int)e);
        return -1;
    }
    k.regs = regs;
    k.smem_static = smem_static;
    int local = -1;
    k.local_bytes = drv.func_attr(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) == CUDA_SUCCESS ? local : -1;
    /* the launch's own carveout attribute takes precedence over the function's */
    if (k.carveout_pct < 0 &&
        drv.func_attr(&carveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f) == CUDA_SUCCESS)
        k.carveout_pct = carveout;
    const double threads = (double)k.block[0] * k.block[1] * k.block[2];
    if (drv.occupancy(&api, f, (int)threads, (size_t)k.smem_dynamic) != CUDA_SUCCESS)
        api = -1;   /* the limits alone */
    struct lf_record rec;
    const long config = records_on && record_of(main_kernel, &rec) == 0 ? (long)rec.smem_config : -1;
    if (records_on && config < 0)
        cupti_say(records_why, sizeof records_why, "no kernel record of %.128s arrived", k.name);
    else if (records_on && config == 0)
        cupti_say(records_why, sizeof records_why, "the kernel record of %.128s gives no size", k.name);
    k.smem_config = config > 0 ? config : 0;
    char note[512];
    int rc = launch_facts_fill(&dev, &k, api, row, note, sizeof note);
    if (rc < 0 || k.smem_config > 0) {
        cupti_say(why, why_len, "%s", note);
        return rc;
    }
    /* the row stands, but its shared-memory limit is the model's: said, and
     * smem_config_bytes left empty */
    cupti_say(why, why_len, "%.128s: block_limit_smem from gemmprof's carveout model, the driver's "
              "shared-memory configuration unknown (%s)%s%s", k.name, records_why, note[0] ? "; " : "", note);
    return 1;
}

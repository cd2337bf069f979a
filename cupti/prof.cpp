/* Hardware counters per kernel through the CUPTI range profiler of CUDA 13
 * (cupti_range_profiler.h + cupti_profiler_host.h); the C interface is cupti/prof.h.
 *
 * Why C++: cupti_profiler_host.h has `#include <string>`, so no C compiler accepts it.
 * Rather than shadowing a standard header with an empty file on the include path
 * (fragile, surprising), this one translation unit is C++17 and exports only the
 * extern "C" functions of prof.h; no exception crosses them.
 *
 * Mode: user range + user replay. prof_measure runs the caller's workload once per
 * pass inside one pushed range, each pass preceded by the caller's `prepare` (an L2
 * flush) outside the range. CUPTI sums every kernel the workload launches into the one
 * range, which is what a variant's row needs (cuBLAS may launch several kernels).
 * Kernel replay (auto range) was the first design and was measured against ncu on the
 * H200: it restores device memory between passes and leaves the L2 full of dirty
 * lines, whose write-back then lands inside the profiled kernel (3x ncu's DRAM write
 * bytes for a 2048^3 GEMM). With user replay every pass starts from the same cold,
 * clean L2, as under ncu's default cache control. The workload must be idempotent
 * (a beta = 0 GEMM is).
 *
 * Kernel names: range names are ours, so the kernel names come from a CUPTI callback subscriber on the runtime and driver launch APIs
 * (CUpti_CallbackData.symbolName), subscribed only during prof_measure: CUPTI takes one
 * subscriber per process, and the launch-facts capture (cupti/launch.c) needs it while a
 * session kept open across shapes waits. The subscriber does not profile anything
 * itself, so it does not conflict with the range profiler; it does fail with
 * MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED when ncu/nsys/sanitizer already hold CUPTI (tried
 * once at prof_open, so that case is still reported there).
 *
 * The driver library is opened with dlopen, never linked, so gemmprof starts on
 * machines without a GPU driver and reports "no CUDA driver" from prof_open.
 */
#include "cupti/prof.h"

#include "analysis/metrics.h"
#include "cupti/common.h"

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_runtime_cbid.h>
#include <cupti_target.h>

#include <cxxabi.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

/* Every CUPTI params struct starts zeroed with its structSize set (pPriv = NULL). */
template <class T> T zeroed_params(size_t struct_size)
{
    T p;
    memset(&p, 0, sizeof p);
    p.structSize = struct_size;
    return p;
}
#define GP_PARAMS(T) zeroed_params<T>(T##_STRUCT_SIZE)

/* Counter-data capacity: ranges (workloads) per batch measure; more is an
 * error (gemmprof batches one range per variant of a shape). */
const size_t max_ranges = 64;
/* A metric set needing more passes than this is a bug, not a workload to replay. */
const size_t max_passes = 64;

#define say cupti_say

/* The driver entry points we need, looked up by their versioned symbol names (cuda.h
 * maps e.g. cuDevicePrimaryCtxRelease to cuDevicePrimaryCtxRelease_v2). */
#define GP_XSTR(x) GP_STR(x)
#define GP_STR(x) #x
struct driver {
    void *lib = nullptr;
    decltype(&cuInit) init = nullptr;
    decltype(&cuDeviceGet) device_get = nullptr;
    decltype(&cuDevicePrimaryCtxRetain) retain = nullptr;
    decltype(&cuDevicePrimaryCtxRelease) release = nullptr;
    decltype(&cuGetErrorName) error_name = nullptr;
    decltype(&cuCtxGetCurrent) get_current = nullptr;
    decltype(&cuCtxGetDevice) ctx_device = nullptr;
};

int driver_open(driver *d, char *why, size_t len)
{
    d->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!d->lib) {
        const char *e = dlerror();
        say(why, len,
            "no CUDA driver: libcuda.so.1 cannot be loaded (%s); hardware counters need the "
            "NVIDIA driver and a GPU",
            e ? e : "not found");
        return -1;
    }
    d->init = (decltype(d->init))dlsym(d->lib, GP_XSTR(cuInit));
    d->device_get = (decltype(d->device_get))dlsym(d->lib, GP_XSTR(cuDeviceGet));
    d->retain = (decltype(d->retain))dlsym(d->lib, GP_XSTR(cuDevicePrimaryCtxRetain));
    d->release = (decltype(d->release))dlsym(d->lib, GP_XSTR(cuDevicePrimaryCtxRelease));
    d->error_name = (decltype(d->error_name))dlsym(d->lib, GP_XSTR(cuGetErrorName));
    d->get_current = (decltype(d->get_current))dlsym(d->lib, GP_XSTR(cuCtxGetCurrent));
    d->ctx_device = (decltype(d->ctx_device))dlsym(d->lib, GP_XSTR(cuCtxGetDevice));
    if (!d->init || !d->device_get || !d->retain || !d->release) {
        say(why, len, "CUDA driver libcuda.so.1 lacks cuInit/cuDeviceGet/cuDevicePrimaryCtxRetain: "
                      "driver too old for CUDA 13, update the NVIDIA driver");
        return -1;
    }
    return 0;
}

void driver_why(const driver *d, const char *call, CUresult r, char *why, size_t len)
{
    const char *name = nullptr;
    if (d->error_name)
        d->error_name(r, &name);
    say(why, len, "CUDA driver: %s failed: %s (%d)%s", call, name ? name : "?", (int)r,
        r == CUDA_ERROR_NO_DEVICE ? ": no GPU visible (check CUDA_VISIBLE_DEVICES)"
        : r == CUDA_ERROR_STUB_LIBRARY ? ": the loaded libcuda is the toolkit stub, not the driver"
                                       : "");
}

/* One kernel launch seen by the subscriber, in launch order. */
struct launch_log {
    std::mutex mu;
    std::vector<std::vector<std::string>> names;   /* per range of the batch */
    int cur = -1;                                  /* range being recorded, -1: none */
};

/* Every launch, whether it starts in the runtime or in a library calling the driver
 * directly (cuBLAS), reaches the driver's launch entry points, so the driver domain
 * alone sees each kernel exactly once. (Counting runtime calls too and pairing them
 * with the nested driver call needed per-thread depth bookkeeping that went out of
 * step on the H200 after the first measure, leaving every later name empty.) */
void CUPTIAPI on_launch(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                        const void *cbdata)
{
    (void)cbid;
    auto *log = static_cast<launch_log *>(userdata);
    const auto *cb = static_cast<const CUpti_CallbackData *>(cbdata);
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER)
        return;
    try {
        std::lock_guard<std::mutex> lock(log->mu);
        if (log->cur >= 0 && (size_t)log->cur < log->names.size())
            log->names[log->cur].emplace_back(cb->symbolName ? cb->symbolName : "");
    } catch (...) {
        /* out of memory while naming a kernel: the name is lost, nothing else */
    }
}

CUptiResult enable_launch_callbacks(CUpti_SubscriberHandle sub, uint32_t on)
{
    for (size_t i = 0; i < cupti_launch_cbid_count; i++) {
        CUptiResult r = cuptiEnableCallback(on, sub, CUPTI_CB_DOMAIN_DRIVER_API, cupti_launch_cbids[i]);
        if (r != CUPTI_SUCCESS)
            return r;
    }
    return CUPTI_SUCCESS;
}

/* ---- host side: chip, metric validation, config image (works without a GPU) ---- */

struct host_config {
    CUpti_Profiler_Host_Object *host = nullptr;
    std::vector<const char *> names;
    std::vector<uint8_t> config;
    size_t passes = 0;
};

void host_close(host_config *h)
{
    if (h->host) {
        auto p = GP_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        p.pHostObject = h->host;
        cuptiProfilerHostDeinitialize(&p);
        h->host = nullptr;
    }
}

/* Host object for `chip`, every metric validated by name, config image and pass count.
 * `avail` is the counter-availability image of the live device, or empty offline. */
int host_build(host_config *h, const char *chip, const std::vector<uint8_t> &avail, const int *ids,
               int nids, char *why, size_t len)
{
    if (!chip || !*chip) {
        say(why, len, "no chip name given for the CUPTI host API");
        return -1;
    }
    if (!ids || nids <= 0) {
        say(why, len, "no metrics requested");
        return -1;
    }
    for (int i = 0; i < nids; i++) {
        const char *name = gp_metric_name(ids[i]);
        if (!name) {
            say(why, len, "metric index %d is outside gp_metrics[0..%d] and the %d extra metrics", ids[i],
                GP_METRIC_COUNT - 1, gp_extra_count());
            return -1;
        }
        h->names.push_back(name);
    }

    auto ip = GP_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    ip.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    ip.pChipName = chip;
    ip.pCounterAvailabilityImage = avail.empty() ? nullptr : avail.data();
    CUptiResult r = cuptiProfilerHostInitialize(&ip);
    if (r != CUPTI_SUCCESS) {
        /* the common cause gets its own words; anything else the generic description */
        if (r == CUPTI_ERROR_INVALID_CHIP_NAME || r == CUPTI_ERROR_INVALID_PARAMETER)
            say(why, len, "CUPTI host API does not know chip \"%s\" (%s): this CUPTI predates the GPU, "
                          "use a newer CUDA toolkit", chip, cupti_code_name(r));
        else
            cupti_describe_error("cuptiProfilerHostInitialize", r, why, len);
        return -1;
    }
    h->host = ip.pHostObject;

    /* ConfigAddMetrics answers a bad name with a bare INVALID_PARAMETER; asking for each
     * metric's properties first names the culprit. */
    for (size_t i = 0; i < h->names.size(); i++) {
        auto mp = GP_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
        mp.pHostObject = h->host;
        mp.pMetricName = h->names[i];
        r = cuptiProfilerHostGetMetricProperties(&mp);
        if (r != CUPTI_SUCCESS) {
            say(why, len, "metric '%s' is not known to %s's counter library (%s): %s", h->names[i], chip,
                cupti_code_name(r),
                ids[i] < GP_METRIC_COUNT ? "fix analysis/metrics.def" : "check the name against ncu --query-metrics");
            return -1;
        }
    }

    auto ap = GP_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    ap.pHostObject = h->host;
    ap.ppMetricNames = h->names.data();
    ap.numMetrics = h->names.size();
    if ((r = CUPTI_TRY(cuptiProfilerHostConfigAddMetrics(&ap), why, len)) != CUPTI_SUCCESS) {
        return -1;
    }
    auto sp = GP_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    sp.pHostObject = h->host;
    if ((r = CUPTI_TRY(cuptiProfilerHostGetConfigImageSize(&sp), why, len)) != CUPTI_SUCCESS) {
        return -1;
    }
    h->config.assign(sp.configImageSize, 0);
    auto gp = GP_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    gp.pHostObject = h->host;
    gp.configImageSize = h->config.size();
    gp.pConfigImage = h->config.data();
    if ((r = CUPTI_TRY(cuptiProfilerHostGetConfigImage(&gp), why, len)) != CUPTI_SUCCESS) {
        return -1;
    }
    auto np = GP_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    np.configImageSize = h->config.size();
    np.pConfigImage = h->config.data();
    if ((r = CUPTI_TRY(cuptiProfilerHostGetNumOfPasses(&np), why, len)) != CUPTI_SUCCESS) {
        return -1;
    }
    h->passes = np.numOfPasses;
    return 0;
}

} /* namespace */

/* ---- the session ---- */

struct prof_session {
    driver drv;
    CUdevice cudev = 0;
    int device = -1;
    CUcontext ctx = nullptr;
    bool ctx_retained = false;
    bool profiler_initialized = false;
    host_config host;
    std::vector<int> ids;
    std::vector<int> eval_of_id;       /* position in host.names, per gp metric; -1 if absent */
    CUpti_RangeProfiler_Object *rp = nullptr;
    std::vector<uint8_t> counter_data;
    CUpti_SubscriberHandle sub = nullptr;   /* only inside measure() */
    launch_log launches;
    prof_cost cost{};
};

/* wall clock for prof_cost */
static double cost_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* cuptiProfilerInitialize/DeInitialize are process-wide: counted here, so that closing one
 * of two open sessions does not de-initialise the profiler under the other. */
static std::mutex profiler_users_mu;
static int profiler_users;

static CUptiResult profiler_use(char *why, size_t len)
{
    std::lock_guard<std::mutex> lock(profiler_users_mu);
    if (profiler_users == 0) {
        auto p = GP_PARAMS(CUpti_Profiler_Initialize_Params);
        CUptiResult r = CUPTI_TRY(cuptiProfilerInitialize(&p), why, len);
        if (r != CUPTI_SUCCESS)
            return r;
    }
    profiler_users++;
    return CUPTI_SUCCESS;
}

static void profiler_release(void)
{
    std::lock_guard<std::mutex> lock(profiler_users_mu);
    if (profiler_users > 0 && --profiler_users == 0) {
        auto p = GP_PARAMS(CUpti_Profiler_DeInitialize_Params);
        cuptiProfilerDeInitialize(&p);
    }
}

/* The launch-name subscriber, with the callbacks off. */
static CUptiResult subscribe(struct prof_session *s, char *why, size_t len)
{
    CUptiResult r = CUPTI_TRY(cuptiSubscribe(&s->sub, on_launch, &s->launches), why, len);
    if (r != CUPTI_SUCCESS)
        s->sub = nullptr;
    return r;
}

static void unsubscribe(struct prof_session *s)
{
    if (s->sub) {
        enable_launch_callbacks(s->sub, 0);
        cuptiUnsubscribe(s->sub);
        s->sub = nullptr;
    }
}

extern "C" {

void prof_close(struct prof_session *s)
{
    if (!s)
        return;
    unsubscribe(s);
    if (s->rp) {
        auto p = GP_PARAMS(CUpti_RangeProfiler_Disable_Params);
        p.pRangeProfilerObject = s->rp;
        cuptiRangeProfilerDisable(&p);
    }
    host_close(&s->host);
    if (s->profiler_initialized)
        profiler_release();
    if (s->ctx_retained)
        s->drv.release(s->cudev);
    if (s->drv.lib)
        dlclose(s->drv.lib);
    delete s;
}

static struct prof_session *open_session(int device, const int *ids, int nids, char *why, size_t len)
{
    auto *s = new prof_session;
    s->device = device;
    CUresult cr;
    CUptiResult r;

    if (driver_open(&s->drv, why, len) != 0)
        goto fail;
    if ((cr = s->drv.init(0)) != CUDA_SUCCESS) {
        driver_why(&s->drv, "cuInit", cr, why, len);
        goto fail;
    }
    if ((cr = s->drv.device_get(&s->cudev, device)) != CUDA_SUCCESS) {
        driver_why(&s->drv, "cuDeviceGet", cr, why, len);
        goto fail;
    }
    /* The runtime and cuBLAS launch into the calling thread's current context: the
     * device's primary context unless the application made its own. Use the current
     * one when it belongs to `device`, else retain the primary (the same object the
     * runtime will create or already holds). */
    {
        CUcontext cur = nullptr;
        CUdevice cur_dev = -1;
        if (s->drv.get_current && s->drv.ctx_device && s->drv.get_current(&cur) == CUDA_SUCCESS && cur &&
            s->drv.ctx_device(&cur_dev) == CUDA_SUCCESS && cur_dev == s->cudev)
            s->ctx = cur;
    }
    if (!s->ctx) {
        if ((cr = s->drv.retain(&s->ctx, s->cudev)) != CUDA_SUCCESS) {
            driver_why(&s->drv, "cuDevicePrimaryCtxRetain", cr, why, len);
            goto fail;
        }
        s->ctx_retained = true;
    }

    /* After the initialise fails, other CUPTI profiler calls may crash (seen offline with
     * cuptiDeviceGetChipName): stop at the first failure. */
    if ((r = profiler_use(why, len)) != CUPTI_SUCCESS)
        goto fail;
    s->profiler_initialized = true;
    {
        auto p = GP_PARAMS(CUpti_Profiler_DeviceSupported_Params);
        p.cuDevice = s->cudev;
        p.api = CUPTI_PROFILER_RANGE_PROFILING;
        if ((r = CUPTI_TRY(cuptiProfilerDeviceSupported(&p), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
        if (p.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
            std::string causes;
            auto add = [&](CUpti_Profiler_Support_Level lv, const char *what) {
                if (lv == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED || lv == CUPTI_PROFILER_CONFIGURATION_DISABLED)
                    causes += (causes.empty() ? "" : ", ") + std::string(what) +
                              (lv == CUPTI_PROFILER_CONFIGURATION_DISABLED ? " (disabled)" : "");
            };
            add(p.architecture, "architecture older than compute capability 7.5");
            add(p.sli, "SLI");
            add(p.vGpu, "vGPU");
            add(p.confidentialCompute, "confidential computing");
            add(p.cmp, "CMP mining GPU");
            add(p.wsl, "WSL");
            say(why, len, "device %d does not support hardware counters (%s): pass --no-counters", device,
                causes.empty() ? "reason not reported" : causes.c_str());
            goto fail;
        }
    }

    {
        std::string chip;
        std::vector<uint8_t> avail;
        auto cp = GP_PARAMS(CUpti_Device_GetChipName_Params);
        cp.deviceIndex = (size_t)device;
        if ((r = CUPTI_TRY(cuptiDeviceGetChipName(&cp), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
        chip = cp.pChipName;

        auto ap = GP_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
        ap.ctx = s->ctx;
        if ((r = CUPTI_TRY(cuptiProfilerGetCounterAvailability(&ap), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
        avail.assign(ap.counterAvailabilityImageSize, 0);
        ap.pCounterAvailabilityImage = avail.data();
        if ((r = CUPTI_TRY(cuptiProfilerGetCounterAvailability(&ap), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
        if (host_build(&s->host, chip.c_str(), avail, ids, nids, why, len) != 0)
            goto fail;
    }
    s->ids.assign(ids, ids + nids);
    s->eval_of_id.assign(GP_METRIC_SLOTS, -1);
    for (int i = 0; i < nids; i++)
        if (s->eval_of_id[ids[i]] < 0)
            s->eval_of_id[ids[i]] = i;

    {
        auto p = GP_PARAMS(CUpti_RangeProfiler_Enable_Params);
        p.ctx = s->ctx;
        if ((r = CUPTI_TRY(cuptiRangeProfilerEnable(&p), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
        s->rp = p.pRangeProfilerObject;
    }
    {
        auto p = GP_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
        p.pRangeProfilerObject = s->rp;
        p.pMetricNames = s->host.names.data();
        p.numMetrics = s->host.names.size();
        p.maxNumOfRanges = max_ranges;
        p.maxNumRangeTreeNodes = (uint32_t)max_ranges;
        if ((r = CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize(&p), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
        s->counter_data.assign(p.counterDataSize, 0);
    }
    {
        auto p = GP_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
        p.pRangeProfilerObject = s->rp;
        p.counterDataSize = s->counter_data.size();
        p.pCounterData = s->counter_data.data();
        if ((r = CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize(&p), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
    }
    {
        /* One config for the whole session; prof_measure only re-initialises the
         * counter data image (same buffer) before each Start. */
        auto p = GP_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
        p.pRangeProfilerObject = s->rp;
        p.configSize = s->host.config.size();
        p.pConfig = s->host.config.data();
        p.counterDataImageSize = s->counter_data.size();
        p.pCounterDataImage = s->counter_data.data();
        p.range = CUPTI_UserRange;
        p.replayMode = CUPTI_UserReplay;
        p.maxRangesPerPass = max_ranges;
        p.numNestingLevels = 1;
        p.minNestingLevel = 1;
        p.passIndex = 0;
        p.targetNestingLevel = 1;
        if ((r = CUPTI_TRY(cuptiRangeProfilerSetConfig(&p), why, len)) != CUPTI_SUCCESS) {
            goto fail;
        }
    }
    /* a tool holding CUPTI is said here, as for the profiler; measure() subscribes again */
    if ((r = subscribe(s, why, len)) != CUPTI_SUCCESS)
        goto fail;
    unsubscribe(s);
    if (why && len)
        why[0] = '\0';
    return s;

fail:
    prof_close(s);
    return nullptr;
}

struct prof_session *prof_open(int device, const int *ids, int nids, char *why, size_t why_len)
{
    try {
        return open_session(device, ids, nids, why, why_len);
    } catch (const std::exception &e) {
        say(why, why_len, "counter setup failed: %s", e.what());
        return nullptr;
    }
}

int prof_num_passes(const struct prof_session *s)
{
    return s ? (int)s->host.passes : -1;
}

static void set_recording(struct prof_session *s, int range)
{
    std::lock_guard<std::mutex> lock(s->launches.mu);
    s->launches.cur = range;
}

/* Measures n workloads in one pass sequence: every pass runs each workload inside its
 * own range ("w0", "w1", ...), preceded by prepare(args[i]) outside any range. One pass
 * sequence for a whole batch costs the profiler's fixed per-pass work once instead of
 * once per workload. */
static int measure(struct prof_session *s, int n, prof_prepare_fn prepare,
                   prof_workload_fn workload, void *const *args, double *const *values,
                   char *const *kernels, size_t kernels_len, char *why, size_t len)
{
    CUptiResult r;
    if ((size_t)n > max_ranges) {
        say(why, len, "a batch of %d workloads is more than the %zu ranges of the counter image", n,
            max_ranges);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (kernels && kernels[i] && kernels_len)
            kernels[i][0] = '\0';
    {
        auto p = GP_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
        p.pRangeProfilerObject = s->rp;
        p.counterDataSize = s->counter_data.size();
        p.pCounterData = s->counter_data.data();
        if ((r = CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize(&p), why, len)) != CUPTI_SUCCESS) {
            return -1;
        }
    }
    {
        std::lock_guard<std::mutex> lock(s->launches.mu);
        s->launches.names.assign(n, {});
        s->launches.cur = -1;
    }
    if (subscribe(s, why, len) != CUPTI_SUCCESS)
        return -1;
    if ((r = enable_launch_callbacks(s->sub, 1)) != CUPTI_SUCCESS) {
        cupti_describe_error("cuptiEnableCallback", r, why, len);
        unsubscribe(s);
        return -1;
    }

    /* User replay: we run every pass ourselves, each workload preceded by `prepare`
     * (the caller's L2 flush) outside the ranges, so every workload starts from the same
     * cold cache as under ncu's default cache control. Kernel replay would restore memory
     * between passes and leave dirty lines whose write-back lands in the profiled kernel. */
    std::vector<std::string> range_names(n);
    for (int i = 0; i < n; i++)
        range_names[i] = "w" + std::to_string(i);
    r = CUPTI_SUCCESS;
    int wrc = 0;
    CUptiResult rstop = CUPTI_SUCCESS;
    const char *failed_call = "cuptiRangeProfilerStart";
    size_t pass = 0;
    for (bool all = false; !all && pass < max_passes; pass++) {
        auto start = GP_PARAMS(CUpti_RangeProfiler_Start_Params);
        start.pRangeProfilerObject = s->rp;
        if ((r = cuptiRangeProfilerStart(&start)) != CUPTI_SUCCESS)
            break;
        for (int i = 0; i < n && r == CUPTI_SUCCESS; i++) {
            set_recording(s, -1);   /* the flush is not the workload's kernel */
            double t = cost_now();
            if (prepare)
                prepare(args[i]);
            const double t_ranges = cost_now();
            s->cost.prepare_s += t_ranges - t;
            set_recording(s, pass == 0 ? i : -1);   /* names once, not once per pass */
            auto push = GP_PARAMS(CUpti_RangeProfiler_PushRange_Params);
            push.pRangeProfilerObject = s->rp;
            push.pRangeName = range_names[i].c_str();
            if ((r = cuptiRangeProfilerPushRange(&push)) != CUPTI_SUCCESS) {
                failed_call = "cuptiRangeProfilerPushRange";
                break;
            }
            wrc |= workload(args[i]);
            auto pop = GP_PARAMS(CUpti_RangeProfiler_PopRange_Params);
            pop.pRangeProfilerObject = s->rp;
            if ((r = cuptiRangeProfilerPopRange(&pop)) != CUPTI_SUCCESS)
                failed_call = "cuptiRangeProfilerPopRange";
            s->cost.ranges_s += cost_now() - t_ranges;
            s->cost.ranges++;
        }
        set_recording(s, -1);
        const double t_stop = cost_now();
        auto stop = GP_PARAMS(CUpti_RangeProfiler_Stop_Params);
        stop.pRangeProfilerObject = s->rp;
        rstop = cuptiRangeProfilerStop(&stop);
        s->cost.pass_end_s += cost_now() - t_stop;
        s->cost.passes++;
        if (r != CUPTI_SUCCESS || rstop != CUPTI_SUCCESS)
            break;
        all = stop.isAllPassSubmitted != 0;
    }
    unsubscribe(s);   /* nothing of ours left on the launch path between measures */
    set_recording(s, -1);
    if (r != CUPTI_SUCCESS) {
        cupti_describe_error(failed_call, r, why, len);
        return -1;
    }
    if (rstop != CUPTI_SUCCESS) {
        cupti_describe_error("cuptiRangeProfilerStop", rstop, why, len);
        return -1;
    }
    if (pass >= max_passes) {
        say(why, len, "the profiler still wanted passes after %zu", max_passes);
        return -1;
    }
    auto dec = GP_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    dec.pRangeProfilerObject = s->rp;
    if ((r = CUPTI_TRY(cuptiRangeProfilerDecodeData(&dec), why, len)) != CUPTI_SUCCESS) {
        return -1;
    }
    if (wrc != 0) {
        say(why, len, "a workload failed while being profiled");
        return -1;
    }
    if (dec.numOfRangeDropped > 0) {
        say(why, len, "%zu ranges were dropped", dec.numOfRangeDropped);
        return -1;
    }

    auto info = GP_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = s->counter_data.data();
    info.counterDataImageSize = s->counter_data.size();
    if ((r = CUPTI_TRY(cuptiRangeProfilerGetCounterDataInfo(&info), why, len)) != CUPTI_SUCCESS) {
        return -1;
    }
    const size_t nr = info.numTotalRanges;
    const size_t nm = s->host.names.size();
    std::vector<bool> seen(n, false);
    std::vector<double> v(nm);
    for (size_t k = 0; k < nr; k++) {
        auto ri = GP_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
        ri.pCounterDataImage = s->counter_data.data();
        ri.counterDataImageSize = s->counter_data.size();
        ri.rangeIndex = k;
        ri.rangeDelimiter = "/";
        if (cuptiRangeProfilerCounterDataGetRangeInfo(&ri) != CUPTI_SUCCESS || !ri.rangeName ||
            ri.rangeName[0] != 'w')
            continue;
        char *end = nullptr;
        long i = strtol(ri.rangeName + 1, &end, 10);
        if (end == ri.rangeName + 1 || *end || i < 0 || i >= n)
            continue;
        auto ev = GP_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
        ev.pHostObject = s->host.host;
        ev.pCounterDataImage = s->counter_data.data();
        ev.counterDataImageSize = s->counter_data.size();
        ev.rangeIndex = k;
        ev.ppMetricNames = s->host.names.data();
        ev.numMetrics = nm;
        ev.pMetricValues = v.data();
        if ((r = CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues(&ev), why, len)) != CUPTI_SUCCESS) {
            return -1;
        }
        /* one range per workload: CUPTI has already combined its kernels */
        for (int id : s->ids)
            values[i][id] = v[s->eval_of_id[id]];
        seen[i] = true;
    }
    for (int i = 0; i < n; i++)
        if (!seen[i]) {
            say(why, len, "no counters came back for workload %d of %d (it launched nothing?)", i + 1, n);
            return -1;
        }

    if (kernels && kernels_len) {
        std::lock_guard<std::mutex> lock(s->launches.mu);
        for (int i = 0; i < n; i++) {
            if (!kernels[i])
                continue;
            std::string list;
            for (size_t k = 0; k < s->launches.names[i].size(); k++) {
                char name[512];
                cupti_kernel_name(s->launches.names[i][k].c_str(), name, sizeof name);
                if (k)
                    list += ';';
                list += name;
            }
            snprintf(kernels[i], kernels_len, "%s", list.c_str());
        }
    }
    if (why && len)
        why[0] = '\0';
    return 0;
}

int prof_measure(struct prof_session *s, prof_prepare_fn prepare, prof_workload_fn workload,
                 void *arg, double *values, char *kernels, size_t kernels_len, char *why,
                 size_t why_len)
{
    return prof_measure_batch(s, 1, prepare, workload, &arg, &values, &kernels, kernels_len, why,
                              why_len);
}

int prof_measure_batch(struct prof_session *s, int n, prof_prepare_fn prepare,
                       prof_workload_fn workload, void *const *args, double *const *values,
                       char *const *kernels, size_t kernels_len, char *why, size_t why_len)
{
    if (!s || !workload || !values || !args || n < 1) {
        say(why, why_len, "prof_measure: no session, workload or values array");
        return -1;
    }
    try {
        /* the rest of the call, beyond the parts measure() times: image set-up, decode and
         * evaluation */
        const prof_cost before = s->cost;
        const double t0 = cost_now();
        const int rc = measure(s, n, prepare, workload, args, values, kernels, kernels_len, why, why_len);
        s->cost.decode_s += cost_now() - t0 - (s->cost.prepare_s - before.prepare_s) -
                            (s->cost.ranges_s - before.ranges_s) - (s->cost.pass_end_s - before.pass_end_s);
        return rc;
    } catch (const std::exception &e) {
        say(why, why_len, "counter measurement failed: %s", e.what());
        return -1;
    }
}

void prof_cost_get(const struct prof_session *s, struct prof_cost *out)
{
    *out = s ? s->cost : prof_cost{};
}

int prof_check_metric_names(const char *chip, const int *ids, int nids, char *why, size_t why_len)
{
    try {
        host_config h;
        int rc = host_build(&h, chip, {}, ids, nids, why, why_len);
        host_close(&h);
        if (rc == 0 && why && why_len)
            why[0] = '\0';
        return rc;
    } catch (const std::exception &e) {
        say(why, why_len, "metric check failed: %s", e.what());
        return -1;
    }
}

int prof_device_chip(int device, char *chip, size_t chip_len, char *why, size_t why_len)
{
    try {
        driver drv;
        if (driver_open(&drv, why, why_len) != 0)
            return -1;
        int rc = -1;
        CUresult cr = drv.init(0);
        if (cr != CUDA_SUCCESS) {
            driver_why(&drv, "cuInit", cr, why, why_len);
        } else {
            /* no chip query after a failed initialise: it may crash (see open_session) */
            if (profiler_use(why, why_len) == CUPTI_SUCCESS) {
                auto cp = GP_PARAMS(CUpti_Device_GetChipName_Params);
                cp.deviceIndex = (size_t)device;
                if (CUPTI_TRY(cuptiDeviceGetChipName(&cp), why, why_len) == CUPTI_SUCCESS && cp.pChipName) {
                    snprintf(chip, chip_len, "%s", cp.pChipName);
                    rc = 0;
                }
                profiler_release();
            }
        }
        dlclose(drv.lib);
        if (rc == 0 && why && why_len)
            why[0] = '\0';
        return rc;
    } catch (const std::exception &e) {
        say(why, why_len, "chip query failed: %s", e.what());
        return -1;
    }
}

int prof_count_passes_offline(const char *chip, const int *ids, int nids)
{
    try {
        host_config h;
        char why[256];
        int rc = host_build(&h, chip, {}, ids, nids, why, sizeof why);
        host_close(&h);
        return rc == 0 ? (int)h.passes : -1;
    } catch (...) {
        return -1;
    }
}

} /* extern "C" */

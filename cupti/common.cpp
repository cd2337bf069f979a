/* The helpers shared inside cupti/ (cupti/common.h): the one way a CUPTI failure is
 * described, kernel names from their symbols, the launch entry points that the kernel
 * namer and the launch-fact capture both watch. C++ for the demangler; only the
 * extern "C" functions of common.h leave it, and no exception crosses them. */
#include "cupti/common.h"

#include <cupti_driver_cbid.h>
#include <cupti_result.h>

#include <cxxabi.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/* Strips a demangled name to "scope::name<templates>": drops the trailing parameter
 * list and a leading "void " (templated functions demangle with their return type). */
std::string short_kernel_name(std::string s)
{
    if (!s.empty() && s.back() == ')') {
        int depth = 0;
        for (size_t i = s.size(); i-- > 0;) {
            if (s[i] == ')')
                depth++;
            else if (s[i] == '(' && --depth == 0) {
                if (i > 0)
                    s.erase(i);
                break;
            }
        }
    }
    if (s.compare(0, 5, "void ") == 0)
        s.erase(0, 5);
    return s;
}

} /* namespace */

extern "C" {

/* Every driver entry point that launches a kernel (prof.cpp names kernels, launch.c
 * captures launch facts, through this list); the legacy cuLaunch and cuLaunchGrid* carry no block size, so on_launch
 * leaves them out. */
const unsigned cupti_launch_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};
const size_t cupti_launch_cbid_count = sizeof cupti_launch_cbids / sizeof cupti_launch_cbids[0];

const char *cupti_code_name(int code)
{
    const char *s = nullptr;
    if (cuptiGetResultString((CUptiResult)code, &s) != CUPTI_SUCCESS || !s)
        return "unknown CUPTI result";
    return s;
}

void cupti_say(char *why, size_t len, const char *fmt, ...)
{
    if (!why || len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

int cupti_check(int code, const char *call_text, char *why, size_t len)
{
    if (code != CUPTI_SUCCESS)
        cupti_describe_error(call_text, code, why, len);
    return code;
}

void cupti_describe_error(const char *call, int code, char *why, size_t len)
{
    CUptiResult r = (CUptiResult)code;
    const char *what;
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        what = "GPU performance counters are restricted to admin users: load the nvidia module with "
               "NVreg_RestrictProfilingToAdminUsers=0 or run as root, or pass --no-counters";
        break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        what = "counters are held by another tool (ncu, nsys, compute-sanitizer, DCGM): run gemmprof "
               "outside it, or pass --no-counters";
        break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
    case CUPTI_ERROR_INVALID_DEVICE:
        what = "this device does not support hardware counters (virtualized GPU, MIG slice, "
               "confidential computing, SLI, WSL or an unknown chip): pass --no-counters";
        break;
    case CUPTI_ERROR_UNKNOWN:
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
        what = "CUPTI could not initialise: no usable CUDA driver, a driver older than CUPTI 13, or "
               "libnvperf_host/libnvperf_target not loadable";
        break;
    case CUPTI_ERROR_OUT_OF_MEMORY:
        what = "out of memory for the counter images";
        break;
    default:
        what = "unexpected CUPTI failure";
        break;
    }
    const char *inj = getenv("CUDA_INJECTION64_PATH");
    char note[160] = "";
    if (inj && *inj)
        snprintf(note, sizeof note, "; note: CUDA_INJECTION64_PATH=%.100s, another tool is injected", inj);
    /* the call's name only: CUPTI_TRY passes the whole expression text */
    int call_len = call ? (int)strcspn(call, "(") : 5;
    cupti_say(why, len, "%s (%.*s: %s, %d)%s", what, call_len, call ? call : "CUPTI", cupti_code_name(r), code, note);
}

void cupti_kernel_name(const char *mangled, char *out, size_t len)
{
    if (!out || len == 0)
        return;
    if (!mangled || !*mangled) {
        snprintf(out, len, "?");
        return;
    }
    int status = -1;
    char *dem = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    try {
        std::string s = (status == 0 && dem) ? short_kernel_name(dem) : std::string(mangled);
        snprintf(out, len, "%s", s.c_str());
    } catch (...) {
        snprintf(out, len, "%s", mangled);
    }
    free(dem);
}

} /* extern "C" */

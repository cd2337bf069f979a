/* Helpers shared inside cupti/ (cupti/common.cpp; prof.cpp, launch.c, activity.c,
 * trace.c and the tests use them). Not part of the harness interface: include
 * cupti/prof.h, cupti/launch.h or cupti/trace.h. */
#ifndef GEMMPROF_CUPTI_COMMON_H
#define GEMMPROF_CUPTI_COMMON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The readable name of a kernel from its (mangled) symbol: demangled, without the
 * parameter list and without a leading "void " return type, e.g.
 * "_ZL11sgemm_naiveiiiPKfS0_Pf" -> "sgemm_naive". A name that does not demangle is
 * copied unchanged; NULL gives "?". Always NUL-terminates `out` (len > 0). */
void cupti_kernel_name(const char *mangled, char *out, size_t len);

/* One line for a failed CUPTI call `call` that returned `code`: the cause, the remedy
 * and CUPTI's own name for the code, plus a note when another tool is injected
 * (CUDA_INJECTION64_PATH set). Used by prof.cpp and trace.c for every failure. */
void cupti_describe_error(const char *call, int code, char *why, size_t len);

/* Calls a CUPTI function; when it fails, describes the failure (cupti_describe_error)
 * under the call's own name, taken from its source text, so no call site types a name
 * that can drift from the call. Evaluates to the CUptiResult:
 *   if ((r = CUPTI_TRY(cuptiRangeProfilerEnable(&p), why, len)) != CUPTI_SUCCESS) goto fail; */
#define CUPTI_TRY(call, why, len) ((__typeof__(call))cupti_check((int)(call), #call, (why), (len)))
int cupti_check(int code, const char *call_text, char *why, size_t len);

/* CUPTI's own name for a CUptiResult ("CUPTI_ERROR_NOT_INITIALIZED"). */
const char *cupti_code_name(int code);

/* The CUPTI driver-API callback ids of every kernel-launch entry point:
 * the kernel namer of prof.cpp and the launch-fact capture watch the same ones. */
extern const unsigned cupti_launch_cbids[];
extern const size_t cupti_launch_cbid_count;

/* printf into `why` (nothing when why is NULL or len is 0): the one way cupti/ writes
 * a reason for its caller. */
void cupti_say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif

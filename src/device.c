#include "src/device.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

/* The kernel driver's own version ("580.159.04") from /proc, where Linux has one. */
static int nvidia_driver_version(char *buf, size_t len)
{
    char line[512];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return -1;
    int found = 0;
    if (fgets(line, sizeof line, f))
        for (char *save = NULL, *tok = strtok_r(line, " \t\n", &save); tok && !found;
             tok = strtok_r(NULL, " \t\n", &save)) {
            int a, b;
            if (sscanf(tok, "%d.%d", &a, &b) == 2 && strchr(tok, '.')) {
                snprintf(buf, len, "%s", tok);
                found = 1;
            }
        }
    fclose(f);
    return found ? 0 : -1;
}

static void version_string(int v, char *buf, size_t len)
{
    snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

void device_absence_reason(cudaError_t e, char *why, size_t len)
{
    char kernel_driver[24];
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        /* the runtime calls this "driver version is insufficient": there is no driver */
        snprintf(why, len, "no NVIDIA driver: libcuda.so.1 is not installed (no GPU on this machine, "
                           "or the driver is missing)");
        return;
    }
    int (*driver_version)(int *) = (int (*)(int *))dlsym(lib, "cuDriverGetVersion");
    int drv = 0;
    if (driver_version)
        driver_version(&drv);
    dlclose(lib);
    if (e == cudaErrorInsufficientDriver) {
        char drv_s[16], rt_s[16];
        version_string(drv, drv_s, sizeof drv_s);
        version_string(CUDART_VERSION, rt_s, sizeof rt_s);
        snprintf(why, len, "the NVIDIA driver (%s, CUDA %s) is older than the CUDA %s runtime gemmprof was "
                           "built with: update the driver", nvidia_driver_version(kernel_driver, sizeof kernel_driver)
                           == 0 ? kernel_driver : "version unknown", drv_s, rt_s);
    } else if (e == cudaSuccess || e == cudaErrorNoDevice) {
        const char *vis = getenv("CUDA_VISIBLE_DEVICES");
        snprintf(why, len, "no CUDA device: the driver sees none%s%.64s%s", vis ? " (CUDA_VISIBLE_DEVICES=" : "",
                 vis ? vis : "", vis ? ")" : "");
    } else {
        snprintf(why, len, "no CUDA device: %s", cudaGetErrorString(e));
    }
}

enum device_status device_open(int device, struct gp_meta *m, char *err, size_t errlen)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        device_absence_reason(e, err, errlen);
        cudaGetLastError();
        return DEVICE_NONE;
    }
    if (device >= count) {
        snprintf(err, errlen, "--device %d: only %d CUDA device%s (0..%d)", device, count,
                 count == 1 ? "" : "s", count - 1);
        return DEVICE_BAD_INDEX;
    }
    if ((e = cudaSetDevice(device)) != cudaSuccess || (e = cudaFree(0)) != cudaSuccess) {
        snprintf(err, errlen, "cannot use CUDA device %d: %s", device, cudaGetErrorString(e));
        return DEVICE_FAILED;
    }
    struct cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, device)) != cudaSuccess) {
        snprintf(err, errlen, "cannot query CUDA device %d: %s", device, cudaGetErrorString(e));
        return DEVICE_FAILED;
    }
    int clock_khz = 0, mem_khz = 0, bus = 0, optin = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, device);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);

    snprintf(m->gpu_name, sizeof m->gpu_name, "%.95s", p.name);
    const unsigned char *u = (const unsigned char *)p.uuid.bytes;
    snprintf(m->gpu_uuid, sizeof m->gpu_uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    m->cc_major = p.major;
    m->cc_minor = p.minor;
    m->sm_count = p.multiProcessorCount;
    m->sm_clock_max_hz = clock_khz * 1e3;
    m->mem_clock_hz = mem_khz * 1e3;
    m->mem_bus_bits = bus;
    m->l2_bytes = p.l2CacheSize;
    m->smem_per_block_optin_bytes = optin;
    m->global_mem_bytes = (double)p.totalGlobalMem;

    int drv = 0, rt = 0, blas = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    char cuda_api[16], kernel_driver[24];
    version_string(drv, cuda_api, sizeof cuda_api);
    if (nvidia_driver_version(kernel_driver, sizeof kernel_driver) == 0)
        snprintf(m->driver_version, sizeof m->driver_version, "%.15s (CUDA %.8s)", kernel_driver, cuda_api);
    else
        snprintf(m->driver_version, sizeof m->driver_version, "CUDA %.15s", cuda_api);
    version_string(rt, m->runtime_version, sizeof m->runtime_version);
    cublasHandle_t h;
    if (cublasCreate(&h) == CUBLAS_STATUS_SUCCESS) {
        cublasGetVersion(h, &blas);
        cublasDestroy(h);
        snprintf(m->cublas_version, sizeof m->cublas_version, "%d.%d.%d", blas / 10000,
                 (blas / 100) % 100, blas % 100);
    }
    return DEVICE_OK;
}

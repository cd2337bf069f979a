/* Probe (issues 10 and 13): the TF32 throughput of warp-level mma.sync.m16n8k8 on this GPU,
 * against which tf32_mma and tf32x3_mma could be held instead of the wgmma loop's ceiling
 * (kernels/ceil_tensor.cu). Operands stay in registers, so nothing but the tensor pipe's
 * HMMA path is exercised: each warp keeps CHAINS independent accumulator tiles and issues
 * their mma.syncs back to back. Prints TFLOP/s and the SM clock (clock64 over the kernel's
 * wall time) for 4 and 8 warps per SM sub-partition's worth of blocks.
 * Not part of `make`: tools/h200_session.sh step mmaprobe builds and runs it:
 *   nvcc -O3 -gencode arch=compute_90,code=sm_90 tools/lab/probe_mma_sync.cu -o probe && ./probe */
#include <cstdio>
#include <cuda_runtime.h>

#define CHAINS 8
#define ITERS 4096

static __device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void probe_kernel(float *sink, float never, long long *cycles)
{
    unsigned a[4], b[2];
    for (int i = 0; i < 4; ++i)   /* TF32 bit patterns of small values, different per lane */
        a[i] = __float_as_uint(0.001f * (threadIdx.x + i)) & 0xffffe000u;
    for (int i = 0; i < 2; ++i)
        b[i] = __float_as_uint(0.002f * (threadIdx.x + i)) & 0xffffe000u;
    float acc[CHAINS][4] = {};
    const long long t0 = clock64();
    for (int it = 0; it < ITERS; ++it) {
#pragma unroll
        for (int c = 0; c < CHAINS; ++c)
            mma_tf32(acc[c], a, b);
    }
    const long long t1 = clock64();
    float v = 0.f;
    for (int c = 0; c < CHAINS; ++c)
        v += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    if (v == never)
        sink[threadIdx.x] = v;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *cycles = t1 - t0;
}

int main()
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float *sink;
    long long *cycles;
    if (cudaMalloc(&sink, 1024 * sizeof(float)) != cudaSuccess || cudaMalloc(&cycles, sizeof(long long)) != cudaSuccess) {
        fprintf(stderr, "probe_mma_sync: no GPU memory\n");
        return 1;
    }
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int warps = 4; warps <= 16; warps *= 2) {
        const int threads = warps * 32;
        probe_kernel<<<sms, threads>>>(sink, -1.f, cycles);   /* warm-up: clocks up */
        float best_ms = 1e30f;
        long long cyc = 0;
        for (int rep = 0; rep < 5; ++rep) {
            cudaEventRecord(e0);
            probe_kernel<<<sms, threads>>>(sink, -1.f, cycles);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (ms < best_ms) {
                best_ms = ms;
                cudaMemcpy(&cyc, cycles, sizeof cyc, cudaMemcpyDeviceToHost);
            }
        }
        if (cudaGetLastError() != cudaSuccess) {
            fprintf(stderr, "probe_mma_sync: launch failed\n");
            return 1;
        }
        const double flop = (double)sms * warps * ITERS * CHAINS * 2.0 * 16 * 8 * 8;
        printf("mma.sync m16n8k8 tf32: %d SMs x %2d warps x %d chains: %.1f TFLOP/s, %.3f ms, "
               "SM clock ~%.2f GHz (block 0's clock64 over the event time)\n",
               sms, warps, CHAINS, flop / (best_ms * 1e-3) / 1e12, best_ms, cyc / (best_ms * 1e-3) / 1e9);
    }
    return 0;
}

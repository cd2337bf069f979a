/* Clusters of 2 on this GPU: how many the occupancy API says fit at once with tf32_auto's
 * 256 x 128 block (384 threads, ~197 KB of shared memory), and how many do run at once:
 * each block of a 132-block grid records its SM and its start and end (globaltimer)
 * around a 200 us spin; blocks that start after the first ones ended waited for a slot.
 *   nvcc -arch=sm_90a -o /tmp/cluster_probe tools/lab/cluster_probe.cu && /tmp/cluster_probe */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(unsigned long long *rec)
{
    extern __shared__ char smem[];
    unsigned long long t0, t1, smid;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    smid = s;
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    } while (t1 - t0 < 200000);
    smem[threadIdx.x] = 0;
    if (threadIdx.x == 0) {
        rec[3 * blockIdx.x] = smid;
        rec[3 * blockIdx.x + 1] = t0;
        rec[3 * blockIdx.x + 2] = t1;
    }
}

int main(int argc, char **argv)
{
    const int smem = argc > 1 ? atoi(argv[1]) : 197712, threads = 384;
    for (int cl = 1; cl <= 4; cl *= 2) {
        cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        cudaFuncSetAttribute(spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        cudaLaunchAttribute attr;
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = cl, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
        cudaLaunchConfig_t cfg = {};
        const int grid = 132 / cl * cl;
        cfg.gridDim = dim3(grid);
        cfg.blockDim = dim3(threads);
        cfg.dynamicSmemBytes = smem;
        cfg.attrs = &attr;
        cfg.numAttrs = 1;
        int clusters = -1;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, spin, &cfg);
        unsigned long long *d, h[3 * 132];
        cudaMalloc(&d, sizeof h);
        cudaError_t l = cudaLaunchKernelEx(&cfg, spin, d);
        cudaDeviceSynchronize();
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        unsigned long long first_end = ~0ull, t_min = ~0ull;
        for (int b = 0; b < grid; b++) {
            if (h[3 * b + 2] < first_end) first_end = h[3 * b + 2];
            if (h[3 * b + 1] < t_min) t_min = h[3 * b + 1];
        }
        int late = 0, sms_used[160] = {0}, distinct = 0;
        for (int b = 0; b < grid; b++) {
            if (h[3 * b + 1] >= first_end) late++;
            if (!sms_used[h[3 * b] % 160]++) distinct++;
        }
        printf("cluster %d: occupancy API %d clusters (%s), launch %s; %d blocks, %d on distinct SMs, %d started after the first ended\n",
               cl, clusters, cudaGetErrorString(e), cudaGetErrorString(l), grid, distinct, late);
        if (cl == 2)
            for (int b = 0; b < grid; b += 2)
                printf("%s%llu/%llu", b ? " " : "  pairs (smid): ", h[3 * b], h[3 * b + 3]);
        if (cl == 2) printf("\n");
        cudaFree(d);
    }
    return 0;
}

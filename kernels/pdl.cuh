/* Programmatic dependent launch (sm_90): a launcher that enqueues two kernels back to back
 * (a padded copy and the GEMM, a split-K GEMM and its reduction) lets the second launch and
 * get its blocks resident while the first drains; the second waits for the first's memory
 * at pdl_wait(). On the H200 a dependent launch otherwise costs about 2.5 us of an idle GPU
 * (kernels/simt_plan.h, SIMT_REDUCE_LAUNCH_CLK), a tenth of a small GEMM.
 * pdl_wait and pdl_trigger are no-ops in a kernel launched without the attribute, and
 * compile to nothing before sm_90 and in host builds of the kernel bodies. */
#ifndef GEMMPROF_KERNELS_PDL_CUH
#define GEMMPROF_KERNELS_PDL_CUH

/* Waits until the kernel before this one in the stream has finished and its writes are
 * visible. */
static __device__ __forceinline__ void pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Lets the kernel after this one start launching once every block of this one has
 * called it (or exited). */
static __device__ __forceinline__ void pdl_trigger()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "kernels/pdl.h"

/* The launch attribute of clusters of `cluster` blocks along x. */
static inline cudaLaunchAttribute pdl_cluster_attr(unsigned cluster)
{
    cudaLaunchAttribute a;
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = cluster, a.val.clusterDim.y = 1, a.val.clusterDim.z = 1;
    return a;
}

/* kernel<<<grid, block, smem, stream>>>(args...) in clusters of `cluster` blocks along x
 * (grid counts blocks; none where cluster is 1), as a dependent launch of the kernel
 * enqueued just before it when `dependent` (only then: after an event or a foreign kernel
 * the plain launch keeps the stream's full ordering) and pdl_allowed(). */
template <class... Params, class... Args>
static inline cudaError_t pdl_launch_clustered(bool dependent, unsigned cluster, void (*kernel)(Params...), dim3 grid,
                                               dim3 block, size_t smem, cudaStream_t stream, Args... args)
{
    cudaLaunchAttribute attrs[2];
    unsigned n = 0;
    if (cluster > 1)
        attrs[n++] = pdl_cluster_attr(cluster);
    if (dependent && pdl_allowed()) {
        attrs[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[n].val.programmaticStreamSerializationAllowed = 1;
        n++;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cfg.attrs = n ? attrs : nullptr;
    cfg.numAttrs = n;
    return cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...);
}

/* The same without clusters. */
template <class... Params, class... Args>
static inline cudaError_t pdl_launch(bool dependent, void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem,
                                     cudaStream_t stream, Args... args)
{
    return pdl_launch_clustered(dependent, 1, kernel, grid, block, smem, stream, args...);
}
#endif

#endif

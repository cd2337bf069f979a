/* What simt_auto's two streaming kernels (few columns: kernels/simt_skinny.cuh; few rows:
 * kernels/simt_short.cuh) share on the host: their shared memory grows with the slice they
 * stage, up to a cap, so the limit is raised only where a launch needs past 48 KB, and the
 * occupancy the rule counts is the cap's. */
#ifndef GEMMPROF_KERNELS_SIMT_STREAM_CUH
#define GEMMPROF_KERNELS_SIMT_STREAM_CUH

#ifdef __CUDACC__
/* Lets `kernel` launch with smem bytes (the cap smem_max raised to where smem needs it) */
template <class Kernel> static inline cudaError_t simt_stream_allow_smem(Kernel kernel, size_t smem, size_t smem_max)
{
    return smem > 48 * 1024 ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_max)
                            : cudaSuccess;
}

/* Resident blocks per SM of `threads` with smem_max bytes, and registers per thread */
template <class Kernel>
static inline cudaError_t simt_stream_occupancy(Kernel kernel, int threads, size_t smem_max, int *blocks, int *regs)
{
    cudaError_t err = simt_stream_allow_smem(kernel, smem_max, smem_max);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, threads, smem_max);
    struct cudaFuncAttributes fa;
    if (err == cudaSuccess && (err = cudaFuncGetAttributes(&fa, kernel)) == cudaSuccess)
        *regs = fa.numRegs;
    return err;
}
#endif

#endif

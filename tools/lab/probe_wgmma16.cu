/* Probe (issue 28): which shared-memory descriptor encoding makes wgmma m64n256k16 read the
 * N-major B of bf16_wgmma / fp16_wgmma (kernels/20_wgmma16.cu) right. It loads one stage
 * exactly as the kernel does (the same tensor maps, TMA boxes and wgmma16_load_stage of
 * kernels/sm90_16bit.cuh), runs one k-tile (4 x k16) for both consumer warpgroups' 64-row
 * halves of A through the kernel's own wgmma16_ktile and wgmma16_store, and compares C with
 * a CPU product exactly (small integers, so every sum is exact in FP32).
 * Candidates, each in a child process (a bad descriptor may fault and lose the context):
 *   control  B^T K-major (transposed on the host, boxes like A's), imm-trans-b 0: the form
 *            the TF32 kernels and the ceiling loop use; checks A's descriptor, the k16 steps
 *            and the store, so a failure below is B's encoding alone
 *   mn256    B N-major as the kernel lays it out, imm-trans-b 1 and 0, the n-block stride
 *            (8192: one [64 k][64 n] box) and the 8-row k-group stride (1024) in the leading
 *            / stride byte offsets, and swapped
 *   mn64     the same with m64n64k16 and one box: only the k-group stride matters there
 *   kernel   the kernel's compiled choice (WGMMA16_MN_LBO_IS_MN, WGMMA16_TRANS_B)
 * Prints one line per candidate (MATCH, or WRONG with the mismatch count and the first
 * mismatch, or the child's error) and a verdict on the kernel's encoding.
 * Not part of `make`: tools/h200_session.sh step wgmma16 builds and runs it:
 *   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -DGP_SM90A -I. \
 *        tools/lab/probe_wgmma16.cu -o probe_wgmma16 && ./probe_wgmma16 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/sm90_16bit.cuh"

enum { PM = 128, PK = 64, PN = 256, PROBE_SMEM = 200 * 1024 }; /* one stage; slack for stray reads */
enum mode { MODE_CONTROL, MODE_MN256, MODE_MN64 };

struct cand {
    const char *what;
    bool bf16;
    enum mode mode;
    int trans;
    unsigned lbo, sbo;
};

#if SM90_TF32_DEVICE
/* m64n64k16 from shared memory: 32 accumulators, d[4j + 2h + e] as for n256. */
template <bool bf16, int TRANS_B>
static __device__ __forceinline__ void wgmma_m64n64k16_ss(float (&d)[32], uint64_t da, uint64_t db)
{
#define D32 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
            "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define D32_OPS(d)                                                                                            \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),  \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
    if (bf16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " D32 ", %32, %33, p, 1, 1, 0, %35;\n}\n"
                     : D32_OPS(d)
                     : "l"(da), "l"(db), "r"(1), "n"(TRANS_B));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", %32, %33, p, 1, 1, 0, %35;\n}\n"
                     : D32_OPS(d)
                     : "l"(da), "l"(db), "r"(1), "n"(TRANS_B));
#undef D32
#undef D32_OPS
}
#endif

/* One block, one warpgroup: the stage's loads, then for each 64-row half of A (consumer
 * warpgroup 0's and 1's) one k-tile into C rows half x 64 ... (c: PM x n, row-major). */
template <bool BF16, enum mode MODE, int TRANS>
static __global__ void __launch_bounds__(128, 1)
probe_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, unsigned lbo,
             unsigned sbo, float *c)
{
#if SM90_TF32_DEVICE
    constexpr int N = MODE == MODE_MN64 ? 64 : PN;
    extern __shared__ uint8_t probe_smem_raw[];
    uint8_t *const smem = probe_smem_raw + ((1024 - (sm90_smem_addr(probe_smem_raw) & 1023)) & 1023);
    uint8_t *const as = smem, *const bs = smem + PM * PK * 2;
    __shared__ uint64_t bar;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, tig = lane % 4;
    if (tid == 0) {
        mbar_init(&bar, 1);
        mbar_init_fence();
    }
    __syncthreads();
    if (tid == 0) {
        mbar_arrive_expect_tx(&bar, (PM + N) * PK * 2);
        if (MODE == MODE_CONTROL) {
            tma_load_2d(as, &map_a, 0, 0, &bar);
            tma_load_2d(bs, &map_b, 0, 0, &bar); /* B^T [256 n][64 k], like A's box */
        } else {
            wgmma16_load_stage<PM, N, PK>(as, bs, &map_a, &map_b, 0, 0, 0, &bar);
        }
    }
    mbar_wait(&bar, 0);
    for (int half = 0; half < 2; ++half) {
        const uint8_t *const a_rows = as + half * 64 * 128;
        if (MODE == MODE_MN64) {
            float acc[32];
            for (int i = 0; i < 32; ++i)
                acc[i] = 0.f;
            wgmma_fence();
#pragma unroll
            for (int s = 0; s < PK / 16; ++s)
                wgmma_m64n64k16_ss<BF16, TRANS>(acc, wgmma_desc_k128(a_rows + 32 * s),
                                                wgmma_desc_sw128(bs + 2048 * s, lbo, sbo));
            wgmma_commit();
            wgmma_wait<0>();
            for (int j = 0; j < 8; ++j)
                for (int h = 0; h < 2; ++h)
                    for (int e = 0; e < 2; ++e)
                        c[(64 * half + 16 * warp + g + 8 * h) * N + 8 * j + 2 * tig + e] = acc[4 * j + 2 * h + e];
        } else {
            float acc[128];
            for (int i = 0; i < 128; ++i)
                acc[i] = 0.f;
            wgmma_fence();
            if (MODE == MODE_CONTROL) {
#pragma unroll
                for (int s = 0; s < PK / 16; ++s)
                    wgmma_m64n256k16_ss<BF16, 0>(acc, wgmma_desc_k128(a_rows + 32 * s), wgmma_desc_k128(bs + 32 * s),
                                                 1);
            } else {
                wgmma16_ktile<BF16, TRANS, PK>(acc, a_rows, bs, lbo, sbo);
            }
            wgmma_commit();
            wgmma_wait<0>();
            wgmma16_store(acc, c, PM, N, 64 * half, 0, warp, g, tig);
        }
    }
#else
    (void)map_a, (void)map_b, (void)lbo, (void)sbo, (void)c;
#endif
}

static unsigned short to16(float v, bool bf16)
{
    if (bf16) {
        const __nv_bfloat16 h = __float2bfloat16_rn(v);
        unsigned short u;
        memcpy(&u, &h, 2);
        return u;
    }
    const __half h = __float2half_rn(v);
    unsigned short u;
    memcpy(&u, &h, 2);
    return u;
}

#define CHECK(x)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            printf("ERROR %s: %s\n", #x, cudaGetErrorString(e_));                                \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

template <bool BF16, enum mode MODE, int TRANS>
static int launch(const CUtensorMap &ma, const CUtensorMap &mb, unsigned lbo, unsigned sbo, float *c)
{
    CHECK(cudaFuncSetAttribute(probe_kernel<BF16, MODE, TRANS>, cudaFuncAttributeMaxDynamicSharedMemorySize, PROBE_SMEM));
    probe_kernel<BF16, MODE, TRANS><<<1, 128, PROBE_SMEM>>>(ma, mb, lbo, sbo, c);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    return 0;
}

/* Runs candidate `cd` and prints "RESULT MATCH" or "RESULT WRONG ..." (or ERROR). */
static int run_one(const struct cand &cd)
{
    const int N = cd.mode == MODE_MN64 ? 64 : PN;
    static unsigned short ha[PM * PK], hb[PK * PN], hbt[PN * PK];
    static float fa[PM * PK], fb[PK * PN], hc[PM * PN];
    srand(12345);
    for (int i = 0; i < PM * PK; ++i)
        fa[i] = (float)(rand() % 9 - 4), ha[i] = to16(fa[i], cd.bf16);
    for (int i = 0; i < PK * PN; ++i)
        fb[i] = (float)(rand() % 9 - 4), hb[i] = to16(fb[i], cd.bf16);
    for (int kk = 0; kk < PK; ++kk)
        for (int nn = 0; nn < PN; ++nn)
            hbt[nn * PK + kk] = hb[kk * PN + nn];
    void *da, *db;
    float *dc;
    CHECK(cudaMalloc(&da, sizeof ha));
    CHECK(cudaMalloc(&db, sizeof hb));
    CHECK(cudaMalloc((void **)&dc, sizeof hc));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, cd.mode == MODE_CONTROL ? hbt : hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0xff, sizeof hc)); /* NaN */
    CUtensorMap ma, mb;
    CHECK(sm90_tensor_map16(&ma, da, cd.bf16, PM, PK, PK, WGMMA16_ROW, PM)); /* the kernel's A box */
    if (cd.mode == MODE_CONTROL)
        CHECK(sm90_tensor_map16(&mb, db, cd.bf16, PN, PK, PK, WGMMA16_ROW, PN));
    else
        CHECK(sm90_tensor_map16(&mb, db, cd.bf16, PK, PN, PN, WGMMA16_ROW, PK)); /* the kernel's B boxes */
    typedef int (*launch_fn)(const CUtensorMap &, const CUtensorMap &, unsigned, unsigned, float *);
    static const launch_fn table[3][2][2] = { /* [mode][bf16][trans] */
        {{launch<false, MODE_CONTROL, 0>, launch<false, MODE_CONTROL, 0>},
         {launch<true, MODE_CONTROL, 0>, launch<true, MODE_CONTROL, 0>}},
        {{launch<false, MODE_MN256, 0>, launch<false, MODE_MN256, 1>},
         {launch<true, MODE_MN256, 0>, launch<true, MODE_MN256, 1>}},
        {{launch<false, MODE_MN64, 0>, launch<false, MODE_MN64, 1>},
         {launch<true, MODE_MN64, 0>, launch<true, MODE_MN64, 1>}}};
    const int rc = table[cd.mode][cd.bf16][cd.trans != 0](ma, mb, cd.lbo, cd.sbo, dc);
    if (rc)
        return rc;
    CHECK(cudaMemcpy(hc, dc, (size_t)PM * N * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0, first = -1;
    double want_first = 0;
    for (int r = 0; r < PM; ++r)
        for (int col = 0; col < N; ++col) {
            double want = 0;
            for (int kk = 0; kk < PK; ++kk)
                want += (double)fa[r * PK + kk] * fb[kk * PN + col];
            if (!(hc[r * N + col] == (float)want)) {
                if (bad++ == 0)
                    first = r * N + col, want_first = want;
            }
        }
    if (bad == 0)
        printf("RESULT MATCH (%d x %d exact)\n", PM, N);
    else
        printf("RESULT WRONG %d of %d wrong, first C(%d,%d) = %g, want %g\n", bad, PM * N, first / N, first % N,
               hc[first], want_first);
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t klbo, ksbo;
    wgmma16_b_offsets<PK>(&klbo, &ksbo);
    const struct cand cands[] = {
        {"control: B^T K-major, trans-b 0", true, MODE_CONTROL, 0, 16, 1024},
        {"mn256 trans-b 1, LBO 8192 (n blocks) SBO 1024 (k groups)", true, MODE_MN256, 1, 8192, 1024},
        {"mn256 trans-b 1, LBO 1024 (k groups) SBO 8192 (n blocks)", true, MODE_MN256, 1, 1024, 8192},
        {"mn256 trans-b 0, LBO 8192 SBO 1024", true, MODE_MN256, 0, 8192, 1024},
        {"mn256 trans-b 0, LBO 1024 SBO 8192", true, MODE_MN256, 0, 1024, 8192},
        {"mn64  trans-b 1, LBO 8192 SBO 1024", true, MODE_MN64, 1, 8192, 1024},
        {"mn64  trans-b 1, LBO 1024 SBO 8192", true, MODE_MN64, 1, 1024, 8192},
        {"control: B^T K-major, trans-b 0", false, MODE_CONTROL, 0, 16, 1024},
        {"mn256 trans-b 1, LBO 8192 (n blocks) SBO 1024 (k groups)", false, MODE_MN256, 1, 8192, 1024},
        {"mn256 trans-b 1, LBO 1024 (k groups) SBO 8192 (n blocks)", false, MODE_MN256, 1, 1024, 8192},
        {"kernel's encoding", true, MODE_MN256, WGMMA16_TRANS_B, klbo, ksbo},
        {"kernel's encoding", false, MODE_MN256, WGMMA16_TRANS_B, klbo, ksbo},
    };
    const int ncand = (int)(sizeof cands / sizeof cands[0]);
    if (argc == 3 && strcmp(argv[1], "--one") == 0) {
        const int i = atoi(argv[2]);
        return i >= 0 && i < ncand ? run_one(cands[i]) : 2;
    }
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        printf("probe_wgmma16: cannot find its own executable\n");
        return 1;
    }
    self[len] = '\0';
    printf("probe_wgmma16: one stage of bf16_wgmma/fp16_wgmma's tile (A [128][64 k], B 4 x [64 k][64 n], 128B "
           "swizzle), one k-tile per 64-row half; kernel compiled with WGMMA16_MN_LBO_IS_MN=%d WGMMA16_TRANS_B=%d\n",
           WGMMA16_MN_LBO_IS_MN, WGMMA16_TRANS_B);
    bool match[sizeof cands / sizeof cands[0]] = {};
    for (int i = 0; i < ncand; ++i) {
        char cmd[4200], line[512], result[512] = "no result line (crashed or timed out)";
        snprintf(cmd, sizeof cmd, "timeout 30 '%s' --one %d 2>&1", self, i);
        FILE *p = popen(cmd, "r");
        while (p && fgets(line, sizeof line, p))
            if (strncmp(line, "RESULT ", 7) == 0 || strncmp(line, "ERROR ", 6) == 0) {
                line[strcspn(line, "\n")] = '\0';
                snprintf(result, sizeof result, "%s", strncmp(line, "RESULT ", 7) == 0 ? line + 7 : line);
            }
        if (p)
            pclose(p);
        match[i] = strncmp(result, "MATCH", 5) == 0;
        printf("%2d %-4s %-58s %s\n", i, cands[i].bf16 ? "bf16" : "fp16", cands[i].what, result);
    }
    const bool control = match[0] && match[7], kernel = match[10] && match[11];
    printf("verdict: control %s; kernel's encoding %s", control ? "MATCH" : "WRONG", kernel ? "MATCH" : "WRONG");
    if (!kernel && control) {
        if (match[2] && match[9])
            printf(" -> set WGMMA16_MN_LBO_IS_MN 0 in kernels/sm90_16bit.cuh");
        else if (match[1] && match[8])
            printf(" -> set WGMMA16_MN_LBO_IS_MN 1 in kernels/sm90_16bit.cuh");
        else if (match[3] || match[4])
            printf(" -> imm-trans-b 0 reads the N-major tile: set WGMMA16_TRANS_B 0 (and LBO_IS_MN per rows 3/4)");
        else
            printf(" -> no candidate reads the N-major boxes: the layout itself needs changing");
    }
    printf("\n");
    return kernel ? 0 : 1;
}

/* Launch facts (analysis/launch_facts.c): block limits, occupancy, waves and tail on cases
 * worked by hand from the H100/H200 limits (132 SMs, 65536 registers and 64 warps and
 * 32 blocks per SM, 228 KiB shared memory per SM, 227 KiB per block, 1 KiB reserved
 * per block; allocation in 256 registers per warp and 128-byte shared-memory units).
 * The shared-memory limit is taken against the driver's configuration when CUPTI's
 * kernel record gives it; the carveout model is tested as the fallback it is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/results_csv.h"
#include "analysis/launch_facts.h"
#include "tests/test.h"

static const struct launch_device h200 = {
    .cc_major = 9, .cc_minor = 0, .sm_count = 132, .warp_size = 32,
    .regs_per_sm = 65536, .regs_per_block = 65536, .max_warps_per_sm = 64,
    .max_blocks_per_sm = 32, .smem_per_sm = 233472, .smem_per_block_optin = 232448,
    .reserved_smem_per_block = 1024,
};

static struct launch_kernel kernel(unsigned gx, unsigned gy, unsigned bx, unsigned by, int regs,
                                   long smem_static, long smem_dynamic)
{
    struct launch_kernel k = {.grid = {gx, gy, 1}, .block = {bx, by, 1}, .regs = regs,
                              .smem_static = smem_static, .smem_dynamic = smem_dynamic,
                              .carveout_pct = -1};
    snprintf(k.name, sizeof k.name, "k%ux%u", bx, by);
    return k;
}

static void check_limits(const struct gp_result *r, double regs, double smem, double warps,
                         double blocks, double per_sm, const char *limiter, const char *what)
{
    CHECK(r->block_limit_registers == regs && r->block_limit_smem == smem &&
              r->block_limit_warps == warps && r->block_limit_blocks == blocks &&
              r->blocks_per_sm == per_sm,
          "%s: limits regs %g smem %g warps %g blocks %g -> %g per SM (got %g %g %g %g -> %g)", what,
          regs, smem, warps, blocks, per_sm, r->block_limit_registers, r->block_limit_smem,
          r->block_limit_warps, r->block_limit_blocks, r->blocks_per_sm);
    CHECK(strcmp(r->occupancy_limiter, limiter) == 0, "%s: limiter %s (got \"%s\")", what, limiter,
          r->occupancy_limiter);
}

int main(void)
{
    struct gp_result r;
    char note[256];

    /* tiled at 2048^3: 64x64 blocks of 32x32 threads, 32 registers, 8 KiB static, the
     * driver's configuration 32 KiB. Registers: 32*32 = 1024 per warp, 16384/1024 = 16
     * warps per sub-partition, 64 per SM, 64/32 = 2. Warps 64/32 = 2. Shared: 8192 +
     * 1024 = 9216 per block, 32768/9216 = 3 (ncu on the H200: 2, 3, 2).
     * Occupancy 2*32/64 = 100%; waves 4096/(132*2) = 15.5152 (ncu: 15.52). */
    gp_result_init(&r);
    struct launch_kernel k = kernel(64, 64, 32, 32, 32, 8192, 0);
    k.smem_config = 32768;
    CHECK(launch_facts_fill(&h200, &k, 2, &r, note, sizeof note) == 0, "tiled: filled, API agrees");
    check_limits(&r, 2, 3, 2, 32, 2, "registers", "tiled");
    CHECK(r.smem_config_bytes == 32768, "tiled: the driver's configuration recorded (got %g)", r.smem_config_bytes);
    CHECK(r.blocks == 4096 && r.grid_x == 64 && r.block_y == 32 && r.registers_per_thread == 32 &&
              r.smem_static_bytes == 8192 && r.smem_dynamic_bytes == 0,
          "tiled: grid, block, registers and shared memory copied");
    CHECK(strcmp(r.launch_kernel, "k32x32") == 0, "tiled: the kernel named");
    CHECK_NEAR(r.occupancy_theoretical_pct, 100.0, 1e-12, "tiled: 100%% theoretical occupancy");
    CHECK_NEAR(r.waves, 4096.0 / 264.0, 1e-12, "tiled: 15.515 waves (got %g)", r.waves);
    CHECK_NEAR(r.tail_efficiency, 4096.0 / 264.0 / 16.0, 1e-12, "tiled: tail 0.9697 (got %g)",
               r.tail_efficiency);

    /* blocktile_1d on the H200: 512 threads (16 warps), 50 registers, 4 KiB static.
     * Registers: 1600 rounds up to 1792 per warp, 16384/1792 = 9 warps per sub-partition,
     * 36 per SM, 36/16 = 2. Warps 64/16 = 4. Shared: 4096 + 1024 = 5120 per block; the
     * driver ran it with 32 KiB: 32768/5120 = 6, ncu's limit. The model would have
     * picked 16 KiB (2 blocks need 10240) and said 3, the mismatch this replaced. */
    gp_result_init(&r);
    k = kernel(32, 32, 512, 1, 50, 4096, 0);
    k.smem_config = 32768;
    CHECK(launch_facts_fill(&h200, &k, 2, &r, note, sizeof note) == 0, "blocktile_1d: filled (%s)", note);
    check_limits(&r, 2, 6, 4, 32, 2, "registers", "blocktile_1d, driver's 32 KiB");
    CHECK(r.smem_config_bytes == 32768, "blocktile_1d: 32 KiB recorded");
    k.smem_config = 0;
    gp_result_init(&r);
    CHECK(launch_facts_fill(&h200, &k, 2, &r, note, sizeof note) == 0, "blocktile_1d without a record: filled");
    check_limits(&r, 2, 3, 4, 32, 2, "registers", "blocktile_1d, fallback model");
    CHECK(isnan(r.smem_config_bytes), "blocktile_1d without a record: no configuration recorded");
    CHECK(launch_smem_config(&h200, 5120, 2, -1) == 16384, "fallback model: 2 blocks of 5 KiB in 16 KiB");

    /* blocktile_2d and vectorized: 256 threads (8 warps), 128 registers, 8 KiB static.
     * Registers 4096 per warp, 4 warps per sub-partition, 16/8 = 2; warps 8. Shared 9216;
     * the driver's 64 KiB: 65536/9216 = 7, ncu's limit (the model: 32 KiB, 3). */
    gp_result_init(&r);
    k = kernel(16, 16, 256, 1, 128, 8192, 0);
    k.smem_config = 65536;
    launch_facts_fill(&h200, &k, 2, &r, note, sizeof note);
    check_limits(&r, 2, 7, 8, 32, 2, "registers", "blocktile_2d, driver's 64 KiB");
    k.smem_config = 0;
    gp_result_init(&r);
    launch_facts_fill(&h200, &k, 2, &r, note, sizeof note);
    check_limits(&r, 2, 3, 8, 32, 2, "registers", "blocktile_2d, fallback model");

    /* a configuration that cannot be the launch's (4 KiB, smaller than one 9 KiB block):
     * noted, and the model stands in */
    gp_result_init(&r);
    k = kernel(64, 64, 32, 32, 32, 8192, 0);
    k.smem_config = 4096;
    CHECK(launch_facts_fill(&h200, &k, 2, &r, note, sizeof note) == 1 && strstr(note, "holds no block") &&
              strstr(note, "carveout model"),
          "a 4 KiB configuration for 9 KiB blocks: noted (%s)", note);
    check_limits(&r, 2, 3, 2, 32, 2, "registers", "unusable configuration, fallback model");
    CHECK(isnan(r.smem_config_bytes), "unusable configuration: not recorded");
    CHECK(launch_smem_config(&h200, 9216, 2, -1) == 32768, "fallback model: 2 blocks of 9 KiB in 32 KiB");
    /* with the API disagreeing as well, both said */
    gp_result_init(&r);
    CHECK(launch_facts_fill(&h200, &k, 3, &r, note, sizeof note) == 1 && strstr(note, "holds no block") &&
              strstr(note, "; ") && strstr(note, "occupancy API"),
          "unusable configuration and the API disagreeing: both noted (%s)", note);

    /* one wave short: 64 blocks of 256 threads (8 warps), 128 registers, 32 KiB dynamic.
     * Registers: 4096 per warp, 4 warps per sub-partition, 16 per SM, 16/8 = 2. Warps
     * 64/8 = 8. Shared: 33792 per block, 2 need 67584: the 100 KiB carveout holds 3.
     * Occupancy 2*8/64 = 25%; waves 64/264 = 0.2424, the tail as much. */
    gp_result_init(&r);
    k = kernel(8, 8, 256, 1, 128, 0, 32768);
    CHECK(launch_facts_fill(&h200, &k, -1, &r, note, sizeof note) == 0, "one wave short: filled");
    check_limits(&r, 2, 3, 8, 32, 2, "registers", "one wave short");
    CHECK_NEAR(r.occupancy_theoretical_pct, 25.0, 1e-12, "one wave short: 25%% occupancy");
    CHECK_NEAR(r.waves, 64.0 / 264.0, 1e-12, "one wave short: 0.2424 waves (got %g)", r.waves);
    CHECK_NEAR(r.tail_efficiency, 64.0 / 264.0, 1e-12, "one wave short: tail = waves below one");

    /* shared-memory bound: 1000 blocks of 128 threads, 40 registers, 100000 B dynamic.
     * Registers: 1280 per warp (a multiple of 256), 16384/1280 = 12 warps per
     * sub-partition, 48 per SM, 48/4 = 12. Warps 16. Shared: 101024 rounded to 128 is
     * 101120; 12 blocks do not fit, so the 228 KiB carveout: 233472/101120 = 2.
     * Occupancy 2*4/64 = 12.5%; waves 1000/264 = 3.788, tail 3.788/4 = 0.947. */
    gp_result_init(&r);
    k = kernel(10, 100, 128, 1, 40, 0, 100000);
    CHECK(launch_facts_fill(&h200, &k, 2, &r, note, sizeof note) == 0, "smem bound: filled");
    check_limits(&r, 12, 2, 16, 32, 2, "shared_memory", "smem bound, fallback model");
    k.smem_config = 233472;   /* what the driver must pick here; the same answer */
    gp_result_init(&r);
    launch_facts_fill(&h200, &k, 2, &r, note, sizeof note);
    check_limits(&r, 12, 2, 16, 32, 2, "shared_memory", "smem bound, driver's 228 KiB");
    CHECK_NEAR(r.occupancy_theoretical_pct, 12.5, 1e-12, "smem bound: 12.5%% occupancy");
    CHECK_NEAR(r.tail_efficiency, 1000.0 / 264.0 / 4.0, 1e-12, "smem bound: tail 0.947 (got %g)",
               r.tail_efficiency);

    /* register granularity: 96 threads (3 warps), 37 registers: 1184 rounds up to 1280
     * per warp, 12 warps per sub-partition, 48/3 = 16 (without the rounding it would
     * be 13 per sub-partition, 17). Warps 64/3 = 21. No shared memory: 1 KiB reserve,
     * 16 need 16 KiB, 16 fit: a tie with registers, registers named. 16*3/64 = 75%. */
    gp_result_init(&r);
    k = kernel(100, 1, 96, 1, 37, 0, 0);
    launch_facts_fill(&h200, &k, 16, &r, note, sizeof note);
    check_limits(&r, 16, 16, 21, 32, 16, "registers", "granularity");
    CHECK_NEAR(r.occupancy_theoretical_pct, 75.0, 1e-12, "granularity: 75%% occupancy");

    /* blocks per SM: one warp of 16 registers: 512 per warp, 32 per sub-partition, 128
     * blocks; warps 64; shared 32 KiB carveout holds 32; the 32-block cap binds. */
    gp_result_init(&r);
    k = kernel(132 * 32 * 3, 1, 32, 1, 16, 0, 0);
    launch_facts_fill(&h200, &k, 32, &r, note, sizeof note);
    check_limits(&r, 128, 32, 64, 32, 32, "blocks", "one-warp blocks");
    CHECK_NEAR(r.occupancy_theoretical_pct, 50.0, 1e-12, "one-warp blocks: 32*1/64 = 50%%");
    CHECK_NEAR(r.waves, 3.0, 1e-12, "one-warp blocks: exactly 3 waves");
    CHECK_NEAR(r.tail_efficiency, 1.0, 1e-12, "one-warp blocks: full last wave");

    /* the API disagrees: trusted, the limiter is the resource at its answer */
    gp_result_init(&r);
    k = kernel(64, 64, 32, 32, 32, 8192, 0);
    k.smem_config = 32768;
    CHECK(launch_facts_fill(&h200, &k, 3, &r, note, sizeof note) == 1 && strstr(note, "occupancy API"),
          "API 3 against limits 2: noted (%s)", note);
    CHECK(r.blocks_per_sm == 3 && strcmp(r.occupancy_limiter, "shared_memory") == 0,
          "API 3: 3 per SM, named after the limit equal to it (shared memory)");
    gp_result_init(&r);
    CHECK(launch_facts_fill(&h200, &k, 1, &r, note, sizeof note) == 1 && r.blocks_per_sm == 1 &&
              r.occupancy_limiter[0] == '\0',
          "API 1: no limit equals it, no limiter named");
    CHECK_NEAR(r.occupancy_theoretical_pct, 50.0, 1e-12, "API 1: 1*32/64 = 50%%");

    /* a block that cannot fit: 1024 threads of 255 registers (8192 per warp x 32 warps
     * is four times the register file): 0 blocks, no waves */
    gp_result_init(&r);
    k = kernel(10, 1, 1024, 1, 255, 0, 0);
    launch_facts_fill(&h200, &k, -1, &r, note, sizeof note);
    CHECK(r.block_limit_registers == 0 && r.blocks_per_sm == 0 && isnan(r.waves) &&
              isnan(r.tail_efficiency) && r.occupancy_theoretical_pct == 0,
          "255 registers x 1024 threads: 0 blocks, waves unknown");

    /* the fallback model with a carveout preference of 50%: 114 KiB rounds up to the
     * 132 KiB carveout */
    CHECK(launch_smem_config(&h200, 9216, 2, 50) == 132 * 1024, "50%% carveout: 132 KiB");
    CHECK(launch_smem_config(&h200, 150000, 1, 0) == 164 * 1024, "0%% carveout, 150000 B block: 164 KiB");

    /* the facts reach results.csv through columns.def and come back from it; a row
     * without them (CUPTI held by another tool) reads back as unknown */
    {
        char dir[] = "/tmp/gemmprof_test_launch_XXXXXX", path[128], err[512] = "";
        struct gp_result in[2], *out = NULL;
        int n = 0;
        for (int i = 0; i < 2; i++) {
            gp_result_init(&in[i]);
            snprintf(in[i].variant, sizeof in[i].variant, i ? "naive" : "cublas");
            snprintf(in[i].precision, sizeof in[i].precision, "fp32");
            in[i].m = in[i].n = in[i].k = 2048;
            in[i].rel_err = 1e-7;
            in[i].time_median_s = 1e-3;
            in[i].flop_per_s = 2.0 * 2048 * 2048 * 2048 / 1e-3;
        }
        k = kernel(64, 64, 32, 32, 32, 8192, 0);
        snprintf(k.name, sizeof k.name, "cutlass::Kernel2<sm90_xmma, 16, int>");
        k.smem_config = 32768;
        launch_facts_fill(&h200, &k, 2, &in[0], note, sizeof note);
        FILE *f = mkdtemp(dir) ? (snprintf(path, sizeof path, "%s/results.csv", dir), fopen(path, "w")) : NULL;
        CHECK(f && results_csv_write_header(f) == 0 && results_csv_write_row(f, &in[0], NULL) == 0 &&
                  results_csv_write_row(f, &in[1], NULL) == 0,
              "rows with and without launch facts written");
        if (f)
            fclose(f);
        CHECK(f && results_csv_read(path, &out, &n, err, sizeof err) == 0 && n == 2, "read back (%s)", err);
        if (n == 2) {
            CHECK(strcmp(out[0].launch_kernel, k.name) == 0 && out[0].grid_x == 64 && out[0].block_y == 32 &&
                      out[0].registers_per_thread == 32 && out[0].smem_static_bytes == 8192 &&
                      out[0].block_limit_smem == 3 && out[0].smem_config_bytes == 32768 &&
                      out[0].blocks_per_sm == 2 &&
                      strcmp(out[0].occupancy_limiter, "registers") == 0,
                  "launch facts round-trip, a kernel name with commas included");
            /* results.csv keeps 9 significant digits */
            CHECK_NEAR(out[0].waves, in[0].waves, 1e-8, "waves round-trip (%.9g)", out[0].waves);
            CHECK_NEAR(out[0].tail_efficiency, in[0].tail_efficiency, 1e-8, "tail efficiency round-trips");
            CHECK(out[0].occupancy_theoretical_pct == 100, "theoretical occupancy round-trips");
            CHECK(isnan(out[1].grid_x) && isnan(out[1].waves) && isnan(out[1].smem_config_bytes) &&
                      out[1].launch_kernel[0] == '\0' &&
                      out[1].occupancy_limiter[0] == '\0',
                  "a row without launch facts reads back as unknown");
        }
        free(out);
        unlink(path);
        rmdir(dir);
    }

    /* unusable inputs leave the row unknown */
    gp_result_init(&r);
    k = kernel(1, 1, 0, 1, 32, 0, 0);
    CHECK(launch_facts_fill(&h200, &k, 2, &r, note, sizeof note) == -1 && isnan(r.blocks) &&
              r.launch_kernel[0] == '\0',
          "an empty block: refused, the row left unknown");
    TEST_EXIT();
}

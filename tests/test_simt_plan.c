/* simt_auto's selection rule (kernels/simt_plan.c) on an H200-like machine, the config
 * column of results.csv (--tune's parsing is in tests/test_cli.c). No GPU. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "analysis/results_csv.h"
#include "kernels/simt_plan.h"
#include "tests/test.h"

/* 132 SMs; blocks per SM as the occupancy API gives them for the table's register and
 * shared-memory use on sm_90 (nvcc 13.0: 255 registers for the 16x8 thread tiles) */
static struct simt_machine h200(void)
{
    struct simt_machine mc = {132, {0}, {0}};
    const char *names[] = {"b128x256", "b256x128", "b128x128", "b64x128", "b128x64", "b64x64"};
    const int per_sm[] = {1, 1, 2, 3, 2, 4};
    for (int i = 0; i < 6; i++) {
        int c = simt_config_find(names[i]);
        if (c >= 0)
            mc.blocks_per_sm[c] = per_sm[i];
    }
    return mc;
}

static long tile_area(const struct simt_plan *p)
{
    return (long)simt_configs[p->config].bm * simt_configs[p->config].bn;
}

/* every slice non-empty, all of K covered, the slice a multiple of BK */
static int plan_covers(const struct simt_plan *p, long k)
{
    const int bk = simt_configs[p->config].bk;
    return p->split >= 1 && p->k_slice % bk == 0 && (long)p->split * p->k_slice >= k &&
           (long)(p->split - 1) * p->k_slice < k;
}

static void test_table(void)
{
    int ok = simt_config_count > 0 && simt_config_count <= SIMT_MAX_CONFIGS;
    for (int i = 0; i < simt_config_count; i++) {
        const struct simt_config *c = &simt_configs[i];
        int tm, tn, t = simt_config_threads(c);
        simt_config_thread_tile(c, &tm, &tn);
        /* the kernel's static_asserts, restated: whole warps, 4x4 sub-tiles, the swizzle */
        ok = ok && c->bm % c->wm == 0 && c->bn % c->wn == 0 && t >= 32 && t <= 1024 && tm >= 4 && tn >= 4 &&
             tm * tn * t == c->bm * c->bn && c->bk % (c->a_kmajor ? 16 : 8) == 0 && c->stages >= 2 && c->eff > 0 && c->eff <= 1;
    }
    CHECK(ok, "%d configurations: whole warps, every output owned by one thread, BK a multiple of 16 (k-major) or 8",
          simt_config_count);
    char buf[80];
    const struct simt_plan p = {simt_config_find("b128x256"), 2, 2048, 0, 0};
    simt_plan_describe(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "128x256x16 w64x64 t16x8 s4 split2") == 0, "a plan described as the config column says: %s",
          buf);
    const struct simt_plan t = {simt_config_find("t128x256"), 1, 4096, 0, 0};
    simt_plan_describe(&t, buf, sizeof buf);
    CHECK(strcmp(buf, "128x256x16 w64x64 t16x8 s4 aT split1") == 0, "a transposed-A plan says aT: %s", buf);
}

static void test_rule(void)
{
    const struct simt_machine mc = h200();
    const struct simt_plan big = simt_plan_pick(&mc, 8192, 8192, 8192);
    const struct simt_plan mid = simt_plan_pick(&mc, 4096, 4096, 4096);
    const struct simt_plan small = simt_plan_pick(&mc, 1024, 1024, 1024);
    char b1[80], b2[80];
    simt_plan_describe(&big, b1, sizeof b1);
    simt_plan_describe(&small, b2, sizeof b2);
    CHECK(big.split == 1 && mid.split == 1, "8192^3 and 4096^3 fill the GPU without splitting K (%s)", b1);
    int largest = 1;
    for (int i = 0; i < simt_config_count; i++)
        largest = largest && (long)simt_configs[i].bm * simt_configs[i].bn <= tile_area(&big);
    CHECK(largest, "8192^3 runs the largest tile (%s)", b1);
    CHECK(small.blocks > 64 && (tile_area(&small) < tile_area(&big) || small.split > 1),
          "1024^3 runs more blocks than 128x128 tiles give (64): %ld, by smaller tiles or a split (%s)", small.blocks,
          b2);
    CHECK(small.blocks >= mc.sms * 9 / 10, "1024^3 fills at least 90%% of the 132 SMs (%ld blocks)", small.blocks);

    const struct simt_plan skinny = simt_plan_pick(&mc, 8192, 64, 4096);
    simt_plan_describe(&skinny, b1, sizeof b1);
    CHECK(skinny.split > 1, "8192x64x4096 (64 tile rows of 128) splits K: %s", b1);
    CHECK(simt_configs[skinny.config].bn <= 64, "8192x64x4096 wastes no columns: %s", b1);
    const struct simt_plan wide = simt_plan_pick(&mc, 64, 8192, 4096);
    CHECK(wide.split > 1 && simt_configs[wide.config].bm <= 64, "64x8192x4096, the mirror image, splits K too");
    const struct simt_plan shallow = simt_plan_pick(&mc, 4096, 4096, 64);
    CHECK(shallow.split == 1, "a K of 64 is never split (slice below %d)", SIMT_MIN_K_SLICE);

    /* fewer SMs: the same shape needs no more parallelism than before */
    struct simt_machine few = mc;
    few.sms = 16;
    const struct simt_plan on_few = simt_plan_pick(&few, 1024, 1024, 1024);
    CHECK(on_few.blocks <= small.blocks, "on 16 SMs 1024^3 launches no more blocks (%ld) than on 132 (%ld)",
          on_few.blocks, small.blocks);

    /* the pick is the candidate list's minimum, and every candidate covers K */
    static const long shapes[][3] = {{1, 1, 1},       {67, 45, 33},   {130, 129, 17},     {1000, 1500, 700},
                                     {2048, 2048, 2048}, {8192, 64, 4096}, {1023, 1025, 4097}, {4096, 4096, 256},
                                     {64, 2048, 32},  {2049, 2049, 2049}};
    struct simt_plan cand[SIMT_MAX_CONFIGS * 16];
    int ok = 1, covers = 1;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const long m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        const struct simt_plan p = simt_plan_pick(&mc, m, n, k);
        const int nc = simt_plan_candidates(&mc, m, n, k, cand, (int)(sizeof cand / sizeof cand[0]));
        double least = INFINITY;
        for (int j = 0; j < nc; j++) {
            least = fmin(least, cand[j].est_cycles);
            covers = covers && plan_covers(&cand[j], k) &&
                     simt_plan_workspace_bytes(&cand[j], m, n) <= (size_t)SIMT_MAX_WORKSPACE_BYTES;
        }
        ok = ok && nc >= simt_config_count && p.est_cycles == least && plan_covers(&p, k);
    }
    CHECK(ok, "at 10 shapes (1x1x1 .. 2049^3) the pick is the cheapest candidate and every config runs unsplit");
    CHECK(covers, "every candidate's slices are non-empty, cover K, and fit the workspace cap");

    struct simt_plan q;
    CHECK(simt_plan_make(&mc, 100, 100, 100, 0, 16, &q) == -1, "16 slices of a K of 100 are refused");
    CHECK(simt_plan_make(&mc, 100, 100, 100, 0, 1, &q) == 0 && q.k_slice == 112 && q.blocks == 1,
          "unsplit: one slice of K rounded up to BK (%d), one block", q.k_slice);
}

static void test_config_column(void)
{
    char err[512], path[] = "/tmp/gemmprof_simt_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    struct gp_result in;
    gp_result_init(&in);
    snprintf(in.variant, sizeof in.variant, "simt_auto");
    snprintf(in.precision, sizeof in.precision, "fp32");
    in.m = 8192, in.n = 64, in.k = 4096;
    in.rel_err = 1e-7;
    in.time_median_s = in.time_min_s = in.time_max_s = 1e-4;
    in.flop_per_s = gp_flops_analytic(&in) / 1e-4;
    snprintf(in.config, sizeof in.config, "128x64x16 w64x32 t16x4 s4 split4");
    CHECK(f && results_csv_write_header(f) == 0 && results_csv_write_row(f, &in, NULL) == 0, "a row with a config written");
    if (f)
        fclose(f);
    struct gp_result *out = NULL;
    int n = 0;
    CHECK(results_csv_read(path, &out, &n, err, sizeof err) == 0 && n == 1 && strcmp(out[0].config, in.config) == 0,
          "the config column round-trips (%s)", n == 1 ? out[0].config : err);
    free(out);
    unlink(path);

    out = NULL;
    CHECK(results_csv_read("tests/data/h200_da80385/results.csv", &out, &n, err, sizeof err) == 0 && n > 0 &&
              out[0].config[0] == '\0',
          "a results.csv from before the config column loads, the column empty (%d rows)", n);
    free(out);
}

int main(void)
{
    test_table();
    test_rule();
    test_config_column();
    TEST_EXIT();
}

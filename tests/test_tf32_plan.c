/* tf32_auto's selection rule (kernels/tf32_plan.c) on an H200-like machine, and its tile
 * table against what the kernel template can build (--tune -k tf32_auto's parsing is in
 * tests/test_cli.c). No GPU. */
#include <math.h>
#include <string.h>

#include "kernels/tf32_plan.h"
#include "tests/test.h"

/* 132 SMs; blocks per SM as the occupancy API gives them on sm_90a (the table's
 * MIN_BLOCKS: every tile but the b2 one fills the SM's shared memory) */
static struct tf32_machine h200(void)
{
    struct tf32_machine mc = {132, {0}, {0}, {0}};
    for (int i = 0; i < tf32_config_count; i++)
        mc.blocks_per_sm[i] = tf32_configs[i].min_blocks;
    return mc;
}

static const struct tf32_config *cfg(const struct tf32_plan *p)
{
    return &tf32_configs[p->config];
}

/* every slice non-empty, all of K covered, the grid within the units and the SMs' slots */
static int plan_sound(const struct tf32_machine *mc, const struct tf32_plan *p, long m, long n, long k)
{
    const long ktiles = (k + 31) / 32;
    const struct tf32_config *c = cfg(p);
    return p->split >= 1 && p->kts >= 1 && (long)p->split * p->kts >= ktiles && (long)(p->split - 1) * p->kts < ktiles &&
           (p->split == 1 || p->kts >= TF32_MIN_KTS) &&
           p->tiles == ((m + c->bm - 1) / c->bm) * ((n + tf32_config_bn(c) - 1) / tf32_config_bn(c)) &&
           p->units == p->dp_tiles + (p->tiles - p->dp_tiles) * p->split && p->grid >= 1 && p->grid <= p->units &&
           p->ktiles == ktiles && p->dp_tiles >= 0 && p->dp_tiles < p->tiles && p->dp_tiles % p->grid == 0 &&
           (p->split > 1 && !p->reduce ? p->dp_tiles == p->tiles / p->grid * p->grid || p->tiles <= p->grid
                                       : p->dp_tiles == 0) &&
           (!p->reduce || (p->split > 1 && c->cluster == 1 && tf32_plan_counter_bytes(p) == 0)) &&
           p->grid <= (long)mc->sms * c->min_blocks && tf32_plan_workspace_bytes(p) <= (size_t)TF32_MAX_WORKSPACE_BYTES &&
           isfinite(p->est_cycles) && p->est_cycles > p->sm_cycles;
}

static void test_table(void)
{
    int ok = tf32_config_count > 0 && tf32_config_count <= TF32_MAX_CONFIGS;
    for (int i = 0; i < tf32_config_count; i++) {
        const struct tf32_config *c = &tf32_configs[i];
        const long stage = (long)(c->bm + tf32_config_block_bn(c)) * 128;
        /* the template's static_asserts and the launch's limits, restated: a wgmma N of
         * 64, 128 or 256, one or two consumer warpgroups, the ring within the 227 KB a
         * block may have (a share of the SM's 228 KB with 2 blocks), 2 blocks only
         * without setmaxnreg */
        const long smem = c->stages * stage + 16L * c->stages + 1024 + 16;
        ok = ok && (c->bm == 64 || c->bm == 128 || c->bm == 256) && (c->consumers == 1 || c->consumers == 2) &&
             c->stages >= 2 && smem <= 232448 && smem * c->min_blocks + 1024L * c->min_blocks <= 233472 &&
             (c->cluster == 1 || (c->cluster == 2 && (c->bm / 2) % 8 == 0)) &&
             tf32_config_bn(c) == tf32_config_block_bn(c) * c->cluster &&
             (c->min_blocks == 1 || (c->min_blocks == 2 && c->consumers == 1)) && c->eff > 0 && c->eff <= 1 &&
             tf32_config_threads(c) == 128 * (c->consumers + 1) && tf32_config_find(c->name) == i;
    }
    CHECK(ok, "%d tiles: wgmma N 64/128/256, 1-2 consumer warpgroups, rings that fit shared memory", tf32_config_count);
    const struct tf32_config *first = &tf32_configs[0];
    CHECK(first->bm == 256 && first->consumers == 2 && first->stages == 4 && first->min_blocks == 1,
          "the first tile is wgmma_rs's 256 x 128 x 32, 4 stages (ties go to it)");
    char buf[80];
    const struct tf32_plan p = {0, 3, 43, 32, 96, 96, 0, 0, 0, 129, 0, 0, 0, 0, 0};
    tf32_plan_describe(&p, buf, sizeof buf);
    CHECK(strcmp(buf, "256x128x32 wg2 s4 split3") == 0, "a plan described as the config column says: %s", buf);
    const int b2 = tf32_config_find("w64x64b2");
    if (b2 >= 0) {
        tf32_config_describe(&tf32_configs[b2], 1, buf, sizeof buf);
        CHECK(strcmp(buf, "64x64x32 wg1 s6 b2 split1") == 0, "two blocks per SM say b2: %s", buf);
    }
    CHECK(tf32_config_find("nosuch") == -1, "an unknown tile name is -1");
}

static void test_rule(void)
{
    const struct tf32_machine mc = h200();
    char b1[80];
    /* large squares: wgmma_rs's tile (it reaches cuBLAS there), every full wave whole; at
     * most the last, partial wave sliced */
    static const long big[] = {4096, 8192};
    for (int i = 0; i < 2; i++) {
        const struct tf32_plan p = tf32_plan_pick(&mc, big[i], big[i], big[i]);
        tf32_plan_describe(&p, b1, sizeof b1);
        CHECK(p.config == 0 && (p.split == 1 || (p.dp_tiles > 0 && p.tiles - p.dp_tiles < p.grid)),
              "%ld^3 runs wgmma_rs's tile, its full waves unsplit (%s)", big[i], b1);
    }
    /* 1024^3: 256 x 128 tiles make 32 units for 132 SMs */
    const struct tf32_plan small = tf32_plan_pick(&mc, 1024, 1024, 1024);
    tf32_plan_describe(&small, b1, sizeof b1);
    CHECK(small.units >= mc.sms * 9 / 10 && small.units <= mc.sms, "1024^3 fills 90-100%% of the SMs in one wave: %ld units (%s)",
          small.units, b1);
    /* the skinny shapes: DRAM-bound, so enough units in flight and no short side wasted */
    const struct tf32_plan tall = tf32_plan_pick(&mc, 8192, 64, 4096);
    tf32_plan_describe(&tall, b1, sizeof b1);
    CHECK(tf32_config_bn(cfg(&tall)) == 64 && tall.units >= mc.sms * 9 / 10,
          "8192x64x4096: tiles 64 wide in n, at least 90%% of the SMs busy (%ld units, %s)", tall.units, b1);
    const struct tf32_plan wide = tf32_plan_pick(&mc, 64, 8192, 4096);
    tf32_plan_describe(&wide, b1, sizeof b1);
    CHECK(cfg(&wide)->bm == 64 && wide.units >= mc.sms * 9 / 10,
          "64x8192x4096: tiles 64 tall in m, at least 90%% of the SMs busy (%ld units, %s)", wide.units, b1);
    const double dram = 4.0 * (8192.0 * 4096 + 4096.0 * 64 + 8192.0 * 64) / TF32_DRAM_BYTES_PER_CLK;
    CHECK(tall.est_cycles >= dram + TF32_LAUNCH_CLK && tall.sm_cycles < dram,
          "8192x64x4096 is estimated DRAM-bound: %.0f cycles of SM time under the DRAM's %.0f", tall.sm_cycles, dram);
    const struct tf32_plan deep = tf32_plan_pick(&mc, 257, 513, 4099);
    tf32_plan_describe(&deep, b1, sizeof b1);
    CHECK(deep.split > 1 && deep.units > 32, "257x513x4099 (129 k-tiles, few tiles) splits K: %s", b1);
    const struct tf32_plan shallow = tf32_plan_pick(&mc, 4096, 4096, 64);
    CHECK(shallow.split == 1, "a K of 64 (2 k-tiles) is never split (slice below %d k-tiles)", TF32_MIN_KTS);

    /* fewer SMs: no more parallelism than before */
    struct tf32_machine few = mc;
    few.sms = 16;
    const struct tf32_plan on_few = tf32_plan_pick(&few, 1024, 1024, 1024);
    CHECK(on_few.units <= small.units && on_few.grid <= 16L * cfg(&on_few)->min_blocks,
          "on 16 SMs 1024^3 runs no more units (%ld) than on 132 (%ld), on 16 SMs' blocks", on_few.units, small.units);

    /* the pick is the candidate list's minimum; every candidate is sound */
    static const long shapes[][3] = {{1, 1, 1},          {17, 33, 65},        {130, 67, 45},      {1000, 1500, 700},
                                     {2048, 2048, 2048}, {8192, 64, 4096},    {64, 8192, 4096},   {3000, 3000, 512},
                                     {257, 513, 4099},   {2049, 2049, 2049},  {1023, 1025, 4097}, {64, 2048, 32},
                                     {300000, 64, 64},   {65, 65, 1000000}};
    struct tf32_plan cand[TF32_MAX_PLANS];
    int ok = 1, sound = 1, unsplit = 1;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const long m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        const struct tf32_plan p = tf32_plan_pick(&mc, m, n, k);
        const int nc = tf32_plan_candidates(&mc, m, n, k, cand, (int)(sizeof cand / sizeof cand[0]));
        double least = INFINITY;
        int whole = 0;
        for (int j = 0; j < nc; j++) {
            least = fmin(least, cand[j].est_cycles);
            sound = sound && plan_sound(&mc, &cand[j], m, n, k);
            whole += cand[j].split == 1 && tf32_plan_load(&cand[j]) == TF32_LOAD_TMA;
        }
        ok = ok && p.est_cycles == least && plan_sound(&mc, &p, m, n, k);
        unsplit = unsplit && whole == tf32_config_count;
    }
    CHECK(ok, "at 14 shapes (1x1x1 .. 65x65x1000000) the pick is the cheapest candidate");
    CHECK(sound, "every candidate's slices are non-empty and cover K, its grid fits the SMs, its workspace the cap");
    CHECK(unsplit, "every tile is a candidate unsplit at every shape");

    struct tf32_plan q;
    CHECK(tf32_plan_make(&mc, 100, 100, 100, 0, 2, &q) == -1, "2 slices of 4 k-tiles (K 100) are refused (< %d each)",
          TF32_MIN_KTS);
    CHECK(tf32_plan_make(&mc, 100, 100, 800, 0, 8, &q) == -1 && tf32_plan_make(&mc, 100, 100, 800, 0, 4, &q) == 0,
          "8 slices of 25 k-tiles (4 each) are refused, one would be empty; 4 slices are not");
    CHECK(tf32_plan_make(&mc, 100, 100, 100, 0, 1, &q) == 0 && q.kts == 4 && q.units == 1 && q.grid == 1,
          "unsplit: one slice of all 4 k-tiles, one unit, one block");
    CHECK(tf32_plan_make(&mc, 1000, 1000, 1000, tf32_config_find("w128x128"), 4, &q) == 0 && q.kts == 8 && q.tiles == 64 && q.units == 256 &&
              q.grid == 132 && tf32_plan_workspace_bytes(&q) == 256UL * 128 * 128 * 4 &&
              tf32_plan_counter_bytes(&q) == 64 * sizeof(unsigned),
          "128 x 128 tiles at 1000^3, 4 slices: 64 tiles, 256 units on 132 blocks, 16 MB of partial tiles");
    /* more tiles than slots: the full waves run whole, the split slices the last one */
    CHECK(tf32_plan_make(&mc, 3072, 3072, 3072, 0, 4, &q) == 0 && q.tiles == 288 && q.dp_tiles == 264 &&
              q.units == 264 + 24 * 4 && q.grid == 132 && tf32_plan_workspace_bytes(&q) == 96UL * 256 * 128 * 4 &&
              tf32_plan_counter_bytes(&q) == 24 * sizeof(unsigned),
          "256 x 128 tiles at 3072^3, 4 slices: 264 tiles whole in two waves, the other 24 in 96 slices");
    char tail[80];
    tf32_plan_describe(&q, tail, sizeof tail);
    CHECK(strcmp(tail, "256x128x32 wg2 s4 split4 tail24") == 0, "and it says so: %s", tail);
    CHECK(tf32_plan_make(&mc, 2048, 8448, 512, 0, 2, &q) == -1 && tf32_plan_make(&mc, 2048, 8448, 512, 0, 1, &q) == 0,
          "264 tiles (two whole waves): nothing to slice, no split plan");
    /* A's rows 16 bytes off a sector (k % 8 == 4): with the GPU full, L2 bounds the plan
     * unless A is copied first; with a partial wave, or rows on sectors, nothing is copied */
    struct tf32_plan copied, in_place;
    CHECK(tf32_plan_make_any(&mc, 4096, 4096, 4096, 0, 1, 1, &q) == -1 &&
              tf32_plan_make_any(&mc, 4096, 4096, 4098, 0, 1, 1, &q) == -1 &&
              tf32_plan_make_any(&mc, 4096, 4096, 4100, 0, 1, 1, &q) == 0 && q.copy_a,
          "A is copied only where k %% 8 == 4 (4100, not 4096 or 4098: k %% 4 != 0 is copied anyway)");
    CHECK(tf32_plan_make_any(&mc, 4500, 4500, 4500, 0, 1, 1, &copied) == 0 &&
              tf32_plan_make(&mc, 4500, 4500, 4500, 0, 1, &in_place) == 0 &&
              copied.sm_cycles < 0.8 * in_place.sm_cycles && copied.est_cycles < in_place.est_cycles,
          "4500^3, 256 x 128 tiles on every SM: copying A first is estimated cheaper (%.0f vs %.0f cycles)",
          copied.est_cycles, in_place.est_cycles);
    const struct tf32_plan big_odd = tf32_plan_pick(&mc, 4500, 4500, 4500), small_odd = tf32_plan_pick(&mc, 1500, 1500, 1500);
    char odd[80];
    tf32_plan_describe(&big_odd, odd, sizeof odd);
    CHECK((big_odd.copy_a && strstr(odd, " copyA") != NULL) || tf32_configs[big_odd.config].cluster > 1,
          "and the rule copies A there, or halves A's reads in clusters of 2: %s", odd);
    CHECK(!small_odd.copy_a && !tf32_plan_pick(&mc, 1000, 1500, 700).copy_a,
          "not at 1500^3 (72 tiles, 72 SMs loading) or 1000x1500x700");
    CHECK(tf32_plan_make(&mc, 100, 100, 100, 0, 0, &q) == -1 && tf32_plan_make(&mc, 0, 100, 100, 0, 1, &q) == -1 &&
              tf32_plan_make(&mc, 100, 100, 100, tf32_config_count, 1, &q) == -1,
          "no split, an empty shape or an unknown tile: no plan");
}

/* a tile in clusters of 2: the rule's tile is the cluster's (BM x 2 BN), its grid counts
 * clusters (as many as the device holds at once), each block has its own partial tile */
static void test_clusters(void)
{
    const int c2 = tf32_config_find("w256x128c2");
    CHECK(c2 >= 0 && tf32_configs[c2].cluster == 2 && tf32_config_bn(&tf32_configs[c2]) == 256 &&
              tf32_config_block_bn(&tf32_configs[c2]) == 128,
          "w256x128c2: blocks of 256 x 128 in pairs, one tile of 256 x 256 to the rule");
    if (c2 < 0)
        return;
    struct tf32_machine mc = h200();
    struct tf32_plan q;
    char buf[80];
    CHECK(tf32_plan_make(&mc, 4096, 4096, 4096, c2, 1, &q) == 0 && q.tiles == 256 && q.grid == 66 && q.units == 256,
          "4096^3: 256 tiles of 256 x 256 on 66 clusters (132 SMs)");
    tf32_plan_describe(&q, buf, sizeof buf);
    CHECK(strcmp(buf, "256x128x32 wg2 s4 cluster2 split1") == 0, "described per block, with the cluster: %s", buf);
    mc.cluster_slots[c2] = 60; /* a device whose GPCs hold fewer pairs */
    CHECK(tf32_plan_make(&mc, 4096, 4096, 4096, c2, 1, &q) == 0 && q.grid == 60,
          "the grid is no larger than the clusters the device holds at once (%ld)", q.grid);
    mc = h200();
    /* one wave of whole tiles over a long K: the 4-stage 256 x 128 ring is charged the
     * in-step L2 rate, which clusters halve for A; a deeper ring is not (the H200: the
     * clustered tile 125% of the plain one at 1800x1800x5000; 64 x 128 alone in one wave at
     * 300x3000x5000 at 99% of cuBLAS TF32) */
    const struct tf32_plan wave = tf32_plan_pick(&mc, 1800, 1800, 5000), deep = tf32_plan_pick(&mc, 300, 3000, 5000);
    CHECK(wave.config == c2 && wave.split == 1, "one wave at 1800x1800x5000: the clustered tile, unsplit");
    CHECK(deep.config == tf32_config_find("w64x128") && deep.split == 1,
          "one wave of 64 x 128 tiles at 300x3000x5000 stays unsplit (%s, split %d)", tf32_configs[deep.config].name,
          deep.split);
    CHECK(tf32_plan_make(&mc, 1800, 1800, 5000, c2, 2, &q) == 0 && q.tiles == 64 && q.units == 128 &&
              tf32_plan_workspace_bytes(&q) == 128UL * 256 * 256 * 4 && tf32_plan_counter_bytes(&q) == 128 * sizeof(unsigned),
          "1800x1800x5000 in 2 slices: a partial tile and a counter per block (%zu, %zu bytes)",
          tf32_plan_workspace_bytes(&q), tf32_plan_counter_bytes(&q));
}

/* operands TMA cannot address (k % 4: A, n % 4: B) loaded by the kernel: candidates of the
 * unclustered tiles beside the copying ones, without the copy's cost */
static void test_direct(void)
{
    const struct tf32_machine mc = h200();
    CHECK(tf32_direct_operands(4096, 4096) == 0 && tf32_direct_operands(47, 7777) == (TF32_DIRECT_A | TF32_DIRECT_B) &&
              tf32_direct_operands(48, 7777) == TF32_DIRECT_A && tf32_direct_operands(1111, 4096) == TF32_DIRECT_B,
          "k %% 4 != 0 loads A, n %% 4 != 0 loads B in the kernel");
    struct tf32_plan q, copied;
    const int c2 = tf32_config_find("w256x128c2"), b2 = tf32_config_find("w64x64b2");
    CHECK(tf32_plan_make_kind(&mc, 4096, 4096, 4096, 0, 1, TF32_LOAD_DIRECT, 0, &q) == -1 &&
              (c2 < 0 || tf32_plan_make_kind(&mc, 1111, 48, 7777, c2, 1, TF32_LOAD_DIRECT, 0, &q) == -1),
          "no direct plan where TMA addresses both operands, nor of a clustered tile");
    char buf[96];
    CHECK(b2 >= 0 && tf32_plan_make_kind(&mc, 1111, 48, 7777, b2, 4, TF32_LOAD_DIRECT, 0, &q) == 0 &&
              tf32_plan_make_kind(&mc, 1111, 48, 7777, b2, 4, TF32_LOAD_TMA, 0, &copied) == 0 &&
              q.direct == TF32_DIRECT_A && tf32_plan_load(&q) == TF32_LOAD_DIRECT && tf32_plan_load(&copied) == TF32_LOAD_TMA,
          "1111x48x7777: w64x64b2 split4 loads A in the kernel, or copies it first");
    if (b2 < 0)
        return;
    /* the best plan of each kind, as the H100 measured them (results/h200/NOTES.md): where A
     * is most of the bytes loading it in the kernel wins (1111x47x7777: 37.4 against 42.8
     * us), where the tensor cores are busy the 4-byte copies lose (1023x1025x4097: 130.3
     * against 67.1 us) */
    static const long shapes[2][3] = {{1111, 47, 7777}, {1023, 1025, 4097}};
    double best[2][2] = {{INFINITY, INFINITY}, {INFINITY, INFINITY}}; /* [shape][direct] */
    for (int i = 0; i < 2; i++) {
        static struct tf32_plan cand[TF32_MAX_PLANS];
        const int nc = tf32_plan_candidates(&mc, shapes[i][0], shapes[i][1], shapes[i][2], cand, TF32_MAX_PLANS);
        for (int j = 0; j < nc; j++) /* the direct plans against those that copy the operands */
            if (!cand[j].maps_a && !cand[j].maps_b)
                best[i][cand[j].direct != 0] = fmin(best[i][cand[j].direct != 0], cand[j].est_cycles);
    }
    CHECK(best[0][1] < best[0][0] && best[1][0] < best[1][1],
          "direct loads estimated faster at 1111x47x7777 (%.0f against %.0f cycles), slower at 1023x1025x4097 (%.0f "
          "against %.0f)", best[0][1], best[0][0], best[1][1], best[1][0]);
    tf32_plan_describe(&q, buf, sizeof buf);
    CHECK(strcmp(buf, "64x64x32 wg1 s6 b2 split4 directA") == 0, "described with directA: %s", buf);
    CHECK(tf32_plan_make_kind(&mc, 47, 1111, 7777, b2, 4, TF32_LOAD_DIRECT, 1, &q) == 0 && q.direct == 3,
          "47x1111x7777: both operands loaded in the kernel, a reduce plan too");
    tf32_plan_describe(&q, buf, sizeof buf);
    CHECK(strstr(buf, " directAB reduce") != NULL, "described: %s", buf);
    /* where A dominates the bytes the rule does not copy it first */
    const struct tf32_plan pick = tf32_plan_pick(&mc, 1111, 47, 7777);
    tf32_plan_describe(&pick, buf, sizeof buf);
    CHECK((pick.direct & TF32_DIRECT_A) || pick.maps_a,
          "1111x47x7777 (A 34.6 MB, k %% 4 = 1) loads A without a copy: %s", buf);
    /* A's and B's row maps: candidates only where the pitch is off 16 bytes, unclustered,
     * with a row in each map; their k-tiles and stages as the kernel's */
    const int w128 = tf32_config_find("w128x128");
    struct tf32_plan ma, mb;
    CHECK(w128 >= 0 && tf32_plan_make_kind(&mc, 1111, 48, 7777, w128, 1, TF32_LOAD_MAPS_A, 0, &ma) == 0 &&
              ma.maps_a && ma.ktiles == (7777 + 3 + 31) / 32 && tf32_plan_load_mask(&ma) == TF32_MAPS_A &&
              tf32_plan_make_kind(&mc, 1111, 48, 7776, w128, 1, TF32_LOAD_MAPS_A, 0, &q) == -1 &&
              tf32_plan_make_kind(&mc, 3, 48, 7777, w128, 1, TF32_LOAD_MAPS_A, 0, &q) == -1 &&
              (c2 < 0 || tf32_plan_make_kind(&mc, 1111, 48, 7777, c2, 1, TF32_LOAD_MAPS_A, 0, &q) == -1),
          "A's maps: k %% 4 != 0, m >= 4, unclustered; ceil((k + 3) / 32) k-tiles");
    tf32_plan_describe(&ma, buf, sizeof buf);
    CHECK(strcmp(buf, "128x128x32 wg2 s6 split1 mapsA") == 0, "described with its 6 stages and mapsA: %s", buf);
    CHECK(tf32_plan_make_kind(&mc, 47, 1111, 7777, w128, 2, TF32_LOAD_MAPS_B, 0, &mb) == 0 && mb.maps_b &&
              tf32_plan_load_mask(&mb) == TF32_MAPS_B && tf32_plan_load(&mb) == TF32_LOAD_MAPS_B &&
              tf32_plan_make_kind(&mc, 47, 1112, 7777, w128, 2, TF32_LOAD_MAPS_B, 0, &q) == -1 &&
              tf32_plan_make_kind(&mc, 47, 1111, 3, w128, 1, TF32_LOAD_MAPS_B, 0, &q) == -1,
          "B's maps: n %% 4 != 0 and k >= 4 only");
    tf32_plan_describe(&mb, buf, sizeof buf);
    CHECK(strcmp(buf, "128x128x32 wg2 s6 split2 mapsB") == 0, "described with mapsB: %s", buf);
}

int main(void)
{
    test_table();
    test_rule();
    test_clusters();
    test_direct();
    TEST_EXIT();
}

/* The rule's pick at each shape with and without the splits that fill a wave
 * (SIMT_SPLIT_FILL), the fill plans marked. Blocks per SM as NAME=N (stream-K kernels:
 * sk:NAME=N; the padded-B and 4-byte paths' padded:NAME=N and narrow:NAME=N), e.g. from a
 * --tune table's blocks_per_sm column; a tile not given keeps its MIN_BLOCKS.
 *   cc -O2 -I. tools/lab/plan_picks.c -lm -o /tmp/plan_picks
 *   /tmp/plan_picks t64x64=4 t64x128=3 sk:t64x128=3 ... 257x513x4099 2048 ...
 * The model's source is included: a lab tool, not a user's. */
#include "kernels/simt_plan.c"

#include <stdlib.h>

int main(int argc, char **argv)
{
    struct simt_machine mc = {.sms = 132};
    int a = 1;
    for (; a < argc && strchr(argv[a], '='); a++) {
        const char *eq = strchr(argv[a], '='), *name = argv[a];
        /* a prefix names the kernel: sk: stream-K, padded: and narrow: the GEMM kernel's
         * padded-B and 4-byte paths (enum simt_path) */
        static const char *const prefixes[] = {"sk:", "padded:", "narrow:"};
        int kind = -1, skip = 0;
        for (int i = 0; i < 3 && kind < 0; i++)
            if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
                kind = i, skip = (int)strlen(prefixes[i]);
        char tile[64];
        snprintf(tile, sizeof tile, "%.*s", (int)(eq - name - skip), name + skip);
        const int c = simt_config_find(tile);
        if (c < 0) {
            fprintf(stderr, "plan_picks: unknown tile '%s'\n", tile);
            return 2;
        }
        simt_machine_per_sm(&mc, kind == 0, kind == 1 ? SIMT_PATH_PADDED : kind == 2 ? SIMT_PATH_NARROW : SIMT_PATH_VEC)[c] =
            atoi(eq + 1);
    }
    static struct simt_plan cand[SIMT_MAX_PLANS];
    for (; a < argc; a++) {
        long m, n, k;
        if (sscanf(argv[a], "%ldx%ldx%ld", &m, &n, &k) != 3)
            m = n = k = atol(argv[a]);
        if (m < 1 || n < 1 || k < 1) {
            fprintf(stderr, "plan_picks: bad shape '%s'\n", argv[a]);
            return 2;
        }
        const int nc = simt_plan_candidates(&mc, m, n, k, cand, SIMT_MAX_PLANS);
        struct simt_plan with = {.est_cycles = INFINITY}, without = {.est_cycles = INFINITY};
        for (int j = 0; j < nc; j++) {
            if (!simt_config_in_rule(cand[j].config)) /* SIMT_TUNER_ONLY: the rule does not weigh it */
                continue;
            if (cand[j].est_cycles < with.est_cycles)
                with = cand[j];
            if (!cand[j].fill && cand[j].est_cycles < without.est_cycles)
                without = cand[j];
        }
        char b1[96], b2[96];
        simt_plan_describe(&with, b1, sizeof b1);
        simt_plan_describe(&without, b2, sizeof b2);
        printf("%-16s %s %-48s %7.1f us | without: %-48s %7.1f us\n", argv[a], with.fill ? "FILL" : "    ", b1,
               with.est_cycles * 1e6 / SIMT_MODEL_SM_HZ, b2, without.est_cycles * 1e6 / SIMT_MODEL_SM_HZ);
    }
    return 0;
}

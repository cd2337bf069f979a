/* simt_auto's estimate of each split plan of one tile at one shape, taken apart: the GEMM
 * kernel, the reduction, the strip kernel (peeled plans), in microseconds at the model's
 * clock, so that ncu's time of each kernel (tools/h200_session.sh peelncu) can be set
 * against the part of the model it checks.
 *   cc -O2 -I. tools/lab/plan_parts.c -lm -o /tmp/plan_parts
 *   /tmp/plan_parts M N K TILE [BLOCKS_PER_SM]
 * The model's static helpers are reached by including its source: a lab tool, not a user's. */
#include "kernels/simt_plan.c"

#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s M N K TILE [BLOCKS_PER_SM]\n", argv[0]);
        return 2;
    }
    const long m = atol(argv[1]), n = atol(argv[2]), k = atol(argv[3]);
    const int ci = simt_config_find(argv[4]);
    if (m < 1 || n < 1 || k < 1 || ci < 0) {
        fprintf(stderr, "%s: bad shape or unknown tile '%s'\n", argv[0], argv[4]);
        return 2;
    }
    struct simt_machine mc = {.sms = 132};
    if (argc > 5)
        mc.blocks_per_sm[ci] = atoi(argv[5]);
    const double us = 1e6 / SIMT_MODEL_SM_HZ;
    const int splits[] = SIMT_SPLITS, nsplits = (int)(sizeof splits / sizeof splits[0]);
    printf("plan\tsplit\tpeel_m\tgemm_blocks\tk_slice\test_us\tgemm_us\treduce_us\tstrip_us\n");
    for (int s = 0; s <= nsplits; s++) /* the list, then the split that fills a wave */
        for (int peel = 0; peel <= 1; peel++) {
            struct simt_plan p;
            if (simt_plan_make_any(&mc, m, n, k, ci, s < nsplits ? splits[s] : SIMT_SPLIT_FILL, 0, peel, 0, &p) != 0)
                continue;
            const long gemm_threads = p.blocks * simt_config_threads(&simt_configs[ci]);
            const double gemm = gemm_cycles(&mc, ci, n, k, p.blocks, p.k_slice, p.path);
            const double red = p.split > 1 ? reduce_cycles(&mc, m, n, p.split, gemm_threads, !(peel && n % 4 != 0),
                                                           simt_reduce_wide(m, n, p.split, gemm_threads))
                                           : 0;
            const double strip = peel ? simt_strip_cycles(&mc, n, p.split, p.k_slice) : 0;
            char name[96];
            simt_plan_describe(&p, name, sizeof name);
            printf("%s\t%d\t%d\t%ld\t%d\t%.2f\t%.2f\t%.2f\t%.2f\n", name, p.split, p.peel_m, p.blocks, p.k_slice,
                   p.est_cycles * us, gemm * us, red * us, strip * us);
        }
    return 0;
}

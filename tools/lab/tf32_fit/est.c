#include "kernels/tf32_plan.h"
#include <stdio.h>
#include <stdlib.h>
/* est M N K bps0 bps1 ... : every candidate's name, split, estimate (cycles) */
int main(int argc, char **argv)
{
    struct tf32_machine mc = {132, {0}, {0}};
    long m = atol(argv[1]), n = atol(argv[2]), k = atol(argv[3]);
    for (int i = 4; i < argc && i - 4 < TF32_MAX_CONFIGS; i++) mc.blocks_per_sm[i - 4] = atoi(argv[i]);
    static struct tf32_plan p[1024];
    int c = tf32_plan_candidates(&mc, m, n, k, p, 1024);
    for (int i = 0; i < c; i++) printf("%s %d %.1f\n", tf32_configs[p[i].config].name, p[i].split, p[i].est_cycles);
    return 0;
}

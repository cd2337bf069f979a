/* The switch of kernels/pdl.h. */
#include "kernels/pdl.h"

static int allowed = 1;

void pdl_allow(int on)
{
    allowed = on != 0;
}

int pdl_allowed(void)
{
    return allowed;
}

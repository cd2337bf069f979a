#include "src/nvtx.h"

#include <string.h>

#include <nvtx3/nvToolsExt.h>

/* Colour-blind-friendly palette (Okabe-Ito), one per variant index, grey for phases. */
static const unsigned palette[] = {0xFFE69F00, 0xFF56B4E9, 0xFF009E73, 0xFFF0E442,
                                   0xFF0072B2, 0xFFD55E00, 0xFFCC79A7, 0xFF000000};

static nvtxDomainHandle_t domain(void)
{
    static nvtxDomainHandle_t d;
    if (!d)
        d = nvtxDomainCreateA("gemmprof");
    return d;
}

/* Registered-string cache: names repeat across shapes and phases. */
#define MAX_STRINGS 1024
static struct { char name[96]; nvtxStringHandle_t h; } strings[MAX_STRINGS];
static int nstrings;

static nvtxStringHandle_t registered(const char *name)
{
    for (int i = 0; i < nstrings; i++)
        if (strcmp(strings[i].name, name) == 0)
            return strings[i].h;
    nvtxStringHandle_t h = nvtxDomainRegisterStringA(domain(), name);
    if (nstrings < MAX_STRINGS) {
        strncpy(strings[nstrings].name, name, sizeof strings[0].name - 1);
        strings[nstrings++].h = h;
    }
    return h;
}

void gp_nvtx_push(const char *name, int color_index)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = color_index < 0 ? 0xFF999999u
                              : palette[color_index % (int)(sizeof palette / sizeof palette[0])];
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = registered(name);
    nvtxDomainRangePushEx(domain(), &a);
}

void gp_nvtx_pop(void)
{
    nvtxDomainRangePop(domain());
}

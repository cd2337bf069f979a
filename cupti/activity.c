/* The shared activity-buffer registration (cupti/activity.h). */
#include "cupti/activity.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "cupti/common.h"

/* CUPTI's guide recommends 1-10 MB activity buffers. */
#define ACT_BUFFER_BYTES (8u << 20)
#define ACT_MAX_SINKS 4

/* mu guards the sinks and is held while they run, so that a removed sink is never
 * called again once activity_remove_sink returns (trace.c frees its store after it). */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    activity_sink fn;
    void *arg;
} sinks[ACT_MAX_SINKS];
static int registered;

/* apart from mu, which is held while sinks run: the two locks are never nested */
static pthread_mutex_t kinds_mu = PTHREAD_MUTEX_INITIALIZER;
static int kind_users[CUPTI_ACTIVITY_KIND_COUNT];

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, ACT_BUFFER_BYTES);
    *size = *buf ? ACT_BUFFER_BYTES : 0;   /* no buffer: CUPTI counts the records as dropped */
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    (void)size;
    pthread_mutex_lock(&mu);
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) != CUPTI_SUCCESS)
        dropped = 0;
    for (int i = 0; i < ACT_MAX_SINKS; i++) {
        if (!sinks[i].fn)
            continue;
        CUpti_Activity *rec = NULL;
        while (buf && cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
            sinks[i].fn(sinks[i].arg, rec, 0);
        if (dropped)
            sinks[i].fn(sinks[i].arg, NULL, dropped);
    }
    pthread_mutex_unlock(&mu);
    free(buf);
}

int activity_add_sink(activity_sink fn, void *arg, char *why, size_t why_len)
{
    pthread_mutex_lock(&mu);
    int rc = -1;
    if (!registered) {
        CUptiResult r = CUPTI_TRY(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), why, why_len);
        registered = r == CUPTI_SUCCESS;
    }
    for (int i = 0; registered && i < ACT_MAX_SINKS && rc; i++)
        if (!sinks[i].fn) {
            sinks[i].fn = fn;
            sinks[i].arg = arg;
            rc = 0;
        }
    if (registered && rc)
        cupti_say(why, why_len, "CUPTI activity: %d readers of activity records already", ACT_MAX_SINKS);
    pthread_mutex_unlock(&mu);
    return rc;
}

void activity_remove_sink(activity_sink fn, void *arg)
{
    pthread_mutex_lock(&mu);
    for (int i = 0; i < ACT_MAX_SINKS; i++)
        if (sinks[i].fn == fn && sinks[i].arg == arg) {
            sinks[i].fn = NULL;
            sinks[i].arg = NULL;
            break;
        }
    pthread_mutex_unlock(&mu);
}

CUptiResult activity_enable(CUpti_ActivityKind kind)
{
    if ((int)kind <= 0 || (int)kind >= CUPTI_ACTIVITY_KIND_COUNT)
        return CUPTI_ERROR_INVALID_KIND;
    pthread_mutex_lock(&kinds_mu);
    CUptiResult r = CUPTI_SUCCESS;
    if (kind_users[kind] == 0)
        r = cuptiActivityEnable(kind);
    if (r == CUPTI_SUCCESS)
        kind_users[kind]++;
    pthread_mutex_unlock(&kinds_mu);
    return r;
}

void activity_disable(CUpti_ActivityKind kind)
{
    if ((int)kind <= 0 || (int)kind >= CUPTI_ACTIVITY_KIND_COUNT)
        return;
    pthread_mutex_lock(&kinds_mu);
    if (kind_users[kind] > 0 && --kind_users[kind] == 0)
        cuptiActivityDisable(kind);
    pthread_mutex_unlock(&kinds_mu);
}

/* The variants by name, for the command line and host tests: built from
 * kernels/variants.def like the launcher table in src/registry.c (same order, so an index
 * means the same variant in both), but referencing no kernel, so linking it pulls in no
 * CUDA library. */
#include <stdio.h>
#include <string.h>

#include "src/registry.h"

#include "src/plugin.h"

const char *const gemm_variant_names[] = {
#define GEMM_VARIANT(name, prec, tol, desc) #name,
#include "kernels/variants.def"
#undef GEMM_VARIANT
};
const int gemm_variant_count = (int)(sizeof gemm_variant_names / sizeof gemm_variant_names[0]);

int registry_count(void)
{
    return gemm_variant_count + plugin_count();
}

const char *registry_name(int i)
{
    if (i >= 0 && i < gemm_variant_count)
        return gemm_variant_names[i];
    const struct plugin_variant *p = plugin_get(i - gemm_variant_count);
    return p ? p->name : NULL;
}

int registry_find(const char *name)
{
    for (int i = 0; i < registry_count(); i++)
        if (strcmp(registry_name(i), name) == 0)
            return i;
    return -1;
}

static int name_taken(const char *name)
{
    return registry_find(name) >= 0;
}

int index_list_add(int *list, int n, int max, int v)
{
    for (int j = 0; j < n; j++)
        if (list[j] == v)
            return n;
    if (n < max)
        list[n++] = v;
    return n;
}

int registry_parse_list(const char *list, int *idx, int max, char *err, size_t errlen)
{
    char buf[16384];   /* plugin specs carry paths: 14 of them ran past 1 KiB */
    int n = 0;
    if (strlen(list) >= sizeof buf) {
        snprintf(err, errlen, "variant list too long (%zu bytes, at most %zu)", strlen(list), sizeof buf - 1);
        return -1;
    }
    strcpy(buf, list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0) {
            for (int i = 0; i < gemm_variant_count; i++)
                n = index_list_add(idx, n, max, i);
            continue;
        }
        if (strncmp(tok, "plugin:", 7) == 0) {
            int p = plugin_load(tok + 7, name_taken, err, errlen);
            if (p < 0)
                return -1;
            n = index_list_add(idx, n, max, gemm_variant_count + p);
            continue;
        }
        int v = registry_find(tok);
        if (v < 0) {
            size_t off = (size_t)snprintf(err, errlen, "unknown variant '%s' (known:", tok);
            for (int i = 0; i < gemm_variant_count && off < errlen; i++)
                off += (size_t)snprintf(err + off, errlen - off, " %s", gemm_variant_names[i]);
            if (off < errlen)
                snprintf(err + off, errlen - off, "; or plugin:PATH.so[:SYMBOL])");
            return -1;
        }
        n = index_list_add(idx, n, max, v);
    }
    if (n == 0) {
        snprintf(err, errlen, "empty variant list");
        return -1;
    }
    return n;
}

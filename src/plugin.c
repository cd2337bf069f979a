#include "src/plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static struct plugin_variant plugins[PLUGIN_MAX];
static int nplugins;

int plugin_count(void) { return nplugins; }

const struct plugin_variant *plugin_get(int i)
{
    return i >= 0 && i < nplugins ? &plugins[i] : NULL;
}

static int valid_name(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') ||
              s[n] == '_'))
            return 0;
    return n >= 1 && n < sizeof plugins[0].name;
}

int plugin_load(const char *spec, int (*taken)(const char *name), char *err, size_t errlen)
{
    char path[sizeof plugins[0].spec];
    const char *symbol = GEMMPROF_PLUGIN_SYMBOL;
    for (int i = 0; i < nplugins; i++)
        if (strcmp(plugins[i].spec, spec) == 0)
            return i;
    if (nplugins >= PLUGIN_MAX) {
        snprintf(err, errlen, "plugin '%.200s': at most %d plugins", spec, PLUGIN_MAX);
        return -1;
    }
    if (snprintf(path, sizeof path, "%s", spec) >= (int)sizeof path || !*spec) {
        snprintf(err, errlen, "plugin '%.200s': expected plugin:PATH.so[:SYMBOL]", spec);
        return -1;
    }
    /* PATH.so:SYMBOL: the symbol is what follows the last ':' after the ".so" */
    char *so = strstr(path, ".so");
    char *colon = so ? strchr(so, ':') : NULL;
    if (colon) {
        *colon = '\0';
        symbol = colon + 1;
    }
    /* a bare name would be searched in the library path: plugins are files */
    char file[sizeof path + 2];
    snprintf(file, sizeof file, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, errlen, "plugin '%.200s': cannot load: %.300s", path, why ? why : "unknown error");
        return -1;
    }
    gemmprof_plugin_fn fn;
    *(void **)&fn = dlsym(h, symbol);
    if (!fn) {
        snprintf(err, errlen, "plugin '%.200s': no symbol '%.100s' (export const struct gemmprof_plugin "
                              "*%.100s(void), see include/gemmprof_plugin.h)", path, symbol, symbol);
        dlclose(h);
        return -1;
    }
    const struct gemmprof_plugin *p = fn();
    const char *why = NULL;
    char buf[96];
    if (!p)
        why = "its function returned NULL";
    else if (p->abi_version != GEMMPROF_PLUGIN_ABI_VERSION) {
        snprintf(buf, sizeof buf, "ABI version %d, this gemmprof takes %d", p->abi_version,
                 GEMMPROF_PLUGIN_ABI_VERSION);
        why = buf;
    } else if (!p->name || !valid_name(p->name))
        why = "its name must be 1..31 letters, digits or '_'";
    else if (taken && taken(p->name))
        why = "its name is already a variant's";
    else if (gp_precision_parse(p->precision) < 0)
        why = "its precision must be \"fp32\", \"tf32\", \"bf16\" or \"fp16\"";
    else if (!p->launch)
        why = "it has no launch function";
    if (why) {
        snprintf(err, errlen, "plugin '%.200s': %s", path, why);
        dlclose(h);
        return -1;
    }
    /* the library stays loaded for the run: its launcher and strings are used to the end */
    struct plugin_variant *v = &plugins[nplugins];
    snprintf(v->name, sizeof v->name, "%s", p->name);
    v->precision = (enum gp_precision)gp_precision_parse(p->precision);
    snprintf(v->desc, sizeof v->desc, "plugin %.60s: %.90s", path, p->description ? p->description : "");
    v->launch = p->launch;
    snprintf(v->spec, sizeof v->spec, "%s", spec);
    return nplugins++;
}

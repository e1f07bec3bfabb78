/* Resolution of the real libc functions (see real.h). dlsym runs with a
 * per-thread "resolving" flag set so a string interceptor called from inside
 * the dynamic loader does not recurse into another resolution. */
#define _GNU_SOURCE
#include "real.h"

#include <dlfcn.h>

#include "../../base/fmt.h"

static GOLDI_TLS int resolving;

bool goldi_real_resolving(void) {
    return resolving != 0;
}

void *goldi_real_lookup(const char *name, const char *version) {
    resolving++;
    void *p = version ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
    resolving--;
    return p;
}

void *goldi_real_resolve_slow(void **slot, const char *name, const char *version) {
    if (resolving)
        goldi_die("interceptor re-entered while resolving a real function");
    void *p = goldi_real_lookup(name, version);
    if (p == NULL) {
        goldi_fdprintf(2, "goldi: cannot find the real '%s'%s%s\n", name, version ? "@" : "",
                       version ? version : "");
        goldi_die("missing libc symbol");
    }
    /* Racing resolutions store the same value: no need for a CAS. */
    __atomic_store_n(slot, p, __ATOMIC_RELEASE);
    return p;
}

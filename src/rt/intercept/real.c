/* Resolution of the real libc functions (see real.h). dlsym runs with a
 * per-thread "resolving" flag set so a string interceptor called from inside
 * the dynamic loader does not recurse into another resolution, and with the
 * thread's signals blocked: a handler landing inside dlsym that calls an
 * interceptor whose real function is not resolved yet (write, sem_post)
 * would need a resolution of its own there, which is neither possible (the
 * flag) nor safe (dlsym is not async-signal-safe); blocked, it runs once
 * the resolution is done (tests/stress/signals.c hit it 2 runs in 20). */
#define _GNU_SOURCE
#include "real.h"

#include <dlfcn.h>

#include "../../base/fmt.h"
#include "../../platform/platform.h"

static GOLDI_TLS int resolving;

bool goldi_real_resolving(void) {
    return resolving != 0;
}

void *goldi_real_lookup(const char *name, const char *version) {
    uint64_t mask = goldi_os_block_signals();
    resolving++;
    void *p = version ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
    resolving--;
    goldi_os_unblock_signals(mask);
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

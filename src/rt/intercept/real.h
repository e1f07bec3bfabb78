/* Resolving the real libc functions the interceptors wrap. Each interceptor
 * file keeps one pointer slot per wrapped function and fills it lazily on
 * first use with dlsym(RTLD_NEXT) (or dlvsym for versioned symbols).
 * Never used for the malloc family: dlsym may itself allocate. */
#ifndef GOLDI_INTERCEPT_REAL_H
#define GOLDI_INTERCEPT_REAL_H

#include "../../base/base.h"

/* Declares the slot for name; the slot has name's own type. */
#define GOLDI_REAL_SLOT(name) static __typeof__(name) *goldi_real_slot_##name

/* The real function (default symbol version). */
#define GOLDI_REAL(name)                                                               \
    ((__typeof__(name) *)goldi_real_get((void **)&goldi_real_slot_##name, #name, NULL))
/* The real function of an explicit symbol version (pthread_cond_* have two). */
#define GOLDI_REALV(name, ver)                                                         \
    ((__typeof__(name) *)goldi_real_get((void **)&goldi_real_slot_##name, #name, ver))

/* Looks name up in the objects after ours, stores it in *slot and returns it.
 * Dies with a message if the symbol does not exist (optional=false). */
void *goldi_real_resolve_slow(void **slot, const char *name, const char *version);
/* Like the above but returns NULL for a missing symbol (operator new when
 * libstdc++ is not loaded, ...). */
void *goldi_real_lookup(const char *name, const char *version);
/* True while this thread is inside dlsym for a resolution: interceptors that
 * run then (only the string functions can) use their built-in fallback. */
bool goldi_real_resolving(void);

GOLDI_INLINE void *goldi_real_get(void **slot, const char *name, const char *version) {
    void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (GOLDI_LIKELY(p != NULL))
        return p;
    return goldi_real_resolve_slow(slot, name, version);
}

#endif

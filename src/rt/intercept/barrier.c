/* pthread_barrier_* interceptors. init records the thread count; every wait
 * takes an arrival index under the object's lock, so its generation is
 * g = index / count: BAR_ARRIVE(g) before the real wait, BAR_DEPART(g)
 * after. Per-generation token slots are renewed by the event layer (T7). */
#define _GNU_SOURCE
#include "intercept.h"

#include <pthread.h>

GOLDI_REAL_SLOT(pthread_barrier_init);
GOLDI_REAL_SLOT(pthread_barrier_destroy);
GOLDI_REAL_SLOT(pthread_barrier_wait);

GOLDI_EXPORT int pthread_barrier_init(pthread_barrier_t *restrict b, const pthread_barrierattr_t *restrict a,
                                      unsigned count) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_barrier_init)(b, a, count);
    if (r == 0 && goldi_icpt_usable()) {
        goldi_icpt_sync_reset((uintptr_t)b);
        struct goldi_rt_thread *t = goldi_rt_enter();
        struct goldi_sync *s = goldi_sync_get((uintptr_t)b, GOLDI_SYNC_BARRIER);
        goldi_spin_lock(&s->lock);
        s->bar_count = count;
        s->bar_arrivals = 0;
        goldi_spin_unlock(&s->lock);
        goldi_rt_leave(t);
    }
    return r;
}

GOLDI_EXPORT int pthread_barrier_destroy(pthread_barrier_t *b) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_barrier_destroy)(b);
    if (r == 0 && goldi_icpt_usable()) {
        goldi_icpt_sync_reset((uintptr_t)b);
        struct goldi_rt_thread *t = goldi_rt_enter();
        struct goldi_sync *s = goldi_sync_find((uintptr_t)b);
        if (s) {
            goldi_spin_lock(&s->lock);
            s->bar_count = 0;
            s->bar_arrivals = 0;
            goldi_spin_unlock(&s->lock);
        }
        goldi_rt_leave(t);
    }
    return r;
}

GOLDI_EXPORT int pthread_barrier_wait(pthread_barrier_t *b) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (!t)
        return GOLDI_REAL(pthread_barrier_wait)(b);
    struct goldi_rt_thread *e = goldi_rt_enter();
    struct goldi_sync *s = goldi_sync_get((uintptr_t)b, GOLDI_SYNC_BARRIER);
    goldi_spin_lock(&s->lock);
    uint32_t count = s->bar_count;
    uint64_t gen = count ? s->bar_arrivals++ / count : 0;
    goldi_spin_unlock(&s->lock);
    goldi_rt_leave(e);
    if (count == 0)   /* initialised while we were not looking: count unknown */
        return GOLDI_REAL(pthread_barrier_wait)(b);
    goldi_icpt_emit_sync(GOLDI_EV_BAR_ARRIVE, s, NULL, GOLDI_LOCK_EXCL, gen, pc);
    int r = GOLDI_ICPT_BLOCKING(GOLDI_REAL(pthread_barrier_wait)(b));
    goldi_icpt_emit_sync(GOLDI_EV_BAR_DEPART, s, NULL, GOLDI_LOCK_EXCL, gen, pc);
    goldi_rt_filter_new_phase(t);
    return r;
}

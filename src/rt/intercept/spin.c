/* pthread_spin_* interceptors: same events as mutexes, kind SPIN. */
#define _GNU_SOURCE
#include "intercept.h"

#include <pthread.h>

GOLDI_REAL_SLOT(pthread_spin_init);
GOLDI_REAL_SLOT(pthread_spin_destroy);
GOLDI_REAL_SLOT(pthread_spin_lock);
GOLDI_REAL_SLOT(pthread_spin_trylock);
GOLDI_REAL_SLOT(pthread_spin_unlock);

GOLDI_EXPORT int pthread_spin_init(pthread_spinlock_t *l, int pshared) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_spin_init)(l, pshared);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)l);
    return r;
}

GOLDI_EXPORT int pthread_spin_destroy(pthread_spinlock_t *l) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_spin_destroy)(l);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)l);
    return r;
}

GOLDI_EXPORT int pthread_spin_lock(pthread_spinlock_t *l) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_spin_lock)(l);
    if (t && r == 0)
        goldi_icpt_mutex_acquired(t, (void *)l, GOLDI_SYNC_SPIN, pc);
    return r;
}

GOLDI_EXPORT int pthread_spin_trylock(pthread_spinlock_t *l) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_spin_trylock)(l);
    if (t && r == 0)
        goldi_icpt_mutex_acquired(t, (void *)l, GOLDI_SYNC_SPIN, pc);
    return r;
}

GOLDI_EXPORT int pthread_spin_unlock(pthread_spinlock_t *l) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (t)
        goldi_icpt_mutex_releasing(t, (void *)l, GOLDI_SYNC_SPIN, pc);
    return GOLDI_REAL(pthread_spin_unlock)(l);
}

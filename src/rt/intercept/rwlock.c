/* pthread_rwlock_* interceptors: LOCK_ACQ/LOCK_REL with mode SHARED (read)
 * or EXCL (write). The unlock has to know which mode the caller holds: the
 * writer is recorded in goldi_sync.owner (a thread holding the write lock
 * cannot also hold a read lock: rdlock returns EDEADLK), so "owner == me"
 * means a write unlock and anything else a read unlock. This is exact even
 * when the thread's held[] list overflowed (GOLDI_MAX_HELD). */
#define _GNU_SOURCE
#include "intercept.h"

#include <pthread.h>
#include <time.h>

GOLDI_REAL_SLOT(pthread_rwlock_init);
GOLDI_REAL_SLOT(pthread_rwlock_destroy);
GOLDI_REAL_SLOT(pthread_rwlock_rdlock);
GOLDI_REAL_SLOT(pthread_rwlock_tryrdlock);
GOLDI_REAL_SLOT(pthread_rwlock_timedrdlock);
GOLDI_REAL_SLOT(pthread_rwlock_clockrdlock);
GOLDI_REAL_SLOT(pthread_rwlock_wrlock);
GOLDI_REAL_SLOT(pthread_rwlock_trywrlock);
GOLDI_REAL_SLOT(pthread_rwlock_timedwrlock);
GOLDI_REAL_SLOT(pthread_rwlock_clockwrlock);
GOLDI_REAL_SLOT(pthread_rwlock_unlock);

static void acquired(struct goldi_rt_thread *t, pthread_rwlock_t *l, enum goldi_lock_mode mode, uintptr_t pc) {
    struct goldi_sync *s = goldi_icpt_sync((uintptr_t)l, GOLDI_SYNC_RWLOCK);
    if (mode == GOLDI_LOCK_EXCL)
        __atomic_store_n(&s->owner, t->thr.tid, __ATOMIC_RELAXED);
    goldi_icpt_emit_sync(GOLDI_EV_LOCK_ACQ, s, NULL, mode, 0, pc);
}

GOLDI_EXPORT int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_rwlock_init)(l, a);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)l);
    return r;
}

GOLDI_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t *l) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_rwlock_destroy)(l);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)l);
    return r;
}

/* One interceptor per lock entry point; ARGS/CALL spell the extra arguments. */
#define RW_LOCK_FN(name, mode, PARAMS, ARGS)                                         \
    GOLDI_EXPORT int name PARAMS {                                                   \
        uintptr_t pc = GOLDI_CALLER_PC();                                            \
        struct goldi_rt_thread *t = goldi_icpt_thread();                             \
        int r = GOLDI_REAL(name) ARGS;                                               \
        if (t && r == 0)                                                             \
            acquired(t, l, mode, pc);                                                \
        return r;                                                                    \
    }

RW_LOCK_FN(pthread_rwlock_rdlock, GOLDI_LOCK_SHARED, (pthread_rwlock_t *l), (l))
RW_LOCK_FN(pthread_rwlock_tryrdlock, GOLDI_LOCK_SHARED, (pthread_rwlock_t *l), (l))
RW_LOCK_FN(pthread_rwlock_timedrdlock, GOLDI_LOCK_SHARED,
           (pthread_rwlock_t *restrict l, const struct timespec *restrict ts), (l, ts))
RW_LOCK_FN(pthread_rwlock_clockrdlock, GOLDI_LOCK_SHARED,
           (pthread_rwlock_t *restrict l, clockid_t c, const struct timespec *restrict ts), (l, c, ts))
RW_LOCK_FN(pthread_rwlock_wrlock, GOLDI_LOCK_EXCL, (pthread_rwlock_t *l), (l))
RW_LOCK_FN(pthread_rwlock_trywrlock, GOLDI_LOCK_EXCL, (pthread_rwlock_t *l), (l))
RW_LOCK_FN(pthread_rwlock_timedwrlock, GOLDI_LOCK_EXCL,
           (pthread_rwlock_t *restrict l, const struct timespec *restrict ts), (l, ts))
RW_LOCK_FN(pthread_rwlock_clockwrlock, GOLDI_LOCK_EXCL,
           (pthread_rwlock_t *restrict l, clockid_t c, const struct timespec *restrict ts), (l, c, ts))

GOLDI_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *l) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (t) {
        struct goldi_sync *s = goldi_icpt_sync((uintptr_t)l, GOLDI_SYNC_RWLOCK);
        enum goldi_lock_mode mode = GOLDI_LOCK_SHARED;
        if (__atomic_load_n(&s->owner, __ATOMIC_RELAXED) == t->thr.tid) {
            mode = GOLDI_LOCK_EXCL;
            __atomic_store_n(&s->owner, GOLDI_TID_NONE, __ATOMIC_RELAXED);
        }
        goldi_icpt_emit_sync(GOLDI_EV_LOCK_REL, s, NULL, mode, 0, pc);
    }
    return GOLDI_REAL(pthread_rwlock_unlock)(l);
}

/* pthread_mutex_* and C11 mtx_* interceptors: LOCK_ACQ after a successful
 * acquire, LOCK_REL before the real release (trap T8); failed trylock and
 * timed-out timedlock emit nothing (T9). Recursive mutexes emit only at the
 * outermost level. */
#define _GNU_SOURCE
#include "intercept.h"
#include "../options.h"

#include <errno.h>
#include <pthread.h>
#include <threads.h>
#include <time.h>

GOLDI_REAL_SLOT(pthread_mutex_init);
GOLDI_REAL_SLOT(pthread_mutex_destroy);
GOLDI_REAL_SLOT(pthread_mutex_lock);
GOLDI_REAL_SLOT(pthread_mutex_trylock);
GOLDI_REAL_SLOT(pthread_mutex_timedlock);
GOLDI_REAL_SLOT(pthread_mutex_clocklock);
GOLDI_REAL_SLOT(pthread_mutex_unlock);

/* glibc's pthread_mutex_t.__data.__kind: low 2 bits = type (0 normal, 1
 * recursive, 2 error-checking, 3 adaptive); 16 = robust. Its unlock returns
 * EPERM for a non-owner exactly in these cases. */
#define KIND_TYPE_MASK 3
#define KIND_RECURSIVE 1
#define KIND_ERRORCHECK 2
#define KIND_ROBUST 16

bool goldi_icpt_mutex_checks_owner(const void *m) {
    int kind = __atomic_load_n(&((const pthread_mutex_t *)m)->__data.__kind, __ATOMIC_RELAXED);
    int type = kind & KIND_TYPE_MASK;
    return type == KIND_RECURSIVE || type == KIND_ERRORCHECK || (kind & KIND_ROBUST);
}

void goldi_icpt_mutex_acquired(struct goldi_rt_thread *t, void *m, enum goldi_sync_kind kind, uintptr_t pc) {
    struct goldi_sync *s = goldi_icpt_sync((uintptr_t)m, kind);
    goldi_tid_t me = t->thr.tid;
    if (__atomic_load_n(&s->owner, __ATOMIC_RELAXED) == me) {
        /* Only a recursive mutex can be re-acquired by its owner. */
        __atomic_store_n(&s->depth, s->depth + 1, __ATOMIC_RELAXED);
        return;
    }
    __atomic_store_n(&s->owner, me, __ATOMIC_RELAXED);
    __atomic_store_n(&s->depth, 1, __ATOMIC_RELAXED);
    goldi_icpt_emit_sync(GOLDI_EV_LOCK_ACQ, s, NULL, GOLDI_LOCK_EXCL, 0, pc);
}

void goldi_icpt_mutex_releasing(struct goldi_rt_thread *t, void *m, enum goldi_sync_kind kind, uintptr_t pc) {
    struct goldi_sync *s = goldi_icpt_sync((uintptr_t)m, kind);
    goldi_tid_t me = t->thr.tid;
    if (__atomic_load_n(&s->owner, __ATOMIC_RELAXED) == me) {
        uint32_t d = s->depth;
        if (d > 1) {
            __atomic_store_n(&s->depth, d - 1, __ATOMIC_RELAXED);
            return;
        }
    } else if (kind == GOLDI_SYNC_MUTEX && goldi_icpt_mutex_checks_owner(m)) {
        return;   /* the real unlock fails with EPERM: nothing happens */
    }
    /* Owner, or a plain mutex unlocked by another thread (undefined in POSIX,
     * but glibc unlocks it): a release. Clear the owner before the real
     * unlock: afterwards the next owner writes it. */
    __atomic_store_n(&s->owner, GOLDI_TID_NONE, __ATOMIC_RELAXED);
    __atomic_store_n(&s->depth, 0, __ATOMIC_RELAXED);
    goldi_icpt_emit_sync(GOLDI_EV_LOCK_REL, s, NULL, GOLDI_LOCK_EXCL, 0, pc);
}

GOLDI_EXPORT int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_init)(m, a);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)m);
    return r;
}

GOLDI_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_destroy)(m);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)m);
    return r;
}

/* EOWNERDEAD: a robust mutex whose owner died is acquired all the same. */
#define ACQUIRED(r) ((r) == 0 || (r) == EOWNERDEAD)

/* The real lock of m for thread t (NULL: the runtime's own call, passed
 * through), with a short spin first when that pays (contention.c): up to
 * mutex_spin trylocks, 16 pauses apart. A free mutex is taken by the first
 * trylock, whose outcome is the lock's: it acquires where the lock returns
 * at once, also with EOWNERDEAD; a mutex the caller holds gives EBUSY (a
 * recursive one is taken again), and the real lock then answers as it would
 * have (EDEADLK, or the deadlock of a plain mutex). When spinning does not
 * pay, a taken mutex goes straight to the real lock, as without the
 * detector but for the one trylock; a thread that sleeps after a spin is
 * not runnable meanwhile (counting every sleeper cost sharedspot the shared
 * counter's line on every contended lock). */
static int lock_spinning(struct goldi_rt_thread *t, pthread_mutex_t *m) {
    long tries = goldi_opts.mutex_spin;
    if (!t || tries <= 0)
        return GOLDI_REAL(pthread_mutex_lock)(m);
    int r = GOLDI_REAL(pthread_mutex_trylock)(m);
    if (r != EBUSY)
        return r;
    if (!goldi_icpt_spin_pays())
        return GOLDI_REAL(pthread_mutex_lock)(m);
    for (long i = 1; r == EBUSY && i < tries; i++) {
        for (int k = 0; k < 16; k++)
            __builtin_ia32_pause();
        r = GOLDI_REAL(pthread_mutex_trylock)(m);
    }
    goldi_icpt_spin_count(r == EBUSY);
    if (r != EBUSY)
        return r;
    return GOLDI_ICPT_BLOCKING(GOLDI_REAL(pthread_mutex_lock)(m));
}

GOLDI_EXPORT int pthread_mutex_lock(pthread_mutex_t *m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = lock_spinning(t, m);
    if (t && ACQUIRED(r))
        goldi_icpt_mutex_acquired(t, m, GOLDI_SYNC_MUTEX, pc);
    return r;
}

GOLDI_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_trylock)(m);
    if (t && ACQUIRED(r))
        goldi_icpt_mutex_acquired(t, m, GOLDI_SYNC_MUTEX, pc);
    return r;
}

GOLDI_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *ts) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_timedlock)(m, ts);
    if (t && ACQUIRED(r))
        goldi_icpt_mutex_acquired(t, m, GOLDI_SYNC_MUTEX, pc);
    return r;
}

GOLDI_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *ts) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_clocklock)(m, clk, ts);
    if (t && ACQUIRED(r))
        goldi_icpt_mutex_acquired(t, m, GOLDI_SYNC_MUTEX, pc);
    return r;
}

GOLDI_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (t)
        goldi_icpt_mutex_releasing(t, m, GOLDI_SYNC_MUTEX, pc);
    return GOLDI_REAL(pthread_mutex_unlock)(m);
}

/* --- C11 <threads.h> mutexes ----------------------------------------------
 * glibc implements mtx_* by calling its internal pthread functions directly,
 * so they bypass the interceptors above; mtx_t has pthread_mutex_t's layout.
 * Re-implement them on the real pthread functions (same as glibc). */
static int thrd_result(int r) {
    switch (r) {
    case 0: return thrd_success;
    case EBUSY: return thrd_busy;
    case ETIMEDOUT: return thrd_timedout;
    case ENOMEM: return thrd_nomem;
    default: return thrd_error;
    }
}

GOLDI_EXPORT int mtx_init(mtx_t *mtx, int type) {
    (void)goldi_icpt_thread();
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    /* mtx_plain/mtx_timed are normal mutexes; mtx_recursive adds recursion. */
    pthread_mutexattr_settype(&a, (type & mtx_recursive) ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL);
    int r = GOLDI_REAL(pthread_mutex_init)((pthread_mutex_t *)mtx, &a);
    pthread_mutexattr_destroy(&a);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)mtx);
    return thrd_result(r);
}

GOLDI_EXPORT void mtx_destroy(mtx_t *mtx) {
    (void)goldi_icpt_thread();
    GOLDI_REAL(pthread_mutex_destroy)((pthread_mutex_t *)mtx);
    if (goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)mtx);
}

GOLDI_EXPORT int mtx_lock(mtx_t *mtx) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = lock_spinning(t, (pthread_mutex_t *)mtx);
    if (t && r == 0)
        goldi_icpt_mutex_acquired(t, mtx, GOLDI_SYNC_MUTEX, pc);
    return thrd_result(r);
}

GOLDI_EXPORT int mtx_trylock(mtx_t *mtx) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_trylock)((pthread_mutex_t *)mtx);
    if (t && r == 0)
        goldi_icpt_mutex_acquired(t, mtx, GOLDI_SYNC_MUTEX, pc);
    return thrd_result(r);
}

GOLDI_EXPORT int mtx_timedlock(mtx_t *restrict mtx, const struct timespec *restrict ts) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    int r = GOLDI_REAL(pthread_mutex_timedlock)((pthread_mutex_t *)mtx, ts);
    if (t && r == 0)
        goldi_icpt_mutex_acquired(t, mtx, GOLDI_SYNC_MUTEX, pc);
    return thrd_result(r);
}

GOLDI_EXPORT int mtx_unlock(mtx_t *mtx) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (t)
        goldi_icpt_mutex_releasing(t, mtx, GOLDI_SYNC_MUTEX, pc);
    return thrd_result(GOLDI_REAL(pthread_mutex_unlock)((pthread_mutex_t *)mtx));
}

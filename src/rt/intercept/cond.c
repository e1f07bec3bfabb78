/* pthread_cond_* and C11 cnd_* interceptors. wait: WAIT_ENTER(cv, mutex)
 * before the real wait, WAIT_EXIT after it (also after a timeout: the mutex
 * is re-acquired either way, trap T9). signal/broadcast: SIGNAL/BROADCAST
 * before the real call. glibc has two versions of these symbols; programs
 * built today use GLIBC_2.3.2, so that is the one we forward to. */
#define _GNU_SOURCE
#include "intercept.h"

#include <errno.h>
#include <pthread.h>
#include <threads.h>
#include <time.h>

#define COND_VERSION "GLIBC_2.3.2"

GOLDI_REAL_SLOT(pthread_cond_init);
GOLDI_REAL_SLOT(pthread_cond_destroy);
GOLDI_REAL_SLOT(pthread_cond_wait);
GOLDI_REAL_SLOT(pthread_cond_timedwait);
GOLDI_REAL_SLOT(pthread_cond_clockwait);
GOLDI_REAL_SLOT(pthread_cond_signal);
GOLDI_REAL_SLOT(pthread_cond_broadcast);

/* State of the mutex across a wait: the wait releases it (whatever its
 * recursion depth) and re-acquires it before returning. */
struct wait_ctx {
    struct goldi_sync *cv, *mx;
    uint32_t depth;
    bool active;
};

static void wait_enter(struct goldi_rt_thread *t, void *c, void *m, uintptr_t pc, struct wait_ctx *w) {
    w->active = false;
    if (!t)
        return;
    w->cv = goldi_icpt_sync((uintptr_t)c, GOLDI_SYNC_COND);
    w->mx = goldi_icpt_sync((uintptr_t)m, GOLDI_SYNC_MUTEX);
    bool mine = __atomic_load_n(&w->mx->owner, __ATOMIC_RELAXED) == t->thr.tid;
    if (!mine && goldi_icpt_mutex_checks_owner(m))
        return;   /* the real wait fails with EPERM without touching the mutex */
    w->depth = mine ? w->mx->depth : 1;
    __atomic_store_n(&w->mx->owner, GOLDI_TID_NONE, __ATOMIC_RELAXED);
    __atomic_store_n(&w->mx->depth, 0, __ATOMIC_RELAXED);
    goldi_icpt_emit_sync(GOLDI_EV_WAIT_ENTER, w->cv, w->mx, GOLDI_LOCK_EXCL, 0, pc);
    w->active = true;
}

static void wait_exit(struct goldi_rt_thread *t, uintptr_t pc, struct wait_ctx *w) {
    if (!w->active)
        return;
    __atomic_store_n(&w->mx->owner, t->thr.tid, __ATOMIC_RELAXED);
    __atomic_store_n(&w->mx->depth, w->depth ? w->depth : 1, __ATOMIC_RELAXED);
    goldi_icpt_emit_sync(GOLDI_EV_WAIT_EXIT, w->cv, w->mx, GOLDI_LOCK_EXCL, 0, pc);
}

static int cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REALV(pthread_cond_init, COND_VERSION)(c, a);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)c);
    return r;
}

static int cond_destroy(pthread_cond_t *c) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REALV(pthread_cond_destroy, COND_VERSION)(c);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)c);
    return r;
}

static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_icpt_thread();
    struct wait_ctx w;
    wait_enter(t, c, m, pc, &w);
    int r = GOLDI_ICPT_BLOCKING(GOLDI_REALV(pthread_cond_wait, COND_VERSION)(c, m));
    wait_exit(t, pc, &w);
    return r;
}

static int cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *ts, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_icpt_thread();
    struct wait_ctx w;
    wait_enter(t, c, m, pc, &w);
    int r = GOLDI_ICPT_BLOCKING(GOLDI_REALV(pthread_cond_timedwait, COND_VERSION)(c, m, ts));
    wait_exit(t, pc, &w);
    return r;
}

static int cond_notify(pthread_cond_t *c, enum goldi_event_kind kind, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (t)
        goldi_icpt_emit_sync(kind, goldi_icpt_sync((uintptr_t)c, GOLDI_SYNC_COND), NULL,
                             GOLDI_LOCK_EXCL, 0, pc);
    if (kind == GOLDI_EV_SIGNAL)
        return GOLDI_REALV(pthread_cond_signal, COND_VERSION)(c);
    return GOLDI_REALV(pthread_cond_broadcast, COND_VERSION)(c);
}

GOLDI_EXPORT int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
    return cond_init(c, a);
}

GOLDI_EXPORT int pthread_cond_destroy(pthread_cond_t *c) {
    return cond_destroy(c);
}

GOLDI_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    return cond_wait(c, m, GOLDI_CALLER_PC());
}

GOLDI_EXPORT int pthread_cond_timedwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
                                        const struct timespec *restrict ts) {
    return cond_timedwait(c, m, ts, GOLDI_CALLER_PC());
}

GOLDI_EXPORT int pthread_cond_clockwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
                                        clockid_t clk, const struct timespec *restrict ts) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    struct wait_ctx w;
    wait_enter(t, c, m, pc, &w);
    int r = GOLDI_ICPT_BLOCKING(GOLDI_REAL(pthread_cond_clockwait)(c, m, clk, ts));
    wait_exit(t, pc, &w);
    return r;
}

GOLDI_EXPORT int pthread_cond_signal(pthread_cond_t *c) {
    return cond_notify(c, GOLDI_EV_SIGNAL, GOLDI_CALLER_PC());
}

GOLDI_EXPORT int pthread_cond_broadcast(pthread_cond_t *c) {
    return cond_notify(c, GOLDI_EV_BROADCAST, GOLDI_CALLER_PC());
}

/* --- C11 <threads.h> condition variables ----------------------------------
 * glibc's cnd_* call its internal pthread functions directly (bypassing the
 * interceptors above); cnd_t/mtx_t have the pthread layouts. */
static int thrd_result(int r) {
    switch (r) {
    case 0: return thrd_success;
    case ETIMEDOUT: return thrd_timedout;
    case ENOMEM: return thrd_nomem;
    case EBUSY: return thrd_busy;
    default: return thrd_error;
    }
}

GOLDI_EXPORT int cnd_init(cnd_t *c) {
    return thrd_result(cond_init((pthread_cond_t *)c, NULL));
}

GOLDI_EXPORT void cnd_destroy(cnd_t *c) {
    cond_destroy((pthread_cond_t *)c);
}

GOLDI_EXPORT int cnd_wait(cnd_t *c, mtx_t *m) {
    return thrd_result(cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m, GOLDI_CALLER_PC()));
}

GOLDI_EXPORT int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts) {
    return thrd_result(cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, ts, GOLDI_CALLER_PC()));
}

GOLDI_EXPORT int cnd_signal(cnd_t *c) {
    return thrd_result(cond_notify((pthread_cond_t *)c, GOLDI_EV_SIGNAL, GOLDI_CALLER_PC()));
}

GOLDI_EXPORT int cnd_broadcast(cnd_t *c) {
    return thrd_result(cond_notify((pthread_cond_t *)c, GOLDI_EV_BROADCAST, GOLDI_CALLER_PC()));
}

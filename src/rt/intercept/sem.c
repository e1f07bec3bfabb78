/* Semaphore interceptors: SEM_POST before the real post, SEM_WAIT after a
 * successful wait only (a failed trywait / timed-out wait is nothing). */
#define _GNU_SOURCE
#include "intercept.h"

#include <semaphore.h>
#include <time.h>

GOLDI_REAL_SLOT(sem_init);
GOLDI_REAL_SLOT(sem_destroy);
GOLDI_REAL_SLOT(sem_post);
GOLDI_REAL_SLOT(sem_wait);
GOLDI_REAL_SLOT(sem_trywait);
GOLDI_REAL_SLOT(sem_timedwait);
GOLDI_REAL_SLOT(sem_clockwait);

GOLDI_EXPORT int sem_init(sem_t *s, int pshared, unsigned value) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(sem_init)(s, pshared, value);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)s);
    return r;
}

GOLDI_EXPORT int sem_destroy(sem_t *s) {
    (void)goldi_icpt_thread();
    int r = GOLDI_REAL(sem_destroy)(s);
    if (r == 0 && goldi_icpt_usable())
        goldi_icpt_sync_reset((uintptr_t)s);
    return r;
}

GOLDI_EXPORT int sem_post(sem_t *s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (t)
        goldi_icpt_emit_sync(GOLDI_EV_SEM_POST, goldi_icpt_sync((uintptr_t)s, GOLDI_SYNC_SEM), NULL,
                             GOLDI_LOCK_EXCL, 0, pc);
    return GOLDI_REAL(sem_post)(s);
}

static int waited(struct goldi_rt_thread *t, sem_t *s, int r, uintptr_t pc) {
    if (t && r == 0)
        goldi_icpt_emit_sync(GOLDI_EV_SEM_WAIT, goldi_icpt_sync((uintptr_t)s, GOLDI_SYNC_SEM), NULL,
                             GOLDI_LOCK_EXCL, 0, pc);
    return r;
}

GOLDI_EXPORT int sem_wait(sem_t *s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    return waited(t, s, GOLDI_ICPT_BLOCKING(GOLDI_REAL(sem_wait)(s)), pc);
}

GOLDI_EXPORT int sem_trywait(sem_t *s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    return waited(t, s, GOLDI_REAL(sem_trywait)(s), pc);
}

GOLDI_EXPORT int sem_timedwait(sem_t *restrict s, const struct timespec *restrict ts) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    return waited(t, s, GOLDI_ICPT_BLOCKING(GOLDI_REAL(sem_timedwait)(s, ts)), pc);
}

GOLDI_EXPORT int sem_clockwait(sem_t *restrict s, clockid_t clk, const struct timespec *restrict ts) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    return waited(t, s, GOLDI_ICPT_BLOCKING(GOLDI_REAL(sem_clockwait)(s, clk, ts)), pc);
}

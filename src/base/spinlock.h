/* Test-and-test-and-set spinlock for short runtime critical sections.
 * No syscalls on the uncontended path; yields the CPU after spinning a while
 * so a preempted holder can finish on a 2-core machine. */
#ifndef GOLDI_SPINLOCK_H
#define GOLDI_SPINLOCK_H

#include "base.h"
#include "../platform/platform.h"

typedef struct goldi_spinlock { _Atomic uint32_t v; } goldi_spinlock_t;
#define GOLDI_SPINLOCK_INIT { 0 }

void goldi_spin_wait_slow(goldi_spinlock_t *l, unsigned rounds);

/* Pause rounds before a waiter gives the CPU away: the holder may be
 * preempted (2 cores, more threads). */
#define GOLDI_SPIN_ROUNDS 64
/* One round of waiting for another core: pause, and after `rounds` rounds
 * give the CPU away. */
GOLDI_INLINE void goldi_spin_backoff_after(unsigned *spins, unsigned rounds) {
    if (++*spins > rounds) {
        goldi_os_yield();
        *spins = 0;
    } else {
        __builtin_ia32_pause();
    }
}
GOLDI_INLINE void goldi_spin_backoff(unsigned *spins) {
    goldi_spin_backoff_after(spins, GOLDI_SPIN_ROUNDS);
}

GOLDI_INLINE bool goldi_spin_trylock(goldi_spinlock_t *l) {
    return atomic_exchange_explicit(&l->v, 1, memory_order_acquire) == 0;
}
GOLDI_INLINE void goldi_spin_lock(goldi_spinlock_t *l) {
    if (GOLDI_UNLIKELY(!goldi_spin_trylock(l)))
        goldi_spin_wait_slow(l, GOLDI_SPIN_ROUNDS);
}
GOLDI_INLINE void goldi_spin_unlock(goldi_spinlock_t *l) {
    atomic_store_explicit(&l->v, 0, memory_order_release);
}

#endif

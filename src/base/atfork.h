/* Fork safety: every module with global locks registers handlers that take
 * all of them before fork() and release them after (in parent and child), so
 * the child never inherits a lock held by a thread that no longer exists.
 * The fork interceptor calls goldi_atfork_prepare/parent/child.
 *
 * Prepare handlers run in ascending level, so levels must follow the order in
 * which the runtime nests its locks (a lock taken while holding another gets a
 * higher level). Release runs in the reverse order. */
#ifndef GOLDI_ATFORK_H
#define GOLDI_ATFORK_H

#include "base.h"

enum goldi_atfork_level {
    GOLDI_ATFORK_ENGINE = 10,   /* engine-global locks (may take granule locks) */
    GOLDI_ATFORK_GRANULE = 20,  /* shadow granule locks */
    GOLDI_ATFORK_REPORT = 30,   /* report + symbolizer (taken under granule locks) */
    GOLDI_ATFORK_HEAP = 40,     /* heap block registry (report asks it) */
    GOLDI_ATFORK_THREADS = 50,  /* thread registry (report asks it) */
    GOLDI_ATFORK_ORIGIN = 60,   /* origin depot (engines intern under granule locks) */
    GOLDI_ATFORK_SYNC = 70,     /* sync-object table */
    GOLDI_ATFORK_ALLOC = 100,   /* internal allocator: a leaf, taken under anything */
};

/* Up to 32 registrations; call from constructors or init, single-threaded. */
void goldi_atfork_register(int level, void (*prepare)(void), void (*parent)(void),
                           void (*child)(void));
void goldi_atfork_prepare(void);
void goldi_atfork_parent(void);
void goldi_atfork_child(void);

/* Helpers for modules: take / release every lock of an array. */
#include "spinlock.h"
void goldi_spin_lock_all(goldi_spinlock_t *locks, size_t n);
void goldi_spin_unlock_all(goldi_spinlock_t *locks, size_t n);

#endif

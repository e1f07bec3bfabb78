/* fork/vfork interceptors. The runtime's locks (every module registered with
 * goldi_atfork_register, the heap registry among them) are taken by a prepare
 * handler registered with pthread_atfork as early as we can (a priority
 * constructor), so it runs after the program's own prepare handlers (those
 * run in reverse registration order and may allocate or lock) and just
 * before glibc forks; the parent/child handlers release them first thing.
 * The forking thread continues in the child as the same runtime thread;
 * the states of threads that do not exist in the child are stale but never
 * used. vfork is turned into fork: a vfork child shares our memory and
 * would corrupt runtime state with any event; fork is a correct, slower
 * stand-in for the exec-or-_exit children vfork allows. */
#define _GNU_SOURCE
#include "intercept.h"

#include <pthread.h>
#include <unistd.h>

#include "../../base/atfork.h"

GOLDI_REAL_SLOT(fork);

static _Atomic int registered;
static GOLDI_TLS struct goldi_rt_thread *forking;

static void prepare(void) {
    /* No interceptor may run on this thread (signal handlers included) while
     * the locks are held. */
    forking = goldi_rt_enter();
    goldi_atfork_prepare();
}

static void parent(void) {
    goldi_atfork_parent();
    goldi_rt_leave(forking);
}

static void child(void) {
    goldi_atfork_child();
    goldi_rt_leave(forking);
}

static void register_handlers(void) {
    int expect = 0;
    if (atomic_compare_exchange_strong(&registered, &expect, 1))
        pthread_atfork(prepare, parent, child);
}

__attribute__((constructor(101))) static void fork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_HEAP, goldi_heap_lock_all, goldi_heap_unlock_all,
                          goldi_heap_unlock_all);
    register_handlers();
}

GOLDI_EXPORT pid_t fork(void) {
    (void)goldi_icpt_thread();
    register_handlers();   /* no-op unless fork runs before constructors */
    return GOLDI_REAL(fork)();
}

GOLDI_EXPORT pid_t vfork(void) {
    (void)goldi_icpt_thread();
    register_handlers();
    return GOLDI_REAL(fork)();
}

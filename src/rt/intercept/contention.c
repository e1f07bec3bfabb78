/* When a taken mutex is worth spinning on (mutex.c).
 *
 * A detector lengthens every critical section (the acquire's and release's
 * events, each access checked inside it), so a thread that finds a mutex
 * taken finds it still taken when its futex wait reaches the kernel more often
 * than natively, and sleeps: threadpool made 3-4x TSan's context switches
 * with the same futex calls (docs/performance.md, round 32). Spinning a
 * little first helps only while the holder is on a CPU; when the program has
 * more runnable threads than CPUs the spinner takes the core a runnable
 * thread (maybe the holder) needs, and sharedspot, four threads on two cores
 * that never block, ran 1.4x slower spinning. So the interceptors count the
 * program's runnable threads: started and not finished, less those inside an
 * intercepted blocking call (a condition wait, a join, a barrier, a
 * semaphore wait, a mutex's sleep after a spin). Threads blocked elsewhere
 * (I/O, sleep, a mutex that did not spin) count as runnable: fewer spins,
 * never more. The count is a hint, not a correctness matter: a wrong one
 * (a thread cancelled inside a wait) costs time only. */
#define _GNU_SOURCE
#include "intercept.h"

#include <sched.h>
#include <unistd.h>

#include "../../base/atfork.h"

static _Atomic int runnable = 1;   /* the main thread */
static _Atomic int cpus;           /* CPUs this process may run on; 0 = not read yet */

/* print_stats: contended acquisitions that spun and got the mutex, and
 * those that spun and slept all the same. */
static _Atomic uint64_t spins_taken, spins_slept;

void goldi_icpt_spin_count(bool slept) {
    atomic_fetch_add_explicit(slept ? &spins_slept : &spins_taken, 1, memory_order_relaxed);
}

uint64_t goldi_rt_mutex_spins(bool slept) {
    return atomic_load_explicit(slept ? &spins_slept : &spins_taken, memory_order_relaxed);
}

void goldi_icpt_runnable_add(int delta) {
    atomic_fetch_add_explicit(&runnable, delta, memory_order_relaxed);
}

int goldi_icpt_runnable_back(int r) {
    goldi_icpt_runnable_add(1);
    return r;
}

static int cpus_allowed(void) {
    int n = atomic_load_explicit(&cpus, memory_order_relaxed);
    if (GOLDI_LIKELY(n))
        return n;
    cpu_set_t set;
    n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    atomic_store_explicit(&cpus, n, memory_order_relaxed);
    return n;
}

bool goldi_icpt_spin_pays(void) {
    int n = cpus_allowed();
    return n > 1 && atomic_load_explicit(&runnable, memory_order_relaxed) <= n;
}

/* The child of fork() has one thread, which is running. */
static void runnable_child(void) {
    atomic_store_explicit(&runnable, 1, memory_order_relaxed);
}

__attribute__((constructor(102))) static void contention_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_THREADS, NULL, NULL, runnable_child);
}

// fork() while other threads keep the engine's update list busy: every
// iteration of a busy thread takes a lock (cells appended, a new chunk every
// few thousand) and writes a granule it never wrote before (a record
// registered in the current chunk's registry, under a registry shard lock).
// A child that inherited a shard or chunk-slot lock held by a thread that
// does not exist there would spin for ever on its first registration in
// that shard: each child starts eight threads (every shard of the registry)
// that do the same work. No deadlock (alarm in the child, watchdog in the
// parent), no race. The busy threads rest while a child runs and have swept
// again before the next fork. Goldilocks only: the update list and its
// registry are that engine's (vc's fork safety: fork_threads, fork_granules).
// Under vc a child took 0.9 s with the busy threads spinning beside its eight
// on two cores, 0.3 s with them resting (vc's records for this area fill
// about 70 MB, each page a fault in the child): 40 children took 60 s in a
// full CTest run, the limit.
// STRESS-ENGINES: goldilocks
// STRESS-CHECK: fork_registry: 40 children ok
#include "stress.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define CHILDREN 40
#define SLOTS (1 << 16)   /* 8-byte slots: 512 KiB of fresh granules per sweep */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long *area;        /* each thread writes its own slots, under mu */
static atomic_int stop, child_running;
static atomic_long sweeps;   /* done by the busy threads, all told */

static void sweep(long id, long n_threads, long from, long iters) {
    for (long k = from; k < from + iters; k++) {
        pthread_mutex_lock(&mu);
        area[(k * n_threads + id) % SLOTS] += k;   /* a slot (granule) of this thread's */
        pthread_mutex_unlock(&mu);
    }
}

static void *busy(void *arg) {
    long id = (long)arg, n = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        if (atomic_load(&child_running)) {
            nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
            continue;
        }
        sweep(id, 3, n * 64, 64);   /* the next 64 of its slots, round the area */
        n++;
        atomic_fetch_add(&sweeps, 1);
    }
    return (void *)n;
}

static void *child_worker(void *arg) {
    sweep((long)arg, 8, 0, 500);
    return NULL;
}

static int child_main(void) {
    alarm(20);   /* a deadlocked child fails the parent's status check */
    pthread_t t[8];
    for (long i = 0; i < 8; i++)
        if (pthread_create(&t[i], NULL, child_worker, (void *)i) != 0)
            return 3;
    for (int i = 0; i < 8; i++)
        pthread_join(t[i], NULL);
    long sum = 0;
    for (long i = 0; i < SLOTS; i++)
        sum += area[i];
    return sum < 0 ? 4 : 0;
}

int main(void) {
    stress_watchdog(80);
    area = calloc(SLOTS, sizeof *area);
    STRESS_CHECK(area != NULL, "calloc");
    pthread_t th[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, busy, (void *)i);
    double t0 = stress_now();
    int ok = 0;
    for (int r = 0; r < CHILDREN; r++) {
        fflush(stdout);
        long s0 = atomic_load(&sweeps);
        while (atomic_load(&sweeps) < s0 + 3)   /* the busy threads are at it again */
            sched_yield();
        /* mu is free in the child only if no busy thread holds it now: the
         * program's own concern (POSIX), solved here by holding it. */
        pthread_mutex_lock(&mu);
        pid_t pid = fork();
        STRESS_CHECK(pid >= 0, "fork failed");
        if (pid > 0)
            atomic_store(&child_running, 1);
        pthread_mutex_unlock(&mu);
        if (pid == 0)
            _exit(child_main());
        stress_wait_child(pid, r);
        atomic_store(&child_running, 0);
        ok++;
    }
    atomic_store(&stop, 1);
    long iters = 0;
    for (int i = 0; i < 3; i++) {
        void *n;
        pthread_join(th[i], &n);
        iters += (long)n;
    }
    printf("fork_registry: %d children ok in %.2f s (%ld busy sweeps)\n", ok, stress_now() - t0, iters);
    return 0;
}

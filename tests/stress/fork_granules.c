// fork() while three threads keep taking granule locks: they read a shared
// array, each read in a new epoch (a release store ends every round), so
// most reads re-place the reader's entry under the granule's own lock (word
// 7 of the granule's shadow). A granule that was locked when the parent
// forked would stay locked in the child, whose reads of the same array
// would then spin for ever. The engine closes a gate before fork and waits
// for every holder to leave. Each child reads the whole array and checks
// its sum; the parent checks every child's status. No hang, no race.
// STRESS-CHECK: fork_granules: 120 children ok
#include "stress.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define CHILDREN 120
#define N 4096

static uint32_t data[N];       /* written by main before the readers start */
static atomic_uint round_of[3]; /* release stores: a new epoch per round */
static atomic_int stop;
static uint64_t want;

static void *reader(void *arg) {
    long id = (long)arg;
    uint64_t sums = 0;
    for (unsigned r = 0; !atomic_load_explicit(&stop, memory_order_relaxed); r++) {
        uint64_t s = 0;
        for (unsigned i = id; i < N; i += 3)   /* neighbours: granules shared by readers */
            s += data[i] + data[(i + 1) % N];
        sums += s;
        atomic_store_explicit(&round_of[id], r, memory_order_release);
    }
    return (void *)(uintptr_t)sums;
}

static int child_main(void) {
    alarm(20);   /* a granule left locked hangs this loop: the parent sees SIGALRM */
    uint64_t s = 0;
    for (unsigned i = 0; i < N; i++)
        s += data[i];
    return s == want ? 0 : 4;
}

int main(void) {
    stress_watchdog(55);
    for (unsigned i = 0; i < N; i++) {
        data[i] = i * 2654435761u;
        want += data[i];
    }
    pthread_t th[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, reader, (void *)i);
    double t0 = stress_now();
    int ok = 0;
    for (int r = 0; r < CHILDREN; r++) {
        fflush(stdout);
        pid_t pid = fork();
        STRESS_CHECK(pid >= 0, "fork failed");
        if (pid == 0)
            _exit(child_main());
        stress_wait_child(pid, r);
        ok++;
    }
    atomic_store(&stop, 1);
    uint64_t total = 0;
    for (int i = 0; i < 3; i++) {
        void *v;
        pthread_join(th[i], &v);
        total += (uintptr_t)v;
    }
    printf("fork_granules: %d children ok in %.2f s (reads %s)\n", ok, stress_now() - t0,
           total ? "summed" : "none");
    return 0;
}

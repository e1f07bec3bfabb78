// fork() from a multithreaded program, 150 times, while three other threads
// are inside malloc/free, mutexes and instrumented accesses. The runtime's
// fork handlers take all of its locks around fork, so the child never
// inherits one held by a thread that does not exist there. Each child
// starts two threads, does locked and unlocked-but-ordered work, mallocs,
// and leaves with exit(0) or _exit(0) alternately; the parent checks every
// child's status. No deadlock (watchdog in parent and child), no race.
// STRESS-CHECK: fork_threads: 150 children ok
#include "stress.h"
#include <pthread.h>
#include <stdatomic.h>

#define CHILDREN 150

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long shared;           /* under mu */
static atomic_int stop;

static void *busy(void *arg) {
    long id = (long)arg;
    long n = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        char *p = malloc(16 + (size_t)(n % 1000));
        p[0] = (char)n;
        pthread_mutex_lock(&mu);
        shared += id;
        pthread_mutex_unlock(&mu);
        free(p);
        n++;
    }
    return (void *)n;
}

static long child_data[2];
static void *child_worker(void *arg) {
    long i = (long)arg;
    for (int k = 0; k < 1000; k++) {
        char *p = malloc(64);
        p[0] = (char)k;
        child_data[i] += p[0];   /* each thread its own slot */
        free(p);
        pthread_mutex_lock(&mu);
        shared++;
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static int child_main(int round) {
    alarm(20);   /* a deadlocked child fails the parent's status check */
    pthread_mutex_lock(&mu);   /* the atfork handlers kept it consistent */
    shared = 0;
    pthread_mutex_unlock(&mu);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, child_worker, (void *)i) != 0)
            return 3;
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (shared != 2000)
        return 4;
    char *s = malloc(100);
    snprintf(s, 100, "child %d", round);
    free(s);
    return 0;
}

/* The program's own handlers keep mu consistent across fork (POSIX: a
 * mutex held by another thread would stay locked in the child); they run
 * before the runtime's prepare handler and may lock and allocate. */
static void pre(void) {
    pthread_mutex_lock(&mu);
    free(malloc(10));
}
static void post(void) { pthread_mutex_unlock(&mu); }

int main(void) {
    stress_watchdog(55);
    pthread_atfork(pre, post, post);
    pthread_t th[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, busy, (void *)(i + 1));
    double t0 = stress_now();
    int ok = 0;
    for (int r = 0; r < CHILDREN; r++) {
        fflush(stdout);
        pid_t pid = fork();
        STRESS_CHECK(pid >= 0, "fork failed");
        if (pid == 0) {
            int st = child_main(r);
            if (r % 2)
                _exit(st);
            exit(st);
        }
        stress_wait_child(pid, r);
        ok++;
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    printf("fork_threads: %d children ok in %.2f s\n", ok, stress_now() - t0);
    return 0;
}

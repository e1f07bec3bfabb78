// Race reports from signal handlers that interrupt malloc/free: 2 workers
// malloc/free in a tight loop (no common lock: nothing orders them) while a
// third thread bombards them with SIGUSR1; the handler writes one of 128
// globals through one of 128 distinct functions, so each function yields a
// real race between the workers' handlers (up to 256 reports, one per pc
// pair; a handler that interrupted the runtime itself runs with its
// accesses ignored, so some races go unseen and the count varies).
// Every report looks the address up in the heap registry and the thread
// registry: their locks must not be held by the interrupted code (the
// interceptors enter the runtime around them), or the handler deadlocks.
// STRESS-EXIT: 66
// STRESS-REPORTS: 1-256
// STRESS-CHECK: signal_reports: done
#include "stress.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

#define N_FN 128

int g[N_FN];
typedef void (*fn_t)(void);
#define F(i, j) static void f_##i##_##j(void) { g[8 * i + j]++; }
#define F8(i) F(i, 0) F(i, 1) F(i, 2) F(i, 3) F(i, 4) F(i, 5) F(i, 6) F(i, 7)
F8(0) F8(1) F8(2) F8(3) F8(4) F8(5) F8(6) F8(7) F8(8) F8(9) F8(10) F8(11) F8(12) F8(13) F8(14) F8(15)
#define R8(i) f_##i##_0, f_##i##_1, f_##i##_2, f_##i##_3, f_##i##_4, f_##i##_5, f_##i##_6, f_##i##_7,
static const fn_t fns[N_FN] = { R8(0) R8(1) R8(2) R8(3) R8(4) R8(5) R8(6) R8(7) R8(8) R8(9) R8(10)
                                R8(11) R8(12) R8(13) R8(14) R8(15) };

static __thread volatile sig_atomic_t calls;   /* this thread's handler runs */
static atomic_int finished[2];                 /* worker i handled all N_FN */

static void on_usr1(int sig) {
    (void)sig;
    int c = calls;
    if (c < N_FN)
        fns[c]();
    calls = c + 1;
}

static atomic_int stop;
static void *worker(void *arg) {
    int id = (int)(long)arg;
    long n = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        for (int i = 0; i < 64; i++) {
            char *p = malloc(16 + (size_t)((n + i) % 512));
            p[0] = (char)i;
            free(p);
        }
        n += 64;
        /* time outside the runtime too, so that most signals are seen */
        unsigned x = (unsigned)n;
        for (int i = 0; i < 20000; i++)
            x = x * 1664525u + 1013904223u;
        if (x == 42)
            n++;
        if (calls >= N_FN)
            atomic_store(&finished[id], 1);
    }
    return (void *)n;
}

int main(void) {
    stress_watchdog(50);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    pthread_t w[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, worker, (void *)i);
    double t0 = stress_now();
    long sent = 0;
    while (!(atomic_load(&finished[0]) && atomic_load(&finished[1]))) {
        for (int i = 0; i < 2; i++)
            if (!atomic_load(&finished[i]) && pthread_kill(w[i], SIGUSR1) == 0)
                sent++;
        usleep(200);
        STRESS_CHECK(stress_now() - t0 < 40, "workers did not handle their signals");
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    printf("signal_reports: done, %ld signals sent in %.2f s\n", sent, stress_now() - t0);
    return 0;
}

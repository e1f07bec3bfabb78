// Signals landing on a thread while it ends: 500 rounds, each one short
// thread that unblocks SIGUSR1 and returns while a killer thread sends it
// SIGUSR1 in a tight loop, until main stops the killer and joins the thread.
// The handler bumps the round's counter; main reads it after the join. The
// join orders every handler run on the thread before main's read, however
// late in the thread's end it ran (after its EXIT event, during libc's
// teardown), so there is no race in any interleaving and none may be reported.
// STRESS-CHECK: signal_at_exit: ok
#include "stress.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

#define ROUNDS 500

static volatile sig_atomic_t hits[ROUNDS];   /* round r's thread's handler runs */
static __thread int slot = -1;               /* this thread's round */
static sigset_t usr1;

static pthread_t target;          /* the round's thread; written before go is posted */
static sem_t go, stopped;         /* main -> killer: fire; killer -> main: stopped */
static atomic_int stop_firing;
static atomic_int fired;          /* the killer has sent this round's first signal */

static void on_usr1(int sig) {
    (void)sig;
    if (slot >= 0)
        hits[slot]++;
}

static void *ender(void *arg) {
    slot = (int)(long)arg;
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
    while (!atomic_load(&fired))   /* end while the signals come */
        ;
    return NULL;
}

static void *killer(void *arg) {
    (void)arg;
    long sent = 0;
    for (;;) {
        sem_wait(&go);
        if (atomic_load(&stop_firing) == 2)
            break;
        do {   /* at least once: the thread waits for the first */
            if (pthread_kill(target, SIGUSR1) == 0)
                sent++;
            atomic_store(&fired, 1);
        } while (!atomic_load(&stop_firing));
        sem_post(&stopped);
    }
    return (void *)sent;
}

int main(void) {
    stress_watchdog(55);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL);   /* inherited: a thread unblocks it once its slot is set */

    double t0 = stress_now();
    sem_init(&go, 0, 0);
    sem_init(&stopped, 0, 0);
    pthread_t k;
    pthread_create(&k, NULL, killer, NULL);
    long handled = 0, rounds_hit = 0;
    for (long r = 0; r < ROUNDS; r++) {
        atomic_store(&fired, 0);
        atomic_store(&stop_firing, 0);
        pthread_create(&target, NULL, ender, (void *)r);
        sem_post(&go);
        usleep(20);   /* the thread ends meanwhile, under fire */
        atomic_store(&stop_firing, 1);
        sem_wait(&stopped);
        pthread_join(target, NULL);
        handled += hits[r];   /* ordered by the join */
        rounds_hit += hits[r] > 0;
    }
    atomic_store(&stop_firing, 2);
    sem_post(&go);
    void *sent;
    pthread_join(k, &sent);
    double dt = stress_now() - t0;
    STRESS_CHECK(dt < 40, "too slow: %.1f s", dt);
    printf("signal_at_exit: ok, %.2f s, %ld sent, %ld handled, %ld of %d rounds\n", dt, (long)sent,
           handled, rounds_hit, ROUNDS);
    STRESS_CHECK(rounds_hit > ROUNDS / 10, "too few rounds had a signal handled");
    return 0;
}

// Signals at a high rate while threads work: SIGALRM from an interval timer
// (every 200 us, delivered to any thread) and SIGUSR1 sent with
// pthread_kill to the workers, which meanwhile lock, access shared data,
// malloc/free and post/wait semaphores. Handlers touch only volatile
// sig_atomic_t counters of the thread they run on (a global one bumped by
// handlers on several threads would be a real race; new threads start with
// the signals blocked and unblock them once their slot is set, or a signal
// landing before that would bump main's counter: a real race, reported) and call
// async-signal-safe functions (write, sem_post, getpid). No deadlock
// (watchdog), no crash, no race report.
// STRESS-CHECK: signals: ok
#include "stress.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/time.h>

#define WORKERS 3
#define ITERS 1500000

#define SLOTS (WORKERS + 2)   /* main, workers, killer */
static volatile sig_atomic_t alarm_count[SLOTS], usr1_count[SLOTS];
static __thread int slot;  /* this thread's counters */
static sem_t sig_sem;
static int devnull = -1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long shared;        /* under mu */

static void on_alarm(int sig) {
    (void)sig;
    int saved = errno;
    alarm_count[slot]++;
    if (write(devnull, "a", 1) < 0) {
    }
    sem_post(&sig_sem);
    errno = saved;
}

static void on_usr1(int sig, siginfo_t *si, void *uc) {
    (void)sig;
    (void)si;
    (void)uc;
    int saved = errno;
    usr1_count[slot]++;
    (void)getpid();
    errno = saved;
}

static sigset_t handled;   /* SIGALRM, SIGUSR1 */

static void *worker(void *arg) {
    long id = (long)arg;
    long local = 0;
    slot = (int)id;
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    for (int i = 0; i < ITERS; i++) {
        pthread_mutex_lock(&mu);
        shared += id;
        pthread_mutex_unlock(&mu);
        if (i % 16 == 0) {
            char *p = malloc(32 + (size_t)(i % 200));
            p[0] = (char)i;
            local += p[0];
            free(p);
        }
        while (sem_trywait(&sig_sem) == 0)
            local++;
    }
    return (void *)local;
}

static pthread_t workers[WORKERS];
static sem_t killer_stop;
static void *killer(void *arg) {
    (void)arg;
    long sent = 0;
    slot = WORKERS + 1;
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    while (sem_trywait(&killer_stop) != 0) {
        for (int i = 0; i < WORKERS; i++)
            if (pthread_kill(workers[i], SIGUSR1) == 0)
                sent++;
        usleep(100);
    }
    return (void *)sent;
}

int main(void) {
    devnull = open("/dev/null", 1);
    sem_init(&sig_sem, 0, 0);
    sem_init(&killer_stop, 0, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_sigaction = on_usr1;
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigaction(SIGUSR1, &sa, NULL);
    struct itimerval it = { { 0, 200 }, { 0, 200 } };
    setitimer(ITIMER_REAL, &it, NULL);

    double t0 = stress_now();
    sigemptyset(&handled);
    sigaddset(&handled, SIGALRM);
    sigaddset(&handled, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &handled, NULL);   /* inherited by the threads below */
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&workers[i], NULL, worker, (void *)(i + 1));
    pthread_t k;
    pthread_create(&k, NULL, killer, NULL);
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(workers[i], NULL);
    sem_post(&killer_stop);
    void *sent;
    pthread_join(k, &sent);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    double dt = stress_now() - t0;
    STRESS_CHECK(dt < 40, "too slow: %.1f s", dt);
    STRESS_CHECK(shared == (long)ITERS * (1 + 2 + 3), "shared %ld", shared);
    int alarms = 0, usr1s = 0;
    for (int i = 0; i < SLOTS; i++) {
        alarms += alarm_count[i];
        usr1s += usr1_count[i];
    }
    printf("signals: ok, %.2f s, %d SIGALRM, %d SIGUSR1 handled, %ld sent\n", dt, alarms, usr1s,
           (long)sent);
    STRESS_CHECK(alarms > 10 && usr1s > 10, "too few signals handled");
    return 0;
}

// Thread churn: 5,008 joinable threads created and joined in waves, 1,000
// detached ones (at creation or by pthread_detach while running) and 1,500
// detached by pthread_detach after they finished (their state used to leak,
// ~4 KiB each: STRESS-MAX-ALLOC-MB catches it), each doing instrumented work ordered by create/join
// or a semaphore. Memory must stay bounded (per-thread state freed; origins
// shared by the threads running the same code: the depot once kept a site
// per thread and access, ~6 KB a thread), tids keep working: after the churn
// one deliberate race between two fresh threads must be reported, exactly once.
// STRESS-EXIT: 66
// STRESS-REPORTS: 1
// STRESS-CHECK: SUMMARY: Goldilocks: data race
// STRESS-CHECK: in late_racer
// STRESS-MAX-ALLOC-MB: 10
// STRESS-MAX-ORIGIN-SITES: 100
#include "stress.h"
#include <pthread.h>
#include <semaphore.h>

#define JOINABLE 5008   /* whole waves */
#define WAVE 16
#define DETACHED 1000
#define DETACH_LATE 1500

static long slots[WAVE];
static long total;                 /* written by main after joins */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long locked_sum;            /* under mu */
static sem_t done;
static long det_counter;           /* under mu */

static void *worker(void *arg) {
    long i = (long)arg;
    slots[i % WAVE] += i;          /* ordered by create/join */
    char *p = malloc(64 + (size_t)(i % 512));
    p[0] = (char)i;
    free(p);
    pthread_mutex_lock(&mu);
    locked_sum += 1;
    pthread_mutex_unlock(&mu);
    return (void *)(i * 2);
}

static void *det_worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mu);
    det_counter++;
    pthread_mutex_unlock(&mu);
    sem_post(&done);
    return NULL;
}

static void *quick(void *arg) {
    return arg;
}

int racy;   /* extern: the stores must stay */
static void *late_racer(void *arg) {
    racy = (int)(long)arg;         /* deliberate race between the two late threads */
    return NULL;
}

int main(void) {
    stress_watchdog(50);
    sem_init(&done, 0, 0);
    double t0 = stress_now();
    for (long base = 0; base < JOINABLE; base += WAVE) {
        pthread_t th[WAVE];
        for (long k = 0; k < WAVE; k++)
            STRESS_CHECK(pthread_create(&th[k], NULL, worker, (void *)(base + k)) == 0, "create");
        for (long k = 0; k < WAVE; k++) {
            void *ret;
            STRESS_CHECK(pthread_join(th[k], &ret) == 0, "join");
            STRESS_CHECK((long)ret == (base + k) * 2, "join value");
        }
        for (long k = 0; k < WAVE; k++)
            total += slots[k];
    }
    long after_joinable = stress_rss_kb();
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < DETACHED; i++) {
        pthread_t th;
        STRESS_CHECK(pthread_create(&th, i % 2 ? &at : NULL, det_worker, NULL) == 0, "create det");
        if (i % 2 == 0)
            pthread_detach(th);   /* detach while it may still run */
        if (i % 8 == 7)
            for (int k = 0; k < 8; k++)
                sem_wait(&done);
    }
    /* Detached after they finished: the thread has exited already. */
    for (int i = 0; i < DETACH_LATE; i++) {
        pthread_t th;
        STRESS_CHECK(pthread_create(&th, NULL, quick, NULL) == 0, "create late");
        usleep(i % 50 == 0 ? 1000 : 0);
        pthread_detach(th);
    }
    pthread_mutex_lock(&mu);
    STRESS_CHECK(det_counter == DETACHED, "detached counter %ld", det_counter);
    STRESS_CHECK(locked_sum == JOINABLE, "locked sum %ld", locked_sum);
    pthread_mutex_unlock(&mu);
    long expect = 0;
    for (long i = 0; i < JOINABLE; i++)
        expect += i;
    STRESS_CHECK(total != 0 && expect != 0, "sums");

    /* Detection still works with tids beyond 6,000. */
    pthread_t a, b;
    pthread_create(&a, NULL, late_racer, (void *)1L);
    pthread_create(&b, NULL, late_racer, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    printf("thread_churn: racy=%d, %d threads in %.2f s, RSS after joinable %ld MiB\n",
           racy, JOINABLE + DETACHED + DETACH_LATE + 2, stress_now() - t0, after_joinable / 1024);
    stress_check_peak("thread_churn", 400);
    return 0;
}

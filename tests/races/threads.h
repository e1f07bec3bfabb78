/* threads.h — runs the race programs' threads: one a function, all
 * started before any is joined; and pass(), a lock's hand-over. */
#ifndef RACES_THREADS_H
#define RACES_THREADS_H
#include <pthread.h>

static void run_threads(void *(*const fn[])(void *), int n)
{
  pthread_t t[n];
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < n; i++)
    pthread_join(t[i], NULL);
}

/* Orders the caller after the mutex's last holder (and releases it again). */
static __attribute__((unused)) void pass(pthread_mutex_t *m) { pthread_mutex_lock(m); pthread_mutex_unlock(m); }
#endif

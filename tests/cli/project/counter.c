/* A counter guarded by a mutex: race-free. */
#include "counter.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long value;

void counter_add(long n)
{
    pthread_mutex_lock(&lock);
    value += n;
    pthread_mutex_unlock(&lock);
}

long counter_get(void)
{
    long v;
    pthread_mutex_lock(&lock);
    v = value;
    pthread_mutex_unlock(&lock);
    return v;
}

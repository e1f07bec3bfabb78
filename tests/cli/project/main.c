/* Two threads bump a locked counter; prints "total 2000". */
#include "counter.h"
#include <pthread.h>
#include <stdio.h>

static void *work(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        counter_add(1);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("total %ld\n", counter_get());
    return counter_get() == 2000 ? 0 : 1;
}

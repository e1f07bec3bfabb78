/* Exit-status test program (exitcode_test.sh). With argument "race" two
 * threads increment a global with nothing ordering them: a race on every
 * schedule for a precise detector. Without it, the same work under a mutex.
 * Its own status is 0, or 3 with a second argument "fail". */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int counter;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int locked = 1;

static void *worker(void *arg) {
    if (locked)
        pthread_mutex_lock(&mu);
    counter++;
    if (locked)
        pthread_mutex_unlock(&mu);
    return arg;
}

int main(int argc, char **argv) {
    locked = !(argc > 1 && strcmp(argv[1], "race") == 0);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("counter=%d\n", counter);
    return argc > 2 && strcmp(argv[2], "fail") == 0 ? 3 : 0;
}

// Deep recursion: a race found 3,000 instrumented frames deep (the shadow
// stack keeps 128 frames and counts the rest: the report shows #0 and then
// the 128 OUTERMOST frames, see docs/robustness.md) and a report with very
// long lines: each thread holds 40 mutexes of its own while racing. Three
// races, one or two reports each (GCC instruments x++ as a read and a
// write, Clang as one compound access), no crash; after the recursion
// unwinds, the third race at depth 1 shows a correct short stack.
// STRESS-EXIT: 66
// STRESS-REPORTS: 3-6
// STRESS-CHECK: in with_locks
// STRESS-CHECK: in deep
// STRESS-CHECK: in shallow_racer
#include "stress.h"
#include <pthread.h>

int deep_var, locked_var, shallow_var;
static pthread_mutex_t mus[2][40];

__attribute__((noinline)) static int deep(int n) {
    if (n == 0) {
        deep_var++;
        return 1;
    }
    int r = deep(n - 1);
    return r + (n & 1);   /* not a tail call */
}

__attribute__((noinline)) static void with_locks(int id) {
    for (int i = 0; i < 40; i++)
        pthread_mutex_lock(&mus[id][i]);
    locked_var++;   /* each thread holds its own locks: a race */
    for (int i = 40; i-- > 0;)
        pthread_mutex_unlock(&mus[id][i]);
}

__attribute__((noinline)) static void shallow_racer(void) { shallow_var++; }

static void *worker(void *arg) {
    deep(3000);
    with_locks((int)(long)arg);
    shallow_racer();
    return NULL;
}

int main(void) {
    stress_watchdog(30);
    for (int i = 0; i < 40; i++) {
        pthread_mutex_init(&mus[0][i], NULL);
        pthread_mutex_init(&mus[1][i], NULL);
    }
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("deep_stack: %d %d %d\n", deep_var, locked_var, shallow_var);
    return 0;
}

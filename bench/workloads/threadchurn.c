/* threadchurn: a thread per small task, as a server that starts one per
 * request would. Waves of -t threads are created and joined until -n
 * threads have run; each hashes its own task into a malloc'ed buffer and
 * adds the result to a shared total under a mutex. Measures what a thread's
 * start and exit cost (a detector's per-thread state is made and freed each
 * time). Not one of the suite's table (bench/run.sh): run it with
 * bench/ab.sh, e.g. threadchurn:20000. -n = threads in all. */
#include "bench.h"

#define TASK_WORDS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t total;

static void *task(void *arg)
{
    long id = (long)(intptr_t)arg;
    uint64_t *buf = bench_xmalloc(sizeof(uint64_t) * TASK_WORDS);
    uint64_t x = (uint64_t)id;
    for (int i = 0; i < TASK_WORDS; i++)
        buf[i] = x = bench_mix(x + (uint64_t)i);
    uint64_t s = 0;
    for (int i = 0; i < TASK_WORDS; i++)
        s += buf[i];
    free(buf);
    pthread_mutex_lock(&lock);
    total += s;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "threadchurn", "threads created in all", 4, 20000, 1);
    pthread_t *tids = bench_xmalloc(sizeof *tids * (size_t)a.threads);
    double t0 = bench_now();
    for (long done = 0; done < a.size;) {
        int wave = a.size - done < a.threads ? (int)(a.size - done) : a.threads;
        for (int i = 0; i < wave; i++)
            if (pthread_create(&tids[i], NULL, task, (void *)(intptr_t)(done + i)) != 0) {
                fprintf(stderr, "threadchurn: pthread_create failed\n");
                return 2;
            }
        for (int i = 0; i < wave; i++)
            pthread_join(tids[i], NULL);
        done += wave;
    }
    /* The same hashes again, single-threaded: the self-check. */
    uint64_t want = 0;
    for (long id = 0; id < a.size; id++) {
        uint64_t x = (uint64_t)id;
        for (int i = 0; i < TASK_WORDS; i++)
            want += x = bench_mix(x + (uint64_t)i);
    }
    free(tids);
    return bench_finish(&a, "threadchurn", bench_mix(total), total == want, t0, NULL);
}

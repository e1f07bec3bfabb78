/* threadpool: a fixed pool of workers fed many small tasks through one
 * mutex + condition-variable FIFO (a linked list of malloc'ed task records).
 * The submitter blocks when too many tasks are outstanding, and waits for
 * completion on a second condition variable. Each task computes a small hash
 * chain and stores it into its own result slot, so results reach the main
 * thread only through the pool's synchronisation. -n = number of tasks. */
#include "bench.h"

#define MAX_QUEUED 256
#define TASK_ROUNDS 24

struct task {
    struct task *next;
    long id;
    uint64_t *out;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t has_work = PTHREAD_COND_INITIALIZER;  /* queue non-empty or stopping */
static pthread_cond_t has_room = PTHREAD_COND_INITIALIZER;  /* queued < MAX_QUEUED */
static pthread_cond_t all_done = PTHREAD_COND_INITIALIZER;  /* done == submitted */
static struct task *qhead, *qtail;
static int queued, stopping;
static long done;

static uint64_t task_fn(long id)
{
    uint64_t x = (uint64_t)id;
    for (int r = 0; r < TASK_ROUNDS; r++)
        x = bench_mix(x);
    return x;
}

static void pool_worker(void *arg, int idx)
{
    (void)arg;
    (void)idx;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!qhead && !stopping)
            pthread_cond_wait(&has_work, &lock);
        if (!qhead)
            break;
        struct task *t = qhead;
        qhead = t->next;
        if (!qhead) qtail = NULL;
        queued--;
        pthread_cond_signal(&has_room);
        pthread_mutex_unlock(&lock);

        *t->out = task_fn(t->id);
        free(t);

        pthread_mutex_lock(&lock);
        done++;
        pthread_cond_signal(&all_done);
    }
    pthread_mutex_unlock(&lock);
}

struct pool_args {
    int nworkers;
};

static void *pool_main(void *p)
{
    struct pool_args *pa = p;
    bench_team_run(pa->nworkers, pool_worker, NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "threadpool", "number of tasks", 4, 2000000, 1);
    long ntasks = a.size;
    uint64_t *results = bench_xmalloc(sizeof(uint64_t) * (size_t)ntasks);
    double t0 = bench_now();
    pthread_t pool;
    struct pool_args pa = {a.threads};
    pthread_create(&pool, NULL, pool_main, &pa);

    for (long i = 0; i < ntasks; i++) {
        struct task *t = malloc(sizeof *t);
        t->next = NULL;
        t->id = i;
        t->out = &results[i];
        pthread_mutex_lock(&lock);
        while (queued >= MAX_QUEUED)
            pthread_cond_wait(&has_room, &lock);
        if (qtail) qtail->next = t;
        else qhead = t;
        qtail = t;
        queued++;
        pthread_cond_signal(&has_work);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    while (done < ntasks)
        pthread_cond_wait(&all_done, &lock);
    stopping = 1;
    pthread_cond_broadcast(&has_work);
    pthread_mutex_unlock(&lock);
    pthread_join(pool, NULL);

    uint64_t h = 0;
    int ok = 1;
    for (long i = 0; i < ntasks; i++) {
        ok &= results[i] == task_fn(i);
        h += results[i];
    }
    return bench_finish(&a, "threadpool", h, ok, t0, NULL);
}

/* pipeline: PARSEC dedup/ferret-style 3-stage pipeline. Stage 1 (one
 * thread) mallocs items and fills them, stage 2 (t-2 threads, at least 1)
 * transforms them, stage 3 (one thread) folds and frees them. Stages talk
 * through bounded FIFO queues guarded by a mutex and two condition variables;
 * the item payload itself is plain memory handed over by the queue.
 * -n = number of items. */
#include "bench.h"

#define QCAP 64
#define ROUNDS 8 /* stage-2 work per item */

struct item {
    uint64_t seq;
    uint64_t in;
    uint64_t out;
};

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    struct item *slots[QCAP];
    int head, len;
};

static struct queue q12, q23;
static long nitems;
static int nmid;
static uint64_t result_sum, result_xor;

static void q_init(struct queue *q)
{
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->not_empty, NULL);
    pthread_cond_init(&q->not_full, NULL);
    q->head = q->len = 0;
}

static void q_push(struct queue *q, struct item *it)
{
    pthread_mutex_lock(&q->lock);
    while (q->len == QCAP)
        pthread_cond_wait(&q->not_full, &q->lock);
    q->slots[(q->head + q->len) % QCAP] = it;
    q->len++;
    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

static struct item *q_pop(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    while (q->len == 0)
        pthread_cond_wait(&q->not_empty, &q->lock);
    struct item *it = q->slots[q->head];
    q->head = (q->head + 1) % QCAP;
    q->len--;
    pthread_cond_signal(&q->not_full);
    pthread_mutex_unlock(&q->lock);
    return it;
}

static uint64_t transform(uint64_t x)
{
    for (int r = 0; r < ROUNDS; r++)
        x = bench_mix(x + (uint64_t)r);
    return x;
}

/* NULL is the end-of-stream marker: stage 1 sends one per stage-2 worker,
 * each worker forwards it, stage 3 stops after nmid of them. */
static void worker(void *arg, int idx)
{
    (void)arg;
    if (idx == 0) {
        for (long i = 0; i < nitems; i++) {
            struct item *it = malloc(sizeof *it);
            it->seq = (uint64_t)i;
            it->in = bench_mix((uint64_t)i);
            it->out = 0;
            q_push(&q12, it);
        }
        for (int w = 0; w < nmid; w++)
            q_push(&q12, NULL);
    } else if (idx == 1) {
        uint64_t s = 0, x = 0;
        for (int ends = 0; ends < nmid;) {
            struct item *it = q_pop(&q23);
            if (!it) {
                ends++;
                continue;
            }
            s += it->out;
            x ^= it->out + it->seq;
            free(it);
        }
        result_sum = s;
        result_xor = x;
    } else {
        for (;;) {
            struct item *it = q_pop(&q12);
            if (it)
                it->out = transform(it->in);
            q_push(&q23, it);
            if (!it)
                break;
        }
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "pipeline", "number of items", 4, 1200000, 1);
    nitems = a.size;
    nmid = a.threads > 2 ? a.threads - 2 : 1;
    q_init(&q12);
    q_init(&q23);
    double t0 = bench_now();
    bench_team_run(nmid + 2, worker, NULL);

    uint64_t s = 0, x = 0;
    for (long i = 0; i < nitems; i++) {
        uint64_t o = transform(bench_mix((uint64_t)i));
        s += o;
        x ^= o + (uint64_t)i;
    }
    int ok = s == result_sum && x == result_xor;
    char detail[64];
    snprintf(detail, sizeof detail, "stage2_workers=%d", nmid);
    return bench_finish(&a, "pipeline", bench_mix(s) ^ x, ok, t0, detail);
}

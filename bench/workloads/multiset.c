/* multiset: Goldilocks paper (PLDI'07 §5) microbenchmark. Threads insert,
 * look up and delete integers in one shared multiset. The multiset is a hash
 * of sorted singly linked lists, one mutex per bucket; nodes are malloc'ed on
 * first insert and freed when their count drops to zero, so heap blocks move
 * between threads and get reused (what a detector must reset on free).
 * -n = total operations groups (insert+lookup[+delete]), split over threads. */
#include "bench.h"

#define NKEYS 4096     /* key range: threads collide on keys on purpose */
#define NBUCKETS 256

struct node {
    struct node *next;
    uint32_t key;
    uint32_t count;
};

struct bucket {
    pthread_mutex_t lock;
    struct node *head;
} __attribute__((aligned(64)));

static struct bucket table[NBUCKETS];
static long total;
static int nthreads;
static uint64_t *hits; /* per-thread lookup hits */

static inline uint32_t key_of(long i) { return (uint32_t)(bench_mix((uint64_t)i) % NKEYS); }
static inline struct bucket *bucket_of(uint32_t k) { return &table[(k * 2654435761u >> 8) % NBUCKETS]; }

static void ms_insert(uint32_t k)
{
    struct bucket *b = bucket_of(k);
    pthread_mutex_lock(&b->lock);
    struct node **pp = &b->head;
    while (*pp && (*pp)->key < k)
        pp = &(*pp)->next;
    if (*pp && (*pp)->key == k) {
        (*pp)->count++;
    } else {
        struct node *n = malloc(sizeof *n);
        n->key = k;
        n->count = 1;
        n->next = *pp;
        *pp = n;
    }
    pthread_mutex_unlock(&b->lock);
}

static uint32_t ms_lookup(uint32_t k)
{
    struct bucket *b = bucket_of(k);
    uint32_t c = 0;
    pthread_mutex_lock(&b->lock);
    for (struct node *n = b->head; n && n->key <= k; n = n->next)
        if (n->key == k)
            c = n->count;
    pthread_mutex_unlock(&b->lock);
    return c;
}

static void ms_delete(uint32_t k)
{
    struct bucket *b = bucket_of(k);
    pthread_mutex_lock(&b->lock);
    struct node **pp = &b->head;
    while (*pp && (*pp)->key < k)
        pp = &(*pp)->next;
    if (*pp && (*pp)->key == k && --(*pp)->count == 0) {
        struct node *dead = *pp;
        *pp = dead->next;
        free(dead);
    }
    pthread_mutex_unlock(&b->lock);
}

/* Op group i: insert key(i), look it up (a hit: only the inserter of a copy
 * deletes it), and delete it again when i is odd. The final multiset is thus
 * {key(i) : i even} whatever the interleaving. */
static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(total, nthreads, idx, &lo, &hi);
    uint64_t h = 0;
    for (long i = lo; i < hi; i++) {
        uint32_t k = key_of(i);
        ms_insert(k);
        h += ms_lookup(k) != 0;
        if (i & 1)
            ms_delete(k);
    }
    hits[idx] = h;
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "multiset", "total insert/lookup/delete groups", 4, 20000000, 1);
    total = a.size;
    nthreads = a.threads;
    hits = bench_xmalloc(sizeof(uint64_t) * (size_t)a.threads);
    for (int j = 0; j < NBUCKETS; j++)
        pthread_mutex_init(&table[j].lock, NULL);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    uint32_t *want = bench_xmalloc(sizeof(uint32_t) * NKEYS);
    for (long i = 0; i < total; i += 2)
        want[key_of(i)]++;
    uint64_t nhits = 0, h = 0;
    for (int t = 0; t < a.threads; t++)
        nhits += hits[t];
    int ok = nhits == (uint64_t)total;
    long distinct = 0;
    for (int j = 0; j < NBUCKETS; j++) {
        uint32_t prev = 0;
        for (struct node *n = table[j].head; n; n = n->next) {
            ok &= (n->key >= prev) && n->count == want[n->key] && bucket_of(n->key) == &table[j];
            prev = n->key + 1;
            distinct++;
            h = bench_mix(h ^ ((uint64_t)n->key << 32 | n->count));
        }
    }
    for (int k = 0; k < NKEYS; k++)
        distinct -= want[k] != 0;
    ok &= distinct == 0;
    return bench_finish(&a, "multiset", h ^ nhits, ok, t0, NULL);
}

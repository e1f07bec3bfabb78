/* hashtable: a chained hash table with lock striping (one pthread_rwlock per
 * stripe of buckets) under a read-mostly mixed load: 90% lookups (read
 * lock), 6% in-place updates of a preloaded key (write lock), 2% inserts and
 * 2% deletes of thread-owned transient keys (write lock, malloc/free).
 * -n = total operations (split over threads). */
#include "bench.h"

#define NBUCKETS (1 << 16)
#define NSTRIPES 64
#define PRELOAD (1 << 15)
#define PENDING 64 /* transient keys a thread keeps live before deleting */

struct entry {
    struct entry *next;
    uint64_t key;
    uint64_t val;
};

static struct entry *buckets[NBUCKETS];
static pthread_rwlock_t stripes[NSTRIPES];
static long total;
static int nthreads;
static uint64_t *found; /* per-thread lookup hits */

static inline uint32_t bucket_of(uint64_t k) { return (uint32_t)(bench_mix(k) & (NBUCKETS - 1)); }
static inline pthread_rwlock_t *stripe_of(uint32_t b) { return &stripes[b % NSTRIPES]; }

/* Preloaded keys are 0..PRELOAD-1 (value = key) and never deleted; any
 * thread may add 1 to any of them. Increments commute, so the final values
 * depend only on the op stream, not on the interleaving. */
enum op { OP_LOOKUP, OP_UPDATE, OP_INSERT, OP_DELETE };

static inline enum op op_of(long i, uint64_t *arg)
{
    uint64_t r = bench_mix((uint64_t)i ^ 0x5bd1e995u);
    *arg = (r >> 8) % PRELOAD;
    unsigned p = (unsigned)(r % 100);
    return p < 90 ? OP_LOOKUP : p < 96 ? OP_UPDATE : p < 98 ? OP_INSERT : OP_DELETE;
}

static uint64_t ht_lookup(uint64_t k, int *hit)
{
    uint32_t b = bucket_of(k);
    uint64_t v = 0;
    *hit = 0;
    pthread_rwlock_rdlock(stripe_of(b));
    for (struct entry *e = buckets[b]; e; e = e->next)
        if (e->key == k) {
            v = e->val;
            *hit = 1;
            break;
        }
    pthread_rwlock_unlock(stripe_of(b));
    return v;
}

static void ht_add(uint64_t k, uint64_t delta)
{
    uint32_t b = bucket_of(k);
    pthread_rwlock_wrlock(stripe_of(b));
    for (struct entry *e = buckets[b]; e; e = e->next)
        if (e->key == k) {
            e->val += delta;
            break;
        }
    pthread_rwlock_unlock(stripe_of(b));
}

static void ht_insert(uint64_t k, uint64_t v)
{
    struct entry *e = malloc(sizeof *e);
    e->key = k;
    e->val = v;
    uint32_t b = bucket_of(k);
    pthread_rwlock_wrlock(stripe_of(b));
    e->next = buckets[b];
    buckets[b] = e;
    pthread_rwlock_unlock(stripe_of(b));
}

static void ht_delete(uint64_t k)
{
    uint32_t b = bucket_of(k);
    struct entry *dead = NULL;
    pthread_rwlock_wrlock(stripe_of(b));
    for (struct entry **pp = &buckets[b]; *pp; pp = &(*pp)->next)
        if ((*pp)->key == k) {
            dead = *pp;
            *pp = dead->next;
            break;
        }
    pthread_rwlock_unlock(stripe_of(b));
    free(dead);
}

/* Transient keys are PRELOAD + i (unique per op); each thread remembers its
 * live ones in a FIFO and a delete retires the oldest, if any. */
static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(total, nthreads, idx, &lo, &hi);
    uint64_t pending[PENDING];
    int phead = 0, plen = 0;
    uint64_t hits = 0, sink = 0;
    for (long i = lo; i < hi; i++) {
        uint64_t k;
        int hit;
        switch (op_of(i, &k)) {
        case OP_LOOKUP:
            sink += ht_lookup(k, &hit);
            hits += (uint64_t)hit;
            break;
        case OP_UPDATE:
            ht_add(k, 1);
            break;
        case OP_INSERT:
            if (plen == PENDING) { /* full: retire one first */
                ht_delete(pending[phead]);
                phead = (phead + 1) % PENDING;
                plen--;
            }
            ht_insert(PRELOAD + (uint64_t)i, (uint64_t)i);
            pending[(phead + plen++) % PENDING] = PRELOAD + (uint64_t)i;
            break;
        case OP_DELETE:
            if (plen) {
                ht_delete(pending[phead]);
                phead = (phead + 1) % PENDING;
                plen--;
            }
            break;
        }
    }
    /* Values read concurrently are timing-dependent; keep them alive but out
     * of the checksum. */
    __asm__ volatile("" : : "r"(sink));
    found[idx] = hits;
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "hashtable", "total operations", 4, 40000000, 1);
    total = a.size;
    nthreads = a.threads;
    found = bench_xmalloc(sizeof(uint64_t) * (size_t)a.threads);
    for (int s = 0; s < NSTRIPES; s++)
        pthread_rwlock_init(&stripes[s], NULL);
    for (uint64_t k = 0; k < PRELOAD; k++)
        ht_insert(k, k);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* Replay the op stream without the table: expected lookups, per-key
     * increments, and how many transient keys each thread leaves behind. */
    uint64_t want_hits = 0, want_entries = PRELOAD, want_valsum = 0, want_transient_sum = 0;
    uint32_t *incs = bench_xmalloc(sizeof(uint32_t) * PRELOAD);
    for (int t = 0; t < a.threads; t++) {
        long lo, hi;
        bench_chunk(total, nthreads, t, &lo, &hi);
        uint64_t pending[PENDING];
        int phead = 0, plen = 0;
        for (long i = lo; i < hi; i++) {
            uint64_t k;
            switch (op_of(i, &k)) {
            case OP_LOOKUP: want_hits++; break;
            case OP_UPDATE: incs[k]++; break;
            case OP_INSERT:
                if (plen == PENDING) { phead = (phead + 1) % PENDING; plen--; }
                pending[(phead + plen++) % PENDING] = (uint64_t)i;
                break;
            case OP_DELETE:
                if (plen) { phead = (phead + 1) % PENDING; plen--; }
                break;
            }
        }
        for (int p = 0; p < plen; p++)
            want_transient_sum += pending[(phead + p) % PENDING];
        want_entries += (uint64_t)plen;
    }
    uint64_t h = 0;
    for (uint64_t k = 0; k < PRELOAD; k++) {
        want_valsum += k + incs[k];
        h = bench_mix(h ^ (k + incs[k]));
    }
    want_valsum += want_transient_sum;

    uint64_t hits = 0, entries = 0, valsum = 0;
    for (int t = 0; t < a.threads; t++)
        hits += found[t];
    for (int b = 0; b < NBUCKETS; b++)
        for (struct entry *e = buckets[b]; e; e = e->next) {
            entries++;
            valsum += e->val;
        }
    int ok = hits == want_hits && entries == want_entries && valsum == want_valsum;
    char detail[96];
    snprintf(detail, sizeof detail, "entries=%" PRIu64 " hits=%" PRIu64, entries, hits);
    return bench_finish(&a, "hashtable", h ^ bench_mix(valsum) ^ entries, ok, t0, detail);
}

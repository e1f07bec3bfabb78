/* Unit tests of src/engine/common/lockset.{h,c}: interning is canonical,
 * intersection (memoised or not) matches a bitmask model, lockset_of_thr
 * honours lock modes, and concurrent use from several threads agrees. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine/common/lockset.h"
#include "event/sync.h"

#define UNIVERSE 24   /* lock ids 1..UNIVERSE; sets are bitmasks in the model */

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The interned set of the locks in mask (ids 1..UNIVERSE, addr = 0x1000*id),
 * listed in a scrambled order with duplicates. */
static goldi_lockset_t set_of(uint32_t mask, uint64_t *rng) {
    struct goldi_lockset_lock e[2 * UNIVERSE];
    uint32_t n = 0;
    for (uint32_t i = 0; i < UNIVERSE; i++)
        if (mask & (1u << i)) {
            e[n].id = i + 1;
            e[n].addr = 0x1000 * (i + 1);
            n++;
            if (next_rand(rng) % 3 == 0) {   /* duplicate */
                e[n] = e[n - 1];
                n++;
            }
        }
    for (uint32_t i = n; i > 1; i--) {       /* shuffle */
        uint32_t j = (uint32_t)(next_rand(rng) % i);
        struct goldi_lockset_lock t = e[i - 1];
        e[i - 1] = e[j];
        e[j] = t;
    }
    return goldi_lockset_intern(e, n);
}

static uint32_t mask_of(goldi_lockset_t s) {
    uint32_t n, m = 0;
    const struct goldi_lockset_lock *e = goldi_lockset_locks(s, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && e[i - 1].id >= e[i].id)
            return 0xffffffffu;              /* not sorted / not unique */
        m |= 1u << (e[i].id - 1);
    }
    return m;
}

/* Sparse random mask: a few locks, so intersections are often non-empty. */
static uint32_t rand_mask(uint64_t *rng) {
    uint32_t m = 0;
    int k = (int)(next_rand(rng) % 5);
    for (int i = 0; i < k; i++)
        m |= 1u << (next_rand(rng) % 8);     /* mostly locks 1..8 */
    if (next_rand(rng) % 4 == 0)
        m |= 1u << (next_rand(rng) % UNIVERSE);
    return m;
}

CASE(lockset_empty) {
    uint64_t rng = 1;
    EXPECT_EQ(goldi_lockset_intern(NULL, 0), GOLDI_LOCKSET_EMPTY);
    EXPECT_EQ(set_of(0, &rng), GOLDI_LOCKSET_EMPTY);
    goldi_lockset_t a = set_of(0x5, &rng);
    EXPECT(a != GOLDI_LOCKSET_EMPTY);
    EXPECT_EQ(goldi_lockset_intersect(a, GOLDI_LOCKSET_EMPTY), GOLDI_LOCKSET_EMPTY);
    EXPECT_EQ(goldi_lockset_intersect(GOLDI_LOCKSET_EMPTY, a), GOLDI_LOCKSET_EMPTY);
    EXPECT_EQ(goldi_lockset_size(GOLDI_LOCKSET_EMPTY), 0);
    EXPECT(!goldi_lockset_contains(GOLDI_LOCKSET_EMPTY, 1));
    char buf[32];
    EXPECT_EQ(goldi_lockset_format(GOLDI_LOCKSET_EMPTY, buf, sizeof buf), 2);
    EXPECT(strcmp(buf, "{}") == 0);
}

CASE(lockset_intern_is_canonical) {
    uint64_t rng = 7;
    for (int i = 0; i < 2000; i++) {
        uint32_t m = rand_mask(&rng), m2 = rand_mask(&rng);
        goldi_lockset_t a = set_of(m, &rng), b = set_of(m, &rng), c = set_of(m2, &rng);
        EXPECT_EQ(a, b);                      /* order and duplicates do not matter */
        EXPECT_EQ(mask_of(a), m);
        EXPECT_EQ(a == c, m == m2);           /* equal ids iff equal sets */
        EXPECT_EQ(goldi_lockset_size(a), __builtin_popcount(m));
    }
}

CASE(lockset_intersect_matches_model) {
    uint64_t rng = 99;
    for (int i = 0; i < 20000; i++) {
        uint32_t ma = rand_mask(&rng), mb = rand_mask(&rng);
        goldi_lockset_t a = set_of(ma, &rng), b = set_of(mb, &rng);
        goldi_lockset_t r = goldi_lockset_intersect(a, b);
        EXPECT_EQ(mask_of(r), ma & mb);
        EXPECT_EQ(r, set_of(ma & mb, &rng));
        EXPECT_EQ(goldi_lockset_intersect(b, a), r);    /* commutative, memo keyed both ways */
        EXPECT_EQ(goldi_lockset_intersect(a, a), a);
        for (uint32_t id = 1; id <= UNIVERSE; id++)
            EXPECT_EQ(goldi_lockset_contains(a, id), (ma >> (id - 1)) & 1);
        if (harness_case_failed)
            return;
    }
}

CASE(lockset_memo_is_used) {
    uint64_t rng = 3;
    goldi_lockset_t a = set_of(0x3, &rng), b = set_of(0x6, &rng);
    struct goldi_lockset_stats s0, s1;
    goldi_lockset_intersect(a, b);
    goldi_lockset_get_stats(&s0);
    for (int i = 0; i < 100; i++)
        EXPECT_EQ(mask_of(goldi_lockset_intersect(a, b)), 0x2);
    goldi_lockset_get_stats(&s1);
    EXPECT(s1.memo_hits >= s0.memo_hits + 100);
    EXPECT_EQ(s1.memo_misses, s0.memo_misses);
    EXPECT_EQ(s1.overflows, 0);
    EXPECT(s1.n_sets >= 3);
}

CASE(lockset_large_sets) {
    /* sets larger than the on-stack buffers */
    struct goldi_lockset_lock *e = calloc(200, sizeof *e);
    for (int i = 0; i < 200; i++) {
        e[i].id = 1000 + (uint64_t)(199 - i);
        e[i].addr = (uintptr_t)i;
    }
    goldi_lockset_t a = goldi_lockset_intern(e, 200);
    goldi_lockset_t b = goldi_lockset_intern(e + 50, 100);
    EXPECT_EQ(goldi_lockset_size(a), 200);
    EXPECT_EQ(goldi_lockset_intersect(a, b), b);
    EXPECT_EQ(goldi_lockset_intersect(b, a), b);
    goldi_lockset_t c = goldi_lockset_intern(e + 100, 100);
    goldi_lockset_t bc = goldi_lockset_intersect(b, c);
    EXPECT_EQ(goldi_lockset_size(bc), 50);
    EXPECT_EQ(bc, goldi_lockset_intern(e + 100, 50));
    char buf[40];
    size_t n = goldi_lockset_format(a, buf, sizeof buf);
    EXPECT_EQ(n, strlen(buf));
    EXPECT(n < sizeof buf);
    EXPECT(strcmp(buf + n - 4, "...}") == 0);
    free(e);
}

CASE(lockset_format) {
    struct goldi_lockset_lock e[2] = {{5002, 0x20}, {5001, 0x10}};   /* ids unused by other cases */
    goldi_lockset_t a = goldi_lockset_intern(e, 2);
    char buf[64];
    goldi_lockset_format(a, buf, sizeof buf);
    EXPECT(strcmp(buf, "{0x10, 0x20}") == 0);
    EXPECT_EQ(goldi_lockset_format(a, buf, 3), 0);      /* too small even for "...}" */
    EXPECT_EQ(buf[0], 0);
}

CASE(lockset_of_thr_modes) {
    static char objs[4][64];
    struct goldi_sync *m = goldi_sync_get((uintptr_t)objs[0], GOLDI_SYNC_MUTEX);
    struct goldi_sync *r = goldi_sync_get((uintptr_t)objs[1], GOLDI_SYNC_RWLOCK);
    struct goldi_sync *s = goldi_sync_get((uintptr_t)objs[2], GOLDI_SYNC_SPIN);
    struct goldi_thr *t = calloc(1, sizeof *t);
    EXPECT_EQ(goldi_lockset_of_thr(t, false), GOLDI_LOCKSET_EMPTY);
    t->held[0] = (struct goldi_held){m, GOLDI_LOCK_EXCL};
    t->held[1] = (struct goldi_held){r, GOLDI_LOCK_SHARED};
    t->held[2] = (struct goldi_held){s, GOLDI_LOCK_EXCL};
    t->n_held = 3;
    goldi_lockset_t all = goldi_lockset_of_thr(t, false), w = goldi_lockset_of_thr(t, true);
    EXPECT_EQ(goldi_lockset_size(all), 3);
    EXPECT_EQ(goldi_lockset_size(w), 2);
    EXPECT(goldi_lockset_contains(all, r->tok[0].id));
    EXPECT(!goldi_lockset_contains(w, r->tok[0].id));
    EXPECT(goldi_lockset_contains(w, m->tok[0].id));
    EXPECT_EQ(goldi_lockset_intersect(all, w), w);
    /* a re-initialised lock is a different lock (new token id) */
    goldi_sync_reset((uintptr_t)objs[0]);
    goldi_lockset_t after = goldi_lockset_of_thr(t, true);
    EXPECT(after != w);
    EXPECT_EQ(goldi_lockset_size(goldi_lockset_intersect(after, w)), 1);
    free(t);
}

/* Several threads intern and intersect concurrently; every answer must match
 * the model (ids are shared, so equal sets must get equal ids everywhere). */
static goldi_lockset_t shared_ids[1u << 12];
static void *worker(void *arg) {
    uint64_t rng = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1;
    long bad = 0;
    for (int i = 0; i < 30000; i++) {
        uint32_t ma = rand_mask(&rng) & 0xfff, mb = rand_mask(&rng) & 0xfff;
        goldi_lockset_t a = set_of(ma, &rng), b = set_of(mb, &rng);
        goldi_lockset_t r = goldi_lockset_intersect(a, b);
        bad += mask_of(r) != (ma & mb);
        goldi_lockset_t prev = __atomic_exchange_n(&shared_ids[ma], a, __ATOMIC_RELAXED);
        bad += prev != 0 && prev != a;
    }
    return (void *)bad;
}

CASE(lockset_concurrent) {
    pthread_t th[4];
    for (uintptr_t i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, worker, (void *)(i + 1));
    long bad = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        bad += (long)r;
    }
    EXPECT_EQ(bad, 0);
}

int main(void) {
    RUN(lockset_empty);
    RUN(lockset_intern_is_canonical);
    RUN(lockset_intersect_matches_model);
    RUN(lockset_memo_is_used);
    RUN(lockset_large_sets);
    RUN(lockset_format);
    RUN(lockset_of_thr_modes);
    RUN(lockset_concurrent);
    return harness_summary();
}

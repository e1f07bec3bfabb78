/* Owner leases (engine/goldilocks/gls_lease.h): the protocol itself, with
 * real threads updating one record under it, and the engine's use of it,
 * with the verdicts a sweep under a lease must keep. Its own process: the
 * engine leases only for the first goldilocks engine a process creates. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine_harness.h"
#include "engine/goldilocks/gls_lease.h"
#include "platform/platform.h"

/* --- the protocol, on a record of our own --------------------------------------------------- */

#define LOCKBIT ((uintptr_t)4)
enum { OWNER = 1, OTHER = 2, ROUNDS = 200, PER_ROUND = 2000, OTHER_MIN = 2000 };

static struct gls_leases proto;
static _Alignas(1 << GLS_LEASE_SHIFT) goldi_shadow_word_t rec[1u << (GLS_LEASE_SHIFT - 3)];
static _Atomic int owner_done;
static _Atomic long other_updates;
static long owner_leased, owner_updates, other_revoked;

static void pause_a_while(void) {
    for (int i = 0; i < 2000; i++)
        __asm__ volatile("" ::: "memory");
}

/* The owner's update, as inl_try makes it: plain stores under the lease,
 * else the lock bit's CAS; w[1] counts every update of both threads. Some
 * updates pause between their read and their write of the count (an
 * update the other thread's bit did not stop would lose its increment),
 * others after the update (the other thread then comes in between). */
static void owner_update(struct gls_lease_thr *lt, uint64_t epoch, int i) {
    goldi_shadow_word_t *w = rec;
    for (;;) {
        uintptr_t v = atomic_load_explicit(&w[0], memory_order_acquire);
        if (v & LOCKBIT)
            continue;
        bool leased = gls_lease_enter(&proto, lt, w);
        if (leased && atomic_load_explicit(&w[0], memory_order_relaxed) != v) {
            gls_lease_done(lt);
            continue;
        }
        if (!leased &&
            !atomic_compare_exchange_strong_explicit(&w[0], &v, v | LOCKBIT, memory_order_acquire, memory_order_relaxed))
            continue;
        uint64_t count = atomic_load_explicit(&w[1], memory_order_relaxed);
        if (i % 64 == 0)
            pause_a_while();
        atomic_store_explicit(&w[1], count + 1, memory_order_relaxed);
        atomic_store_explicit(&w[0], v + 8, memory_order_release);   /* (a new value each time) */
        if (i % 64 == 32)
            pause_a_while();
        if (leased) {
            gls_lease_done(lt);
            owner_leased++;
        } else {
            gls_lease_note(&proto, lt, w, epoch);
        }
        return;
    }
}

/* Waits, outside any update, until the other thread has revoked the lease
 * the owner holds. On a loaded machine the other thread's bit otherwise
 * tends to land only between rounds, when no lease is live (seen in CI). */
static void wait_for_a_revocation(void) {
    uint64_t before = atomic_load(&proto.revoked);
    while (atomic_load(&proto.revoked) == before && atomic_load(&proto.live))
        sched_yield();
}

/* Rounds of updates, each an epoch, until the other thread has made its
 * share (so the two overlap whatever the scheduler does). Every eighth
 * round waits half-way for a revocation of its lease; the others leave
 * the two threads to race. */
static void *owner_thread(void *arg) {
    struct gls_lease_thr *lt = arg;
    for (uint64_t r = 1; r <= ROUNDS || atomic_load(&other_updates) < OTHER_MIN; r++) {
        for (int i = 0; i < PER_ROUND; i++) {
            owner_update(lt, r, i);
            if (r % 8 == 0 && i == PER_ROUND / 2 && lt->n)
                wait_for_a_revocation();
        }
        owner_updates += PER_ROUND;
        gls_lease_release_all(&proto, lt);   /* (its synchronisation event) */
    }
    atomic_store(&owner_done, 1);
    return NULL;
}

/* The other thread: takes the lock bit, revokes, counts; it tries while
 * the owner holds the lease (the case under test), but always also at
 * times (the owner's round may end first). */
static void *other_thread(void *arg) {
    (void)arg;
    goldi_shadow_word_t *w = rec;
    for (unsigned tries = 0; !atomic_load(&owner_done); tries++) {
        if (!atomic_load(&proto.live) && tries % 16)
            continue;
        uintptr_t v = atomic_load_explicit(&w[0], memory_order_relaxed);
        if ((v & LOCKBIT) ||
            !atomic_compare_exchange_strong_explicit(&w[0], &v, v | LOCKBIT, memory_order_acquire, memory_order_relaxed))
            continue;
        uint64_t before = atomic_load(&proto.revoked);
        if (!gls_lease_revoke(&proto, w, OWNER, v | LOCKBIT))
            continue;   /* the owner's plain update took the bit back */
        other_revoked += atomic_load(&proto.revoked) != before;
        atomic_store_explicit(&w[1], atomic_load_explicit(&w[1], memory_order_relaxed) + 1, memory_order_relaxed);
        atomic_store_explicit(&w[0], v + 8, memory_order_release);
        atomic_fetch_add(&other_updates, 1);
        for (int i = 0; i < 200; i++)   /* (let the owner sweep again) */
            __asm__ volatile("" ::: "memory");
    }
    return NULL;
}

/* No update is lost while one thread plain-updates under its lease and
 * another takes the bit and revokes it, round after round. */
CASE(lease_protocol_loses_no_update) {
    proto.on = goldi_os_membarrier_register();
    if (!proto.on) {
        printf("  (membarrier refused: nothing is leased, nothing to test)\n");
        return;
    }
    struct gls_lease_thr lo = { 0 }, lt = { 0 };
    gls_lease_thread_start(&proto, &lo, OWNER);
    gls_lease_thread_start(&proto, &lt, OTHER);
    EXPECT(lo.holder && lt.holder && lo.holder != lt.holder);
    pthread_t a, b;
    pthread_create(&a, NULL, owner_thread, &lo);
    pthread_create(&b, NULL, other_thread, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    long other = atomic_load(&other_updates);
    EXPECT_EQ((long)atomic_load(&rec[1]), owner_updates + other);
    EXPECT(owner_leased > 0);                   /* the plain path ran ... */
    EXPECT(other >= OTHER_MIN);                 /* ... and the other thread's updates came in between, */
    EXPECT(other_revoked > 0);                  /* revoking the lease */
    if (eh_verbose)
        printf("  leased %ld, other %ld, revoked %ld, taken %llu\n", owner_leased, other, other_revoked,
               (unsigned long long)atomic_load(&proto.taken));
    gls_lease_thread_end(&proto, &lo);
    gls_lease_thread_end(&proto, &lt);
    EXPECT_EQ(lo.n, 0);
}

/* A lease lasts one epoch, and only a sweep takes one. */
CASE(lease_taken_by_a_sweep_in_one_epoch) {
    struct gls_leases *L = calloc(1, sizeof *L);
    L->on = true;
    struct gls_lease_thr lt = { 0 };
    gls_lease_thread_start(L, &lt, 7);
    goldi_shadow_word_t *w = rec;
    for (uint64_t epoch = 1; epoch <= 10; epoch++)   /* fewer than GLS_LEASE_WARMUP + AFTER an epoch */
        for (int i = 0; i < GLS_LEASE_WARMUP + GLS_LEASE_AFTER - 1; i++)
            gls_lease_note(L, &lt, w, epoch);
    EXPECT_EQ(lt.n, 0);
    EXPECT(!gls_lease_enter(L, &lt, w));
    for (int i = 0; i < GLS_LEASE_WARMUP + GLS_LEASE_AFTER; i++)
        gls_lease_note(L, &lt, w, 11);
    EXPECT_EQ(lt.n, 1);
    EXPECT_EQ(atomic_load(&L->live), 1);
    EXPECT(gls_lease_enter(L, &lt, w));
    EXPECT_EQ(atomic_load(lt.busy), gls_lease_block(w) + 1);   /* busy while it updates */
    gls_lease_done(&lt);
    EXPECT_EQ(atomic_load(lt.busy), 0);
    EXPECT(gls_lease_enter(L, &lt, w + (1u << (GLS_LEASE_SHIFT - 3)) - 1));   /* the block's last word */
    gls_lease_done(&lt);
    EXPECT(!gls_lease_enter(L, &lt, w + (1u << (GLS_LEASE_SHIFT - 3))));      /* the next block's */
    EXPECT_EQ(atomic_load(lt.busy), 0);
    gls_lease_release_all(L, &lt);
    EXPECT_EQ(lt.n, 0);
    EXPECT_EQ(atomic_load(&L->live), 0);
    EXPECT(!gls_lease_enter(L, &lt, w));
    gls_lease_fork_child(L);
    gls_lease_thread_end(L, &lt);
    free(L);
}

/* --- the engine: verdicts with leases ------------------------------------------------------- */

static struct eh_log gls_log = EH_LOG_INIT(true);
static struct goldi_sink *gls_sink;
static uint64_t stat_of(const char *name) { return eh_stat(gls_sink, name); }

enum { SWEEP = 4096 };   /* granules: 32 KiB of memory, four blocks' worth of records */

/* A thread's sweep takes leases; another thread's write in the middle of
 * it, unordered, revokes the lease and is a race; the owner's next write
 * there races with it in turn. */
CASE(goldilocks_lease_revoked_by_a_racing_write) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    char *a = var(8 * SWEEP);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < SWEEP; i++)
        wr(3, T1, a + 8 * i);
    acq(7, T1, L); rel(7, T1, L);   /* (reads in the write's epoch would record nothing: read_covered) */
    uint64_t taken = stat_of("goldilocks.leases_taken"), leased = stat_of("goldilocks.inline_leased_updates");
    uint64_t revoked = stat_of("goldilocks.leases_revoked");
    for (int i = 0; i < SWEEP; i++)   /* (updates of the records, under the leases) */
        rd(4, T1, a + 8 * i);
    EXPECT(stat_of("goldilocks.leases_taken") > taken);
    EXPECT(stat_of("goldilocks.inline_leased_updates") > leased + SWEEP / 2);
    EXPECT_EQ(gls_log.n, 0);
    wr(5, T2, a + 8 * (SWEEP - 100));
    EXPECT(stat_of("goldilocks.leases_revoked") > revoked);
    EXPECT_EQ(races_at(&gls_log, 5), 2);   /* (with T1's write and with its read) */
    rd(6, T1, a + 8 * (SWEEP - 100));
    EXPECT_EQ(races_at(&gls_log, 6), 1);
    end();
}

/* The same sweep, released before the other thread's access: no race, and
 * no revocation (the leases went back at T1's release). */
CASE(goldilocks_lease_released_at_sync) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *a = var(8 * SWEEP);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    uint64_t revoked = stat_of("goldilocks.leases_revoked");
    acq(3, T1, L);
    for (int i = 0; i < SWEEP; i++)
        wr(4, T1, a + 8 * i);
    for (int i = 0; i < SWEEP; i++)
        wr(5, T1, a + 8 * i);
    rel(6, T1, L);
    acq(7, T2, L);
    for (int i = 0; i < SWEEP; i += 7)
        wr(8, T2, a + 8 * i);
    rel(9, T2, L);
    EXPECT_EQ(gls_log.n, 0);
    EXPECT_EQ(stat_of("goldilocks.leases_revoked"), revoked);
    for (int i = 0; i < SWEEP; i += 5)   /* T0 never synchronised with either: races */
        rd(10, T0, a + 8 * i);
    EXPECT(races_at(&gls_log, 10) > 0);
    end();
}

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    RUN(lease_protocol_loses_no_update);
    RUN(lease_taken_by_a_sweep_in_one_epoch);
    gls_sink = eh_start(&goldi_engine_goldilocks, &gls_log);
    RUN(goldilocks_lease_revoked_by_a_racing_write);
    RUN(goldilocks_lease_released_at_sync);
    return harness_summary();
}

/* The goldilocks engine's shortcut for the runtime's plain accesses
 * (goldi_sink.on_access_fast: the lock-free paths, taken only while the
 * engine is the only sink, hence this process of its own), on the granule
 * forms whose lock-free tests read the shadow words as numbers. */
#include "harness.h"
#include "engine_harness.h"

static struct eh_log gls_log = EH_LOG_INIT(true);
static struct goldi_sink *gls_sink;
static uint64_t stat_of(const char *name) { return eh_stat(gls_sink, name); }

/* A plain access as the runtime delivers it: the shortcut when the
 * dispatcher has one (it does here), else an event. */
static void acc_live(int l, enum goldi_event_kind k, struct goldi_thr *t, void *p, uint32_t n) {
    struct goldi_event ev = mk(l, k, t);
    ev.addr = (uintptr_t)p;
    ev.size = n;
    goldi_dispatch_as_live(&ev);
}
static void rd_live(int l, struct goldi_thr *t, void *p) { acc_live(l, GOLDI_EV_READ, t, p, 8); }
static void wr_live(int l, struct goldi_thr *t, void *p) { acc_live(l, GOLDI_EV_WRITE, t, p, 8); }

/* A readers' run (a W and four R in the granule's words): a reader's
 * second read in its epoch is kept without the lock; a read in a later
 * epoch is not (its R moves to the new epoch, as the write after it
 * shows); a write is never kept. */
CASE(goldilocks_fast_readers_run) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T[4];
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    for (int i = 0; i < 4; i++)
        T[i] = thr_new();
    char *x = var(8);
    wr_live(1, T0, x);
    for (int i = 0; i < 4; i++)
        fork_(2, T0, T[i]);
    uint64_t ex0 = stat_of("goldilocks.packed_expansions");
    for (int i = 0; i < 4; i++)
        rd_live(3, T[i], x);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);
    uint64_t kept0 = stat_of("goldilocks.records_kept_lockfree");
    for (int i = 0; i < 4; i++)
        rd_live(3, T[i], x);
    EXPECT_EQ(stat_of("goldilocks.records_kept_lockfree"), kept0 + 4);
    acq(4, T[0], L); rel(5, T[0], L);   /* T[0]'s next epoch */
    rd_live(3, T[0], x);
    EXPECT_EQ(stat_of("goldilocks.records_kept_lockfree"), kept0 + 4);
    EXPECT_EQ(gls_log.n, 0);
    acq(6, T0, L); rel(7, T0, L);       /* after T[0]'s first read, before its second */
    wr_live(8, T0, x);
    EXPECT_EQ(races_at(&gls_log, 8), 4);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);
    end();
}

enum { SWEEP = 4096 };   /* granules: 32 KiB of memory, four lease blocks' worth of records */

/* A vectorised sweep: T1 writes an array 16 bytes at a time; in its next
 * epoch it reads every other granule alone, then reads it all 16 bytes at
 * a time (under T1's leases, so the shortcut takes both granules of an
 * access at once, one of them already read this epoch), then once more
 * (both kept). T2, unordered, writes 16 bytes in the middle; T1 reads them
 * again. Races at labels 6 and 7 go in *at6, *at7; live: through the
 * runtime's shortcut (on_access_fast), else as events, which take the
 * granules one at a time. */
static void sweep_in_pairs(bool live, int *at6, int *at7) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8 * SWEEP);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < SWEEP; i += 2)
        a(3, GOLDI_EV_WRITE, T1, x + 8 * i, 16);
    acq(8, T1, L); rel(8, T1, L);   /* (reads in the write's epoch would record nothing: read_covered) */
    uint64_t leased = stat_of("goldilocks.inline_leased_updates"), kept = stat_of("goldilocks.records_kept");
    for (int i = 0; i < SWEEP; i += 2)
        a(4, GOLDI_EV_READ, T1, x + 8 * i, 8);
    for (int i = 0; i < SWEEP; i += 2)
        a(5, GOLDI_EV_READ, T1, x + 8 * i, 16);
    for (int i = 0; i < SWEEP; i += 2)
        a(5, GOLDI_EV_READ, T1, x + 8 * i, 16);
    EXPECT(stat_of("goldilocks.inline_leased_updates") > leased + SWEEP * 3 / 4);   /* (the reads: 2 x SWEEP / 2) */
    EXPECT(stat_of("goldilocks.records_kept") >= kept + SWEEP / 2);
    EXPECT_EQ(gls_log.n, 0);
    a(6, GOLDI_EV_WRITE, T2, x + 8 * (SWEEP - 100), 16);
    a(7, GOLDI_EV_READ, T1, x + 8 * (SWEEP - 100), 16);
    *at6 = races_at(&gls_log, 6);
    *at7 = races_at(&gls_log, 7);
    end();
}

/* The shortcut's pairs give the verdicts the one-granule path gives: T2's
 * write races with T1's write and read, T1's read with T2's write. */
CASE(goldilocks_fast_pairs_under_lease) {
    int live6, live7, ev6, ev7;
    sweep_in_pairs(true, &live6, &live7);
    sweep_in_pairs(false, &ev6, &ev7);
    EXPECT(live6 >= 2);
    EXPECT(live7 >= 1);
    EXPECT_EQ(live6, ev6);
    EXPECT_EQ(live7, ev7);
}

/* Epochs' first touches in pairs (stencil's and lu's sweeps), which past
 * the lease's warm-up the shortcut takes as one unit (pair_lean). T1
 * writes an array 16 bytes at a time, reads it so in a second epoch, and
 * T2 then orders itself after both. In a third epoch T1 reads the first
 * half so, and reads, writes and reads again the second (the last read
 * covered by the write: nothing recorded). T2's accesses, each on a
 * granule of its own, race with what the third epoch left exactly: a
 * stale record (an update not made, or a stale one taken as kept) would
 * look ordered, and a read a write did not drop would race once more. The races at labels 13-18 go in at[]; live: through the
 * shortcut, else as events (one granule at a time). */
enum { PAIR_LABELS = 6 };
static void pairs_epoch_by_epoch(bool live, int at[PAIR_LABELS]) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8 * SWEEP), *half = x + 8 * (SWEEP / 2);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < SWEEP; i += 2)
        a(3, GOLDI_EV_WRITE, T1, x + 8 * i, 16);
    acq(4, T1, L); rel(5, T1, L);
    for (int i = 0; i < SWEEP; i += 2)
        a(6, GOLDI_EV_READ, T1, x + 8 * i, 16);
    acq(7, T1, L); rel(8, T1, L);
    acq(9, T2, L); rel(10, T2, L);
    uint64_t leased = stat_of("goldilocks.inline_leased_updates");
    for (int i = 0; i < SWEEP / 2; i += 2)
        a(11, GOLDI_EV_READ, T1, x + 8 * i, 16);
    for (int k = GOLDI_EV_READ, r = 0; r < 3; r++, k = k == GOLDI_EV_WRITE ? GOLDI_EV_READ : GOLDI_EV_WRITE)
        for (int i = 0; i < SWEEP / 2; i += 2)
            a(12, (enum goldi_event_kind)k, T1, half + 8 * i, 16);
    EXPECT(stat_of("goldilocks.inline_leased_updates") > leased + SWEEP * 5 / 4);
    EXPECT_EQ(gls_log.n, 0);
    a(13, GOLDI_EV_WRITE, T2, x + 8 * 100, 8);        /* a first granule of T1's reads */
    a(14, GOLDI_EV_WRITE, T2, x + 8 * 203, 8);        /* a second one */
    a(15, GOLDI_EV_READ, T2, half + 8 * 100, 8);      /* a first granule of T1's writes */
    a(16, GOLDI_EV_WRITE, T2, half + 8 * 300, 8);     /* another (T1's read before its write: dropped) */
    a(17, GOLDI_EV_READ, T2, half + 8 * 403, 8);      /* a second one */
    a(18, GOLDI_EV_WRITE, T2, half + 8 * 505, 8);     /* another */
    for (int l = 0; l < PAIR_LABELS; l++)
        at[l] = races_at(&gls_log, 13 + l);
    end();
}

CASE(goldilocks_fast_pairs_epoch_by_epoch) {
    int live[PAIR_LABELS], ev[PAIR_LABELS];
    pairs_epoch_by_epoch(true, live);
    pairs_epoch_by_epoch(false, ev);
    for (int l = 0; l < PAIR_LABELS; l++) {
        EXPECT_EQ(live[l], 1);   /* (one race each: with T1's last access of the kind that conflicts) */
        EXPECT_EQ(ev[l], 1);
    }
}

/* Half records (a granule's 4-byte halves with a history each: xz's match
 * finder rewrites one element of its tree at a time). T1 writes the low
 * halves of an array in one epoch and the high halves in the next, then in
 * a third writes the low halves and reads the high ones, twice (the second
 * pass kept, without the lock). T2 orders itself after that epoch; T1, in
 * a fourth, writes and reads a few halves again. T2's accesses race exactly
 * with the fourth epoch's: a half taken as kept with a stale pos would
 * look ordered. The races at labels 10-14 go in at[]; live: through the
 * shortcut, else as events. */
enum { HALF_LABELS = 5 };
static void halves_epoch_by_epoch(bool live, int at[HALF_LABELS]) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8 * SWEEP);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < SWEEP; i++)
        a(3, GOLDI_EV_WRITE, T1, x + 8 * i, 4);
    acq(4, T1, L); rel(4, T1, L);
    uint64_t halves = stat_of("goldilocks.inline_half_records");
    for (int i = 0; i < SWEEP; i++)
        a(5, GOLDI_EV_WRITE, T1, x + 8 * i + 4, 4);
    EXPECT_EQ(stat_of("goldilocks.inline_half_records"), halves + SWEEP);
    acq(6, T1, L); rel(6, T1, L);
    uint64_t leased = stat_of("goldilocks.inline_leased_updates");
    for (int pass = 0; pass < 2; pass++) {
        uint64_t kept = stat_of("goldilocks.records_kept");
        for (int i = 0; i < SWEEP; i++) {
            a(7, GOLDI_EV_WRITE, T1, x + 8 * i, 4);
            a(7, GOLDI_EV_READ, T1, x + 8 * i + 4, 4);
        }
        if (pass)
            EXPECT_EQ(stat_of("goldilocks.records_kept"), kept + 2 * SWEEP);
    }
    if (live)   /* (the event path takes the lock for each update) */
        EXPECT(stat_of("goldilocks.inline_leased_updates") > leased + SWEEP);
    acq(8, T1, L); rel(8, T1, L);
    acq(9, T2, L); rel(9, T2, L);
    a(10, GOLDI_EV_WRITE, T1, x + 8 * 100, 4);
    a(10, GOLDI_EV_READ, T1, x + 8 * 200 + 4, 4);
    a(10, GOLDI_EV_WRITE, T1, x + 8 * 300 + 4, 4);
    EXPECT_EQ(gls_log.n, 0);
    a(10, GOLDI_EV_WRITE, T2, x + 8 * 100, 4);       /* T1's fourth epoch's write */
    a(11, GOLDI_EV_WRITE, T2, x + 8 * 200 + 4, 4);   /* its read (the write before is ordered) */
    a(12, GOLDI_EV_READ, T2, x + 8 * 300 + 4, 4);    /* its write */
    a(13, GOLDI_EV_WRITE, T2, x + 8 * 400, 4);       /* the third epoch's write: ordered */
    a(14, GOLDI_EV_READ, T2, x + 8 * 500 + 4, 4);    /* the second epoch's write: ordered */
    for (int l = 0; l < HALF_LABELS; l++)
        at[l] = races_at(&gls_log, 10 + l);
    end();
}

CASE(goldilocks_fast_halves_epoch_by_epoch) {
    int live[HALF_LABELS], ev[HALF_LABELS];
    halves_epoch_by_epoch(true, live);
    halves_epoch_by_epoch(false, ev);
    for (int l = 0; l < HALF_LABELS; l++) {
        EXPECT_EQ(live[l], l < 3);
        EXPECT_EQ(ev[l], l < 3);
    }
}

/* Solo runs: one thread's accesses of 1 and 2 bytes to a granule, one
 * per epoch (xz reads its dictionary 1, 2 and 4 bytes at a time from every
 * offset), make several entries of that thread alone, which the granule
 * keeps in its own words, up to eight (no pool entry). T1 does so on
 * granules x and y; an access a run holds is kept without the lock. In a
 * fifth epoch T1 reads each byte of x by a statement of its own (nine
 * entries: x goes to the pool), and reads two bytes of y again and writes
 * two single ones (six entries: y stays a run). z is made a run of six
 * 1-byte reads and writes in the four epochs; in the fifth T1 reads byte
 * 6 by the statement that read byte 3 in the fourth (a cell of its own:
 * another epoch), reads byte 7 by the same (it joins that cell) and
 * writes byte 1, each in place (solo_inplace). T2, ordered after the
 * fourth epoch, then races exactly with the fifth epoch's accesses. The
 * races at labels 20-29 go in at[]; live: through the shortcut, else as
 * events. */
enum { SOLO_LABELS = 10 };
static void solo_runs(bool live, int at[SOLO_LABELS]) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8), *y = var(8), *z = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    uint64_t live0 = stat_of("goldilocks.entries_live");
    for (int e = 0; e < 4; e++) {   /* bytes 0-1 read, 2-3 read, 4-5 written, 6-7 read: an epoch each */
        enum goldi_event_kind k = e == 2 ? GOLDI_EV_WRITE : GOLDI_EV_READ;
        a(3 + e, k, T1, x + 2 * e, 2);
        a(3 + e, k, T1, y + 2 * e, 2);
        a(40 + e, k, T1, z + e, 1);   /* z: bytes 0-3 (byte 2 written), then 4 and 5 in the fourth */
        if (e == 3) {
            a(44, GOLDI_EV_READ, T1, z + 4, 1);
            a(45, GOLDI_EV_READ, T1, z + 5, 1);
        }
        if (e < 3) {
            acq(7, T1, L); rel(7, T1, L);
        }
    }
    EXPECT_EQ(stat_of("goldilocks.entries_live"), live0);   /* (no pool entry) */
    uint64_t kept = stat_of("goldilocks.records_kept_lockfree");
    a(6, GOLDI_EV_READ, T1, y + 6, 2);
    a(5, GOLDI_EV_WRITE, T1, y + 4, 2);
    if (live)
        EXPECT_EQ(stat_of("goldilocks.records_kept_lockfree"), kept + 1);   /* (the write is of the third epoch) */
    acq(8, T1, L); rel(8, T1, L);
    acq(9, T2, L); rel(9, T2, L);
    for (int i = 0; i < 8; i++)
        a(30 + i, GOLDI_EV_READ, T1, x + i, 1);
    a(13, GOLDI_EV_READ, T1, y + 2, 2);
    a(14, GOLDI_EV_WRITE, T1, y, 1);
    a(15, GOLDI_EV_WRITE, T1, y + 7, 1);
    a(43, GOLDI_EV_READ, T1, z + 6, 1);
    a(43, GOLDI_EV_READ, T1, z + 7, 1);
    a(46, GOLDI_EV_WRITE, T1, z + 1, 1);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), live0 + 9);   /* (x's; y still a run) */
    EXPECT_EQ(gls_log.n, 0);
    a(20, GOLDI_EV_READ, T2, x + 4, 1);    /* T1's write of the third epoch: ordered */
    a(21, GOLDI_EV_WRITE, T2, x, 1);       /* T1's read of the fifth */
    a(22, GOLDI_EV_WRITE, T2, y + 3, 1);   /* T1's read of the fifth */
    a(23, GOLDI_EV_WRITE, T2, y + 6, 1);   /* T1's read of the fourth: ordered */
    a(24, GOLDI_EV_READ, T2, y + 4, 1);    /* T1's write of the third: ordered */
    a(25, GOLDI_EV_READ, T2, y + 7, 1);    /* T1's write of the fifth */
    a(26, GOLDI_EV_WRITE, T2, y + 1, 1);   /* T1's read of the first: ordered */
    a(27, GOLDI_EV_WRITE, T2, z + 6, 1);   /* T1's read of the fifth (not the fourth's cell) */
    a(28, GOLDI_EV_WRITE, T2, z + 7, 1);   /* T1's read of the fifth, joined with it */
    a(29, GOLDI_EV_READ, T2, z + 1, 1);    /* T1's write of the fifth */
    for (int l = 0; l < SOLO_LABELS; l++)
        at[l] = races_at(&gls_log, 20 + l);
    end();
}

CASE(goldilocks_fast_solo_runs) {
    int live[SOLO_LABELS], ev[SOLO_LABELS];
    solo_runs(true, live);
    solo_runs(false, ev);
    for (int l = 0; l < SOLO_LABELS; l++) {
        EXPECT_EQ(live[l], l == 1 || l == 2 || l == 5 || l >= 7);
        EXPECT_EQ(ev[l], l == 1 || l == 2 || l == 5 || l >= 7);
    }
}

/* For the n labels from `first`: the races found there (at[]) and their
 * partners' labels, as bits from label `low` (prev[]). */
static void races_and_partners(int first, int n, int low, int *at, unsigned *prev) {
    for (int l = 0; l < n; l++) {
        at[l] = races_at(&gls_log, first + l);
        prev[l] = partners_at(&gls_log, first + l, low);
    }
}

/* A solo run of two to four cells, updated in place by its owner: one
 * thread's entries stay a run whatever their count, so its updates take
 * solo_inplace instead of the general rule. T1 reads x's bytes 0-1 and
 * 2-3 by two statements (two cells), then, in its next epoch, which T2 is
 * not ordered after: writes bytes 4-7; reads 0-1 by the statement that
 * read 2-3 (a cell of its own: another epoch); reads 2-3 by another (its
 * R there moves to the epoch); reads byte 5 (covered by its W: nothing
 * recorded); writes byte 1 (R 0-1 loses it); writes 4-5 by another
 * statement (kept: the W on 4-7 stays); reads 6-7 (covered); writes byte
 * 3, and byte 2 by the statement that wrote byte 1 (it joins that cell).
 * Each race T2 then finds must name exactly the statements left. y: two
 * cells whose write over both folds back into an inline record of T1,
 * kept on its repeat. Labels 20-27: race counts in at[], their partners'
 * labels in prev[]; live: through the shortcut, else as events (the
 * general rule). */
enum { SMALL_LABELS = 8 };
#define SMALL_PARTNER(label) (1u << ((label) - 10))   /* (labels 10-41) */
static void solo_small(bool live, int at[SMALL_LABELS], unsigned prev[SMALL_LABELS]) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8), *y = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    a(10, GOLDI_EV_READ, T1, x, 2);
    a(11, GOLDI_EV_READ, T1, x + 2, 2);
    a(30, GOLDI_EV_READ, T1, y, 2);
    a(31, GOLDI_EV_READ, T1, y + 2, 2);
    acq(3, T1, L); rel(3, T1, L);
    acq(4, T2, L); rel(4, T2, L);   /* T2: after T1's first epoch only */
    uint64_t live0 = stat_of("goldilocks.entries_live"), contracted = stat_of("goldilocks.packed_contractions");
    a(12, GOLDI_EV_WRITE, T1, x + 4, 4);
    a(11, GOLDI_EV_READ, T1, x, 2);
    a(13, GOLDI_EV_READ, T1, x + 2, 2);
    a(15, GOLDI_EV_READ, T1, x + 5, 1);
    a(16, GOLDI_EV_WRITE, T1, x + 1, 1);
    a(17, GOLDI_EV_WRITE, T1, x + 4, 2);
    a(18, GOLDI_EV_READ, T1, x + 6, 2);
    a(19, GOLDI_EV_WRITE, T1, x + 3, 1);
    a(16, GOLDI_EV_WRITE, T1, x + 2, 1);
    a(32, GOLDI_EV_WRITE, T1, y, 4);
    EXPECT_EQ(stat_of("goldilocks.packed_contractions"), contracted + 1);   /* (y) */
    uint64_t kept = stat_of("goldilocks.records_kept");
    a(33, GOLDI_EV_WRITE, T1, y, 4);
    EXPECT_EQ(stat_of("goldilocks.records_kept"), kept + 1);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), live0);   /* (no pool entry) */
    EXPECT_EQ(gls_log.n, 0);
    a(20, GOLDI_EV_WRITE, T2, x, 1);       /* 11 */
    a(21, GOLDI_EV_WRITE, T2, x + 1, 1);   /* 16 */
    a(22, GOLDI_EV_READ, T2, x + 2, 1);    /* 16 */
    a(23, GOLDI_EV_WRITE, T2, x + 3, 1);   /* 19 */
    a(24, GOLDI_EV_READ, T2, x + 5, 1);    /* 12 */
    a(25, GOLDI_EV_WRITE, T2, x + 6, 1);   /* 12 */
    a(26, GOLDI_EV_READ, T2, y + 1, 1);    /* 32 */
    a(27, GOLDI_EV_READ, T2, y + 5, 1);    /* none */
    races_and_partners(20, SMALL_LABELS, 10, at, prev);
    end();
}

CASE(goldilocks_fast_solo_small) {
#define P SMALL_PARTNER
    static const unsigned want[SMALL_LABELS] = { P(11), P(16), P(16), P(19), P(12), P(12), P(32), 0 };
#undef P
    int live[SMALL_LABELS], ev[SMALL_LABELS];
    unsigned live_prev[SMALL_LABELS], ev_prev[SMALL_LABELS];
    solo_small(true, live, live_prev);
    solo_small(false, ev, ev_prev);
    for (int l = 0; l < SMALL_LABELS; l++) {
        EXPECT_EQ(live[l], __builtin_popcount(want[l]));
        EXPECT_EQ(ev[l], __builtin_popcount(want[l]));
        EXPECT_EQ(live_prev[l], want[l]);
        EXPECT_EQ(ev_prev[l], want[l]);
    }
}

/* Covered reads (read_covered): a thread's read of bytes its own W of the
 * same epoch covers records nothing, in every granule form: an inline
 * record (i), a half record whose high half is from the epoch and low half
 * from the one before (h: the low half's read is recorded), three cells
 * with another thread's R (p), a solo run (s), pool entries made under
 * locks by two threads (e), and a pair (q, 16 bytes). T2, ordered after
 * T1's first epoch only, then writes a byte of each: a covered read leaves
 * one race there (with the W), a recorded one two. Another thread's W
 * covers nothing: T3's reads of T1's bytes in three cells (p) and in a
 * mixed run (m), unordered, race. Nor does a W of an earlier epoch: T1's
 * read of j, written in its first epoch, is recorded. Labels 60-70: race
 * counts in at[], partners' labels in prev[] (bits from label 36). */
enum { COVER_LABELS = 11 };
#define COVER_PARTNER(label) (1u << ((label) - 36))   /* (labels 36-59) */
static void covered_reads(bool live, int at[COVER_LABELS], unsigned prev[COVER_LABELS]) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX), *N = sync_new(GOLDI_SYNC_MUTEX);
    char *i = var(8), *h = var(8), *p = var(8), *s = var(8), *e = var(8), *q = var(16), *m = var(8), *j = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    acq(6, T3, N);   /* (T3's epoch starts before T1's second: T1's W there is of no earlier pos) */
    a(55, GOLDI_EV_READ, T3, e + 4, 1);
    a(56, GOLDI_EV_READ, T3, e + 6, 1);
    rel(6, T3, N);
    a(40, GOLDI_EV_WRITE, T1, h, 4);
    a(36, GOLDI_EV_WRITE, T1, j, 8);
    a(41, GOLDI_EV_READ, T1, s, 2);
    a(42, GOLDI_EV_READ, T1, s + 2, 2);
    acq(4, T1, L); rel(4, T1, L);
    acq(5, T2, L); rel(5, T2, L);   /* T2: after T1's first epoch only */
    uint64_t live0 = stat_of("goldilocks.entries_live");
    a(43, GOLDI_EV_WRITE, T1, i, 8);
    a(37, GOLDI_EV_READ, T1, j, 8);        /* (the W is of T1's first epoch) */
    a(44, GOLDI_EV_READ, T1, i, 8);
    a(44, GOLDI_EV_READ, T1, i + 2, 2);
    a(45, GOLDI_EV_WRITE, T1, h + 4, 4);   /* a half record: the high half from this epoch */
    a(46, GOLDI_EV_READ, T1, h + 4, 4);    /* covered */
    a(47, GOLDI_EV_READ, T1, h, 4);        /* the low half's W is older: recorded */
    a(48, GOLDI_EV_WRITE, T1, p + 4, 4);
    a(48, GOLDI_EV_WRITE, T1, m + 4, 4);
    a(51, GOLDI_EV_WRITE, T1, s + 4, 4);   /* a solo run of three cells */
    a(52, GOLDI_EV_READ, T1, s + 5, 2);
    a(53, GOLDI_EV_WRITE, T1, q, 16);
    a(54, GOLDI_EV_READ, T1, q, 16);
    a(49, GOLDI_EV_READ, T3, p, 1);        /* (no conflict: cells of two threads) */
    a(50, GOLDI_EV_READ, T1, p + 4, 2);
    a(49, GOLDI_EV_READ, T3, m, 1);
    a(55, GOLDI_EV_READ, T3, m + 1, 1);
    a(56, GOLDI_EV_READ, T3, m + 2, 1);    /* (four cells of two threads: a mixed run) */
    acq(7, T1, M);
    a(57, GOLDI_EV_WRITE, T1, e, 1);
    a(58, GOLDI_EV_WRITE, T1, e + 2, 1);   /* four entries with alocks, of two threads: the pool */
    a(59, GOLDI_EV_READ, T1, e, 1);
    rel(7, T1, M);
    EXPECT(stat_of("goldilocks.entries_live") >= live0 + 4);
    EXPECT_EQ(gls_log.n, 0);
    a(60, GOLDI_EV_WRITE, T2, i + 3, 1);
    a(61, GOLDI_EV_WRITE, T2, h + 5, 1);
    a(62, GOLDI_EV_WRITE, T2, h + 1, 1);
    a(63, GOLDI_EV_WRITE, T2, p + 5, 1);
    a(64, GOLDI_EV_WRITE, T2, s + 6, 1);
    a(65, GOLDI_EV_WRITE, T2, e, 1);
    a(66, GOLDI_EV_WRITE, T2, q + 3, 1);
    a(67, GOLDI_EV_WRITE, T2, q + 12, 1);
    a(68, GOLDI_EV_READ, T3, p + 6, 1);
    a(69, GOLDI_EV_READ, T3, m + 6, 1);
    a(70, GOLDI_EV_WRITE, T2, j + 1, 1);
    races_and_partners(60, COVER_LABELS, 36, at, prev);
    end();
}

CASE(goldilocks_fast_covered_reads) {
#define P COVER_PARTNER
    static const unsigned want[COVER_LABELS] = { P(43), P(45), P(47), P(48), P(51), P(57), P(53), P(53), P(48), P(48), P(37) };
#undef P
    int live[COVER_LABELS], ev[COVER_LABELS];
    unsigned live_prev[COVER_LABELS], ev_prev[COVER_LABELS];
    covered_reads(true, live, live_prev);
    covered_reads(false, ev, ev_prev);
    for (int l = 0; l < COVER_LABELS; l++) {
        EXPECT_EQ(live[l], 1);
        EXPECT_EQ(ev[l], 1);
        EXPECT_EQ(live_prev[l], want[l]);
        EXPECT_EQ(ev_prev[l], want[l]);
    }
}

/* A mixed run: three threads' writes to bytes of their own in one granule
 * and a read of the first thread's (zstd's job buffers: three W and an R
 * were two thirds of its expansions) stay in the granule's words, and a
 * thread's repeat of its write is kept without the lock. T4, ordered after
 * none of them, races with each write and the read it overlaps; T5,
 * ordered after T3's write, does not race with it. The races at labels
 * 60-64 go in at[]; live: through the shortcut, else as events. */
enum { MIXED_LABELS = 5 };
static void mixed_run(bool live, int at[MIXED_LABELS]) {
    void (*a)(int, enum goldi_event_kind, struct goldi_thr *, void *, uint32_t) = live ? acc_live : acc;
    begin();
    struct goldi_thr *T0 = thr_new(), *T[6];
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    for (int i = 1; i <= 5; i++)
        T[i] = thr_new();
    for (int i = 1; i <= 5; i++)
        fork_(1, T0, T[i]);
    char *m = var(8);
    uint64_t live0 = stat_of("goldilocks.entries_live");
    a(50, GOLDI_EV_WRITE, T[1], m, 2);
    a(51, GOLDI_EV_WRITE, T[2], m + 2, 2);
    a(52, GOLDI_EV_WRITE, T[3], m + 4, 2);
    a(53, GOLDI_EV_READ, T[1], m + 6, 2);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), live0);   /* (no pool entry) */
    uint64_t kept = stat_of("goldilocks.records_kept_lockfree");
    a(51, GOLDI_EV_WRITE, T[2], m + 2, 2);
    if (live)
        EXPECT_EQ(stat_of("goldilocks.records_kept_lockfree"), kept + 1);
    acq(54, T[3], L); rel(54, T[3], L);
    acq(55, T[5], L); rel(55, T[5], L);
    EXPECT_EQ(gls_log.n, 0);
    a(60, GOLDI_EV_WRITE, T[4], m + 3, 1);   /* T2's write */
    a(61, GOLDI_EV_READ, T[4], m + 6, 1);    /* T1's read: none */
    a(62, GOLDI_EV_WRITE, T[4], m + 7, 1);   /* T1's read */
    a(63, GOLDI_EV_READ, T[4], m, 1);        /* T1's write */
    a(64, GOLDI_EV_WRITE, T[5], m + 4, 1);   /* T3's write: ordered */
    for (int l = 0; l < MIXED_LABELS; l++)
        at[l] = races_at(&gls_log, 60 + l);
    end();
}

CASE(goldilocks_fast_mixed_run) {
    int live[MIXED_LABELS], ev[MIXED_LABELS];
    mixed_run(true, live);
    mixed_run(false, ev);
    for (int l = 0; l < MIXED_LABELS; l++) {
        EXPECT_EQ(live[l], l != 1 && l != 4);
        EXPECT_EQ(ev[l], l != 1 && l != 4);
    }
}

/* eh_example_free_forms through the engine's FREE shortcut (on_free_fast:
 * one pass that checks and resets each granule, inline records of another
 * thread settled by an earlier walk's verdict without the general check);
 * test_goldilocks runs it through the dispatcher's pieces and the reset
 * after them. */
CASE(goldilocks_fast_free_fused) {
    uint64_t cached0 = stat_of("goldilocks.cached_verdicts");
    eh_example_free_forms();
    EXPECT_EQ(races_at(&gls_log, 40), 4);
    EXPECT_EQ(partners_at(&gls_log, 40, 10), 1u << 21 | 1u << 22 | 1u << 23 | 1u << 24);   /* (31-34) */
    EXPECT_EQ(races_at(&gls_log, 50), 0);
    EXPECT_EQ(gls_log.n, 4);
    EXPECT(stat_of("goldilocks.cached_verdicts") >= cached0 + 400);
    end();
}

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    gls_sink = eh_start(&goldi_engine_goldilocks, &gls_log);
    RUN(goldilocks_fast_readers_run);
    RUN(goldilocks_fast_pairs_under_lease);
    RUN(goldilocks_fast_pairs_epoch_by_epoch);
    RUN(goldilocks_fast_halves_epoch_by_epoch);
    RUN(goldilocks_fast_solo_runs);
    RUN(goldilocks_fast_solo_small);
    RUN(goldilocks_fast_covered_reads);
    RUN(goldilocks_fast_mixed_run);
    RUN(goldilocks_fast_free_fused);
    return harness_summary();
}

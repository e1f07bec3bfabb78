/* Unit tests of event/: hb lowering, dispatch (granule split, held locks,
 * barrier generations), origins and the sync-object table. */
#include <string.h>

#include "harness.h"
#include "event/event.h"
#include "event/sync.h"

/* A recording sink. */
#define MAX_REC 64
static struct { uintptr_t addr; unsigned size; } pieces[MAX_REC];
static int n_pieces, n_events;
static void rec_access(void *self, const struct goldi_event *ev, uintptr_t a, unsigned n) {
    if (n_pieces < MAX_REC) {
        pieces[n_pieces].addr = a;
        pieces[n_pieces].size = n;
    }
    n_pieces++;
}
static void rec_event(void *self, const struct goldi_event *ev) { n_events++; }
static struct goldi_sink sink = { .name = "rec", .on_access = rec_access, .on_event = rec_event };

static struct goldi_thr t0 = { .tid = 0 }, t1 = { .tid = 1 };
static char mem[256] __attribute__((aligned(64)));

static struct goldi_event ev_of(enum goldi_event_kind k, struct goldi_thr *thr) {
    struct goldi_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)k;
    ev.thr = thr;
    ev.pc = 0x1000;
    return ev;
}

CASE(hb_lowering_of_every_kind) {
    struct goldi_hb_step s[GOLDI_HB_MAX_STEPS];
    struct goldi_sync *m = goldi_sync_get((uintptr_t)&mem[0], GOLDI_SYNC_MUTEX);
    struct goldi_sync *rw = goldi_sync_get((uintptr_t)&mem[8], GOLDI_SYNC_RWLOCK);
    struct goldi_sync *a = goldi_sync_get((uintptr_t)&mem[16], GOLDI_SYNC_ATOMIC);
    struct goldi_event ev = ev_of(GOLDI_EV_LOCK_ACQ, &t0);
    ev.obj = m;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    EXPECT(s[0].op == GOLDI_HB_ACQ && s[0].tok == &m->tok[0]);
    ev.obj = rw;
    ev.mode = GOLDI_LOCK_EXCL;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 2);
    EXPECT(s[0].tok == &rw->tok[0] && s[1].tok == &rw->tok[1]);
    ev.mode = GOLDI_LOCK_SHARED;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    EXPECT(s[0].tok == &rw->tok[0]);
    ev.kind = GOLDI_EV_LOCK_REL;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    EXPECT(s[0].op == GOLDI_HB_REL_JOIN && s[0].tok == &rw->tok[1]);
    ev.mode = GOLDI_LOCK_EXCL;
    goldi_event_hb_steps(&ev, s);
    EXPECT(s[0].op == GOLDI_HB_REL_STORE && s[0].tok == &rw->tok[0]);
    /* Atomics: strength follows the memory order; the read half of a read
     * is its own ATOMIC_READ_SYNC event, the write half stays with the RMW. */
    ev = ev_of(GOLDI_EV_ATOMIC_RMW, &t0);
    ev.obj = a;
    ev.mo = GOLDI_MO_ACQ_REL;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    EXPECT(s[0].op == GOLDI_HB_ATOMIC_RMW && s[0].strong);
    ev.kind = GOLDI_EV_ATOMIC_READ_SYNC;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    EXPECT(s[0].op == GOLDI_HB_ATOMIC_LOAD && s[0].strong);
    ev.kind = GOLDI_EV_ATOMIC_RMW;
    ev.mo = GOLDI_MO_RELAXED;
    goldi_event_hb_steps(&ev, s);
    EXPECT(!s[0].strong);
    ev.kind = GOLDI_EV_ATOMIC_STORE;
    ev.mo = GOLDI_MO_RELEASE;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    EXPECT(s[0].op == GOLDI_HB_ATOMIC_STORE && s[0].strong);
    ev.kind = GOLDI_EV_ATOMIC_READ_SYNC;
    ev.mo = GOLDI_MO_CONSUME; /* consume = acquire */
    goldi_event_hb_steps(&ev, s);
    EXPECT(s[0].strong);
    ev.kind = GOLDI_EV_ATOMIC_LOAD;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 0);
    ev.kind = GOLDI_EV_ATOMIC_CASFAIL;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 0);
    /* Fences: acquire part before release part. */
    ev = ev_of(GOLDI_EV_FENCE, &t0);
    ev.mo = GOLDI_MO_SEQ_CST;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 2);
    EXPECT(s[0].op == GOLDI_HB_FENCE_ACQ && s[1].op == GOLDI_HB_FENCE_REL);
    ev.mo = GOLDI_MO_RELEASE;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 1);
    ev.mo = GOLDI_MO_RELAXED;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 0);
    /* Condition variables order through the mutex only. */
    struct goldi_sync *cv = goldi_sync_get((uintptr_t)&mem[24], GOLDI_SYNC_COND);
    ev = ev_of(GOLDI_EV_SIGNAL, &t0);
    ev.obj = cv;
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 0);
    ev.kind = GOLDI_EV_WAIT_ENTER;
    ev.obj2 = m;
    goldi_event_hb_steps(&ev, s);
    EXPECT(s[0].op == GOLDI_HB_REL_STORE && s[0].tok == &m->tok[0]);
    ev.kind = GOLDI_EV_WAIT_EXIT;
    goldi_event_hb_steps(&ev, s);
    EXPECT(s[0].op == GOLDI_HB_ACQ && s[0].tok == &m->tok[0]);
    /* Fork/join carry the other thread. */
    ev = ev_of(GOLDI_EV_FORK, &t0);
    ev.other = &t1;
    goldi_event_hb_steps(&ev, s);
    EXPECT(s[0].op == GOLDI_HB_FORK && s[0].other == &t1);
    /* Accesses have no steps. */
    ev = ev_of(GOLDI_EV_WRITE, &t0);
    EXPECT_EQ(goldi_event_hb_steps(&ev, s), 0);
}

CASE(dispatch_splits_accesses_into_granules) {
    n_pieces = n_events = 0;
    struct goldi_event ev = ev_of(GOLDI_EV_WRITE, &t0);
    ev.addr = (uintptr_t)&mem[6];
    ev.size = 12; /* bytes 6..17: pieces [6,8) [8,16) [16,18) */
    goldi_dispatch(&ev);
    EXPECT_EQ(n_pieces, 3);
    EXPECT(pieces[0].addr == (uintptr_t)&mem[6] && pieces[0].size == 2);
    EXPECT(pieces[1].addr == (uintptr_t)&mem[8] && pieces[1].size == 8);
    EXPECT(pieces[2].addr == (uintptr_t)&mem[16] && pieces[2].size == 2);
    EXPECT_EQ(n_events, 1);
    /* Non-access events produce no pieces. */
    ev = ev_of(GOLDI_EV_FENCE, &t0);
    goldi_dispatch(&ev);
    EXPECT_EQ(n_pieces, 3);
    EXPECT_EQ(n_events, 2);
}

/* An atomic read's sync half reaches sinks before its access pieces. */
static int order_log[8], n_order;
static void ord_access(void *self, const struct goldi_event *ev, uintptr_t a, unsigned n) {
    if (n_order < 8)
        order_log[n_order++] = 100 + ev->kind;
}
static void ord_event(void *self, const struct goldi_event *ev) {
    if (n_order < 8)
        order_log[n_order++] = ev->kind;
}
static struct goldi_sink ord_sink = { .name = "order", .on_access = ord_access, .on_event = ord_event };

CASE(dispatch_delivers_atomic_read_sync_first) {
    struct goldi_sync *a = goldi_sync_get((uintptr_t)&mem[72], GOLDI_SYNC_ATOMIC);
    struct goldi_event ev = ev_of(GOLDI_EV_ATOMIC_LOAD, &t0);
    ev.obj = a;
    ev.addr = (uintptr_t)&mem[72];
    ev.size = 4;
    ev.mo = GOLDI_MO_ACQUIRE;
    n_order = 0;
    goldi_dispatch_attach(&ord_sink);
    goldi_dispatch(&ev);
    EXPECT_EQ(n_order, 3);
    EXPECT_EQ(order_log[0], GOLDI_EV_ATOMIC_READ_SYNC);
    EXPECT_EQ(order_log[1], 100 + GOLDI_EV_ATOMIC_LOAD);
    EXPECT_EQ(order_log[2], GOLDI_EV_ATOMIC_LOAD);
    /* A store has no read half. */
    n_order = 0;
    ev.kind = GOLDI_EV_ATOMIC_STORE;
    goldi_dispatch(&ev);
    EXPECT_EQ(n_order, 2);
    EXPECT_EQ(order_log[0], 100 + GOLDI_EV_ATOMIC_STORE);
}

/* A read of the reading thread's own latest plain store acquires nothing:
 * its sync half is flagged and lowers to no step. Any other thread's store
 * or any RMW (which joins releases) since then keeps the read's step. */
static uint8_t sync_flags[8];
static int n_sync;
static void flag_event(void *self, const struct goldi_event *ev) {
    if (ev->kind == GOLDI_EV_ATOMIC_READ_SYNC && n_sync < 8)
        sync_flags[n_sync++] = ev->flags;
}
static struct goldi_sink flag_sink = { .name = "flags", .on_event = flag_event };

CASE(dispatch_flags_reads_of_own_store) {
    struct goldi_sync *a = goldi_sync_get((uintptr_t)&mem[80], GOLDI_SYNC_ATOMIC);
    goldi_dispatch_attach(&flag_sink);
    struct goldi_event st = ev_of(GOLDI_EV_ATOMIC_STORE, &t0), ld = ev_of(GOLDI_EV_ATOMIC_LOAD, &t0);
    st.obj = ld.obj = a;
    st.addr = ld.addr = (uintptr_t)&mem[80];
    st.size = ld.size = 4;
    st.mo = GOLDI_MO_RELAXED;
    ld.mo = GOLDI_MO_ACQUIRE;
    n_sync = 0;
    goldi_dispatch(&ld);                    /* 0: nobody stored yet */
    goldi_dispatch(&st);
    goldi_dispatch(&ld);                    /* 1: t0 reads its own store */
    ld.thr = &t1;
    goldi_dispatch(&ld);                    /* 2: t1 reads t0's store */
    ld.thr = &t0;
    ld.kind = GOLDI_EV_ATOMIC_CASFAIL;
    goldi_dispatch(&ld);                    /* 3: still t0's own store */
    struct goldi_event rmw = st;
    rmw.kind = GOLDI_EV_ATOMIC_RMW;
    goldi_dispatch(&rmw);                   /* 4: the RMW's read half reads t0's store */
    ld.kind = GOLDI_EV_ATOMIC_LOAD;
    goldi_dispatch(&ld);                    /* 5: the latest is an RMW */
    st.thr = &t1;
    goldi_dispatch(&st);
    goldi_dispatch(&ld);                    /* 6: the latest is t1's store */
    EXPECT_EQ(n_sync, 7);
    const uint8_t want[7] = { 0, 1, 0, 1, 1, 0, 0 };
    for (int i = 0; i < 7 && i < n_sync; i++)
        EXPECT_EQ(!!(sync_flags[i] & GOLDI_EVF_OWN_STORE), want[i]);
    struct goldi_hb_step s[GOLDI_HB_MAX_STEPS];
    struct goldi_event rs = ev_of(GOLDI_EV_ATOMIC_READ_SYNC, &t0);
    rs.obj = a;
    rs.mo = GOLDI_MO_ACQUIRE;
    EXPECT_EQ(goldi_event_hb_steps(&rs, s), 1);
    rs.flags = GOLDI_EVF_DERIVED | GOLDI_EVF_OWN_STORE;
    EXPECT_EQ(goldi_event_hb_steps(&rs, s), 0);
}

CASE(dispatch_tracks_held_locks) {
    struct goldi_sync *m = goldi_sync_get((uintptr_t)&mem[32], GOLDI_SYNC_MUTEX);
    struct goldi_sync *rw = goldi_sync_get((uintptr_t)&mem[40], GOLDI_SYNC_RWLOCK);
    struct goldi_sync *cv = goldi_sync_get((uintptr_t)&mem[48], GOLDI_SYNC_COND);
    struct goldi_event ev = ev_of(GOLDI_EV_LOCK_ACQ, &t1);
    ev.obj = m;
    goldi_dispatch(&ev);
    ev.obj = rw;
    ev.mode = GOLDI_LOCK_SHARED;
    goldi_dispatch(&ev);
    EXPECT_EQ(t1.n_held, 2);
    EXPECT(t1.held[1].obj == rw && t1.held[1].mode == GOLDI_LOCK_SHARED);
    struct goldi_event w = ev_of(GOLDI_EV_WAIT_ENTER, &t1);
    w.obj = cv;
    w.obj2 = m;
    goldi_dispatch(&w);
    EXPECT_EQ(t1.n_held, 1);
    w.kind = GOLDI_EV_WAIT_EXIT;
    goldi_dispatch(&w);
    EXPECT_EQ(t1.n_held, 2);
    ev.kind = GOLDI_EV_LOCK_REL;
    goldi_dispatch(&ev);
    ev.obj = m;
    ev.mode = GOLDI_LOCK_EXCL;
    goldi_dispatch(&ev);
    EXPECT_EQ(t1.n_held, 0);
}

CASE(barrier_generations_get_fresh_tokens) {
    struct goldi_sync *b = goldi_sync_get((uintptr_t)&mem[56], GOLDI_SYNC_BARRIER);
    struct goldi_event ev = ev_of(GOLDI_EV_BAR_ARRIVE, &t0);
    ev.obj = b;
    ev.gen = 0;
    goldi_dispatch(&ev);
    uint64_t g0 = b->tok[0].id;
    ev.thr = &t1;
    goldi_dispatch(&ev); /* same generation: same token */
    EXPECT(b->tok[0].id == g0);
    ev.gen = 1;
    goldi_dispatch(&ev);
    uint64_t g1 = b->tok[1].id;
    ev.gen = 2; /* generation 2 reuses slot 0 with a new token */
    goldi_dispatch(&ev);
    EXPECT(b->tok[0].id != g0);
    EXPECT(b->tok[1].id == g1);
}

/* A frame's identity stands for its call path (event.h): a stack a call
 * returns to has its identity again, the same call from the same stack gets
 * the same one (so the origin memo answers it), another call or a rewritten
 * stack another one, a signal handler's frames fresh ones. */
CASE(stack_identities_follow_call_paths) {
    static struct goldi_thr t;   /* (static: the thread's memos are big) */
    t.tid = 5;
    uint64_t root = goldi_thr_stack_key(&t);
    goldi_thr_stack_push(&t, 0x500);
    uint64_t a = goldi_thr_stack_key(&t);
    EXPECT(a != root);
    goldi_thr_stack_push(&t, 0x600);
    uint64_t ab = goldi_thr_stack_key(&t);
    EXPECT(ab != a && ab != root);
    struct goldi_event ev = ev_of(GOLDI_EV_WRITE, &t);
    ev.size = 8;
    ev.pc = 0x800;
    goldi_origin_t o = goldi_event_origin(&ev);
    goldi_thr_stack_pop(&t);
    EXPECT_EQ(t.stack_id, a);   /* (a return finds its frame's identity: no look-up) */
    EXPECT_EQ(goldi_thr_stack_key(&t), a);
    goldi_thr_stack_push(&t, 0x600);
    EXPECT_EQ(t.stack_id, 0);
    EXPECT_EQ(goldi_thr_stack_key(&t), ab);
    EXPECT(goldi_origin_memo_site(&t, 0x800, GOLDI_EV_WRITE, 8) != 0);   /* kept across the calls */
    EXPECT_EQ(goldi_event_origin(&ev), o);
    goldi_thr_stack_pop(&t);
    goldi_thr_stack_push(&t, 0x700);
    uint64_t ac = goldi_thr_stack_key(&t);
    EXPECT(ac != ab && ac != a && ac != root);
    EXPECT(goldi_origin_memo_site(&t, 0x800, GOLDI_EV_WRITE, 8) == 0);
    EXPECT(goldi_event_origin(&ev) != o);
    goldi_thr_stack_pop(&t);
    t.in_signal = 1;
    goldi_thr_stack_push(&t, 0x600);
    uint64_t handler = goldi_thr_stack_key(&t);
    EXPECT(handler != ab && handler != ac);
    goldi_thr_stack_pop(&t);
    t.in_signal = 0;
    EXPECT_EQ(goldi_thr_stack_key(&t), a);
    goldi_thr_stack_pop(&t);
    EXPECT_EQ(goldi_thr_stack_key(&t), root);
    /* beyond GOLDI_MAX_STACK: the deepest stored frame's identity */
    for (uint32_t i = 0; i < GOLDI_MAX_STACK + 2; i++)
        goldi_thr_stack_push(&t, 0x1000 + 8 * i);
    uint64_t deep = goldi_thr_stack_key(&t);
    goldi_thr_stack_pop(&t);
    EXPECT_EQ(goldi_thr_stack_key(&t), deep);
    goldi_thr_stack_pop(&t);
    EXPECT_EQ(goldi_thr_stack_key(&t), deep);
    goldi_thr_stack_pop(&t);
    EXPECT(goldi_thr_stack_key(&t) != deep);
    while (t.depth)
        goldi_thr_stack_pop(&t);
    /* a rewritten stack: new content, new identity */
    t.stack[0] = 0x900;
    t.depth = 1;
    goldi_thr_stack_changed(&t);
    EXPECT(goldi_thr_stack_key(&t) != a);
}

CASE(origins_intern_and_cache) {
    struct goldi_thr t = { .tid = 3 };
    t.stack[0] = 0x500;
    t.stack[1] = 0x600;
    t.depth = 2;
    struct goldi_event ev = ev_of(GOLDI_EV_WRITE, &t);
    ev.size = 4;
    ev.pc = 0x700;
    goldi_origin_t o1 = goldi_event_origin(&ev);
    EXPECT(o1 != 0);
    EXPECT_EQ(goldi_event_origin(&ev), o1);
    struct goldi_origin_info in;
    EXPECT(goldi_origin_lookup(o1, &in));
    EXPECT_EQ(in.size, 4);
    EXPECT(in.flags == GOLDI_ORIGIN_WRITE);
    EXPECT_EQ(in.n_frames, 3);
    EXPECT(in.frames[0] == 0x700 && in.frames[1] == 0x600 && in.frames[2] == 0x500);
    /* Another thread at the same code and stack has the same origin: the
     * depot grows with code paths, not with the threads ever started. */
    struct goldi_thr t2 = t;
    t2.tid = 4;
    memset(t2.oc, 0, sizeof t2.oc);
    struct goldi_event ev2 = ev;
    ev2.thr = &t2;
    EXPECT_EQ(goldi_event_origin(&ev2), o1);
    /* A different stack, kind or lock set is a different origin. */
    t.depth = 1;
    goldi_thr_stack_changed(&t);
    goldi_origin_t o2 = goldi_event_origin(&ev);
    EXPECT(o2 != o1);
    ev.kind = GOLDI_EV_READ;
    goldi_origin_t o3 = goldi_event_origin(&ev);
    EXPECT(o3 != o2);
    struct goldi_sync *m = goldi_sync_get((uintptr_t)&mem[64], GOLDI_SYNC_MUTEX);
    t.held[0].obj = m;
    t.n_held = 1;
    t.held_version++;
    goldi_origin_t o4 = goldi_event_origin(&ev);
    EXPECT(o4 != o3);
    EXPECT(goldi_origin_lookup(o4, &in));
    EXPECT(in.n_held == 1 && in.held_addr[0] == (uintptr_t)&mem[64]);
    /* Interning the same parts again yields the same id. */
    EXPECT_EQ(goldi_origin_intern(&in), o4);
    EXPECT(!goldi_origin_lookup(0, &in));
    EXPECT(!goldi_origin_lookup(0x7fffffff, &in));
}

/* An origin is a (site, lock set) pair: composed into one id while both
 * fit, interned whole beyond; either way one pair has one id, and the id
 * gives back exactly its parts. */
static bool same_origin_info(const struct goldi_origin_info *a, const struct goldi_origin_info *b) {
    if (a->size != b->size || a->flags != b->flags || a->n_frames != b->n_frames ||
        a->n_held != b->n_held)
        return false;
    for (uint32_t i = 0; i < a->n_frames; i++)
        if (a->frames[i] != b->frames[i])
            return false;
    for (uint32_t i = 0; i < a->n_held; i++)
        if (a->held_addr[i] != b->held_addr[i] || a->held_mode[i] != b->held_mode[i])
            return false;
    return true;
}

CASE(origins_compose_sites_and_lock_sets) {
    uintptr_t frames[2] = { 0x1234, 0x5678 };
    uintptr_t locks[2];
    uint8_t modes[2] = { GOLDI_LOCK_EXCL, GOLDI_LOCK_SHARED };
    struct goldi_origin_info in = {
        .size = 8, .flags = GOLDI_ORIGIN_WRITE, .n_frames = 2, .frames = frames,
        .n_held = 2, .held_addr = locks, .held_mode = modes,
    };
    /* Enough distinct lock sets that the later ones no longer fit a
     * composed id (2^12 of them): those pairs are interned whole. */
    unsigned composed = 0, whole = 0;
    for (uintptr_t i = 0; i < 5000; i++) {
        locks[0] = 0x10000 + 64 * i;
        locks[1] = 0x90000;
        goldi_origin_t o = goldi_origin_intern(&in);
        EXPECT(o != 0);
        if (o & GOLDI_ORIGIN_COMPOSED)
            composed++;
        else
            whole++;
        struct goldi_origin_info back;
        EXPECT(goldi_origin_lookup(o, &back));
        EXPECT(same_origin_info(&back, &in));
        EXPECT_EQ(goldi_origin_intern(&back), o);
    }
    EXPECT(composed > 0 && whole > 0);
    /* The same parts with a different mode, or no locks, are other origins. */
    locks[0] = 0x10000;
    goldi_origin_t o1 = goldi_origin_intern(&in);
    modes[1] = GOLDI_LOCK_EXCL;
    EXPECT(goldi_origin_intern(&in) != o1);
    in.n_held = 0;
    goldi_origin_t o0 = goldi_origin_intern(&in);
    EXPECT(o0 != o1 && (o0 & GOLDI_ORIGIN_COMPOSED));
    /* A composed id of an unknown site is no origin. */
    struct goldi_origin_info back;
    EXPECT(!goldi_origin_lookup(GOLDI_ORIGIN_COMPOSED | ((1u << GOLDI_ORIGIN_SITE_BITS) - 1), &back));
}

CASE(origins_follow_lock_changes_without_a_new_site) {
    struct goldi_thr t = { .tid = 9 };
    struct goldi_event ev = ev_of(GOLDI_EV_READ, &t);
    ev.size = 4;
    ev.pc = 0x4444;
    goldi_origin_t bare = goldi_event_origin(&ev);
    struct goldi_sync *m = goldi_sync_get((uintptr_t)&mem[128], GOLDI_SYNC_MUTEX);
    t.held[0] = (struct goldi_held){ m, GOLDI_LOCK_EXCL };
    t.n_held = 1;
    t.held_version++;
    /* The inline memo leaves a changed lock set to the full path; that
     * interns the new lock set, and then the memo's site serves again. */
    EXPECT_EQ(goldi_origin_memo_of(&t, ev.pc, ev.kind, ev.size), 0);
    goldi_origin_t locked = goldi_event_origin(&ev);
    EXPECT(locked != 0 && locked != bare);
    EXPECT_EQ(goldi_origin_memo_of(&t, ev.pc, ev.kind, ev.size), locked);
    struct goldi_origin_info in;
    EXPECT(goldi_origin_lookup(locked, &in));
    EXPECT(in.n_held == 1 && in.held_addr[0] == (uintptr_t)&mem[128] && in.n_frames == 1 && in.frames[0] == 0x4444);
    t.n_held = 0;
    t.held_version++;
    EXPECT_EQ(goldi_event_origin(&ev), bare);
}

/* One-lock sets come from the thread's memo (event/origin.c), keyed by the
 * lock's address and mode: an origin's lock set is the held lock in its
 * mode through evictions (more locks than memo slots) and mode changes of
 * the same lock from one access to the next. */
CASE(origins_one_lock_sets_memoised_by_lock_and_mode) {
    struct goldi_thr t = { .tid = 11 };
    struct goldi_event ev = ev_of(GOLDI_EV_READ, &t);
    ev.size = 4;
    ev.pc = 0x5555;
    static char locks[200 * 64];
    int wrong = 0;
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < 200 * 3; k++) {   /* each lock in three modes in a row: X, S, X or S, X, S */
            int i = k / 3;
            struct goldi_sync *l = goldi_sync_get((uintptr_t)&locks[i * 64], GOLDI_SYNC_RWLOCK);
            uint8_t mode = (k + i + round) % 2 ? GOLDI_LOCK_SHARED : GOLDI_LOCK_EXCL;
            t.held[0] = (struct goldi_held){ l, mode };
            t.n_held = 1;
            t.held_version++;
            struct goldi_origin_info in;
            wrong += !goldi_origin_lookup(goldi_event_origin(&ev), &in) || in.n_held != 1 ||
                     in.held_addr[0] != (uintptr_t)&locks[i * 64] || in.held_mode[0] != mode;
        }
    EXPECT_EQ(wrong, 0);
    goldi_sync_forget_range((uintptr_t)locks, sizeof locks);
}

CASE(sync_table_get_find_reset_forget) {
    static char objs[128];
    uintptr_t a = (uintptr_t)&objs[0];
    EXPECT(goldi_sync_find(a) == NULL);
    struct goldi_sync *o = goldi_sync_get(a, GOLDI_SYNC_MUTEX);
    EXPECT(o && o->addr == a && o->kind == GOLDI_SYNC_MUTEX);
    EXPECT(goldi_sync_get(a, GOLDI_SYNC_MUTEX) == o);
    EXPECT(goldi_sync_find(a) == o);
    EXPECT(goldi_sync_find(a + 1) == NULL);
    uint64_t id = o->tok[0].id;
    EXPECT(id != 0 && o->tok[1].id != id);
    goldi_sync_reset(a);
    EXPECT(o->tok[0].id != id);
    size_t live = goldi_sync_count();
    goldi_sync_get(a + 64, GOLDI_SYNC_ATOMIC);
    EXPECT_EQ(goldi_sync_count(), live + 1);
    goldi_sync_forget_range(a, 128);
    EXPECT(goldi_sync_find(a) == NULL);
    EXPECT(goldi_sync_find(a + 64) == NULL);
    EXPECT_EQ(goldi_sync_count(), live - 1);
    /* A new object at a forgotten address starts a new life. */
    struct goldi_sync *n = goldi_sync_get(a, GOLDI_SYNC_SEM);
    EXPECT(n->tok[0].id != id && n->kind == GOLDI_SYNC_SEM);
}

int main(void) {
    goldi_dispatch_attach(&sink);
    RUN(hb_lowering_of_every_kind);
    RUN(dispatch_splits_accesses_into_granules);
    RUN(dispatch_tracks_held_locks);
    RUN(barrier_generations_get_fresh_tokens);
    RUN(stack_identities_follow_call_paths);
    RUN(origins_intern_and_cache);
    RUN(origins_follow_lock_changes_without_a_new_site);
    RUN(origins_one_lock_sets_memoised_by_lock_and_mode);   /* (before the next fills the composed lock sets) */
    RUN(origins_compose_sites_and_lock_sets);
    RUN(sync_table_get_find_reset_forget);
    RUN(dispatch_delivers_atomic_read_sync_first);
    RUN(dispatch_flags_reads_of_own_store);
    return harness_summary();
}

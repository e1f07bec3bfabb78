/* The one event interface between producers (ABI shims, interceptors, trace
 * reader) and consumers (engines, trace writer). Producers fill a
 * struct goldi_event and call goldi_dispatch(); nothing else crosses over.
 * See docs/events.md for the exact happens-before meaning of every kind. */
#ifndef GOLDI_EVENT_H
#define GOLDI_EVENT_H

#include "../base/base.h"
#include "../base/spinlock.h"

enum goldi_event_kind {
#define GOLDI_EVENT(name, str, acc) GOLDI_EV_##name,
#include "event.inc"
#undef GOLDI_EVENT
    GOLDI_EV_COUNT
};
extern const char *const goldi_event_names[GOLDI_EV_COUNT];
extern const bool goldi_event_is_access[GOLDI_EV_COUNT];

/* C11 memory orders, numbered as the TSan ABI's morder (part of that ABI). */
enum goldi_mo {
    GOLDI_MO_RELAXED = 0,
    GOLDI_MO_CONSUME = 1,
    GOLDI_MO_ACQUIRE = 2,
    GOLDI_MO_RELEASE = 3,
    GOLDI_MO_ACQ_REL = 4,
    GOLDI_MO_SEQ_CST = 5,
};
/* consume is treated as acquire, like every compiler does. */
GOLDI_INLINE bool goldi_mo_is_acquire(unsigned mo) {
    return mo == GOLDI_MO_CONSUME || mo == GOLDI_MO_ACQUIRE || mo == GOLDI_MO_ACQ_REL ||
           mo == GOLDI_MO_SEQ_CST;
}
GOLDI_INLINE bool goldi_mo_is_release(unsigned mo) {
    return mo == GOLDI_MO_RELEASE || mo == GOLDI_MO_ACQ_REL || mo == GOLDI_MO_SEQ_CST;
}

enum goldi_lock_mode { GOLDI_LOCK_EXCL = 0, GOLDI_LOCK_SHARED = 1 };

enum goldi_sync_kind {
    GOLDI_SYNC_MUTEX, GOLDI_SYNC_SPIN, GOLDI_SYNC_RWLOCK, GOLDI_SYNC_COND, GOLDI_SYNC_BARRIER,
    GOLDI_SYNC_SEM, GOLDI_SYNC_ONCE, GOLDI_SYNC_ATOMIC, GOLDI_SYNC_KIND_COUNT
};

#define GOLDI_MAX_ENGINES 12   /* engines running at once (engine=a,b,...) */
#define GOLDI_MAX_SINKS 16     /* engines plus trace writer, explorer, ... */
#define GOLDI_MAX_HELD 32     /* locks held at once that are tracked per thread */
#define GOLDI_MAX_STACK 128   /* shadow call stack depth kept for reports */

/* A synchronization token (ALGORITHMS.md 2.3): the unit engines key their
 * per-object state on. id is unique for ever: re-initialising, destroying or
 * freeing the object, or starting a new barrier generation, gives a new id;
 * an engine whose estate remembers an older id must treat the state as fresh. */
struct goldi_token {
    uint64_t id;                          /* unique, never 0 */
    void *estate[GOLDI_MAX_ENGINES];      /* per-engine state, owned by that engine */
};

/* A synchronization object: a mutex, rwlock, condvar, ... or an atomic
 * location. Owned by event/sync.c; memory is type-stable (recycled, never
 * unmapped), so a stale pointer never faults. */
struct goldi_sync {
    /* An atomic operation's fields first, on the object's first cache line
     * with tok[0]'s id and estate (the engines' per-token state): the
     * operation's section then moves one line between the cores that use
     * the location, where it moved two with the counts 270 bytes further
     * on (docs/performance.md, round 59). */
    uint8_t kind;               /* enum goldi_sync_kind */
    _Atomic uint8_t exclusion_broken; /* lock: its events broke mutual exclusion (released
                                   by a thread that did not hold it, as when a plain mutex is
                                   unlocked by another thread: undefined in POSIX, glibc opens
                                   it; or, in a trace, taken while another thread held it):
                                   holding it orders nothing by itself any more. On the first
                                   line, which Goldilocks' alock test reads already (tok[0].id) */
    goldi_spinlock_t lock;      /* serialises events on this object; for atomics the
                                   "perform op + record" critical section (T3, T8) */
    _Atomic uint64_t n_writes;  /* atomic: operations that may store (stores, RMWs,
                                   CASes), counted under lock *before* each is performed
                                   (rt/abi/atomic.c): a load that finds the count unchanged
                                   on both sides of it read no newer store */
    _Atomic uint64_t own_mark;  /* atomic: the same as one word, for loads without the lock:
                                   goldi_own_mark(n_writes, last_storer) when the latest
                                   counted operation is that thread's plain store, else 0 */
    goldi_tid_t last_storer;    /* atomic: thread of the latest of them if it was a plain
                                   store (not an RMW); GOLDI_TID_NONE otherwise (dispatcher) */
    goldi_tid_t owner;          /* recursive mutex: owner, or GOLDI_TID_NONE */
    /* tok[0]: mutex/spin/cond/sem/once/atomic; rwlock write side R.w; barrier slot 0.
       tok[1]: rwlock read side R.r; barrier slot 1 (generation g uses slot g & 1). */
    struct goldi_token tok[2];
    uintptr_t addr;             /* the object's address in the program */
    struct goldi_sync *next;    /* hash chain (sync.c) */
    uint64_t bar_gen[2];        /* barrier generation currently held by tok[i] */
    uint32_t bar_count;         /* barrier: threads per generation */
    uint32_t depth;             /* recursive mutex: nesting level of the owner */
    uint64_t bar_arrivals;      /* barrier: arrivals so far (generation = arrivals / count) */
    goldi_tid_t trace_writer;   /* lock, in a trace replay: the thread holding it in write
                                   mode, or GOLDI_TID_NONE (goldi_dispatch_as_live) */
    uint32_t trace_readers;     /* rwlock, in a trace replay: read holds */
};

/* Does a thread that holds lock o now come after every other thread's
 * earlier critical sections of o (mutual exclusion: their release, then
 * this acquisition)? Not once o's events broke mutual exclusion: a holder
 * may still be inside (Goldilocks' alock short-circuit asks). Marked for
 * good by the dispatcher: a release by a thread that does not hold o, or,
 * in a trace replay, an acquisition while another thread holds it. */
GOLDI_INLINE bool goldi_sync_excludes(const struct goldi_sync *o) {
    return !atomic_load_explicit(&o->exclusion_broken, memory_order_acquire);
}
GOLDI_INLINE void goldi_sync_break_exclusion(struct goldi_sync *o) {
    atomic_store_explicit(&o->exclusion_broken, 1, memory_order_release);
}

/* own_mark's value for the n-th counted operation, a plain store of thread
 * t; 0 (no mark) beyond the fields' widths. */
GOLDI_INLINE uint64_t goldi_own_mark(uint64_t n, goldi_tid_t t) {
    return n < (UINT64_C(1) << 40) && t + 1 < (UINT32_C(1) << 24) ? n << 24 | (t + 1) : 0;
}

struct goldi_held {
    struct goldi_sync *obj;
    uint8_t mode;               /* enum goldi_lock_mode */
};

#define GOLDI_ORIGIN_MEMO 1024 /* power of two: any 4 KiB of code maps to distinct slots */
#define GOLDI_LOCKSET_MEMO 256 /* power of two (origin.c hashes into it) */
#define GOLDI_PATH_MEMO 1024   /* power of two: call paths a thread keeps identities for */

/* A thread as engines see it. The runtime embeds one in its thread state; the
 * trace analyzer makes one per trace thread. */
struct goldi_thr {
    goldi_tid_t tid;
    goldi_tid_t parent;                    /* creator, GOLDI_TID_NONE for T0 */
    void *estate[GOLDI_MAX_ENGINES];       /* per-engine thread state */
    struct goldi_held held[GOLDI_MAX_HELD];/* locks held now, in acquisition order */
    uint32_t n_held;
    uint32_t n_held_dropped;               /* acquisitions beyond GOLDI_MAX_HELD (counted, not kept) */
    uint32_t held_version;                 /* bumped when held[] changes (lock-set cache key) */
    uint32_t depth;                        /* shadow call stack depth (may exceed GOLDI_MAX_STACK) */
    uint32_t in_signal;                    /* signal handlers running on this thread (they
                                              leave the path memo alone: goldi_thr_stack_*) */
    uint64_t stack_id;                     /* the stack's identity (goldi_thr_stack_*); 0 =
                                              not looked up since the last push or pop */
    uintptr_t stack[GOLDI_MAX_STACK];      /* return addresses from __tsan_func_entry */
    uint32_t create_origin;                /* origin of the pthread_create call (reports) */
    uint32_t sync_epoch;                   /* bumped by the dispatcher at every event of this
                                              thread that is not a plain READ/WRITE: two plain
                                              accesses with equal sync_epoch have no event of
                                              their thread between them (access filter) */
    /* 1 + tid of the thread this one is blocked joining in pthread_join, 0 if
     * none: set by the runtime before the real join when its next access can
     * only follow the JOIN event (no signal handler, no cancellation in the
     * process: rt/intercept/thread.c), cleared after the JOIN event. */
    _Atomic uint32_t joining;
    /* origin memo (event/origin.c): the last sites by pc, each valid while
     * the stack is the one it was computed with (lock operations leave it:
     * the lock set is the origin's other half, below) */
    struct goldi_origin_memo {
        uintptr_t pc;
        uint64_t stack_id;
        uint32_t key, depth;
        uint32_t site;                     /* 0 = empty */
    } oc[GOLDI_ORIGIN_MEMO];
    uint32_t lockset;                      /* interned held[] (0 = none held) and */
    uint32_t lockset_bits;                 /* its part of a composed origin (0: too big) ... */
    uint32_t lockset_version;              /* ... valid when this is held_version + 1 */
    /* one-lock sets interned before, by the lock's address and mode: code
     * under one lock at a time (a lock per variable, per bucket, per stripe)
     * finds its set without the shared depot (event/origin.c) */
    struct goldi_lockset_memo {
        uintptr_t addr;                    /* 0 = empty */
        uint64_t set_mode;                 /* set | mode << 32: one load */
    } lsm[GOLDI_LOCKSET_MEMO];
    /* the stack's identities (goldi_thr_stack_*): each depth's while its
     * frame is on the stack (0 = not found yet), the last ones given out;
     * equal identity and depth = the same stack (origin cache key) */
    uint64_t frame_id[GOLDI_MAX_STACK + 1];
    uint64_t stack_ids, signal_ids;        /* (signal handlers': top bit set) */
    /* call path memo: the identity given to the frame a call at pc made on
     * top of the stack whose identity is parent (goldi_thr_stack_resolve) */
    struct goldi_path_memo {
        uint64_t parent;
        uintptr_t pc;
        uint64_t id;                       /* 0 = empty */
    } path[GOLDI_PATH_MEMO];
};

/* Event flags. */
#define GOLDI_EVF_RANGE 0x1   /* a range access (memcpy, read_range, ...) */
#define GOLDI_EVF_DERIVED 0x2 /* made by goldi_dispatch from another event (a trace
                                 writer skips it: replay derives it again) */
#define GOLDI_EVF_OWN_STORE 0x4 /* ATOMIC_READ_SYNC of a read whose location's latest
                                   store is a plain store of the reading thread */

struct goldi_event {
    uint8_t kind;               /* enum goldi_event_kind */
    uint8_t mo;                 /* enum goldi_mo: atomics and fences (CASFAIL: failure order) */
    uint8_t mode;               /* enum goldi_lock_mode for LOCK_ACQ/LOCK_REL */
    uint8_t flags;              /* GOLDI_EVF_* */
    uint32_t size;              /* bytes accessed / allocated / freed */
    uintptr_t addr;             /* access, atomic, alloc or free address */
    uintptr_t pc;               /* program counter of the event (top frame of reports) */
    struct goldi_thr *thr;      /* acting thread */
    struct goldi_thr *other;    /* FORK: child; JOIN: joined thread */
    struct goldi_sync *obj;     /* lock, condvar, barrier, semaphore, once, atomic location */
    struct goldi_sync *obj2;    /* WAIT_ENTER/WAIT_EXIT: the mutex */
    uint64_t gen;               /* BAR_ARRIVE/BAR_DEPART: generation */
};

/* --- Happens-before lowering -------------------------------------------
 * Every event reduces to at most 4 primitive steps over tokens (ALGORITHMS.md
 * 1.2). Precise engines (vc, goldilocks, fasttrack, jrf) implement only these
 * steps; engines with their own lock semantics (eraser, hybrid) read the
 * event kind directly. An atomic read's acquire half is its own event
 * (ATOMIC_READ_SYNC, before the access check); the other steps of an atomic
 * event follow its access check. */
enum goldi_hb_op {
    GOLDI_HB_ACQ,          /* C_t ⊔= S_tok */
    GOLDI_HB_REL_STORE,    /* S_tok := C_t; inc(t) */
    GOLDI_HB_REL_JOIN,     /* S_tok ⊔= C_t; inc(t) */
    GOLDI_HB_FORK,         /* C_child := C_t ⊔ {child:1}; inc(t) */
    GOLDI_HB_JOIN,         /* C_t ⊔= X_child */
    GOLDI_HB_EXIT,         /* X_t := C_t */
    GOLDI_HB_ATOMIC_LOAD,  /* strong: C_t ⊔= S_tok; else Facq_t ⊔= S_tok */
    GOLDI_HB_ATOMIC_STORE, /* strong: S_tok := C_t; inc(t); else S_tok := Frel_t */
    GOLDI_HB_ATOMIC_RMW,   /* write half: strong: S_tok ⊔= C_t; inc(t); else S_tok ⊔= Frel_t */
    GOLDI_HB_FENCE_ACQ,    /* C_t ⊔= Facq_t */
    GOLDI_HB_FENCE_REL,    /* Frel_t := C_t; inc(t) */
};
struct goldi_hb_step {
    uint8_t op;                 /* enum goldi_hb_op */
    bool strong;                /* atomics: acquire-ish (loads) / release-ish (stores, RMW) */
    struct goldi_token *tok;    /* sync token, if any */
    struct goldi_thr *other;    /* FORK/JOIN */
};
#define GOLDI_HB_MAX_STEPS 4
/* Fills out[] with the steps of ev in order; returns their count. */
int goldi_event_hb_steps(const struct goldi_event *ev, struct goldi_hb_step out[GOLDI_HB_MAX_STEPS]);
/* The steps of the read half of atomic read ev (ATOMIC_LOAD, ATOMIC_RMW or
 * ATOMIC_CASFAIL): those of its ATOMIC_READ_SYNC event, own_store being
 * that event's OWN_STORE flag. Fills out[], returns the count (0 or 1). */
int goldi_atomic_read_step(const struct goldi_event *ev, bool own_store, struct goldi_hb_step out[1]);

/* --- Origins --------------------------------------------------------------
 * An origin names "this access at this stack, holding these locks": (pc,
 * call stack, held locks, size, kind) interned into a 32-bit id. It does not
 * name the thread: threads running the same code share origins (the depot
 * grows with code paths, not with threads started), and whoever stores an
 * origin keeps the access's thread beside it. Engines store origins in their
 * shadow state; report/ turns them back into text. Ids are never reused.
 * 0 = unknown.
 * An origin is two interned halves: its site (size, kind, pc and call
 * stack) and its lock set (the held locks). While the site id is below
 * 2^GOLDI_ORIGIN_SITE_BITS and the lock-set id below 2^(31 - that), the
 * origin id is composed from the two (top bit set) without a lookup: code
 * that takes a different lock each time (a bucket lock per operation) finds
 * its origins from a site cached across lock operations and one lock-set
 * lookup per lock operation. Beyond that the pair is interned whole (ids
 * below 2^31). Either way one (site, lock set) has exactly one id. */
typedef uint32_t goldi_origin_t;
typedef uint32_t goldi_site_t;         /* 0 = none */
typedef uint32_t goldi_lockset_t;      /* 0 = no locks */
#define GOLDI_ORIGIN_WRITE  0x1
#define GOLDI_ORIGIN_ATOMIC 0x2
#define GOLDI_ORIGIN_FREE   0x4
#define GOLDI_ORIGIN_COMPOSED (UINT32_C(1) << 31)
#define GOLDI_ORIGIN_SITE_BITS 19
goldi_origin_t goldi_origin_compose_whole(goldi_site_t site, goldi_lockset_t set);
GOLDI_INLINE goldi_origin_t goldi_origin_compose(goldi_site_t site, goldi_lockset_t set) {
    if (GOLDI_LIKELY(site < (UINT32_C(1) << GOLDI_ORIGIN_SITE_BITS) &&
                     set < (UINT32_C(1) << (31 - GOLDI_ORIGIN_SITE_BITS))))
        return GOLDI_ORIGIN_COMPOSED | set << GOLDI_ORIGIN_SITE_BITS | site;
    return goldi_origin_compose_whole(site, set);
}
/* The shadow call stack's identities: equal identity and depth mean the
 * same frames, so the origin memo (keyed by both) answers an access of a
 * stack it has seen. A frame's identity stands for its call path: the
 * identity of the stack it was called on and the call's pc. The path memo
 * gives the same path the same identity while it keeps the pair, so a loop
 * that calls a function finds the callee's origins in the memo at every
 * call, and a stack that a call returned to has the identity it had
 * (frame_id[] keeps each depth's). A version bumped at every return missed
 * the memo at the first access of each pc after each call and return: xz's
 * match finder made 2.6 M such misses in 2 MB of input, each a stack
 * fingerprint, and 5 M site comparisons. An identity is given once (a
 * 64-bit counter), so two paths never share one; a path whose pair the
 * memo dropped gets a new one, which costs misses, not exactness.
 *
 * A push stores its pc, marks its depth's identity unknown (0) and clears
 * stack_id, the identity cached for the memo's test; a pop sets stack_id
 * to the identity of the frame it returns to (0 if never found): a call
 * pays a few stores, and the identities are found when an origin is looked
 * up next (goldi_thr_stack_resolve, from the deepest known one up), once
 * per frame. Signal handlers take identities from
 * a counter of their own and leave the path memo alone: a resolution they
 * interrupt may be between its reads and writes of a slot. Beyond
 * GOLDI_MAX_STACK frames are counted, not stored: their stacks take the
 * deepest stored frame's identity, and the depth tells them apart. The
 * depth is raised first: a handler that interrupts the rest of a push
 * pushes above this frame. */
#define GOLDI_STACK_ROOT 1     /* the empty stack's identity; paths get 2, 3, ... */
void goldi_thr_stack_resolve(struct goldi_thr *thr);
GOLDI_INLINE void goldi_thr_stack_push(struct goldi_thr *thr, uintptr_t call_pc) {
    uint32_t d = thr->depth++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    thr->stack_id = 0;
    if (d < GOLDI_MAX_STACK) {
        thr->stack[d] = call_pc;
        thr->frame_id[d + 1] = 0;
    }
}
/* (caller: depth > 0) The stack returned to has the identity its top
 * frame had, if it was found (frame_id[] keeps each depth's while its
 * frame is on the stack): the first origin after a return needs no look-up
 * (xz: half of its 3 M look-ups a 300 KB input were after returns). */
GOLDI_INLINE void goldi_thr_stack_pop(struct goldi_thr *thr) {
    uint32_t d = --thr->depth;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    thr->stack_id = thr->frame_id[d < GOLDI_MAX_STACK ? d : GOLDI_MAX_STACK];
}
/* After stack[] and depth were rewritten (a trace's replay): no frame
 * keeps its identity. */
GOLDI_INLINE void goldi_thr_stack_changed(struct goldi_thr *thr) {
    uint32_t top = thr->depth < GOLDI_MAX_STACK ? thr->depth : GOLDI_MAX_STACK;
    for (uint32_t i = 1; i <= top; i++)
        thr->frame_id[i] = 0;
    thr->stack_id = 0;
}
/* The stack's identity, looked up if the stack changed since. */
GOLDI_INLINE uint64_t goldi_thr_stack_key(struct goldi_thr *thr) {
    if (GOLDI_UNLIKELY(!thr->stack_id))
        goldi_thr_stack_resolve(thr);
    return thr->stack_id;
}
/* The thread's held locks, interned (0 = none): cached until they change. */
goldi_lockset_t goldi_thr_lockset_slow(struct goldi_thr *thr);
GOLDI_INLINE goldi_lockset_t goldi_thr_lockset(struct goldi_thr *thr) {
    if (GOLDI_LIKELY(thr->lockset_version == thr->held_version + 1))
        return thr->lockset;
    return goldi_thr_lockset_slow(thr);
}
goldi_origin_t goldi_event_origin(const struct goldi_event *ev);
/* The site of ev, interned (no memo). */
goldi_site_t goldi_event_site_interned(const struct goldi_event *ev);
/* Is site exactly the site of ev? (No interning: for caches.) */
bool goldi_event_site_is(goldi_site_t site, const struct goldi_event *ev);
/* Slot of pc: the access calls of one loop are a few bytes apart (a call
 * takes 5), so pc / 4 puts any GOLDI_ORIGIN_MEMO * 4 bytes of code in
 * distinct slots; a multiplicative hash made two of a loop's calls share a
 * slot (and evict each other at every access) now and then. With 64 slots,
 * calls 256 bytes apart shared one: lockfree's consumer loop (550 bytes)
 * had two reads evict each other at every message, each miss a stack
 * fingerprint and a site-cache probe (800 K of them in 200 K messages).
 * 1024 slots (4 KiB of code): xz's encoder loop spans more than 1 KiB of
 * code, and 256 slots cost it 4 % of its time in site-cache probes. */
GOLDI_INLINE struct goldi_origin_memo *goldi_origin_memo_at(struct goldi_thr *thr, uintptr_t pc) {
    return &thr->oc[(pc >> 2) & (GOLDI_ORIGIN_MEMO - 1)];
}
GOLDI_INLINE struct goldi_origin_memo *goldi_origin_memo_slot(const struct goldi_event *ev) {
    return goldi_origin_memo_at(ev->thr, ev->pc);
}
/* The thread's memo only (inline: engines ask it on their access paths):
 * the site a recent access of thr at pc (same kind and size, same stack)
 * left there, else 0; the memo is filled by goldi_event_origin and by an
 * engine's own cache. The kind decides the origin's flags, so (kind, size)
 * is the key. */
GOLDI_INLINE goldi_site_t goldi_origin_memo_site(struct goldi_thr *thr, uintptr_t pc, uint8_t kind,
                                                 uint32_t size) {
    const struct goldi_origin_memo *m = goldi_origin_memo_at(thr, pc);
    if (m->site && m->pc == pc && m->key == ((uint32_t)kind << 24 | size) &&
        m->stack_id == thr->stack_id && m->depth == thr->depth)
        return m->site;
    return 0;
}
/* goldi_origin_memo_site for the slow paths: when the stack changed since
 * its identity was last looked up, the identity is found (a call path
 * seen before keeps its own) and the memo asked again. */
goldi_site_t goldi_origin_memo_site_found(struct goldi_thr *thr, uintptr_t pc, uint8_t kind, uint32_t size);
/* The origin goldi_event_origin returns for that access, from the memo's
 * site and the thread's cached lock set, else 0 (no site, a lock set not
 * interned since the locks changed, or one too big to compose). For engine
 * paths that have not built the event. */
GOLDI_INLINE goldi_origin_t goldi_origin_memo_of(struct goldi_thr *thr, uintptr_t pc, uint8_t kind,
                                                 uint32_t size) {
    goldi_site_t site = goldi_origin_memo_site(thr, pc, kind, size);
    if (site && thr->lockset_version == thr->held_version + 1 && thr->lockset_bits)
        return thr->lockset_bits | site;   /* (the memo holds only sites that fit) */
    return 0;
}
GOLDI_INLINE goldi_origin_t goldi_event_origin_memo(const struct goldi_event *ev) {
    return goldi_origin_memo_of(ev->thr, ev->pc, ev->kind, ev->size);
}
GOLDI_INLINE void goldi_event_site_memo_put(const struct goldi_event *ev, goldi_site_t site) {
    struct goldi_thr *thr = ev->thr;
    uint64_t id = goldi_thr_stack_key(thr);
    if (site >= (UINT32_C(1) << GOLDI_ORIGIN_SITE_BITS))
        site = 0;
    *goldi_origin_memo_slot(ev) = (struct goldi_origin_memo){
        ev->pc, id, (uint32_t)ev->kind << 24 | ev->size, thr->depth, site };
}

struct goldi_origin_info {
    uint32_t size;
    uint32_t flags;             /* GOLDI_ORIGIN_* */
    uint32_t n_frames;          /* frames[0] = pc of the access, then callers */
    const uintptr_t *frames;
    uint32_t n_held;
    const uintptr_t *held_addr; /* addresses of the locks held */
    const uint8_t *held_mode;   /* enum goldi_lock_mode per lock */
};
/* Interns an origin from explicit parts (used by the trace reader too). */
goldi_origin_t goldi_origin_intern(const struct goldi_origin_info *info);
/* Returns false for an unknown id. */
bool goldi_origin_lookup(goldi_origin_t id, struct goldi_origin_info *out);
/* Records interned so far: sites, lock sets, whole pairs (stats). */
void goldi_origin_counts(uint32_t *sites, uint32_t *locksets, uint32_t *wholes);

/* --- Dispatch --------------------------------------------------------------
 * A sink consumes events: an engine, the trace writer, the explorer. Sinks are
 * attached once at start-up (before the second thread exists) and never
 * detached. index selects the estate[] slot of threads and tokens it may use. */
struct goldi_sink {
    const char *name;
    void *self;
    unsigned index;
    /* Access piece [addr, addr+size) inside one 8-byte granule, called with the
     * granule's striped lock held (unless own_granule_locks), for
     * READ/WRITE/FREE and atomic events. May be NULL. */
    void (*on_access)(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size);
    /* on_access serialises the accesses to a granule by a lock of its own:
     * the dispatcher takes no striped lock when every sink says so. */
    bool own_granule_locks;
    /* on_access of a FREE piece finds nothing to check and records nothing
     * where every word of the granule in the sink's plane is 0: the
     * dispatcher then sends a FREE of many granules to the granules with
     * state only (a big block's free cost its size in time, and its shadow
     * in memory: the granule locks' versions). */
    bool free_sparse;
    /* on_access of a FREE does something only for the piece at ev->addr
     * (the trace writer, the analyzer's counter): it does not keep the
     * dispatcher from sending FREEs sparse to the other sinks. */
    bool free_first_piece;
    unsigned plane;              /* the sink's shadow plane (set by goldi_engine_start) */
    /* Optional shortcut for a plain READ/WRITE [addr, addr+size) within at
     * most two granules, tried by the runtime before it builds an event, and
     * only while this sink is the only one attached (no other sink needs the
     * event): handles the access fully (checks it, updates the state), as
     * on_access would. Runs without the striped lock. May be NULL. */
    void (*on_access_fast)(void *self, struct goldi_thr *thr, uintptr_t addr, unsigned size, bool write,
                           uintptr_t pc);
    /* Optional, with on_access_fast: the same for an aligned access of 4
     * bytes ([0]: at a multiple of 4), 8 ([1]) or 16 ([2]: at a multiple of
     * 8), a read ([..][0]) or a write ([..][1]). The runtime calls these
     * from code compiled for each size and kind (rt/abi/access.c), saving
     * the tests on_access_fast's arguments need on every access. Any NULL:
     * on_access_fast takes those accesses. */
    void (*on_aligned_fast[3][2])(void *self, struct goldi_thr *thr, uintptr_t addr, uintptr_t pc);
    /* Optional, with on_access_fast: a plain READ/WRITE event of any size
     * (a range: memcpy, read(2)), taken by the dispatcher instead of its
     * pieces while this sink is the only one attached: handles every piece
     * as on_access would, under locks of its own. May be NULL. */
    void (*on_range_fast)(void *self, const struct goldi_event *ev);
    /* Optional, with on_access_fast: a FREE event, taken by the dispatcher
     * instead of its pieces while this sink is the only one attached:
     * checks every piece as on_access would, under locks of its own, and
     * may start the bytes' next lifetime in the same pass (what its
     * on_event does for the FREE right after). May be NULL. */
    void (*on_free_fast)(void *self, const struct goldi_event *ev);
    /* Optional, with on_access_fast: how many of thr's accesses so far the
     * sink found already recorded in their epoch, so that nothing changed
     * (repeats, which the runtime's granule filter answers when it is on).
     * Called rarely, by thr's own thread. May be NULL. */
    uint64_t (*repeats)(void *self, const struct goldi_thr *thr);
    /* Every event, after its access pieces; for atomics inside the object's
     * critical section. May be NULL. */
    void (*on_event)(void *self, const struct goldi_event *ev);
    /* Optional shortcut for an atomic operation's event (ATOMIC_LOAD,
     * ATOMIC_STORE, ATOMIC_RMW, ATOMIC_CASFAIL), taken by the dispatcher
     * only while this sink is the only one attached: one call does what
     * the dispatcher's deliveries would, in their order (for a read, its
     * ATOMIC_READ_SYNC event, own_store being that event's OWN_STORE flag;
     * then the access pieces, under locks of its own; then the event).
     * May be NULL. */
    void (*on_atomic)(void *self, const struct goldi_event *ev, bool own_store);
    /* The thread state is about to be discarded (after its JOIN, or at the
     * exit of a detached thread): free estate[index]. May be NULL. */
    void (*on_thr_free)(void *self, struct goldi_thr *thr);
};
/* s's on_aligned_fast entry for a READ/WRITE of size bytes at addr, or NULL
 * (not aligned, another size, or no entry: on_access_fast takes it).
 * Inline: with a constant size the runtime's copies fold it to a test of
 * the address. */
typedef void (*goldi_aligned_fast_fn)(void *self, struct goldi_thr *thr, uintptr_t addr, uintptr_t pc);
GOLDI_INLINE goldi_aligned_fast_fn goldi_sink_aligned_fast(const struct goldi_sink *s, uintptr_t addr, uint32_t size,
                                                          bool write) {
    if (size == 4)
        return addr & 3 ? NULL : s->on_aligned_fast[0][write];
    if (size == 8 || size == 16)
        return addr & 7 ? NULL : s->on_aligned_fast[size / 8][write];
    return NULL;
}
/* Hands a plain READ/WRITE within two granules to the fast sink s: its
 * on_aligned_fast entry where it has one, else on_access_fast (the
 * runtime's miss path and trace replays, goldi_dispatch_as_live). */
GOLDI_INLINE void goldi_sink_access_fast(const struct goldi_sink *s, struct goldi_thr *thr, uintptr_t addr,
                                         uint32_t size, bool write, uintptr_t pc) {
    goldi_aligned_fast_fn aligned = goldi_sink_aligned_fast(s, addr, size, write);
    if (GOLDI_LIKELY(aligned))
        aligned(s->self, thr, addr, pc);
    else
        s->on_access_fast(s->self, thr, addr, size, write, pc);
}
void goldi_dispatch_attach(struct goldi_sink *s);
/* The only attached sink if it has on_access_fast, else NULL. */
extern struct goldi_sink *goldi_dispatch_fast_sink;
void goldi_dispatch_thr_free(struct goldi_thr *thr);
unsigned goldi_dispatch_n_sinks(void);

/* Delivers ev to every active consumer. For access events the range is split
 * into 8-byte granules and each consumer's on_access runs under that granule's
 * lock (T10); hb steps and on_sync follow. Keeps thr->held[] up to date. */
void goldi_dispatch(const struct goldi_event *ev);
/* goldi_dispatch for an atomic load that read its own thread's plain store,
 * as found without the location's lock (rt/abi/atomic.c): it acquires
 * nothing, so only its access record remains, which the sink's on_atomic
 * makes under locks of its own. False (nothing done) unless one sink with
 * on_atomic is attached: the caller then takes the lock. */
bool goldi_dispatch_own_load(const struct goldi_event *ev);
/* goldi_dispatch as a live program's events reach the engines: a plain
 * READ/WRITE within two granules goes to the only sink's on_aligned_fast or
 * on_access_fast if it has one (the runtime calls it before any event is built:
 * rt/abi/access.c), everything else to goldi_dispatch. For the trace
 * front-ends, so that a replay checks the path the runtime takes; it also
 * notes a lock taken while another thread holds it, which only a trace can
 * say (goldi_sync_excludes). */
void goldi_dispatch_as_live(const struct goldi_event *ev);

#endif

/* Origin depot: interns what an origin is made of into dense ids, in two
 * parts. A site is (size, flags, frames): where and what the access was,
 * whichever thread made it (threads that run the same code share their
 * sites, so the depot grows with the program's code paths, not with the
 * threads it ever started: the thread of an access travels beside its
 * origin); a lock set is the held locks (address and mode each, in acquisition
 * order). An origin is then the pair, composed arithmetically into one
 * 32-bit id while both parts fit their fields (event.h), so a thread that
 * takes one lock after another at the same code (one bucket lock per
 * operation) gets its origins without a lookup: its sites stay cached
 * across lock operations and its lock set is interned once per lock
 * operation. Pairs whose parts do not fit are interned whole in a third
 * depot. Every (site, lock set) has exactly one id either way.
 * Records are immutable once published and never freed (their number is
 * bounded by the program's code paths and locks). Finding a record
 * is lock-free (chains only grow at the head, with a release store); one
 * spinlock per depot serialises inserts, which are rare (a new site, lock
 * set or pair), so fork takes three locks to keep the depots whole in the
 * child. Lookup by id is lock-free through a two-level id table per depot. */
#include "event.h"
#include "../base/atfork.h"
#include "../base/alloc.h"
#include "../base/spinlock.h"

#define MAX_FRAMES 64
#define ID_CHUNK_BITS 12
#define ID_CHUNKS (1u << 19)    /* up to 2^31 ids per depot */

struct rec {
    struct rec *next;          /* bucket chain */
    uint64_t hash;
    uint32_t id;
    uint32_t size, flags;
    uint32_t n_frames, n_held;
    uintptr_t *frames;         /* n_frames, then n_held lock addresses */
    uint8_t *modes;            /* n_held */
};

/* The big arrays live apart from the depot (zero-initialised, so in .bss):
 * inside the initialised struct they would put 4 MiB per depot into .data,
 * that is into every instrumented executable's file. */
struct depot {
    struct rec *_Atomic *buckets;   /* chain heads, 1 << bucket_bits */
    unsigned bucket_bits;
    goldi_spinlock_t lock;     /* inserts (chains and the id table) */
    uint32_t next_id;          /* (under lock; starts at 1: 0 is "none") */
    _Atomic(struct rec *) **id_table;   /* ID_CHUNKS: chunk -> array of records */
};

#define SITE_BUCKET_BITS 16
#define SET_BUCKET_BITS 12
#define WHOLE_BUCKET_BITS 16
static struct rec *_Atomic site_buckets[1u << SITE_BUCKET_BITS];
static struct rec *_Atomic set_buckets[1u << SET_BUCKET_BITS];
static struct rec *_Atomic whole_buckets[1u << WHOLE_BUCKET_BITS];
static _Atomic(struct rec *) *site_ids[ID_CHUNKS];
static _Atomic(struct rec *) *set_ids[ID_CHUNKS];
static _Atomic(struct rec *) *whole_ids[ID_CHUNKS];
static struct depot sites = { site_buckets, SITE_BUCKET_BITS, GOLDI_SPINLOCK_INIT, 1, site_ids };
static struct depot locksets = { set_buckets, SET_BUCKET_BITS, GOLDI_SPINLOCK_INIT, 1, set_ids };
static struct depot wholes = { whole_buckets, WHOLE_BUCKET_BITS, GOLDI_SPINLOCK_INIT, 1, whole_ids };

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_info(const struct goldi_origin_info *in) {
    uint64_t h = mix(mix(0, in->size), in->flags);
    for (uint32_t i = 0; i < in->n_frames; i++)
        h = mix(h, in->frames[i]);
    for (uint32_t i = 0; i < in->n_held; i++)
        h = mix(mix(h, in->held_addr[i]), in->held_mode[i]);
    return h;
}

/* Does r hold exactly in (already clamped to MAX_FRAMES / GOLDI_MAX_HELD)? */
static bool same_info(const struct rec *r, const struct goldi_origin_info *in) {
    if (r->size != in->size || r->flags != in->flags || r->n_frames != in->n_frames ||
        r->n_held != in->n_held)
        return false;
    for (uint32_t i = 0; i < in->n_frames; i++)
        if (r->frames[i] != in->frames[i])
            return false;
    for (uint32_t i = 0; i < in->n_held; i++)
        if (r->frames[in->n_frames + i] != in->held_addr[i] || r->modes[i] != in->held_mode[i])
            return false;
    return true;
}

/* The id table's slot of id; create (under the depot's lock) adds its chunk. */
static _Atomic(struct rec *) *id_slot(struct depot *d, uint32_t id, bool create) {
    uint32_t chunk = id >> ID_CHUNK_BITS;
    if (chunk >= ID_CHUNKS)
        return NULL;
    _Atomic(struct rec *) *c = __atomic_load_n(&d->id_table[chunk], __ATOMIC_ACQUIRE);
    if (!c) {
        if (!create)
            return NULL;
        c = goldi_alloc(sizeof(*c) << ID_CHUNK_BITS);
        __atomic_store_n(&d->id_table[chunk], c, __ATOMIC_RELEASE);
    }
    return &c[id & ((1u << ID_CHUNK_BITS) - 1)];
}

static const struct rec *depot_get(struct depot *d, uint32_t id) {
    _Atomic(struct rec *) *slot = id ? id_slot(d, id, false) : NULL;
    return slot ? atomic_load_explicit(slot, memory_order_acquire) : NULL;
}

/* The id of in (clamped) in depot d, interned if new. */
static uint32_t depot_intern(struct depot *d, const struct goldi_origin_info *in) {
    uint64_t h = hash_info(in);
    struct rec *_Atomic *b = &d->buckets[h >> (64 - d->bucket_bits)];
    struct rec *seen = atomic_load_explicit(b, memory_order_acquire);
    for (struct rec *r = seen; r; r = r->next)
        if (r->hash == h && same_info(r, in))
            return r->id;
    goldi_spin_lock(&d->lock);
    struct rec *head = atomic_load_explicit(b, memory_order_relaxed);
    for (struct rec *r = head; r != seen; r = r->next) {   /* inserted since we looked */
        if (r->hash == h && same_info(r, in)) {
            goldi_spin_unlock(&d->lock);
            return r->id;
        }
    }
    struct rec *r = goldi_alloc(sizeof *r + sizeof(uintptr_t) * (in->n_frames + in->n_held) + in->n_held);
    r->frames = (uintptr_t *)(r + 1);
    r->modes = (uint8_t *)(r->frames + in->n_frames + in->n_held);
    r->hash = h;
    r->size = in->size;
    r->flags = in->flags;
    r->n_frames = in->n_frames;
    r->n_held = in->n_held;
    for (uint32_t i = 0; i < in->n_frames; i++)
        r->frames[i] = in->frames[i];
    for (uint32_t i = 0; i < in->n_held; i++) {
        r->frames[in->n_frames + i] = in->held_addr[i];
        r->modes[i] = in->held_mode[i];
    }
    r->id = d->next_id;
    __atomic_store_n(&d->next_id, r->id + 1, __ATOMIC_RELAXED);   /* (stats read it without the lock) */
    _Atomic(struct rec *) *slot = id_slot(d, r->id, true);
    if (!slot)
        goldi_die("origin depot full (2^31 distinct sites, lock sets or origins)");
    atomic_store_explicit(slot, r, memory_order_release);
    r->next = head;
    atomic_store_explicit(b, r, memory_order_release);
    goldi_spin_unlock(&d->lock);
    return r->id;
}

/* The site and lock-set halves of in. */
static struct goldi_origin_info site_of(const struct goldi_origin_info *in) {
    struct goldi_origin_info s = *in;
    s.n_held = 0;
    return s;
}
static struct goldi_origin_info lockset_of(const struct goldi_origin_info *in) {
    return (struct goldi_origin_info){ .n_held = in->n_held, .held_addr = in->held_addr, .held_mode = in->held_mode };
}

/* A pair whose parts do not fit a composed id: interned whole. */
goldi_origin_t goldi_origin_compose_whole(goldi_site_t site, goldi_lockset_t set) {
    const struct rec *s = depot_get(&sites, site), *l = depot_get(&locksets, set);
    GOLDI_CHECK(s && (l || !set));
    struct goldi_origin_info in = {
        .size = s->size, .flags = s->flags, .n_frames = s->n_frames, .frames = s->frames,
        .n_held = l ? l->n_held : 0, .held_addr = l ? l->frames : NULL, .held_mode = l ? l->modes : NULL,
    };
    uint32_t id = depot_intern(&wholes, &in);
    GOLDI_CHECK(id < GOLDI_ORIGIN_COMPOSED);
    return id;
}

goldi_origin_t goldi_origin_intern(const struct goldi_origin_info *info) {
    struct goldi_origin_info in = *info;
    if (in.n_frames > MAX_FRAMES)
        in.n_frames = MAX_FRAMES;
    if (in.n_held > GOLDI_MAX_HELD)
        in.n_held = GOLDI_MAX_HELD;
    struct goldi_origin_info s = site_of(&in), l = lockset_of(&in);
    return goldi_origin_compose(depot_intern(&sites, &s), in.n_held ? depot_intern(&locksets, &l) : 0);
}

bool goldi_origin_lookup(goldi_origin_t id, struct goldi_origin_info *out) {
    const struct rec *s, *l = NULL;
    if (id & GOLDI_ORIGIN_COMPOSED) {
        goldi_lockset_t set = (id & ~GOLDI_ORIGIN_COMPOSED) >> GOLDI_ORIGIN_SITE_BITS;
        s = depot_get(&sites, id & ((1u << GOLDI_ORIGIN_SITE_BITS) - 1));
        l = set ? depot_get(&locksets, set) : NULL;
        if (!s || (set && !l))
            return false;
    } else {
        s = depot_get(&wholes, id);
        if (!s)
            return false;
    }
    out->size = s->size;
    out->flags = s->flags;
    out->n_frames = s->n_frames;
    out->frames = s->frames;
    out->n_held = l ? l->n_held : s->n_held;
    out->held_addr = l ? l->frames : s->frames + s->n_frames;
    out->held_mode = l ? l->modes : s->modes;
    return true;
}

void goldi_origin_counts(uint32_t *n_sites, uint32_t *n_locksets, uint32_t *n_wholes) {
    *n_sites = __atomic_load_n(&sites.next_id, __ATOMIC_RELAXED) - 1;
    *n_locksets = __atomic_load_n(&locksets.next_id, __ATOMIC_RELAXED) - 1;
    *n_wholes = __atomic_load_n(&wholes.next_id, __ATOMIC_RELAXED) - 1;
}

static uint32_t origin_flags(const struct goldi_event *ev) {
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_WRITE:
        return GOLDI_ORIGIN_WRITE;
    case GOLDI_EV_FREE:
        return GOLDI_ORIGIN_WRITE | GOLDI_ORIGIN_FREE;
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
        return GOLDI_ORIGIN_WRITE | GOLDI_ORIGIN_ATOMIC;
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_CASFAIL:
        return GOLDI_ORIGIN_ATOMIC;
    default:
        return 0;
    }
}

/* The site of ev: pc and the shadow stack innermost first, clamped as
 * interned. The caller's buffer holds the frames. */
struct site_info {
    uintptr_t frames[MAX_FRAMES];
    struct goldi_origin_info in;
};

static void site_info(const struct goldi_event *ev, struct site_info *e) {
    const struct goldi_thr *thr = ev->thr;
    uint32_t nf = 0;
    e->frames[nf++] = ev->pc;
    uint32_t depth = thr->depth < GOLDI_MAX_STACK ? thr->depth : GOLDI_MAX_STACK;
    while (depth > 0 && nf < MAX_FRAMES)
        e->frames[nf++] = thr->stack[--depth];
    e->in = (struct goldi_origin_info){
        .size = ev->size, .flags = origin_flags(ev), .n_frames = nf, .frames = e->frames,
    };
}

bool goldi_event_site_is(goldi_site_t site, const struct goldi_event *ev) {
    const struct rec *r = depot_get(&sites, site);
    if (!r)
        return false;
    struct site_info e;
    site_info(ev, &e);
    return same_info(r, &e.in);
}

goldi_site_t goldi_event_site_interned(const struct goldi_event *ev) {
    struct site_info e;
    site_info(ev, &e);
    return depot_intern(&sites, &e.in);
}

/* The set of the one lock in (n_held 1), from the thread's memo or the
 * depot (then memoised). A signal handler's lock operations on this thread
 * may rewrite an entry between our looks (as they may change held[] while
 * goldi_thr_lockset_slow copies it: the set only names the locks in
 * reports): the address is cleared first and set last when an entry is
 * rewritten, and read again after the set and mode (one word), so a hit is
 * an entry some writer left whole. */
static goldi_lockset_t lockset_one(struct goldi_thr *thr, const struct goldi_origin_info *in) {
    uintptr_t a = in->held_addr[0];
    uint64_t mode = in->held_mode[0];
    struct goldi_lockset_memo *e =
        &thr->lsm[(a * 0x9E3779B97F4A7C15ull) >> (64 - __builtin_ctz(GOLDI_LOCKSET_MEMO))];
    if (a && e->addr == a) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        uint64_t sm = e->set_mode;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (e->addr == a && sm >> 32 == mode)
            return (goldi_lockset_t)sm;
    }
    goldi_lockset_t set = depot_intern(&locksets, in);
    e->addr = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->set_mode = set | mode << 32;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->addr = a;
    return set;
}

goldi_lockset_t goldi_thr_lockset_slow(struct goldi_thr *thr) {
    /* (the version first: should a signal handler's lock operations change
     * held[] while we read it, the cache stays stale and is built again) */
    uint32_t version = __atomic_load_n(&thr->held_version, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uintptr_t addr[GOLDI_MAX_HELD];
    uint8_t mode[GOLDI_MAX_HELD];
    uint32_t nh = thr->n_held < GOLDI_MAX_HELD ? thr->n_held : GOLDI_MAX_HELD;
    for (uint32_t i = 0; i < nh; i++) {
        addr[i] = thr->held[i].obj->addr;
        mode[i] = thr->held[i].mode;
    }
    struct goldi_origin_info in = { .n_held = nh, .held_addr = addr, .held_mode = mode };
    goldi_lockset_t set = nh == 1 ? lockset_one(thr, &in) : nh ? depot_intern(&locksets, &in) : 0;
    thr->lockset = set;
    thr->lockset_bits = set < (UINT32_C(1) << (31 - GOLDI_ORIGIN_SITE_BITS))
                            ? GOLDI_ORIGIN_COMPOSED | set << GOLDI_ORIGIN_SITE_BITS : 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    thr->lockset_version = version + 1;
    return set;
}

/* The identity of the call path made by a call at pc on top of the stack
 * whose identity is parent (event.h): from the path memo, else a new one. */
static uint64_t path_id(struct goldi_thr *thr, uint64_t parent, uintptr_t pc) {
    if (thr->in_signal)
        return ++thr->signal_ids | UINT64_C(1) << 63;
    struct goldi_path_memo *m =
        &thr->path[((parent ^ pc) * 0x9E3779B97F4A7C15ull) >> (64 - __builtin_ctz(GOLDI_PATH_MEMO))];
    if (m->id && m->parent == parent && m->pc == pc)
        return m->id;
    uint64_t id = ++thr->stack_ids + GOLDI_STACK_ROOT;
    m->id = 0;   /* (a lookup never sees a half-written pair) */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    m->parent = parent;
    m->pc = pc;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    m->id = id;
    return id;
}

/* Finds the identities of the frames pushed since the deepest known one. */
void goldi_thr_stack_resolve(struct goldi_thr *thr) {
    uint32_t top = thr->depth < GOLDI_MAX_STACK ? thr->depth : GOLDI_MAX_STACK, k = top;
    while (k > 0 && !thr->frame_id[k])
        k--;
    if (!k)
        thr->frame_id[0] = GOLDI_STACK_ROOT;
    uint64_t id = thr->frame_id[k];
    for (uint32_t i = k; i < top; i++) {
        id = path_id(thr, id, thr->stack[i]);
        thr->frame_id[i + 1] = id;
    }
    thr->stack_id = id;
}

goldi_site_t goldi_origin_memo_site_found(struct goldi_thr *thr, uintptr_t pc, uint8_t kind, uint32_t size) {
    goldi_site_t site = goldi_origin_memo_site(thr, pc, kind, size);
    if (site || thr->stack_id)
        return site;
    goldi_thr_stack_resolve(thr);
    return goldi_origin_memo_site(thr, pc, kind, size);
}

/* The thread's memo (event.h) first: a loop body doing the same accesses at
 * the same stack interns its site once (lu's row update: a read and a write
 * per granule per phase), whatever locks it takes meanwhile. */
goldi_origin_t goldi_event_origin(const struct goldi_event *ev) {
    goldi_site_t site = goldi_origin_memo_site_found(ev->thr, ev->pc, ev->kind, ev->size);
    if (!site) {
        site = goldi_event_site_interned(ev);
        goldi_event_site_memo_put(ev, site);
    }
    return goldi_origin_compose(site, goldi_thr_lockset(ev->thr));
}

static void origin_lock(void) {
    goldi_spin_lock(&sites.lock);
    goldi_spin_lock(&locksets.lock);
    goldi_spin_lock(&wholes.lock);
}

static void origin_unlock(void) {
    goldi_spin_unlock(&wholes.lock);
    goldi_spin_unlock(&locksets.lock);
    goldi_spin_unlock(&sites.lock);
}

__attribute__((constructor(102))) static void origin_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ORIGIN, origin_lock, origin_unlock, origin_unlock);
}

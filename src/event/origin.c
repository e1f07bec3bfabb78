/* Origin depot: interns (tid, size, flags, frames, held locks) into dense
 * 32-bit ids. Records are immutable once published and never freed (the
 * number of distinct origins is bounded by the program's code paths and
 * threads). Finding an interned origin is lock-free (chains only grow at
 * the head, with a release store); a bucket's spinlock serialises inserts.
 * Lookup by id is lock-free through a two-level id table. */
#include "event.h"
#include "../base/atfork.h"
#include "../base/alloc.h"
#include "../base/spinlock.h"

#define MAX_FRAMES 64
#define BUCKET_BITS 16
#define ID_CHUNK_BITS 12
#define ID_CHUNKS (1u << 20)    /* up to 2^32 ids */

struct rec {
    struct rec *next;          /* bucket chain */
    uint64_t hash;
    goldi_origin_t id;
    goldi_tid_t tid;
    uint32_t size, flags;
    uint32_t n_frames, n_held;
    uintptr_t *frames;         /* n_frames, then n_held lock addresses */
    uint8_t *modes;            /* n_held */
};

static struct {
    goldi_spinlock_t lock;
    struct rec *_Atomic head;
} buckets[1u << BUCKET_BITS];
static _Atomic(struct rec *) *id_table[ID_CHUNKS];   /* chunk -> array of records */
static goldi_spinlock_t id_lock = GOLDI_SPINLOCK_INIT;
static _Atomic uint32_t next_id = 1;

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_info(const struct goldi_origin_info *in) {
    uint64_t h = mix(mix(mix(0, in->tid), in->size), in->flags);
    for (uint32_t i = 0; i < in->n_frames; i++)
        h = mix(h, in->frames[i]);
    for (uint32_t i = 0; i < in->n_held; i++)
        h = mix(mix(h, in->held_addr[i]), in->held_mode[i]);
    return h;
}

/* Does r hold exactly in (already clamped to MAX_FRAMES / GOLDI_MAX_HELD)? */
static bool same_info(const struct rec *r, const struct goldi_origin_info *in) {
    if (r->tid != in->tid || r->size != in->size || r->flags != in->flags || r->n_frames != in->n_frames ||
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

static bool same(const struct rec *r, uint64_t h, const struct goldi_origin_info *in) {
    return r->hash == h && same_info(r, in);
}

static _Atomic(struct rec *) *id_slot(uint32_t id, bool create) {
    uint32_t chunk = id >> ID_CHUNK_BITS;
    if (chunk >= ID_CHUNKS)
        return NULL;
    _Atomic(struct rec *) *c = __atomic_load_n(&id_table[chunk], __ATOMIC_ACQUIRE);
    if (!c) {
        if (!create)
            return NULL;
        goldi_spin_lock(&id_lock);
        c = id_table[chunk];
        if (!c) {
            c = goldi_alloc(sizeof(*c) << ID_CHUNK_BITS);
            __atomic_store_n(&id_table[chunk], c, __ATOMIC_RELEASE);
        }
        goldi_spin_unlock(&id_lock);
    }
    return &c[id & ((1u << ID_CHUNK_BITS) - 1)];
}

goldi_origin_t goldi_origin_intern(const struct goldi_origin_info *info) {
    struct goldi_origin_info in = *info;
    if (in.n_frames > MAX_FRAMES)
        in.n_frames = MAX_FRAMES;
    if (in.n_held > GOLDI_MAX_HELD)
        in.n_held = GOLDI_MAX_HELD;
    uint64_t h = hash_info(&in);
    unsigned b = (unsigned)(h >> (64 - BUCKET_BITS));
    struct rec *seen = atomic_load_explicit(&buckets[b].head, memory_order_acquire);
    for (struct rec *r = seen; r; r = r->next)
        if (same(r, h, &in))
            return r->id;
    goldi_spin_lock(&buckets[b].lock);
    struct rec *head = atomic_load_explicit(&buckets[b].head, memory_order_relaxed);
    for (struct rec *r = head; r != seen; r = r->next) {   /* inserted since we looked */
        if (same(r, h, &in)) {
            goldi_spin_unlock(&buckets[b].lock);
            return r->id;
        }
    }
    struct rec *r = goldi_alloc(sizeof *r + sizeof(uintptr_t) * (in.n_frames + in.n_held) + in.n_held);
    r->frames = (uintptr_t *)(r + 1);
    r->modes = (uint8_t *)(r->frames + in.n_frames + in.n_held);
    r->hash = h;
    r->tid = in.tid;
    r->size = in.size;
    r->flags = in.flags;
    r->n_frames = in.n_frames;
    r->n_held = in.n_held;
    for (uint32_t i = 0; i < in.n_frames; i++)
        r->frames[i] = in.frames[i];
    for (uint32_t i = 0; i < in.n_held; i++) {
        r->frames[in.n_frames + i] = in.held_addr[i];
        r->modes[i] = in.held_mode[i];
    }
    r->id = atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
    _Atomic(struct rec *) *slot = id_slot(r->id, true);
    if (!slot)
        goldi_die("origin depot full (2^32 distinct access origins)");
    atomic_store_explicit(slot, r, memory_order_release);
    r->next = head;
    atomic_store_explicit(&buckets[b].head, r, memory_order_release);
    goldi_spin_unlock(&buckets[b].lock);
    return r->id;
}

bool goldi_origin_lookup(goldi_origin_t id, struct goldi_origin_info *out) {
    if (!id)
        return false;
    _Atomic(struct rec *) *slot = id_slot(id, false);
    struct rec *r = slot ? atomic_load_explicit(slot, memory_order_acquire) : NULL;
    if (!r)
        return false;
    out->tid = r->tid;
    out->size = r->size;
    out->flags = r->flags;
    out->n_frames = r->n_frames;
    out->frames = r->frames;
    out->n_held = r->n_held;
    out->held_addr = r->frames + r->n_frames;
    out->held_mode = r->modes;
    return true;
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

/* The origin of ev: pc and the shadow stack innermost first, the held
 * locks, clamped as interned. The caller's buffers hold frames and locks. */
struct event_info {
    uintptr_t frames[MAX_FRAMES];
    uintptr_t held_addr[GOLDI_MAX_HELD];
    uint8_t held_mode[GOLDI_MAX_HELD];
    struct goldi_origin_info in;
};

static void event_info(const struct goldi_event *ev, struct event_info *e) {
    const struct goldi_thr *thr = ev->thr;
    uint32_t nf = 0;
    e->frames[nf++] = ev->pc;
    uint32_t depth = thr->depth < GOLDI_MAX_STACK ? thr->depth : GOLDI_MAX_STACK;
    while (depth > 0 && nf < MAX_FRAMES)
        e->frames[nf++] = thr->stack[--depth];
    uint32_t nh = thr->n_held < GOLDI_MAX_HELD ? thr->n_held : GOLDI_MAX_HELD;
    for (uint32_t i = 0; i < nh; i++) {
        e->held_addr[i] = thr->held[i].obj->addr;
        e->held_mode[i] = thr->held[i].mode;
    }
    e->in = (struct goldi_origin_info){
        .tid = thr->tid, .size = ev->size, .flags = origin_flags(ev), .n_frames = nf, .frames = e->frames,
        .n_held = nh, .held_addr = e->held_addr, .held_mode = e->held_mode,
    };
}

/* Is id the origin goldi_event_origin(ev) would return? Exact: compares
 * everything the origin is made of against the interned record. */
bool goldi_event_origin_is(goldi_origin_t id, const struct goldi_event *ev) {
    _Atomic(struct rec *) *slot = id ? id_slot(id, false) : NULL;
    struct rec *r = slot ? atomic_load_explicit(slot, memory_order_acquire) : NULL;
    if (!r)
        return false;
    struct event_info e;
    event_info(ev, &e);
    return same_info(r, &e.in);
}

/* The thread's memo (event.h) first: a loop body doing the same accesses at
 * the same stack with the same locks interns once (lu's row update: a read
 * and a write per granule per phase). */
goldi_origin_t goldi_event_origin(const struct goldi_event *ev) {
    goldi_origin_t id = goldi_event_origin_memo(ev);
    if (id)
        return id;
    struct event_info e;
    event_info(ev, &e);
    id = goldi_origin_intern(&e.in);
    goldi_event_origin_memo_put(ev, id);
    return id;
}

static void origin_lock(void) {
    for (unsigned b = 0; b < (1u << BUCKET_BITS); b++)
        goldi_spin_lock(&buckets[b].lock);
    goldi_spin_lock(&id_lock);
}

static void origin_unlock(void) {
    goldi_spin_unlock(&id_lock);
    for (unsigned b = 0; b < (1u << BUCKET_BITS); b++)
        goldi_spin_unlock(&buckets[b].lock);
}

__attribute__((constructor(102))) static void origin_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ORIGIN, origin_lock, origin_unlock, origin_unlock);
}

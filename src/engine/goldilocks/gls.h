/* Internal interface of the Goldilocks engine (ALGORITHMS.md 2.3): token
 * encoding, the token->mask map used by walks (gls_set.c), and the global
 * update list with its per-chunk entry registry (gls_list.c).
 * Engine-private: nothing here is seen outside src/engine/goldilocks/. */
#ifndef GOLDI_GLS_H
#define GOLDI_GLS_H

#include "../engine.h"
#include "../../base/spinlock.h"
#include "../../shadow/shadow.h"

/* --- tokens ------------------------------------------------------------------
 * A token is one uint64:
 *
 *   | 63 62 | 61 .. 0                       |
 *    kind    value
 *    00      sync token id (goldi_token.id, unique for ever, never 0)
 *    01      thread tid          (thread token t)
 *    10      tid                 (Frel(t): "ordered before t's last release fence")
 *    11      tid                 (Facq(t): "ordered before t's next acquire fence")
 *
 * 0 is never a token (sync ids start at 1, the other kinds have a kind bit),
 * so 0 marks empty map slots and unwritten cells. */
#define GLS_TOK_KIND_SHIFT 62
#define GLS_TOK_VALUE_MASK ((UINT64_C(1) << GLS_TOK_KIND_SHIFT) - 1)
enum gls_tok_kind { GLS_TK_SYNC = 0, GLS_TK_THREAD = 1, GLS_TK_FREL = 2, GLS_TK_FACQ = 3 };
GOLDI_INLINE uint64_t gls_tok(enum gls_tok_kind k, uint64_t v) {
    return ((uint64_t)k << GLS_TOK_KIND_SHIFT) | (v & GLS_TOK_VALUE_MASK);
}
GOLDI_INLINE enum gls_tok_kind gls_tok_kind(uint64_t tok) {
    return (enum gls_tok_kind)(tok >> GLS_TOK_KIND_SHIFT);
}
GOLDI_INLINE uint64_t gls_tok_value(uint64_t tok) { return tok & GLS_TOK_VALUE_MASK; }
/* Writes "T3", "Frel(T3)", "Facq(T3)" or "sync#12"; returns the length. */
int gls_tok_format(char *buf, size_t n, uint64_t tok);

/* --- token -> mask map ---------------------------------------------------------
 * One walk evaluates up to 64 Goldilocksets at once: bit i of map[tok] says
 * "tok is in set i". Every token rule then becomes one mask operation for all
 * sets: "a in LS => add b" is map[b] |= map[a]; the atomic store rule
 * "a in LS ? add b : remove b" is map[b] = map[a]. Open addressing, linear
 * probing, never shrinks; a cleared map keeps its capacity. Keys are never
 * deleted (a removed token just has mask 0). */
struct gls_kv {
    uint64_t key;       /* token, 0 = empty slot */
    uint64_t mask;      /* sets containing key */
};
struct gls_map {
    struct gls_kv *kv;  /* cap slots */
    uint32_t cap;       /* power of two */
    uint32_t n;         /* keys in use */
    uint32_t *used;     /* indices of used slots (cap / 2 of them), for a cheap clear */
};
void gls_map_init(struct gls_map *m);
void gls_map_destroy(struct gls_map *m);
void gls_map_clear(struct gls_map *m);
/* Lookups are inline: the walks (the checks' and the GC's) make one or two
 * per cell, and a call cost as much as the probe. */
GOLDI_INLINE uint32_t gls_map_hash_slot(uint64_t key, uint32_t cap) {
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}
/* Mask of key (0 if absent). */
GOLDI_INLINE uint64_t gls_map_get(const struct gls_map *m, uint64_t key) {
    for (uint32_t i = gls_map_hash_slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->kv[i].key == key)
            return m->kv[i].mask;
        if (m->kv[i].key == 0)
            return 0;
    }
}
/* Inserts absent key with mask 0 (growing the map if needed); its slot. */
uint64_t *gls_map_insert(struct gls_map *m, uint64_t key);
/* Slot of key's mask, inserted with mask 0 if absent. Invalidated by the next insert. */
GOLDI_INLINE uint64_t *gls_map_slot(struct gls_map *m, uint64_t key) {
    GOLDI_DCHECK(key != 0);
    for (uint32_t i = gls_map_hash_slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->kv[i].key == key)
            return &m->kv[i].mask;
        if (m->kv[i].key == 0)
            return gls_map_insert(m, key);
    }
}

/* A materialised Goldilockset: sorted distinct tokens (update-list GC).
 * Immutable and shared: the entries one GC run gives the same set hold one
 * copy (refcounted; gls_mat_free drops a reference). */
struct gls_mat {
    uint32_t n;
    _Atomic uint32_t refs;
    uint64_t hash;      /* gls_mat_hash of the sorted tokens */
    uint64_t tok[];
};
uint64_t gls_mat_hash(const uint64_t *tok, uint32_t n);
struct gls_mat *gls_mat_ref(struct gls_mat *s);   /* one more reference */
/* Is a the set tok[0..n) (sorted) with that hash? */
bool gls_mat_same(const struct gls_mat *a, const uint64_t *tok, uint32_t n, uint64_t hash);
struct gls_mat *gls_mat_new(const uint64_t *tok, uint32_t n);   /* sorts a copy */
void gls_mat_free(struct gls_mat *s);             /* drops one reference; NULL is fine */
bool gls_mat_has(const struct gls_mat *s, uint64_t tok);

/* --- per-access entries --------------------------------------------------------
 * One stored access of some bytes of one 8-byte granule: W (last plain write),
 * R(u), AW(u) or AR(u) (handbook 2.0). mask says which bytes of the granule the
 * entry describes: bytes whose histories are identical share one entry (an
 * aligned 8-byte access, an array swept by one thread), and an access of other
 * offsets/sizes splits it by clearing its bytes from the mask (1.1: per-byte
 * precision). Per byte, the entries whose mask has the byte are exactly the
 * byte's W, R(u), AW(u), AR(u).
 * Entries come from a type-stable pool (never unmapped) and carry a generation
 * bumped on every free, so the update-list registry can hold plain (entry, gen)
 * back-pointers and recognise stale ones.
 * Invariants (while gen is unchanged):
 *   - every field but gen/pos/seq is read and written only under the granule
 *     lock of addr; gen, pos and seq are atomics so the registry may peek at
 *     them without the lock (a peek only ever skips an entry that is stale);
 *   - pos only grows; chunk(pos) has reg_chunk == chunk(pos) and the entry is
 *     in that chunk's registry (so the GC can move it before freeing the chunk);
 *   - the Goldilockset of the entry is mat (or {owner} if mat is NULL) updated
 *     by every cell with id >= pos. */
enum gls_kind { GLS_W, GLS_R, GLS_AW, GLS_AR };
struct gls_entry {
    _Atomic uint64_t pos;        /* first cell not yet applied to the set */
    _Atomic uint64_t seq;        /* bumped on every change of pos/owner/mat (GC re-validation) */
    _Atomic uint32_t gen;        /* bumped on free */
    goldi_tid_t owner;           /* thread of the access */
    goldi_origin_t origin;       /* interned origin of the access (reports) */
    uint8_t kind;                /* enum gls_kind */
    uint8_t mask;                /* bytes of the granule described (bit i = byte addr+i) */
    uint8_t alock_mode;          /* enum goldi_lock_mode the owner held alock in */
    uint8_t alock_rw;            /* alock is an rwlock */
    uint64_t alock_id;           /* token id (tok[0].id) of a lock the owner held at the access; 0 = none */
    union {
        struct gls_mat *mat;     /* live: materialised set, or NULL = {owner} */
        struct gls_entry *next_free;   /* free: pool free list (lock-free readers of a
                                          stale entry see a non-NULL "mat" and back off) */
    };
    uint64_t reg_chunk;          /* chunk whose registry holds us (+1; 0 = none) */
    _Atomic uintptr_t addr;      /* the granule (GC takes its lock); set before registration */
} __attribute__((aligned(64)));  /* one cache line: a check or kept look touches one line */
_Static_assert(sizeof(struct gls_entry) == 64, "gls_entry must stay one cache line");

/* seq changes only under the entry's granule lock (readers peek without it),
 * or by the owner of an atomic entry that set seq's low bit (goldilocks.c,
 * atomic_record_lockfree): a plain store, no locked instruction. A change
 * adds 2 and clears the bit, as a release: a holder of the lock finds the
 * bit set only as an owner's attempt that is about to back off (it waited
 * for any owner inside first), and an owner's own change is the last of
 * its update, which the bit's clearing then publishes. */
GOLDI_INLINE void gls_entry_bump_seq(struct gls_entry *e) {
    atomic_store_explicit(&e->seq, (atomic_load_explicit(&e->seq, memory_order_relaxed) & ~UINT64_C(1)) + 2,
                          memory_order_release);
}

/* --- update list -----------------------------------------------------------------
 * Cells (condition token a, target token b, op) appended lock-free: a
 * fetch_add on tail reserves an id, the cell is written, then published by a
 * release store of a (a == 0 means "reserved, not written yet"). Cells live in
 * chunks of GLS_CHUNK cells reached through a ring of chunk slots indexed by
 * chunk number. The ring slots are static (type-stable) so a thread holding a
 * stale chunk number can still lock the slot and see that it moved on. */
#define GLS_CHUNK_BITS 12
#define GLS_CHUNK (1u << GLS_CHUNK_BITS)
#define GLS_RING_BITS 14             /* 2^26 live cells at most (1 GiB of cells) */
#define GLS_RING (1u << GLS_RING_BITS)
#define GLS_OP_STORE (UINT64_C(1) << 61)    /* in cell.b: "a in LS ? add b : remove b" */

struct gls_cell {
    _Atomic uint64_t a;          /* condition token; 0 = not written yet */
    uint64_t b;                  /* target token | GLS_OP_STORE */
};
/* A registry back-pointer: an entry (with its generation), or a run of
 * granules holding inline records or packed cells (e = address of the
 * first | GLS_REF_GRANULE, gen = how many consecutive granules, >= 1; see
 * "inline records" below). Entries are 16-byte aligned, so bit 0 tags. */
#define GLS_REF_GRANULE ((uintptr_t)1)
struct gls_ref {
    struct gls_entry *e;
    uint32_t gen;
};
GOLDI_INLINE bool gls_ref_is_granule(const struct gls_ref *r) { return (uintptr_t)r->e & GLS_REF_GRANULE; }
GOLDI_INLINE uintptr_t gls_ref_granule(const struct gls_ref *r) { return (uintptr_t)r->e & ~GLS_REF_GRANULE; }
GOLDI_INLINE uint32_t gls_ref_granules(const struct gls_ref *r) { return r->gen; }
/* A chunk's registry is sharded by registering thread, so threads placing
 * entries in the same chunk do not contend for one lock and array. The
 * shards of a live chunk are one block (a line each), handed to the slot at
 * install and recycled at free: type-stable, never unmapped, so a thread
 * that read the block pointer just before a free still locks valid memory
 * (and then sees num moved on). */
#define GLS_REG_SHARDS 8
struct gls_reg {
    goldi_spinlock_t lock;       /* guards the arrays and counts */
    struct gls_ref *ref;         /* entries whose pos is in this chunk (may be stale) */
    uint32_t n_ref, cap_ref;
    uintptr_t *gran;             /* granule refs as runs: first address | (length - 1) << 48 */
    uint32_t n_gran, cap_gran;
    struct gls_reg *next_free;   /* shard 0 of a recycled block: the list->reg_free link */
} __attribute__((aligned(64)));
struct gls_slot {
    goldi_spinlock_t lock;       /* guards num (writes); with every shard lock, closed */
    _Atomic uint64_t num;        /* chunk number + 1 held here; 0 = empty */
    _Atomic(struct gls_cell *) cells;
    _Atomic bool closed;         /* GC took the registry: no more registrations */
    struct gls_reg *_Atomic reg; /* GLS_REG_SHARDS shards, set before num is published */
};
/* Freed cell chunks kept for reuse: as many as a GC run frees (it
 * collects the oldest half of its 2^19-cell budget), so the cells of a
 * program that synchronises all the time cycle through the stash instead
 * of being unmapped and mapped again, run after run (each unmap is a TLB
 * shootdown on every core the program runs on, each fresh chunk sixteen
 * page faults: lockfree unmapped 177 chunks in a 200 000-message run).
 * Kept: at most the 4 MiB of cells that were live before that run. */
#define GLS_STASH_CHUNKS 64
struct gls_list {
    _Atomic uint64_t tail;       /* next cell id to reserve */
    /* Is the granule ref of addr still registered in chunk c? (registry
     * compaction drops refs for which this says no; NULL = always yes; pr:
     * the compaction's residency answers, goldi_shadow_word_if_kept) */
    bool (*granule_registered)(void *ctx, struct goldi_shadow_probe *pr, uintptr_t addr, uint64_t c);
    void *granule_ctx;
    _Atomic uint64_t oldest;     /* oldest chunk not freed; cells below are gone */
    _Atomic uint64_t bytes_live, bytes_peak, chunks_live;   /* cell chunks only */
    _Atomic uint64_t chunks_mapped;   /* chunks that came from the allocator, not the stash */
    _Atomic uint64_t reg_bytes;  /* registry arrays (proportional to entries, not cells) */
    struct gls_cell *stash[GLS_STASH_CHUNKS];   /* freed chunks, zeroed, kept for reuse (under stash_lock) */
    struct gls_reg *reg_free;    /* recycled registry blocks (under stash_lock) */
    unsigned n_stash;
    goldi_spinlock_t stash_lock;
    struct gls_slot ring[GLS_RING];
};
void gls_list_init(struct gls_list *l);
/* Appends one cell; returns its id. */
uint64_t gls_list_append(struct gls_list *l, uint64_t a, uint64_t b);
/* The slot of chunk c, installing the chunk if needed; NULL if c was freed. */
struct gls_slot *gls_list_chunk(struct gls_list *l, uint64_t c);
/* The slot of chunk c if it is installed now (walkers), else NULL. */
GOLDI_INLINE struct gls_slot *gls_list_peek(struct gls_list *l, uint64_t c) {
    struct gls_slot *s = &l->ring[c & (GLS_RING - 1)];
    return atomic_load_explicit(&s->num, memory_order_acquire) == c + 1 ? s : NULL;
}
/* Are all cells of the installed chunk of slot s written? (Every id of the
 * chunk must be reserved already, i.e. tail past its end.) A scan rather
 * than a counter bumped by every append: a shared counter next to num would
 * put a contended locked add and a cache-line transfer into every append
 * and every walker's peek. */
bool gls_list_chunk_written(const struct gls_slot *s);
/* Sets e->pos to want if want's chunk still takes registrations, else to the
 * current tail, and registers e in that chunk. want must be a pos at which the
 * entry's set equals its set at the tail (engine: no cell of the owner since
 * want). Caller holds e's granule lock. Returns the new pos. */
uint64_t gls_list_place(struct gls_list *l, struct gls_entry *e, uint64_t want);
/* Registers e (pos already set) in chunk c's registry if c still takes
 * registrations; false if it is closed or gone. Caller holds e's granule lock. */
bool gls_list_register(struct gls_list *l, struct gls_entry *e, uint64_t c);
/* Registers the granule ref of addr in chunk c (in the shard of thread t)
 * if c still takes registrations; false if it is closed or gone. */
bool gls_list_register_granule(struct gls_list *l, uintptr_t addr, uint64_t c, goldi_tid_t t);
/* gls_list_register_granule for a granule that gets a new record: where
 * it extends a run of a sweep's in the registry, the run takes the rest
 * of addr's span (a power of two: the bytes a shadow page covers) at
 * once, and *ahead is set to the span's end (else to 0): the granules
 * before it are registered in c while c takes registrations. */
bool gls_list_register_new_granule(struct gls_list *l, uintptr_t addr, uint64_t c, goldi_tid_t t, uintptr_t span,
                                   uintptr_t *ahead);
/* Does chunk c still take registrations? A yes read under a granule's lock
 * stays true for that granule until the lock is released: the GC closes c
 * (seq_cst) before it visits, under their locks, the granules registered
 * there (so a run registered earlier holds the granule's new record). */
GOLDI_INLINE bool gls_list_takes(struct gls_list *l, uint64_t c) {
    struct gls_slot *s = gls_list_peek(l, c);
    return s && !atomic_load_explicit(&s->closed, memory_order_seq_cst);
}
/* Same for a chosen pos (GC); pos's chunk must not be closed. */
void gls_list_place_at(struct gls_list *l, struct gls_entry *e, uint64_t pos);
/* GC side: closes chunk c (slot s) and appends its registry to *buf at
 * index at (the buffer grown as needed, capacity *cap, [0, at) kept);
 * returns how many refs it appended. */
uint32_t gls_list_close(struct gls_list *l, struct gls_slot *s, struct gls_ref **buf, uint32_t *cap, uint32_t at);
/* Copies entry refs [from, from + max) of shard k of chunk c's registry to
 * out without closing it; returns how many (0 past the end, or if c is not
 * installed or is closed). Refs may be stale, and a push that compacts the
 * shard between two calls moves refs across the slices' bounds. */
uint32_t gls_list_copy_shard_refs(struct gls_list *l, uint64_t c, unsigned k, uint32_t from, uint32_t max,
                                  struct gls_ref *out);
/* Frees the closed, fully written chunk c (the oldest). */
void gls_list_free_chunk(struct gls_list *l, struct gls_slot *s, uint64_t c);
/* Around fork (prepare; parent and child): every lock of the list. */
void gls_list_fork_lock(struct gls_list *l);
void gls_list_fork_unlock(struct gls_list *l);

#endif

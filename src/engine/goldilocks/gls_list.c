/* The Goldilocks update list (seed 000 fig. 3, ALGORITHMS.md 2.3): a global
 * sequence of immutable cells appended lock-free, stored in chunks of
 * GLS_CHUNK cells, plus the per-chunk registry of entries whose pos points into
 * the chunk (what the GC must move before freeing it). No libc, no malloc.
 *
 * Lock order: granule lock (held by callers of gls_list_place) -> slot lock ->
 * registry shard locks -> stash lock -> allocator locks. */
#include "gls.h"
#include "../../shadow/shadow.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"

#define CHUNK_BYTES (sizeof(struct gls_cell) * GLS_CHUNK)

void gls_list_init(struct gls_list *l) {
    atomic_store(&l->tail, 0);
    atomic_store(&l->oldest, 0);
}

static void bytes_add(struct gls_list *l, int64_t d) {
    uint64_t now = atomic_fetch_add_explicit(&l->bytes_live, (uint64_t)d, memory_order_relaxed) + (uint64_t)d;
    uint64_t peak = atomic_load_explicit(&l->bytes_peak, memory_order_relaxed);
    while (now > peak && !atomic_compare_exchange_weak(&l->bytes_peak, &peak, now))
        ;
}

/* A zeroed chunk: one from the stash, else fresh pages. Called under the
 * slot's lock, which the other appenders to the chunk wait for: the
 * stashed chunks were zeroed when they were freed. */
static struct gls_cell *cells_new(struct gls_list *l) {
    struct gls_cell *c = NULL;
    goldi_spin_lock(&l->stash_lock);
    if (l->n_stash)
        c = l->stash[--l->n_stash];
    goldi_spin_unlock(&l->stash_lock);
    if (c)
        return c;
    atomic_fetch_add_explicit(&l->chunks_mapped, 1, memory_order_relaxed);
    return goldi_alloc(CHUNK_BYTES);
}

static void cells_free(struct gls_list *l, struct gls_cell *c) {
    goldi_memset(c, 0, CHUNK_BYTES);   /* (by the GC, outside the slot lock) */
    goldi_spin_lock(&l->stash_lock);
    if (l->n_stash < GOLDI_ARRAY_SIZE(l->stash)) {
        l->stash[l->n_stash++] = c;
        c = NULL;
    }
    goldi_spin_unlock(&l->stash_lock);
    goldi_free(c);
}

static struct gls_reg *regs_new(struct gls_list *l) {
    goldi_spin_lock(&l->stash_lock);
    struct gls_reg *r = l->reg_free;
    if (r)
        l->reg_free = r->next_free;
    goldi_spin_unlock(&l->stash_lock);
    if (!r)
        r = goldi_alloc(sizeof *r * GLS_REG_SHARDS);
    for (unsigned k = 0; k < GLS_REG_SHARDS; k++) {
        r[k].ref = NULL;
        r[k].n_ref = r[k].cap_ref = 0;
        r[k].gran = NULL;
        r[k].n_gran = r[k].cap_gran = 0;
    }
    return r;
}

static void regs_free(struct gls_list *l, struct gls_reg *r) {
    goldi_spin_lock(&l->stash_lock);
    r->next_free = l->reg_free;
    l->reg_free = r;
    goldi_spin_unlock(&l->stash_lock);
}

struct gls_slot *gls_list_chunk(struct gls_list *l, uint64_t c) {
    struct gls_slot *s = gls_list_peek(l, c);
    if (GOLDI_LIKELY(s))
        return s;
    s = &l->ring[c & (GLS_RING - 1)];
    goldi_spin_lock(&s->lock);
    uint64_t num = atomic_load_explicit(&s->num, memory_order_relaxed);
    if (num == c + 1) {
        goldi_spin_unlock(&s->lock);
        return s;
    }
    if (num != 0) {
        goldi_spin_unlock(&s->lock);
        if (num - 1 < c)
            goldi_die("goldilocks: update list ring overflow (GC cannot keep up)");
        return NULL;   /* c is older than the chunk living here: freed long ago */
    }
    /* oldest only changes under the lock of the slot being freed; a freed c
     * had this very slot, so this read is consistent with the free. */
    if (c < atomic_load_explicit(&l->oldest, memory_order_acquire)) {
        goldi_spin_unlock(&s->lock);
        return NULL;
    }
    atomic_store_explicit(&s->cells, cells_new(l), memory_order_relaxed);
    atomic_store_explicit(&s->closed, false, memory_order_relaxed);
    atomic_store_explicit(&s->reg, regs_new(l), memory_order_relaxed);   /* nobody registers before num */
    atomic_store_explicit(&s->num, c + 1, memory_order_release);
    goldi_spin_unlock(&s->lock);
    atomic_fetch_add_explicit(&l->chunks_live, 1, memory_order_relaxed);
    bytes_add(l, (int64_t)CHUNK_BYTES);
    return s;
}

/* gls_list_chunk with its common case inline (the chunk is installed):
 * every append and registration asks, and the call cost more than the look. */
GOLDI_INLINE struct gls_slot *chunk_of(struct gls_list *l, uint64_t c) {
    struct gls_slot *s = gls_list_peek(l, c);
    return GOLDI_LIKELY(s) ? s : gls_list_chunk(l, c);
}

uint64_t gls_list_append(struct gls_list *l, uint64_t a, uint64_t b) {
    GOLDI_DCHECK(a != 0);
    uint64_t id = atomic_fetch_add(&l->tail, 1);
    /* The chunk of a just-reserved id cannot have been freed: the GC frees only
     * chunks whose cells are all written, and ours is not yet. */
    struct gls_slot *s = chunk_of(l, id >> GLS_CHUNK_BITS);
    GOLDI_CHECK(s != NULL);
    struct gls_cell *cell = &atomic_load_explicit(&s->cells, memory_order_relaxed)[id & (GLS_CHUNK - 1)];
    cell->b = b;
    atomic_store_explicit(&cell->a, a, memory_order_release);
    return id;
}

bool gls_list_chunk_written(const struct gls_slot *s) {
    const struct gls_cell *cells = atomic_load_explicit(&s->cells, memory_order_relaxed);
    for (uint32_t i = 0; i < GLS_CHUNK; i++)
        if (!atomic_load_explicit(&cells[i].a, memory_order_acquire))
            return false;
    return true;
}

/* A registry back-pointer is stale for good once the entry was freed (gen
 * moved) or its pos moved past this chunk (pos only grows within a gen). A pos
 * *below* the chunk is an entry being registered right now: keep it. */
static bool ref_stale(const struct gls_ref *r, uint64_t c) {
    return atomic_load_explicit(&r->e->gen, memory_order_acquire) != r->gen ||
           (atomic_load_explicit(&r->e->pos, memory_order_relaxed) >> GLS_CHUNK_BITS) > c;
}

static bool gran_stale(const struct gls_list *l, struct goldi_shadow_probe *pr, uintptr_t addr, uint64_t c) {
    return l->granule_registered && !l->granule_registered(l->granule_ctx, pr, addr, c);
}

/* After a compaction left n of cap slots in use: grows the array (elem
 * bytes each) unless that freed half, so a push costs amortised O(1). */
static void *reg_grow(struct gls_list *l, void *arr, uint32_t n, uint32_t *cap, size_t elem) {
    if (n < *cap / 2)
        return arr;
    uint32_t c = *cap ? *cap * 2 : 16;
    atomic_fetch_add_explicit(&l->reg_bytes, elem * (c - *cap), memory_order_relaxed);
    *cap = c;
    return goldi_realloc(arr, elem * c);
}

/* Granule refs are kept as runs of consecutive granules, one word each:
 * the first granule's address (below 2^47) | (run length - 1) << 48. A
 * thread registers the granules it creates in the order it touches them,
 * so an array sweep (stencil, lu, a pricer's inputs) registers a few words
 * per thread and chunk instead of one per granule (8 bytes each: a tenth
 * of those programs' peak memory). */
#define RUN_SHIFT 48
#define RUN_MAX (UINT64_C(1) << (64 - RUN_SHIFT))
GOLDI_INLINE uintptr_t run_start(uintptr_t v) { return v & ((UINT64_C(1) << RUN_SHIFT) - 1); }
GOLDI_INLINE uint64_t run_length(uintptr_t v) { return (v >> RUN_SHIFT) + 1; }

/* The one of s's last RUN_STREAMS runs that granule addr extends (it is
 * added to it) or lies in already (*inside: nothing changed); NULL if
 * none. (A loop over several arrays at once, a pricer reading five inputs
 * and writing one output, registers their granules in turn.) */
#define RUN_STREAMS 8
static uintptr_t *gran_extend(struct gls_reg *s, uintptr_t addr, bool *inside) {
    for (uint32_t i = s->n_gran, end = i > RUN_STREAMS ? i - RUN_STREAMS : 0; i-- > end;) {
        uintptr_t v = s->gran[i];
        uint64_t span = run_length(v) * GOLDI_GRANULE, d = addr - run_start(v);
        if (GOLDI_UNLIKELY(d <= span)) {
            *inside = d < span;
            if (d < span)
                return &s->gran[i];
            if (span == RUN_MAX * GOLDI_GRANULE)
                continue;
            s->gran[i] = v + ((uintptr_t)1 << RUN_SHIFT);
            return &s->gran[i];
        }
    }
    return NULL;
}

/* Heap sort of runs by start address: in place, O(n log n), for arrays
 * too small to pay a radix sort's counts. */
static void runs_sift(uintptr_t *g, uint32_t root, uint32_t n) {
    uintptr_t v = g[root];
    for (uint32_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && run_start(g[child + 1]) > run_start(g[child]))
            child++;
        if (run_start(g[child]) <= run_start(v))
            break;
        g[root] = g[child];
    }
    g[root] = v;
}

static void runs_heap_sort(uintptr_t *g, uint32_t n) {
    for (uint32_t i = n / 2; i-- > 0;)
        runs_sift(g, i, n);
    for (uint32_t end = n; end-- > 1;) {
        uintptr_t t = g[0];
        g[0] = g[end];
        g[end] = t;
        runs_sift(g, 0, end);
    }
}

/* Sorts runs by start address. A shard of scattered granules (a hash
 * table's nodes) holds ~10^5 runs, and the heap sort's 2 log n scattered
 * comparisons a run were most of registering a granule (hashtable). Beyond
 * RADIX_MIN runs: an LSD radix sort on the granule number, one byte a pass,
 * all six counts made in one read; a pass whose byte is the same for every
 * run moves nothing and is skipped (the runs of one heap share their high
 * bytes, so three or four passes remain). The counts and the scratch
 * copy come zeroed from the runtime's allocator. */
#define RADIX_MIN 256
#define RADIX_PASSES 6                    /* 48 bits of granule number */
static void runs_sort(uintptr_t *g, uint32_t n) {
    if (n < RADIX_MIN) {
        runs_heap_sort(g, n);
        return;
    }
    uint32_t(*count)[256] = goldi_alloc(sizeof(uint32_t[RADIX_PASSES][256]) + sizeof *g * n);
    uintptr_t *tmp = (uintptr_t *)(count + RADIX_PASSES), *from = g, *to = tmp;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t key = run_start(g[i]) / GOLDI_GRANULE;
        for (unsigned p = 0; p < RADIX_PASSES; p++)
            count[p][key >> (8 * p) & 0xff]++;
    }
    for (unsigned p = 0; p < RADIX_PASSES; p++) {
        uint64_t first = run_start(from[0]) / GOLDI_GRANULE >> (8 * p) & 0xff;
        if (count[p][first] == n)
            continue;   /* one byte value for all: the order stands */
        uint32_t at = 0;
        for (unsigned b = 0; b < 256; b++) {
            uint32_t c = count[p][b];
            count[p][b] = at;
            at += c;
        }
        for (uint32_t i = 0; i < n; i++)
            to[count[p][run_start(from[i]) / GOLDI_GRANULE >> (8 * p) & 0xff]++] = from[i];
        uintptr_t *t = from;
        from = to;
        to = t;
    }
    if (from != g)
        goldi_memcpy(g, from, sizeof *g * n);
    goldi_free(count);
}

/* Makes room in s's full array: sorts the runs by address, merges the ones
 * that touch or overlap (a granule registered twice is kept once), and
 * drops single granules that are stale. A stale granule inside a longer
 * run stays (it costs the run nothing, and the GC finds nothing there):
 * checking each granule of every run made compaction cost the whole array
 * sweep again every few pushes. */
static void gran_compact(struct gls_list *l, struct gls_reg *s, uint64_t c) {
    uintptr_t *g = s->gran;
    uint32_t n = s->n_gran;
    struct goldi_shadow_probe pr;
    goldi_shadow_probe_init(&pr);
    runs_sort(g, n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uintptr_t a = run_start(g[i]), end = a + run_length(g[i]) * GOLDI_GRANULE;
        if (k) {
            uintptr_t last = run_start(g[k - 1]), last_end = last + run_length(g[k - 1]) * GOLDI_GRANULE;
            if (a <= last_end && (end <= last_end || (end - last) / GOLDI_GRANULE <= RUN_MAX)) {
                if (end > last_end)
                    g[k - 1] = last | (uintptr_t)((end - last) / GOLDI_GRANULE - 1) << RUN_SHIFT;
                continue;
            }
        }
        if (run_length(g[i]) == 1 && gran_stale(l, &pr, a, c))
            continue;
        g[k++] = g[i];
    }
    s->n_gran = k;
}

/* Caller holds s->lock. Lazily compacts stale back-pointers before growing,
 * once the array holds GRAN_COMPACT_MIN runs: a compaction of a small array
 * freed a tenth of it (hashtable: 4361 compactions sorted 870 K runs for
 * 832 K registrations and kept 794 K), and below that size the heap sort's
 * scattered comparisons cost more than the memory it saves (2 KiB a shard). */
#define GRAN_COMPACT_MIN 256u
/* A new run of one granule, addr, in s (that extends none of its last). */
static void gran_push(struct gls_list *l, struct gls_reg *s, uint64_t c, uintptr_t addr) {
    GOLDI_DCHECK(run_start(addr) == addr);
    if (s->n_gran == s->cap_gran) {
        if (s->n_gran >= GRAN_COMPACT_MIN)
            gran_compact(l, s, c);
        s->gran = reg_grow(l, s->gran, s->n_gran, &s->cap_gran, sizeof *s->gran);
    }
    s->gran[s->n_gran++] = addr;
}

static void ref_push_locked(struct gls_list *l, struct gls_reg *s, uint64_t c, struct gls_entry *e) {
    if ((uintptr_t)e & GLS_REF_GRANULE) {
        uintptr_t addr = (uintptr_t)e & ~GLS_REF_GRANULE;
        bool inside;
        if (!gran_extend(s, addr, &inside))
            gran_push(l, s, c, addr);
        return;
    }
    if (s->n_ref == s->cap_ref) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < s->n_ref; i++)
            if (!ref_stale(&s->ref[i], c))
                s->ref[k++] = s->ref[i];
        s->n_ref = k;
        s->ref = reg_grow(l, s->ref, k, &s->cap_ref, sizeof *s->ref);
    }
    s->ref[s->n_ref].e = e;
    s->ref[s->n_ref].gen = atomic_load_explicit(&e->gen, memory_order_relaxed);
    s->n_ref++;
}

/* Shard t of chunk c's registry (slot s), locked, unless c is closed or
 * gone (NULL). closed only changes under every shard lock, so a push
 * under it is atomic with respect to gls_list_close. */
static struct gls_reg *reg_lock_open(struct gls_slot *s, uint64_t c, goldi_tid_t t) {
    struct gls_reg *r = &atomic_load_explicit(&s->reg, memory_order_acquire)[t & (GLS_REG_SHARDS - 1)];
    goldi_spin_lock(&r->lock);
    if (atomic_load_explicit(&s->num, memory_order_acquire) != c + 1 ||
        atomic_load_explicit(&s->closed, memory_order_relaxed)) {
        goldi_spin_unlock(&r->lock);
        return NULL;
    }
    return r;
}

/* Pushes a back-pointer into shard t of chunk c's registry unless c is
 * closed or gone. */
static bool reg_push(struct gls_list *l, struct gls_slot *s, uint64_t c, goldi_tid_t t, struct gls_entry *e) {
    struct gls_reg *r = reg_lock_open(s, c, t);
    if (!r)
        return false;
    ref_push_locked(l, r, c, e);
    goldi_spin_unlock(&r->lock);
    return true;
}

bool gls_list_register_granule(struct gls_list *l, uintptr_t addr, uint64_t c, goldi_tid_t t) {
    struct gls_slot *s = chunk_of(l, c);
    return s && reg_push(l, s, c, t, (struct gls_entry *)(addr | GLS_REF_GRANULE));
}

/* A run this long is a sweep's (gls_list_register_new_granule): an array
 * a thread fills. Shorter runs are objects of a few granules allocated one
 * after another (pipeline's 24-byte items, each a run ahead, made the GC
 * visit 8 times the granules, and its budget follow). */
#define RUN_AHEAD_MIN 8

bool gls_list_register_new_granule(struct gls_list *l, uintptr_t addr, uint64_t c, goldi_tid_t t, uintptr_t span,
                                   uintptr_t *ahead) {
    *ahead = 0;
    struct gls_slot *s = chunk_of(l, c);
    struct gls_reg *r = s ? reg_lock_open(s, c, t) : NULL;
    if (!r)
        return false;
    bool inside = false;   /* (registered ahead already: more streams than the thread keeps) */
    uintptr_t *run = gran_extend(r, addr, &inside), end = (addr | (span - 1)) + 1;
    uint64_t more = (end - addr) / GOLDI_GRANULE - 1;   /* (granules after addr in its page) */
    if (!run)
        gran_push(l, r, c, addr);
    else if (inside)
        *ahead = run_start(*run) + run_length(*run) * GOLDI_GRANULE;
    else if (more && run_length(*run) >= RUN_AHEAD_MIN && run_length(*run) + more <= RUN_MAX) {
        *run += (uintptr_t)more << RUN_SHIFT;
        *ahead = end;
    }
    goldi_spin_unlock(&r->lock);
    return true;
}

/* Registers e in chunk c unless c is closed or gone; false => retry. */
static bool place_in(struct gls_list *l, struct gls_entry *e, uint64_t c) {
    struct gls_slot *s = chunk_of(l, c);
    if (!s)
        return false;
    if (e->reg_chunk == c + 1)
        /* Already in c's registry, which the GC copies when it closes c: if it
         * is not closed yet, the GC's later look at e (under e's granule lock,
         * which our caller holds) sees the pos we are about to store. */
        return !atomic_load_explicit(&s->closed, memory_order_acquire);
    if (!reg_push(l, s, c, e->owner, e))
        return false;
    e->reg_chunk = c + 1;
    return true;
}

bool gls_list_register(struct gls_list *l, struct gls_entry *e, uint64_t c) { return place_in(l, e, c); }

uint64_t gls_list_place(struct gls_list *l, struct gls_entry *e, uint64_t want) {
    /* The normal case: want (the owner's first cell after its last own cell)
     * is in a live, open chunk, usually the one e is registered in already. */
    if (place_in(l, e, want >> GLS_CHUNK_BITS)) {
        atomic_store_explicit(&e->pos, want, memory_order_relaxed);
        gls_entry_bump_seq(e);
        return want;
    }
    for (;;) {
        /* A tail read now rather than at the check: cells reserved in between
         * belong to operations of other threads still in progress; none is
         * hb-before the access and none can change the fresh set {owner}
         * (their conditions are their own thread tokens or sync tokens), so
         * linearising them before the access is exact. */
        uint64_t t = atomic_load(&l->tail);
        if (place_in(l, e, t >> GLS_CHUNK_BITS)) {
            atomic_store_explicit(&e->pos, t, memory_order_relaxed);
            gls_entry_bump_seq(e);
            return t;
        }
        /* t's chunk is being collected: tail is far ahead by now. */
    }
}

void gls_list_place_at(struct gls_list *l, struct gls_entry *e, uint64_t pos) {
    bool ok = place_in(l, e, pos >> GLS_CHUNK_BITS);
    GOLDI_CHECK(ok);
    atomic_store_explicit(&e->pos, pos, memory_order_relaxed);
    gls_entry_bump_seq(e);
}

/* Copies shard r's entry refs, then its granule refs (tagged), to out; returns how many. */
static uint32_t reg_copy(const struct gls_reg *r, struct gls_ref *out) {
    for (uint32_t i = 0; i < r->n_ref; i++)
        out[i] = r->ref[i];
    for (uint32_t i = 0; i < r->n_gran; i++)
        out[r->n_ref + i] = (struct gls_ref){ (struct gls_entry *)(run_start(r->gran[i]) | GLS_REF_GRANULE),
                                              (uint32_t)run_length(r->gran[i]) };
    return r->n_ref + r->n_gran;
}

uint32_t gls_list_close(struct gls_list *l, struct gls_slot *s, struct gls_ref **buf, uint32_t *cap, uint32_t at) {
    goldi_spin_lock(&s->lock);
    struct gls_reg *regs = atomic_load_explicit(&s->reg, memory_order_relaxed);
    for (unsigned k = 0; k < GLS_REG_SHARDS; k++)
        goldi_spin_lock(&regs[k].lock);
    atomic_store_explicit(&s->closed, true, memory_order_seq_cst);   /* (gls_list_takes) */
    uint32_t total = 0;
    for (unsigned k = 0; k < GLS_REG_SHARDS; k++)
        total += regs[k].n_ref + regs[k].n_gran;
    if (at + total > *cap) {   /* (the allocator is the one lock taken under a shard's) */
        uint32_t c = *cap ? *cap : 64;
        while (c < at + total)
            c *= 2;
        *buf = goldi_realloc(*buf, sizeof **buf * c);
        *cap = c;
    }
    for (unsigned k = 0; k < GLS_REG_SHARDS; k++) {
        struct gls_reg *r = &regs[k];
        at += reg_copy(r, *buf + at);
        atomic_fetch_sub_explicit(&l->reg_bytes, sizeof *r->ref * r->cap_ref + sizeof *r->gran * r->cap_gran,
                                  memory_order_relaxed);
        goldi_free(r->ref);
        goldi_free(r->gran);
        r->ref = NULL;
        r->gran = NULL;
        r->n_ref = r->cap_ref = r->n_gran = r->cap_gran = 0;
    }
    for (unsigned k = GLS_REG_SHARDS; k-- > 0;)
        goldi_spin_unlock(&regs[k].lock);
    goldi_spin_unlock(&s->lock);
    return total;
}

uint32_t gls_list_copy_shard_refs(struct gls_list *l, uint64_t c, unsigned k, uint32_t from, uint32_t max,
                                  struct gls_ref *out) {
    struct gls_slot *s = gls_list_peek(l, c);
    if (!s)
        return 0;
    struct gls_reg *r = &atomic_load_explicit(&s->reg, memory_order_acquire)[k];
    goldi_spin_lock(&r->lock);
    uint32_t n = 0;
    if (atomic_load_explicit(&s->num, memory_order_acquire) == c + 1 &&
        !atomic_load_explicit(&s->closed, memory_order_relaxed))
        for (; n < max && from + n < r->n_ref; n++)
            out[n] = r->ref[from + n];
    goldi_spin_unlock(&r->lock);
    return n;
}

void gls_list_free_chunk(struct gls_list *l, struct gls_slot *s, uint64_t c) {
    goldi_spin_lock(&s->lock);
    GOLDI_CHECK_OP(atomic_load(&s->num), ==, c + 1);
    struct gls_cell *cells = atomic_load_explicit(&s->cells, memory_order_relaxed);
    atomic_store_explicit(&s->num, 0, memory_order_release);
    atomic_store_explicit(&s->cells, NULL, memory_order_relaxed);
    atomic_store_explicit(&l->oldest, c + 1, memory_order_release);   /* (registrations refused since close) */
    struct gls_reg *regs = atomic_load_explicit(&s->reg, memory_order_relaxed);
    goldi_spin_unlock(&s->lock);
    regs_free(l, regs);   /* the slot keeps pointing at it until the next install: harmless, see gls_reg */
    cells_free(l, cells);
    atomic_fetch_sub_explicit(&l->chunks_live, 1, memory_order_relaxed);
    bytes_add(l, -(int64_t)CHUNK_BYTES);
}

/* Fork: every slot lock (a chunk install in progress holds one while it
 * allocates), the registry shards of installed chunks, the stash. Taken
 * after the granule locks and before the allocator's, as in normal use. */
void gls_list_fork_lock(struct gls_list *l) {
    for (unsigned i = 0; i < GLS_RING; i++) {
        struct gls_slot *s = &l->ring[i];
        goldi_spin_lock(&s->lock);
        struct gls_reg *r = atomic_load_explicit(&s->num, memory_order_relaxed)
                                ? atomic_load_explicit(&s->reg, memory_order_relaxed)
                                : NULL;
        for (unsigned k = 0; r && k < GLS_REG_SHARDS; k++)
            goldi_spin_lock(&r[k].lock);
    }
    goldi_spin_lock(&l->stash_lock);
}

void gls_list_fork_unlock(struct gls_list *l) {
    goldi_spin_unlock(&l->stash_lock);
    for (unsigned i = GLS_RING; i-- > 0;) {
        struct gls_slot *s = &l->ring[i];
        struct gls_reg *r = atomic_load_explicit(&s->num, memory_order_relaxed)
                                ? atomic_load_explicit(&s->reg, memory_order_relaxed)
                                : NULL;
        for (unsigned k = GLS_REG_SHARDS; r && k-- > 0;)
            goldi_spin_unlock(&r[k].lock);
        goldi_spin_unlock(&s->lock);
    }
}

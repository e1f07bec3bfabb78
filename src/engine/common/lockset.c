/* Interned locksets (lockset.h): hash-consing under one spinlock (only on a
 * miss), lock-free id -> set lookup, and a lock-free memo of intersections.
 * Called under granule locks from engines' on_access: takes only its own
 * leaf lock (and the internal allocator's). */
#include "lockset.h"
#include "../../base/alloc.h"
#include "../../base/atfork.h"
#include "../../base/fmt.h"

/* An interned set. Immutable once published. */
struct ls_set {
    uint64_t hash;                       /* of the sorted ids */
    uint32_t n;                          /* locks in e[] */
    struct goldi_lockset_lock e[];       /* sorted by id, unique */
};

/* id -> set: a directory of chunks, filled in id order, never moved or freed,
 * so readers need no lock (the set pointer is published with a release store
 * before the id escapes the intern lock).
 *   id = | chunk (12 bits) | slot (12 bits) |   -> at most 2^24 sets */
#define LS_CHUNK_BITS 12
#define LS_CHUNK (1u << LS_CHUNK_BITS)
#define LS_DIR (1u << 12)
#define LS_MAX_IDS (LS_DIR * LS_CHUNK)
typedef _Atomic(struct ls_set *) ls_slot_t;
static _Atomic(ls_slot_t *) ls_dir[LS_DIR];

/* Intern table: open addressing over ids (0 = free slot; the empty set is
 * never stored, it is id 0 by definition). Guarded by ls_lock. */
static goldi_spinlock_t ls_lock;
static uint32_t *ls_tab;
static uint32_t ls_tab_cap;              /* power of two */
static uint32_t ls_next_id = 1;          /* next id to hand out */

/* Intersection memo: direct-mapped, one 64-bit word per entry so a reader
 * sees a whole entry or none (no lock, no torn reads):
 *   | valid (1) | a (21) | b (21) | a ∩ b (21) |
 * Entries whose ids do not fit 21 bits are simply not memoised. */
#define LS_MEMO_BITS 16
#define LS_MEMO_ID_BITS 21
#define LS_MEMO_ID_MASK ((1u << LS_MEMO_ID_BITS) - 1)
static _Atomic uint64_t ls_memo[1u << LS_MEMO_BITS];

static _Atomic uint64_t ls_n_memo_hits, ls_n_memo_misses, ls_n_overflows;

static const struct ls_set ls_empty = {0, 0};

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static uint64_t hash_locks(const struct goldi_lockset_lock *e, uint32_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = mix64(h ^ e[i].id) + i;
    return h | 1;
}

static const struct ls_set *get_set(goldi_lockset_t id) {
    if (id == GOLDI_LOCKSET_EMPTY)
        return &ls_empty;
    ls_slot_t *chunk = atomic_load_explicit(&ls_dir[id >> LS_CHUNK_BITS], memory_order_acquire);
    GOLDI_CHECK(chunk != NULL);
    const struct ls_set *s = atomic_load_explicit(&chunk[id & (LS_CHUNK - 1)], memory_order_acquire);
    GOLDI_CHECK(s != NULL);
    return s;
}

static bool same_ids(const struct ls_set *s, const struct goldi_lockset_lock *e, uint32_t n, uint64_t h) {
    if (s->hash != h || s->n != n)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (s->e[i].id != e[i].id)
            return false;
    return true;
}

/* Rehashes every id into a table twice as large. Caller holds ls_lock. */
static void grow_table_locked(void) {
    uint32_t cap = ls_tab_cap ? ls_tab_cap * 2 : 1024;
    uint32_t *tab = goldi_alloc(cap * sizeof *tab);
    for (uint32_t i = 0; i < ls_tab_cap; i++) {
        uint32_t id = ls_tab[i];
        if (!id)
            continue;
        uint32_t j = (uint32_t)get_set(id)->hash & (cap - 1);
        while (tab[j])
            j = (j + 1) & (cap - 1);
        tab[j] = id;
    }
    goldi_free(ls_tab);
    ls_tab = tab;
    ls_tab_cap = cap;
}

/* Interns a sorted, duplicate-free array of n > 0 locks. */
static goldi_lockset_t intern_sorted(const struct goldi_lockset_lock *e, uint32_t n) {
    if (n == 0)
        return GOLDI_LOCKSET_EMPTY;
    uint64_t h = hash_locks(e, n);
    goldi_spin_lock(&ls_lock);
    if ((ls_next_id + 1) * 2 > ls_tab_cap)
        grow_table_locked();
    uint32_t j = (uint32_t)h & (ls_tab_cap - 1);
    for (;;) {
        uint32_t id = ls_tab[j];
        if (!id)
            break;
        if (same_ids(get_set(id), e, n, h)) {
            goldi_spin_unlock(&ls_lock);
            return id;
        }
        j = (j + 1) & (ls_tab_cap - 1);
    }
    if (ls_next_id >= LS_MAX_IDS) {
        goldi_spin_unlock(&ls_lock);
        atomic_fetch_add_explicit(&ls_n_overflows, 1, memory_order_relaxed);
        return GOLDI_LOCKSET_EMPTY;
    }
    uint32_t id = ls_next_id++;
    struct ls_set *s = goldi_alloc(sizeof *s + n * sizeof s->e[0]);
    s->hash = h;
    s->n = n;
    goldi_memcpy(s->e, e, n * sizeof e[0]);
    ls_slot_t *chunk = atomic_load_explicit(&ls_dir[id >> LS_CHUNK_BITS], memory_order_relaxed);
    if (!chunk) {
        chunk = goldi_alloc(LS_CHUNK * sizeof *chunk);
        atomic_store_explicit(&ls_dir[id >> LS_CHUNK_BITS], chunk, memory_order_release);
    }
    atomic_store_explicit(&chunk[id & (LS_CHUNK - 1)], s, memory_order_release);
    ls_tab[j] = id;
    goldi_spin_unlock(&ls_lock);
    return id;
}

/* Sorts by id (insertion sort: sets are small, at most GOLDI_MAX_HELD from
 * threads) and drops duplicates; returns the new length. */
static uint32_t sort_unique(struct goldi_lockset_lock *e, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        struct goldi_lockset_lock x = e[i];
        uint32_t j = i;
        while (j > 0 && e[j - 1].id > x.id) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = x;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || e[k - 1].id != e[i].id)
            e[k++] = e[i];
    return k;
}

#define LS_STACK GOLDI_MAX_HELD   /* on-stack buffer: enough for any thread's set */

goldi_lockset_t goldi_lockset_intern(const struct goldi_lockset_lock *locks, uint32_t n) {
    if (n == 0)
        return GOLDI_LOCKSET_EMPTY;
    struct goldi_lockset_lock local[LS_STACK];
    struct goldi_lockset_lock *e = n <= LS_STACK ? local : goldi_alloc(n * sizeof *e);
    goldi_memcpy(e, locks, n * sizeof *e);
    uint32_t k = sort_unique(e, n);
    goldi_lockset_t id = intern_sorted(e, k);
    if (e != local)
        goldi_free(e);
    return id;
}

static uint64_t memo_key(goldi_lockset_t a, goldi_lockset_t b) {
    return (1ull << 63) | ((uint64_t)a << (2 * LS_MEMO_ID_BITS)) | ((uint64_t)b << LS_MEMO_ID_BITS);
}

goldi_lockset_t goldi_lockset_intersect(goldi_lockset_t a, goldi_lockset_t b) {
    if (a == b)
        return a;
    if (a == GOLDI_LOCKSET_EMPTY || b == GOLDI_LOCKSET_EMPTY)
        return GOLDI_LOCKSET_EMPTY;
    if (a > b) {
        goldi_lockset_t t = a;
        a = b;
        b = t;
    }
    bool memo = b <= LS_MEMO_ID_MASK;   /* a < b */
    _Atomic uint64_t *slot = NULL;
    if (memo) {
        slot = &ls_memo[mix64(((uint64_t)a << 32) | b) >> (64 - LS_MEMO_BITS)];
        uint64_t w = atomic_load_explicit(slot, memory_order_acquire);
        if ((w & ~(uint64_t)LS_MEMO_ID_MASK) == memo_key(a, b)) {
            atomic_fetch_add_explicit(&ls_n_memo_hits, 1, memory_order_relaxed);
            return (goldi_lockset_t)(w & LS_MEMO_ID_MASK);
        }
    }
    atomic_fetch_add_explicit(&ls_n_memo_misses, 1, memory_order_relaxed);
    const struct ls_set *sa = get_set(a), *sb = get_set(b);
    uint32_t cap = sa->n < sb->n ? sa->n : sb->n;
    struct goldi_lockset_lock local[LS_STACK];
    struct goldi_lockset_lock *e = cap <= LS_STACK ? local : goldi_alloc(cap * sizeof *e);
    uint32_t i = 0, j = 0, k = 0;
    while (i < sa->n && j < sb->n) {      /* merge of two sorted lists */
        if (sa->e[i].id < sb->e[j].id) {
            i++;
        } else if (sa->e[i].id > sb->e[j].id) {
            j++;
        } else {
            e[k++] = sa->e[i];
            i++;
            j++;
        }
    }
    goldi_lockset_t r;
    if (k == sa->n)
        r = a;                            /* a ⊆ b */
    else if (k == sb->n)
        r = b;
    else
        r = intern_sorted(e, k);
    if (e != local)
        goldi_free(e);
    if (memo && r <= LS_MEMO_ID_MASK)
        atomic_store_explicit(slot, memo_key(a, b) | r, memory_order_release);
    return r;
}

const struct goldi_lockset_lock *goldi_lockset_locks(goldi_lockset_t s, uint32_t *n) {
    const struct ls_set *x = get_set(s);
    *n = x->n;
    return x->e;
}

uint32_t goldi_lockset_size(goldi_lockset_t s) { return get_set(s)->n; }

bool goldi_lockset_contains(goldi_lockset_t s, uint64_t id) {
    const struct ls_set *x = get_set(s);
    uint32_t lo = 0, hi = x->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (x->e[mid].id == id)
            return true;
        if (x->e[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

goldi_lockset_t goldi_lockset_of_thr(const struct goldi_thr *thr, bool write_only) {
    struct goldi_lockset_lock e[GOLDI_MAX_HELD];
    uint32_t n = 0;
    for (uint32_t i = 0; i < thr->n_held && i < GOLDI_MAX_HELD; i++) {
        const struct goldi_held *h = &thr->held[i];
        if (!h->obj || (write_only && h->mode == GOLDI_LOCK_SHARED))
            continue;
        e[n].id = h->obj->tok[0].id;
        e[n].addr = h->obj->addr;
        n++;
    }
    n = sort_unique(e, n);
    return intern_sorted(e, n);
}

/* Appends str at buf[*len] if it fits with its NUL; false otherwise. */
static bool append(char *buf, size_t n, size_t *len, const char *str) {
    size_t l = goldi_strlen(str);
    if (*len + l + 1 > n)
        return false;
    goldi_memcpy(buf + *len, str, l + 1);
    *len += l;
    return true;
}

size_t goldi_lockset_format(goldi_lockset_t s, char *buf, size_t n) {
    if (n == 0)
        return 0;
    const struct ls_set *x = get_set(s);
    size_t len = 0;
    buf[0] = 0;
    bool ok = append(buf, n, &len, "{");
    for (uint32_t i = 0; ok && i < x->n; i++) {
        char item[32];
        goldi_snprintf(item, sizeof item, "%s%p", i ? ", " : "", (void *)x->e[i].addr);
        ok = append(buf, n, &len, item);
    }
    if (ok && append(buf, n, &len, "}"))
        return len;
    if (n < 5) {                       /* no room even for "...}" */
        buf[0] = 0;
        return 0;
    }
    if (len > n - 5)
        len = n - 5;
    goldi_memcpy(buf + len, "...}", 5);
    return len + 4;
}

void goldi_lockset_get_stats(struct goldi_lockset_stats *out) {
    goldi_spin_lock(&ls_lock);
    out->n_sets = ls_next_id;
    goldi_spin_unlock(&ls_lock);
    out->memo_hits = atomic_load_explicit(&ls_n_memo_hits, memory_order_relaxed);
    out->memo_misses = atomic_load_explicit(&ls_n_memo_misses, memory_order_relaxed);
    out->overflows = atomic_load_explicit(&ls_n_overflows, memory_order_relaxed);
}

/* The intern lock is a leaf (only the allocator is taken inside), taken under
 * granule locks: fork takes it after them, before the allocator's. */
static void ls_fork_lock(void) { goldi_spin_lock(&ls_lock); }
static void ls_fork_unlock(void) { goldi_spin_unlock(&ls_lock); }

__attribute__((constructor(102))) static void ls_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ALLOC - 10, ls_fork_lock, ls_fork_unlock, ls_fork_unlock);
}

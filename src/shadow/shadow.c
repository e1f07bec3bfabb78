/* The shadow's flat directory and its leaves (layout in shadow.h). */
#include "shadow.h"
#include "../base/atfork.h"
#include "../base/alloc.h"
#include "../platform/platform.h"

#define DIR_SIZE (UINT64_C(1) << GOLDI_SHADOW_DIR_BITS)
#define LEAF_SIZE (UINT64_C(1) << GOLDI_SHADOW_LEAF_BITS)

goldi_shadow_leaf_ptr *goldi_shadow_dir;
static unsigned n_planes;   /* (under reserve_lock) */
static _Atomic size_t mapped;
goldi_spinlock_t goldi_granule_locks[1u << GOLDI_GRANULE_LOCK_BITS];

/* The directories of the planes are reserved at once with the first (an
 * address-space reservation: untouched pages cost nothing), so that a
 * plane's slot is arithmetic on one base pointer. Room for every plane
 * there can be (16 GiB) unless the address space is limited (`ulimit -v`):
 * then for as many as fit, down to the two a default run uses (its
 * engine's and the synchronisation objects'). */
static unsigned dir_planes;

unsigned goldi_shadow_plane_new(void) {
    static goldi_spinlock_t reserve_lock;
    goldi_spin_lock(&reserve_lock);   /* (a plane's index is published after this returns) */
    for (unsigned n = GOLDI_SHADOW_MAX_PLANES; !goldi_shadow_dir && n >= 2; n /= 2) {
        goldi_shadow_dir = goldi_os_mmap(sizeof(goldi_shadow_leaf_ptr) * DIR_SIZE * n, true);
        dir_planes = goldi_shadow_dir ? n : 0;
    }
    unsigned p = n_planes++;
    goldi_spin_unlock(&reserve_lock);
    if (p >= dir_planes)
        goldi_die(dir_planes ? "too many shadow planes for the address space left (`ulimit -v`)"
                             : "cannot reserve the shadow directory (2 GiB of address space): is `ulimit -v` set?");
    return p;
}

/* A leaf is its LEAF_SIZE words followed by one 16-bit page mask per block
 * of BLOCK_WORDS words (64 KiB of shadow, 8 KiB of application): the
 * shadow pages of the block where an engine created state in an empty
 * granule (goldi_shadow_will_write), all ones once the block was
 * committed. */
#define BLOCK_WORDS 8192u
#define LEAF_BLOCKS (LEAF_SIZE / BLOCK_WORDS)
#define BLOCK_PAGES 16u               /* 4 KiB shadow pages per block (bits of its mask) */
#define DENSE_PAGES 4                 /* pages seen before a block is committed */
/* After the masks, one word: non-zero once some of the leaf's pages were
 * given back (goldi_shadow_discard). */
#define LEAF_GONE_OFF (sizeof(goldi_shadow_word_t) * LEAF_SIZE + sizeof(uint16_t) * LEAF_BLOCKS)
#define LEAF_BYTES (LEAF_GONE_OFF + sizeof(uint64_t))

GOLDI_INLINE _Atomic uint64_t *leaf_gone(goldi_shadow_word_t *leaf) {
    return (_Atomic uint64_t *)((char *)leaf + LEAF_GONE_OFF);
}

_Atomic uint64_t goldi_shadow_spans_used[UINT64_C(1) << (GOLDI_SHADOW_ADDR_BITS - GOLDI_SHADOW_SPAN_BITS - 6)];

goldi_shadow_word_t *goldi_shadow_word_install(unsigned plane, uintptr_t addr) {
    goldi_shadow_leaf_ptr *slot = goldi_shadow_dir_slot(plane, addr);
    goldi_shadow_word_t *leaf = atomic_load_explicit(slot, memory_order_acquire);
    if (GOLDI_UNLIKELY(!leaf)) {
        uintptr_t s = goldi_shadow_span_of(addr);
        atomic_fetch_or_explicit(&goldi_shadow_spans_used[s >> 6], UINT64_C(1) << (s & 63), memory_order_release);
        goldi_shadow_word_t *fresh = goldi_os_mmap(LEAF_BYTES, true);
        if (!fresh)
            goldi_die("out of memory mapping shadow");
        atomic_fetch_add_explicit(&mapped, LEAF_BYTES, memory_order_relaxed);
        if (atomic_compare_exchange_strong(slot, &leaf, fresh)) {
            leaf = fresh;
        } else {   /* another thread won the race: leaf is its */
            goldi_os_munmap(fresh, LEAF_BYTES);
            atomic_fetch_sub_explicit(&mapped, LEAF_BYTES, memory_order_relaxed);
        }
    }
    return &leaf[goldi_shadow_leaf_slot(addr)];
}

static _Atomic bool populate_refused;

/* Commits blocks [b, e) of leaf for writing, those not committed yet, in
 * one madvise a run. */
static void commit_blocks(goldi_shadow_word_t *leaf, uintptr_t b, uintptr_t e) {
    _Atomic uint16_t *seen = (_Atomic uint16_t *)(leaf + LEAF_SIZE);
    while (b < e && !atomic_load_explicit(&populate_refused, memory_order_relaxed)) {
        if (atomic_exchange_explicit(&seen[b], 0xffff, memory_order_relaxed) == 0xffff) {
            b++;   /* committed already, or another thread commits it */
            continue;
        }
        uintptr_t r = b + 1;
        while (r < e && atomic_load_explicit(&seen[r], memory_order_relaxed) != 0xffff &&
               atomic_exchange_explicit(&seen[r], 0xffff, memory_order_relaxed) != 0xffff)
            r++;
        if (!goldi_os_populate(&leaf[b * BLOCK_WORDS], sizeof(goldi_shadow_word_t) * BLOCK_WORDS * (r - b)))
            atomic_store_explicit(&populate_refused, true, memory_order_relaxed);
        b = r;
    }
}

/* A sweep: the two blocks before (or after) block b committed. Then b and
 * the SWEEP_AHEAD - 1 blocks after it (before it) are committed at once,
 * before the sweep reads them: a fault costs 12 us on this VM and a page
 * committed by madvise 0.8 us, and a sweep otherwise took 4 double faults
 * a block (a 256 MiB buffer written once: 6.8 s, TSan 2.8 s). Data too
 * sparse to commit two blocks in a row commits nothing ahead; a sweep that
 * ends leaves at most SWEEP_AHEAD - 1 blocks committed for nothing (192 KiB:
 * with 8, multiset's and nbody's peak RSS grew 12-14 %). */
#define SWEEP_AHEAD 4u
GOLDI_INLINE uintptr_t ahead_end(uintptr_t b) { return b + SWEEP_AHEAD < LEAF_BLOCKS ? b + SWEEP_AHEAD : LEAF_BLOCKS; }

static bool sweep_commit(goldi_shadow_word_t *leaf, uintptr_t b) {
    const _Atomic uint16_t *seen = (const _Atomic uint16_t *)(leaf + LEAF_SIZE);
    if (b >= 2 && atomic_load_explicit(&seen[b - 1], memory_order_relaxed) == 0xffff &&
        atomic_load_explicit(&seen[b - 2], memory_order_relaxed) == 0xffff) {
        commit_blocks(leaf, b, ahead_end(b));
        return true;
    }
    if (b + 2 < LEAF_BLOCKS && atomic_load_explicit(&seen[b + 1], memory_order_relaxed) == 0xffff &&
        atomic_load_explicit(&seen[b + 2], memory_order_relaxed) == 0xffff) {
        commit_blocks(leaf, b + 1 > SWEEP_AHEAD ? b + 1 - SWEEP_AHEAD : 0, b + 1);
        return true;
    }
    return false;
}

void goldi_shadow_will_write(unsigned plane, uintptr_t addr) {
    goldi_shadow_word_t *leaf = atomic_load_explicit(goldi_shadow_dir_slot(plane, addr), memory_order_acquire);
    if (!leaf || atomic_load_explicit(&populate_refused, memory_order_relaxed))
        return;
    uintptr_t i = goldi_shadow_leaf_slot(addr);
    _Atomic uint16_t *seen = (_Atomic uint16_t *)(leaf + LEAF_SIZE) + i / BLOCK_WORDS;
    uint16_t page = (uint16_t)(1u << (i % BLOCK_WORDS / (BLOCK_WORDS / BLOCK_PAGES)));
    uint16_t old = atomic_load_explicit(seen, memory_order_relaxed);
    uintptr_t b = i / BLOCK_WORDS;
    if (old == 0xffff) {
        /* An ascending sweep in committed blocks commits the next ones as it
         * enters the last of them (at its first page), so that the sweep
         * never reads a page the kernel has not committed (a read of one
         * maps the zero page: a fault, then another for the write). */
        if (page == 1 && b >= 1 && b + 1 < LEAF_BLOCKS &&
            atomic_load_explicit(seen + 1, memory_order_relaxed) != 0xffff &&
            atomic_load_explicit(seen - 1, memory_order_relaxed) == 0xffff)
            commit_blocks(leaf, b + 1, ahead_end(b));
        return;
    }
    if (old & page)
        return;
    if (sweep_commit(leaf, b))
        return;
    old = atomic_fetch_or_explicit(seen, page, memory_order_relaxed);
    if (old == 0xffff || __builtin_popcount(old | page) < DENSE_PAGES)
        return;
    commit_blocks(leaf, b, b + 1);
}

/* The end of the part of [addr, end) that lies in addr's leaf. */
static uintptr_t leaf_part_end(uintptr_t addr, uintptr_t end) {
    uintptr_t leaf_end = (addr | (LEAF_SIZE - 1)) + 1;
    return leaf_end > end || leaf_end == 0 ? end : leaf_end;
}

void goldi_shadow_will_write_range(unsigned plane, uintptr_t addr, size_t n) {
    const uintptr_t block = BLOCK_WORDS;   /* (bytes of application a block covers: a word each) */
    uintptr_t end = addr + n;
    if (end < addr)
        end = UINTPTR_MAX;
    while (addr < end && !atomic_load_explicit(&populate_refused, memory_order_relaxed)) {
        uintptr_t part_end = leaf_part_end(addr, end);
        uintptr_t lo = goldi_shadow_leaf_slot(addr), hi = part_end - addr + lo;   /* (slots in the leaf) */
        uintptr_t b = (lo + block - 1) / block, e = hi / block;   /* blocks the part covers whole */
        if (b < e) {
            goldi_shadow_word_t *leaf = goldi_shadow_word_install(plane, addr) - lo;
            commit_blocks(leaf, b, e);
        }
        addr = part_end;
    }
}

/* Where a walk at addr goes on: addr, or past the directory spans (within
 * end) where no leaf was ever installed (their directory pages would be
 * read for nothing: goldi_shadow_span_used). */
static uintptr_t skip_unused_spans(uintptr_t addr, uintptr_t end) {
    while (addr < end && !goldi_shadow_span_used(addr)) {
        uintptr_t span_end = (addr | ((UINT64_C(1) << GOLDI_SHADOW_SPAN_BITS) - 1)) + 1;
        addr = span_end > end || span_end == 0 ? end : span_end;
    }
    return addr;
}

/* Shadow pages never written hold only zeros, and a walk over a range (a
 * reset of freed memory, of a new thread's whole stack) looks for non-zero
 * words. Reading a page never brought in commits it where the kernel maps no
 * shared zero page (seen here: a read of each page of a fresh 64 MiB mapping
 * took RSS to 65 MiB; a churn of 2,000 threads with a thread_local committed
 * the 8 MiB leaf over each stack top, 76-130 MiB). So a walk over a long
 * range asks mincore which of its pages are in memory and skips the others,
 * which hold zeros as long as none can be swapped out: only on a system
 * without swap, checked at each such walk. */
#define PAGE_BYTES 4096u
#define SKIP_MIN_WORDS (UINT64_C(1) << 16)   /* walks shorter than this read every word */
#define SKIP_PAGES 256u                      /* pages asked per mincore call */

struct page_skip {
    bool on;                           /* mincore answers are used */
    uintptr_t base;                    /* first page vec describes (0: none) */
    uintptr_t top;                     /* end of the pages vec describes */
    unsigned char vec[SKIP_PAGES];
};

static void page_skip_init(struct page_skip *ps, size_t words) {
    ps->on = words >= SKIP_MIN_WORDS && !goldi_os_has_swap();
    ps->base = ps->top = 0;
}

/* May the page holding w (inside a leaf, before limit, the shadow of the
 * walk's end) hold non-zero words? */
static bool page_maybe_written(struct page_skip *ps, const goldi_shadow_word_t *w, const goldi_shadow_word_t *limit) {
    if (!ps->on)
        return true;
    uintptr_t page = (uintptr_t)w & ~(uintptr_t)(PAGE_BYTES - 1);
    if (page < ps->base || page >= ps->top) {
        uintptr_t end = ((uintptr_t)limit + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);
        if (end - page > SKIP_PAGES * PAGE_BYTES)
            end = page + SKIP_PAGES * PAGE_BYTES;
        if (!goldi_os_resident((void *)page, end - page, ps->vec)) {
            ps->on = false;
            return true;
        }
        ps->base = page;
        ps->top = end;
    }
    return ps->vec[(page - ps->base) / PAGE_BYTES] & 1;
}

/* Where a walk at addr (shadow w; its part in this leaf ends at leaf_end)
 * goes on: addr, or the end of w's page if that page was never brought in.
 * Asked at each page's first granule (and at the walk's first). */
static uintptr_t skip_untouched(struct page_skip *ps, uintptr_t addr, const goldi_shadow_word_t *w,
                                uintptr_t leaf_end) {
    if (!ps->on || (((uintptr_t)w & (PAGE_BYTES - 1)) >= GOLDI_GRANULE * sizeof *w && ps->base) ||
        page_maybe_written(ps, w, w + (leaf_end - addr)))
        return addr;
    uintptr_t page_end = ((uintptr_t)w | (PAGE_BYTES - 1)) + 1;
    uintptr_t next = addr + (page_end - (uintptr_t)w) / sizeof *w;   /* (one word a byte) */
    return next < leaf_end ? next : leaf_end;
}

void goldi_shadow_for_each(unsigned plane, uintptr_t addr, size_t n,
                           void (*fn)(void *ctx, uintptr_t addr, goldi_shadow_word_t *w), void *ctx) {
    uintptr_t end = addr + n;
    if (end < addr)
        end = UINTPTR_MAX;
    struct page_skip ps;
    page_skip_init(&ps, end - addr);
    while ((addr = skip_unused_spans(addr, end)) < end) {
        uintptr_t leaf_end = leaf_part_end(addr, end);
        goldi_shadow_word_t *w = goldi_shadow_word_if_present(plane, addr);
        if (!w) {
            addr = leaf_end;
            continue;
        }
        while (addr < leaf_end) {
            uintptr_t next = skip_untouched(&ps, addr, w, leaf_end);
            if (next != addr) {
                w += next - addr;
                addr = next;
                continue;
            }
            uintptr_t gend = (addr | (GOLDI_GRANULE - 1)) + 1;
            if (gend > leaf_end)
                gend = leaf_end;
            goldi_spinlock_t *lk = NULL;
            for (; addr < gend; addr++, w++) {
                if (!atomic_load_explicit(w, memory_order_relaxed))
                    continue;
                if (!lk) {
                    lk = goldi_granule_lock(addr);
                    goldi_spin_lock(lk);
                }
                fn(ctx, addr, w);
            }
            if (lk)
                goldi_spin_unlock(lk);
        }
    }
}

/* Granules whose shadow lines for_each_granule fetches ahead, for writing
 * (its callers lock and reset each granule): the hardware's prefetchers
 * stop at each 4 KiB page of shadow, a granule's line every 8 bytes. */
#define GRANULES_AHEAD 16
void goldi_shadow_for_each_granule(unsigned plane, uintptr_t addr, size_t n,
                                   void (*fn)(void *ctx, uintptr_t base, goldi_shadow_word_t *w), void *ctx) {
    GOLDI_DCHECK(!((addr | n) & (GOLDI_GRANULE - 1)));
    uintptr_t end = addr + n;
    if (end < addr)
        end = UINTPTR_MAX & ~(uintptr_t)(GOLDI_GRANULE - 1);
    struct page_skip ps;
    page_skip_init(&ps, end - addr);
    while ((addr = skip_unused_spans(addr, end)) < end) {
        uintptr_t leaf_end = leaf_part_end(addr, end);
        goldi_shadow_word_t *w = goldi_shadow_word_if_present(plane, addr);
        while (w && addr < leaf_end) {
            uintptr_t next = skip_untouched(&ps, addr, w, leaf_end);
            if (next != addr) {
                w += next - addr;
                addr = next;
                continue;
            }
            if (addr + GRANULES_AHEAD * GOLDI_GRANULE < leaf_end)
                __builtin_prefetch(w + GRANULES_AHEAD * GOLDI_GRANULE, 1);
            uintptr_t any = 0;
            for (unsigned i = 0; i < GOLDI_GRANULE; i++)
                any |= atomic_load_explicit(&w[i], memory_order_relaxed);
            if (any)
                fn(ctx, addr, w);
            addr += GOLDI_GRANULE;
            w += GOLDI_GRANULE;
        }
        addr = leaf_end;
    }
}

uintptr_t goldi_shadow_next_recorded(uintptr_t addr, uintptr_t end) {
    unsigned planes = __atomic_load_n(&n_planes, __ATOMIC_ACQUIRE);
    while ((addr = skip_unused_spans(addr, end)) < end) {
        for (unsigned p = 0; p < planes; p++)
            if (atomic_load_explicit(goldi_shadow_dir_slot(p, addr), memory_order_acquire))
                return addr;
        addr = leaf_part_end(addr, end);
    }
    return end;
}

void goldi_shadow_discard(uintptr_t addr, size_t n) {
    uintptr_t end = addr + n;
    if (end < addr)
        end = UINTPTR_MAX;
    if (goldi_os_has_swap())
        return;   /* (goldi_shadow_word_if_kept could not tell a page given back from one swapped out) */
    unsigned planes = __atomic_load_n(&n_planes, __ATOMIC_ACQUIRE);
    for (uintptr_t a = addr; (a = skip_unused_spans(a, end)) < end;) {
        uintptr_t leaf_end = leaf_part_end(a, end);
        for (unsigned p = 0; p < planes; p++) {
            goldi_shadow_word_t *leaf = atomic_load_explicit(goldi_shadow_dir_slot(p, a), memory_order_acquire);
            if (!leaf)
                continue;
            /* the whole shadow pages of [a, leaf_end): one word a byte */
            uintptr_t i = goldi_shadow_leaf_slot(a), j = leaf_end - a + i;
            uintptr_t lo = ((uintptr_t)&leaf[i] + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);
            uintptr_t hi = (uintptr_t)&leaf[j] & ~(uintptr_t)(PAGE_BYTES - 1);
            if (hi <= lo)
                continue;
            atomic_store_explicit(leaf_gone(leaf), 1, memory_order_relaxed);
            goldi_os_discard((void *)lo, hi - lo);
            /* The blocks given back whole count their pages again
             * (goldi_shadow_will_write). */
            _Atomic uint16_t *seen = (_Atomic uint16_t *)(leaf + LEAF_SIZE);
            for (uintptr_t b = (i + BLOCK_WORDS - 1) / BLOCK_WORDS; (b + 1) * BLOCK_WORDS <= j; b++)
                atomic_store_explicit(&seen[b], 0, memory_order_relaxed);
        }
        a = leaf_end;
    }
}

bool goldi_shadow_gone_slow(struct goldi_shadow_probe *pr, goldi_shadow_word_t *leaf, const goldi_shadow_word_t *w) {
    if (!atomic_load_explicit(leaf_gone(leaf), memory_order_relaxed))
        return false;
    uintptr_t page = (uintptr_t)w & ~(uintptr_t)(PAGE_BYTES - 1);
    if (page < pr->base || page >= pr->top) {
        uintptr_t end = page + sizeof pr->vec * PAGE_BYTES, leaf_end = (uintptr_t)(leaf + LEAF_SIZE);
        if (end > leaf_end)
            end = leaf_end;
        if (!goldi_os_resident((void *)page, end - page, pr->vec))
            return false;
        pr->base = page;
        pr->top = end;
    }
    if (pr->vec[(page - pr->base) / PAGE_BYTES] & 1)
        return false;
    if (pr->swap < 0)
        pr->swap = goldi_os_has_swap();
    return !pr->swap;
}

size_t goldi_shadow_bytes_mapped(void) {
    return atomic_load_explicit(&mapped, memory_order_relaxed);
}

static void granules_lock(void) { goldi_spin_lock_all(goldi_granule_locks, 1u << GOLDI_GRANULE_LOCK_BITS); }
static void granules_unlock(void) { goldi_spin_unlock_all(goldi_granule_locks, 1u << GOLDI_GRANULE_LOCK_BITS); }

__attribute__((constructor(102))) static void shadow_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_GRANULE, granules_lock, granules_unlock, granules_unlock);
}

/* Shadow memory: for every application byte, one machine word per plane
 * (each engine owns a plane and decides what its words mean; 0 = "no state").
 * Plus the striped granule locks that make an engine's check+update of a byte
 * atomic with respect to other accesses to that byte (ALGORITHMS.md T10).
 *
 *   app address (47 bits used):  | 46 .. 20 | 19 .. 0 |
 *                                  dir index  leaf slot
 *   The directory: one flat array of leaf pointers per plane, all planes'
 *   arrays in one reservation (1 GiB each of address space, committed by
 *   the OS page by page as slots are written: a page of it covers 512 MiB
 *   of application memory). A leaf (1 Mi words = 8 MiB of address space,
 *   committed page by page too) is mapped on first touch. A lookup is one
 *   load from the directory, whose address is arithmetic on the plane and
 *   the application address (the access path's dependent loads before the
 *   shadow word: the directory slot only); installs use compare-and-swap,
 *   no locks. */
#ifndef GOLDI_SHADOW_H
#define GOLDI_SHADOW_H

#include "../base/base.h"
#include "../base/spinlock.h"

#define GOLDI_SHADOW_MAX_PLANES 16
#define GOLDI_GRANULE 8u
#define GOLDI_SHADOW_LEAF_BITS 20
#define GOLDI_SHADOW_ADDR_BITS 47   /* x86-64 user space (4-level paging) */
#define GOLDI_SHADOW_DIR_BITS (GOLDI_SHADOW_ADDR_BITS - GOLDI_SHADOW_LEAF_BITS)

typedef _Atomic(uintptr_t) goldi_shadow_word_t;

/* The end of the piece of [a, end) that lies in a's granule: an access is
 * handled granule by granule (end = UINTPTR_MAX for a range that wraps). */
GOLDI_INLINE uintptr_t goldi_granule_piece_end(uintptr_t a, uintptr_t end) {
    uintptr_t gend = (a | (GOLDI_GRANULE - 1)) + 1;
    return gend > end || gend == 0 ? end : gend;
}

/* Returns a fresh plane index (at most GOLDI_SHADOW_MAX_PLANES, else dies). */
unsigned goldi_shadow_plane_new(void);

/* Word for byte addr, creating its leaf if needed: the
 * slow half of goldi_shadow_word below. */
goldi_shadow_word_t *goldi_shadow_word_install(unsigned plane, uintptr_t addr);
/* The word without creating: NULL if nothing was ever stored near addr.
 * Inline: the engines' access paths look a word up first thing. */
typedef _Atomic(goldi_shadow_word_t *) goldi_shadow_leaf_ptr;
extern goldi_shadow_leaf_ptr *goldi_shadow_dir;   /* every plane's directory (set by the first plane) */
GOLDI_INLINE goldi_shadow_leaf_ptr *goldi_shadow_dir_slot(unsigned plane, uintptr_t a) {
    uintptr_t i = (a >> GOLDI_SHADOW_LEAF_BITS) & ((UINT64_C(1) << GOLDI_SHADOW_DIR_BITS) - 1);
    return &goldi_shadow_dir[(uintptr_t)plane << GOLDI_SHADOW_DIR_BITS | i];
}
GOLDI_INLINE uintptr_t goldi_shadow_leaf_slot(uintptr_t a) { return a & ((UINT64_C(1) << GOLDI_SHADOW_LEAF_BITS) - 1); }
GOLDI_INLINE goldi_shadow_word_t *goldi_shadow_word_if_present(unsigned plane, uintptr_t addr) {
    goldi_shadow_word_t *leaf = atomic_load_explicit(goldi_shadow_dir_slot(plane, addr), memory_order_acquire);
    return leaf ? &leaf[goldi_shadow_leaf_slot(addr)] : NULL;
}
/* One bit per page of the directory (a page of slots: 512 MiB of
 * application memory), for all planes at once: set before a leaf is
 * installed under it, never cleared. Where the kernel maps no shared zero
 * page (this VM's), reading a directory page never written commits it:
 * lookups of addresses that are only guesses, and walks over long ranges,
 * test the bit first. */
#define GOLDI_SHADOW_SPAN_BITS (GOLDI_SHADOW_LEAF_BITS + 9)   /* 4 KiB of slots */
extern _Atomic uint64_t goldi_shadow_spans_used[UINT64_C(1) << (GOLDI_SHADOW_ADDR_BITS - GOLDI_SHADOW_SPAN_BITS - 6)];
GOLDI_INLINE uintptr_t goldi_shadow_span_of(uintptr_t a) {   /* (its bit's index) */
    return (a >> GOLDI_SHADOW_SPAN_BITS) & ((UINT64_C(1) << (GOLDI_SHADOW_ADDR_BITS - GOLDI_SHADOW_SPAN_BITS)) - 1);
}
GOLDI_INLINE bool goldi_shadow_span_used(uintptr_t a) {
    uintptr_t s = goldi_shadow_span_of(a);
    return atomic_load_explicit(&goldi_shadow_spans_used[s >> 6], memory_order_relaxed) >> (s & 63) & 1;
}
/* goldi_shadow_word_if_present for an address that is only a guess (any 8
 * bytes that look like a pointer): NULL, without reading the directory,
 * where no leaf was ever installed within its 512 MiB. */
GOLDI_INLINE goldi_shadow_word_t *goldi_shadow_word_if_guessed(unsigned plane, uintptr_t addr) {
    return goldi_shadow_span_used(addr) ? goldi_shadow_word_if_present(plane, addr) : NULL;
}

/* Word for byte addr, creating the leaf if needed. Words of bytes in the same
 * 1 MiB-aligned block are contiguous, so a granule's 8 words are word[0..7].
 * Inline while the leaf exists (every lock and atomic operation asks). */
GOLDI_INLINE goldi_shadow_word_t *goldi_shadow_word(unsigned plane, uintptr_t addr) {
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(plane, addr);
    return GOLDI_LIKELY(w) ? w : goldi_shadow_word_install(plane, addr);
}

/* An engine is about to create state for the granule of addr, whose words
 * are all zero (nothing there yet). Untouched shadow is read first (the
 * kernel maps its shared zero page, or commits a page where it has none)
 * and written right after (a copy-on-write fault, and a TLB shootdown
 * interrupting every core the program runs on), page by page. Once such
 * creations were seen on 4 of the 16 shadow pages of an 8 KiB block of
 * application memory, the block's shadow (64 KiB) is committed for
 * writing at once (MADV_POPULATE_WRITE): dense data (arrays) then takes 4
 * double faults and one madvise per block instead of 16 double faults, and
 * sparse data never commits more than 4 times the pages it touched. A
 * sweep (the two blocks before, or after, committed) commits the block it
 * enters and the next 3 at once, and the next 3 again as it enters the
 * last of them: it reads no page the kernel has not committed. No-op
 * where the kernel has no MADV_POPULATE_WRITE (before Linux 5.14). */
void goldi_shadow_will_write(unsigned plane, uintptr_t addr);
/* An engine is about to create or update state in every granule of
 * [addr, addr+n) (a range: memcpy, read(2)): the shadow blocks the range
 * covers whole are committed for writing now, before any is read (a read
 * of an untouched page maps the zero page, and the write after it is a
 * copy-on-write fault whose TLB flush interrupts every core the program
 * runs on). */
void goldi_shadow_will_write_range(unsigned plane, uintptr_t addr, size_t n);
/* Calls fn(ctx, addr, word) for every non-zero word in [addr, addr+n), with
 * the granule lock of addr held; skips absent leaves quickly, and over a
 * long range the shadow pages never brought in (shadow.c: reading them
 * would commit them). fn may clear it. */
void goldi_shadow_for_each(unsigned plane, uintptr_t addr, size_t n,
                           void (*fn)(void *ctx, uintptr_t addr, goldi_shadow_word_t *w), void *ctx);

/* Calls fn(ctx, base, w) for every granule of [addr, addr+n) (granule
 * aligned) that has a non-zero word, w its first word; takes no lock, for
 * an engine whose granules carry their own (fn takes it); skips absent
 * leaves quickly. */
void goldi_shadow_for_each_granule(unsigned plane, uintptr_t addr, size_t n,
                                   void (*fn)(void *ctx, uintptr_t base, goldi_shadow_word_t *w), void *ctx);

/* The first address of [addr, end) whose leaf exists in some plane (an
 * engine or the synchronisation objects may have state there), else end:
 * the rest of [addr, end) holds no state anywhere. */
uintptr_t goldi_shadow_next_recorded(uintptr_t addr, uintptr_t end);

/* Gives the shadow pages of [addr, addr+n), in every plane, back to the
 * system (they read as zeros again): for memory that is gone (munmap),
 * after every plane's owner cleared its state there. Only whole pages
 * (512 bytes of memory each) go; a thread still accessing the range races
 * with its unmapping and may see its state cleared. */
void goldi_shadow_discard(uintptr_t addr, size_t n);

/* goldi_shadow_word_if_present for a walk over stale references to memory
 * that may be gone: NULL also where the word's page was given back
 * (goldi_shadow_discard) and not brought in since, so it holds only zeros
 * and reading it would bring a page in for nothing (on kernels without a
 * shared zero page, a page of memory). Costs the lookup alone unless the
 * leaf had pages given back; pr keeps the residency of the 256 shadow
 * pages last asked about (one mincore for a MiB of shadow) and whether the
 * system swaps (then nothing is known, and the word is returned). */
struct goldi_shadow_probe {
    uintptr_t base, top;       /* the shadow pages vec describes */
    int swap;                  /* -1: not asked yet */
    unsigned char vec[256];
};
/* (vec is filled before it is read: initialising it would be a memset,
 * which the runtime must not call) */
GOLDI_INLINE void goldi_shadow_probe_init(struct goldi_shadow_probe *pr) {
    pr->base = pr->top = 0;
    pr->swap = -1;
}
bool goldi_shadow_gone_slow(struct goldi_shadow_probe *pr, goldi_shadow_word_t *leaf, const goldi_shadow_word_t *w);
GOLDI_INLINE goldi_shadow_word_t *goldi_shadow_word_if_kept(struct goldi_shadow_probe *pr, unsigned plane,
                                                            uintptr_t addr) {
    goldi_shadow_word_t *leaf = atomic_load_explicit(goldi_shadow_dir_slot(plane, addr), memory_order_acquire);
    if (!leaf)
        return NULL;
    goldi_shadow_word_t *w = &leaf[goldi_shadow_leaf_slot(addr)];
    return goldi_shadow_gone_slow(pr, leaf, w) ? NULL : w;
}

/* Bytes of shadow leaves and nodes mapped so far (all planes). */
size_t goldi_shadow_bytes_mapped(void);

/* Striped locks, one per 8-byte granule hash; hold at most one at a time. */
#define GOLDI_GRANULE_LOCK_BITS 16
extern goldi_spinlock_t goldi_granule_locks[1u << GOLDI_GRANULE_LOCK_BITS];
GOLDI_INLINE goldi_spinlock_t *goldi_granule_lock(uintptr_t addr) {
    uint64_t g = (uint64_t)(addr >> 3) * 0x9E3779B97F4A7C15ull;
    return &goldi_granule_locks[g >> (64 - GOLDI_GRANULE_LOCK_BITS)];
}

#endif

/* Sparse three-level shadow tables (layout in shadow.h). */
#include "shadow.h"
#include "../base/atfork.h"
#include "../base/alloc.h"
#include "../platform/platform.h"

#define L1_SIZE (1u << GOLDI_SHADOW_L1_BITS)
#define L2_SIZE (1u << GOLDI_SHADOW_L2_BITS)
#define LEAF_SIZE (1u << GOLDI_SHADOW_LEAF_BITS)

goldi_shadow_l2_ptr *goldi_shadow_l1[GOLDI_SHADOW_MAX_PLANES];
static _Atomic unsigned n_planes;
static _Atomic size_t mapped;
goldi_spinlock_t goldi_granule_locks[1u << GOLDI_GRANULE_LOCK_BITS];

unsigned goldi_shadow_plane_new(void) {
    unsigned p = atomic_fetch_add(&n_planes, 1);
    if (p >= GOLDI_SHADOW_MAX_PLANES)
        goldi_die("too many shadow planes");
    goldi_shadow_l1[p] = goldi_os_mmap(sizeof(goldi_shadow_l2_ptr) * L1_SIZE, true);
    if (!goldi_shadow_l1[p])
        goldi_die("cannot map shadow table");
    return p;
}

static void *map_zeroed(size_t n) {
    void *p = goldi_os_mmap(n, true);
    if (!p)
        goldi_die("out of memory mapping shadow");
    atomic_fetch_add_explicit(&mapped, n, memory_order_relaxed);
    return p;
}

/* Installs a freshly mapped node unless another thread won the race. */
static void *install(_Atomic(void *) *slot, size_t n) {
    void *fresh = map_zeroed(n);
    void *expected = NULL;
    if (atomic_compare_exchange_strong(slot, &expected, fresh))
        return fresh;
    goldi_os_munmap(fresh, n);
    atomic_fetch_sub_explicit(&mapped, n, memory_order_relaxed);
    return expected;
}

/* An L2 node is its L2_SIZE leaf pointers followed by, per leaf, one
 * 16-bit page mask per block of BLOCK_WORDS words (64 KiB of shadow, 8 KiB
 * of application): the shadow pages of the block where an engine created
 * state in an empty granule (goldi_shadow_will_write), all ones once the
 * block was committed. */
#define LEAF_BLOCKS 8u
#define BLOCK_WORDS (LEAF_SIZE / LEAF_BLOCKS)
#define BLOCK_PAGES 16u               /* 4 KiB shadow pages per block (bits of its mask) */
#define DENSE_PAGES 4                 /* pages seen before a block is committed */
#define L2_BYTES (sizeof(goldi_shadow_leaf_ptr) * L2_SIZE + sizeof(uint16_t) * LEAF_BLOCKS * L2_SIZE)

goldi_shadow_word_t *goldi_shadow_word_install(unsigned plane, uintptr_t addr) {
    goldi_shadow_l2_ptr *e1 = &goldi_shadow_l1[plane][goldi_shadow_i1(addr)];
    goldi_shadow_leaf_ptr *l2 = atomic_load_explicit(e1, memory_order_acquire);
    if (GOLDI_UNLIKELY(!l2))
        l2 = install((_Atomic(void *) *)e1, L2_BYTES);
    goldi_shadow_leaf_ptr *e2 = &l2[goldi_shadow_i2(addr)];
    goldi_shadow_word_t *leaf = atomic_load_explicit(e2, memory_order_acquire);
    if (GOLDI_UNLIKELY(!leaf))
        leaf = install((_Atomic(void *) *)e2, sizeof(goldi_shadow_word_t) * LEAF_SIZE);
    return &leaf[goldi_shadow_i3(addr)];
}

static _Atomic bool populate_refused;

void goldi_shadow_will_write(unsigned plane, uintptr_t addr) {
    goldi_shadow_leaf_ptr *l2 = atomic_load_explicit(&goldi_shadow_l1[plane][goldi_shadow_i1(addr)],
                                                     memory_order_acquire);
    goldi_shadow_word_t *leaf = l2 ? atomic_load_explicit(&l2[goldi_shadow_i2(addr)], memory_order_acquire) : NULL;
    if (!leaf || atomic_load_explicit(&populate_refused, memory_order_relaxed))
        return;
    uintptr_t i3 = goldi_shadow_i3(addr);
    _Atomic uint16_t *seen = (_Atomic uint16_t *)(l2 + L2_SIZE) + goldi_shadow_i2(addr) * LEAF_BLOCKS + i3 / BLOCK_WORDS;
    uint16_t page = (uint16_t)(1u << (i3 % BLOCK_WORDS / (BLOCK_WORDS / BLOCK_PAGES)));
    uint16_t old = atomic_load_explicit(seen, memory_order_relaxed);
    if (old == 0xffff || (old & page))
        return;
    old = atomic_fetch_or_explicit(seen, page, memory_order_relaxed);
    if (old == 0xffff || __builtin_popcount(old | page) < DENSE_PAGES)
        return;
    if (atomic_exchange_explicit(seen, 0xffff, memory_order_relaxed) == 0xffff)
        return;   /* another thread commits it */
    if (!goldi_os_populate(&leaf[i3 & ~(uintptr_t)(BLOCK_WORDS - 1)], sizeof(goldi_shadow_word_t) * BLOCK_WORDS))
        atomic_store_explicit(&populate_refused, true, memory_order_relaxed);
}

void goldi_shadow_for_each(unsigned plane, uintptr_t addr, size_t n,
                           void (*fn)(void *ctx, uintptr_t addr, goldi_shadow_word_t *w), void *ctx) {
    uintptr_t end = addr + n;
    if (end < addr)
        end = UINTPTR_MAX;
    while (addr < end) {
        uintptr_t leaf_end = (addr | (LEAF_SIZE - 1)) + 1;
        if (leaf_end > end || leaf_end == 0)
            leaf_end = end;
        goldi_shadow_word_t *w = goldi_shadow_word_if_present(plane, addr);
        if (!w) {
            addr = leaf_end;
            continue;
        }
        while (addr < leaf_end) {
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

size_t goldi_shadow_bytes_mapped(void) {
    return atomic_load_explicit(&mapped, memory_order_relaxed);
}

static void granules_lock(void) { goldi_spin_lock_all(goldi_granule_locks, 1u << GOLDI_GRANULE_LOCK_BITS); }
static void granules_unlock(void) { goldi_spin_unlock_all(goldi_granule_locks, 1u << GOLDI_GRANULE_LOCK_BITS); }

__attribute__((constructor(102))) static void shadow_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_GRANULE, granules_lock, granules_unlock, granules_unlock);
}

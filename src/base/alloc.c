/* Internal allocator: power-of-two size classes carved from 1 MiB mmap'ed
 * arenas, one spinlock per class; big blocks map their own pages. A 16-byte
 * header in front of every block records its class (or mapping size). */
#include "alloc.h"
#include "atfork.h"
#include "fmt.h"
#include "spinlock.h"
#include "../platform/platform.h"

#define MIN_SHIFT 4                  /* 16-byte class */
#define MAX_SHIFT 15                 /* 32 KiB class; bigger blocks are mapped */
#define N_CLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define ARENA_SIZE (1u << 20)
#define HDR 16
#define PAGE 4096

struct hdr {
    uint64_t cls;   /* class index, or CLS_DIRECT / CLS_THREAD for a mapping of its own */
    uint64_t size;  /* mapping size for those */
};
#define CLS_DIRECT UINT64_MAX
#define CLS_THREAD (UINT64_MAX - 1)   /* from goldi_alloc_thread_state: kept when freed */
_Static_assert(sizeof(struct hdr) == HDR, "header must keep 16-byte alignment");

struct free_block { struct free_block *next; };

static struct {
    goldi_spinlock_t lock;
    struct free_block *free;
    char *bump, *end;
} classes[N_CLASSES];
static _Atomic size_t in_use;

void *goldi_mmap(size_t n) {
    n = (n + PAGE - 1) & ~(size_t)(PAGE - 1);
    void *p = goldi_os_mmap(n, false);
    if (!p)
        goldi_die("out of memory (mmap failed)");
    return p;
}

void goldi_munmap(void *p, size_t n) {
    n = (n + PAGE - 1) & ~(size_t)(PAGE - 1);
    goldi_os_munmap(p, n);
}

static unsigned class_of(size_t total) {
    unsigned c = 0;
    while (((size_t)1 << (c + MIN_SHIFT)) < total)
        c++;
    return c;
}

void *goldi_alloc(size_t n) {
    size_t total = n + HDR;
    if (total > ((size_t)1 << MAX_SHIFT)) {
        size_t map = (total + PAGE - 1) & ~(size_t)(PAGE - 1);
        struct hdr *h = goldi_mmap(map);
        h->cls = CLS_DIRECT;
        h->size = map;
        atomic_fetch_add_explicit(&in_use, map, memory_order_relaxed);
        return h + 1;
    }
    unsigned c = class_of(total);
    size_t bsize = (size_t)1 << (c + MIN_SHIFT);
    struct hdr *h;
    goldi_spin_lock(&classes[c].lock);
    if (classes[c].free) {
        h = (struct hdr *)classes[c].free;
        classes[c].free = classes[c].free->next;
        goldi_spin_unlock(&classes[c].lock);
        goldi_memset(h, 0, bsize);
    } else {
        if (classes[c].bump + bsize > classes[c].end) {
            classes[c].bump = goldi_mmap(ARENA_SIZE);
            classes[c].end = classes[c].bump + ARENA_SIZE;
        }
        h = (struct hdr *)classes[c].bump;
        classes[c].bump += bsize;
        goldi_spin_unlock(&classes[c].lock);
    }
    h->cls = c;
    atomic_fetch_add_explicit(&in_use, bsize, memory_order_relaxed);
    return h + 1;
}

/* Per-thread state freed by threads that ended, kept for the next threads
 * (a program that starts a thread per task would otherwise map and unmap a
 * thread's state each time: the unmap a TLB shootdown on every core, the
 * pages faulted in again). A few only: they are the state of threads that
 * no longer run. */
#define THREAD_KEEP 8
static struct {
    goldi_spinlock_t lock;
    unsigned n;
    struct hdr *block[THREAD_KEEP];
} kept;

/* Zeroes [p, p + n) (8-byte aligned, n a multiple of 8) by clearing only
 * the 64-byte lines that hold something: a kept block's pages its last
 * thread never wrote stay uncommitted (a read maps the kernel's zero page)
 * instead of all being written, so each thread's state costs the memory it
 * touches, as a fresh mapping would. */
static void zero_written(void *p, size_t n) {
    uint64_t *w = p;
    for (size_t i = 0; i < n / 8; i += 8) {
        size_t k = n / 8 - i < 8 ? n / 8 - i : 8;
        uint64_t any = 0;
        for (size_t j = 0; j < k; j++)
            any |= w[i + j];
        if (any)
            goldi_memset(&w[i], 0, k * 8);
    }
}

void *goldi_alloc_thread_state(size_t n, size_t keep_off, size_t keep_len) {
    GOLDI_CHECK(keep_off % 8 == 0 && keep_len % 8 == 0 && keep_off + keep_len <= n);
    size_t total = n + HDR;
    if (total <= ((size_t)1 << MAX_SHIFT))
        return goldi_alloc(n);
    size_t map = (total + PAGE - 1) & ~(size_t)(PAGE - 1);
    struct hdr *h = NULL;
    goldi_spin_lock(&kept.lock);
    for (unsigned i = kept.n; i-- > 0;)
        if (kept.block[i]->size == map) {
            h = kept.block[i];
            kept.block[i] = kept.block[--kept.n];
            break;
        }
    goldi_spin_unlock(&kept.lock);
    if (h) {
        zero_written(h + 1, keep_off);
        zero_written((char *)(h + 1) + keep_off + keep_len, map - HDR - keep_off - keep_len);
    } else {
        h = goldi_mmap(map);   /* (pages committed as the thread touches them) */
        h->cls = CLS_THREAD;
        h->size = map;
    }
    atomic_fetch_add_explicit(&in_use, map, memory_order_relaxed);
    return h + 1;
}

static bool thread_state_keep(struct hdr *h) {
    goldi_spin_lock(&kept.lock);
    bool ok = kept.n < THREAD_KEEP;
    if (ok)
        kept.block[kept.n++] = h;
    goldi_spin_unlock(&kept.lock);
    return ok;
}

static size_t usable(struct hdr *h) {
    return h->cls >= CLS_THREAD ? h->size - HDR : ((size_t)1 << (h->cls + MIN_SHIFT)) - HDR;
}

void goldi_free(void *p) {
    if (!p)
        return;
    struct hdr *h = (struct hdr *)p - 1;
    if (h->cls >= CLS_THREAD) {
        atomic_fetch_sub_explicit(&in_use, h->size, memory_order_relaxed);
        if (h->cls == CLS_DIRECT || !thread_state_keep(h))
            goldi_munmap(h, h->size);
        return;
    }
    GOLDI_CHECK_OP(h->cls, <, N_CLASSES);
    unsigned c = (unsigned)h->cls;
    atomic_fetch_sub_explicit(&in_use, (size_t)1 << (c + MIN_SHIFT), memory_order_relaxed);
    struct free_block *b = (struct free_block *)h;
    goldi_spin_lock(&classes[c].lock);
    b->next = classes[c].free;
    classes[c].free = b;
    goldi_spin_unlock(&classes[c].lock);
}

/* A block with a mapping of its own grows by moving the mapping (mremap):
 * an array doubling to megabytes (the GC's scratch, a chunk's registry)
 * otherwise faulted in every page of the new block and copied the old one
 * into it. A first touch costs ~10 us a page on this machine's VM against
 * ~0.2 us for a page moved (performance.md, round 65). */
void *goldi_realloc(void *p, size_t n) {
    if (!p)
        return goldi_alloc(n);
    struct hdr *h = (struct hdr *)p - 1;
    size_t old = usable(h);
    if (n <= old)
        return p;
    if (h->cls == CLS_DIRECT) {
        size_t map = (n + HDR + PAGE - 1) & ~(size_t)(PAGE - 1), was = h->size;
        struct hdr *m = goldi_os_mremap(h, was, map);
        if (m) {
            m->size = map;
            atomic_fetch_add_explicit(&in_use, map - was, memory_order_relaxed);
            return m + 1;
        }
    }
    void *q = goldi_alloc(n);
    goldi_memcpy(q, p, old);
    goldi_free(p);
    return q;
}

size_t goldi_alloc_bytes_in_use(void) {
    return atomic_load_explicit(&in_use, memory_order_relaxed);
}

static void alloc_lock(void) {
    for (unsigned c = 0; c < N_CLASSES; c++)
        goldi_spin_lock(&classes[c].lock);
    goldi_spin_lock(&kept.lock);
}

static void alloc_unlock(void) {
    goldi_spin_unlock(&kept.lock);
    for (unsigned c = N_CLASSES; c-- > 0;)
        goldi_spin_unlock(&classes[c].lock);
}

__attribute__((constructor(102))) static void alloc_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ALLOC, alloc_lock, alloc_unlock, alloc_unlock);
}

/* malloc-family interceptors and the live-block registry (goldi_heap_find).
 * Allocation goes straight to glibc's __libc_* entry points (dlsym would
 * allocate). Events: ALLOC after the real allocation, FREE (a write of the
 * whole block that ends its lifetime) before the real free, so another
 * thread's ALLOC of recycled memory always comes after our FREE.
 *
 * The registry is kept for every block, whatever the thread state (pre-init,
 * unregistered threads and the runtime itself included), so sizes at free
 * are always known; only events depend on the thread state.
 *
 * Invariants:
 *  - a live block allocated through these interceptors has exactly one entry,
 *    keyed by its start, in bucket hash(start);
 *  - blocks larger than BIG are also on big_list (goldi_heap_find walks back
 *    at most BIG bytes from an address, then scans big_list);
 *  - entries are only touched under their stripe lock (big_list: big_lock);
 *    no libc call happens under a registry lock (fork safety). */
#define _GNU_SOURCE
#include "intercept.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <wchar.h>

#include "../../base/alloc.h"
#include "../../base/fmt.h"

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t al, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);

/* ------------------------------------------------------------------------
 * Block registry: a fixed hash table (in .bss: untouched buckets cost no
 * memory) with striped spinlocks; entries come from goldi_alloc and are
 * recycled through a per-stripe free list. */
#define BUCKET_BITS 20
#define N_BUCKETS (1u << BUCKET_BITS)
#define N_STRIPES 256u
#define BIG ((size_t)1 << 16)   /* larger blocks also go on big_list */

struct hblock {
    uintptr_t addr;        /* start of the user block (key) */
    size_t size;           /* requested size */
    goldi_tid_t tid;       /* allocating thread (GOLDI_TID_NONE: unknown) */
    goldi_origin_t origin; /* allocation origin, 0 if none */
    struct hblock *next;   /* bucket chain / free list */
};

struct big {
    uintptr_t addr;
    size_t size;
    struct big *next;
};

static struct hblock *buckets[N_BUCKETS];
static struct {
    goldi_spinlock_t lock;
    struct hblock *free;
    char pad[64 - sizeof(goldi_spinlock_t) - sizeof(struct hblock *)];
} stripes[N_STRIPES];
static goldi_spinlock_t big_lock;
static struct big *big_list, *big_free;

/* A bucket page (512 buckets) serves one 8 KiB region of the heap, chosen
 * by hashing the region, with a bucket per 16-byte block start inside it:
 * a program's small blocks, packed together by malloc, touch a page of the
 * table per 8 KiB of heap in use instead of every page of it (a hash of
 * the whole address spread multiset's 4096 nodes over 1700 of the 2048
 * pages: 7 MiB of its peak memory). */
#define REGION_BITS 13
#define REGION_BUCKETS (1u << (REGION_BITS - 4))
static inline uint32_t bucket_of(uintptr_t a) {
    uint64_t region = (uint64_t)(a >> REGION_BITS) * 0x9E3779B97F4A7C15ull;
    return ((uint32_t)(region >> (64 - BUCKET_BITS)) & ~(REGION_BUCKETS - 1)) |
           ((uint32_t)(a >> 4) & (REGION_BUCKETS - 1));
}
static inline unsigned stripe_of(uint32_t b) {
    return b & (N_STRIPES - 1);
}

static void big_add(uintptr_t a, size_t n) {
    goldi_spin_lock(&big_lock);
    struct big *b = big_free;
    if (b)
        big_free = b->next;
    else
        b = goldi_alloc(sizeof *b);
    b->addr = a;
    b->size = n;
    b->next = big_list;
    big_list = b;
    goldi_spin_unlock(&big_lock);
}

static void big_remove(uintptr_t a) {
    goldi_spin_lock(&big_lock);
    for (struct big **pp = &big_list; *pp; pp = &(*pp)->next) {
        if ((*pp)->addr == a) {
            struct big *b = *pp;
            *pp = b->next;
            b->next = big_free;
            big_free = b;
            break;
        }
    }
    goldi_spin_unlock(&big_lock);
}

/* Records [a, a+n). A stale entry with the same start (block freed behind
 * our back, e.g. by glibc internally) is overwritten. */
static void heap_insert(uintptr_t a, size_t n, goldi_tid_t tid, goldi_origin_t origin) {
    /* Entered: a signal handler interrupting us while we hold a stripe (or
     * allocator) lock must not report a race, since the report looks blocks up
     * here (goldi_heap_find) and would spin on our lock forever. */
    struct goldi_rt_thread *rt = goldi_rt_enter();
    uint32_t b = bucket_of(a);
    unsigned s = stripe_of(b);
    size_t old_size = 0;
    goldi_spin_lock(&stripes[s].lock);
    /* Writes the bucket before reading it: a .bss page read first maps the
     * kernel's zero page, and the write after it replaces that page (a TLB
     * shootdown: an interrupt on every other core the program runs on).
     * A compare-and-swap writes its word whatever it finds (x86), and
     * never changes it here. An insert is the first to touch a bucket. */
    struct hblock *unchanged = NULL;
    __atomic_compare_exchange_n(&buckets[b], &unchanged, NULL, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    struct hblock *e;
    for (e = buckets[b]; e; e = e->next)
        if (e->addr == a)
            break;
    if (e) {
        old_size = e->size;
    } else {
        e = stripes[s].free;
        if (e)
            stripes[s].free = e->next;
        else
            e = goldi_alloc(sizeof *e);
        e->addr = a;
        e->next = buckets[b];
        buckets[b] = e;
    }
    e->size = n;
    e->tid = tid;
    e->origin = origin;
    goldi_spin_unlock(&stripes[s].lock);
    if (old_size > BIG)
        big_remove(a);
    if (n > BIG)
        big_add(a, n);
    goldi_rt_leave(rt);
}

/* Removes the block starting at a; false if unknown. */
static bool heap_remove(uintptr_t a, size_t *size) {
    struct goldi_rt_thread *rt = goldi_rt_enter();   /* see heap_insert */
    uint32_t b = bucket_of(a);
    unsigned s = stripe_of(b);
    bool found = false;
    goldi_spin_lock(&stripes[s].lock);
    for (struct hblock **pp = &buckets[b]; *pp; pp = &(*pp)->next) {
        struct hblock *e = *pp;
        if (e->addr == a) {
            *pp = e->next;
            *size = e->size;
            e->next = stripes[s].free;
            stripes[s].free = e;
            found = true;
            break;
        }
    }
    goldi_spin_unlock(&stripes[s].lock);
    if (found && *size > BIG)
        big_remove(a);
    goldi_rt_leave(rt);
    return found;
}

static bool heap_lookup_start(uintptr_t a, struct goldi_heap_block *out) {
    uint32_t b = bucket_of(a);
    unsigned s = stripe_of(b);
    bool found = false;
    goldi_spin_lock(&stripes[s].lock);
    for (struct hblock *e = buckets[b]; e; e = e->next) {
        if (e->addr == a) {
            out->addr = e->addr;
            out->size = e->size;
            out->tid = e->tid;
            out->origin = e->origin;
            found = true;
            break;
        }
    }
    goldi_spin_unlock(&stripes[s].lock);
    return found;
}

/* Report-time only: walks back from addr over every possible block start
 * (malloc returns at least 8-aligned memory) up to BIG bytes, then scans the
 * big blocks. */
bool goldi_heap_find(uintptr_t addr, struct goldi_heap_block *out) {
    uintptr_t start = addr & ~(uintptr_t)7;
    for (uintptr_t off = 0; off <= BIG && off <= start; off += 8) {
        if (heap_lookup_start(start - off, out) && addr - out->addr < out->size)
            return true;
    }
    uintptr_t hit = 0;
    goldi_spin_lock(&big_lock);
    for (struct big *b = big_list; b; b = b->next) {
        if (addr - b->addr < b->size) {
            hit = b->addr;
            break;
        }
    }
    goldi_spin_unlock(&big_lock);
    return hit && heap_lookup_start(hit, out);
}

void goldi_heap_lock_all(void) {
    for (unsigned i = 0; i < N_STRIPES; i++)
        goldi_spin_lock(&stripes[i].lock);
    goldi_spin_lock(&big_lock);
}

void goldi_heap_unlock_all(void) {
    goldi_spin_unlock(&big_lock);
    for (unsigned i = N_STRIPES; i-- > 0;)
        goldi_spin_unlock(&stripes[i].lock);
}

/* ------------------------------------------------------------------------
 * Event side. */

/* Sizes in events are 32-bit: huge blocks are described piecewise. */
#define PIECE ((size_t)1 << 30)

goldi_origin_t goldi_icpt_emit_alloc(struct goldi_rt_thread *t, uintptr_t a, size_t n, uintptr_t pc) {
    goldi_origin_t origin = 0;
    bool first = true;
    do {
        size_t k = n < PIECE ? n : PIECE;
        struct goldi_event ev = {0};
        ev.kind = GOLDI_EV_ALLOC;
        ev.addr = a;
        ev.size = (uint32_t)k;
        ev.thr = &t->thr;
        ev.pc = pc;
        goldi_rt_emit(&ev);
        if (first) {
            struct goldi_rt_thread *e = goldi_rt_enter();
            origin = goldi_event_origin(&ev);
            goldi_rt_leave(e);
            first = false;
        }
        a += k;
        n -= k;
    } while (n);
    return origin;
}

void goldi_icpt_emit_free(struct goldi_rt_thread *t, uintptr_t a, size_t n, uintptr_t pc) {
    while (n) {
        size_t k = n < PIECE ? n : PIECE;
        struct goldi_event ev = {0};
        ev.kind = GOLDI_EV_FREE;
        ev.addr = a;
        ev.size = (uint32_t)k;
        ev.pc = pc;
        goldi_rt_emit(&ev);
        a += k;
        n -= k;
    }
}

/* The thread to emit for, without forcing runtime initialisation (malloc
 * runs long before it, from the dynamic loader and libc start-up). */
static inline struct goldi_rt_thread *alloc_thread(void) {
    struct goldi_rt_thread *t = goldi_cur;
    return (t && !t->in_rt) ? t : NULL;
}

/* After a successful allocation of [p, p+n). */
static void *allocated(void *p, size_t n, uintptr_t pc) {
    if (!p)
        return p;
    struct goldi_rt_thread *t = alloc_thread();
    goldi_origin_t origin = 0;
    if (t)
        origin = goldi_icpt_emit_alloc(t, (uintptr_t)p, n, pc);
    heap_insert((uintptr_t)p, n, t ? t->thr.tid : GOLDI_TID_NONE, origin);
    return p;
}

/* Before the real free of p: unregister, FREE, forget sync objects inside. */
static void freeing(void *p, uintptr_t pc) {
    size_t n;
    if (!p || !heap_remove((uintptr_t)p, &n))
        return;
    struct goldi_rt_thread *t = goldi_cur;
    if (t && t->in_rt)
        return;   /* runtime-internal block (libdw, ...): holds no program sync objects */
    if (t)
        goldi_icpt_emit_free(t, (uintptr_t)p, n, pc);
    if (n && goldi_rt_initialized()) {
        struct goldi_rt_thread *e = goldi_rt_enter();
        goldi_sync_forget_range((uintptr_t)p, n);
        goldi_rt_leave(e);
    }
}

/* Shared by the C++ operators (cxx.c). */
void *goldi_icpt_malloc(size_t n, uintptr_t pc);
void *goldi_icpt_memalign(size_t al, size_t n, uintptr_t pc);
void goldi_icpt_free(void *p, uintptr_t pc);

void *goldi_icpt_malloc(size_t n, uintptr_t pc) {
    return allocated(__libc_malloc(n), n, pc);
}
void *goldi_icpt_memalign(size_t al, size_t n, uintptr_t pc) {
    return allocated(__libc_memalign(al, n), n, pc);
}
void goldi_icpt_free(void *p, uintptr_t pc) {
    freeing(p, pc);
    __libc_free(p);
}

GOLDI_EXPORT void *malloc(size_t n) {
    return allocated(__libc_malloc(n), n, GOLDI_CALLER_PC());
}

GOLDI_EXPORT void free(void *p) {
    freeing(p, GOLDI_CALLER_PC());
    __libc_free(p);
}

GOLDI_EXPORT void *calloc(size_t n, size_t m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    void *p = __libc_calloc(n, m);
    return allocated(p, p ? n * m : 0, pc);
}

/* realloc(p, n) is "new object with the old contents, old object ends" (C
 * 7.22.3.5), whether or not glibc moves it: FREE(p, old) before the real call
 * (p is dead afterwards either way, and must be dead before its memory can
 * be handed to another thread), then ALLOC(q, n) and a WRITE of the copied
 * prefix by this thread. FREE is a write of all old bytes, which subsumes
 * the read of the copy. If the real realloc fails (returns NULL for n > 0),
 * p is still live: it is re-registered as a fresh block written by us, i.e.
 * its earlier access history is lost on that path (out-of-memory only). */
static void *do_realloc(void *p, size_t n, uintptr_t pc) {
    if (!p)
        return allocated(__libc_malloc(n), n, pc);
    size_t old = 0;
    struct goldi_heap_block blk;
    bool known = heap_lookup_start((uintptr_t)p, &blk);
    if (known) {
        old = blk.size;
        freeing(p, pc);
    }
    void *q = __libc_realloc(p, n);
    if (!q && n == 0)
        return NULL;   /* glibc freed p */
    if (!q) {
        if (known) {
            allocated(p, old, pc);
            struct goldi_rt_thread *t = alloc_thread();
            if (t)
                goldi_icpt_emit_range(t, GOLDI_EV_WRITE, (uintptr_t)p, old, pc);
        }
        return NULL;
    }
    allocated(q, n, pc);
    struct goldi_rt_thread *t = alloc_thread();
    if (t && known)
        goldi_icpt_emit_range(t, GOLDI_EV_WRITE, (uintptr_t)q, old < n ? old : n, pc);
    return q;
}

GOLDI_EXPORT void *realloc(void *p, size_t n) {
    return do_realloc(p, n, GOLDI_CALLER_PC());
}

GOLDI_EXPORT void *reallocarray(void *p, size_t n, size_t m) {
    size_t bytes;
    if (__builtin_mul_overflow(n, m, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return do_realloc(p, bytes, GOLDI_CALLER_PC());
}

GOLDI_EXPORT int posix_memalign(void **out, size_t al, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    if (al % sizeof(void *) != 0 || (al & (al - 1)) != 0 || al == 0)
        return EINVAL;
    int saved = errno;
    void *p = __libc_memalign(al, n);
    errno = saved;
    if (!p)
        return ENOMEM;
    *out = allocated(p, n, pc);
    return 0;
}

GOLDI_EXPORT void *aligned_alloc(size_t al, size_t n) {
    return allocated(__libc_memalign(al, n), n, GOLDI_CALLER_PC());
}

GOLDI_EXPORT void *memalign(size_t al, size_t n) {
    return allocated(__libc_memalign(al, n), n, GOLDI_CALLER_PC());
}

GOLDI_EXPORT void *valloc(size_t n) {
    return allocated(__libc_valloc(n), n, GOLDI_CALLER_PC());
}

GOLDI_EXPORT void *pvalloc(size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    /* pvalloc rounds the size up to whole pages: the block is all of them. */
    void *p = __libc_pvalloc(n);
    return allocated(p, p ? malloc_usable_size(p) : 0, pc);
}

/* strdup family: a READ of the source, an ALLOC, a WRITE of the copy. The
 * length is measured with our own loop (libc's strlen would be intercepted
 * or, in libc, uninstrumented either way). */
static size_t str_len(const char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* Copies s[0, len) into a new terminated block; read = source bytes read. */
static char *dup_bytes(const char *s, size_t len, size_t read, uintptr_t pc) {
    struct goldi_rt_thread *t = alloc_thread();
    if (t)
        goldi_icpt_emit_range(t, GOLDI_EV_READ, (uintptr_t)s, read, pc);
    char *d = allocated(__libc_malloc(len + 1), len + 1, pc);
    if (!d)
        return NULL;
    goldi_memcpy(d, s, len);
    d[len] = 0;
    if (t)
        goldi_icpt_emit_range(t, GOLDI_EV_WRITE, (uintptr_t)d, len + 1, pc);
    return d;
}

GOLDI_EXPORT char *strdup(const char *s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    size_t len = str_len(s);
    return dup_bytes(s, len, len + 1, pc);   /* the terminator is read too */
}

GOLDI_EXPORT char *strndup(const char *s, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    size_t len = 0;
    while (len < n && s[len])
        len++;
    return dup_bytes(s, len, len < n ? len + 1 : len, pc);
}

GOLDI_EXPORT wchar_t *wcsdup(const wchar_t *s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    size_t len = 0;
    while (s[len])
        len++;
    size_t bytes = (len + 1) * sizeof(wchar_t);
    struct goldi_rt_thread *t = alloc_thread();
    if (t)
        goldi_icpt_emit_range(t, GOLDI_EV_READ, (uintptr_t)s, bytes, pc);
    wchar_t *d = allocated(__libc_malloc(bytes), bytes, pc);
    if (!d)
        return NULL;
    goldi_memcpy(d, s, bytes);
    if (t)
        goldi_icpt_emit_range(t, GOLDI_EV_WRITE, (uintptr_t)d, bytes, pc);
    return d;
}

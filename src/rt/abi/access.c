/* __tsan_* entry points for plain accesses, function entry/exit, vptrs,
 * ranges and memory intrinsics. Fast path: load the thread state, test the
 * ignore count, else one event to the dispatcher inside goldi_rt_enter/leave
 * (a race report symbolizes with libdw, which mallocs: the interceptors must
 * see in_rt). Unaligned, volatile and compound read-write variants are plain
 * accesses of the same size (volatile is not atomic in C, ALGORITHMS.md 1.2). */
#include <goldi/tsan_abi.h>
#include "../rt.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

#define RET_PC() ((uintptr_t)__builtin_return_address(0))

static GOLDI_NOINLINE void access_slow(struct goldi_rt_thread *t, uintptr_t addr, uint32_t size,
                                       uint8_t kind, uint8_t flags, uintptr_t pc) {
    struct goldi_event ev = {
        .kind = kind,
        .flags = flags,
        .size = size,
        .addr = addr,
        .pc = pc,
        .thr = &t->thr,
    };
    t->in_rt++;
    t->ignore++;
    goldi_dispatch(&ev);
    t->in_rt--;
    t->ignore--;
}

static _Atomic uint64_t filter_windows, filter_skips;   /* windows ended, by outcome (stats) */

uint64_t goldi_rt_filter_windows(bool skipped) {
    return atomic_load_explicit(skipped ? &filter_skips : &filter_windows, memory_order_relaxed);
}

/* The end of a filter window (rt.h): keep consulting the filter if it
 * answered at least 1 in 16 of the window's misses, else skip it for a
 * while; after a skip, consult it again for a window. */
static GOLDI_NOINLINE void filter_adapt(struct goldi_rt_thread *t) {
    if (t->filter_off) {
        t->filter_window.left = GOLDI_FILTER_SKIP;
        return;
    }
    bool skip = goldi_window_next(&t->filter_window, GOLDI_FILTER_WINDOW, GOLDI_FILTER_SKIP, GOLDI_FILTER_WINDOW / 16);
    atomic_fetch_add_explicit(skip ? &filter_skips : &filter_windows, 1, memory_order_relaxed);
}

GOLDI_INLINE struct goldi_filter_entry *filter_slot(struct goldi_rt_thread *t, uintptr_t addr) {
    return &t->filter[((addr >> 3) ^ (addr >> (3 + GOLDI_FILTER_BITS))) & ((1u << GOLDI_FILTER_BITS) - 1)];
}

/* A plain access the filter did not answer (or was not asked): the filter
 * remembers it, then the engine's shortcut takes it, else an event. Kept
 * out of line so the filter test, the common case, runs in a few registers
 * and no stack frame; the slot is written before the engine runs so that
 * only t is live across the call (the frame is one register, not six). A
 * signal handler that finds the slot written a few instructions early
 * skips an access the engine records right after it returns, in the same
 * epoch: the same history. */
static GOLDI_NOINLINE void access_miss(struct goldi_rt_thread *t, uint32_t epoch, uintptr_t addr, uint32_t size,
                                       uint8_t kind, uintptr_t pc) {
    bool write = kind == GOLDI_EV_WRITE;
    if (!t->filter_window.skip) {
        struct goldi_filter_entry *f = filter_slot(t, addr);
        f->addr = addr;
        f->epoch = epoch;
        f->size = (uint16_t)size;
        f->write = write;
    }
    struct goldi_sink *fs = goldi_dispatch_fast_sink;
    if (GOLDI_LIKELY(fs) && (addr & (GOLDI_GRANULE - 1)) + size <= 2 * GOLDI_GRANULE) {
        /* At most two granules (16-byte accesses of vectorised loops). */
        t->in_rt++;   /* the origin may be interned (runtime allocator) */
        t->ignore++;
        fs->on_access_fast(fs->self, &t->thr, addr, size, write, pc);
        t->in_rt--;
        t->ignore--;
    } else {
        access_slow(t, addr, size, kind, 0, pc);
    }
    if (GOLDI_UNLIKELY(--t->filter_window.left == 0))
        filter_adapt(t);
}

GOLDI_INLINE void plain_access(uintptr_t addr, uint32_t size, uint8_t kind, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || t->ignore)
        return;
    uint32_t epoch = t->thr.sync_epoch;
    if (GOLDI_LIKELY(!t->filter_window.skip)) {
        const struct goldi_filter_entry *f = filter_slot(t, addr);
        if (f->addr == addr && f->epoch == epoch && f->size >= size && f->write >= (kind == GOLDI_EV_WRITE)) {
            t->filter_window.hits++;
            return;
        }
    }
    access_miss(t, epoch, addr, size, kind, pc);
}

#define R GOLDI_EV_READ
#define W GOLDI_EV_WRITE

/* A compound read-modify-write (x += 1, Clang -tsan-compound-read-before-write)
 * is reported as the write: a write conflicts with everything its read does. */
#define GOLDI_ACCESS_DEFS(n)                                                                       \
    GOLDI_EXPORT void __tsan_read##n(void *a) { plain_access((uintptr_t)a, n, R, RET_PC()); }            \
    GOLDI_EXPORT void __tsan_write##n(void *a) { plain_access((uintptr_t)a, n, W, RET_PC()); }           \
    GOLDI_EXPORT void __tsan_read##n##_pc(void *a, void *pc) { plain_access((uintptr_t)a, n, R, (uintptr_t)pc); } \
    GOLDI_EXPORT void __tsan_write##n##_pc(void *a, void *pc) { plain_access((uintptr_t)a, n, W, (uintptr_t)pc); } \
    GOLDI_EXPORT void __tsan_unaligned_read##n(const void *a) { plain_access((uintptr_t)a, n, R, RET_PC()); } \
    GOLDI_EXPORT void __tsan_unaligned_write##n(void *a) { plain_access((uintptr_t)a, n, W, RET_PC()); } \
    GOLDI_EXPORT void __tsan_volatile_read##n(void *a) { plain_access((uintptr_t)a, n, R, RET_PC()); }   \
    GOLDI_EXPORT void __tsan_volatile_write##n(void *a) { plain_access((uintptr_t)a, n, W, RET_PC()); }  \
    GOLDI_EXPORT void __tsan_unaligned_volatile_read##n(void *a) { plain_access((uintptr_t)a, n, R, RET_PC()); } \
    GOLDI_EXPORT void __tsan_unaligned_volatile_write##n(void *a) { plain_access((uintptr_t)a, n, W, RET_PC()); } \
    GOLDI_EXPORT void __tsan_read_write##n(void *a) { plain_access((uintptr_t)a, n, W, RET_PC()); }      \
    GOLDI_EXPORT void __tsan_unaligned_read_write##n(void *a) { plain_access((uintptr_t)a, n, W, RET_PC()); }

GOLDI_ACCESS_DEFS(1)
GOLDI_ACCESS_DEFS(2)
GOLDI_ACCESS_DEFS(4)
GOLDI_ACCESS_DEFS(8)
GOLDI_ACCESS_DEFS(16)

/* One event for the whole range; the dispatcher splits it into granules. */
static void range(void *addr, unsigned long size, bool write, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || t->ignore || !size)
        return;
    goldi_rt_access_range((uintptr_t)addr, size, write, pc);
}

GOLDI_EXPORT void __tsan_read_range(void *a, unsigned long n) { range(a, n, false, RET_PC()); }
GOLDI_EXPORT void __tsan_write_range(void *a, unsigned long n) { range(a, n, true, RET_PC()); }
GOLDI_EXPORT void __tsan_read_range_pc(void *a, unsigned long n, void *pc) {
    range(a, n, false, (uintptr_t)pc);
}
GOLDI_EXPORT void __tsan_write_range_pc(void *a, unsigned long n, void *pc) {
    range(a, n, true, (uintptr_t)pc);
}

/* Constructors and destructors store the vptr repeatedly; a store of the
 * value already there changes nothing and is not an access (as in TSan), so
 * a destructor racing with a virtual call on a live object is still caught
 * while same-value rewrites are not reported. */
GOLDI_EXPORT void __tsan_vptr_update(void **vptr_p, void *new_val) {
    if (*vptr_p == new_val)
        return;
    plain_access((uintptr_t)vptr_p, sizeof(void *), W, RET_PC());
}
GOLDI_EXPORT void __tsan_vptr_read(void **vptr_p) {
    plain_access((uintptr_t)vptr_p, sizeof(void *), R, RET_PC());
}

/* Shadow call stack. It is kept even while the thread is ignored so pushes
 * and pops stay balanced; frames beyond GOLDI_MAX_STACK are counted, not
 * stored. A pop at depth 0 (longjmp out of tracked frames, or frames entered
 * before the runtime existed) is dropped. A push leaves stack_version alone:
 * it only adds a frame above the others, and depth tells (a frame below
 * can only change after a pop, which bumps the version). */
GOLDI_EXPORT void __tsan_func_entry(void *call_pc) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t)
        return;
    uint32_t d = t->thr.depth++;
    if (d < GOLDI_MAX_STACK)
        t->thr.stack[d] = (uintptr_t)call_pc;
}

GOLDI_EXPORT void __tsan_func_exit(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || !t->thr.depth)
        return;
    t->thr.depth--;
    t->thr.stack_version++;
}

GOLDI_EXPORT void __tsan_ignore_thread_begin(void) {
    struct goldi_rt_thread *t = goldi_rt_thread_self();
    if (!t)
        return;
    t->ignore_user++;
    t->ignore++;
}

GOLDI_EXPORT void __tsan_ignore_thread_end(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || !t->ignore_user)
        return;
    t->ignore_user--;
    t->ignore--;
}

GOLDI_EXPORT void __tsan_init(void) { goldi_rt_init(); }

/* Nothing is buffered per thread that could be flushed. */
GOLDI_EXPORT void __tsan_flush_memory(void) {}

/* Memory intrinsics emitted by newer Clang in place of memcpy/memset/memmove.
 * The copy is done by the runtime's own routines: calling libc's would go
 * through our interceptors and record the range twice. */
GOLDI_EXPORT void *__tsan_memcpy(void *dst, const void *src, unsigned long n) {
    range((void *)src, n, false, RET_PC());
    range(dst, n, true, RET_PC());
    return goldi_memcpy(dst, src, n);
}

GOLDI_EXPORT void *__tsan_memset(void *dst, int c, unsigned long n) {
    range(dst, n, true, RET_PC());
    return goldi_memset(dst, c, n);
}

GOLDI_EXPORT void *__tsan_memmove(void *dst, const void *src, unsigned long n) {
    range((void *)src, n, false, RET_PC());
    range(dst, n, true, RET_PC());
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d <= s || d >= s + n)
        return goldi_memcpy(dst, src, n);   /* forward copy is safe */
    while (n--)
        d[n] = s[n];
    return dst;
}

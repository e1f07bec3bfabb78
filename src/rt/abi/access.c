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

static _Atomic uint64_t filter_windows[2][2];   /* windows ended: [granule filter][skipped] (stats) */

uint64_t goldi_rt_filter_windows(bool granule, bool skipped) {
    return atomic_load_explicit(&filter_windows[granule][skipped], memory_order_relaxed);
}

/* The end of a filter window (rt.h): keep consulting the filter if it
 * answered at least 1 in 16 of the window's misses, else skip it for a
 * while; after a skip, consult it again for a window. The granule filter's
 * skip spans end here too (they count the filter's windows and spans). */
static GOLDI_NOINLINE void gfilter_adapt(struct goldi_rt_thread *t);

static GOLDI_NOINLINE void filter_adapt(struct goldi_rt_thread *t) {
    if (t->filter_off) {
        t->filter_window.left = GOLDI_FILTER_SKIP;
        return;
    }
    t->filter_passed += t->filter_window.skip ? GOLDI_FILTER_SKIP : GOLDI_FILTER_WINDOW;
    if (t->gfilter_window.skip && --t->gfilter_window.left == 0)
        gfilter_adapt(t);   /* its span is over: a window again */
    bool skip = goldi_window_next(&t->filter_window, GOLDI_FILTER_WINDOW, GOLDI_FILTER_SKIP, GOLDI_FILTER_WINDOW / 16);
    atomic_fetch_add_explicit(&filter_windows[0][skip], 1, memory_order_relaxed);
}

/* A skip span cut short at a phase's start (rt.h): nbody's update phase,
 * every access a first, left the filter skipped for 65,536 accesses into
 * the force phase, whose reads of the shared loop bound and positions then
 * took the granule locks the four threads share; on two cores a holder
 * preempted there made the others yield (1,046 yields a run, three times
 * TSan's context switches). A phase without repeats costs one window of
 * lookups again. */
void goldi_rt_filter_new_phase(struct goldi_rt_thread *t) {
    if (!t->filter_window.skip || t->filter_off)
        return;
    t->filter_passed -= t->filter_window.left;   /* (the span's accesses not made) */
    filter_adapt(t);
}

/* The end of a granule filter window (its misses) or skip span: it is kept
 * while its hits are at least twice its misses. Where the shadow is in
 * cache its lookup and mark cost about what the engine's kept path does,
 * so only a filter that answers most repeats pays for itself. A span in
 * which the engine answered mostly repeats is followed by a long window
 * (rt.h). */
static GOLDI_NOINLINE void gfilter_adapt(struct goldi_rt_thread *t) {
    bool span_ended = t->gfilter_window.skip;
    bool skip = goldi_window_next(&t->gfilter_window, GOLDI_GFILTER_WINDOW, GOLDI_GFILTER_SKIP,
                                  GOLDI_GFILTER_WINDOW * 2);
    atomic_fetch_add_explicit(&filter_windows[1][skip], 1, memory_order_relaxed);
    const struct goldi_sink *fs = goldi_dispatch_fast_sink;
    if (!fs || !fs->repeats)
        return;
    uint64_t repeats = fs->repeats(fs->self, &t->thr);
    if (skip) {   /* a span starts */
        t->gfilter_span_passed = t->filter_passed;
        t->gfilter_span_repeats = repeats;
    } else if (span_ended &&
               (repeats - t->gfilter_span_repeats) * 4 >= (t->filter_passed - t->gfilter_span_passed) * 3) {
        /* The engine found three in four of the span's accesses repeats of
         * their epoch: a sweep that comes back over more data than one
         * window marks (each pass of a pricer over its options). A long
         * window lets the filter mark a whole pass before it is judged. */
        t->gfilter_window.left = GOLDI_GFILTER_WINDOW * GOLDI_GFILTER_LONG;
    }
}

/* Slot ((addr >> 3) ^ (addr >> (3 + GOLDI_FILTER_BITS))) mod the filter's
 * size, computed as a byte offset: the hit path's shifts and mask become
 * one shift, one xor and one mask (an entry is 16 bytes, twice the 8 bytes
 * of offset its granule gives). */
_Static_assert(sizeof(struct goldi_filter_entry) == 16, "filter_slot scales a granule offset by 2");
GOLDI_INLINE struct goldi_filter_entry *filter_slot(struct goldi_rt_thread *t, uintptr_t addr) {
    uintptr_t granule_off = (addr ^ (addr >> GOLDI_FILTER_BITS)) & ((uintptr_t)((1u << GOLDI_FILTER_BITS) - 1) << 3);
    return (struct goldi_filter_entry *)((char *)t->filter + 2 * granule_off);
}

/* Records a checked (or covered) access in the filter's slot. */
GOLDI_INLINE void filter_note(struct goldi_rt_thread *t, uint32_t epoch, uintptr_t addr, uint32_t size, bool write) {
    struct goldi_filter_entry *f = filter_slot(t, addr);
    f->addr = addr;
    f->epoch = epoch;
    f->read_size = (uint16_t)size;
    f->write_size = write ? (uint16_t)size : 0;
}

/* The granule filter's set (two blocks, most recent first) for block key. */
GOLDI_INLINE struct goldi_gfilter_block *gfilter_set(struct goldi_rt_thread *t, uintptr_t key) {
    return &t->gfilter[(key & ((1u << (GOLDI_GFILTER_BITS - 1)) - 1)) * 2];
}

/* The granules [addr, addr+size) touches, as bits of its block; 0 if it
 * leaves the block (at most 16 bytes: then not filtered). */
GOLDI_INLINE uint64_t gfilter_touched(uintptr_t addr, uint32_t size) {
    unsigned first = (unsigned)(addr >> 3) & 63, last = (unsigned)((addr + size - 1) >> 3) & 63;
    return last < first ? 0 : (UINT64_C(2) << last) - (UINT64_C(1) << first);
}

/* Does the granule filter (rt.h) cover the access? Every granule it touches
 * (one, or two next to each other) was read (for a read) or written whole
 * in this epoch. Written for few registers: it runs on the way from the
 * filter's miss to the engine, in a frameless function. */
GOLDI_INLINE bool gfilter_covers(struct goldi_rt_thread *t, uint32_t epoch, uintptr_t addr, uint32_t size,
                                 bool write) {
    uintptr_t key = addr >> GOLDI_GFILTER_SPAN;
    const struct goldi_gfilter_block *b = gfilter_set(t, key);
    if (b->key != key && (++b)->key != key)
        return false;
    if (b->epoch != epoch)
        return false;
    uint64_t have = write ? b->w : b->w | b->r;
    unsigned first = (unsigned)(addr >> 3) & 63, last = (unsigned)((addr + size - 1) >> 3) & 63;
    return last >= first && (have >> first & 1) && (have >> last & 1);
}

/* Marks the granules an aligned 8- or 16-byte access covers whole (others
 * mark nothing). Called before the engine runs, as the filter's slot is
 * written: should a signal handler synchronize in between, the engine
 * records the access after the handler's event, so the later epoch the
 * block may then carry holds it too. */
GOLDI_INLINE void gfilter_mark(struct goldi_rt_thread *t, uint32_t epoch, uintptr_t addr, uint32_t size, bool write) {
    uint64_t touched = gfilter_touched(addr, size);
    if (size < GOLDI_GRANULE || ((addr | size) & (GOLDI_GRANULE - 1)) || !touched)
        return;
    uintptr_t key = addr >> GOLDI_GFILTER_SPAN;
    struct goldi_gfilter_block *b = gfilter_set(t, key);
    if (b[0].key != key) {
        struct goldi_gfilter_block older = b[0];
        if (b[1].key == key)
            b[0] = b[1];
        else
            b[0] = (struct goldi_gfilter_block){ .key = key, .epoch = epoch };
        b[1] = older;
    }
    if (b[0].epoch != epoch)
        b[0] = (struct goldi_gfilter_block){ .key = key, .epoch = epoch };
    if (write)
        b[0].w |= touched;
    else
        b[0].r |= touched;
}

/* A plain access the filters did not answer (or were not asked): they
 * remember it, then the engine's shortcut takes it, else an event. Kept
 * out of line so the filter tests, the common case, run in a few registers
 * and no stack frame; the slot is written before the engine runs so that
 * only t is live across the call (the frame is one register, not six). A
 * signal handler that finds the slot written a few instructions early
 * skips an access the engine records right after it returns, in the same
 * epoch: the same history. One copy per size and kind (access_miss below):
 * with both constant, an aligned 4-, 8- or 16-byte access goes straight to
 * the engine's entry for it (goldi_sink.on_aligned_fast), and the tests of
 * the generic entry fold away (stencil: ~20 instructions of ~250 a miss). */
GOLDI_INLINE void access_miss_body(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size,
                                   uint8_t kind, uintptr_t pc) {
    bool write = kind == GOLDI_EV_WRITE;
    if (!t->filter_window.skip)
        filter_note(t, epoch, addr, size, write);
    struct goldi_sink *fs = goldi_dispatch_fast_sink;
    if (GOLDI_LIKELY(fs) && (addr & (GOLDI_GRANULE - 1)) + size <= 2 * GOLDI_GRANULE) {
        /* At most two granules (16-byte accesses of vectorised loops). */
        t->in_rt++;   /* the origin may be interned (runtime allocator) */
        t->ignore++;
        goldi_sink_access_fast(fs, &t->thr, addr, size, write, pc);
        t->in_rt--;
        t->ignore--;
    } else {
        access_slow(t, addr, size, kind, 0, pc);
    }
    if (GOLDI_UNLIKELY(--t->filter_window.left == 0))
        filter_adapt(t);
}

/* The out-of-line steps after the filter, one copy of each per size and
 * kind where both are the __tsan_readN / __tsan_writeN entry's constants
 * (the granule filter's test of an 8-byte access is then one bit: ~40 →
 * ~30 instructions a hit in blackscholes), one for any size (a small
 * range's): access_miss_<k><n> (4, 8, 16 bytes), gfilter_mark_miss_<k><n>
 * and gfilter_miss_<k><n> (8, 16 bytes: the granule filter's sizes), each
 * chosen by an inline function of the step's name (a constant choice
 * where size and kind are constants). */
#define STEP_COPY(step, sfx, n, k)                                                                             \
    static GOLDI_NOINLINE void step##_##sfx(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch,        \
                                            uintptr_t pc) {                                                   \
        step##_body(addr, t, epoch, n, k, pc);                                                                 \
    }
#define STEP_COPIES(step)                                                                                      \
    STEP_COPY(step, r8, 8, GOLDI_EV_READ)                                                                      \
    STEP_COPY(step, w8, 8, GOLDI_EV_WRITE)                                                                     \
    STEP_COPY(step, r16, 16, GOLDI_EV_READ)                                                                    \
    STEP_COPY(step, w16, 16, GOLDI_EV_WRITE)                                                                   \
    static GOLDI_NOINLINE void step##_any(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size, \
                                          uint8_t kind, uintptr_t pc) {                                        \
        step##_body(addr, t, epoch, size, kind, pc);                                                           \
    }
#define STEP_PICK_8_16(step)                                                                    \
    if (size == 8)                                                                              \
        kind == GOLDI_EV_WRITE ? step##_w8(addr, t, epoch, pc) : step##_r8(addr, t, epoch, pc);   \
    else if (size == 16)                                                                        \
        kind == GOLDI_EV_WRITE ? step##_w16(addr, t, epoch, pc) : step##_r16(addr, t, epoch, pc); \
    else                                                                                        \
        step##_any(addr, t, epoch, size, kind, pc);

STEP_COPY(access_miss, r4, 4, GOLDI_EV_READ)
STEP_COPY(access_miss, w4, 4, GOLDI_EV_WRITE)
STEP_COPIES(access_miss)
GOLDI_INLINE void access_miss(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size, uint8_t kind,
                              uintptr_t pc) {
    if (size == 4)
        kind == GOLDI_EV_WRITE ? access_miss_w4(addr, t, epoch, pc) : access_miss_r4(addr, t, epoch, pc);
    else
        STEP_PICK_8_16(access_miss)
}

/* The granule filter's miss: its mark, then the engine (apart from its
 * test, whose hits then keep no frame: the mark needs registers). */
GOLDI_INLINE void gfilter_mark_miss_body(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size,
                                         uint8_t kind, uintptr_t pc) {
    gfilter_mark(t, epoch, addr, size, kind == GOLDI_EV_WRITE);
    if (GOLDI_UNLIKELY(--t->gfilter_window.left == 0))
        gfilter_adapt(t);
    access_miss(addr, t, epoch, size, kind, pc);
}
STEP_COPIES(gfilter_mark_miss)
GOLDI_INLINE void gfilter_mark_miss(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size,
                                    uint8_t kind, uintptr_t pc) {
    STEP_PICK_8_16(gfilter_mark_miss)
}

/* The granule filter's test, out of line (the filter's hit path stays
 * without a frame), then the engine. */
GOLDI_INLINE void gfilter_miss_body(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size,
                                    uint8_t kind, uintptr_t pc) {
    if (gfilter_covers(t, epoch, addr, size, kind == GOLDI_EV_WRITE)) {
        /* (a hit of either filter: else the filter's window, whose repeats
         * the granule filter took, would skip the filter and then both) */
        t->filter_window.hits++;
        t->gfilter_window.hits++;
        if (!t->filter_window.skip)   /* (covered, so a repeat is too: it takes the shorter test) */
            filter_note(t, epoch, addr, size, kind == GOLDI_EV_WRITE);
        else if (--t->filter_window.left == 0)   /* (the filter's skip span counts this access too) */
            filter_adapt(t);
        return;
    }
    gfilter_mark_miss(addr, t, epoch, size, kind, pc);
}
STEP_COPIES(gfilter_miss)
GOLDI_INLINE void gfilter_miss(uintptr_t addr, struct goldi_rt_thread *t, uint32_t epoch, uint32_t size, uint8_t kind,
                               uintptr_t pc) {
    STEP_PICK_8_16(gfilter_miss)
}
#undef STEP_PICK_8_16
#undef STEP_COPIES
#undef STEP_COPY

/* A filter hit is an access of this epoch already checked: nothing to do,
 * whether or not the thread ignores accesses now (a signal handler inside
 * the runtime, an ignored region), so the ignore count is read only after
 * a miss. */
GOLDI_INLINE void plain_access(uintptr_t addr, uint32_t size, uint8_t kind, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t)
        return;
    uint32_t epoch = t->thr.sync_epoch;
    if (GOLDI_LIKELY(!t->filter_window.skip)) {
        const struct goldi_filter_entry *f = filter_slot(t, addr);
        if (f->addr == addr && f->epoch == epoch &&
            (kind == GOLDI_EV_WRITE ? f->write_size : f->read_size) >= size) {
            t->filter_window.hits++;
            return;
        }
    }
    if (t->ignore)
        return;
    if (size >= GOLDI_GRANULE && !t->gfilter_window.skip)   /* (size is a constant) */
        gfilter_miss(addr, t, epoch, size, kind, pc);
    else
        access_miss(addr, t, epoch, size, kind, pc);
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

/* One event for the whole range; the dispatcher splits it into granules.
 * A range within two granules is a plain access of its size while the
 * engine's shortcut is the only sink (else the event keeps its RANGE flag
 * for the trace): Clang makes a small memcpy whose size it knows a
 * __tsan_read_range and a load (xz's read32ne, on every match it prices:
 * 10 % of its instructions went to those events, ~950 each). */
static void range(void *addr, unsigned long size, bool write, uintptr_t pc) {
    uintptr_t a = (uintptr_t)addr;
    if (size && (a & (GOLDI_GRANULE - 1)) + size <= 2 * GOLDI_GRANULE && goldi_dispatch_fast_sink) {
        plain_access(a, (uint32_t)size, write ? W : R, pc);
        return;
    }
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

/* Shadow call stack (its identities: event.h). It is kept even while the
 * thread is ignored so pushes and pops stay balanced; frames beyond
 * GOLDI_MAX_STACK are counted, not stored. A pop at depth 0 (longjmp out of
 * tracked frames, or frames entered before the runtime existed) is
 * dropped. */
GOLDI_EXPORT void __tsan_func_entry(void *call_pc) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t)
        return;
    goldi_thr_stack_push(&t->thr, (uintptr_t)call_pc);
}

GOLDI_EXPORT void __tsan_func_exit(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || !t->thr.depth)
        return;
    goldi_thr_stack_pop(&t->thr);
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

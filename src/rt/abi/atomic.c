/* __tsan_atomic* entry points. Each operation is performed for real, with
 * the program's memory order, inside the atomic location's critical section
 * together with its event (ALGORITHMS.md 1.3, traps T3/T8): the value an
 * operation reads and the clock the engines join are then the same store's.
 * A successful CAS is an RMW with the success order, a failed one a CASFAIL
 * (a read) with the failure order. Ignored threads perform the operation
 * without the section and without events. */
#include <goldi/tsan_abi.h>
#include "../rt.h"
#include "../../event/sync.h"
#include "../intercept/intercept.h"

#define RET_PC() ((uintptr_t)__builtin_return_address(0))

/* GCC ORs flags into the order (MEMMODEL_SYNC 1<<15 for __sync builtins, HLE
 * 1<<16 and 1<<17); anything else out of range is taken as seq_cst. */
GOLDI_INLINE unsigned clean_mo(int mo) {
    unsigned m = (unsigned)mo & 0x7fff;
    return m > GOLDI_MO_SEQ_CST ? GOLDI_MO_SEQ_CST : m;
}

/* The thread is inside the runtime from here to section_end: a signal
 * handler that interrupts it runs with its accesses ignored, so no event of
 * this thread comes between the operation and its record. */
GOLDI_INLINE void enter(struct goldi_rt_thread *t) {
    t->in_rt++;
    t->ignore++;
}
GOLDI_INLINE void leave(struct goldi_rt_thread *t) {
    t->in_rt--;
    t->ignore--;
}

/* Pause rounds before a waiter for a section gives its core away while the
 * program has more runnable threads than CPUs. A section is held for an
 * event's whole dispatch, most of a lock-free program's time in the
 * runtime, so its holder is then often preempted inside it: a waiter that
 * yields sooner than after the other locks' GOLDI_SPIN_ROUNDS lets it run.
 * With a CPU for every runnable thread the holder is running, and yielding
 * early only costs syscalls (docs/performance.md, round 59). */
#define SECTION_SPIN_ROUNDS_CROWDED 16

GOLDI_INLINE void section_acquire(goldi_spinlock_t *l) {
    if (GOLDI_UNLIKELY(!goldi_spin_trylock(l)))
        goldi_spin_wait_slow(l, goldi_icpt_spin_pays() ? GOLDI_SPIN_ROUNDS : SECTION_SPIN_ROUNDS_CROWDED);
}

GOLDI_INLINE struct goldi_sync *section_lock(const volatile void *a) {
    struct goldi_sync *o = goldi_sync_get((uintptr_t)a, GOLDI_SYNC_ATOMIC);
    section_acquire(&o->lock);
    return o;
}

GOLDI_INLINE struct goldi_sync *section_begin(struct goldi_rt_thread *t, const volatile void *a) {
    enter(t);
    return section_lock(a);
}

/* An operation that may store (a store, an RMW, a CAS) counts itself before
 * it is performed; the release fence orders the count before the store, so
 * a load that reads this store and then fences (quiet_repeat_end) sees it. */
GOLDI_INLINE struct goldi_sync *section_begin_write(struct goldi_rt_thread *t, const volatile void *a) {
    struct goldi_sync *o = section_begin(t, a);
    atomic_store_explicit(&o->n_writes, atomic_load_explicit(&o->n_writes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    return o;
}

/* A CAS that failed stored nothing: its count is taken back (under the
 * lock still), so a spin of failing CASes stays a run of repeated reads. A
 * load that saw the count raised meanwhile just takes the locked way. */
GOLDI_INLINE void section_write_undone(struct goldi_sync *o) {
    atomic_store_explicit(&o->n_writes, atomic_load_explicit(&o->n_writes, memory_order_relaxed) - 1,
                          memory_order_relaxed);
}

/* An atomic read repeating this thread's previous event exactly (same
 * location, size, kind and order; no store to the location since; no other
 * event of this thread in between) changes nothing for any engine: the
 * happens-before steps join the same unchanged clocks, and the access check
 * sees the same history (a conflicting write in between would have been
 * checked against the first read). Spin loops on atomics stay cheap. */
GOLDI_INLINE bool repeated_read(const struct goldi_rt_thread *t, const struct goldi_sync *o,
                                enum goldi_event_kind kind, uintptr_t a, uint32_t size, unsigned mo) {
    return t->ll_addr == a && t->ll_epoch == t->thr.sync_epoch &&
           t->ll_writes == atomic_load_explicit(&o->n_writes, memory_order_acquire) &&
           t->ll_token == __atomic_load_n(&o->tok[0].id, __ATOMIC_RELAXED) && t->ll_kind == kind &&
           t->ll_mo == mo && t->ll_size == size;
}

/* The same test for an atomic load, without the location's lock or even its
 * lookup (the last read's object is remembered): a spin loop's loads then
 * stay off the lock that the thread it waits for needs for its store. The
 * count of writes is read on both sides of the load (acquire in
 * repeated_read, then quiet_repeat_end): if no write began before the
 * second read, the load read the same store as the thread's last dispatched
 * read (a write counts itself before storing, under the lock that read
 * held), exactly the locked test's case. The token says the object still
 * has the life it had then (every new life and every recycling renews it;
 * the memory is type-stable, never unmapped). */
GOLDI_INLINE bool quiet_repeat_begin(const struct goldi_rt_thread *t, const volatile void *a, uint32_t size,
                                     unsigned mo) {
    return t->ll_obj && repeated_read(t, t->ll_obj, GOLDI_EV_ATOMIC_LOAD, (uintptr_t)a, size, mo);
}
GOLDI_INLINE bool quiet_repeat_end(const struct goldi_rt_thread *t) {
    atomic_thread_fence(memory_order_acquire);   /* the load above before the count below */
    return atomic_load_explicit(&t->ll_obj->n_writes, memory_order_relaxed) == t->ll_writes;
}

/* The event of an atomic operation of t on location o. */
GOLDI_INLINE struct goldi_event atomic_event(struct goldi_rt_thread *t, struct goldi_sync *o,
                                             enum goldi_event_kind kind, const volatile void *a, uint32_t size,
                                             unsigned mo, uintptr_t pc) {
    return (struct goldi_event){
        .kind = (uint8_t)kind,
        .mo = (uint8_t)mo,
        .size = size,
        .addr = (uintptr_t)a,
        .pc = pc,
        .thr = &t->thr,
        .obj = o,
    };
}

/* The thread's last dispatched read, which a repeat of it finds (repeated_read):
 * writes is the location's count the read saw. */
GOLDI_INLINE void note_read(struct goldi_rt_thread *t, struct goldi_sync *o, enum goldi_event_kind kind,
                            const volatile void *a, uint32_t size, unsigned mo, uint64_t writes) {
    t->ll_addr = (uintptr_t)a;
    t->ll_obj = o;
    t->ll_epoch = t->thr.sync_epoch;
    t->ll_writes = writes;
    t->ll_token = __atomic_load_n(&o->tok[0].id, __ATOMIC_RELAXED);
    t->ll_kind = (uint8_t)kind;
    t->ll_mo = (uint8_t)mo;
    t->ll_size = size;
}

/* A load that reads the thread's own plain store, the latest operation the
 * location counted, acquires nothing (hb.c): it is checked and recorded
 * without the location's section, so that a ring's producer reading back
 * its own index does not queue behind the consumer's loads of it. The
 * count is read on both sides of the load, as for a quiet repeat: the same
 * on both, the load read the store own_mark names (a store counts itself
 * before it stores, and marks itself after). Locations of kind ATOMIC
 * only: a lock's word also changes by lock events, which count nothing.
 * own_load_begin returns the count + 1, or 0 where the path does not
 * apply. */
GOLDI_INLINE uint64_t own_load_begin(const struct goldi_rt_thread *t, const struct goldi_sync *o) {
    if (o->kind != GOLDI_SYNC_ATOMIC)
        return 0;
    uint64_t n = atomic_load_explicit(&o->n_writes, memory_order_acquire);
    uint64_t mark = goldi_own_mark(n, t->thr.tid);
    return mark && atomic_load_explicit(&o->own_mark, memory_order_acquire) == mark ? n + 1 : 0;
}
GOLDI_INLINE bool own_load_end(const struct goldi_sync *o, uint64_t begun) {
    atomic_thread_fence(memory_order_acquire);   /* the load above before the count below */
    return atomic_load_explicit(&o->n_writes, memory_order_relaxed) == begun - 1;
}
/* The own load's event, without the lock; false if the dispatcher cannot
 * take it so (several sinks): the caller takes the lock. A repeat of it
 * with no store since is then a quiet one, as after a locked read. */
static GOLDI_NOINLINE bool own_load_dispatch(struct goldi_rt_thread *t, struct goldi_sync *o, const volatile void *a,
                                             uint32_t size, unsigned mo, uintptr_t pc, uint64_t writes) {
    struct goldi_event ev = atomic_event(t, o, GOLDI_EV_ATOMIC_LOAD, a, size, mo, pc);
    if (!goldi_dispatch_own_load(&ev))
        return false;
    note_read(t, o, GOLDI_EV_ATOMIC_LOAD, a, size, mo, writes);
    return true;
}

static GOLDI_NOINLINE void section_end(struct goldi_rt_thread *t, struct goldi_sync *o,
                                       enum goldi_event_kind kind, const volatile void *a,
                                       uint32_t size, unsigned mo, uintptr_t pc) {
    bool is_read = kind == GOLDI_EV_ATOMIC_LOAD || kind == GOLDI_EV_ATOMIC_CASFAIL;
    if (is_read && repeated_read(t, o, kind, (uintptr_t)a, size, mo)) {
        goldi_spin_unlock(&o->lock);
        leave(t);
        return;
    }
    struct goldi_event ev = atomic_event(t, o, kind, a, size, mo, pc);
    goldi_dispatch(&ev);
    if (is_read)
        note_read(t, o, kind, a, size, mo, atomic_load_explicit(&o->n_writes, memory_order_relaxed));
    goldi_spin_unlock(&o->lock);
    leave(t);
}

/* --- 128-bit operations ---------------------------------------------------
 * __atomic on 16 bytes is a libatomic call for GCC (not lock-free, and the
 * program is not linked with -latomic). On x86-64 a 16-byte aligned location
 * uses lock cmpxchg16b (every x86-64 CPU that runs a current distribution has
 * it), so the operation stays atomic even against uninstrumented code; a load
 * is a CAS of 0 with 0 (it writes, so a 128-bit atomic in read-only memory
 * faults, as with GCC's own -mcx16 code). Misaligned locations and other
 * architectures use a striped spinlock: atomic against instrumented code only. */
typedef __tsan_atomic128 a128;

static goldi_spinlock_t stripes[64];

GOLDI_INLINE goldi_spinlock_t *stripe(volatile a128 *a) {
    return &stripes[((uintptr_t)a >> 4) & (GOLDI_ARRAY_SIZE(stripes) - 1)];
}

static bool cas16b(volatile a128 *a, a128 *expected, a128 desired) {
#if defined(__x86_64__)
    if (!((uintptr_t)a & 15)) {
        uint64_t lo = (uint64_t)*expected;
        uint64_t hi = (uint64_t)((unsigned __int128)*expected >> 64);
        bool ok;
        __asm__ __volatile__("lock cmpxchg16b %1"
                             : "=@ccz"(ok), "+m"(*a), "+a"(lo), "+d"(hi)
                             : "b"((uint64_t)desired),
                               "c"((uint64_t)((unsigned __int128)desired >> 64))
                             : "memory");
        if (!ok)
            *expected = (a128)(((unsigned __int128)hi << 64) | lo);
        return ok;
    }
#endif
    goldi_spinlock_t *l = stripe(a);
    goldi_spin_lock(l);
    a128 cur = *a;
    bool ok = cur == *expected;
    if (ok)
        *a = desired;
    else
        *expected = cur;
    goldi_spin_unlock(l);
    return ok;
}

enum op128 { OP_XCHG, OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_NAND };

/* Returns the old value; the first CAS guesses 0 and learns the real value. */
static a128 rmw128(volatile a128 *a, a128 v, enum op128 op) {
    a128 old = 0, nv;
    do {
        switch (op) {
        case OP_XCHG: nv = v; break;
        case OP_ADD: nv = (a128)((unsigned __int128)old + (unsigned __int128)v); break;
        case OP_SUB: nv = (a128)((unsigned __int128)old - (unsigned __int128)v); break;
        case OP_AND: nv = old & v; break;
        case OP_OR: nv = old | v; break;
        case OP_XOR: nv = old ^ v; break;
        case OP_NAND: nv = ~(old & v); break;
        }
    } while (!cas16b(a, &old, nv));
    return old;
}

static a128 load128(const volatile a128 *a) {
    a128 c = 0;
    cas16b((volatile a128 *)a, &c, 0);
    return c;
}

/* --- operation bodies per width ------------------------------------------ */
#define LOAD_N(a, m) __atomic_load_n(a, m)
#define STORE_N(a, v, m) __atomic_store_n(a, v, m)
#define XCHG_N(a, v, m) __atomic_exchange_n(a, v, m)
#define ADD_N(a, v, m) __atomic_fetch_add(a, v, m)
#define SUB_N(a, v, m) __atomic_fetch_sub(a, v, m)
#define AND_N(a, v, m) __atomic_fetch_and(a, v, m)
#define OR_N(a, v, m) __atomic_fetch_or(a, v, m)
#define XOR_N(a, v, m) __atomic_fetch_xor(a, v, m)
#define NAND_N(a, v, m) __atomic_fetch_nand(a, v, m)
/* weak CAS is done strong: allowed (no spurious failure is a valid outcome) */
#define CAS_N(a, c, v, m, fm) __atomic_compare_exchange_n(a, c, v, false, m, fm)

#define LOAD_128(a, m) load128(a)
#define STORE_128(a, v, m) ((void)rmw128(a, v, OP_XCHG))
#define XCHG_128(a, v, m) rmw128(a, v, OP_XCHG)
#define ADD_128(a, v, m) rmw128(a, v, OP_ADD)
#define SUB_128(a, v, m) rmw128(a, v, OP_SUB)
#define AND_128(a, v, m) rmw128(a, v, OP_AND)
#define OR_128(a, v, m) rmw128(a, v, OP_OR)
#define XOR_128(a, v, m) rmw128(a, v, OP_XOR)
#define NAND_128(a, v, m) rmw128(a, v, OP_NAND)
#define CAS_128(a, c, v, m, fm) cas16b(a, c, v)

#define DEF_RMW(n, T, name, OP)                                                                  \
    GOLDI_EXPORT T __tsan_atomic##n##_##name(volatile T *a, T v, __tsan_memory_order mo) {       \
        unsigned m = clean_mo(mo);                                                               \
        struct goldi_rt_thread *t = goldi_cur;                                                   \
        if (!t || t->ignore)                                                                     \
            return OP(a, v, m);                                                                  \
        struct goldi_sync *o = section_begin_write(t, a);                                        \
        T r = OP(a, v, m);                                                                       \
        section_end(t, o, GOLDI_EV_ATOMIC_RMW, a, n / 8, m, RET_PC());                           \
        return r;                                                                                \
    }

#define DEF_ATOMICS(n, T, S)                                                                     \
    GOLDI_EXPORT T __tsan_atomic##n##_load(const volatile T *a, __tsan_memory_order mo) {        \
        unsigned m = clean_mo(mo);                                                               \
        struct goldi_rt_thread *t = goldi_cur;                                                   \
        if (!t || t->ignore)                                                                     \
            return LOAD_##S(a, m);                                                               \
        enter(t);                                                                                \
        if (quiet_repeat_begin(t, a, n / 8, m)) {                                                \
            T r = LOAD_##S(a, m);                                                                \
            if (quiet_repeat_end(t)) {                                                           \
                leave(t);                                                                        \
                return r;                                                                        \
            }                                                                                    \
        }                                                                                        \
        struct goldi_sync *o = goldi_sync_get((uintptr_t)a, GOLDI_SYNC_ATOMIC);                  \
        uint64_t own = own_load_begin(t, o);                                                     \
        if (own) {                                                                               \
            T r = LOAD_##S(a, m);                                                                \
            if (own_load_end(o, own) && own_load_dispatch(t, o, a, n / 8, m, RET_PC(), own - 1)) { \
                leave(t);                                                                        \
                return r;                                                                        \
            }                                                                                    \
        }                                                                                        \
        section_acquire(&o->lock);                                                               \
        T r = LOAD_##S(a, m);                                                                    \
        section_end(t, o, GOLDI_EV_ATOMIC_LOAD, a, n / 8, m, RET_PC());                          \
        return r;                                                                                \
    }                                                                                            \
    GOLDI_EXPORT void __tsan_atomic##n##_store(volatile T *a, T v, __tsan_memory_order mo) {     \
        unsigned m = clean_mo(mo);                                                               \
        struct goldi_rt_thread *t = goldi_cur;                                                   \
        if (!t || t->ignore) {                                                                   \
            STORE_##S(a, v, m);                                                                  \
            return;                                                                              \
        }                                                                                        \
        struct goldi_sync *o = section_begin_write(t, a);                                        \
        STORE_##S(a, v, m);                                                                      \
        section_end(t, o, GOLDI_EV_ATOMIC_STORE, a, n / 8, m, RET_PC());                         \
    }                                                                                            \
    DEF_RMW(n, T, exchange, XCHG_##S)                                                            \
    DEF_RMW(n, T, fetch_add, ADD_##S)                                                            \
    DEF_RMW(n, T, fetch_sub, SUB_##S)                                                            \
    DEF_RMW(n, T, fetch_and, AND_##S)                                                            \
    DEF_RMW(n, T, fetch_or, OR_##S)                                                              \
    DEF_RMW(n, T, fetch_xor, XOR_##S)                                                            \
    DEF_RMW(n, T, fetch_nand, NAND_##S)                                                          \
    static int cas##n(volatile T *a, T *c, T v, int mo, int fmo, uintptr_t pc) {                 \
        unsigned m = clean_mo(mo), fm = clean_mo(fmo);                                           \
        struct goldi_rt_thread *t = goldi_cur;                                                   \
        if (!t || t->ignore)                                                                     \
            return CAS_##S(a, c, v, m, fm);                                                      \
        struct goldi_sync *o = section_begin_write(t, a);                                        \
        bool ok = CAS_##S(a, c, v, m, fm);                                                       \
        if (!ok)                                                                                 \
            section_write_undone(o);                                                             \
        section_end(t, o, ok ? GOLDI_EV_ATOMIC_RMW : GOLDI_EV_ATOMIC_CASFAIL, a, n / 8,          \
                    ok ? m : fm, pc);                                                            \
        return ok;                                                                               \
    }                                                                                            \
    GOLDI_EXPORT int __tsan_atomic##n##_compare_exchange_strong(                                 \
        volatile T *a, T *c, T v, __tsan_memory_order mo, __tsan_memory_order fmo) {             \
        return cas##n(a, c, v, mo, fmo, RET_PC());                                               \
    }                                                                                            \
    GOLDI_EXPORT int __tsan_atomic##n##_compare_exchange_weak(                                   \
        volatile T *a, T *c, T v, __tsan_memory_order mo, __tsan_memory_order fmo) {             \
        return cas##n(a, c, v, mo, fmo, RET_PC());                                               \
    }                                                                                            \
    /* returns the value found: c on success, the current value otherwise */                     \
    GOLDI_EXPORT T __tsan_atomic##n##_compare_exchange_val(                                      \
        volatile T *a, T c, T v, __tsan_memory_order mo, __tsan_memory_order fmo) {              \
        cas##n(a, &c, v, mo, fmo, RET_PC());                                                     \
        return c;                                                                                \
    }

DEF_ATOMICS(8, __tsan_atomic8, N)
DEF_ATOMICS(16, __tsan_atomic16, N)
DEF_ATOMICS(32, __tsan_atomic32, N)
DEF_ATOMICS(64, __tsan_atomic64, N)
DEF_ATOMICS(128, __tsan_atomic128, 128)

/* The fence itself, then its event (the release part snapshots the clock the
 * thread's later relaxed stores publish; nothing of this thread runs in
 * between). A relaxed fence is a no-op in C11. */
GOLDI_EXPORT void __tsan_atomic_thread_fence(__tsan_memory_order mo) {
    unsigned m = clean_mo(mo);
    __atomic_thread_fence(m);
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || t->ignore || m == GOLDI_MO_RELAXED)
        return;
    struct goldi_event ev = { .kind = GOLDI_EV_FENCE, .mo = (uint8_t)m, .pc = RET_PC(), .thr = &t->thr };
    enter(t);
    goldi_dispatch(&ev);
    leave(t);
}

/* Orders only against a signal handler on the same thread: compiler barrier,
 * no happens-before (ALGORITHMS.md 1.2 sigfence). */
GOLDI_EXPORT void __tsan_atomic_signal_fence(__tsan_memory_order mo) {
    (void)mo;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

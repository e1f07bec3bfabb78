/* Runtime core: per-thread state, initialisation, options, reentrancy guard.
 * Everything the ABI shims (rt/abi) and interceptors (rt/intercept) share. */
#ifndef GOLDI_RT_H
#define GOLDI_RT_H

#include "../base/base.h"
#include "../event/event.h"
#include "options.h"
#include "../base/window.h"

/* Same-epoch access filter (rt/abi/access.c): the plain accesses this thread
 * made since its last synchronization event. A repeated access that is
 * covered (same start address, no larger, and a read if the cached one was a
 * read) cannot be the first race on its bytes: any conflicting access by
 * another thread in between was itself checked against the cached access and
 * reported, and without an event of this thread in between happens-before
 * relations of this thread are unchanged (FastTrack's [READ/WRITE SAME EPOCH]
 * for every engine at once). Direct-mapped, overwritten on collision.
 * 2^14 slots (256 KiB per thread, pages committed as touched): an n-body
 * step reads ~9 K granules of shared positions per body; at 2^12 slots each
 * sweep evicted itself and every read took the kept path (bench nbody -n 3000:
 * 3.02 s -> 1.27 s; TSan 0.71 s). 2^15 helped nbody further but cost
 * thread-local sweeps (localspot) a third more: filter writes left L2. */
#define GOLDI_FILTER_BITS 14
/* The filter is consulted in windows: when fewer than 1 in 16 of a
 * window's misses come with a hit (each access a new epoch: multiset's
 * operations under a lock; a scatter that does not come back: radix),
 * the thread skips the lookup and the store (a slot out of L1 per access)
 * for GOLDI_FILTER_SKIP accesses, then tries the filter again. Skipping is
 * always sound: the slots still hold only accesses checked in their epoch.
 * The span counts the accesses the granule filter answers as well: counted
 * in the engine's accesses alone, a span begun in nbody's update phase
 * lasted into its next phase for 65,536 reads of the loop's 4-byte bound,
 * each under a granule lock the four threads share (0.84 of its time). */
#define GOLDI_FILTER_WINDOW 4096u    /* misses */
#define GOLDI_FILTER_SKIP 65536u     /* accesses */
struct goldi_filter_entry {
    uintptr_t addr;         /* start address of the cached access */
    uint32_t epoch;         /* thr.sync_epoch when it was checked */
    uint16_t read_size;     /* bytes a read from addr is covered for (a write covers reads too) */
    uint16_t write_size;    /* bytes a write is covered for (0 after a read): one compare a hit */
};
/* Behind the filter, the same rule by granule: for each 512-byte block of
 * memory the thread touched lately, which of its 64 granules it read or
 * wrote whole (an aligned 8- or 16-byte access) in the block's epoch. An
 * 8- or 16-byte access inside such granules is covered (a write covers
 * reads too; smaller accesses do not look: radix's 4-byte keys never
 * mark a granule, and looking cost them 4 % more instructions), so a
 * sweep that comes back over its data between two synchronization events
 * (an option array priced 50 times) skips the engine without touching its
 * shadow, where the
 * exact-address filter held 16 K accesses and the shadow line is a cache
 * miss: 32 bytes here stand for 64 shadow lines. Two-way sets (a cache
 * line each, the most recent block first), 2^13 blocks (4 MiB of data,
 * 256 KiB per thread, pages committed as touched); a block from another
 * epoch or address starts empty. */
#define GOLDI_GFILTER_BITS 13
/* Consulted in windows of its own, and kept only while its hits are at
 * least twice its misses: code whose every access is the first to its
 * granule in the epoch (LU's row updates, where the lookups and marks were
 * a fifth more instructions) skips it for a span of the filter's windows
 * and spans (counted there, so that skipping costs the access path one
 * test). A window of 16 K misses lets a sweep of a few thousand granules
 * (nbody's positions) mark them all before its repeats are counted. Two
 * windows are GOLDI_GFILTER_LONG times longer, for a sweep that comes back
 * over more data than a short window marks (a pricer's 175 K granules a
 * pass, 50 passes: every short window saw first touches only and failed):
 * a thread's first window, and a window after a span in which the engine
 * found at least three in four of the accesses repeats of their epoch
 * (goldi_sink.repeats). The first one costs a thread up to 256 K marks
 * once (~13 M instructions). */
#define GOLDI_GFILTER_WINDOW 16384u  /* misses */
#define GOLDI_GFILTER_SKIP 64u       /* the filter's windows and spans */
#define GOLDI_GFILTER_LONG 16u       /* a long window: this many windows */
#define GOLDI_GFILTER_SPAN 9     /* log2 bytes per block: 64 granules */
struct goldi_gfilter_block {
    uintptr_t key;          /* address >> GOLDI_GFILTER_SPAN (0: empty) */
    uint32_t epoch;         /* thr.sync_epoch of the bits */
    uint64_t r, w;          /* bit i: granule i read / written whole */
};

/* Per-thread runtime state. The first cache line holds what the access fast
 * path reads: keep it that way. */
struct goldi_rt_thread {
    /* --- hot: read on every access --- */
    uint32_t ignore;        /* >0: drop memory accesses (inside the runtime, a
                               signal handler that interrupted it, ignored region);
                               read after a filter miss only: a hit is an access
                               already checked, nothing to drop */
    uint32_t in_rt;         /* >0: the runtime itself is running on this thread;
                               interceptors pass straight through */
    bool filter_off;        /* filter disabled (option filter=0) */
    struct goldi_window filter_window;   /* consulted now? (skip: filter_off, or it rarely
                                            answered; hits: answers; left: misses) */
    struct goldi_window gfilter_window;  /* the granule filter's (left: its misses, or
                                            the filter's windows while skipped) */
    struct goldi_filter_entry filter[1u << GOLDI_FILTER_BITS];
    struct goldi_gfilter_block gfilter[1u << GOLDI_GFILTER_BITS];
    /* The filters outlive their thread: a freed state is kept for the next
     * thread (goldi_alloc_thread_state) without zeroing them (512 KiB read
     * at every thread start), and the next thread's sync_epoch starts here,
     * past every epoch they hold, so none of their entries is current. */
    uint32_t filter_epoch_next;
    /* --- cold --- */
    struct goldi_thr thr;   /* what engines see (tid, held locks, shadow stack) */
    uintptr_t pthread;      /* pthread_t of this thread */
    bool detached;
    bool exited;
    bool joined;
    uintptr_t stack_lo, stack_hi;   /* the thread's stack, for location reports */
    uintptr_t tls_lo, tls_hi;       /* static TLS block, for location reports */
    struct goldi_rt_thread *next;   /* registry list (thread.c) */
    int os_tid;                     /* kernel tid (reports); set by goldi_rt_thread_start */
    uint32_t ignore_user;           /* part of ignore owned by __tsan_ignore_thread_begin/end */
    /* Accesses past the filter, counted at the end of each filter window or
     * span; and, at the start of the granule filter's skip span, that count
     * and the engine's repeats (access.c gfilter_adapt). */
    uint64_t filter_passed, gfilter_span_passed, gfilter_span_repeats;
    /* The last atomic read this thread dispatched (rt/abi/atomic.c): a spin
     * loop re-reading a location nobody stored to since is not re-dispatched
     * (an atomic load recognises that without the location's lock). */
    uintptr_t ll_addr;
    struct goldi_sync *ll_obj;
    uint64_t ll_token, ll_writes;
    uint32_t ll_epoch, ll_size;
    uint8_t ll_kind, ll_mo;
};

/* Filter windows (access.c) ended so far: consulted, or skipped; the
 * granule filter's with granule set. */
uint64_t goldi_rt_filter_windows(bool granule, bool skipped);
/* Contended mutex acquisitions that spun (rt/intercept/contention.c): taken
 * while spinning (slept false), or asleep after the spin. */
uint64_t goldi_rt_mutex_spins(bool slept);

/* Both filters on (option filter=1) or off, each starting a window. */
GOLDI_INLINE void goldi_rt_filters_start(struct goldi_rt_thread *t, bool on) {
    t->filter_off = !on;
    t->filter_window = (struct goldi_window){ .skip = !on, .left = GOLDI_FILTER_WINDOW };
    t->gfilter_window = (struct goldi_window){ .skip = !on, .left = GOLDI_GFILTER_WINDOW * GOLDI_GFILTER_LONG };
}

/* A barrier's departure starts a phase of the program: a skip span of the
 * filter ends there (access.c), since its verdict was the last phase's. */
void goldi_rt_filter_new_phase(struct goldi_rt_thread *t);

/* The calling thread's state; NULL before the runtime initialised it. */
extern GOLDI_TLS struct goldi_rt_thread *goldi_cur;

/* Initialises the runtime once (idempotent, called from __tsan_init and from
 * the first interceptor that runs). */
void goldi_rt_init(void);
bool goldi_rt_initialized(void);
/* Current thread state, creating the main thread's on first use. May return
 * NULL only during very early start-up before init. */
struct goldi_rt_thread *goldi_rt_thread_self(void);

/* Thread lifecycle (thread.c): used by the pthread interceptors. */
struct goldi_rt_thread *goldi_rt_thread_new(void);     /* tid assigned, parent = caller */
void goldi_rt_thread_start(struct goldi_rt_thread *t); /* in the child: set goldi_cur, stack bounds */
void goldi_rt_thread_exit(void);                       /* in the child: EXIT event, detached -> free */
struct goldi_rt_thread *goldi_rt_thread_by_pthread(uintptr_t pt);
void goldi_rt_thread_joined(struct goldi_rt_thread *t);/* after the JOIN event: free */
void goldi_rt_thread_detach(struct goldi_rt_thread *t);
/* Calls fn for each live thread (report: which stack/TLS holds an address). */
void goldi_rt_threads_for_each(void (*fn)(void *ctx, struct goldi_rt_thread *t), void *ctx);

/* Enter/leave the runtime on this thread: while entered, interceptors pass
 * through and accesses are ignored (no recursion into ourselves). */
GOLDI_INLINE struct goldi_rt_thread *goldi_rt_enter(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (t) {
        t->in_rt++;
        t->ignore++;
    }
    return t;
}
GOLDI_INLINE void goldi_rt_leave(struct goldi_rt_thread *t) {
    if (t) {
        t->in_rt--;
        t->ignore--;
    }
}

/* Emits an event from the current thread: fills thr and pc, then
 * goldi_dispatch() inside goldi_rt_enter/leave. */
void goldi_rt_emit(struct goldi_event *ev);
/* Plain read or write of [addr, addr+size) by the current thread (memcpy,
 * memset, str* interceptors): one range event, dropped when the thread is
 * ignored or in the runtime. pc: the interceptor's caller. */
void goldi_rt_access_range(uintptr_t addr, size_t size, bool write, uintptr_t pc);

/* Exit handling: prints the race count and applies exitcode= (called from an
 * atexit handler and from _exit/exit interceptors). */
void goldi_rt_finish(int *status);

#endif

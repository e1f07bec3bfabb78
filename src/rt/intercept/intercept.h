/* Shared helpers of the interceptors (the .c files of rt/intercept). Interceptors turn
 * libc calls into events and never decide races. Every interceptor starts with
 * goldi_icpt_thread(): NULL means "pass straight through, no events" (runtime
 * not up on this thread, or the runtime itself is running: in_rt). */
#ifndef GOLDI_INTERCEPT_H
#define GOLDI_INTERCEPT_H

#include "../rt.h"
#include "../heap.h"
#include "../../event/sync.h"
#include "real.h"

/* Return address of the exported interceptor = the call site in the program.
 * Must be evaluated in the exported function itself (not in an inlined helper). */
#define GOLDI_CALLER_PC() ((uintptr_t)__builtin_return_address(0))

/* The calling thread if events should be emitted, else NULL. Initialises the
 * runtime on the first intercepted call that arrives before __tsan_init. */
GOLDI_INLINE struct goldi_rt_thread *goldi_icpt_thread(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (GOLDI_UNLIKELY(t == NULL)) {
        if (!goldi_rt_initialized())
            goldi_rt_init();
        t = goldi_cur;
        if (t == NULL)
            return NULL;
    }
    return t->in_rt ? NULL : t;
}

/* The sync object at addr, looked up with the runtime entered (a signal
 * handler interrupting the sync table's bucket lock must not re-enter it). */
GOLDI_INLINE struct goldi_sync *goldi_icpt_sync(uintptr_t addr, enum goldi_sync_kind kind) {
    struct goldi_rt_thread *t = goldi_rt_enter();
    struct goldi_sync *s = goldi_sync_get(addr, kind);
    goldi_rt_leave(t);
    return s;
}

/* True if this thread may touch runtime tables now (runtime initialised and
 * not running the runtime itself); used by the init and destroy resets, which
 * do not need a registered thread. */
bool goldi_icpt_usable(void);
/* True once the program installed a signal handler of its own (signal.c). */
bool goldi_icpt_user_handlers(void);
/* Emits a synchronization event (no access part); gen for barriers. */
void goldi_icpt_emit_sync(enum goldi_event_kind kind, struct goldi_sync *obj, struct goldi_sync *obj2,
                          enum goldi_lock_mode mode, uint64_t gen, uintptr_t pc);
/* *_init / *_destroy of the object at addr: fresh tokens, no owner. */
void goldi_icpt_sync_reset(uintptr_t addr);
/* Emits a plain range READ/WRITE of [addr, addr+n) (GOLDI_EVF_RANGE), split
 * into pieces that fit the 32-bit event size. No-op for n == 0 or when the
 * thread ignores accesses. */
void goldi_icpt_emit_range(struct goldi_rt_thread *t, enum goldi_event_kind kind, uintptr_t addr,
                           size_t n, uintptr_t pc);

/* ALLOC / FREE events of [a, a+n) (malloc.c), split into pieces that fit
 * the 32-bit event size: a lifetime starts (returns the origin of its
 * first piece), or ends with a write of every byte. */
goldi_origin_t goldi_icpt_emit_alloc(struct goldi_rt_thread *t, uintptr_t a, size_t n, uintptr_t pc);
void goldi_icpt_emit_free(struct goldi_rt_thread *t, uintptr_t a, size_t n, uintptr_t pc);

/* Heap registry hooks for fork (malloc.c): take / release every stripe lock. */
void goldi_heap_lock_all(void);
void goldi_heap_unlock_all(void);

/* Mutex bookkeeping (mutex.c) shared with spin.c, cond.c and the C11 mtx_*
 * wrappers. Only the outermost level of a recursive mutex emits; ownership
 * lives in goldi_sync.owner/depth (written only by the owner while it holds
 * the real lock, so the real lock orders those writes). */
/* After a successful acquire of m. */
void goldi_icpt_mutex_acquired(struct goldi_rt_thread *t, void *m, enum goldi_sync_kind kind, uintptr_t pc);
/* Before the real release of m. Emits nothing when the caller does not own m
 * and the real unlock is going to fail with EPERM (error-checking, recursive
 * or robust mutex). */
void goldi_icpt_mutex_releasing(struct goldi_rt_thread *t, void *m, enum goldi_sync_kind kind, uintptr_t pc);
/* Runnable threads (contention.c): +1 when a thread starts or leaves an
 * intercepted blocking call, -1 when it ends or enters one. */
void goldi_icpt_runnable_add(int delta);
/* +1, and returns r: the back half of GOLDI_ICPT_BLOCKING. */
int goldi_icpt_runnable_back(int r);
/* The int result of a blocking call, the thread not counted runnable while
 * it is in the call (the comma orders the -1 before the call). */
#define GOLDI_ICPT_BLOCKING(call) (goldi_icpt_runnable_add(-1), goldi_icpt_runnable_back(call))
/* True when a thread that finds a mutex taken should spin before it sleeps:
 * more than one CPU, and no more runnable threads than CPUs. */
bool goldi_icpt_spin_pays(void);
/* Counts a spin that took the mutex (slept false) or ended asleep. */
void goldi_icpt_spin_count(bool slept);

/* True if the real unlock of mutex m by a non-owner fails (EPERM) instead of
 * unlocking: recursive, error-checking and robust mutexes (glibc __kind). */
bool goldi_icpt_mutex_checks_owner(const void *m);

#endif

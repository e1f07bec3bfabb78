/* Thread registry: dense never-reused tids, the calling thread's state in
 * initial-exec TLS, lifetime of thread states (join / detach / exit), stack
 * and static-TLS bounds for location reports. Called from interceptors: no
 * malloc of our own, libc only inside goldi_rt_enter (pthread_getattr_np). */
#define _GNU_SOURCE
#include "rt.h"
#include "thread_internal.h"
#include "../base/alloc.h"
#include "../base/atfork.h"
#include "../base/fmt.h"
#include "../base/spinlock.h"
#include "../platform/platform.h"

#include <link.h>
#include <pthread.h>
#include <sys/resource.h>

GOLDI_TLS struct goldi_rt_thread *goldi_cur;
/* Set once a detached thread's state was freed at its exit: the thread keeps
 * running libc teardown code, which must not get a fresh state (fresh tid,
 * no happens-before edges: every access would look racy). */
static GOLDI_TLS bool cur_dead;

/* Registry invariants (reg_lock):
 *  - live holds every state that may still be looked up: running threads and
 *    exited ones not yet joined or detached.
 *  - A state leaves live exactly once: when joined (freed by the joiner), at
 *    the exit of a detached thread (freed by itself), or when a thread that
 *    already exited is detached (freed by the detacher).
 *  - A thread stops using its state (goldi_cur = NULL) before `exited` is
 *    published; only the thread itself frees a state not yet exited. */
static goldi_spinlock_t reg_lock = GOLDI_SPINLOCK_INIT;
static struct goldi_rt_thread *live;
static _Atomic uint32_t next_tid;
static size_t static_tls_size;

/* What reports still need of a thread whose state was freed (joined, or
 * detached and finished): indexed by tid, 12 bytes per thread ever created,
 * so "Thread T1 (tid=..., finished) created by ..." works for any tid. */
struct tomb {
    int os_tid;
    goldi_tid_t parent;
    goldi_origin_t create_origin;
};
static struct tomb *tombs;     /* under reg_lock */
static size_t n_tombs;         /* capacity, in entries */

static void bury_locked(const struct goldi_rt_thread *t) {
    goldi_tid_t tid = t->thr.tid;
    if (tid >= n_tombs) {
        size_t n = n_tombs ? n_tombs : 64;
        while (n <= tid)
            n *= 2;
        tombs = goldi_realloc(tombs, n * sizeof *tombs);
        goldi_memset(tombs + n_tombs, 0, (n - n_tombs) * sizeof *tombs);
        n_tombs = n;
    }
    tombs[tid].os_tid = t->os_tid ? t->os_tid : -1;   /* os_tid 0 = no record */
    tombs[tid].parent = t->thr.parent;
    tombs[tid].create_origin = t->thr.create_origin;
}

bool goldi_rt_thread_info_freed(goldi_tid_t tid, int *os_tid, goldi_tid_t *parent,
                                goldi_origin_t *create_origin) {
    bool found = false;
    goldi_spin_lock(&reg_lock);
    if (tid < n_tombs && tombs[tid].os_tid) {
        found = true;
        *os_tid = tombs[tid].os_tid;
        *parent = tombs[tid].parent;
        *create_origin = tombs[tid].create_origin;
    }
    goldi_spin_unlock(&reg_lock);
    return found;
}

static void unlink_locked(struct goldi_rt_thread *t) {
    for (struct goldi_rt_thread **p = &live; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            t->next = NULL;
            return;
        }
}

/* Frees t's state; the next thread that gets it starts its epochs past
 * t's (rt.h, filter_epoch_next). */
static void thread_state_free(struct goldi_rt_thread *t) {
    t->filter_epoch_next = t->thr.sync_epoch + 1;
    goldi_free(t);
}

struct goldi_rt_thread *goldi_rt_thread_new(void) {
    struct goldi_rt_thread *parent = goldi_cur;
    struct goldi_rt_thread *e = goldi_rt_enter();   /* allocator lock: see below */
    struct goldi_rt_thread *t = goldi_alloc_thread_state(sizeof *t, offsetof(struct goldi_rt_thread, filter),
                                                         offsetof(struct goldi_rt_thread, thr) -
                                                             offsetof(struct goldi_rt_thread, filter));
    goldi_rt_leave(e);
    t->thr.sync_epoch = t->filter_epoch_next;
    goldi_rt_filters_start(t, goldi_opts.filter);
    t->thr.tid = atomic_fetch_add_explicit(&next_tid, 1, memory_order_relaxed);
    t->thr.parent = parent ? parent->thr.tid : GOLDI_TID_NONE;
    /* Entered around reg_lock here and below: a race report from a signal
     * handler walks the registry (location and thread lines) and would spin
     * on a reg_lock held by the code it interrupted. */
    struct goldi_rt_thread *self = goldi_rt_enter();
    goldi_spin_lock(&reg_lock);
    t->next = live;
    live = t;
    goldi_spin_unlock(&reg_lock);
    goldi_rt_leave(self);
    return t;
}

static uintptr_t thread_pointer(void) {
#if defined(__x86_64__)
    uintptr_t tp;
    __asm__("mov %%fs:0, %0" : "=r"(tp));
    return tp;
#elif defined(__aarch64__)
    uintptr_t tp;
    __asm__("mrs %0, tpidr_el0" : "=r"(tp));
    return tp;
#else
    return 0;
#endif
}

/* Static TLS lies next to the thread pointer: below it on x86-64 (TLS
 * variant II), after the 16-byte TCB on aarch64 (variant I). Only the blocks
 * of modules loaded at start-up are counted; dlopen'ed TLS is not reported. */
static void set_tls_bounds(struct goldi_rt_thread *t) {
    uintptr_t tp = thread_pointer();
    if (!tp || !static_tls_size)
        return;
#if defined(__x86_64__)
    t->tls_lo = tp - static_tls_size;
    t->tls_hi = tp;
#elif defined(__aarch64__)
    t->tls_lo = tp + 16;
    t->tls_hi = tp + 16 + static_tls_size;
#endif
}

void goldi_rt_thread_start(struct goldi_rt_thread *t) {
    goldi_cur = t;
    t->os_tid = goldi_os_gettid();
    t->pthread = (uintptr_t)pthread_self();
    struct goldi_rt_thread *self = goldi_rt_enter();   /* getattr_np mallocs */
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr;
        size_t size;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            t->stack_lo = (uintptr_t)addr;
            t->stack_hi = (uintptr_t)addr + size;
        }
        pthread_attr_destroy(&attr);
    }
    set_tls_bounds(t);
    goldi_rt_leave(self);
    /* glibc caches the stacks of finished threads and hands them to new ones:
     * the stack (and the static TLS inside its mapping) starts a fresh
     * lifetime, or the new thread would inherit the dead thread's history
     * with no happens-before edge between them. */
    if (t->stack_hi > t->stack_lo && t->stack_hi - t->stack_lo < ((uint64_t)1 << 32)) {
        struct goldi_event ev = {
            .kind = GOLDI_EV_ALLOC,
            .addr = t->stack_lo,
            .size = (uint32_t)(t->stack_hi - t->stack_lo),
        };
        goldi_rt_emit(&ev);
    }
}

static int tls_phdr_cb(struct dl_phdr_info *info, size_t size, void *ctx) {
    size_t *total = ctx;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_TLS)
            continue;
        size_t align = ph->p_align ? ph->p_align : 1;
        *total = (*total + ph->p_memsz + align - 1) & ~(align - 1);
    }
    return 0;
}

extern void *__libc_stack_end;

/* The main thread: pthread_getattr_np would read /proc/self/maps with stdio
 * this early, so take the stack top from the loader and the size limit from
 * RLIMIT_STACK (capped: it may be unlimited). Good enough for "Location is
 * stack of thread T0". */
struct goldi_rt_thread *goldi_rt_thread_main_create(void) {
    struct goldi_rt_thread *t = goldi_rt_thread_new();
    goldi_cur = t;
    t->os_tid = goldi_os_gettid();
    t->pthread = (uintptr_t)pthread_self();
    struct goldi_rt_thread *self = goldi_rt_enter();
    size_t tls = 0;
    dl_iterate_phdr(tls_phdr_cb, &tls);
    static_tls_size = tls;
    uintptr_t top = (uintptr_t)__libc_stack_end;
    if (!top)
        top = (uintptr_t)__builtin_frame_address(0);
    /* argv, envp and auxv strings sit above __libc_stack_end */
    top = ((top + 4095) & ~(uintptr_t)4095) + (256 << 10);
    size_t lim = 8 << 20;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lim = rl.rlim_cur;
    if (lim > (64u << 20))
        lim = 64u << 20;
    t->stack_hi = top;
    t->stack_lo = top - lim;
    set_tls_bounds(t);
    goldi_rt_leave(self);
    return t;
}

struct goldi_rt_thread *goldi_rt_thread_self(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (GOLDI_LIKELY(t != NULL) || cur_dead)
        return t;
    if (!goldi_rt_initialized())
        goldi_rt_init();   /* creates T0 on the initialising thread */
    /* A thread the pthread_create interceptor did not see (or one racing with
     * init on another thread) stays untracked: giving it a state without a
     * fork edge would make all its accesses look racy. */
    return goldi_cur;
}

void goldi_rt_thread_exit(void) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || t->exited)
        return;
    struct goldi_event ev = { .kind = GOLDI_EV_EXIT, .pc = (uintptr_t)__builtin_return_address(0) };
    goldi_rt_emit(&ev);
    /* Whatever this thread still runs (TLS destructors, libc teardown) is not
     * tracked: nothing after EXIT may reach the engines. */
    t->ignore++;
    t->in_rt++;
    goldi_spin_lock(&reg_lock);
    bool detached = t->detached;
    if (detached) {
        unlink_locked(t);
        bury_locked(t);
    } else {
        /* Once exited is visible, a joiner or a late pthread_detach may free
         * t while this OS thread still runs libc teardown (key destructors,
         * free of its dtv): from here on the thread has no state at all. */
        goldi_cur = NULL;
        cur_dead = true;
    }
    t->exited = true;
    goldi_spin_unlock(&reg_lock);
    if (detached) {
        goldi_dispatch_thr_free(&t->thr);
        goldi_cur = NULL;
        cur_dead = true;
        thread_state_free(t);
    }
}

struct goldi_rt_thread *goldi_rt_thread_by_pthread(uintptr_t pt) {
    struct goldi_rt_thread *found = NULL;
    goldi_spin_lock(&reg_lock);
    /* newest first: a pthread_t is reused only after join/detach */
    for (struct goldi_rt_thread *t = live; t; t = t->next)
        if (t->pthread == pt && !t->joined) {
            found = t;
            break;
        }
    goldi_spin_unlock(&reg_lock);
    return found;
}

void goldi_rt_thread_joined(struct goldi_rt_thread *t) {
    if (!t)
        return;
    struct goldi_rt_thread *self = goldi_rt_enter();   /* see thread_new */
    goldi_spin_lock(&reg_lock);
    /* A detached state reaches here only when pthread_create failed (the
     * child never ran): a real join of a detached thread fails. */
    bool mine = !t->joined;
    if (mine) {
        t->joined = true;
        unlink_locked(t);
        bury_locked(t);
    }
    goldi_spin_unlock(&reg_lock);
    if (!mine) {
        goldi_rt_leave(self);
        return;
    }
    /* join returned: the thread is gone from the kernel, nobody reads t */
    goldi_dispatch_thr_free(&t->thr);
    thread_state_free(t);
    goldi_rt_leave(self);
}

void goldi_rt_thread_detach(struct goldi_rt_thread *t) {
    if (!t)
        return;
    struct goldi_rt_thread *self = goldi_rt_enter();   /* see thread_new */
    goldi_spin_lock(&reg_lock);
    bool was_exited = t->exited && !t->detached && !t->joined;
    t->detached = true;
    if (was_exited) {
        unlink_locked(t);
        bury_locked(t);
    }
    goldi_spin_unlock(&reg_lock);
    if (!was_exited) {
        goldi_rt_leave(self);
        return;   /* it frees itself at exit */
    }
    /* Detached after it exited: the exiting thread dropped its goldi_cur
     * before publishing `exited` (thread_exit), so nothing reads t any more
     * and it can go now (leaking it cost ~4 KiB per such thread). */
    goldi_dispatch_thr_free(&t->thr);
    thread_state_free(t);
    goldi_rt_leave(self);
}

void goldi_rt_threads_for_each(void (*fn)(void *ctx, struct goldi_rt_thread *t), void *ctx) {
    goldi_spin_lock(&reg_lock);
    for (struct goldi_rt_thread *t = live; t; t = t->next)
        fn(ctx, t);
    goldi_spin_unlock(&reg_lock);
}

uint32_t goldi_rt_threads_created(void) {
    return atomic_load_explicit(&next_tid, memory_order_relaxed);
}

static void fork_prepare(void) { goldi_spin_lock(&reg_lock); }
static void fork_parent(void) { goldi_spin_unlock(&reg_lock); }
/* Only the forking thread survives in the child: the others are marked
 * exited (they keep their states, like unjoined threads). */
static void fork_child(void) {
    struct goldi_rt_thread *self = goldi_cur;
    for (struct goldi_rt_thread *t = live; t; t = t->next)
        if (t != self)
            t->exited = true;
    if (self)
        self->os_tid = goldi_os_gettid();
    goldi_spin_unlock(&reg_lock);
}

void goldi_rt_threads_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_THREADS, fork_prepare, fork_parent, fork_child);
}

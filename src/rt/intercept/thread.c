/* Thread lifecycle interceptors: pthread_create (FORK before the child can
 * run), thread end (EXIT after TLS destructors), join (JOIN after a
 * successful join), detach; and the C11 thrd_* equivalents, which glibc
 * implements without going through the pthread symbols.
 *
 * Thread end: every child we start sets a value for exit_key, whose
 * destructor re-arms itself until the last destructor round
 * (PTHREAD_DESTRUCTOR_ITERATIONS), so EXIT comes after C++ thread_local
 * destructors (they run before key destructors) and after the other key
 * destructors of earlier rounds. This covers return from the start routine
 * and pthread_exit/thrd_exit alike. If the key cannot be armed (key creation
 * or setspecific failed), EXIT is emitted when the start routine returns. */
#define _GNU_SOURCE
#include "intercept.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <threads.h>

#include "../../base/alloc.h"

GOLDI_REAL_SLOT(pthread_create);
GOLDI_REAL_SLOT(pthread_join);
GOLDI_REAL_SLOT(pthread_tryjoin_np);
GOLDI_REAL_SLOT(pthread_timedjoin_np);
GOLDI_REAL_SLOT(pthread_clockjoin_np);
GOLDI_REAL_SLOT(pthread_detach);
GOLDI_REAL_SLOT(pthread_cancel);
GOLDI_REAL_SLOT(pthread_exit);

#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif

/* What the trampoline needs; goldi_alloc'ed by the parent, freed by the child. */
struct start {
    struct goldi_rt_thread *t;
    void *(*fn)(void *);     /* pthread start routine, or NULL */
    int (*c11_fn)(void *);   /* thrd_start_t, or NULL */
    void *arg;
};

enum { KEY_NONE, KEY_BUSY, KEY_READY, KEY_FAILED };
static _Atomic int key_state;
static pthread_key_t exit_key;

static GOLDI_TLS unsigned exit_round;   /* destructor rounds seen by this thread */
static GOLDI_TLS bool exit_done;

static void thread_finish(void) {
    if (exit_done)
        return;
    exit_done = true;
    goldi_icpt_runnable_add(-1);
    if (goldi_cur)
        goldi_rt_thread_exit();
}

static void exit_key_dtor(void *v) {
    /* Re-arm so we run again in the next round; at the last round, end. */
    if (++exit_round < PTHREAD_DESTRUCTOR_ITERATIONS && pthread_setspecific(exit_key, v) == 0)
        return;
    thread_finish();
}

static bool exit_key_ready(void) {
    int s = atomic_load_explicit(&key_state, memory_order_acquire);
    while (s != KEY_READY && s != KEY_FAILED) {
        int expect = KEY_NONE;
        if (s == KEY_NONE &&
            atomic_compare_exchange_strong_explicit(&key_state, &expect, KEY_BUSY, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            s = pthread_key_create(&exit_key, exit_key_dtor) == 0 ? KEY_READY : KEY_FAILED;
            atomic_store_explicit(&key_state, s, memory_order_release);
            break;
        }
        __builtin_ia32_pause();
        s = atomic_load_explicit(&key_state, memory_order_acquire);
    }
    return s == KEY_READY;
}

static void *goldi_thread_trampoline(void *p) {
    struct start st = *(struct start *)p;
    goldi_free(p);
    goldi_rt_thread_start(st.t);
    goldi_icpt_runnable_add(1);
    bool armed = exit_key_ready() && pthread_setspecific(exit_key, st.t) == 0;
    void *ret = st.c11_fn ? (void *)(intptr_t)st.c11_fn(st.arg) : st.fn(st.arg);
    if (!armed)
        thread_finish();
    return ret;
}

static int create(struct goldi_rt_thread *self, pthread_t *th, const pthread_attr_t *attr,
                  void *(*fn)(void *), int (*c11_fn)(void *), void *arg, uintptr_t pc) {
    (void)exit_key_ready();   /* before the child exists: no key races */
    struct goldi_rt_thread *child = goldi_rt_thread_new();
    int detach = PTHREAD_CREATE_JOINABLE;
    if (attr)
        pthread_attr_getdetachstate(attr, &detach);
    if (detach == PTHREAD_CREATE_DETACHED)
        goldi_rt_thread_detach(child);

    struct goldi_event ev = {0};
    ev.kind = GOLDI_EV_FORK;
    ev.other = &child->thr;
    ev.thr = &self->thr;
    ev.pc = pc;
    goldi_rt_emit(&ev);
    struct goldi_rt_thread *e = goldi_rt_enter();
    child->thr.create_origin = goldi_event_origin(&ev);
    struct start *st = goldi_alloc(sizeof *st);
    goldi_rt_leave(e);
    st->t = child;
    st->fn = fn;
    st->c11_fn = c11_fn;
    st->arg = arg;

    int r = GOLDI_REAL(pthread_create)(th, attr, goldi_thread_trampoline, st);
    if (r != 0) {
        /* The child never ran: drop its state like a joined thread's (no
         * JOIN event: nothing to order after). */
        goldi_free(st);
        goldi_rt_thread_joined(child);
        return r;
    }
    /* Joinable: the state lives until the join, so it is safe to fill in the
     * pthread_t now (the child writes the same value); a join by pthread_t
     * may come before the child ran. A detached child may be gone already. */
    if (detach != PTHREAD_CREATE_DETACHED)
        __atomic_store_n(&child->pthread, (uintptr_t)*th, __ATOMIC_RELAXED);
    return 0;
}

GOLDI_EXPORT int pthread_create(pthread_t *restrict th, const pthread_attr_t *restrict attr,
                                void *(*fn)(void *), void *restrict arg) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (!t)
        return GOLDI_REAL(pthread_create)(th, attr, fn, arg);
    return create(t, th, attr, fn, NULL, arg, pc);
}

static struct goldi_rt_thread *lookup(pthread_t th) {
    struct goldi_rt_thread *e = goldi_rt_enter();
    struct goldi_rt_thread *child = goldi_rt_thread_by_pthread((uintptr_t)th);
    goldi_rt_leave(e);
    return child;
}

static void joined(struct goldi_rt_thread *child, uintptr_t pc) {
    if (!child)
        return;
    struct goldi_event ev = {0};
    ev.kind = GOLDI_EV_JOIN;
    ev.other = &child->thr;
    ev.pc = pc;
    goldi_rt_emit(&ev);
    goldi_rt_thread_joined(child);
}

/* The child's state is looked up before the real join: afterwards its
 * pthread_t may already be reused by a new thread. */
#define JOIN_FN(name, PARAMS, ARGS)                                                  \
    GOLDI_EXPORT int name PARAMS {                                                   \
        uintptr_t pc = GOLDI_CALLER_PC();                                            \
        struct goldi_rt_thread *t = goldi_icpt_thread();                             \
        struct goldi_rt_thread *child = t ? lookup(th) : NULL;                       \
        int r = GOLDI_ICPT_BLOCKING(GOLDI_REAL(name) ARGS);                          \
        if (t && r == 0)                                                             \
            joined(child, pc);                                                       \
        return r;                                                                    \
    }

/* A thread blocked in pthread_join(child) runs no code of the program until
 * the join returns, after its JOIN event, as long as nothing can interrupt
 * it: no signal handler of the program (signal.c also clears the mark when
 * one runs) and no pthread_cancel (cleanup handlers would run). Meanwhile
 * it is marked as joining the child (goldi_thr.joining), so an engine may
 * count it as ordered after whatever the child is ordered after (the
 * Goldilocks GC's ANY test: a parked main thread no longer keeps every
 * entry of its workers alive). Not marked: a join that would fail at once
 * (self, a detached child, a child that joins this thread). */
static _Atomic bool cancel_used;

GOLDI_EXPORT int pthread_cancel(pthread_t th) {
    atomic_store(&cancel_used, true);
    struct goldi_rt_thread *target = goldi_icpt_thread() ? lookup(th) : NULL;
    if (target)   /* (a join in progress: its cleanup handlers will run code) */
        atomic_store(&target->thr.joining, 0);
    return GOLDI_REAL(pthread_cancel)(th);
}

GOLDI_EXPORT int pthread_join(pthread_t th, void **ret) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    struct goldi_rt_thread *child = t ? lookup(th) : NULL;
    bool park = child && child != t && !child->detached &&
                atomic_load(&child->thr.joining) != t->thr.tid + 1 && !atomic_load(&cancel_used) &&
                !goldi_icpt_user_handlers();
    if (park)
        atomic_store(&t->thr.joining, child->thr.tid + 1);
    int r = GOLDI_ICPT_BLOCKING(GOLDI_REAL(pthread_join)(th, ret));
    if (t && r == 0)
        joined(child, pc);
    if (park)
        atomic_store(&t->thr.joining, 0);
    return r;
}
JOIN_FN(pthread_tryjoin_np, (pthread_t th, void **ret), (th, ret))
JOIN_FN(pthread_timedjoin_np, (pthread_t th, void **ret, const struct timespec *ts), (th, ret, ts))
JOIN_FN(pthread_clockjoin_np, (pthread_t th, void **ret, clockid_t c, const struct timespec *ts),
        (th, ret, c, ts))

GOLDI_EXPORT int pthread_detach(pthread_t th) {
    struct goldi_rt_thread *t = goldi_icpt_thread();
    struct goldi_rt_thread *child = t ? lookup(th) : NULL;
    int r = GOLDI_REAL(pthread_detach)(th);
    if (r == 0 && child)
        goldi_rt_thread_detach(child);
    return r;
}

/* Nothing to do here: pthread_exit unwinds and the exit_key destructor emits
 * EXIT after the TLS destructors. Intercepted so the symbol is ours in every
 * link mode (and for a breakpoint when debugging thread ends). */
GOLDI_EXPORT void pthread_exit(void *ret) {
    GOLDI_REAL(pthread_exit)(ret);
    __builtin_unreachable();
}

/* --- C11 <threads.h> ---------------------------------------------------- */
static int thrd_result(int r) {
    switch (r) {
    case 0: return thrd_success;
    case ENOMEM: return thrd_nomem;
    case EAGAIN: return thrd_nomem;   /* what glibc maps EAGAIN to */
    case ETIMEDOUT: return thrd_timedout;
    case EBUSY: return thrd_busy;
    default: return thrd_error;
    }
}

GOLDI_EXPORT int thrd_create(thrd_t *thr, thrd_start_t fn, void *arg) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    pthread_t th;
    int r = t ? create(t, &th, NULL, NULL, fn, arg, pc)
              : GOLDI_REAL(pthread_create)(&th, NULL, (void *(*)(void *))(void (*)(void))fn, arg);
    if (r == 0)
        *thr = th;
    return thrd_result(r);
}

GOLDI_EXPORT int thrd_join(thrd_t thr, int *res) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = goldi_icpt_thread();
    struct goldi_rt_thread *child = t ? lookup(thr) : NULL;
    void *ret = NULL;
    int r = GOLDI_ICPT_BLOCKING(GOLDI_REAL(pthread_join)(thr, &ret));
    if (r != 0)
        return thrd_error;
    if (t)
        joined(child, pc);
    if (res)
        *res = (int)(intptr_t)ret;
    return thrd_success;
}

GOLDI_EXPORT int thrd_detach(thrd_t thr) {
    return pthread_detach(thr) == 0 ? thrd_success : thrd_error;
}

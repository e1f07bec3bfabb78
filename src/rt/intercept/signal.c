/* sigaction/signal interceptors. A user handler is installed behind our
 * wrapper, which knows whether the signal interrupted the runtime on this
 * thread (in_rt > 0): then the handler runs with its accesses ignored and
 * every interceptor it calls passes straight through, so the runtime is
 * never re-entered in the middle of an update. Otherwise the handler runs
 * normally. Callers always see their own handler, never the wrapper: in
 * oldact, and after SA_RESETHAND reset the disposition. */
#define _GNU_SOURCE
#include "intercept.h"

#include <errno.h>
#include <signal.h>

#include "../../base/fmt.h"

GOLDI_REAL_SLOT(sigaction);

#define N_SIG 65   /* _NSIG on Linux: signals 1..64 */

/* The program's handler for each signal (valid while our wrapper is the
 * kernel's disposition). fn is read by the wrapper from signal context. */
struct user_handler {
    _Atomic(uintptr_t) fn;   /* sa_handler / sa_sigaction */
    _Atomic int flags;       /* the program's sa_flags (SA_SIGINFO matters) */
};
static struct user_handler handlers[N_SIG];
static _Atomic bool any_user_handler;

bool goldi_icpt_user_handlers(void) { return atomic_load(&any_user_handler); }

static void wrapper(int sig, siginfo_t *si, void *uc) {
    uintptr_t fn = atomic_load_explicit(&handlers[sig].fn, memory_order_acquire);
    int flags = atomic_load_explicit(&handlers[sig].flags, memory_order_relaxed);
    struct goldi_rt_thread *t = goldi_cur;
    bool in_runtime = t && t->in_rt;
    if (in_runtime)
        t->ignore++;
    if (t) {
        /* a thread blocked in pthread_join runs code: not waiting only (thread.c) */
        atomic_store(&t->thr.joining, 0);   /* (seq_cst: before any cell the handler appends, for the GC) */
        t->thr.in_signal++;                 /* (its calls leave the path memo alone: event.h) */
    }
    if (fn != (uintptr_t)SIG_DFL && fn != (uintptr_t)SIG_IGN) {
        if (flags & SA_SIGINFO)
            ((void (*)(int, siginfo_t *, void *))fn)(sig, si, uc);
        else
            ((void (*)(int))fn)(sig);
    }
    if (t)
        t->thr.in_signal--;
    if (in_runtime)
        t->ignore--;
}

static bool is_user_handler(uintptr_t fn) {
    return fn != (uintptr_t)SIG_DFL && fn != (uintptr_t)SIG_IGN && fn != (uintptr_t)SIG_ERR;
}

/* Replaces our wrapper in a disposition read from the kernel by the program
 * handler it stands for (saved = the table entry in force then). */
static void unwrap(struct sigaction *sa, uintptr_t fn, int flags) {
    if ((sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == wrapper) {
        sa->sa_flags = (sa->sa_flags & ~SA_SIGINFO) | (flags & SA_SIGINFO);
        if (flags & SA_SIGINFO)
            sa->sa_sigaction = (void (*)(int, siginfo_t *, void *))fn;
        else
            sa->sa_handler = (void (*)(int))fn;
    }
}

GOLDI_EXPORT int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict oldact) {
    struct goldi_rt_thread *t = goldi_cur;
    if ((t && t->in_rt) || sig <= 0 || sig >= N_SIG)
        return GOLDI_REAL(sigaction)(sig, act, oldact);
    uintptr_t old_fn = atomic_load_explicit(&handlers[sig].fn, memory_order_acquire);
    int old_flags = atomic_load_explicit(&handlers[sig].flags, memory_order_relaxed);
    int r;
    if (act && is_user_handler((uintptr_t)act->sa_handler)) {
        struct sigaction k;
        goldi_memcpy(&k, act, sizeof k);   /* (an assignment may become a call to our memcpy) */
        k.sa_flags |= SA_SIGINFO;
        k.sa_sigaction = wrapper;
        atomic_store(&any_user_handler, true);
        /* Publish the handler before the kernel can call the wrapper. */
        atomic_store_explicit(&handlers[sig].flags, act->sa_flags, memory_order_relaxed);
        atomic_store_explicit(&handlers[sig].fn, (uintptr_t)act->sa_handler, memory_order_release);
        r = GOLDI_REAL(sigaction)(sig, &k, oldact);
        if (r != 0) {
            atomic_store_explicit(&handlers[sig].flags, old_flags, memory_order_relaxed);
            atomic_store_explicit(&handlers[sig].fn, old_fn, memory_order_release);
        }
    } else {
        r = GOLDI_REAL(sigaction)(sig, act, oldact);
    }
    if (r == 0 && oldact)
        unwrap(oldact, old_fn, old_flags);
    return r;
}

/* glibc's signal() calls its internal sigaction, so it needs its own
 * interceptor; BSD semantics like glibc's: SA_RESTART, the signal blocked
 * while its handler runs. */
GOLDI_EXPORT __sighandler_t signal(int sig, __sighandler_t h) {
    struct sigaction sa, old;
    goldi_memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sigemptyset(&sa.sa_mask);
    if (sig > 0 && sig < N_SIG)
        sigaddset(&sa.sa_mask, sig);
    sa.sa_flags = SA_RESTART;
    if (sigaction(sig, &sa, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

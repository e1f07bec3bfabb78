/* pthread_once / call_once: the executor emits ONCE_DONE after the user's
 * init function returns; every caller emits ONCE_RET when the real call
 * returns. The real pthread_once runs our wrapper, which finds the user's
 * function in a thread-local (saved and restored around the call so nested
 * once calls from inside an init function work). */
#define _GNU_SOURCE
#include "intercept.h"

#include <pthread.h>
#include <threads.h>

GOLDI_REAL_SLOT(pthread_once);

struct once_call {
    void (*fn)(void);
    struct goldi_sync *obj;
    uintptr_t pc;
};
static GOLDI_TLS struct once_call *cur_call;

static void once_wrapper(void) {
    struct once_call *c = cur_call;
    c->fn();
    struct goldi_rt_thread *t = goldi_cur;
    if (t && !t->in_rt)
        goldi_icpt_emit_sync(GOLDI_EV_ONCE_DONE, c->obj, NULL, GOLDI_LOCK_EXCL, 0, c->pc);
}

static int once(pthread_once_t *o, void (*fn)(void), uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_icpt_thread();
    if (!t)
        return GOLDI_REAL(pthread_once)(o, fn);
    struct once_call c = { fn, goldi_icpt_sync((uintptr_t)o, GOLDI_SYNC_ONCE), pc };
    struct once_call *saved = cur_call;
    cur_call = &c;
    int r = GOLDI_REAL(pthread_once)(o, once_wrapper);
    cur_call = saved;
    if (r == 0)
        goldi_icpt_emit_sync(GOLDI_EV_ONCE_RET, c.obj, NULL, GOLDI_LOCK_EXCL, 0, pc);
    return r;
}

GOLDI_EXPORT int pthread_once(pthread_once_t *o, void (*fn)(void)) {
    return once(o, fn, GOLDI_CALLER_PC());
}

/* glibc's call_once calls its internal pthread_once directly; once_flag has
 * pthread_once_t's layout. */
GOLDI_EXPORT void call_once(once_flag *flag, void (*fn)(void)) {
    once((pthread_once_t *)flag, fn, GOLDI_CALLER_PC());
}

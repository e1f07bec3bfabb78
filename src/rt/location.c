/* Hooks report/ calls to describe an address (heap block, thread stack or
 * TLS) and a thread (os tid, running, creator). Runs inside a report, with
 * the runtime entered on the reporting thread. */
#include "thread_internal.h"
#include "heap.h"
#include "../base/fmt.h"

/* Weak: the heap registry lives with the malloc interceptors; a runtime built
 * without them (or the offline analyzer) simply has no heap locations. */
GOLDI_WEAK bool goldi_heap_find(uintptr_t addr, struct goldi_heap_block *out);

struct where {
    uintptr_t addr;
    goldi_tid_t stack_tid, tls_tid;
};

/* glibc carves a thread's static TLS out of the top of its stack mapping, so
 * both ranges can contain addr: TLS is the more precise answer and wins. */
static void find_thread_area(void *ctx, struct goldi_rt_thread *t) {
    struct where *w = ctx;
    if (w->addr >= t->tls_lo && w->addr < t->tls_hi)
        w->tls_tid = t->thr.tid;
    else if (w->addr >= t->stack_lo && w->addr < t->stack_hi)
        w->stack_tid = t->thr.tid;
}

size_t goldi_rt_describe_location(uintptr_t addr, char *buf, size_t n, goldi_origin_t *alloc_origin) {
    *alloc_origin = 0;
    struct goldi_heap_block b;
    if (goldi_heap_find && goldi_heap_find(addr, &b)) {
        *alloc_origin = b.origin;
        int r = goldi_snprintf(buf, n, "Location is heap block of size %zu at %p allocated by thread T%u:",
                               b.size, (void *)b.addr, b.tid);
        return r < (int)n ? (size_t)r : n - 1;
    }
    struct where w = { .addr = addr, .stack_tid = GOLDI_TID_NONE, .tls_tid = GOLDI_TID_NONE };
    goldi_rt_threads_for_each(find_thread_area, &w);
    bool tls = w.tls_tid != GOLDI_TID_NONE;
    if (!tls && w.stack_tid == GOLDI_TID_NONE)
        return 0;
    int r = goldi_snprintf(buf, n, "Location is %s of thread T%u.", tls ? "TLS" : "stack",
                           tls ? w.tls_tid : w.stack_tid);
    return r < (int)n ? (size_t)r : n - 1;
}

struct info {
    goldi_tid_t tid;
    bool found, running;
    int os_tid;
    goldi_tid_t parent;
    goldi_origin_t create_origin;
};

static void find_tid(void *ctx, struct goldi_rt_thread *t) {
    struct info *in = ctx;
    if (in->found || t->thr.tid != in->tid)
        return;
    in->found = true;
    in->running = !t->exited;
    in->os_tid = t->os_tid;
    in->parent = t->thr.parent;
    in->create_origin = t->thr.create_origin;
}

/* Live states first; threads already joined (or detached and finished) are
 * answered from the registry's tombstones. */
bool goldi_rt_thread_info(goldi_tid_t tid, int *os_tid, bool *running, goldi_tid_t *parent,
                          goldi_origin_t *create_origin) {
    struct info in = { .tid = tid };
    goldi_rt_threads_for_each(find_tid, &in);
    if (!in.found) {
        *running = false;
        return goldi_rt_thread_info_freed(tid, os_tid, parent, create_origin);
    }
    *os_tid = in.os_tid;
    *running = in.running;
    *parent = in.parent;
    *create_origin = in.create_origin;
    return true;
}

/* Event helpers shared by all interceptors. They only fill events and hand
 * them to goldi_rt_emit; no detection logic lives here. */
#include "intercept.h"

bool goldi_icpt_usable(void) {
    if (!goldi_rt_initialized())
        return false;
    struct goldi_rt_thread *t = goldi_cur;
    return t == NULL || t->in_rt == 0;
}

void goldi_icpt_emit_sync(enum goldi_event_kind kind, struct goldi_sync *obj, struct goldi_sync *obj2,
                          enum goldi_lock_mode mode, uint64_t gen, uintptr_t pc) {
    struct goldi_event ev = {0};
    ev.kind = (uint8_t)kind;
    ev.mode = (uint8_t)mode;
    ev.obj = obj;
    ev.obj2 = obj2;
    ev.gen = gen;
    ev.pc = pc;
    goldi_rt_emit(&ev);
}

void goldi_icpt_sync_reset(uintptr_t addr) {
    struct goldi_rt_thread *t = goldi_rt_enter();
    goldi_sync_reset(addr);
    struct goldi_sync *s = goldi_sync_find(addr);
    if (s) {
        /* A re-initialised mutex has no owner, a barrier no arrivals. */
        __atomic_store_n(&s->owner, GOLDI_TID_NONE, __ATOMIC_RELAXED);
        __atomic_store_n(&s->depth, 0, __ATOMIC_RELAXED);
    }
    goldi_rt_leave(t);
}

/* Range events carry a 32-bit size: split huge ranges (memset of >4 GiB). */
#define RANGE_PIECE ((size_t)1 << 30)

void goldi_icpt_emit_range(struct goldi_rt_thread *t, enum goldi_event_kind kind, uintptr_t addr,
                           size_t n, uintptr_t pc) {
    if (n == 0 || t->ignore)
        return;
    while (n) {
        size_t k = n < RANGE_PIECE ? n : RANGE_PIECE;
        struct goldi_event ev = {0};
        ev.kind = (uint8_t)kind;
        ev.flags = GOLDI_EVF_RANGE;
        ev.addr = addr;
        ev.size = (uint32_t)k;
        ev.pc = pc;
        goldi_rt_emit(&ev);
        addr += k;
        n -= k;
    }
}

/* Event emission for interceptors: attach the current thread, enter the
 * runtime (so whatever the engines and reports call passes through the
 * interceptors and is not tracked) and dispatch. */
#include "rt.h"

void goldi_rt_emit(struct goldi_event *ev) {
    struct goldi_rt_thread *t = goldi_cur;
    /* No state (untracked thread) or after the thread's EXIT event: engines
     * must not see events of a thread they consider finished. */
    if (!t || t->exited)
        return;
    ev->thr = &t->thr;
    if (!ev->pc)
        ev->pc = (uintptr_t)__builtin_return_address(0);
    goldi_rt_enter();
    goldi_dispatch(ev);
    goldi_rt_leave(t);
}

void goldi_rt_access_range(uintptr_t addr, size_t size, bool write, uintptr_t pc) {
    struct goldi_rt_thread *t = goldi_cur;
    if (!t || t->ignore || !size)
        return;
    /* ev.size is 32 bits: split huge ranges so none is silently truncated */
    while (size) {
        uint32_t chunk = size > (1u << 30) ? (1u << 30) : (uint32_t)size;
        struct goldi_event ev = {
            .kind = write ? GOLDI_EV_WRITE : GOLDI_EV_READ,
            .flags = GOLDI_EVF_RANGE,
            .size = chunk,
            .addr = addr,
            .pc = pc,
            .thr = &t->thr,
        };
        goldi_rt_enter();
        goldi_dispatch(&ev);
        goldi_rt_leave(t);
        addr += chunk;
        size -= chunk;
    }
}

/* Registry of fork handlers, kept sorted by level (see atfork.h). */
#include "atfork.h"

#define MAX_HANDLERS 32

struct handler {
    int level;
    void (*prepare)(void), (*parent)(void), (*child)(void);
};
static struct handler handlers[MAX_HANDLERS];
static unsigned n_handlers;

void goldi_atfork_register(int level, void (*prepare)(void), void (*parent)(void),
                           void (*child)(void)) {
    GOLDI_CHECK_OP(n_handlers, <, MAX_HANDLERS);
    unsigned i = n_handlers++;
    for (; i > 0 && handlers[i - 1].level > level; i--)
        handlers[i] = handlers[i - 1];
    handlers[i] = (struct handler){ level, prepare, parent, child };
}

void goldi_atfork_prepare(void) {
    for (unsigned i = 0; i < n_handlers; i++)
        if (handlers[i].prepare)
            handlers[i].prepare();
}

void goldi_atfork_parent(void) {
    for (unsigned i = n_handlers; i-- > 0;)
        if (handlers[i].parent)
            handlers[i].parent();
}

void goldi_atfork_child(void) {
    for (unsigned i = n_handlers; i-- > 0;)
        if (handlers[i].child)
            handlers[i].child();
}

void goldi_spin_lock_all(goldi_spinlock_t *locks, size_t n) {
    for (size_t i = 0; i < n; i++)
        goldi_spin_lock(&locks[i]);
}

void goldi_spin_unlock_all(goldi_spinlock_t *locks, size_t n) {
    for (size_t i = 0; i < n; i++)
        goldi_spin_unlock(&locks[i]);
}

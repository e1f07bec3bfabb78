/* Registry of fork handlers (see atfork.h). */
#include "atfork.h"

#define MAX_HANDLERS 32

static struct { void (*prepare)(void), (*parent)(void), (*child)(void); } handlers[MAX_HANDLERS];
static unsigned n_handlers;

void goldi_atfork_register(void (*prepare)(void), void (*parent)(void), void (*child)(void)) {
    GOLDI_CHECK_OP(n_handlers, <, MAX_HANDLERS);
    handlers[n_handlers].prepare = prepare;
    handlers[n_handlers].parent = parent;
    handlers[n_handlers].child = child;
    n_handlers++;
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

/* Fork safety: every module with global locks registers handlers that take
 * all of them before fork() and release them after (in parent and child), so
 * the child never inherits a lock held by a thread that no longer exists.
 * The fork interceptor calls goldi_atfork_prepare/parent/child. */
#ifndef GOLDI_ATFORK_H
#define GOLDI_ATFORK_H

#include "base.h"

/* Handlers run in registration order for prepare, reverse order after. Up to
 * 32 registrations; call at init time only. */
void goldi_atfork_register(void (*prepare)(void), void (*parent)(void), void (*child)(void));
void goldi_atfork_prepare(void);
void goldi_atfork_parent(void);
void goldi_atfork_child(void);

#endif

/* Table of synchronization objects keyed by program address (sync.c).
 * Buckets are protected by their own spinlocks; objects are recycled through a
 * free list and never unmapped (type-stable, see struct goldi_sync). */
#ifndef GOLDI_SYNC_H
#define GOLDI_SYNC_H

#include "event.h"

/* The object at addr, created (with fresh tokens) if absent. If an object of a
 * different kind sits at addr (memory reused without free, e.g. a stack), it is
 * re-initialised as kind with fresh tokens. Never NULL. */
struct goldi_sync *goldi_sync_get(uintptr_t addr, enum goldi_sync_kind kind);
/* The object at addr, or NULL. */
struct goldi_sync *goldi_sync_find(uintptr_t addr);
/* pthread_*_init / *_destroy: give the object at addr fresh tokens (new ids),
 * so nothing from its previous life orders anything later. */
void goldi_sync_reset(uintptr_t addr);
/* free()/munmap of [addr, addr+n): forget every object inside (their memory is
 * recycled; later use of those addresses starts fresh). */
void goldi_sync_forget_range(uintptr_t addr, size_t n);
/* Gives tok a fresh unique id; engines see the id change and start over. */
void goldi_token_renew(struct goldi_token *tok);
/* Number of live objects (stats, memory tests). */
size_t goldi_sync_count(void);

#endif

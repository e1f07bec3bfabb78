/* Registry of live heap blocks, kept by the malloc-family interceptors
 * (rt/intercept/malloc.c) for location reports. Not on any fast path. */
#ifndef GOLDI_HEAP_H
#define GOLDI_HEAP_H

#include "../event/event.h"

struct goldi_heap_block {
    uintptr_t addr;             /* start of the user block */
    size_t size;                /* requested size */
    goldi_tid_t tid;            /* allocating thread */
    goldi_origin_t origin;      /* allocation origin (stack) */
};

/* The live block containing addr; false if none. */
bool goldi_heap_find(uintptr_t addr, struct goldi_heap_block *out);

#endif

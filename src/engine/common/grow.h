/* A per-access array (pending races) that lives in a caller-owned local
 * buffer and moves to goldi_alloc memory, doubling, when it fills up: an
 * access almost never has more than a few, and on_access must not allocate
 * in the common case. */
#ifndef GOLDI_GROW_H
#define GOLDI_GROW_H

#include "../../base/alloc.h"
#include "../../base/base.h"
#include "../../base/fmt.h"

/* Returns arr with room for element n (n < the returned capacity *cap);
 * frees arr if it was not local. */
GOLDI_INLINE void *goldi_grow_local(void *arr, const void *local, unsigned n, unsigned *cap, size_t elem) {
    if (n < *cap)
        return arr;
    unsigned ncap = *cap * 2;
    void *na = goldi_alloc(ncap * elem);
    goldi_memcpy(na, arr, n * elem);
    if (arr != local)
        goldi_free(arr);
    *cap = ncap;
    return na;
}

#endif

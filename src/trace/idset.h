/* A set of nonzero 32-bit ids (open addressing, 0 = empty slot), grown with
 * goldi_alloc: the origins a thread's stream has defined, on both sides of
 * the trace format (writer.c writes a definition once per stream, reader.c
 * checks that a stream defines every origin it uses). Freestanding (the
 * writer runs inside the recorded program). */
#ifndef GOLDI_TRACE_IDSET_H
#define GOLDI_TRACE_IDSET_H

#include "../base/alloc.h"

struct goldi_idset {
    uint32_t *slot;
    uint32_t n, cap;             /* cap: 0 or a power of two */
};

static inline uint32_t *goldi_idset_slot(uint32_t *slot, uint32_t cap, uint32_t id) {
    uint32_t i = (uint32_t)((id * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
    while (slot[i] && slot[i] != id)
        i = (i + 1) & (cap - 1);
    return &slot[i];
}

static inline bool goldi_idset_has(const struct goldi_idset *s, uint32_t id) {
    return s->cap && *goldi_idset_slot(s->slot, s->cap, id) == id;
}

/* Adds id (nonzero); true if it was not in the set. */
static inline bool goldi_idset_add(struct goldi_idset *s, uint32_t id) {
    if (goldi_idset_has(s, id))
        return false;
    if (2 * (s->n + 1) > s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 256;
        uint32_t *slot = goldi_alloc(cap * sizeof *slot);
        for (uint32_t i = 0; i < s->cap; i++)
            if (s->slot[i])
                *goldi_idset_slot(slot, cap, s->slot[i]) = s->slot[i];
        goldi_free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    *goldi_idset_slot(s->slot, s->cap, id) = id;
    s->n++;
    return true;
}

static inline void goldi_idset_free(struct goldi_idset *s) {
    goldi_free(s->slot);
    *s = (struct goldi_idset){ 0 };
}

#endif

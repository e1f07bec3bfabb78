/* What an access event is, as the per-byte rules of the engines see it:
 * a write (it changes the location: plain writes, free, atomic stores and
 * RMWs; a failed CAS only reads) and whether it is atomic. */
#ifndef GOLDI_ACCESS_H
#define GOLDI_ACCESS_H

#include "../../event/event.h"
#include "../../shadow/shadow.h"

GOLDI_INLINE bool goldi_access_is_write(uint8_t kind) {
    return kind == GOLDI_EV_WRITE || kind == GOLDI_EV_FREE || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW;
}

GOLDI_INLINE bool goldi_access_is_atomic(uint8_t kind) {
    return kind == GOLDI_EV_ATOMIC_LOAD || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW || kind == GOLDI_EV_ATOMIC_CASFAIL;
}

/* A FREE makes no records: a byte without one has no history its FREE could
 * race with, and the lifetime reset right after would drop a record made
 * for it. So the free() of a big block costs what its state costs, not its
 * size (the dispatcher sends such a FREE to the granules with state only,
 * goldi_sink.free_sparse), and brings no shadow in.
 *
 * The shadow words of an access piece, or NULL for a FREE whose leaf does
 * not exist (nothing to visit). */
GOLDI_INLINE goldi_shadow_word_t *goldi_access_words(unsigned plane, uint8_t kind, uintptr_t addr) {
    return kind == GOLDI_EV_FREE ? goldi_shadow_word_if_present(plane, addr) : goldi_shadow_word(plane, addr);
}

/* Does the piece's byte at w have nothing to do: a FREE of a byte without
 * a record? */
GOLDI_INLINE bool goldi_access_skips(uint8_t kind, const goldi_shadow_word_t *w) {
    return kind == GOLDI_EV_FREE && !atomic_load_explicit(w, memory_order_relaxed);
}

#endif

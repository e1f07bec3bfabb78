/* What an access event is, as the per-byte rules of the engines see it:
 * a write (it changes the location: plain writes, free, atomic stores and
 * RMWs; a failed CAS only reads) and whether it is atomic. */
#ifndef GOLDI_ACCESS_H
#define GOLDI_ACCESS_H

#include "../../event/event.h"

GOLDI_INLINE bool goldi_access_is_write(uint8_t kind) {
    return kind == GOLDI_EV_WRITE || kind == GOLDI_EV_FREE || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW;
}

GOLDI_INLINE bool goldi_access_is_atomic(uint8_t kind) {
    return kind == GOLDI_EV_ATOMIC_LOAD || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW || kind == GOLDI_EV_ATOMIC_CASFAIL;
}

#endif

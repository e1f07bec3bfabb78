/* An optional shortcut taken in windows: the runtime's same-epoch filter
 * and the Goldilocks engine's lock-free kept test both cost something on
 * every access and pay only when they often succeed. A window of tries that
 * succeeded too rarely is followed by a span without the shortcut, then by
 * another window. The owner counts hits and ends a window (goldi_window_next)
 * when left reaches 0; what counts as a try is the owner's choice. Skipping a
 * shortcut must always be sound: the owner's general path follows. */
#ifndef GOLDI_WINDOW_H
#define GOLDI_WINDOW_H

#include "base.h"

struct goldi_window {
    bool skip;          /* the shortcut is not taken now */
    uint32_t hits;      /* its successes in this window */
    uint32_t left;      /* tries (or skipped ones) until this window or span ends */
};

/* Ends the current window or span: after a window with at least min_hits
 * hits, another window of `window` tries; after one with fewer, a span of
 * `skip` without the shortcut; after a span, a window. Returns w->skip. */
GOLDI_INLINE bool goldi_window_next(struct goldi_window *w, uint32_t window, uint32_t skip, uint32_t min_hits) {
    w->skip = !w->skip && w->hits < min_hits;
    w->left = w->skip ? skip : window;
    w->hits = 0;
    return w->skip;
}

#endif

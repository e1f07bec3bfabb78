/* Text traces (ALGORITHMS.md 1.2 table, 1.5 format): parse a trace and feed
 * its events through goldi_dispatch() to the attached engines. Used by the
 * trace tests (tests/tools/trace_check) and, later, fuzzers; depends only on
 * the core modules (event, shadow, base).
 *
 * Format, one or more events per line:
 *     [LABEL[:]] THREAD OP ARGS...   ( ';' or just spacing between events )
 *     barrier B N                    declares barrier B with N threads
 *     # comment to the end of the line
 * THREAD: T0 (main) exists from the start; others exist once forked.
 * Locations: NAME (8 bytes at offset 0) or NAME[off:len]; range ops take
 * NAME or NAME[off] plus a byte count. Every location name owns a private
 * 64-byte slot of a static arena (so addresses are real and stable); every
 * sync name owns another one. See docs/vc.md for the full op list. */
#ifndef GOLDI_TRACE_TEXT_H
#define GOLDI_TRACE_TEXT_H

#include "../base/base.h"

#define GOLDI_TEXT_SLOT 64u            /* bytes per location name */
#define GOLDI_TEXT_MAX_LOCS 4096u      /* location names per trace */
#define GOLDI_TEXT_MAX_SYNCS 4096u     /* sync object names per trace */
#define GOLDI_TEXT_MAX_THREADS 1024u   /* threads per trace (tids 0..1023) */
#define GOLDI_TEXT_NO_EVENT 0xff       /* kind of a trace event with no goldi_event (tryfail, yield...) */

/* One trace event. Event i is dispatched with pc = i + 1, so a race's origin
 * (frames[0]) names its event. */
struct goldi_text_event {
    uint32_t line;        /* 1-based line number */
    uint32_t label_off;   /* label (without ':') at text[label_off .. +label_len); len 0: none */
    uint32_t label_len;
    uint8_t kind;         /* enum goldi_event_kind, or GOLDI_TEXT_NO_EVENT */
    goldi_tid_t tid;      /* acting thread */
    uintptr_t addr;       /* accesses, atomics, alloc, free: first byte */
    uint32_t size;        /* ... and byte count */
};

struct goldi_text_trace_result {
    uint32_t n_events;              /* trace events (indexes of events[]) */
    uint32_t n_dispatched;          /* goldi_events delivered (incl. implicit exits) */
    uint32_t n_threads;             /* threads created, T0 included */
    struct goldi_text_event *events;/* n_events entries (goldi_alloc), see result_free */
};

/* Parses text[0..len) and dispatches its events in order. Returns 0, or
 * -EINVAL with "line N: ..." in err (events before the error were already
 * dispatched). out may be NULL. Successive runs in one process are
 * independent: a run first starts a fresh lifetime for every slot the previous
 * run used and forgets its sync objects. Not reentrant (static tables). */
int goldi_text_trace_run(const char *text, size_t len, struct goldi_text_trace_result *out,
                         char *err, size_t errlen);
void goldi_text_trace_result_free(struct goldi_text_trace_result *r);

/* Describes addr as "NAME" or "NAME+off" if it lies in a location (or sync)
 * slot named by the last run; false otherwise. */
bool goldi_text_trace_addr_name(uintptr_t addr, char *buf, size_t n);
/* Name of thread tid in the last run, or NULL. */
const char *goldi_text_trace_thread_name(goldi_tid_t tid);

#endif

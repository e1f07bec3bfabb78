/* RAPID's STD trace format (github.com/focs-lab/rapid, README "STD
 * (Standard) Format", parser src/parse/std/Parse.java): one event per line,
 *     THREAD|OP(DECOR)|LOC        e.g.  T0|r(V123)|345   T2|acq(L34)|120
 * OP is r, w (DECOR a variable), acq, rel (a lock), fork, join (a thread), or
 * begin / end (transaction markers, no DECOR). LOC is the program location,
 * an integer. Import dispatches the events (goldi_std_run); export is a sink
 * that prints what it is shown (goldi_std_export_start). The mapping of our
 * richer events onto these six ops is in docs/traces.md and std.c.
 * Freestanding (goldi_alloc, platform writes). */
#ifndef GOLDI_TRACE_STD_H
#define GOLDI_TRACE_STD_H

#include "../event/event.h"

/* Synthetic addresses of imported objects: variable i is the 8-byte slot
 * GOLDI_STD_VAR_BASE + 8 i, lock j lives at GOLDI_STD_LOCK_BASE + 16 j. */
#define GOLDI_STD_VAR_BASE 0x100000000000ull
#define GOLDI_STD_LOCK_BASE 0x200000000000ull
#define GOLDI_STD_MAX_OBJS (1u << 26)

struct goldi_std_result {
    uint64_t lines;          /* lines read */
    uint64_t events;         /* goldi_events dispatched (incl. implicit exits) */
    uint64_t skipped;        /* begin/end markers, blank and comment lines */
    uint32_t threads, vars, locks, locs;
};

/* Parses an STD trace and dispatches its events to the attached sinks.
 * Names of threads, variables, locks and locations go to the name table
 * (names.h); an event's pc is its location's dense id + 1. Threads that
 * appear without a fork are root threads (like T0). Extensions: blank lines
 * and lines starting with '#' are skipped. Returns 0 or -EINVAL (-22) with
 * "line N: ..." in err (events before were dispatched). One run per process. */
int goldi_std_run(const char *text, size_t len, struct goldi_std_result *out, char *err, size_t errlen);

/* Frees the goldi_thr of past runs. Only for callers without engines (the
 * fuzzer): engines may still point at them. */
void goldi_std_release_threads(void);

struct goldi_std_export_stats {
    uint64_t lines;                      /* STD lines written */
    uint64_t dropped[GOLDI_EV_COUNT];    /* events with no STD counterpart, by kind */
};

/* Attaches a sink that writes every event it is shown as STD lines to fd
 * (buffered). Call after the producer's other sinks are attached. */
struct goldi_sink *goldi_std_export_start(int fd);
/* Flushes; returns 0 or -EIO. */
int goldi_std_export_finish(struct goldi_std_export_stats *out);

#endif

/* Binary trace reader (format.h): validates a trace held in memory, merges
 * its per-thread streams into one global order and replays it through
 * goldi_dispatch() to whatever sinks are attached (engines, the STD exporter,
 * a writer). Input is untrusted: every malformed, truncated or hostile file
 * ends in an error message naming the byte offset, never in a crash or an
 * unbounded allocation. Freestanding (goldi_alloc, no libc). */
#ifndef GOLDI_TRACE_READER_H
#define GOLDI_TRACE_READER_H

#include "../event/event.h"

struct goldi_trace;   /* an opened trace (opaque) */

struct goldi_trace_read_opts {
    bool allow_partial;     /* accept a trace without END (the program died) */
    bool skip_checks;       /* do not verify chunk check values (fuzzing) */
};

struct goldi_trace_module {
    const char *path;       /* "" = the main executable (see exe) */
    uint64_t bias;          /* load bias: address = ELF vaddr + bias */
    uint32_t n_ranges;
    const uint64_t *ranges; /* n_ranges pairs (start, length) of PT_LOAD segments */
};

struct goldi_trace_info {
    uint32_t version;
    int pid;                /* recorded process, 0 for converted traces */
    const char *exe;        /* its executable, "" if unknown */
    const char *tool;       /* who wrote the trace */
    bool complete;          /* END present */
    uint64_t n_threads, n_events, n_chunks, n_dropped;   /* from END (0 if partial) */
    uint32_t n_modules;
    const struct goldi_trace_module *modules;
    uint64_t file_size;
    uint64_t raw_size;      /* sum of decompressed chunk payloads */
};

/* A thread of the trace, as known during/after replay. */
struct goldi_trace_thread {
    goldi_tid_t tid;
    goldi_tid_t parent;     /* GOLDI_TID_NONE for T0 and unforked threads */
    int os_tid;             /* 0 if unknown */
    uint64_t stack_lo, stack_hi, tls_lo, tls_hi;
    goldi_origin_t create_origin;   /* origin of the FORK (replay's id) */
    bool running;           /* no EXIT replayed yet */
};

/* Validates the container (header, chunk framing, check values, META,
 * MODULES, NAMES, END) of data[0..len), which must stay valid until close.
 * NAMES are loaded into the name table (names.h). Returns 0, or -EINVAL
 * (-22) with "offset N: ..." in err. */
int goldi_trace_open(const void *data, size_t len, const struct goldi_trace_read_opts *opts,
                     struct goldi_trace **out, char *err, size_t errlen);
const struct goldi_trace_info *goldi_trace_get_info(const struct goldi_trace *t);

/* Decodes every record in global order, checks it (well-formed encoding and
 * a sane thread life: no event after EXIT, no second FORK or JOIN, origins
 * defined before use, ...) and, if dispatch, replays it: threads, sync
 * objects at the recorded addresses (with the recorded object lives), shadow
 * stacks rebuilt from origins. Returns 0 or -EINVAL with err set (events
 * before the error were dispatched). n_events (may be NULL) receives the
 * number of events dispatched/decoded. One replay per process: sync objects
 * live at recorded addresses. */
int goldi_trace_replay(struct goldi_trace *t, bool dispatch, uint64_t *n_events, char *err, size_t errlen);

/* Thread tid as of now (during or after replay); false if never seen. */
bool goldi_trace_thread_get(const struct goldi_trace *t, goldi_tid_t tid, struct goldi_trace_thread *out);

void goldi_trace_close(struct goldi_trace *t);

/* True if data starts with the binary trace magic. */
bool goldi_trace_is_binary(const void *data, size_t len);

#endif

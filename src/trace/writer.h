/* The trace writer: a goldi_sink that records every event it is shown into a
 * binary trace (format.h). Attached by the runtime when the option
 * trace_out=FILE is set (`goldi record`), and by `goldi convert`.
 * Runtime code: no malloc, no stdio; per-thread buffers, no global lock per
 * event (one global atomic sequence counter). One writer per process. */
#ifndef GOLDI_TRACE_WRITER_H
#define GOLDI_TRACE_WRITER_H

#include "../event/event.h"

/* What the runtime knows about a thread beyond struct goldi_thr. */
struct goldi_trace_thread_info {
    int os_tid;
    uintptr_t stack_lo, stack_hi;   /* the thread's stack (location reports) */
    uintptr_t tls_lo, tls_hi;       /* its static TLS block */
};

struct goldi_trace_writer_config {
    int fd;                 /* open for writing at offset 0; the writer owns it */
    bool record_process;    /* META and MODULES describe this process (the runtime);
                               false: a converted trace (pid 0, no modules) */
    int level;              /* zstd level, 0 = default (3); < 0 = never compress */
    const char *tool;       /* free text stored in META (who wrote the trace) */
    /* Optional: fills *out for thr, called on thr's first event from thr's
     * own thread. NULL: zeros. */
    void (*thread_info)(struct goldi_thr *thr, struct goldi_trace_thread_info *out);
};

/* Writes the file header, META and MODULES, and attaches the writer's sink to
 * the dispatcher (after the sinks attached so far). Returns the sink, or NULL
 * if the header could not be written (the writer then stays detached). */
struct goldi_sink *goldi_trace_writer_start(const struct goldi_trace_writer_config *cfg);

/* Flushes every thread's buffer, appends MODULES (again: dlopen'ed objects),
 * NAMES and END, and closes the file. Events dispatched afterwards are
 * dropped. Idempotent. Returns 0, or -errno of the first failed write. */
int goldi_trace_writer_finish(void);

struct goldi_trace_writer_stats {
    uint64_t events;        /* events recorded */
    uint64_t chunks;        /* chunks written */
    uint64_t bytes;         /* file size so far */
    uint64_t raw_bytes;     /* chunk payloads before compression */
    uint64_t dropped;       /* events not recorded (after finish, tid out of range) */
    uint32_t threads;       /* threads that recorded an event */
    bool compressed;        /* zstd was available */
};
void goldi_trace_writer_stats(struct goldi_trace_writer_stats *out);

#endif

/* Race reports: turns goldi_race records from any engine into the text users
 * read (format in docs/reports.md), deduplicates them per pair of source
 * locations, counts them, and applies report_limit / halt_on_error.
 * Knows nothing about engines or interceptors: the runtime hands in hooks. */
#ifndef GOLDI_REPORT_H
#define GOLDI_REPORT_H

#include "../engine/engine.h"

struct goldi_frame;

/* What report/ needs from whoever runs the program (rt/ online, the trace
 * analyzer offline). Any hook may be NULL. */
struct goldi_report_hooks {
    /* Writes "Location is ..." for addr if it is a heap block, a thread's stack
     * or TLS (globals are found by report/ itself through symbols). Returns the
     * bytes written (0 = unknown). *alloc_origin receives the allocation origin
     * of a heap block (0 otherwise), printed as its stack. Write the bare
     * sentence ("Location is heap block of size 64 at 0x... allocated by
     * thread T1:"): report/ adds the indentation and the newline. */
    size_t (*describe_location)(uintptr_t addr, char *buf, size_t n, goldi_origin_t *alloc_origin);
    /* Facts about thread tid for the "Thread Tn (...) created by ..." lines. */
    bool (*thread_info)(goldi_tid_t tid, int *os_tid, bool *running, goldi_tid_t *parent,
                        goldi_origin_t *create_origin);
    /* Called after the report that hits halt_on_error, outside report/'s lock;
     * must not return (if NULL or it returns, report/ calls
     * goldi_report_finish() and exits with exitcode itself). */
    void (*halt)(int exitcode);
    /* Offline analysis (goldi analyze): symbolize the pcs and data addresses
     * of the recorded process instead of this one. NULL: this process
     * (goldi_symbolize / goldi_symbolize_data). When symbolize_data is set,
     * module-only data locations are left to describe_location. */
    bool (*symbolize)(uintptr_t pc, bool is_return_address, struct goldi_frame *out);
    bool (*symbolize_data)(uintptr_t addr, const char **name, uintptr_t *start, size_t *size,
                           const char **module, uintptr_t *module_offset);
};

struct goldi_report_config {
    int fd;                 /* report stream (stderr or the log_path file) */
    long report_limit;      /* 0 = unlimited */
    bool halt_on_error;
    int exitcode;
    bool symbolize;
    int verbosity;
    int pid;                /* pid printed in reports: 0 = this process; offline the recorded
                               one, < 0 = none recorded (prints pid=0) */
    struct goldi_report_hooks hooks;
};

/* Copies cfg and starts from scratch (dedup set, counts, halt state). */
void goldi_report_init(const struct goldi_report_config *cfg);
/* The engine callback (goldi_engine_env.report); ctx is unused. Thread-safe. */
void goldi_report_race(void *ctx, const struct goldi_race *r);
/* Races reported so far (distinct pairs of source locations), including
 * those report_limit kept from being printed. */
uint64_t goldi_report_count(void);
/* Race records dropped as duplicates of an earlier report (stats). */
uint64_t goldi_report_duplicates(void);
/* Prints "Goldilocks: reported N data race(s)" if N > 0. */
void goldi_report_finish(void);

/* Symbolized frame. Strings point into report/'s own storage (valid for ever). */
struct goldi_frame {
    uintptr_t pc;           /* the address looked up (pc-1 for a return address) */
    const char *function;   /* NULL if unknown */
    const char *file;       /* NULL if unknown */
    int line;               /* 0 if unknown */
    const char *module;     /* basename of the object file, NULL if unknown */
    uintptr_t module_offset;
};
/* Symbolizes pc (a return address: looks up pc-1 for call sites when
 * is_return_address). Always fills module/pc; returns false if no symbol. */
bool goldi_symbolize(uintptr_t pc, bool is_return_address, struct goldi_frame *out);
/* Name of the global data object containing addr ("counter"), its start and
 * size; false if addr is not inside a known data symbol. */
bool goldi_symbolize_data(uintptr_t addr, const char **name, uintptr_t *start, size_t *size,
                          const char **module, uintptr_t *module_offset);

#endif

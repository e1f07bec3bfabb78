/* Offline analysis: one trace (binary, text or STD) replayed through engines
 * in this process, with race reports from report/ and the numbers of the
 * comparison table (`goldi analyze`, which runs each engine in its own child
 * process so time and memory are its alone). Freestanding. */
#ifndef GOLDI_TRACE_ANALYZE_H
#define GOLDI_TRACE_ANALYZE_H

#include "../engine/engine.h"
#include "../report/report.h"
#include "reader.h"

enum goldi_trace_format {
    GOLDI_TRACE_FMT_AUTO,
    GOLDI_TRACE_FMT_BINARY,   /* format.h: goldi record / goldi convert */
    GOLDI_TRACE_FMT_TEXT,     /* ALGORITHMS.md 1.5 (.gtrace) */
    GOLDI_TRACE_FMT_STD,      /* RAPID STD */
};

/* Binary if the magic matches; STD if the first event line has the
 * T|op(x)|loc shape; else text. */
enum goldi_trace_format goldi_trace_detect(const char *data, size_t len);
const char *goldi_trace_format_name(enum goldi_trace_format f);
/* "binary", "text", "std", "auto" -> format; false if unknown. */
bool goldi_trace_format_parse(const char *s, enum goldi_trace_format *out);

struct goldi_analyze_stat {
    char name[64];
    uint64_t value;
};

struct goldi_analyze_result {
    enum goldi_trace_format format;
    uint64_t events;          /* goldi_events dispatched */
    uint64_t accesses;        /* access events (size > 0) */
    uint64_t checks;          /* granule pieces handed to on_access */
    uint64_t races;           /* reports (distinct location pairs, report/) */
    uint64_t race_records;    /* goldi_race records the engines emitted */
    uint64_t time_ns;         /* replay */
    size_t alloc_peak;        /* goldi_alloc bytes in use, peak (sampled) */
    size_t shadow_bytes;      /* shadow mapped at the end */
    unsigned n_stats;
    struct goldi_analyze_stat stats[128];   /* engine counters (ops->stats) */
};

struct goldi_analyze_config {
    const struct goldi_engine_ops *engines[GOLDI_MAX_ENGINES];
    unsigned n_engines;
    struct goldi_report_config report;   /* fd, limits; hooks are analyze's own except: */
    /* Binary traces: symbolizer of the recorded program (the CLI uses libdw
     * on the recorded executable). NULL: module+offset from the trace's
     * module map only. */
    bool (*symbolize)(uintptr_t pc, bool is_return_address, struct goldi_frame *out);
    bool (*symbolize_data)(uintptr_t addr, const char **name, uintptr_t *start, size_t *size,
                           const char **module, uintptr_t *module_offset);
    /* Called once a binary trace is opened, before the replay (set up the
     * symbolizer with its modules). May be NULL. */
    void (*prepare)(void *ctx, const struct goldi_trace_info *info);
    /* Every race record an engine emits, before report/ sees it. May be NULL. */
    void (*on_race)(void *ctx, const struct goldi_race *r);
    void *ctx;
    bool allow_partial;       /* binary traces without END */
    bool skip_checks;         /* binary traces: ignore chunk check values (testing) */
};

/* Runs cfg's engines over data[0..len) (path: for messages and frames).
 * Returns 0, or -EINVAL with the reader's/parser's message in err. One run
 * per process (engines and sync objects cannot be detached). */
int goldi_analyze_run(const char *path, const char *data, size_t len, enum goldi_trace_format format,
                      const struct goldi_analyze_config *cfg, struct goldi_analyze_result *res, char *err,
                      size_t errlen);

/* The frame the current run's symbolizer gives pc (trace lines for text and
 * STD traces, location names of converted traces, else cfg->symbolize). */
bool goldi_analyze_symbolize(uintptr_t pc, bool is_return_address, struct goldi_frame *out);

#endif

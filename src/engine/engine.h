/* Contract between the event pipe and the race-detection engines.
 * An engine is a goldi_sink built by its ops->create; it reports races through
 * the callback in its env and never calls into rt/, intercept/ or report/. */
#ifndef GOLDI_ENGINE_H
#define GOLDI_ENGINE_H

#include "../event/event.h"

/* One race found by an engine: the current access conflicts with an earlier
 * one that happens-before does not order. Engines report at most one record
 * per (access event, earlier origin); [addr, addr+size) is the racy part of
 * the current access inside one granule (report/ merges and deduplicates). */
struct goldi_race {
    uintptr_t addr;
    uint32_t size;
    goldi_origin_t cur;          /* current access */
    goldi_origin_t prev;         /* earlier conflicting access */
    goldi_tid_t cur_tid, prev_tid;
    bool cur_write, prev_write;  /* writes include RMWs and free */
    bool cur_atomic, prev_atomic;
    const char *engine;          /* engine name */
    char why[160];               /* engine-specific ordering explanation */
};

struct goldi_engine_env {
    unsigned index;              /* estate slot for threads and tokens */
    unsigned plane;              /* shadow plane owned by this engine */
    void (*report)(void *ctx, const struct goldi_race *r);
    void *report_ctx;
};

struct goldi_engine_ops {
    const char *name;
    const char *summary;         /* one line for help output */
    /* Builds the engine; fills sink->self and its callbacks (name and index are set by the caller). */
    void (*create)(const struct goldi_engine_env *env, struct goldi_sink *sink);
    /* Optional counters for stats output: writes "name value" pairs via emit. */
    void (*stats)(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx);
};

extern const struct goldi_engine_ops goldi_engine_goldilocks;
extern const struct goldi_engine_ops goldi_engine_vc;
extern const struct goldi_engine_ops goldi_engine_fasttrack;
extern const struct goldi_engine_ops goldi_engine_jrf;
extern const struct goldi_engine_ops goldi_engine_eraser;
extern const struct goldi_engine_ops goldi_engine_hybrid_short;
extern const struct goldi_engine_ops goldi_engine_hybrid_long;
extern const struct goldi_engine_ops goldi_engine_fastrcd;
extern const struct goldi_engine_ops goldi_engine_valor;

/* All engines, for name lookup and help; NULL-terminated. */
extern const struct goldi_engine_ops *const goldi_engines[];
const struct goldi_engine_ops *goldi_engine_find(const char *name, size_t len);


/* Creates engine ops with a fresh estate index and shadow plane, attaches it to
 * the dispatcher and returns its sink. report/ctx receive its races. */
struct goldi_sink *goldi_engine_start(const struct goldi_engine_ops *ops,
                                      void (*report)(void *ctx, const struct goldi_race *r), void *ctx);

#endif

/* The list of engines selectable with engine=NAME. */
#include "engine.h"
#include "../base/fmt.h"

const struct goldi_engine_ops *const goldi_engines[] = {
    &goldi_engine_goldilocks,
    &goldi_engine_vc,
    &goldi_engine_fasttrack,
    &goldi_engine_jrf,
    &goldi_engine_eraser,
    &goldi_engine_hybrid_short,
    &goldi_engine_hybrid_long,
    &goldi_engine_fastrcd,
    &goldi_engine_valor,
    NULL,
};

const struct goldi_engine_ops *goldi_engine_find(const char *name, size_t len) {
    for (const struct goldi_engine_ops *const *e = goldi_engines; *e; e++)
        if (goldi_strlen((*e)->name) == len && goldi_strncmp((*e)->name, name, len) == 0)
            return *e;
    return NULL;
}

#include "../base/alloc.h"
#include "../shadow/shadow.h"

static unsigned n_started;

struct goldi_sink *goldi_engine_start(const struct goldi_engine_ops *ops,
                                      void (*report)(void *ctx, const struct goldi_race *r), void *ctx) {
    GOLDI_CHECK_OP(n_started, <, GOLDI_MAX_ENGINES);
    struct goldi_engine_env env = {
        .index = n_started++,
        .plane = goldi_shadow_plane_new(),
        .report = report,
        .report_ctx = ctx,
    };
    struct goldi_sink *sink = goldi_alloc(sizeof *sink);
    sink->name = ops->name;
    sink->index = env.index;
    sink->plane = env.plane;
    ops->create(&env, sink);
    goldi_dispatch_attach(sink);
    return sink;
}

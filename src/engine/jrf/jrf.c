/* Placeholder for the jrf engine while it is being written: attaches and
 * sees every event but checks nothing. Replaced by the real engine. */
#include "../engine.h"

static void create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    (void)env;
    sink->self = NULL;
}

const struct goldi_engine_ops goldi_engine_jrf = {
    .name = "jrf",
    .summary = "jrf (not yet implemented: reports nothing)",
    .create = create,
};

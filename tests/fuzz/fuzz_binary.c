/* libFuzzer target: the binary trace reader (src/trace/reader.c). Opens the
 * input with check values ignored (so mutations reach the decoders), decodes
 * and checks every record in global order, as goldi analyze does before
 * replaying, and if that passes replays it through goldi_dispatch (threads,
 * sync objects, shadow stacks; no engine attached). Any crash, sanitizer
 * report or hang is a bug. */
#include <stddef.h>
#include <stdint.h>

#include "trace/names.h"
#include "trace/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct goldi_trace_read_opts o = {.allow_partial = size & 1, .skip_checks = true};
    struct goldi_trace *t;
    char err[256];
    if (goldi_trace_open(data, size, &o, &t, err, sizeof err) == 0) {
        int rc = goldi_trace_replay(t, false, NULL, err, sizeof err);
        goldi_trace_close(t);
        if (rc == 0 && goldi_trace_open(data, size, &o, &t, err, sizeof err) == 0) {
            goldi_trace_replay(t, true, NULL, err, sizeof err);
            goldi_trace_close(t);
        }
    }
    goldi_trace_name_clear();
    return 0;
}

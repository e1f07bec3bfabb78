/* libFuzzer target: the RAPID STD importer (src/trace/std.c), dispatching
 * into the event pipe with no engine attached. */
#include <stddef.h>
#include <stdint.h>

#include "trace/names.h"
#include "trace/std.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[256];
    goldi_std_run((const char *)data, size, NULL, err, sizeof err);
    goldi_std_release_threads();
    goldi_trace_name_clear();
    return 0;
}

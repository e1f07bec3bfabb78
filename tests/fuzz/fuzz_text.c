/* libFuzzer target: the text trace parser (src/trace/text.c, ALGORITHMS.md
 * 1.5), dispatching into the event pipe with no engine attached. */
#include <stddef.h>
#include <stdint.h>

#include "trace/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[256];
    struct goldi_text_trace_result r;
    goldi_text_trace_run((const char *)data, size, &r, err, sizeof err);
    goldi_text_trace_result_free(&r);
    return 0;
}

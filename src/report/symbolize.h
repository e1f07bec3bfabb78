/* report/-internal side of the symbolizer (symbolize.c); the public calls
 * goldi_symbolize / goldi_symbolize_data are declared in report.h. */
#ifndef GOLDI_REPORT_SYMBOLIZE_H
#define GOLDI_REPORT_SYMBOLIZE_H

#include "report.h"

/* symbolize=0: never load libdw; frames then carry only module+offset.
 * Switching drops the per-pc cache (the answers differ). */
void goldi_symbolize_set_debuginfo(bool on);
/* True once libdw was loaded and a session started (tests, diagnostics). */
bool goldi_symbolize_have_libdw(void);
/* The loaded object whose segments contain addr: its basename and addr's
 * offset from the object's load bias (what addr2line -e module expects).
 * Needs no debug information; false if addr is in no loaded object. */
bool goldi_symbolize_module(uintptr_t addr, const char **module, uintptr_t *module_offset);

#endif

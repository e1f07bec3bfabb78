/* Names of the synthetic objects of converted traces: an STD trace's
 * variables, locks, threads and program locations have names, not addresses.
 * Importers register them here; the binary writer stores them in a NAMES
 * chunk, the reader loads them back, and the STD exporter and `goldi analyze`
 * print them. One process-wide table; freestanding. */
#ifndef GOLDI_TRACE_NAMES_H
#define GOLDI_TRACE_NAMES_H

#include "../base/base.h"

enum goldi_trace_name_kind {
    GOLDI_TRACE_NAME_VAR = 0,     /* key: address of the variable's 8-byte slot */
    GOLDI_TRACE_NAME_LOCK = 1,    /* key: address of the lock object */
    GOLDI_TRACE_NAME_THREAD = 2,  /* key: tid */
    GOLDI_TRACE_NAME_LOC = 3,     /* key: pc of an event -> its source location string */
    GOLDI_TRACE_NAME_KINDS
};

/* Sets (or replaces) the name of (kind, key); name[0..len) is copied. */
void goldi_trace_name_set(unsigned kind, uint64_t key, const char *name, size_t len);
/* The name of (kind, key), NUL-terminated, or NULL. */
const char *goldi_trace_name_get(unsigned kind, uint64_t key);
size_t goldi_trace_name_count(void);
/* Calls fn for every name, in the order they were first set. */
void goldi_trace_name_for_each(void (*fn)(void *ctx, unsigned kind, uint64_t key, const char *name), void *ctx);
/* Forgets every name. */
void goldi_trace_name_clear(void);

#endif

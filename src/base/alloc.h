/* The runtime's own allocator: mmap-backed size classes, never calls malloc,
 * so it is usable inside interceptors, signal handlers and before libc init. */
#ifndef GOLDI_ALLOC_H
#define GOLDI_ALLOC_H

#include "base.h"

/* Zero-filled memory of at least n bytes, 16-byte aligned. Dies on OOM. */
void *goldi_alloc(size_t n);
/* goldi_alloc for a thread's state (the runtime's, an engine's): freed
 * with goldi_free, which keeps a few such blocks mapped for the next
 * threads' state of the same size (zeroed again when handed out, except
 * bytes [keep_off, keep_off + keep_len): caches the caller makes stale by
 * other means come back as the last thread left them; 8-byte aligned). */
void *goldi_alloc_thread_state(size_t n, size_t keep_off, size_t keep_len);
/* Frees memory from goldi_alloc/goldi_realloc (NULL is a no-op). */
void goldi_free(void *p);
/* p (NULL: a new block) with room for n bytes, its contents kept and the
 * bytes past them zero; a block of more than 32 KiB grows without a copy. */
void *goldi_realloc(void *p, size_t n);
/* Bytes currently handed out by goldi_alloc (for stats and memory tests). */
size_t goldi_alloc_bytes_in_use(void);

/* Whole pages straight from the OS (zeroed); n is rounded up to pages. */
void *goldi_mmap(size_t n);
void goldi_munmap(void *p, size_t n);

#endif

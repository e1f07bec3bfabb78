/* zstd, loaded at run time: instrumented programs must not need -lzstd (the
 * runtime dlopen's libzstd.so.1 when a trace is recorded), and the CLI and
 * fuzzers share the same code. Without the library traces are written
 * uncompressed and compressed chunks cannot be read (a clear error). */
#ifndef GOLDI_TRACE_ZSTD_H
#define GOLDI_TRACE_ZSTD_H

#include "../base/base.h"

/* Loads the library once; false if unavailable. Thread-safe. */
bool goldi_trace_zstd_available(void);
/* Upper bound of the compressed size of n bytes. */
size_t goldi_trace_zstd_bound(size_t n);
/* A compression context (NULL if unavailable); free with _cctx_free. */
void *goldi_trace_zstd_cctx_new(void);
void goldi_trace_zstd_cctx_free(void *cctx);
/* Compresses src into dst; returns the size, or 0 on failure. */
size_t goldi_trace_zstd_compress(void *cctx, void *dst, size_t cap, const void *src, size_t n, int level);
/* Decompresses a frame of exactly want bytes into dst; false if src is not
 * one valid frame of that size. */
bool goldi_trace_zstd_decompress(void *dst, size_t want, const void *src, size_t n);

#endif

/* Run-time binding of libzstd (see zstd.h). dlopen/dlsym are loader services,
 * not syscalls (as in report/symbolize.c); the runtime calls this inside
 * goldi_rt_enter, so zstd's own mallocs pass through the interceptors. */
#include "zstd.h"
#include "../base/spinlock.h"

#include <dlfcn.h>

static struct {
    size_t (*bound)(size_t);
    void *(*cctx_new)(void);
    size_t (*cctx_free)(void *);
    size_t (*compress)(void *, void *, size_t, const void *, size_t, int);
    void *(*dctx_new)(void);
    size_t (*decompress)(void *, void *, size_t, const void *, size_t);
    unsigned (*is_error)(size_t);
} z;

enum { Z_UNTRIED, Z_READY, Z_MISSING };
static _Atomic int state;
static goldi_spinlock_t lock = GOLDI_SPINLOCK_INIT;
static goldi_spinlock_t dctx_lock = GOLDI_SPINLOCK_INIT;
static void *dctx;

static void load_locked(void) {
    void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    *(void **)&z.bound = dlsym(h, "ZSTD_compressBound");
    *(void **)&z.cctx_new = dlsym(h, "ZSTD_createCCtx");
    *(void **)&z.cctx_free = dlsym(h, "ZSTD_freeCCtx");
    *(void **)&z.compress = dlsym(h, "ZSTD_compressCCtx");
    *(void **)&z.dctx_new = dlsym(h, "ZSTD_createDCtx");
    *(void **)&z.decompress = dlsym(h, "ZSTD_decompressDCtx");
    *(void **)&z.is_error = dlsym(h, "ZSTD_isError");
    if (z.bound && z.cctx_new && z.cctx_free && z.compress && z.dctx_new && z.decompress && z.is_error)
        atomic_store(&state, Z_READY);
}

bool goldi_trace_zstd_available(void) {
    int s = atomic_load(&state);
    if (GOLDI_LIKELY(s != Z_UNTRIED))
        return s == Z_READY;
    goldi_spin_lock(&lock);
    if (atomic_load(&state) == Z_UNTRIED) {
        load_locked();
        if (atomic_load(&state) != Z_READY)
            atomic_store(&state, Z_MISSING);
    }
    goldi_spin_unlock(&lock);
    return atomic_load(&state) == Z_READY;
}

size_t goldi_trace_zstd_bound(size_t n) { return goldi_trace_zstd_available() ? z.bound(n) : 0; }

void *goldi_trace_zstd_cctx_new(void) { return goldi_trace_zstd_available() ? z.cctx_new() : NULL; }

void goldi_trace_zstd_cctx_free(void *cctx) {
    if (cctx && goldi_trace_zstd_available())
        z.cctx_free(cctx);
}

size_t goldi_trace_zstd_compress(void *cctx, void *dst, size_t cap, const void *src, size_t n, int level) {
    if (!cctx || !goldi_trace_zstd_available())
        return 0;
    size_t r = z.compress(cctx, dst, cap, src, n, level);
    return z.is_error(r) ? 0 : r;
}

bool goldi_trace_zstd_decompress(void *dst, size_t want, const void *src, size_t n) {
    if (!goldi_trace_zstd_available())
        return false;
    goldi_spin_lock(&dctx_lock);
    if (!dctx)
        dctx = z.dctx_new();
    size_t r = dctx ? z.decompress(dctx, dst, want, src, n) : 1;
    bool ok = dctx && !z.is_error(r) && r == want;
    goldi_spin_unlock(&dctx_lock);
    return ok;
}

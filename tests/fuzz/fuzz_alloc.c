/* Fuzz builds only: goldi_alloc on top of malloc, so AddressSanitizer sees
 * the bounds of every block the trace readers allocate (the real allocator,
 * src/base/alloc.c, carves blocks out of mmap'ed arenas ASan knows nothing
 * about). Replaces alloc.c in the fuzz targets. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/alloc.h"

static _Atomic size_t in_use;

void *goldi_alloc(size_t n) {
    size_t *p = calloc(1, n + 16);
    if (!p)
        goldi_die("out of memory");
    p[0] = n;
    in_use += n;
    return (char *)p + 16;
}

void goldi_free(void *q) {
    if (!q)
        return;
    size_t *p = (size_t *)((char *)q - 16);
    in_use -= p[0];
    free(p);
}

void *goldi_realloc(void *q, size_t n) {
    void *r = goldi_alloc(n);
    if (q) {
        size_t old = *(size_t *)((char *)q - 16);
        memcpy(r, q, old < n ? old : n);
        goldi_free(q);
    }
    return r;
}

size_t goldi_alloc_bytes_in_use(void) { return in_use; }

void *goldi_mmap(size_t n) {
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        goldi_die("out of memory (mmap failed)");
    return p;
}

void goldi_munmap(void *p, size_t n) { munmap(p, n); }

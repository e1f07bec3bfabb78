/* Mapping interceptors: mmap, munmap and mremap end and start lifetimes,
 * as free and malloc do. Memory unmapped by one thread and mapped again at
 * the same address by another is new memory: without these, the old
 * mapping's history stayed in the shadow and its accesses were reported
 * against the new mapping's (a false race, and its sync objects lived on).
 *
 *   mmap:    after it succeeds, ALLOC of the new range (it may also replace
 *            an old mapping there, MAP_FIXED) and its sync objects dropped;
 *   munmap:  before the real call, FREE of the range (a write of all of it:
 *            another thread's access to the mapping not ordered before the
 *            unmapping is reported, as for free), sync objects dropped;
 *   mremap:  the bytes that leave the mapping as munmap (before the call),
 *            the bytes that join it as mmap (after).
 *
 * The ranges the program did not map itself are not seen: the C library's
 * own mappings (malloc's large blocks, thread stacks) go through the
 * malloc and thread interceptors, and the runtime maps its own memory with
 * raw system calls. A thread inside the runtime (libdw reading debug
 * information) passes straight through. */
#define _GNU_SOURCE
#include "mapping.h"
#include "../../shadow/shadow.h"

#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4   /* (Linux 5.7; older headers lack it) */
#endif

GOLDI_REAL_SLOT(mmap);
GOLDI_REAL_SLOT(munmap);
GOLDI_REAL_SLOT(mremap);

size_t goldi_icpt_page_span(uintptr_t addr, size_t len) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (!len || (addr & (page - 1)) || len > SIZE_MAX - page)
        return 0;
    return (len + page - 1) & ~(page - 1);
}

/* The end of the part of [a, end) whose shadow holds state (some plane has
 * its leaf), a being the start of such a part (goldi_shadow_next_recorded). */
static uintptr_t recorded_end(uintptr_t a, uintptr_t end) {
    const uintptr_t leaf = UINT64_C(1) << GOLDI_SHADOW_LEAF_BITS;
    while (a < end && goldi_shadow_next_recorded(a, end) == a) {
        uintptr_t next = (a | (leaf - 1)) + 1;
        a = next > end || next == 0 ? end : next;
    }
    return a;
}

enum lifetime_change {
    STARTS,      /* mapped: ALLOC */
    ENDS,        /* about to be unmapped: FREE, and the shadow given back */
    GONE,        /* unmapped by a call that says so only after it (an mremap
                  * that moved, a dlclose that unloaded): ALLOC, and the shadow
                  * given back */
};

/* [addr, addr+n) starts (fresh) or ends its lifetime, for the parts that
 * hold state: the rest has none to check or clear (a reservation of 64 GiB
 * costs a directory lookup per MiB, not an event per granule). */
static void lifetime(struct goldi_rt_thread *t, uintptr_t addr, size_t n, enum lifetime_change change,
                     uintptr_t pc) {
    uintptr_t end = addr + n;
    if (!n || end < addr)
        return;
    for (uintptr_t a = goldi_shadow_next_recorded(addr, end); a < end; a = goldi_shadow_next_recorded(a, end)) {
        uintptr_t b = recorded_end(a, end);
        if (change == ENDS)
            goldi_icpt_emit_free(t, a, b - a, pc);
        else
            goldi_icpt_emit_alloc(t, a, b - a, pc);
        struct goldi_rt_thread *e = goldi_rt_enter();
        goldi_sync_forget_range(a, b - a);
        if (change != STARTS)
            goldi_shadow_discard(a, b - a);   /* memory that is gone: its shadow too */
        goldi_rt_leave(e);
        a = b;
    }
}

void goldi_icpt_mapped(struct goldi_rt_thread *t, uintptr_t addr, size_t n, uintptr_t pc) {
    lifetime(t, addr, n, STARTS, pc);
}

void goldi_icpt_unmapping(struct goldi_rt_thread *t, uintptr_t addr, size_t n, uintptr_t pc) {
    lifetime(t, addr, n, ENDS, pc);
}

void goldi_icpt_unmapped(struct goldi_rt_thread *t, uintptr_t addr, size_t n, uintptr_t pc) {
    lifetime(t, addr, n, GONE, pc);
}

static void *real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    if (GOLDI_UNLIKELY(goldi_real_resolving()))   /* (dlsym itself mapping: not expected) */
        return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
    return GOLDI_REAL(mmap)(addr, len, prot, flags, fd, off);
}

static void *do_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off, uintptr_t pc) {
    void *p = real_mmap(addr, len, prot, flags, fd, off);
    if (p == MAP_FAILED)
        return p;
    size_t n = goldi_icpt_page_span((uintptr_t)p, len);
    if (flags & MAP_FIXED)   /* (only a fixed mapping can replace an attachment) */
        goldi_icpt_attachments_forget((uintptr_t)p, n);
    struct goldi_rt_thread *t = goldi_icpt_map_thread();
    if (t)
        goldi_icpt_mapped(t, (uintptr_t)p, n, pc);
    return p;
}

GOLDI_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    return do_mmap(addr, len, prot, flags, fd, off, GOLDI_CALLER_PC());
}

GOLDI_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    return do_mmap(addr, len, prot, flags, fd, off, GOLDI_CALLER_PC());
}

GOLDI_EXPORT int munmap(void *addr, size_t len) {
    /* Before the call: once the range is unmapped another thread may map
     * it and use it, and its history must not be the one cleared. A range
     * the kernel refuses (goldi_icpt_page_span 0) changes nothing. */
    struct goldi_rt_thread *t = goldi_icpt_map_thread();
    uintptr_t a = (uintptr_t)addr;
    size_t n = goldi_icpt_page_span(a, len);
    goldi_icpt_attachments_forget(a, n);
    if (t)
        goldi_icpt_unmapping(t, a, n, GOLDI_CALLER_PC());
    if (GOLDI_UNLIKELY(goldi_real_resolving()))
        return (int)syscall(SYS_munmap, addr, len);
    return GOLDI_REAL(munmap)(addr, len);
}

GOLDI_EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...) {
    void *want = NULL;
    if (flags & MREMAP_FIXED) {
        va_list ap;
        va_start(ap, flags);
        want = va_arg(ap, void *);
        va_end(ap);
    }
    uintptr_t pc = GOLDI_CALLER_PC(), o = (uintptr_t)old;
    struct goldi_rt_thread *t = goldi_icpt_map_thread();
    size_t olds = goldi_icpt_page_span(o, old_len), news = goldi_icpt_page_span(o, new_len);
    goldi_icpt_attachments_forget(o, olds);   /* (a remapped attachment: shmdt then asks /proc/self/maps) */
    if (flags & MREMAP_FIXED)   /* (the target range is replaced, as by MAP_FIXED) */
        goldi_icpt_attachments_forget((uintptr_t)want, goldi_icpt_page_span((uintptr_t)want, new_len));
    /* A shrink in place drops the tail: it ends before the call, as munmap. */
    if (t && olds && news && news < olds && !(flags & MREMAP_FIXED))
        goldi_icpt_unmapping(t, o + news, olds - news, pc);
    void *p = (flags & MREMAP_FIXED) ? GOLDI_REAL(mremap)(old, old_len, new_len, flags, want)
                                     : GOLDI_REAL(mremap)(old, old_len, new_len, flags);
    if (p == MAP_FAILED || !t || !olds || !news)
        return p;
    uintptr_t q = (uintptr_t)p;
    if (q == o && news > olds) {
        goldi_icpt_mapped(t, o + olds, news - olds, pc);   /* grown in place */
    } else if (q != o) {
        /* Moved, which is known only now: the old range is new memory too
         * (gone, or zero pages under MREMAP_DONTUNMAP), and unless it stays
         * mapped its shadow goes back to the system. Should another thread
         * map it and use it before this line, that use's history is
         * cleared: a race missed in that window, never a false one. */
        lifetime(t, o, olds, (flags & MREMAP_DONTUNMAP) ? STARTS : GONE, pc);
        goldi_icpt_mapped(t, q, news, pc);
    }
    return p;
}

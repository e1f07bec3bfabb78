/* Unloading interceptor: a dlclose that unloads a shared object gives the
 * memory the object was mapped at a fresh lifetime, as mremap does for the
 * range it moved away from (mapping.h). The loader maps and unmaps objects
 * with its own internal calls, which no interceptor sees: without this, an
 * unloaded library's data kept its history in the shadow, and a library
 * loaded at the same address later by another thread (the same one
 * reloaded: a plugin reload) had its accesses checked against that history,
 * a false race (the loader's lock is internal to the C library, no
 * synchronisation a detector sees).
 *
 *   dlclose: before the real call, the object's span: its PT_LOAD segments
 *            from the lowest to the highest page, which is what the loader
 *            reserves and unmaps as one (read-only pages too: strlen of a
 *            literal reads them, and another object's data may land there);
 *            after it, if the object is no longer loaded, ALLOC of the span
 *            and its shadow given back.
 *
 * Whether the object goes is known only after the call (the handle may not
 * be its last reference, another object may need it, RTLD_NODELETE): its
 * lifetime cannot end before the call, with a FREE checked as a write, as
 * munmap's does. So an access to the object's data by another thread not
 * ordered before the unload is not reported. Objects unloaded along with it
 * (dependencies nothing else uses) are not seen.
 *
 * dlinfo and dl_iterate_phdr are loader services: they take the loader's
 * lock and allocate nothing here. The runtime closes no object itself; libdw
 * may, on a thread inside the runtime, which passes straight through, as
 * every thread does before the runtime is up. */
#define _GNU_SOURCE
#include "mapping.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <unistd.h>

GOLDI_REAL_SLOT(dlclose);

/* The object behind a handle, as the loader's list shows it. */
struct loaded_object {
    uintptr_t bias;             /* l_addr, which is dlpi_addr */
    uint64_t name_hash;         /* of l_name, which is dlpi_name: the string
                                 * goes with the object, the hash stays */
    uintptr_t start;            /* its span, page-aligned */
    size_t n;
    unsigned long long unloads; /* dlpi_subs before the dlclose */
};

/* One walk of the loader's list (dl_iterate_phdr) for the object. */
struct object_search {
    struct loaded_object *obj;
    bool after_close;   /* the walk after dlclose: it only asks "still there?" */
    bool loaded;        /* the object is (still) in the list */
};

static uint64_t name_hash(const char *s) {
    uint64_t h = UINT64_C(1469598103934665603);   /* FNV-1a */
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

/* From the lowest to the highest page of the object's PT_LOAD segments;
 * n stays 0 if it has none. */
static void object_span(const struct dl_phdr_info *info, struct loaded_object *o) {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !ph->p_memsz)
            continue;
        if (ph->p_vaddr < lo)
            lo = ph->p_vaddr;
        if (ph->p_vaddr + ph->p_memsz > hi)
            hi = ph->p_vaddr + ph->p_memsz;
    }
    if (lo >= hi)
        return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    o->start = (info->dlpi_addr + lo) & ~(page - 1);
    o->n = goldi_icpt_page_span(o->start, info->dlpi_addr + hi - o->start);
}

static int visit_object(struct dl_phdr_info *info, size_t size, void *arg) {
    struct object_search *s = arg;
    struct loaded_object *o = s->obj;
    /* dlpi_subs counts the objects ever unloaded (glibc 2.4 on; size says
     * whether the loader fills it). Unchanged across the dlclose: nothing
     * was unloaded, no need to look further. */
    bool counts = size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs;
    if (counts && !s->after_close) {
        o->unloads = info->dlpi_subs;
    } else if (counts && info->dlpi_subs == o->unloads) {
        s->loaded = true;   /* nothing was unloaded, so it still is */
        return 1;
    }
    if (info->dlpi_addr != o->bias || name_hash(info->dlpi_name) != o->name_hash)
        return 0;
    s->loaded = true;
    if (!s->after_close)
        object_span(info, o);
    return 1;
}

/* The object behind handle and its span; false if the loader does not say. */
static bool find_object(void *handle, struct loaded_object *o) {
    struct link_map *lm = NULL;
    if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
        return false;
    o->bias = lm->l_addr;
    o->name_hash = name_hash(lm->l_name);
    o->n = 0;
    o->unloads = 0;
    struct object_search s = { .obj = o, .after_close = false, .loaded = false };
    dl_iterate_phdr(visit_object, &s);
    return s.loaded && o->n;
}

/* True if the object is still loaded after the dlclose. The same object
 * loaded again at the same address by another thread in between looks
 * still loaded: its old history stays (a window of a few microseconds). */
static bool still_loaded(struct loaded_object *o) {
    struct object_search s = { .obj = o, .after_close = true, .loaded = false };
    dl_iterate_phdr(visit_object, &s);
    return s.loaded;
}

GOLDI_EXPORT int dlclose(void *handle) {
    struct goldi_rt_thread *t = goldi_icpt_map_thread();
    struct loaded_object o;
    bool known = t && find_object(handle, &o);
    int r = GOLDI_REAL(dlclose)(handle);
    if (r != 0 || !known)
        return r;
    int saved_errno = errno;
    /* After the call, which unmapped the span: should another thread load
     * something else there before this line, its accesses' history is
     * cleared too: a race missed in that window, never a false one (short
     * of a lock there already passed between threads: its sync object is
     * dropped with the rest, as for mremap). */
    if (!still_loaded(&o))
        goldi_icpt_unmapped(t, o.start, o.n, GOLDI_CALLER_PC());
    errno = saved_errno;
    return r;
}

/* Stack and data symbolization for reports. elfutils' libdw is dlopen'ed on
 * first use (instrumented programs must not need -ldw); without it, or with
 * symbolize=0, frames still get module+offset from dl_iterate_phdr.
 * Runs inside the user's process while its threads go on: one spinlock
 * serialises everything here, and our own memory comes only from goldi_alloc
 * (libdw mallocs internally; the caller is inside the runtime, so the malloc
 * interceptor passes those calls through). */
#define _GNU_SOURCE   /* dl_iterate_phdr */
#include "report.h"
#include "../base/atfork.h"
#include "symbolize.h"
#include "dwfl_abi.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../base/spinlock.h"
#include "../platform/platform.h"

/* dlopen/dlsym and dl_iterate_phdr: loader services, not syscalls; kept in
 * this one file so the rest of report/ stays libc-free. */
#include <dlfcn.h>
#include <stdlib.h>   /* free() of __cxa_demangle's result */
#include <link.h>

static goldi_spinlock_t sym_lock = GOLDI_SPINLOCK_INIT;

/* --- libdw, resolved at run time --------------------------------------- */

static struct {
#define GOLDI_DWFL_PTR(ret, name, params) ret(*name) params;
    GOLDI_DWFL_FUNCTIONS(GOLDI_DWFL_PTR)
#undef GOLDI_DWFL_PTR
} dw;

enum { DW_UNTRIED, DW_READY, DW_UNAVAILABLE };
static int dw_state = DW_UNTRIED;      /* guarded by sym_lock */
static bool use_debuginfo = true;      /* symbolize= option */
static Dwfl *dwfl;
/* libdw keeps pointers to both for the whole session: static storage. */
static struct goldi_dwfl_callbacks dw_callbacks;
static char *dw_debuginfo_path;        /* NULL: libdw's default search path */

/* Reads /proc/self/maps again. dwfl_report_begin keeps modules that are
 * re-reported, so this only opens objects dlopen'ed since the last time. */
static void dw_report_modules_locked(void) {
    dw.dwfl_report_begin(dwfl);
    dw.dwfl_linux_proc_report(dwfl, goldi_os_getpid());
    dw.dwfl_report_end(dwfl, NULL, NULL);
}

/* Loads libdw and starts the session once; false if that failed (then we
 * never try again: a missing library stays missing). */
static bool dw_ready_locked(void) {
    if (dw_state != DW_UNTRIED)
        return dw_state == DW_READY;
    dw_state = DW_UNAVAILABLE;
    void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return false;
    /* The two callbacks are libdw's own functions: their addresses go into
     * the Dwfl_Callbacks that dwfl_begin keeps. */
    *(void **)&dw_callbacks.find_elf = dlsym(h, "dwfl_linux_proc_find_elf");
    *(void **)&dw_callbacks.find_debuginfo = dlsym(h, "dwfl_standard_find_debuginfo");
    dw_callbacks.debuginfo_path = &dw_debuginfo_path;
    bool ok = dw_callbacks.find_elf && dw_callbacks.find_debuginfo;
#define GOLDI_DWFL_SYM(ret, name, params)                                              \
    *(void **)&dw.name = dlsym(h, #name);                                              \
    ok = ok && dw.name != NULL;
    GOLDI_DWFL_FUNCTIONS(GOLDI_DWFL_SYM)
#undef GOLDI_DWFL_SYM
    if (!ok)
        return false;   /* a libdw too old or odd to use; keep it loaded, harmless */
    dwfl = dw.dwfl_begin(&dw_callbacks);
    if (!dwfl)
        return false;
    dw_report_modules_locked();
    dw_state = DW_READY;
    return true;
}

/* --- interned strings: copies of libdw's strings, valid for ever ----------
 * libdw's strings live in mapped ELF files that go away when a module is
 * dropped at a refresh, and reports hand out strings "valid for ever". */

struct str_ent { uint64_t hash; const char *s; };
static struct str_ent *strs;
static size_t strs_cap, strs_n;
static char *arena;
static size_t arena_left;
#define ARENA_CHUNK 65536

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;          /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h | 1;                                 /* 0 marks an empty slot */
}

static char *arena_dup(const char *s, size_t n) {
    char *p;
    if (n + 1 > ARENA_CHUNK / 4) {
        p = goldi_alloc(n + 1);                   /* big strings get their own block */
    } else {
        if (arena_left < n + 1) {
            arena = goldi_alloc(ARENA_CHUNK);
            arena_left = ARENA_CHUNK;
        }
        p = arena;
        arena += n + 1;
        arena_left -= n + 1;
    }
    goldi_memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static void strs_insert(uint64_t h, const char *s) {
    size_t i = h & (strs_cap - 1);
    while (strs[i].hash)
        i = (i + 1) & (strs_cap - 1);
    strs[i].hash = h;
    strs[i].s = s;
}

static const char *intern_n_locked(const char *s, size_t n) {
    if (!s)
        return NULL;
    if (2 * (strs_n + 1) > strs_cap) {
        struct str_ent *old = strs;
        size_t old_cap = strs_cap;
        strs_cap = strs_cap ? 2 * strs_cap : 256;
        strs = goldi_alloc(strs_cap * sizeof *strs);
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].hash)
                strs_insert(old[i].hash, old[i].s);
        goldi_free(old);
    }
    uint64_t h = hash_bytes(s, n);
    size_t i = h & (strs_cap - 1);
    for (; strs[i].hash; i = (i + 1) & (strs_cap - 1))
        if (strs[i].hash == h && goldi_strncmp(strs[i].s, s, n) == 0 && strs[i].s[n] == 0)
            return strs[i].s;
    const char *copy = arena_dup(s, n);
    strs_insert(h, copy);
    strs_n++;
    return copy;
}

static const char *intern_locked(const char *s) {
    return s ? intern_n_locked(s, goldi_strlen(s)) : NULL;
}

static const char *basename_of(const char *path) {
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            b = p + 1;
    return b;
}

/* --- modules via the loader's list (works without libdw) ----------------- */

struct phdr_query {
    uintptr_t addr;
    bool found;
    const char *name;       /* dlpi_name: "" for the main program */
    uintptr_t bias;         /* dlpi_addr */
};

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data) {
    struct phdr_query *q = data;
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (q->addr >= lo && q->addr - lo < ph->p_memsz) {
            q->found = true;
            q->name = info->dlpi_name;
            q->bias = info->dlpi_addr;
            return 1;
        }
    }
    return 0;
}

static const char *exe_name;   /* basename of the main program, interned */

static bool module_of_locked(uintptr_t addr, const char **module, uintptr_t *offset) {
    struct phdr_query q = { .addr = addr };
    dl_iterate_phdr(phdr_cb, &q);
    if (!q.found)
        return false;
    if (q.name && q.name[0]) {
        *module = intern_locked(basename_of(q.name));
    } else {
        if (!exe_name) {
            static char path[4096];   /* under sym_lock; too big for user stacks */
            long n = goldi_os_exe_path(path, sizeof path);
            exe_name = intern_locked(n > 0 && (size_t)n < sizeof path ? basename_of(path) : "<main>");
        }
        *module = exe_name;
    }
    *offset = addr - q.bias;
    return true;
}

/* The libdw module for addr, re-reading the module list once if the loader
 * knows addr but libdw does not (a library dlopen'ed after the last read). */
static Dwfl_Module *dw_module_locked(uintptr_t addr) {
    Dwfl_Module *m = dw.dwfl_addrmodule(dwfl, addr);
    if (!m) {
        dw_report_modules_locked();
        m = dw.dwfl_addrmodule(dwfl, addr);
    }
    return m;
}

/* --- per-pc cache ---------------------------------------------------------
 * Open addressing keyed by (pc << 1 | is_return_address); reports repeat the
 * same few hundred pcs, and a libdw lookup costs microseconds to seconds
 * (the first one in a module reads its DWARF). */

struct frame_ent { uintptr_t key; bool ok; struct goldi_frame f; };
static struct frame_ent *cache;
static size_t cache_cap, cache_n;

static void cache_put_slot(struct frame_ent *tab, size_t cap, const struct frame_ent *e) {
    size_t i = (size_t)hash_bytes((const char *)&e->key, sizeof e->key) & (cap - 1);
    while (tab[i].key)
        i = (i + 1) & (cap - 1);
    tab[i] = *e;
}

static struct frame_ent *cache_find_locked(uintptr_t key) {
    if (!cache_cap)
        return NULL;
    size_t i = (size_t)hash_bytes((const char *)&key, sizeof key) & (cache_cap - 1);
    for (; cache[i].key; i = (i + 1) & (cache_cap - 1))
        if (cache[i].key == key)
            return &cache[i];
    return NULL;
}

static void cache_add_locked(const struct frame_ent *e) {
    if (2 * (cache_n + 1) > cache_cap) {
        size_t cap = cache_cap ? 2 * cache_cap : 1024;
        struct frame_ent *tab = goldi_alloc(cap * sizeof *tab);
        for (size_t i = 0; i < cache_cap; i++)
            if (cache[i].key)
                cache_put_slot(tab, cap, &cache[i]);
        goldi_free(cache);
        cache = tab;
        cache_cap = cap;
    }
    cache_put_slot(cache, cache_cap, e);
    cache_n++;
}

static bool is_data_type(unsigned t) {
    return t == GOLDI_STT_OBJECT || t == GOLDI_STT_TLS || t == GOLDI_STT_COMMON;
}

/* dwfl_module_getsrc finds the CU through .debug_aranges. Clang 14 emits no
 * aranges, and libdw 0.188 then misses its CUs -- also in a module that mixes
 * them with GCC-built objects carrying aranges (a clang-built program linked
 * with this runtime). So on a miss, walk the CUs and ask each for its ranges. */
static const char *line_by_cu_scan_locked(Dwfl_Module *m, uintptr_t a, int *lineno) {
    goldi_dw_addr_t bias = 0;
    for (goldi_dwarf_die *cu = dw.dwfl_module_nextcu(m, NULL, &bias); cu;
         cu = dw.dwfl_module_nextcu(m, cu, &bias)) {
        if (dw.dwarf_haspc(cu, a - bias) <= 0)
            continue;
        Dwarf_Line *l = dw.dwarf_getsrc_die(cu, a - bias);
        if (!l || dw.dwarf_lineno(l, lineno) != 0)
            return NULL;
        return dw.dwarf_linesrc(l, NULL, NULL);
    }
    return NULL;
}

/* C++ function names are demangled ("worker(void*)", not "_ZL6workerPv")
 * with the C++ runtime's own __cxa_demangle, looked up in the program: any
 * C++ program has it and a C program has no mangled names. It mallocs; the
 * caller is inside the runtime, so that goes straight to libc. */
typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);
static const char *function_name_locked(const char *name) {
    static cxa_demangle_fn demangle;
    static bool looked_up;
    if (name[0] != '_' || name[1] != 'Z')
        return intern_locked(name);
    if (!looked_up) {
        looked_up = true;
        *(void **)&demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    }
    int status = -1;
    char *d = demangle ? demangle(name, NULL, NULL, &status) : NULL;
    if (!d || status != 0)
        return intern_locked(name);
    const char *r = intern_locked(d);
    free(d);
    return r;
}

static bool symbolize_locked(uintptr_t a, struct goldi_frame *out) {
    bool in_module = module_of_locked(a, &out->module, &out->module_offset);
    if (!in_module || !use_debuginfo || !dw_ready_locked())
        return false;
    Dwfl_Module *m = dw_module_locked(a);
    if (!m)
        return false;
    goldi_dw_addr_t off = 0;
    struct goldi_gelf_sym sym = { 0 };
    const char *name = dw.dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
    /* A data symbol "containing" a code address is a sizeless neighbour
     * picked by libdw, not the function. */
    if (name && !is_data_type(GOLDI_ST_TYPE(sym.st_info)))
        out->function = function_name_locked(name);
    int lineno = 0;
    const char *file = NULL;
    Dwfl_Line *line = dw.dwfl_module_getsrc(m, a);
    if (line)
        file = dw.dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
    else
        file = line_by_cu_scan_locked(m, a, &lineno);
    if (file) {
        out->file = intern_locked(file);
        out->line = lineno;
    }
    return out->function || out->file;
}

bool goldi_symbolize(uintptr_t pc, bool is_return_address, struct goldi_frame *out) {
    /* A return address points after the call; pc-1 is inside the call
     * instruction, so its line is the call's line (not the next statement). */
    uintptr_t a = is_return_address && pc ? pc - 1 : pc;
    *out = (struct goldi_frame){ .pc = a };
    if (!pc)
        return false;
    uintptr_t key = (pc << 1) | (is_return_address ? 1 : 0);
    goldi_spin_lock(&sym_lock);
    struct frame_ent *e = cache_find_locked(key);
    bool ok;
    if (e) {
        *out = e->f;
        ok = e->ok;
    } else {
        ok = symbolize_locked(a, out);
        struct frame_ent ne = { .key = key, .ok = ok, .f = *out };
        cache_add_locked(&ne);
    }
    goldi_spin_unlock(&sym_lock);
    return ok;
}

bool goldi_symbolize_data(uintptr_t addr, const char **name, uintptr_t *start, size_t *size,
                          const char **module, uintptr_t *module_offset) {
    bool ok = false;
    const char *mod = NULL;
    uintptr_t mod_off = 0;
    goldi_spin_lock(&sym_lock);
    /* The loader's list first: heap and stack addresses (most reports) are in
     * no module and must not make libdw re-read the module list every time. */
    if (module_of_locked(addr, &mod, &mod_off) && use_debuginfo && dw_ready_locked()) {
        Dwfl_Module *m = dw_module_locked(addr);
        goldi_dw_addr_t off = 0;
        struct goldi_gelf_sym sym = { 0 };
        const char *n = m ? dw.dwfl_module_addrinfo(m, addr, &off, &sym, NULL, NULL, NULL) : NULL;
        /* Only a data symbol whose extent covers addr; a sizeless symbol only
         * at its own address (libdw returns the nearest one below). */
        if (n && is_data_type(GOLDI_ST_TYPE(sym.st_info)) &&
            (off < sym.st_size || (sym.st_size == 0 && off == 0))) {
            *name = intern_locked(n);
            *start = addr - (uintptr_t)off;
            *size = (size_t)sym.st_size;
            if (module)
                *module = mod;
            if (module_offset)
                *module_offset = mod_off - (uintptr_t)off;
            ok = true;
        }
    }
    goldi_spin_unlock(&sym_lock);
    return ok;
}

bool goldi_symbolize_module(uintptr_t addr, const char **module, uintptr_t *module_offset) {
    goldi_spin_lock(&sym_lock);
    bool ok = module_of_locked(addr, module, module_offset);
    goldi_spin_unlock(&sym_lock);
    return ok;
}

void goldi_symbolize_set_debuginfo(bool on) {
    goldi_spin_lock(&sym_lock);
    if (use_debuginfo != on) {
        use_debuginfo = on;
        for (size_t i = 0; i < cache_cap; i++)
            cache[i].key = 0;
        cache_n = 0;
    }
    goldi_spin_unlock(&sym_lock);
}

bool goldi_symbolize_have_libdw(void) {
    goldi_spin_lock(&sym_lock);
    bool ok = use_debuginfo && dw_ready_locked();
    goldi_spin_unlock(&sym_lock);
    return ok;
}

static void sym_fork_lock(void) { goldi_spin_lock(&sym_lock); }
static void sym_fork_unlock(void) { goldi_spin_unlock(&sym_lock); }

/* Reports symbolize while holding the report lock: one level above it. */
__attribute__((constructor(102))) static void sym_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_REPORT + 1, sym_fork_lock, sym_fork_unlock, sym_fork_unlock);
}

/* Race report text, deduplication and counting (format: docs/reports.md).
 * Called from engines on any thread while the program runs: no malloc, no
 * stdio. A report is assembled in one buffer and written with a single
 * write(2) under report_lock, so concurrent reports never interleave. */
#include "report.h"
#include "../base/atfork.h"
#include "symbolize.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../base/spinlock.h"
#include "../event/sync.h"
#include "../platform/platform.h"

#include <errno.h>
#include <stdarg.h>

static struct goldi_report_config cfg = { .fd = 2, .exitcode = 66, .symbolize = true };
static goldi_spinlock_t report_lock = GOLDI_SPINLOCK_INIT;

/* Counters: written under report_lock, read without it. */
static _Atomic uint64_t n_reported;   /* distinct pairs of source locations */
static _Atomic uint64_t n_duplicates; /* records folded into an earlier report */
static bool halting;                  /* halt_on_error fired: drop everything after */

/* --- dedup set --------------------------------------------------------------
 * One report per unordered pair of access pcs (the top frames of both
 * origins): the same two source lines racing again -- on another address,
 * another byte of the same access, between other threads, or found by a
 * second engine -- is the same bug. Key (lo, hi) with lo <= hi so that (a, b)
 * and (b, a) coincide. Open addressing; a slot is used iff used != 0. */
struct pair_ent { uintptr_t lo, hi; bool used; };
static struct pair_ent *pairs;
static size_t pairs_cap, pairs_n;

static size_t pair_hash(uintptr_t lo, uintptr_t hi) {
    uint64_t h = (uint64_t)lo * 0x9e3779b97f4a7c15ull ^ ((uint64_t)hi + 0x632be59bd9b4e019ull);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (size_t)h;
}

static void pair_put(struct pair_ent *tab, size_t cap, uintptr_t lo, uintptr_t hi) {
    size_t i = pair_hash(lo, hi) & (cap - 1);
    while (tab[i].used)
        i = (i + 1) & (cap - 1);
    tab[i] = (struct pair_ent){ lo, hi, true };
}

/* Inserts the pair; false if it was already there. */
static bool pair_add_locked(uintptr_t a, uintptr_t b) {
    uintptr_t lo = a < b ? a : b, hi = a < b ? b : a;
    if (pairs_cap) {
        for (size_t i = pair_hash(lo, hi) & (pairs_cap - 1); pairs[i].used;
             i = (i + 1) & (pairs_cap - 1))
            if (pairs[i].lo == lo && pairs[i].hi == hi)
                return false;
    }
    if (2 * (pairs_n + 1) > pairs_cap) {
        size_t cap = pairs_cap ? 2 * pairs_cap : 256;
        struct pair_ent *tab = goldi_alloc(cap * sizeof *tab);
        for (size_t i = 0; i < pairs_cap; i++)
            if (pairs[i].used)
                pair_put(tab, cap, pairs[i].lo, pairs[i].hi);
        goldi_free(pairs);
        pairs = tab;
        pairs_cap = cap;
    }
    pair_put(pairs, pairs_cap, lo, hi);
    pairs_n++;
    return true;
}

/* --- growable text buffer (goldi_alloc'ed, reused across reports) --------- */

struct sbuf { char *p; size_t len, cap; };
static struct sbuf out;   /* guarded by report_lock */

static void sb_reserve(struct sbuf *b, size_t need) {
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need)
        cap *= 2;
    b->p = goldi_realloc(b->p, cap);
    b->cap = cap;
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...) {
    va_list ap;
    sb_reserve(b, b->len + 256);
    va_start(ap, fmt);
    int n = goldi_vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {   /* did not fit: grow, format again */
        sb_reserve(b, b->len + (size_t)n + 1);
        va_start(ap, fmt);
        goldi_vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

static void write_all(int fd, const char *p, size_t n) {
    while (n) {
        long w = goldi_os_write(fd, p, n);
        if (w <= 0)
            return;   /* nothing sensible to do: the report stream is gone */
        p += w;
        n -= (size_t)w;
    }
}

/* --- pieces of a report ----------------------------------------------------- */

/* The symbolizer of the process the report is about (hooks: a recorded one). */
static bool sym(uintptr_t pc, bool is_return_address, struct goldi_frame *out) {
    if (cfg.hooks.symbolize)
        return cfg.hooks.symbolize(pc, is_return_address, out);
    return goldi_symbolize(pc, is_return_address, out);
}

/* Frames of the runtime itself (the thread trampoline, interceptors) mean
 * nothing to the user: names starting with goldi_ or __tsan_ are hidden. */
static bool is_runtime_frame(const struct goldi_frame *f) {
    return f->function &&
           (goldi_strncmp(f->function, "goldi_", 6) == 0 || goldi_strncmp(f->function, "__tsan_", 7) == 0);
}

/* One frame line: "#N function file:line (module+0xoff)"; unknown parts are
 * left out, an unknown function prints as its address. Every frame is a
 * return address (or a pc inside the call instruction), looked up at pc-1. */
static void put_frame(struct sbuf *b, unsigned i, const struct goldi_frame *f) {
    sb_printf(b, "    #%u ", i);
    if (f->function)
        sb_printf(b, "%s", f->function);
    else
        sb_printf(b, "0x%lx", (unsigned long)f->pc);
    if (f->file)
        sb_printf(b, " %s:%d", f->file, f->line);
    if (f->module)
        sb_printf(b, " (%s+0x%lx)", f->module, (unsigned long)f->module_offset);
    sb_printf(b, "\n");
}

static void put_stack(struct sbuf *b, const uintptr_t *frames, uint32_t n) {
    if (!frames || n == 0) {
        sb_printf(b, "    [stack unavailable]\n");
        return;
    }
    unsigned shown = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct goldi_frame f;
        sym(frames[i], true, &f);
        if (!is_runtime_frame(&f))
            put_frame(b, shown++, &f);
        /* Below main is the C library's start-up code, the same in every
         * report; not looking it up also spares loading libc's debug info
         * (60 ms of decompression with libc6-dbg installed). */
        if (f.function && goldi_strcmp(f.function, "main") == 0)
            break;
    }
    if (!shown)
        sb_printf(b, "    [stack unavailable]\n");
}

static void put_origin_stack(struct sbuf *b, goldi_origin_t id) {
    struct goldi_origin_info oi;
    if (id && goldi_origin_lookup(id, &oi))
        put_stack(b, oi.frames, oi.n_frames);
    else
        put_stack(b, NULL, 0);
}

/* What kind of lock addr is, as far as the sync table still knows it (the
 * object may have been destroyed since the access: then "lock"). */
static const char *lock_kind_name(uintptr_t addr) {
    struct goldi_sync *s = goldi_sync_find(addr);
    if (!s)
        return "lock";
    switch ((enum goldi_sync_kind)s->kind) {
    case GOLDI_SYNC_MUTEX:
        return "mutex";
    case GOLDI_SYNC_SPIN:
        return "spinlock";
    case GOLDI_SYNC_RWLOCK:
        return "rwlock";
    case GOLDI_SYNC_COND:
    case GOLDI_SYNC_BARRIER:
    case GOLDI_SYNC_SEM:
    case GOLDI_SYNC_ONCE:
    case GOLDI_SYNC_ATOMIC:
    case GOLDI_SYNC_KIND_COUNT:
        break;
    }
    return "lock";
}

/* "  Locks held by Tn: none" or "mutex 0x.. (write), rwlock 0x.. (read)". */
static void put_locks(struct sbuf *b, goldi_tid_t tid, const struct goldi_origin_info *oi) {
    sb_printf(b, "  Locks held by T%u: ", tid);
    if (!oi) {
        sb_printf(b, "unknown\n");
        return;
    }
    if (oi->n_held == 0) {
        sb_printf(b, "none\n");
        return;
    }
    for (uint32_t i = 0; i < oi->n_held; i++) {
        uintptr_t a = oi->held_addr[i];
        bool shared = oi->held_mode && oi->held_mode[i] == GOLDI_LOCK_SHARED;
        sb_printf(b, "%s%s 0x%lx (%s)", i ? ", " : "", lock_kind_name(a), (unsigned long)a,
                  shared ? "read" : "write");
    }
    sb_printf(b, "\n");
}

/* "  [Previous ][atomic ]write of size N[ (free)] at 0x.. by thread Tn:" + stack
 * + locks line. oi is NULL when the origin is unknown. */
static void put_access(struct sbuf *b, bool previous, const struct goldi_origin_info *oi,
                       bool write, bool atomic, uint32_t size, uintptr_t addr, goldi_tid_t tid) {
    bool is_free = false;
    if (oi) {
        write = write || (oi->flags & GOLDI_ORIGIN_WRITE);
        atomic = atomic || (oi->flags & GOLDI_ORIGIN_ATOMIC);
        is_free = oi->flags & GOLDI_ORIGIN_FREE;
        if (oi->size)
            size = oi->size;
    }
    if (is_free)
        write = true;
    const char *what;
    if (previous)
        what = atomic ? (write ? "Previous atomic write" : "Previous atomic read")
                      : (write ? "Previous write" : "Previous read");
    else
        what = atomic ? (write ? "Atomic write" : "Atomic read") : (write ? "Write" : "Read");
    sb_printf(b, "  %s of size %u%s at 0x%lx by thread T%u:\n", what, size,
              is_free ? " (free)" : "", (unsigned long)addr, tid);
    put_stack(b, oi ? oi->frames : NULL, oi ? oi->n_frames : 0);
    put_locks(b, tid, oi);
}

static char loc_buf[512];   /* describe_location output; guarded by report_lock */

static void put_location(struct sbuf *b, uintptr_t addr) {
    const char *name, *mod = NULL;
    uintptr_t start, moff = 0;
    size_t size;
    bool found = cfg.hooks.symbolize_data
                     ? cfg.hooks.symbolize_data(addr, &name, &start, &size, &mod, &moff)
                     : goldi_symbolize_data(addr, &name, &start, &size, &mod, &moff);
    if (found) {
        sb_printf(b, "  Location is global '%s' of size %zu at 0x%lx", name, size,
                  (unsigned long)start);
        if (mod)
            sb_printf(b, " (%s+0x%lx)", mod, (unsigned long)moff);
        sb_printf(b, "\n");
        return;
    }
    goldi_origin_t alloc_origin = 0;
    size_t n = cfg.hooks.describe_location
                   ? cfg.hooks.describe_location(addr, loc_buf, sizeof loc_buf, &alloc_origin)
                   : 0;
    if (n > 0) {
        /* Accept the sentence with or without indentation and newline. */
        if (n >= sizeof loc_buf)
            n = sizeof loc_buf - 1;
        loc_buf[n] = 0;
        const char *s = loc_buf;
        while (*s == ' ')
            s++;
        while (n > 0 && (loc_buf[n - 1] == '\n' || loc_buf[n - 1] == ' '))
            loc_buf[--n] = 0;
        sb_printf(b, "  %s\n", s);
        if (alloc_origin)
            put_origin_stack(b, alloc_origin);
        return;
    }
    /* Inside a loaded object but no symbol (symbolize=0, stripped binary). */
    if (!cfg.hooks.symbolize_data && goldi_symbolize_module(addr, &mod, &moff)) {
        sb_printf(b, "  Location is global at 0x%lx (%s+0x%lx)\n", (unsigned long)addr, mod,
                  (unsigned long)moff);
        return;
    }
    sb_printf(b, "  Location is unknown\n");
}

static void put_thread(struct sbuf *b, goldi_tid_t tid) {
    int os_tid = 0;
    bool running = false;
    goldi_tid_t parent = GOLDI_TID_NONE;
    goldi_origin_t create = 0;
    if (!cfg.hooks.thread_info ||
        !cfg.hooks.thread_info(tid, &os_tid, &running, &parent, &create)) {
        sb_printf(b, "  Thread T%u (no details available)\n", tid);
        return;
    }
    sb_printf(b, "  Thread T%u (tid=%d, %s) ", tid, os_tid, running ? "running" : "finished");
    if (tid == 0 || parent == GOLDI_TID_NONE) {
        sb_printf(b, "is the main thread\n");
        return;
    }
    if (parent == 0)
        sb_printf(b, "created by main thread at:\n");
    else
        sb_printf(b, "created by thread T%u at:\n", parent);
    put_origin_stack(b, create);
}

static void put_summary(struct sbuf *b, const struct goldi_origin_info *cur) {
    sb_printf(b, "SUMMARY: Goldilocks: data race");
    if (cur && cur->n_frames) {
        struct goldi_frame f;
        sym(cur->frames[0], true, &f);
        if (f.file)
            sb_printf(b, " %s:%d", f.file, f.line);
        else if (f.module)
            sb_printf(b, " (%s+0x%lx)", f.module, (unsigned long)f.module_offset);
        else
            sb_printf(b, " 0x%lx", (unsigned long)f.pc);
        if (f.function)
            sb_printf(b, " in %s", f.function);
    }
    sb_printf(b, "\n");
}

static void format_report_locked(struct sbuf *b, const struct goldi_race *r,
                                 const struct goldi_origin_info *cur,
                                 const struct goldi_origin_info *prev) {
    b->len = 0;
    sb_printf(b, "==================\n");
    sb_printf(b, "WARNING: Goldilocks: data race (pid=%d)\n", cfg.pid > 0 ? cfg.pid : cfg.pid < 0 ? 0 : goldi_os_getpid());
    put_access(b, false, cur, r->cur_write, r->cur_atomic, r->size, r->addr, r->cur_tid);
    put_access(b, true, prev, r->prev_write, r->prev_atomic, r->size, r->addr, r->prev_tid);
    put_location(b, r->addr);
    goldi_tid_t ct = r->cur_tid, pt = r->prev_tid;
    put_thread(b, ct);
    if (pt != ct)
        put_thread(b, pt);
    /* why[] is a fixed array an engine may have filled to the brim. */
    char why[sizeof r->why + 1];
    size_t n = 0;
    for (; n < sizeof r->why && r->why[n]; n++)
        why[n] = r->why[n];
    why[n] = 0;
    if (n)
        sb_printf(b, "  Ordering: %s\n", why);
    else
        sb_printf(b, "  Ordering: no happens-before order between the two accesses (%s)\n",
                  r->engine ? r->engine : "unknown engine");
    put_summary(b, cur);
    sb_printf(b, "==================\n");
}

/* --- API --------------------------------------------------------------------- */

void goldi_report_init(const struct goldi_report_config *c) {
    goldi_spin_lock(&report_lock);
    cfg = *c;
    /* Start from scratch (the runtime calls this once; tests call it per case). */
    for (size_t i = 0; i < pairs_cap; i++)
        pairs[i].used = false;
    pairs_n = 0;
    atomic_store(&n_reported, 0);
    atomic_store(&n_duplicates, 0);
    halting = false;
    goldi_spin_unlock(&report_lock);
    goldi_symbolize_set_debuginfo(c->symbolize);
}

static void report_race(const struct goldi_race *r) {
    struct goldi_origin_info cur, prev;
    bool have_cur = r->cur && goldi_origin_lookup(r->cur, &cur);
    bool have_prev = r->prev && goldi_origin_lookup(r->prev, &prev);
    uintptr_t cur_pc = have_cur && cur.n_frames ? cur.frames[0] : 0;
    uintptr_t prev_pc = have_prev && prev.n_frames ? prev.frames[0] : 0;

    goldi_spin_lock(&report_lock);
    if (halting) {
        goldi_spin_unlock(&report_lock);
        return;
    }
    if (!pair_add_locked(cur_pc, prev_pc)) {
        atomic_fetch_add(&n_duplicates, 1);
        goldi_spin_unlock(&report_lock);
        return;
    }
    uint64_t count = atomic_fetch_add(&n_reported, 1) + 1;
    if (cfg.report_limit <= 0 || count <= (uint64_t)cfg.report_limit) {
        /* Say once why stacks are bare addresses, for users who asked to hear. */
        static bool told_no_libdw;
        if (cfg.symbolize && cfg.verbosity >= 1 && !told_no_libdw &&
            !goldi_symbolize_have_libdw()) {
            told_no_libdw = true;
            static const char msg[] = "Goldilocks: libdw.so.1 could not be loaded: stacks show "
                                      "module+offset only (install elfutils' libdw1)\n";
            write_all(cfg.fd, msg, sizeof msg - 1);
        }
        format_report_locked(&out, r, have_cur ? &cur : NULL, have_prev ? &prev : NULL);
        write_all(cfg.fd, out.p, out.len);
    }
    bool halt = cfg.halt_on_error;
    if (halt)
        halting = true;
    goldi_spin_unlock(&report_lock);

    /* Outside the lock: halt usually exits, and exit handlers print the
     * final count through goldi_report_finish, which takes report_lock. */
    if (halt) {
        if (cfg.hooks.halt)
            cfg.hooks.halt(cfg.exitcode);
        goldi_report_finish();
        goldi_os_exit(cfg.exitcode);
    }
}

/* The host's errno survives a report: the race may be found inside an
 * interceptor that must leave it as the real call did (free, munmap), and
 * printing a report makes system calls (writes, libdw's file reads). */
void goldi_report_race(void *ctx, const struct goldi_race *r) {
    (void)ctx;
    int saved_errno = errno;
    report_race(r);
    errno = saved_errno;
}

uint64_t goldi_report_count(void) {
    return atomic_load(&n_reported);
}

uint64_t goldi_report_duplicates(void) {
    return atomic_load(&n_duplicates);
}

void goldi_report_finish(void) {
    goldi_spin_lock(&report_lock);
    uint64_t n = atomic_load(&n_reported);
    if (n > 0) {
        char line[96];
        int len = goldi_snprintf(line, sizeof line, "Goldilocks: reported %llu data race(s)\n",
                                 (unsigned long long)n);
        write_all(cfg.fd, line, (size_t)len);
    }
    goldi_spin_unlock(&report_lock);
}

static void report_fork_lock(void) { goldi_spin_lock(&report_lock); }
static void report_fork_unlock(void) { goldi_spin_unlock(&report_lock); }

__attribute__((constructor(102))) static void report_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_REPORT, report_fork_lock, report_fork_unlock,
                          report_fork_unlock);
}

/* Offline analysis (analyze.h): the producer of the trace's format (binary
 * reader, text parser, STD importer) feeds goldi_dispatch(); the engines and
 * a counting sink consume. report/ prints races through hooks that describe
 * the *recorded* program: trace frames, heap blocks seen in ALLOC events,
 * the recorded threads' stacks, the recorded module map. */
#include "analyze.h"
#include "format.h"
#include "names.h"
#include "std.h"
#include "text.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../platform/platform.h"
#include "../shadow/shadow.h"

#define AN_EINVAL 22
#define HEAP_BUCKETS 4096

struct block {
    uintptr_t addr;
    size_t size;
    goldi_tid_t tid;
    goldi_origin_t origin;
    struct block *next;
};

struct athr {
    bool seen, running;
    goldi_tid_t parent;
    goldi_origin_t create_origin;
};

static struct {
    const struct goldi_analyze_config *cfg;
    struct goldi_analyze_result *res;
    enum goldi_trace_format format;
    const char *path, *base;
    const char *data;
    struct goldi_text_trace_result text;
    struct goldi_trace *trace;
    struct goldi_sink sink;
    struct block *heap[HEAP_BUCKETS];
    struct athr *thr;
    uint32_t cap_thr;
    char *arena;               /* interned frame strings */
    size_t arena_left;
} A;

/* --- formats ----------------------------------------------------------------- */

enum goldi_trace_format goldi_trace_detect(const char *data, size_t len) {
    if (goldi_trace_is_binary(data, len))
        return GOLDI_TRACE_FMT_BINARY;
    /* a cut-off binary trace: let the reader say so */
    if (len && len < 8 && goldi_strncmp(data, GOLDI_TRC_MAGIC, len) == 0)
        return GOLDI_TRACE_FMT_BINARY;
    /* the first line that is not blank or a comment */
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *nl = p;
        while (nl < end && *nl != '\n')
            nl++;
        const char *s = p;
        while (s < nl && (*s == ' ' || *s == '\t' || *s == '\r'))
            s++;
        if (s < nl && *s != '#') {
            unsigned bars = 0;
            bool paren = false;
            for (const char *q = s; q < nl; q++) {
                bars += *q == '|';
                paren |= *q == '(';
            }
            return bars == 2 && paren ? GOLDI_TRACE_FMT_STD : GOLDI_TRACE_FMT_TEXT;
        }
        p = nl + 1;
    }
    return GOLDI_TRACE_FMT_TEXT;
}

const char *goldi_trace_format_name(enum goldi_trace_format f) {
    switch (f) {
    case GOLDI_TRACE_FMT_AUTO:
        return "auto";
    case GOLDI_TRACE_FMT_BINARY:
        return "binary";
    case GOLDI_TRACE_FMT_TEXT:
        return "text";
    case GOLDI_TRACE_FMT_STD:
        return "std";
    }
    return "?";
}

bool goldi_trace_format_parse(const char *s, enum goldi_trace_format *out) {
    static const enum goldi_trace_format all[] = {GOLDI_TRACE_FMT_AUTO, GOLDI_TRACE_FMT_BINARY,
                                                  GOLDI_TRACE_FMT_TEXT, GOLDI_TRACE_FMT_STD};
    for (size_t i = 0; i < GOLDI_ARRAY_SIZE(all); i++)
        if (goldi_strcmp(s, goldi_trace_format_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    return false;
}

/* --- strings ------------------------------------------------------------------- */

static const char *intern(const char *s, size_t n) {
    if (n + 1 > A.arena_left) {
        size_t sz = n + 1 > 16384 ? n + 1 : 16384;
        A.arena = goldi_alloc(sz);
        A.arena_left = sz;
    }
    char *p = A.arena;
    goldi_memcpy(p, s, n);
    p[n] = 0;
    A.arena += n + 1;
    A.arena_left -= n + 1;
    return p;
}

static const char *basename_of(const char *path) {
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            b = p + 1;
    return b;
}

/* --- report hooks ------------------------------------------------------------------ */

/* The loaded module of the recorded program containing addr. */
static const struct goldi_trace_module *module_of(uintptr_t addr) {
    if (!A.trace)
        return NULL;
    const struct goldi_trace_info *in = goldi_trace_get_info(A.trace);
    const struct goldi_trace_module *hit = NULL;
    for (uint32_t i = 0; i < in->n_modules; i++)   /* later MODULES chunks win */
        for (uint32_t j = 0; j < in->modules[i].n_ranges; j++) {
            uint64_t lo = in->modules[i].ranges[2 * j], n = in->modules[i].ranges[2 * j + 1];
            if (addr >= lo && addr - lo < n)
                hit = &in->modules[i];
        }
    return hit;
}

static const char *module_name(const struct goldi_trace_module *m) {
    if (m->path[0])
        return basename_of(m->path);
    const char *exe = goldi_trace_get_info(A.trace)->exe;
    return exe[0] ? basename_of(exe) : "<main>";
}

bool goldi_analyze_symbolize(uintptr_t pc, bool is_return_address, struct goldi_frame *out) {
    goldi_memset(out, 0, sizeof *out);
    out->pc = pc;
    const char *loc = goldi_trace_name_get(GOLDI_TRACE_NAME_LOC, pc);
    if (loc) {
        /* converted STD trace: pc is a location id */
        char b[1100];
        int n = goldi_snprintf(b, sizeof b, "loc %s", loc);
        out->function = intern(b, n < (int)sizeof b ? (size_t)n : sizeof b - 1);
        return true;
    }
    if (A.format == GOLDI_TRACE_FMT_TEXT) {
        /* pc = event index + 1 (text.h) */
        if (!pc || pc - 1 >= A.text.n_events)
            return false;
        const struct goldi_text_event *e = &A.text.events[pc - 1];
        if (e->label_len)
            out->function = intern(A.data + e->label_off, e->label_len > 128 ? 128 : e->label_len);
        else {
            char b[40];
            int n = goldi_snprintf(b, sizeof b, "event#%llu", (unsigned long long)(pc - 1));
            out->function = intern(b, (size_t)n);
        }
        out->file = A.path;
        out->line = (int)e->line;
        return true;
    }
    if (A.format == GOLDI_TRACE_FMT_BINARY) {
        if (A.cfg->symbolize)
            return A.cfg->symbolize(pc, is_return_address, out);
        uintptr_t a = is_return_address && pc ? pc - 1 : pc;
        out->pc = a;
        const struct goldi_trace_module *m = module_of(a);
        if (m) {
            out->module = module_name(m);
            out->module_offset = a - m->bias;
        }
    }
    return false;
}

static bool symbolize_data(uintptr_t addr, const char **name, uintptr_t *start, size_t *size, const char **module,
                           uintptr_t *module_offset) {
    if (A.format == GOLDI_TRACE_FMT_BINARY && A.cfg->symbolize_data)
        return A.cfg->symbolize_data(addr, name, start, size, module, module_offset);
    return false;
}

static int put(char *buf, size_t n, int r) { return r < (int)n ? r : (int)n - 1; }

/* "Location is heap block ..." if addr is in a block of an ALLOC event not
 * freed yet (as the runtime's heap registry would say). */
static size_t heap_describe(uintptr_t addr, char *buf, size_t n, goldi_origin_t *alloc_origin) {
    for (unsigned b = 0; b < HEAP_BUCKETS; b++)
        for (struct block *k = A.heap[b]; k; k = k->next)
            if (addr >= k->addr && addr - k->addr < k->size) {
                *alloc_origin = k->origin;
                return (size_t)put(buf, n,
                                   goldi_snprintf(buf, n,
                                                  "Location is heap block of size %zu at %p allocated by thread T%u:",
                                                  k->size, (void *)k->addr, k->tid));
            }
    return 0;
}

/* Same order of questions as the runtime (rt/location.c), except that a
 * thread's stack comes before heap blocks: the runtime announces fresh thread
 * stacks with ALLOC events too, but its heap registry holds only malloc's. */
static size_t describe_location(uintptr_t addr, char *buf, size_t n, goldi_origin_t *alloc_origin) {
    *alloc_origin = 0;
    size_t r;
    if (!A.trace && (r = heap_describe(addr, buf, n, alloc_origin)))
        return r;
    const char *v = goldi_trace_name_get(GOLDI_TRACE_NAME_VAR, addr & ~(uintptr_t)(GOLDI_GRANULE - 1));
    if (v)
        return (size_t)put(buf, n, goldi_snprintf(buf, n, "Location is STD variable '%s'", v));
    char nm[160];
    if (A.format == GOLDI_TRACE_FMT_TEXT && goldi_text_trace_addr_name(addr, nm, sizeof nm))
        return (size_t)put(buf, n, goldi_snprintf(buf, n, "Location is trace location '%s'", nm));
    if (!A.trace)
        return 0;
    goldi_tid_t stack = GOLDI_TID_NONE, tls = GOLDI_TID_NONE;
    for (goldi_tid_t t = 0; t < A.cap_thr; t++) {
        struct goldi_trace_thread ti;
        if (!A.thr[t].seen || !goldi_trace_thread_get(A.trace, t, &ti))
            continue;
        if (addr >= ti.tls_lo && addr < ti.tls_hi)
            tls = t;
        else if (addr >= ti.stack_lo && addr < ti.stack_hi)
            stack = t;
    }
    if (tls != GOLDI_TID_NONE || stack != GOLDI_TID_NONE)
        return (size_t)put(buf, n, goldi_snprintf(buf, n, "Location is %s of thread T%u.",
                                                  tls != GOLDI_TID_NONE ? "TLS" : "stack",
                                                  tls != GOLDI_TID_NONE ? tls : stack));
    if ((r = heap_describe(addr, buf, n, alloc_origin)))
        return r;
    const struct goldi_trace_module *m = module_of(addr);
    if (m)
        return (size_t)put(buf, n, goldi_snprintf(buf, n, "Location is global at 0x%lx (%s+0x%lx)", (unsigned long)addr,
                                                  module_name(m), (unsigned long)(addr - m->bias)));
    return 0;
}

static bool thread_info(goldi_tid_t tid, int *os_tid, bool *running, goldi_tid_t *parent,
                        goldi_origin_t *create_origin) {
    if (tid >= A.cap_thr || !A.thr[tid].seen)
        return false;
    *os_tid = 0;
    struct goldi_trace_thread ti;
    if (A.trace && goldi_trace_thread_get(A.trace, tid, &ti))
        *os_tid = ti.os_tid;
    *running = A.thr[tid].running;
    *parent = A.thr[tid].parent;
    *create_origin = A.thr[tid].create_origin;
    return true;
}

/* --- counting sink --------------------------------------------------------------------- */

static struct athr *athr(goldi_tid_t tid) {
    if (tid >= A.cap_thr) {
        uint32_t cap = A.cap_thr ? A.cap_thr : 64;
        while (cap <= tid)
            cap *= 2;
        struct athr *t = goldi_alloc(cap * sizeof *t);
        if (A.cap_thr)
            goldi_memcpy(t, A.thr, A.cap_thr * sizeof *t);
        goldi_free(A.thr);
        A.thr = t;
        A.cap_thr = cap;
    }
    struct athr *t = &A.thr[tid];
    if (!t->seen) {
        t->seen = true;
        t->running = true;
        t->parent = GOLDI_TID_NONE;
    }
    return t;
}

static unsigned heap_bucket(uintptr_t a) { return (unsigned)((a * 0x9E3779B97F4A7C15ull) >> 52) & (HEAP_BUCKETS - 1); }

static void heap_remove(uintptr_t a) {
    for (struct block **p = &A.heap[heap_bucket(a)]; *p; p = &(*p)->next)
        if ((*p)->addr == a) {
            struct block *k = *p;
            *p = k->next;
            goldi_free(k);
            return;
        }
}

static void count_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    (void)self;
    (void)size;
    A.res->checks++;
    if (addr == ev->addr) {
        A.res->accesses++;
        /* like the free interceptor: the block is unregistered before the
         * engines check the free */
        if (ev->kind == GOLDI_EV_FREE)
            heap_remove(ev->addr);
    }
}

static void count_event(void *self, const struct goldi_event *ev) {
    (void)self;
    struct goldi_analyze_result *r = A.res;
    if (ev->flags & GOLDI_EVF_DERIVED)
        return;   /* made by goldi_dispatch itself, not a trace event */
    if ((++r->events & 255) == 0) {
        size_t b = goldi_alloc_bytes_in_use();
        if (b > r->alloc_peak)
            r->alloc_peak = b;
    }
    struct athr *t = athr(ev->thr->tid);
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_FORK: {
        goldi_origin_t o = goldi_event_origin(ev);
        struct athr *c = athr(ev->other->tid);
        c->parent = ev->thr->tid;
        c->create_origin = o;
        break;
    }
    case GOLDI_EV_EXIT:
        t->running = false;
        break;
    case GOLDI_EV_ALLOC: {
        heap_remove(ev->addr);
        struct block *k = goldi_alloc(sizeof *k);
        k->addr = ev->addr;
        k->size = ev->size;
        k->tid = ev->thr->tid;
        k->origin = goldi_event_origin(ev);
        unsigned b = heap_bucket(ev->addr);
        k->next = A.heap[b];
        A.heap[b] = k;
        break;
    }
    case GOLDI_EV_FREE:
        heap_remove(ev->addr);
        break;
    default:
        break;
    }
}

static void on_race(void *ctx, const struct goldi_race *r) {
    (void)ctx;
    A.res->race_records++;
    if (A.cfg->on_race)
        A.cfg->on_race(A.cfg->ctx, r);
    goldi_report_race(NULL, r);
}

static void collect_stat(void *ctx, const char *name, uint64_t value) {
    struct goldi_analyze_result *r = A.res;
    if (r->n_stats >= GOLDI_ARRAY_SIZE(r->stats))
        return;
    struct goldi_analyze_stat *s = &r->stats[r->n_stats++];
    const char *eng = ctx;
    /* engines emit "engine.counter" or bare names: always show the engine */
    bool qualified = false;
    for (const char *p = name; *p; p++)
        qualified |= *p == '.';
    if (qualified)
        goldi_snprintf(s->name, sizeof s->name, "%s", name);
    else
        goldi_snprintf(s->name, sizeof s->name, "%s.%s", eng, name);
    s->value = value;
}

/* --- run ------------------------------------------------------------------------------------ */

int goldi_analyze_run(const char *path, const char *data, size_t len, enum goldi_trace_format format,
                      const struct goldi_analyze_config *cfg, struct goldi_analyze_result *res, char *err,
                      size_t errlen) {
    goldi_memset(res, 0, sizeof *res);
    if (err && errlen)
        err[0] = 0;
    A.cfg = cfg;
    A.res = res;
    A.path = path;
    A.base = basename_of(path);
    A.data = data;
    A.format = format == GOLDI_TRACE_FMT_AUTO ? goldi_trace_detect(data, len) : format;
    res->format = A.format;
    int rc = 0;
    struct goldi_report_config rc_cfg = cfg->report;
    rc_cfg.pid = -1;   /* text, STD and converted traces have no process */
    if (A.format == GOLDI_TRACE_FMT_BINARY) {
        struct goldi_trace_read_opts o = {.allow_partial = cfg->allow_partial, .skip_checks = cfg->skip_checks};
        if ((rc = goldi_trace_open(data, len, &o, &A.trace, err, errlen)))
            return rc;
        if (goldi_trace_get_info(A.trace)->pid > 0)
            rc_cfg.pid = goldi_trace_get_info(A.trace)->pid;
        if (cfg->prepare)
            cfg->prepare(cfg->ctx, goldi_trace_get_info(A.trace));
    }
    rc_cfg.halt_on_error = false;
    rc_cfg.hooks.describe_location = describe_location;
    rc_cfg.hooks.thread_info = thread_info;
    rc_cfg.hooks.halt = NULL;
    rc_cfg.hooks.symbolize = goldi_analyze_symbolize;
    rc_cfg.hooks.symbolize_data = symbolize_data;
    goldi_report_init(&rc_cfg);

    /* the counting sink first: it updates heap and thread facts before an
     * engine reports on the same event */
    A.sink.name = "analyze";
    A.sink.index = GOLDI_MAX_ENGINES;   /* uses no estate[] slot */
    A.sink.on_access = count_access;
    A.sink.free_first_piece = true;   /* (checks: a sparse FREE counts its first piece) */
    A.sink.on_event = count_event;
    goldi_dispatch_attach(&A.sink);
    struct goldi_sink *sinks[GOLDI_MAX_ENGINES];
    for (unsigned i = 0; i < cfg->n_engines; i++)
        sinks[i] = goldi_engine_start(cfg->engines[i], on_race, NULL);
    athr(0);   /* T0 exists from the start in every format */

    uint64_t t0 = goldi_os_now_ns();
    switch (A.format) {
    case GOLDI_TRACE_FMT_BINARY:
        rc = goldi_trace_replay(A.trace, true, NULL, err, errlen);
        break;
    case GOLDI_TRACE_FMT_TEXT:
        rc = goldi_text_trace_run(data, len, &A.text, err, errlen);
        break;
    case GOLDI_TRACE_FMT_STD:
        rc = goldi_std_run(data, len, NULL, err, errlen);
        break;
    case GOLDI_TRACE_FMT_AUTO:
        rc = -AN_EINVAL;
        break;
    }
    res->time_ns = goldi_os_now_ns() - t0;
    size_t b = goldi_alloc_bytes_in_use();
    if (b > res->alloc_peak)
        res->alloc_peak = b;
    res->shadow_bytes = goldi_shadow_bytes_mapped();
    for (unsigned i = 0; i < cfg->n_engines; i++)
        if (cfg->engines[i]->stats)
            cfg->engines[i]->stats(sinks[i]->self, collect_stat, (void *)cfg->engines[i]->name);
    res->races = goldi_report_count();
    goldi_report_finish();
    return rc;
}

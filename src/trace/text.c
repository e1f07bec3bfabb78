/* Text trace parser (see text.h): turns trace lines into goldi_events and
 * dispatches them. Input is untrusted (tests, fuzzers): every malformed input
 * ends in an error message with its line number, never a crash or overflow. */
#include "text.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../event/event.h"
#include "../event/sync.h"

#define TT_EINVAL 22           /* EINVAL (Linux value; no libc headers here) */
#define TT_MAX_TOKENS 512      /* tokens per line */
#define TT_MAX_NAME 128        /* bytes per name */
#define TT_BAR_MAP_BITS 14     /* (thread, barrier) -> last generation */

/* Each name owns one slot: its address is the object's address. */
static _Alignas(64) unsigned char loc_arena[GOLDI_TEXT_MAX_LOCS * GOLDI_TEXT_SLOT];
static _Alignas(64) unsigned char sync_arena[GOLDI_TEXT_MAX_SYNCS * GOLDI_TEXT_SLOT];

/* --- name tables ------------------------------------------------------------
 * Open addressing over interned copies; ids are dense in order of first use. */
struct ntab {
    uint32_t n, cap;        /* names, capacity of names[] */
    char **names;           /* NUL-terminated copies (goldi_alloc) */
    uint32_t *lens;
    uint32_t *slots;        /* hash slots: id + 1, 0 = empty; hcap entries */
    uint32_t hcap;
};

static uint32_t hash_str(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void ntab_free(struct ntab *t) {
    for (uint32_t i = 0; i < t->n; i++)
        goldi_free(t->names[i]);
    goldi_free(t->names);
    goldi_free(t->lens);
    goldi_free(t->slots);
    goldi_memset(t, 0, sizeof *t);
}

static uint32_t *ntab_slot(struct ntab *t, const char *s, uint32_t n) {
    uint32_t mask = t->hcap - 1;
    for (uint32_t i = hash_str(s, n) & mask;; i = (i + 1) & mask) {
        uint32_t v = t->slots[i];
        if (!v || (t->lens[v - 1] == n && goldi_strncmp(t->names[v - 1], s, n) == 0))
            return &t->slots[i];
    }
}

/* Id of name s[0..n), or -1 if absent. */
static int64_t ntab_find(struct ntab *t, const char *s, uint32_t n) {
    if (!t->hcap)
        return -1;
    uint32_t v = *ntab_slot(t, s, n);
    return v ? (int64_t)(v - 1) : -1;
}

static void ntab_rehash(struct ntab *t, uint32_t hcap) {
    goldi_free(t->slots);
    t->slots = goldi_alloc(hcap * sizeof(uint32_t));
    t->hcap = hcap;
    for (uint32_t i = 0; i < t->n; i++)
        *ntab_slot(t, t->names[i], t->lens[i]) = i + 1;
}

/* Adds a name known to be absent; returns its id. */
static uint32_t ntab_add(struct ntab *t, const char *s, uint32_t n) {
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 64;
        char **names = goldi_alloc(cap * sizeof(char *));
        uint32_t *lens = goldi_alloc(cap * sizeof(uint32_t));
        if (t->n) {
            goldi_memcpy(names, t->names, t->n * sizeof(char *));
            goldi_memcpy(lens, t->lens, t->n * sizeof(uint32_t));
        }
        goldi_free(t->names);
        goldi_free(t->lens);
        t->names = names;
        t->lens = lens;
        t->cap = cap;
    }
    if ((t->n + 1) * 2 > t->hcap)
        ntab_rehash(t, t->hcap ? t->hcap * 2 : 128);
    char *copy = goldi_alloc(n + 1);
    goldi_memcpy(copy, s, n);
    uint32_t id = t->n++;
    t->names[id] = copy;
    t->lens[id] = n;
    *ntab_slot(t, s, n) = id + 1;
    return id;
}

/* --- per-run state ------------------------------------------------------------ */

enum { TH_RUNNING = 1, TH_EXITED, TH_JOINED };

struct tthr {
    struct goldi_thr *thr;
    uint8_t state;
    bool freed;                 /* goldi_dispatch_thr_free done */
};

struct tloc {
    uint32_t alloc_size;        /* end offset of the last `alloc` (default extent of `free`) */
};

struct tsync {
    uint8_t kind;               /* enum goldi_sync_kind */
    struct goldi_sync *obj;
    uint32_t bar_count;         /* declared by `barrier B N`, 0 = none */
    uint64_t bar_arrivals;
};

struct barmap_ent { uint64_t key; uint64_t gen; };   /* key = (thread id + 1) << 32 | sync id */

static struct {
    struct ntab locs, syncs, thrs, labels;
    struct tloc loc[GOLDI_TEXT_MAX_LOCS];
    struct tsync sync[GOLDI_TEXT_MAX_SYNCS];
    struct tthr thr[GOLDI_TEXT_MAX_THREADS];     /* indexed by thread-name id */
    int32_t by_tid[GOLDI_TEXT_MAX_THREADS];      /* tid -> thread-name id, -1 */
    struct barmap_ent bar[1u << TT_BAR_MAP_BITS];
    uint32_t n_bar;
    uint32_t loc_hwm, sync_hwm;                  /* slots used by the last run */
} S;

/* Parse context of one run. */
struct ctx {
    const char *text;
    size_t len;
    uint32_t line;
    char *err;
    size_t errlen;
    struct goldi_text_trace_result *res;
    uint32_t ev_cap;
};

struct tok { const char *s; uint32_t n; };

static int fail(struct ctx *c, const char *fmt, const char *a, const char *b) {
    char msg[256];
    goldi_snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    if (c->err && c->errlen)
        goldi_snprintf(c->err, c->errlen, "line %u: %s", c->line, msg);
    return -TT_EINVAL;
}

/* NUL-terminated, truncated copy of a token for messages. */
static const char *tstr(const struct tok *t, char *buf, size_t n) {
    size_t k = t->n < n - 1 ? t->n : n - 1;
    goldi_memcpy(buf, t->s, k);
    buf[k] = 0;
    return buf;
}

static bool teq(const struct tok *t, const char *s) {
    size_t n = goldi_strlen(s);
    return t->n == n && goldi_strncmp(t->s, s, n) == 0;
}

static bool is_alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Identifier: [A-Za-z_][A-Za-z0-9_.]*; dots allowed only if dots is set. */
static bool is_ident(const char *s, uint32_t n, bool dots) {
    if (!n || n > TT_MAX_NAME || !is_alpha(s[0]))
        return false;
    for (uint32_t i = 1; i < n; i++)
        if (!is_alpha(s[i]) && !is_digit(s[i]) && !(dots && s[i] == '.'))
            return false;
    return true;
}

/* Decimal or 0x-hex number < 2^63; false on syntax error or overflow. */
static bool parse_num(const char *s, uint32_t n, uint64_t *out) {
    uint64_t v = 0;
    uint32_t i = 0;
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i >= n)
        return false;
    for (; i < n; i++) {
        unsigned d;
        char ch = s[i];
        if (is_digit(ch))
            d = (unsigned)(ch - '0');
        else if (base == 16 && ch >= 'a' && ch <= 'f')
            d = (unsigned)(ch - 'a' + 10);
        else if (base == 16 && ch >= 'A' && ch <= 'F')
            d = (unsigned)(ch - 'A' + 10);
        else
            return false;
        if (v > (UINT64_MAX / 2 - d) / base)
            return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

static bool tok_is_num(const struct tok *t) {
    uint64_t v;
    return parse_num(t->s, t->n, &v);
}

/* --- ops ----------------------------------------------------------------------- */

enum op {
    OP_FORK, OP_EXIT, OP_JOIN, OP_DETACH, OP_YIELD, OP_ACQ, OP_REL, OP_TRYFAIL, OP_WRLOCK,
    OP_WRUNLOCK, OP_RDLOCK, OP_RDUNLOCK, OP_WAIT_ENTER, OP_WAIT_EXIT, OP_SIGNAL, OP_BROADCAST,
    OP_BAR_ARRIVE, OP_BAR_DEPART, OP_SEM_POST, OP_SEM_WAIT, OP_ONCE_DONE, OP_ONCE_RET, OP_ST, OP_LD,
    OP_RMW, OP_CASFAIL, OP_FENCE, OP_SIGFENCE, OP_RD, OP_WR, OP_RDR, OP_WRR, OP_ALLOC, OP_FREE,
    OP_NONE
};

static const struct { const char *name; enum op op; } plain_ops[] = {
    {"fork", OP_FORK}, {"exit", OP_EXIT}, {"join", OP_JOIN}, {"detach", OP_DETACH},
    {"yield", OP_YIELD}, {"acq", OP_ACQ}, {"rel", OP_REL}, {"tryfail", OP_TRYFAIL},
    {"wrlock", OP_WRLOCK}, {"wrunlock", OP_WRUNLOCK}, {"rdlock", OP_RDLOCK},
    {"rdunlock", OP_RDUNLOCK}, {"wait_enter", OP_WAIT_ENTER}, {"wait_exit", OP_WAIT_EXIT},
    {"signal", OP_SIGNAL}, {"broadcast", OP_BROADCAST}, {"bar_arrive", OP_BAR_ARRIVE},
    {"bar_depart", OP_BAR_DEPART}, {"sem_post", OP_SEM_POST}, {"sem_wait", OP_SEM_WAIT},
    {"once_done", OP_ONCE_DONE}, {"once_ret", OP_ONCE_RET}, {"sigfence", OP_SIGFENCE},
    {"rd", OP_RD}, {"wr", OP_WR}, {"rdr", OP_RDR}, {"wrr", OP_WRR}, {"alloc", OP_ALLOC},
    {"free", OP_FREE},
};

static const struct { const char *name; enum goldi_mo mo; } mo_names[] = {
    {"rlx", GOLDI_MO_RELAXED}, {"relaxed", GOLDI_MO_RELAXED}, {"con", GOLDI_MO_CONSUME},
    {"consume", GOLDI_MO_CONSUME}, {"acq", GOLDI_MO_ACQUIRE}, {"acquire", GOLDI_MO_ACQUIRE},
    {"rel", GOLDI_MO_RELEASE}, {"release", GOLDI_MO_RELEASE}, {"acq_rel", GOLDI_MO_ACQ_REL},
    {"sc", GOLDI_MO_SEQ_CST}, {"seq_cst", GOLDI_MO_SEQ_CST},
};

/* Recognises an op token; *mo gets the order of st./ld./rmw./casfail./fence.
 * and of the aliases rel_store / acq_load. Returns OP_NONE if not an op. */
static enum op op_of(const struct tok *t, int *mo) {
    *mo = -1;
    for (size_t i = 0; i < GOLDI_ARRAY_SIZE(plain_ops); i++)
        if (teq(t, plain_ops[i].name))
            return plain_ops[i].op;
    if (teq(t, "rel_store")) {
        *mo = GOLDI_MO_RELEASE;
        return OP_ST;
    }
    if (teq(t, "acq_load")) {
        *mo = GOLDI_MO_ACQUIRE;
        return OP_LD;
    }
    static const struct { const char *pfx; enum op op; } pfx[] = {
        {"st.", OP_ST}, {"ld.", OP_LD}, {"rmw.", OP_RMW}, {"casfail.", OP_CASFAIL}, {"fence.", OP_FENCE},
    };
    for (size_t i = 0; i < GOLDI_ARRAY_SIZE(pfx); i++) {
        uint32_t k = (uint32_t)goldi_strlen(pfx[i].pfx);
        if (t->n <= k || goldi_strncmp(t->s, pfx[i].pfx, k) != 0)
            continue;
        struct tok m = {t->s + k, t->n - k};
        for (size_t j = 0; j < GOLDI_ARRAY_SIZE(mo_names); j++)
            if (teq(&m, mo_names[j].name)) {
                *mo = (int)mo_names[j].mo;
                return pfx[i].op;
            }
        *mo = -2;   /* known prefix, bad order */
        return pfx[i].op;
    }
    return OP_NONE;
}

/* C11 allows only some orders per operation (a store cannot acquire...). */
static bool mo_valid(enum op op, int mo) {
    switch (op) {
    case OP_ST:
        return mo == GOLDI_MO_RELAXED || mo == GOLDI_MO_RELEASE || mo == GOLDI_MO_SEQ_CST;
    case OP_LD:
    case OP_CASFAIL:
        return mo == GOLDI_MO_RELAXED || mo == GOLDI_MO_CONSUME || mo == GOLDI_MO_ACQUIRE ||
               mo == GOLDI_MO_SEQ_CST;
    case OP_RMW:
    case OP_FENCE:
        return mo >= 0;
    default:
        return true;
    }
}

/* --- names -> objects ---------------------------------------------------------- */

static int thread_by_name(struct ctx *c, const struct tok *t, struct tthr **out) {
    char b[64];
    int64_t id = ntab_find(&S.thrs, t->s, t->n);
    if (id < 0)
        return fail(c, "unknown thread '%s' (threads other than T0 exist once forked)", tstr(t, b, sizeof b), NULL);
    *out = &S.thr[id];
    return 0;
}

/* Thread tid for a new thread name: the number N of a name TN if free, else
 * the lowest free tid (tids must be unique, handbook T1). */
static int64_t pick_tid(const struct tok *t) {
    uint64_t v;
    if (t->n > 1 && t->s[0] == 'T' && parse_num(t->s + 1, t->n - 1, &v) && is_digit(t->s[1]) &&
        v < GOLDI_TEXT_MAX_THREADS && S.by_tid[v] < 0)
        return (int64_t)v;
    for (uint32_t i = 0; i < GOLDI_TEXT_MAX_THREADS; i++)
        if (S.by_tid[i] < 0)
            return i;
    return -1;
}

static int thread_new(struct ctx *c, const struct tok *t, goldi_tid_t parent, struct tthr **out) {
    char b[64];
    if (!is_ident(t->s, t->n, false))
        return fail(c, "bad thread name '%s'", tstr(t, b, sizeof b), NULL);
    int dummy;
    if (op_of(t, &dummy) != OP_NONE || teq(t, "barrier"))
        return fail(c, "thread name '%s' is a keyword", tstr(t, b, sizeof b), NULL);
    if (ntab_find(&S.thrs, t->s, t->n) >= 0)
        return fail(c, "thread '%s' already exists (thread names are never reused)", tstr(t, b, sizeof b), NULL);
    int64_t tid = pick_tid(t);
    if (tid < 0 || S.thrs.n >= GOLDI_TEXT_MAX_THREADS)
        return fail(c, "too many threads", NULL, NULL);
    uint32_t id = ntab_add(&S.thrs, t->s, t->n);
    struct tthr *th = &S.thr[id];
    th->thr = goldi_alloc(sizeof *th->thr);
    th->thr->tid = (goldi_tid_t)tid;
    th->thr->parent = parent;
    th->state = TH_RUNNING;
    th->freed = false;
    S.by_tid[tid] = (int32_t)id;
    if (c->res)
        c->res->n_threads++;
    *out = th;
    return 0;
}

/* Location spec: NAME, NAME[off] (range ops) or NAME[off:len]. */
struct locspec {
    uint32_t id;
    uint32_t off, len;
    bool has_off, has_len;
};

static int parse_loc(struct ctx *c, const struct tok *t, struct locspec *ls) {
    char b[64];
    uint32_t nlen = 0;
    while (nlen < t->n && t->s[nlen] != '[')
        nlen++;
    if (!is_ident(t->s, nlen, true))
        return fail(c, "bad location '%s'", tstr(t, b, sizeof b), NULL);
    ls->has_off = ls->has_len = false;
    ls->off = 0;
    ls->len = 8;
    if (nlen < t->n) {
        if (t->s[t->n - 1] != ']')
            return fail(c, "bad location '%s' (expected NAME[off:len])", tstr(t, b, sizeof b), NULL);
        const char *p = t->s + nlen + 1, *end = t->s + t->n - 1, *colon = p;
        while (colon < end && *colon != ':')
            colon++;
        uint64_t off, len = 8;
        if (!parse_num(p, (uint32_t)(colon - p), &off) ||
            (colon < end && !parse_num(colon + 1, (uint32_t)(end - colon - 1), &len)))
            return fail(c, "bad offset/length in '%s'", tstr(t, b, sizeof b), NULL);
        if (off >= GOLDI_TEXT_SLOT || len == 0 || len > GOLDI_TEXT_SLOT - off)
            return fail(c, "'%s' is outside its 64-byte slot (need off+len <= 64, len >= 1)", tstr(t, b, sizeof b), NULL);
        ls->off = (uint32_t)off;
        ls->len = (uint32_t)len;
        ls->has_off = true;
        ls->has_len = colon < end;
    }
    int64_t id = ntab_find(&S.locs, t->s, nlen);
    if (id < 0) {
        if (S.locs.n >= GOLDI_TEXT_MAX_LOCS)
            return fail(c, "too many location names", NULL, NULL);
        id = ntab_add(&S.locs, t->s, nlen);
        S.loc[id].alloc_size = 8;
        if (S.locs.n > S.loc_hwm)
            S.loc_hwm = S.locs.n;
    }
    ls->id = (uint32_t)id;
    return 0;
}

static uintptr_t loc_addr(uint32_t id) { return (uintptr_t)&loc_arena[(size_t)id * GOLDI_TEXT_SLOT]; }
static uintptr_t sync_addr(uint32_t id) { return (uintptr_t)&sync_arena[(size_t)id * GOLDI_TEXT_SLOT]; }

static const char *const kind_names[GOLDI_SYNC_KIND_COUNT] = {
    "mutex", "spinlock", "rwlock", "condvar", "barrier", "semaphore", "once", "atomic",
};

/* Sync object named t of the given kind; a name keeps its first kind. */
static int sync_get(struct ctx *c, const struct tok *t, enum goldi_sync_kind kind, struct tsync **out,
                    uint32_t *id_out) {
    char b[64];
    if (!is_ident(t->s, t->n, true))
        return fail(c, "bad sync object name '%s'", tstr(t, b, sizeof b), NULL);
    int64_t id = ntab_find(&S.syncs, t->s, t->n);
    if (id < 0) {
        if (S.syncs.n >= GOLDI_TEXT_MAX_SYNCS)
            return fail(c, "too many sync object names", NULL, NULL);
        id = ntab_add(&S.syncs, t->s, t->n);
        struct tsync *s = &S.sync[id];
        goldi_memset(s, 0, sizeof *s);
        s->kind = (uint8_t)kind;
        if (S.syncs.n > S.sync_hwm)
            S.sync_hwm = S.syncs.n;
    }
    struct tsync *s = &S.sync[id];
    if (s->kind != kind)
        return fail(c, "'%s' is used as a %s before", tstr(t, b, sizeof b), kind_names[s->kind]);
    if (!s->obj) {
        s->obj = goldi_sync_get(sync_addr((uint32_t)id), kind);
        if (kind == GOLDI_SYNC_BARRIER && s->bar_count)
            s->obj->bar_count = s->bar_count;
    }
    *out = s;
    if (id_out)
        *id_out = (uint32_t)id;
    return 0;
}

/* Generation bookkeeping of `bar_arrive B` without an explicit generation. */
static struct barmap_ent *bar_slot(uint64_t key) {
    uint32_t mask = (1u << TT_BAR_MAP_BITS) - 1;
    for (uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - TT_BAR_MAP_BITS));; i = (i + 1) & mask)
        if (S.bar[i].key == key || S.bar[i].key == 0)
            return &S.bar[i];
}

/* --- events -------------------------------------------------------------------- */

static int push_event(struct ctx *c, const struct tok *label, uint8_t kind, goldi_tid_t tid, uintptr_t addr,
                      uint32_t size) {
    struct goldi_text_trace_result *r = c->res;
    if (!r)
        return 0;
    if (r->n_events == UINT32_MAX - 1)
        return fail(c, "too many events", NULL, NULL);
    if (r->n_events == c->ev_cap) {
        uint32_t cap = c->ev_cap ? c->ev_cap * 2 : 256;
        struct goldi_text_event *e = goldi_alloc((size_t)cap * sizeof *e);
        if (r->n_events)
            goldi_memcpy(e, r->events, (size_t)r->n_events * sizeof *e);
        goldi_free(r->events);
        r->events = e;
        c->ev_cap = cap;
    }
    struct goldi_text_event *e = &r->events[r->n_events++];
    e->line = c->line;
    e->label_off = label ? (uint32_t)(label->s - c->text) : 0;
    e->label_len = label ? label->n : 0;
    e->kind = kind;
    e->tid = tid;
    e->addr = addr;
    e->size = size;
    return 0;
}

/* As the runtime delivers it (goldi_dispatch_as_live): a trace then checks
 * the path a live program takes, the default engine's lock-free and
 * in-place updates included, not only the general one. */
static void dispatch(struct ctx *c, struct goldi_event *ev) {
    goldi_dispatch_as_live(ev);
    if (c->res)
        c->res->n_dispatched++;
}

static void thr_release(struct tthr *th) {
    if (!th->freed) {
        goldi_dispatch_thr_free(th->thr);
        th->freed = true;
    }
}

/* Number of argument tokens op takes at toks[i..n): fixed, plus optional
 * numeric ones. */
static uint32_t n_args(enum op op, const struct tok *toks, uint32_t i, uint32_t n) {
    switch (op) {
    case OP_EXIT: case OP_YIELD: case OP_SIGFENCE: case OP_FENCE:
        return 0;
    case OP_WAIT_ENTER: case OP_WAIT_EXIT: case OP_RDR: case OP_WRR:
        return 2;
    case OP_BAR_ARRIVE: case OP_BAR_DEPART: case OP_ALLOC: case OP_FREE:
        return (i + 1 < n && tok_is_num(&toks[i + 1])) ? 2 : 1;
    default:
        return 1;
    }
}

/* One event: toks[0..n) = thread op args (label already removed). idx is its
 * trace event index (pc = idx + 1). */
static int do_event(struct ctx *c, const struct tok *label, const struct tok *toks, uint32_t n, enum op op,
                    int mo, uint32_t idx) {
    char b[64], b2[64];
    struct tthr *th;
    int rc = thread_by_name(c, &toks[0], &th);
    if (rc)
        return rc;
    if (th->state != TH_RUNNING)
        return fail(c, "thread '%s' acts after it %s", tstr(&toks[0], b, sizeof b),
                    th->state == TH_EXITED ? "exited" : "was joined");
    if (mo == -2 || !mo_valid(op, mo))
        return fail(c, "invalid memory order in '%s'", tstr(&toks[1], b, sizeof b), NULL);
    const struct tok *a = &toks[2];
    struct goldi_event ev;
    goldi_memset(&ev, 0, sizeof ev);
    ev.thr = th->thr;
    ev.pc = (uintptr_t)idx + 1;
    bool emit = true;
    struct tsync *s, *s2;
    uint32_t sid;
    struct locspec ls = {0};
    uint64_t num = 0;

    switch (op) {
    case OP_FORK: {
        struct tthr *child;
        if ((rc = thread_new(c, &a[0], th->thr->tid, &child)))
            return rc;
        ev.kind = GOLDI_EV_FORK;
        ev.other = child->thr;
        break;
    }
    case OP_EXIT:
        ev.kind = GOLDI_EV_EXIT;
        th->state = TH_EXITED;
        break;
    case OP_JOIN: {
        struct tthr *child = NULL;   /* set when thread_by_name succeeds (quiets -Wmaybe-uninitialized at -O2) */
        if ((rc = thread_by_name(c, &a[0], &child)))
            return rc;
        if (child == th || child->state == TH_JOINED)
            return fail(c, "cannot join '%s'%s", tstr(&a[0], b, sizeof b),
                        child == th ? " (itself)" : " twice");
        if (child->state == TH_RUNNING) {
            /* join returns only after the child ended: record its exit */
            struct goldi_event ex;
            goldi_memset(&ex, 0, sizeof ex);
            ex.kind = GOLDI_EV_EXIT;
            ex.thr = child->thr;
            ex.pc = ev.pc;
            dispatch(c, &ex);
        }
        child->state = TH_JOINED;
        ev.kind = GOLDI_EV_JOIN;
        ev.other = child->thr;
        if ((rc = push_event(c, label, ev.kind, th->thr->tid, 0, 0)))
            return rc;
        dispatch(c, &ev);
        thr_release(child);   /* like the runtime: thread state goes after its join */
        return 0;
    }
    case OP_DETACH: {
        struct tthr *child;
        if ((rc = thread_by_name(c, &a[0], &child)))
            return rc;
        emit = false;
        break;
    }
    case OP_YIELD:
    case OP_SIGFENCE:
        emit = false;
        break;
    case OP_TRYFAIL: {
        int64_t id = ntab_find(&S.syncs, a[0].s, a[0].n);
        if (id < 0 && (rc = sync_get(c, &a[0], GOLDI_SYNC_MUTEX, &s, NULL)))
            return rc;
        emit = false;
        break;
    }
    case OP_ACQ:
    case OP_REL:
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_MUTEX, &s, NULL)))
            return rc;
        ev.kind = op == OP_ACQ ? GOLDI_EV_LOCK_ACQ : GOLDI_EV_LOCK_REL;
        ev.mode = GOLDI_LOCK_EXCL;
        ev.obj = s->obj;
        break;
    case OP_WRLOCK: case OP_WRUNLOCK: case OP_RDLOCK: case OP_RDUNLOCK:
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_RWLOCK, &s, NULL)))
            return rc;
        ev.kind = (op == OP_WRLOCK || op == OP_RDLOCK) ? GOLDI_EV_LOCK_ACQ : GOLDI_EV_LOCK_REL;
        ev.mode = (op == OP_WRLOCK || op == OP_WRUNLOCK) ? GOLDI_LOCK_EXCL : GOLDI_LOCK_SHARED;
        ev.obj = s->obj;
        break;
    case OP_WAIT_ENTER:
    case OP_WAIT_EXIT:
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_COND, &s, NULL)) ||
            (rc = sync_get(c, &a[1], GOLDI_SYNC_MUTEX, &s2, NULL)))
            return rc;
        ev.kind = op == OP_WAIT_ENTER ? GOLDI_EV_WAIT_ENTER : GOLDI_EV_WAIT_EXIT;
        ev.obj = s->obj;
        ev.obj2 = s2->obj;
        break;
    case OP_SIGNAL:
    case OP_BROADCAST:
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_COND, &s, NULL)))
            return rc;
        ev.kind = op == OP_SIGNAL ? GOLDI_EV_SIGNAL : GOLDI_EV_BROADCAST;
        ev.obj = s->obj;
        break;
    case OP_BAR_ARRIVE:
    case OP_BAR_DEPART: {
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_BARRIER, &s, &sid)))
            return rc;
        uint64_t key = ((uint64_t)(S.by_tid[th->thr->tid] + 1) << 32) | sid;
        struct barmap_ent *slot = bar_slot(key);
        bool explicit_gen = n_args(op, toks, 2, n) == 2;
        if (explicit_gen) {
            parse_num(a[1].s, a[1].n, &num);
        } else if (op == OP_BAR_ARRIVE) {
            if (!s->bar_count)
                return fail(c, "barrier '%s' has no declared count: add 'barrier %s N' or write 'bar_arrive B g'",
                            tstr(&a[0], b, sizeof b), tstr(&a[0], b2, sizeof b2));
            num = s->bar_arrivals / s->bar_count;
            s->bar_arrivals++;
        } else {
            if (slot->key != key)
                return fail(c, "bar_depart of '%s' without an earlier bar_arrive by this thread",
                            tstr(&a[0], b, sizeof b), NULL);
            num = slot->gen;
        }
        if (slot->key != key) {
            if (S.n_bar + 1 >= (1u << TT_BAR_MAP_BITS) / 2)
                return fail(c, "too many (thread, barrier) pairs", NULL, NULL);
            S.n_bar++;
            slot->key = key;
        }
        slot->gen = num;
        ev.kind = op == OP_BAR_ARRIVE ? GOLDI_EV_BAR_ARRIVE : GOLDI_EV_BAR_DEPART;
        ev.obj = s->obj;
        ev.gen = num;
        break;
    }
    case OP_SEM_POST:
    case OP_SEM_WAIT:
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_SEM, &s, NULL)))
            return rc;
        ev.kind = op == OP_SEM_POST ? GOLDI_EV_SEM_POST : GOLDI_EV_SEM_WAIT;
        ev.obj = s->obj;
        break;
    case OP_ONCE_DONE:
    case OP_ONCE_RET:
        if ((rc = sync_get(c, &a[0], GOLDI_SYNC_ONCE, &s, NULL)))
            return rc;
        ev.kind = op == OP_ONCE_DONE ? GOLDI_EV_ONCE_DONE : GOLDI_EV_ONCE_RET;
        ev.obj = s->obj;
        break;
    case OP_ST: case OP_LD: case OP_RMW: case OP_CASFAIL:
        if ((rc = parse_loc(c, &a[0], &ls)))
            return rc;
        if (ls.has_off && !ls.has_len)
            return fail(c, "atomic location needs NAME or NAME[off:len]", NULL, NULL);
        ev.kind = op == OP_ST ? GOLDI_EV_ATOMIC_STORE : op == OP_LD ? GOLDI_EV_ATOMIC_LOAD
                  : op == OP_RMW ? GOLDI_EV_ATOMIC_RMW : GOLDI_EV_ATOMIC_CASFAIL;
        ev.mo = (uint8_t)mo;
        ev.addr = loc_addr(ls.id) + ls.off;
        ev.size = ls.len;
        /* The atomic object lives at the access address (like the runtime). */
        ev.obj = goldi_sync_get(ev.addr, GOLDI_SYNC_ATOMIC);
        break;
    case OP_FENCE:
        ev.kind = GOLDI_EV_FENCE;
        ev.mo = (uint8_t)mo;
        if (mo == GOLDI_MO_RELAXED)
            emit = false;   /* a relaxed fence is a no-op */
        break;
    case OP_RD:
    case OP_WR:
        if ((rc = parse_loc(c, &a[0], &ls)))
            return rc;
        if (ls.has_off && !ls.has_len)
            return fail(c, "plain access needs NAME or NAME[off:len] (use rdr/wrr for ranges)", NULL, NULL);
        ev.kind = op == OP_RD ? GOLDI_EV_READ : GOLDI_EV_WRITE;
        ev.addr = loc_addr(ls.id) + ls.off;
        ev.size = ls.len;
        break;
    case OP_RDR:
    case OP_WRR:
    case OP_ALLOC:
    case OP_FREE: {
        if ((rc = parse_loc(c, &a[0], &ls)))
            return rc;
        if (ls.has_len)
            return fail(c, "'%s' takes NAME or NAME[off] and a byte count", tstr(&toks[1], b, sizeof b), NULL);
        bool has_n = op == OP_RDR || op == OP_WRR || n_args(op, toks, 2, n) == 2;
        if (has_n) {
            if (!parse_num(a[1].s, a[1].n, &num))
                return fail(c, "bad byte count '%s'", tstr(&a[1], b, sizeof b), NULL);
        } else {
            uint32_t ext = S.loc[ls.id].alloc_size;
            num = op == OP_FREE ? (ext > ls.off ? ext - ls.off : 0) : 8;
        }
        if (num > GOLDI_TEXT_SLOT - ls.off || (num == 0 && op != OP_ALLOC && op != OP_FREE))
            return fail(c, "byte count of '%s' leaves the 64-byte slot or is 0", tstr(&toks[1], b, sizeof b), NULL);
        ev.addr = loc_addr(ls.id) + ls.off;
        ev.size = (uint32_t)num;
        if (op == OP_RDR || op == OP_WRR) {
            ev.kind = op == OP_RDR ? GOLDI_EV_READ : GOLDI_EV_WRITE;
            ev.flags = GOLDI_EVF_RANGE;
        } else if (op == OP_ALLOC) {
            ev.kind = GOLDI_EV_ALLOC;
            S.loc[ls.id].alloc_size = (uint32_t)(num + ls.off);
        } else {
            ev.kind = GOLDI_EV_FREE;
        }
        break;
    }
    case OP_NONE:
        return fail(c, "unknown op", NULL, NULL);
    }
    if ((rc = push_event(c, label, emit ? ev.kind : GOLDI_TEXT_NO_EVENT, th->thr->tid, ev.addr, ev.size)))
        return rc;
    if (emit) {
        dispatch(c, &ev);
        /* A new or freed block forgets the atomic objects inside it, as the
         * malloc/free interceptors do: no hb survives a lifetime (1.1). */
        if (ev.kind == GOLDI_EV_FREE || ev.kind == GOLDI_EV_ALLOC)
            goldi_sync_forget_range(ev.addr, ev.size);
    }
    return 0;
}

/* --- lines ------------------------------------------------------------------------- */

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }

/* Splits [p, end) into tokens; ';' is a token of its own. */
static int tokenize(struct ctx *c, const char *p, const char *end, struct tok *toks, uint32_t *n) {
    *n = 0;
    while (p < end) {
        if (is_space(*p)) {
            p++;
            continue;
        }
        if (*n == TT_MAX_TOKENS)
            return fail(c, "line has too many tokens", NULL, NULL);
        const char *s = p;
        if (*p == ';') {
            p++;
        } else {
            while (p < end && !is_space(*p) && *p != ';')
                p++;
        }
        if ((size_t)(p - s) > 4096)
            return fail(c, "token too long", NULL, NULL);
        toks[*n].s = s;
        toks[*n].n = (uint32_t)(p - s);
        (*n)++;
    }
    return 0;
}

static int do_line(struct ctx *c, const char *p, const char *end) {
    static struct tok toks[TT_MAX_TOKENS];
    char b[64];
    uint32_t n;
    for (const char *q = p; q < end; q++) {
        if (*q == '#') {
            end = q;
            break;
        }
        if (*q == 0)
            return fail(c, "NUL byte in trace", NULL, NULL);
    }
    int rc = tokenize(c, p, end, toks, &n);
    if (rc)
        return rc;
    uint32_t i = 0;
    while (i < n) {
        if (teq(&toks[i], ";")) {
            i++;
            continue;
        }
        /* barrier B N: a declaration, not an event */
        if (teq(&toks[i], "barrier")) {
            uint64_t cnt;
            struct tsync *s;
            if (i + 2 >= n || !parse_num(toks[i + 2].s, toks[i + 2].n, &cnt) || cnt == 0 || cnt > UINT32_MAX)
                return fail(c, "expected 'barrier NAME COUNT' with COUNT >= 1", NULL, NULL);
            if ((rc = sync_get(c, &toks[i + 1], GOLDI_SYNC_BARRIER, &s, NULL)))
                return rc;
            s->bar_count = (uint32_t)cnt;
            s->obj->bar_count = (uint32_t)cnt;
            i += 3;
            continue;
        }
        /* [label[:]] thread op args */
        const struct tok *label = NULL;
        struct tok lab;
        int mo;
        enum op op = OP_NONE;
        if (toks[i].n > 1 && toks[i].s[toks[i].n - 1] == ':') {
            lab.s = toks[i].s;
            lab.n = toks[i].n - 1;
            label = &lab;
            i++;
        } else if (i + 2 < n && op_of(&toks[i + 1], &mo) == OP_NONE && op_of(&toks[i + 2], &mo) != OP_NONE) {
            label = &toks[i];
            i++;
        }
        if (label) {
            if (!is_ident(label->s, label->n, true))
                return fail(c, "bad label '%s'", tstr(label, b, sizeof b), NULL);
            if (ntab_find(&S.labels, label->s, label->n) >= 0)
                return fail(c, "duplicate label '%s'", tstr(label, b, sizeof b), NULL);
            ntab_add(&S.labels, label->s, label->n);
        }
        if (i + 1 >= n || (op = op_of(&toks[i + 1], &mo)) == OP_NONE) {
            if (i + 1 < n && ntab_find(&S.thrs, toks[i].s, toks[i].n) >= 0)
                return fail(c, "unknown op '%s'", tstr(&toks[i + 1], b, sizeof b), NULL);
            if (i >= n)   /* a label ended the line: toks[i] is stale */
                return fail(c, "expected 'THREAD OP ARGS' after label '%s'", tstr(&toks[i - 1], b, sizeof b), NULL);
            return fail(c, "expected 'THREAD OP ARGS' at '%s'", tstr(&toks[i], b, sizeof b), NULL);
        }
        uint32_t na = n_args(op, toks, i + 2, n);
        if (i + 2 + na > n)
            return fail(c, "'%s' needs more arguments", tstr(&toks[i + 1], b, sizeof b), NULL);
        for (uint32_t k = 0; k < na; k++)
            if (teq(&toks[i + 2 + k], ";"))
                return fail(c, "'%s' needs more arguments", tstr(&toks[i + 1], b, sizeof b), NULL);
        uint32_t idx = c->res ? c->res->n_events : 0;
        if ((rc = do_event(c, label, &toks[i], 2 + na, op, mo, idx)))
            return rc;
        i += 2 + na;   /* whatever follows must start another event */
    }
    return 0;
}

/* Starts a run: the previous run's slots get a fresh lifetime and lose their
 * sync objects, so runs in one process do not see each other. */
static void reset_state(struct ctx *c) {
    uint32_t n_thr = S.thrs.n;
    for (uint32_t i = 0; i < n_thr; i++) {
        struct tthr *th = &S.thr[i];
        if (th->thr) {
            thr_release(th);
            goldi_free(th->thr);
        }
    }
    ntab_free(&S.locs);
    ntab_free(&S.syncs);
    ntab_free(&S.thrs);
    ntab_free(&S.labels);
    /* Only what the last run wrote: the barrier map is 256 KiB, and clearing
     * it whole made every run in a fresh process (the differential suite
     * forks one per trace) fault in 64 pages. */
    goldi_memset(S.thr, 0, n_thr * sizeof S.thr[0]);
    if (S.n_bar)
        goldi_memset(S.bar, 0, sizeof S.bar);
    S.n_bar = 0;
    for (uint32_t i = 0; i < GOLDI_TEXT_MAX_THREADS; i++)
        S.by_tid[i] = -1;
    /* T0 = main exists from the start */
    struct tok t0 = {"T0", 2};
    struct tthr *th;
    thread_new(c, &t0, GOLDI_TID_NONE, &th);
    if (S.loc_hwm || S.sync_hwm) {
        goldi_sync_forget_range((uintptr_t)loc_arena, (size_t)S.loc_hwm * GOLDI_TEXT_SLOT);
        goldi_sync_forget_range((uintptr_t)sync_arena, (size_t)S.sync_hwm * GOLDI_TEXT_SLOT);
        if (S.loc_hwm) {
            struct goldi_event ev;
            goldi_memset(&ev, 0, sizeof ev);
            ev.kind = GOLDI_EV_ALLOC;
            ev.thr = th->thr;
            ev.addr = (uintptr_t)loc_arena;
            ev.size = S.loc_hwm * GOLDI_TEXT_SLOT;
            goldi_dispatch(&ev);
        }
        S.loc_hwm = S.sync_hwm = 0;
    }
}

int goldi_text_trace_run(const char *text, size_t len, struct goldi_text_trace_result *out, char *err,
                         size_t errlen) {
    struct ctx c = {.text = text, .len = len, .err = err, .errlen = errlen, .res = out};
    if (err && errlen)
        err[0] = 0;
    if (out)
        goldi_memset(out, 0, sizeof *out);
    if (len > UINT32_MAX)
        return fail(&c, "trace too large", NULL, NULL);
    reset_state(&c);
    const char *p = text, *end = text + len;
    int rc = 0;
    while (p < end && !rc) {
        const char *nl = p;
        while (nl < end && *nl != '\n')
            nl++;
        c.line++;
        rc = do_line(&c, p, nl);
        p = nl + 1;
    }
    return rc;
}

void goldi_text_trace_result_free(struct goldi_text_trace_result *r) {
    goldi_free(r->events);
    goldi_memset(r, 0, sizeof *r);
}

bool goldi_text_trace_addr_name(uintptr_t addr, char *buf, size_t n) {
    struct ntab *t;
    uintptr_t base;
    if (addr >= (uintptr_t)loc_arena && addr < (uintptr_t)loc_arena + sizeof loc_arena) {
        t = &S.locs;
        base = (uintptr_t)loc_arena;
    } else if (addr >= (uintptr_t)sync_arena && addr < (uintptr_t)sync_arena + sizeof sync_arena) {
        t = &S.syncs;
        base = (uintptr_t)sync_arena;
    } else {
        return false;
    }
    uint32_t id = (uint32_t)((addr - base) / GOLDI_TEXT_SLOT), off = (uint32_t)((addr - base) % GOLDI_TEXT_SLOT);
    if (id >= t->n)
        return false;
    if (off)
        goldi_snprintf(buf, n, "%s+%u", t->names[id], off);
    else
        goldi_snprintf(buf, n, "%s", t->names[id]);
    return true;
}

const char *goldi_text_trace_thread_name(goldi_tid_t tid) {
    if (tid >= GOLDI_TEXT_MAX_THREADS || S.by_tid[tid] < 0 || (uint32_t)S.by_tid[tid] >= S.thrs.n)
        return NULL;
    return S.thrs.names[S.by_tid[tid]];
}

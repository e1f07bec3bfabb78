/* RAPID STD import and export (std.h). Untrusted input on import: every
 * malformed line ends in "line N: ..." and nothing is dispatched for it.
 *
 * Import: T|op(decor)|loc. Threads, variables, locks and locations are
 * interned by name (dense ids in order of first use, like the text trace
 * parser's name tables); a variable is one 8-byte granule, a lock a mutex.
 *
 * Export (a sink): what each goldi_event becomes
 *   FORK / JOIN                       fork(T) / join(T)
 *   LOCK_ACQ / LOCK_REL of a mutex    acq(L) / rel(L)          (exact)
 *   WAIT_ENTER / WAIT_EXIT            rel(L) / acq(L) of the mutex
 *   READ / WRITE                      r(V) / w(V), one per 8-byte granule touched
 *   ATOMIC_* on x                     acq(A) r|w(V)... rel(A), A = x's atomic object:
 *                                     every atomic on x orders with every later one
 *   rwlock, barrier, semaphore, once  each happens-before step of the event
 *                                     (goldi_event_hb_steps) on token k becomes the
 *                                     empty critical section acq(Sk) rel(Sk)
 *   EXIT, SIGNAL, BROADCAST, FENCE, ALLOC, FREE    dropped (counted)
 * So the exported trace orders at least what ours orders (never a race we
 * would not report), except relaxed atomics+fences (fence-based sync is
 * dropped) and races with free (dropped); docs/traces.md has the details. */
#include "std.h"
#include "names.h"
#include "text.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../event/sync.h"
#include "../platform/platform.h"
#include "../shadow/shadow.h"

#define STD_EINVAL 22
#define STD_MAX_NAME 1024

/* --- string interning ------------------------------------------------------------ */

struct stab {
    uint32_t n, cap;
    char **names;
    uint32_t *lens;
    uint32_t *slots;       /* id + 1 */
    uint32_t hcap;
};

static uint32_t hash_str(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static uint32_t *stab_slot(struct stab *t, const char *s, uint32_t n) {
    uint32_t mask = t->hcap - 1;
    for (uint32_t i = hash_str(s, n) & mask;; i = (i + 1) & mask) {
        uint32_t v = t->slots[i];
        if (!v || (t->lens[v - 1] == n && goldi_strncmp(t->names[v - 1], s, n) == 0))
            return &t->slots[i];
    }
}

/* Id of s[0..n), added if new (*added set). */
static uint32_t stab_intern(struct stab *t, const char *s, uint32_t n, bool *added) {
    *added = false;
    if (t->hcap) {
        uint32_t v = *stab_slot(t, s, n);
        if (v)
            return v - 1;
    }
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 64;
        char **names = goldi_alloc(cap * sizeof *names);
        uint32_t *lens = goldi_alloc(cap * sizeof *lens);
        if (t->n) {
            goldi_memcpy(names, t->names, t->n * sizeof *names);
            goldi_memcpy(lens, t->lens, t->n * sizeof *lens);
        }
        goldi_free(t->names);
        goldi_free(t->lens);
        t->names = names;
        t->lens = lens;
        t->cap = cap;
    }
    if (2 * (t->n + 1) > t->hcap) {
        uint32_t hcap = t->hcap ? 2 * t->hcap : 128;
        goldi_free(t->slots);
        t->slots = goldi_alloc(hcap * sizeof *t->slots);
        t->hcap = hcap;
        for (uint32_t i = 0; i < t->n; i++)
            *stab_slot(t, t->names[i], t->lens[i]) = i + 1;
    }
    char *copy = goldi_alloc(n + 1);
    goldi_memcpy(copy, s, n);
    copy[n] = 0;
    uint32_t id = t->n++;
    t->names[id] = copy;
    t->lens[id] = n;
    *stab_slot(t, s, n) = id + 1;
    *added = true;
    return id;
}

/* --- import ---------------------------------------------------------------------------- */

enum { ST_NONE, ST_RUNNING, ST_EXITED, ST_JOINED };

struct sthr {
    struct goldi_thr *thr;
    uint8_t state;
};

struct imp {
    struct stab thrs, vars, locks, locs;
    struct sthr *th;           /* by tid */
    uint32_t cap_th;
    int32_t *by_name;          /* thread-name id -> tid */
    uint32_t cap_by_name;
    uint8_t *tid_used;         /* tids taken */
    uint32_t next_free_tid;
    uint64_t line;
    char *err;
    size_t errlen;
    struct goldi_std_result *res;
};

static int fail(struct imp *m, const char *fmt, const char *a, uint32_t an) {
    char arg[80];
    uint32_t k = an < sizeof arg - 1 ? an : (uint32_t)sizeof arg - 1;
    if (a)
        goldi_memcpy(arg, a, k);
    arg[a ? k : 0] = 0;
    char msg[200];
    goldi_snprintf(msg, sizeof msg, fmt, arg);
    if (m->err && m->errlen)
        goldi_snprintf(m->err, m->errlen, "line %llu: %s", (unsigned long long)m->line, msg);
    return -STD_EINVAL;
}

static void grow_threads(struct imp *m, uint32_t tid) {
    if (tid < m->cap_th)
        return;
    uint32_t cap = m->cap_th ? m->cap_th : 64;
    while (cap <= tid)
        cap *= 2;
    struct sthr *th = goldi_alloc(cap * sizeof *th);
    uint8_t *used = goldi_alloc(cap);
    if (m->cap_th) {
        goldi_memcpy(th, m->th, m->cap_th * sizeof *th);
        goldi_memcpy(used, m->tid_used, m->cap_th);
    }
    goldi_free(m->th);
    goldi_free(m->tid_used);
    m->th = th;
    m->tid_used = used;
    m->cap_th = cap;
}

/* Thread by name; created (state NONE) if new. "T<n>" gets tid n if free. */
static int thread_of(struct imp *m, const char *s, uint32_t n, struct sthr **out, goldi_tid_t *tid_out) {
    if (!n || n > STD_MAX_NAME)
        return fail(m, "bad thread name '%s'", s, n);
    bool added;
    uint32_t id = stab_intern(&m->thrs, s, n, &added);
    if (added) {
        if (id >= GOLDI_STD_MAX_OBJS || id >= (1u << 20))
            return fail(m, "too many threads", NULL, 0);
        if (id >= m->cap_by_name) {
            uint32_t cap = m->cap_by_name ? 2 * m->cap_by_name : 64;
            int32_t *b = goldi_alloc(cap * sizeof *b);
            if (m->cap_by_name)
                goldi_memcpy(b, m->by_name, m->cap_by_name * sizeof *b);
            goldi_free(m->by_name);
            m->by_name = b;
            m->cap_by_name = cap;
        }
        uint64_t want = UINT64_MAX;
        if (n > 1 && n < 8 && s[0] == 'T') {
            want = 0;
            for (uint32_t i = 1; i < n; i++) {
                if (s[i] < '0' || s[i] > '9' || (i == 1 && s[i] == '0' && n > 2)) {
                    want = UINT64_MAX;
                    break;
                }
                want = want * 10 + (uint64_t)(s[i] - '0');
            }
        }
        goldi_tid_t tid;
        if (want < (1u << 20) && (want >= m->cap_th || !m->tid_used[want])) {
            tid = (goldi_tid_t)want;
        } else {
            while (m->next_free_tid < m->cap_th && m->tid_used[m->next_free_tid])
                m->next_free_tid++;
            tid = m->next_free_tid;
        }
        grow_threads(m, tid);
        m->tid_used[tid] = 1;
        m->by_name[id] = (int32_t)tid;
        goldi_trace_name_set(GOLDI_TRACE_NAME_THREAD, tid, s, n);
        m->res->threads++;
    }
    goldi_tid_t tid = (goldi_tid_t)m->by_name[id];
    *out = &m->th[tid];
    *tid_out = tid;
    return 0;
}

/* Every goldi_thr made by imports, for goldi_std_release_threads. */
static struct goldi_thr **made;
static size_t n_made, cap_made;

static void thread_start(struct sthr *t, goldi_tid_t tid, goldi_tid_t parent) {
    t->state = ST_RUNNING;
    t->thr = goldi_alloc(sizeof *t->thr);
    if (n_made == cap_made) {
        cap_made = cap_made ? 2 * cap_made : 64;
        struct goldi_thr **m = goldi_alloc(cap_made * sizeof *m);
        if (n_made)
            goldi_memcpy(m, made, n_made * sizeof *m);
        goldi_free(made);
        made = m;
    }
    made[n_made++] = t->thr;
    t->thr->tid = tid;
    t->thr->parent = parent;
}

static void dispatch(struct imp *m, struct goldi_event *ev) {
    goldi_dispatch_as_live(ev);
    m->res->events++;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static void trim(const char **s, const char **e) {
    while (*s < *e && is_space(**s))
        (*s)++;
    while (*e > *s && is_space((*e)[-1]))
        (*e)--;
}

static bool has_space(const char *s, const char *e) {
    for (; s < e; s++)
        if (is_space(*s))
            return true;
    return false;
}

static int do_line(struct imp *m, const char *p, const char *end) {
    trim(&p, &end);
    if (p == end || *p == '#') {
        m->res->skipped++;
        return 0;
    }
    for (const char *q = p; q < end; q++)
        if (*q == 0)
            return fail(m, "NUL byte in trace", NULL, 0);
    /* exactly three '|'-separated fields */
    const char *f[3], *fe[3];
    const char *q = p;
    for (int i = 0; i < 3; i++) {
        f[i] = q;
        while (q < end && *q != '|')
            q++;
        fe[i] = q;
        if (i < 2) {
            if (q == end)
                return fail(m, "expected THREAD|OP(DECOR)|LOC", NULL, 0);
            q++;
        }
    }
    if (q != end)
        return fail(m, "more than three '|'-separated fields", NULL, 0);
    for (int i = 0; i < 3; i++)
        trim(&f[i], &fe[i]);
    /* LOC: an integer (Java int) */
    const char *l = f[2];
    if (l < fe[2] && (*l == '-' || *l == '+'))
        l++;
    if (l == fe[2] || fe[2] - f[2] > 11)
        return fail(m, "bad location '%s' (an integer)", f[2], (uint32_t)(fe[2] - f[2]));
    for (const char *c = l; c < fe[2]; c++)
        if (*c < '0' || *c > '9')
            return fail(m, "bad location '%s' (an integer)", f[2], (uint32_t)(fe[2] - f[2]));
    /* OP(DECOR) */
    const char *o = f[1], *oe = fe[1];
    const char *par = o;
    while (par < oe && *par != '(')
        par++;
    uint32_t on = (uint32_t)(par - o);
    const char *d = NULL, *de = NULL;
    if (par < oe) {
        if (oe[-1] != ')' || oe - par < 3)
            return fail(m, "bad operation '%s'", o, (uint32_t)(oe - o));
        d = par + 1;
        de = oe - 1;
        if (has_space(d, de) || de - d > STD_MAX_NAME)
            return fail(m, "bad operand in '%s'", o, (uint32_t)(oe - o));
    }
#define OPIS(s) (on == sizeof(s) - 1 && goldi_strncmp(o, s, on) == 0)
    if (OPIS("begin") || OPIS("end")) {
        m->res->skipped++;
        return 0;
    }
    if (!d)
        return fail(m, "operation '%s' needs an operand in parentheses", o, (uint32_t)(oe - o));
    struct sthr *t;
    goldi_tid_t tid;
    int rc = thread_of(m, f[0], (uint32_t)(fe[0] - f[0]), &t, &tid);
    if (rc)
        return rc;
    if (has_space(f[0], fe[0]))
        return fail(m, "bad thread name '%s'", f[0], (uint32_t)(fe[0] - f[0]));
    if (t->state == ST_EXITED || t->state == ST_JOINED)
        return fail(m, "thread '%s' acts after it was joined", f[0], (uint32_t)(fe[0] - f[0]));
    if (t->state == ST_NONE)
        thread_start(t, tid, GOLDI_TID_NONE);   /* not forked: a root thread */
    bool added;
    uint32_t loc = stab_intern(&m->locs, f[2], (uint32_t)(fe[2] - f[2]), &added);
    if (added) {
        if (loc >= GOLDI_STD_MAX_OBJS)
            return fail(m, "too many locations", NULL, 0);
        goldi_trace_name_set(GOLDI_TRACE_NAME_LOC, loc + 1, f[2], (size_t)(fe[2] - f[2]));
        m->res->locs++;
    }
    struct goldi_event ev;
    goldi_memset(&ev, 0, sizeof ev);
    ev.thr = t->thr;
    ev.pc = (uintptr_t)loc + 1;
    uint32_t dn = (uint32_t)(de - d);
    if (OPIS("r") || OPIS("w")) {
        uint32_t v = stab_intern(&m->vars, d, dn, &added);
        if (v >= GOLDI_STD_MAX_OBJS)
            return fail(m, "too many variables", NULL, 0);
        ev.addr = (uintptr_t)(GOLDI_STD_VAR_BASE + 8ull * v);
        if (added) {
            goldi_trace_name_set(GOLDI_TRACE_NAME_VAR, ev.addr, d, dn);
            m->res->vars++;
        }
        ev.kind = OPIS("r") ? GOLDI_EV_READ : GOLDI_EV_WRITE;
        ev.size = 8;
        dispatch(m, &ev);
        return 0;
    }
    if (OPIS("acq") || OPIS("rel")) {
        uint32_t k = stab_intern(&m->locks, d, dn, &added);
        if (k >= GOLDI_STD_MAX_OBJS)
            return fail(m, "too many locks", NULL, 0);
        uintptr_t a = (uintptr_t)(GOLDI_STD_LOCK_BASE + 16ull * k);
        if (added) {
            goldi_trace_name_set(GOLDI_TRACE_NAME_LOCK, a, d, dn);
            m->res->locks++;
        }
        ev.kind = OPIS("acq") ? GOLDI_EV_LOCK_ACQ : GOLDI_EV_LOCK_REL;
        ev.mode = GOLDI_LOCK_EXCL;
        ev.obj = goldi_sync_get(a, GOLDI_SYNC_MUTEX);
        dispatch(m, &ev);
        return 0;
    }
    if (OPIS("fork") || OPIS("join")) {
        struct sthr *c;
        goldi_tid_t ctid;
        if ((rc = thread_of(m, d, dn, &c, &ctid)))
            return rc;
        t = &m->th[tid];   /* thread_of may have moved the table */
        ev.thr = t->thr;
        if (c == t)
            return fail(m, "thread '%s' forks or joins itself", d, dn);
        if (OPIS("fork")) {
            if (c->state != ST_NONE)
                return fail(m, "fork of '%s', which already exists", d, dn);
            thread_start(c, ctid, tid);
            ev.kind = GOLDI_EV_FORK;
            ev.other = c->thr;
            dispatch(m, &ev);
            return 0;
        }
        if (c->state == ST_JOINED)
            return fail(m, "'%s' joined twice", d, dn);
        if (c->state == ST_NONE)
            thread_start(c, ctid, GOLDI_TID_NONE);   /* joined, never seen: empty thread */
        if (c->state == ST_RUNNING) {
            struct goldi_event ex;
            goldi_memset(&ex, 0, sizeof ex);
            ex.kind = GOLDI_EV_EXIT;
            ex.thr = c->thr;
            ex.pc = ev.pc;
            dispatch(m, &ex);
        }
        c->state = ST_JOINED;
        ev.kind = GOLDI_EV_JOIN;
        ev.other = c->thr;
        dispatch(m, &ev);
        goldi_dispatch_thr_free(c->thr);
        return 0;
    }
#undef OPIS
    return fail(m, "unknown operation '%s' (r, w, acq, rel, fork, join, begin, end)", o, (uint32_t)(oe - o));
}

int goldi_std_run(const char *text, size_t len, struct goldi_std_result *out, char *err, size_t errlen) {
    struct goldi_std_result local;
    struct imp *m = goldi_alloc(sizeof *m);
    m->err = err;
    m->errlen = errlen;
    m->res = out ? out : &local;
    goldi_memset(m->res, 0, sizeof *m->res);
    if (err && errlen)
        err[0] = 0;
    const char *p = text, *end = text + len;
    int rc = 0;
    while (p < end && !rc) {
        const char *nl = p;
        while (nl < end && *nl != '\n')
            nl++;
        m->line++;
        rc = do_line(m, p, nl);
        p = nl + 1;
    }
    m->res->lines = m->line;
    /* Thread states (goldi_thr) stay allocated: engines may still point at them. */
    struct stab *tabs[] = {&m->thrs, &m->vars, &m->locks, &m->locs};
    for (size_t i = 0; i < GOLDI_ARRAY_SIZE(tabs); i++) {
        for (uint32_t k = 0; k < tabs[i]->n; k++)
            goldi_free(tabs[i]->names[k]);
        goldi_free(tabs[i]->names);
        goldi_free(tabs[i]->lens);
        goldi_free(tabs[i]->slots);
    }
    goldi_free(m->th);
    goldi_free(m->by_name);
    goldi_free(m->tid_used);
    goldi_free(m);
    return rc;
}

void goldi_std_release_threads(void) {
    for (size_t i = 0; i < n_made; i++)
        goldi_free(made[i]);
    goldi_free(made);
    made = NULL;
    n_made = cap_made = 0;
}

/* --- export ------------------------------------------------------------------------------ */

#define EXP_BUF (64u << 10)

struct pcmap_ent { uintptr_t pc; uint32_t id; };

static struct {
    struct goldi_sink sink;
    int fd;
    int err;
    char *buf;
    size_t len;
    struct pcmap_ent *pcs;     /* open addressing: pc -> dense location id */
    uint32_t n_pcs, cap_pcs;
    struct goldi_std_export_stats st;
} X;

static void x_flush(void) {
    if (X.len && !X.err && goldi_os_write(X.fd, X.buf, X.len) != (long)X.len)
        X.err = -5;
    X.len = 0;
}

static void x_put(const char *s, size_t n) {
    if (X.len + n > EXP_BUF)
        x_flush();
    if (n > EXP_BUF)
        n = EXP_BUF;
    goldi_memcpy(X.buf + X.len, s, n);
    X.len += n;
}

static uint32_t loc_id(uintptr_t pc) {
    if (2 * (X.n_pcs + 1) > X.cap_pcs) {
        struct pcmap_ent *old = X.pcs;
        uint32_t old_cap = X.cap_pcs;
        X.cap_pcs = old_cap ? 2 * old_cap : 1024;
        X.pcs = goldi_alloc(X.cap_pcs * sizeof *X.pcs);
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].id) {
                uint32_t mask = X.cap_pcs - 1, j = (uint32_t)((old[i].pc * 0x9E3779B97F4A7C15ull) >> 40) & mask;
                while (X.pcs[j].id)
                    j = (j + 1) & mask;
                X.pcs[j] = old[i];
            }
        goldi_free(old);
    }
    uint32_t mask = X.cap_pcs - 1;
    for (uint32_t j = (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 40) & mask;; j = (j + 1) & mask) {
        if (X.pcs[j].id && X.pcs[j].pc == pc)
            return X.pcs[j].id - 1;
        if (!X.pcs[j].id) {
            X.pcs[j].pc = pc;
            X.pcs[j].id = ++X.n_pcs;
            return X.n_pcs - 1;
        }
    }
}

/* Appends to b[0..cap) at *n, never past the end (goldi_snprintf returns
 * the untruncated length). */
static void app(char *b, size_t cap, size_t *n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = goldi_vsnprintf(b + *n, cap - *n, fmt, ap);
    va_end(ap);
    *n += r < 0 ? 0 : (size_t)r;
    if (*n > cap - 1)
        *n = cap - 1;
}

/* One line "THREAD|OP(DECOR)|LOC". decor_kind: name table kind, key. */
static void line(const struct goldi_event *ev, const char *op, char prefix, unsigned kind, uint64_t key,
                 const char *suffix) {
    char b[STD_MAX_NAME * 3 + 64];
    const char *tn = goldi_trace_name_get(GOLDI_TRACE_NAME_THREAD, ev->thr->tid);
    const char *dn = prefix == 'T' ? goldi_trace_name_get(GOLDI_TRACE_NAME_THREAD, key)
                                   : goldi_trace_name_get(kind, key);
    char tname[160];
    if (!dn && (prefix == 'V' || prefix == 'L') && goldi_text_trace_addr_name(key, tname, sizeof tname))
        dn = tname;   /* exporting a text trace as it runs: its location and lock names */
    const char *ln = goldi_trace_name_get(GOLDI_TRACE_NAME_LOC, ev->pc);
    size_t n = 0;
    if (tn)
        app(b, sizeof b, &n, "%s|", tn);
    else
        app(b, sizeof b, &n, "T%u|", ev->thr->tid);
    if (dn && !suffix)
        app(b, sizeof b, &n, "%s(%s)|", op, dn);
    else if (prefix == 'T')
        app(b, sizeof b, &n, "%s(T%llu)|", op, (unsigned long long)key);
    else
        app(b, sizeof b, &n, "%s(%c%llx%s)|", op, prefix, (unsigned long long)key, suffix ? suffix : "");
    if (ln)
        app(b, sizeof b, &n, "%s\n", ln);
    else
        app(b, sizeof b, &n, "%u\n", loc_id(ev->pc));
    if (b[n - 1] != '\n')
        b[n - 1] = '\n';   /* an absurdly long name was cut: still one line */
    x_put(b, n);
    X.st.lines++;
}

static void accesses(const struct goldi_event *ev, bool write) {
    uint64_t a = ev->addr & ~(uint64_t)(GOLDI_GRANULE - 1), end = (uint64_t)ev->addr + ev->size;
    for (; a < end; a += GOLDI_GRANULE)
        line(ev, write ? "w" : "r", 'V', GOLDI_TRACE_NAME_VAR, a, NULL);
}

/* The empty critical section standing for one hb step on token slot k of o. */
static void pseudo_pair(const struct goldi_event *ev, const struct goldi_sync *o, const struct goldi_token *tok) {
    const char *sfx = tok == &o->tok[1] ? ".1" : ".0";
    line(ev, "acq", 'S', GOLDI_TRACE_NAME_LOCK, o->addr, sfx);
    line(ev, "rel", 'S', GOLDI_TRACE_NAME_LOCK, o->addr, sfx);
}

static void x_on_event(void *self, const struct goldi_event *ev) {
    (void)self;
    const struct goldi_sync *o = ev->obj;
    struct goldi_hb_step steps[GOLDI_HB_MAX_STEPS];
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_FORK:
        line(ev, "fork", 'T', 0, ev->other->tid, NULL);
        return;
    case GOLDI_EV_JOIN:
        line(ev, "join", 'T', 0, ev->other->tid, NULL);
        return;
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_LOCK_REL:
        if (o->kind != GOLDI_SYNC_RWLOCK) {
            line(ev, ev->kind == GOLDI_EV_LOCK_ACQ ? "acq" : "rel", 'L', GOLDI_TRACE_NAME_LOCK, o->addr, NULL);
            return;
        }
        break;
    case GOLDI_EV_WAIT_ENTER:
        line(ev, "rel", 'L', GOLDI_TRACE_NAME_LOCK, ev->obj2->addr, NULL);
        return;
    case GOLDI_EV_WAIT_EXIT:
        line(ev, "acq", 'L', GOLDI_TRACE_NAME_LOCK, ev->obj2->addr, NULL);
        return;
    case GOLDI_EV_BAR_ARRIVE:
    case GOLDI_EV_BAR_DEPART:
    case GOLDI_EV_SEM_POST:
    case GOLDI_EV_SEM_WAIT:
    case GOLDI_EV_ONCE_DONE:
    case GOLDI_EV_ONCE_RET:
        break;
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_ATOMIC_CASFAIL:
        line(ev, "acq", 'A', GOLDI_TRACE_NAME_LOCK, o->addr, NULL);
        accesses(ev, ev->kind == GOLDI_EV_ATOMIC_STORE || ev->kind == GOLDI_EV_ATOMIC_RMW);
        line(ev, "rel", 'A', GOLDI_TRACE_NAME_LOCK, o->addr, NULL);
        return;
    case GOLDI_EV_READ:
    case GOLDI_EV_WRITE:
        accesses(ev, ev->kind == GOLDI_EV_WRITE);
        return;
    case GOLDI_EV_ATOMIC_READ_SYNC:
        return;   /* derived from the atomic read, which is exported whole */
    case GOLDI_EV_EXIT:
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
    case GOLDI_EV_FENCE:
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
    case GOLDI_EV_COUNT:
        X.st.dropped[ev->kind < GOLDI_EV_COUNT ? ev->kind : 0]++;
        return;
    }
    int n = goldi_event_hb_steps(ev, steps);
    for (int i = 0; i < n; i++)
        if (steps[i].tok)
            pseudo_pair(ev, o, steps[i].tok);
}

struct goldi_sink *goldi_std_export_start(int fd) {
    X.fd = fd;
    X.buf = goldi_alloc(EXP_BUF);
    X.sink.name = "std-export";
    X.sink.self = &X;
    X.sink.index = GOLDI_MAX_ENGINES;   /* uses no estate[] slot */
    X.sink.on_event = x_on_event;
    goldi_dispatch_attach(&X.sink);
    return &X.sink;
}

int goldi_std_export_finish(struct goldi_std_export_stats *out) {
    x_flush();
    if (out)   /* (goldi_memcpy: a struct assignment may become a memcpy call, an interceptor) */
        goldi_memcpy(out, &X.st, sizeof *out);
    return X.err;
}

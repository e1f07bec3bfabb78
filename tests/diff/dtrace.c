/* Trace model of the differential suite (see dtrace.h): parser, printer and
 * well-formedness checker for the §1.5 text format. Written independently of
 * src/trace/text.c, but accepting the same grammar for the ops it knows. */
#include "dtrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

const char *const diff_op_names[D_NOPS] = {
    "fork", "exit", "join", "detach", "yield", "acq", "rel", "tryfail", "wrlock", "wrunlock",
    "rdlock", "rdunlock", "wait_enter", "wait_exit", "signal", "broadcast", "bar_arrive",
    "bar_depart", "sem_post", "sem_wait", "once_done", "once_ret", "st", "ld", "rmw", "casfail",
    "fence", "sigfence", "rd", "wr", "rdr", "wrr", "alloc", "free",
};
const char *const diff_mo_names[6] = {"rlx", "con", "acq", "rel", "acq_rel", "sc"};

static void *xrealloc(void *p, size_t n) {
    p = realloc(p, n);
    if (!p) {
        perror("realloc");
        exit(3);
    }
    return p;
}

bool diff_is_access(uint8_t op) {
    switch (op) {
    case D_RD: case D_WR: case D_RDR: case D_WRR: case D_ST: case D_LD: case D_RMW: case D_CASFAIL: case D_FREE:
        return true;
    default:
        return false;
    }
}
bool diff_is_write(uint8_t op) {
    return op == D_WR || op == D_WRR || op == D_ST || op == D_RMW || op == D_FREE;
}
bool diff_is_atomic(uint8_t op) { return op == D_ST || op == D_LD || op == D_RMW || op == D_CASFAIL; }
bool diff_mo_acquire(uint8_t mo) { return mo == MO_CON || mo == MO_ACQ || mo == MO_ACQ_REL || mo == MO_SC; }
bool diff_mo_release(uint8_t mo) { return mo == MO_REL || mo == MO_ACQ_REL || mo == MO_SC; }

/* --- names ----------------------------------------------------------------- */

int diff_name_find(const struct dnames *t, const char *s, size_t n) {
    for (uint32_t i = 0; i < t->n; i++)
        if (strlen(t->s[i]) == n && memcmp(t->s[i], s, n) == 0)
            return (int)i;
    return -1;
}

uint32_t diff_name_id(struct dnames *t, const char *s, size_t n) {
    int id = diff_name_find(t, s, n);
    if (id >= 0)
        return (uint32_t)id;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->s = xrealloc(t->s, t->cap * sizeof *t->s);
    }
    char *c = xrealloc(NULL, n + 1);
    memcpy(c, s, n);
    c[n] = 0;
    t->s[t->n] = c;
    return t->n++;
}

static void names_free(struct dnames *t) {
    for (uint32_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    memset(t, 0, sizeof *t);
}

static void names_copy(struct dnames *d, const struct dnames *s) {
    memset(d, 0, sizeof *d);
    for (uint32_t i = 0; i < s->n; i++)
        diff_name_id(d, s->s[i], strlen(s->s[i]));
}

void diff_trace_init(struct dtrace *t) {
    memset(t, 0, sizeof *t);
    diff_name_id(&t->thr, "T0", 2);
}

void diff_trace_free(struct dtrace *t) {
    free(t->ev);
    free(t->bar_count);
    names_free(&t->thr);
    names_free(&t->loc);
    names_free(&t->sync);
    names_free(&t->lab);
    memset(t, 0, sizeof *t);
}

void diff_trace_copy(struct dtrace *dst, const struct dtrace *src) {
    memset(dst, 0, sizeof *dst);
    names_copy(&dst->thr, &src->thr);
    names_copy(&dst->loc, &src->loc);
    names_copy(&dst->sync, &src->sync);
    names_copy(&dst->lab, &src->lab);
    dst->n = dst->cap = src->n;
    dst->ev = xrealloc(NULL, (src->n ? src->n : 1) * sizeof *dst->ev);
    if (src->n)
        memcpy(dst->ev, src->ev, src->n * sizeof *dst->ev);
    for (uint32_t i = 0; i < src->n_bar_count; i++)
        diff_trace_set_bar_count(dst, i, src->bar_count[i]);
}

void diff_trace_set_bar_count(struct dtrace *t, uint32_t sync, uint32_t n) {
    if (sync >= t->n_bar_count) {
        if (!n)
            return;
        t->bar_count = xrealloc(t->bar_count, (sync + 1) * sizeof *t->bar_count);
        memset(t->bar_count + t->n_bar_count, 0, (sync + 1 - t->n_bar_count) * sizeof *t->bar_count);
        t->n_bar_count = sync + 1;
    }
    t->bar_count[sync] = n;
}

struct dev *diff_trace_push(struct dtrace *t) {
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->ev = xrealloc(t->ev, t->cap * sizeof *t->ev);
    }
    struct dev *e = &t->ev[t->n++];
    memset(e, 0, sizeof *e);
    e->other = e->loc = e->sync = e->sync2 = e->label = D_NONE;
    return e;
}

/* --- parser ------------------------------------------------------------------ */

struct ptok { const char *s; size_t n; };

struct pstate {
    struct dtrace *t;
    char *err;
    size_t errlen;
    uint32_t line;
    uint32_t *alloc_ext;    /* per loc: end offset of the last alloc (default free extent) */
    uint32_t n_alloc_ext;
    /* barriers without explicit generations */
    uint32_t *bar_arrivals, n_bar;   /* (counts: the trace's bar_count) */
    uint32_t *last_gen;     /* [sync * 1024 + thread] last arrival generation + 1 */
    uint32_t n_last_gen;
};

static int perr(struct pstate *p, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "line %u: %s", p->line, msg);
    return -1;
}

static bool teq(const struct ptok *t, const char *s) { return t->n == strlen(s) && memcmp(t->s, s, t->n) == 0; }

static bool tnum(const struct ptok *t, uint64_t *out) {
    if (!t->n || t->n > 18)
        return false;
    char buf[24];
    memcpy(buf, t->s, t->n);
    buf[t->n] = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end || buf[0] == '-' || buf[0] == '+')
        return false;
    *out = v;
    return true;
}

/* Op of a token (mo gets the order of st./ld./rmw./casfail./fence.); -1 if none. */
static int op_of(const struct ptok *t, int *mo) {
    *mo = -1;
    for (int i = 0; i < D_NOPS; i++) {
        if (i == D_ST || i == D_LD || i == D_RMW || i == D_CASFAIL || i == D_FENCE)
            continue;
        if (teq(t, diff_op_names[i]))
            return i;
    }
    if (teq(t, "rel_store")) {
        *mo = MO_REL;
        return D_ST;
    }
    if (teq(t, "acq_load")) {
        *mo = MO_ACQ;
        return D_LD;
    }
    static const struct { const char *p; int op; } pf[] = {
        {"st.", D_ST}, {"ld.", D_LD}, {"rmw.", D_RMW}, {"casfail.", D_CASFAIL}, {"fence.", D_FENCE}};
    static const struct { const char *n; int mo; } mos[] = {
        {"rlx", MO_RLX}, {"relaxed", MO_RLX}, {"con", MO_CON}, {"consume", MO_CON}, {"acq", MO_ACQ},
        {"acquire", MO_ACQ}, {"rel", MO_REL}, {"release", MO_REL}, {"acq_rel", MO_ACQ_REL},
        {"sc", MO_SC}, {"seq_cst", MO_SC}};
    for (size_t i = 0; i < sizeof pf / sizeof pf[0]; i++) {
        size_t k = strlen(pf[i].p);
        if (t->n <= k || memcmp(t->s, pf[i].p, k) != 0)
            continue;
        struct ptok m = {t->s + k, t->n - k};
        for (size_t j = 0; j < sizeof mos / sizeof mos[0]; j++)
            if (teq(&m, mos[j].n)) {
                *mo = mos[j].mo;
                return pf[i].op;
            }
        *mo = -2;
        return pf[i].op;
    }
    return -1;
}

static bool mo_ok(int op, int mo) {
    switch (op) {
    case D_ST:
        return mo == MO_RLX || mo == MO_REL || mo == MO_SC;
    case D_LD:
    case D_CASFAIL:
        return mo == MO_RLX || mo == MO_CON || mo == MO_ACQ || mo == MO_SC;
    case D_RMW:
    case D_FENCE:
        return mo >= 0;
    default:
        return true;
    }
}

static uint32_t n_args(int op, const struct ptok *tk, uint32_t i, uint32_t n) {
    uint64_t v;
    switch (op) {
    case D_EXIT: case D_YIELD: case D_SIGFENCE: case D_FENCE:
        return 0;
    case D_WAIT_ENTER: case D_WAIT_EXIT: case D_RDR: case D_WRR:
        return 2;
    case D_BAR_ARRIVE: case D_BAR_DEPART: case D_ALLOC: case D_FREE:
        return (i + 1 < n && tnum(&tk[i + 1], &v)) ? 2 : 1;
    default:
        return 1;
    }
}

/* NAME, NAME[off] or NAME[off:len]. */
static int parse_loc(struct pstate *p, const struct ptok *t, uint32_t *id, uint32_t *off, uint32_t *len,
                     bool *has_off, bool *has_len) {
    size_t nl = 0;
    while (nl < t->n && t->s[nl] != '[')
        nl++;
    if (!nl)
        return perr(p, "bad location");
    *off = 0;
    *len = 8;
    *has_off = *has_len = false;
    if (nl < t->n) {
        if (t->s[t->n - 1] != ']')
            return perr(p, "bad location");
        const char *a = t->s + nl + 1, *end = t->s + t->n - 1, *colon = a;
        while (colon < end && *colon != ':')
            colon++;
        uint64_t o, l = 8;
        struct ptok to = {a, (size_t)(colon - a)}, tl = {colon + 1, colon < end ? (size_t)(end - colon - 1) : 0};
        if (!tnum(&to, &o) || (colon < end && !tnum(&tl, &l)))
            return perr(p, "bad offset/length");
        if (o >= D_SLOT || l == 0 || l > D_SLOT - o)
            return perr(p, "location outside its 64-byte slot");
        *off = (uint32_t)o;
        *len = (uint32_t)l;
        *has_off = true;
        *has_len = colon < end;
    }
    *id = diff_name_id(&p->t->loc, t->s, nl);
    if (*id >= p->n_alloc_ext) {
        uint32_t n = (*id + 1) * 2;
        p->alloc_ext = xrealloc(p->alloc_ext, n * sizeof *p->alloc_ext);
        for (uint32_t i = p->n_alloc_ext; i < n; i++)
            p->alloc_ext[i] = 8;
        p->n_alloc_ext = n;
    }
    return 0;
}

static int thread_of(struct pstate *p, const struct ptok *t, uint16_t *out) {
    int id = diff_name_find(&p->t->thr, t->s, t->n);
    if (id < 0)
        return perr(p, "unknown thread '%.*s'", (int)t->n, t->s);
    *out = (uint16_t)id;
    return 0;
}

static uint32_t *grow_u32(uint32_t *a, uint32_t *n, uint32_t need) {
    if (need <= *n)
        return a;
    uint32_t nn = need * 2;
    a = xrealloc(a, nn * sizeof *a);
    memset(a + *n, 0, (nn - *n) * sizeof *a);
    *n = nn;
    return a;
}

static int do_event(struct pstate *p, const struct ptok *lab, const struct ptok *tk, uint32_t na, int op, int mo) {
    struct dtrace *t = p->t;
    uint16_t tid = 0;
    if (thread_of(p, &tk[0], &tid))
        return -1;
    if (mo == -2 || !mo_ok(op, mo))
        return perr(p, "invalid memory order");
    const struct ptok *a = &tk[2];
    struct dev *e = diff_trace_push(t);
    e->op = (uint8_t)op;
    e->tid = tid;
    e->line = p->line;
    e->mo = mo >= 0 ? (uint8_t)mo : 0;
    if (lab)
        e->label = (uint16_t)diff_name_id(&t->lab, lab->s, lab->n);
    uint32_t id, off, len;
    bool ho, hl;
    uint64_t v;
    switch (op) {
    case D_FORK:
        if (diff_name_find(&t->thr, a[0].s, a[0].n) >= 0)
            return perr(p, "thread '%.*s' forked twice", (int)a[0].n, a[0].s);
        e->other = (uint16_t)diff_name_id(&t->thr, a[0].s, a[0].n);
        break;
    case D_JOIN:
    case D_DETACH:
        if (thread_of(p, &a[0], &e->other))
            return -1;
        break;
    case D_EXIT: case D_YIELD: case D_SIGFENCE: case D_FENCE:
        break;
    case D_ACQ: case D_REL: case D_TRYFAIL: case D_WRLOCK: case D_WRUNLOCK: case D_RDLOCK: case D_RDUNLOCK:
    case D_SIGNAL: case D_BROADCAST: case D_SEM_POST: case D_SEM_WAIT: case D_ONCE_DONE: case D_ONCE_RET:
        e->sync = (uint16_t)diff_name_id(&t->sync, a[0].s, a[0].n);
        break;
    case D_WAIT_ENTER:
    case D_WAIT_EXIT:
        e->sync = (uint16_t)diff_name_id(&t->sync, a[0].s, a[0].n);
        e->sync2 = (uint16_t)diff_name_id(&t->sync, a[1].s, a[1].n);
        break;
    case D_BAR_ARRIVE:
    case D_BAR_DEPART: {
        e->sync = (uint16_t)diff_name_id(&t->sync, a[0].s, a[0].n);
        uint32_t key = (uint32_t)e->sync * 1024u + tid;
        p->last_gen = grow_u32(p->last_gen, &p->n_last_gen, key + 1);
        p->bar_arrivals = grow_u32(p->bar_arrivals, &p->n_bar, e->sync + 1u);
        uint32_t count = e->sync < t->n_bar_count ? t->bar_count[e->sync] : 0;
        if (na == 2) {
            tnum(&a[1], &v);
            e->gen = (uint32_t)v;
        } else if (op == D_BAR_ARRIVE) {
            if (!count)
                return perr(p, "barrier without declared count");
            /* arrivals live in bar_arrivals, zeroed when the barrier was declared */
            e->gen = p->bar_arrivals[e->sync]++ / count;
        } else {
            if (!p->last_gen[key])
                return perr(p, "bar_depart without bar_arrive");
            e->gen = p->last_gen[key] - 1;
        }
        p->last_gen[key] = e->gen + 1;
        break;
    }
    case D_ST: case D_LD: case D_RMW: case D_CASFAIL: case D_RD: case D_WR:
        if (parse_loc(p, &a[0], &id, &off, &len, &ho, &hl))
            return -1;
        if (ho && !hl)
            return perr(p, "access needs NAME or NAME[off:len]");
        e->loc = (uint16_t)id;
        e->off = (uint8_t)off;
        e->len = (uint8_t)len;
        e->form = ho ? 1 : 0;
        break;
    case D_RDR: case D_WRR: case D_ALLOC: case D_FREE:
        if (parse_loc(p, &a[0], &id, &off, &len, &ho, &hl))
            return -1;
        if (hl)
            return perr(p, "range op takes NAME or NAME[off]");
        if (na == 2) {
            if (!tnum(&a[1], &v))
                return perr(p, "bad byte count");
        } else {
            v = op == D_FREE ? (p->alloc_ext[id] > off ? p->alloc_ext[id] - off : 0) : 8;
        }
        if (v > D_SLOT - off || (v == 0 && op != D_ALLOC && op != D_FREE))
            return perr(p, "byte count leaves the slot");
        if (op == D_ALLOC)
            p->alloc_ext[id] = (uint32_t)(v + off);
        e->loc = (uint16_t)id;
        e->off = (uint8_t)off;
        e->len = (uint8_t)v;
        e->form = 2;
        break;
    }
    return 0;
}

static int do_line(struct pstate *p, const char *s, const char *end) {
    static struct ptok tk[1024];
    uint32_t n = 0;
    for (const char *q = s; q < end; q++)
        if (*q == '#') {
            end = q;
            break;
        }
    while (s < end) {
        if (*s == ' ' || *s == '\t' || *s == '\r') {
            s++;
            continue;
        }
        if (n == 1024)
            return perr(p, "too many tokens");
        const char *b = s;
        if (*s == ';')
            s++;
        else
            while (s < end && *s != ' ' && *s != '\t' && *s != '\r' && *s != ';')
                s++;
        tk[n].s = b;
        tk[n].n = (size_t)(s - b);
        n++;
    }
    uint32_t i = 0;
    while (i < n) {
        int mo;
        if (teq(&tk[i], ";")) {
            i++;
            continue;
        }
        if (teq(&tk[i], "barrier")) {
            uint64_t c;
            if (i + 2 >= n || !tnum(&tk[i + 2], &c) || !c)
                return perr(p, "bad barrier declaration");
            uint32_t sid = diff_name_id(&p->t->sync, tk[i + 1].s, tk[i + 1].n);
            p->bar_arrivals = grow_u32(p->bar_arrivals, &p->n_bar, sid + 1);
            p->bar_arrivals[sid] = 0;
            diff_trace_set_bar_count(p->t, sid, (uint32_t)c);
            i += 3;
            continue;
        }
        struct ptok lab, *labp = NULL;
        if (tk[i].n > 1 && tk[i].s[tk[i].n - 1] == ':') {
            lab = (struct ptok){tk[i].s, tk[i].n - 1};
            labp = &lab;
            i++;
        } else if (i + 2 < n && op_of(&tk[i + 1], &mo) < 0 && op_of(&tk[i + 2], &mo) >= 0) {
            lab = tk[i];
            labp = &lab;
            i++;
        }
        int op;
        if (i + 1 >= n || (op = op_of(&tk[i + 1], &mo)) < 0)
            return perr(p, "expected THREAD OP ARGS");
        uint32_t na = n_args(op, tk, i + 2, n);
        if (i + 2 + na > n)
            return perr(p, "missing arguments");
        for (uint32_t k = 0; k < na; k++)
            if (teq(&tk[i + 2 + k], ";"))
                return perr(p, "missing arguments");
        if (do_event(p, labp, &tk[i], na, op, mo))
            return -1;
        i += 2 + na;
    }
    return 0;
}

int diff_trace_parse(const char *text, size_t len, struct dtrace *t, char *err, size_t errlen) {
    struct pstate p = {.t = t, .err = err, .errlen = errlen};
    diff_trace_init(t);
    const char *s = text, *end = text + len;
    int rc = 0;
    while (s < end && !rc) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            nl = end;
        p.line++;
        rc = do_line(&p, s, nl);
        s = nl + 1;
    }
    free(p.alloc_ext);
    free(p.bar_arrivals);
    free(p.last_gen);
    return rc;
}

/* --- printer ----------------------------------------------------------------- */

struct sbuf { char *s; size_t n, cap; };

static void sb_printf(struct sbuf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (b->s && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + (size_t)k + 256;
        b->s = xrealloc(b->s, b->cap);
    }
}

char *diff_trace_print(const struct dtrace *t, bool labels) {
    struct sbuf b = {0};
    sb_printf(&b, "%s", "");
    for (uint32_t i = 0; i < t->n_bar_count; i++)
        if (t->bar_count[i])
            sb_printf(&b, "barrier %s %u\n", t->sync.s[i], t->bar_count[i]);
    for (uint32_t i = 0; i < t->n; i++) {
        const struct dev *e = &t->ev[i];
        if (labels)
            sb_printf(&b, "E%u: ", i);
        sb_printf(&b, "%s ", t->thr.s[e->tid]);
        switch (e->op) {
        case D_ST: case D_LD: case D_RMW: case D_CASFAIL: case D_FENCE:
            sb_printf(&b, "%s.%s", diff_op_names[e->op], diff_mo_names[e->mo]);
            break;
        default:
            sb_printf(&b, "%s", diff_op_names[e->op]);
        }
        switch (e->op) {
        case D_FORK: case D_JOIN: case D_DETACH:
            sb_printf(&b, " %s", t->thr.s[e->other]);
            break;
        case D_ACQ: case D_REL: case D_TRYFAIL: case D_WRLOCK: case D_WRUNLOCK: case D_RDLOCK: case D_RDUNLOCK:
        case D_SIGNAL: case D_BROADCAST: case D_SEM_POST: case D_SEM_WAIT: case D_ONCE_DONE: case D_ONCE_RET:
            sb_printf(&b, " %s", t->sync.s[e->sync]);
            break;
        case D_WAIT_ENTER: case D_WAIT_EXIT:
            sb_printf(&b, " %s %s", t->sync.s[e->sync], t->sync.s[e->sync2]);
            break;
        case D_BAR_ARRIVE: case D_BAR_DEPART:
            sb_printf(&b, " %s %u", t->sync.s[e->sync], e->gen);
            break;
        case D_ST: case D_LD: case D_RMW: case D_CASFAIL: case D_RD: case D_WR:
            if (e->off == 0 && e->len == 8)
                sb_printf(&b, " %s", t->loc.s[e->loc]);
            else
                sb_printf(&b, " %s[%u:%u]", t->loc.s[e->loc], e->off, e->len);
            break;
        case D_RDR: case D_WRR: case D_ALLOC: case D_FREE:
            if (e->off)
                sb_printf(&b, " %s[%u] %u", t->loc.s[e->loc], e->off, e->len);
            else
                sb_printf(&b, " %s %u", t->loc.s[e->loc], e->len);
            break;
        default:
            break;
        }
        sb_printf(&b, "\n");
    }
    return b.s;
}

/* --- well-formedness ------------------------------------------------------------ */

enum { TS_NONE, TS_RUN, TS_EXITED, TS_JOINED };
enum { SK_NONE, SK_MUTEX, SK_RW, SK_COND, SK_BAR, SK_SEM, SK_ONCE };

static int sync_kind_of(uint8_t op, bool second) {
    switch (op) {
    case D_ACQ: case D_REL: case D_TRYFAIL:
        return SK_MUTEX;
    case D_WRLOCK: case D_WRUNLOCK: case D_RDLOCK: case D_RDUNLOCK:
        return SK_RW;
    case D_WAIT_ENTER: case D_WAIT_EXIT:
        return second ? SK_MUTEX : SK_COND;
    case D_SIGNAL: case D_BROADCAST:
        return SK_COND;
    case D_BAR_ARRIVE: case D_BAR_DEPART:
        return SK_BAR;
    case D_SEM_POST: case D_SEM_WAIT:
        return SK_SEM;
    case D_ONCE_DONE: case D_ONCE_RET:
        return SK_ONCE;
    default:
        return SK_NONE;
    }
}

bool diff_trace_valid(const struct dtrace *t, char *why, size_t wn) {
    uint32_t nt = t->thr.n, ns = t->sync.n;
    uint8_t *st = calloc(nt + 1, 1);
    uint8_t *detached = calloc(nt + 1, 1);
    /* blocked: 0 no; 1 in a cond wait (bsync = CV, bsync2 = M); 2 at a barrier (bsync, bgen) */
    uint8_t *blocked = calloc(nt + 1, 1);
    uint32_t *bsync = calloc(nt + 1, sizeof *bsync), *bsync2 = calloc(nt + 1, sizeof *bsync2);
    uint32_t *bgen = calloc(nt + 1, sizeof *bgen);
    uint8_t *kind = calloc(ns + 1, 1);
    int32_t *holder = malloc((ns + 1) * sizeof *holder);     /* mutex/rwlock writer, -1 none */
    uint32_t *readers = calloc(ns + 1, sizeof *readers);     /* rwlock: number of readers */
    uint8_t *rd = calloc((size_t)(ns + 1) * (nt + 1), 1);    /* rwlock: thread holds read mode */
    int64_t *count = calloc(ns + 1, sizeof *count);          /* semaphore count; once: done */
    bool ok = true;
    char msg[160] = "";
    for (uint32_t s = 0; s <= ns; s++)
        holder[s] = -1;
    st[0] = TS_RUN;
#define BAD(...) do { snprintf(msg, sizeof msg, __VA_ARGS__); ok = false; goto out; } while (0)
    for (uint32_t i = 0; i < t->n; i++) {
        const struct dev *e = &t->ev[i];
        uint32_t me = e->tid;
        if (st[me] != TS_RUN)
            BAD("event %u: thread %s is not running", i, t->thr.s[me]);
        for (int k = 0; k < 2; k++) {
            uint32_t s = k ? e->sync2 : e->sync;
            int sk = sync_kind_of(e->op, k);
            if (s == D_NONE || sk == SK_NONE)
                continue;
            if (kind[s] && kind[s] != sk)
                BAD("event %u: %s used as two kinds of object", i, t->sync.s[s]);
            kind[s] = (uint8_t)sk;
        }
        if (blocked[me]) {
            bool fine = (blocked[me] == 1 && e->op == D_WAIT_EXIT && e->sync == bsync[me] && e->sync2 == bsync2[me]) ||
                        (blocked[me] == 2 && e->op == D_BAR_DEPART && e->sync == bsync[me] && e->gen == bgen[me]);
            if (!fine)
                BAD("event %u: thread %s is blocked", i, t->thr.s[me]);
        }
        switch (e->op) {
        case D_FORK:
            if (st[e->other] != TS_NONE)
                BAD("event %u: fork of an existing thread", i);
            st[e->other] = TS_RUN;
            break;
        case D_EXIT:
            st[me] = TS_EXITED;
            break;
        case D_JOIN:
            if (e->other == me || detached[e->other] || (st[e->other] != TS_EXITED && st[e->other] != TS_RUN) ||
                blocked[e->other])
                BAD("event %u: bad join of %s", i, t->thr.s[e->other]);
            st[e->other] = TS_JOINED;
            break;
        case D_DETACH:
            if (st[e->other] == TS_NONE || st[e->other] == TS_JOINED)
                BAD("event %u: bad detach", i);
            detached[e->other] = 1;
            break;
        case D_ACQ:
            if (holder[e->sync] >= 0)
                BAD("event %u: %s acquires held mutex %s", i, t->thr.s[me], t->sync.s[e->sync]);
            holder[e->sync] = (int32_t)me;
            break;
        case D_REL:
            if (holder[e->sync] != (int32_t)me)
                BAD("event %u: %s releases %s it does not hold", i, t->thr.s[me], t->sync.s[e->sync]);
            holder[e->sync] = -1;
            break;
        case D_WRLOCK:
            if (holder[e->sync] >= 0 || readers[e->sync])
                BAD("event %u: wrlock of a held rwlock", i);
            holder[e->sync] = (int32_t)me;
            break;
        case D_WRUNLOCK:
            if (holder[e->sync] != (int32_t)me)
                BAD("event %u: wrunlock without wrlock", i);
            holder[e->sync] = -1;
            break;
        case D_RDLOCK:
            if (holder[e->sync] >= 0 || rd[(size_t)e->sync * (nt + 1) + me])
                BAD("event %u: rdlock of a write-held (or own read-held) rwlock", i);
            rd[(size_t)e->sync * (nt + 1) + me] = 1;
            readers[e->sync]++;
            break;
        case D_RDUNLOCK:
            if (!rd[(size_t)e->sync * (nt + 1) + me])
                BAD("event %u: rdunlock without rdlock", i);
            rd[(size_t)e->sync * (nt + 1) + me] = 0;
            readers[e->sync]--;
            break;
        case D_WAIT_ENTER:
            if (holder[e->sync2] != (int32_t)me)
                BAD("event %u: wait_enter without holding %s", i, t->sync.s[e->sync2]);
            holder[e->sync2] = -1;
            blocked[me] = 1;
            bsync[me] = e->sync;
            bsync2[me] = e->sync2;
            break;
        case D_WAIT_EXIT:
            if (blocked[me] != 1 || holder[e->sync2] >= 0)
                BAD("event %u: wait_exit without wait_enter or with %s held", i, t->sync.s[e->sync2]);
            holder[e->sync2] = (int32_t)me;
            blocked[me] = 0;
            break;
        case D_BAR_ARRIVE:
            /* trap T7: generation g+2 reuses g's slot, so every thread must
             * have left g before anyone arrives at g+2 */
            for (uint32_t u = 0; u < nt; u++)
                if (blocked[u] == 2 && bsync[u] == e->sync && bgen[u] + 2 <= e->gen)
                    BAD("event %u: barrier generation %u while %s still waits at %u", i, e->gen,
                        t->thr.s[u], bgen[u]);
            blocked[me] = 2;
            bsync[me] = e->sync;
            bgen[me] = e->gen;
            break;
        case D_BAR_DEPART:
            if (blocked[me] != 2)
                BAD("event %u: bar_depart without bar_arrive", i);
            blocked[me] = 0;
            break;
        case D_SEM_POST:
            count[e->sync]++;
            break;
        case D_SEM_WAIT:
            if (count[e->sync] <= 0)
                BAD("event %u: sem_wait on a zero semaphore", i);
            count[e->sync]--;
            break;
        case D_ONCE_DONE:
            if (count[e->sync])
                BAD("event %u: once_done twice", i);
            count[e->sync] = 1;
            break;
        case D_ONCE_RET:
            if (!count[e->sync])
                BAD("event %u: once_ret before once_done", i);
            break;
        default:
            break;
        }
    }
out:
#undef BAD
    if (why && wn)
        snprintf(why, wn, "%s", msg);
    free(st);
    free(detached);
    free(blocked);
    free(bsync);
    free(bsync2);
    free(bgen);
    free(kind);
    free(holder);
    free(readers);
    free(rd);
    free(count);
    return ok;
}

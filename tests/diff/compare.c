/* Engine runner and comparator of the differential suite (see diff.h). The
 * engines run in a child process per trace (engines cannot be detached, and a
 * crash or hang must fail one trace, not the run), fed by the product's own
 * text parser (src/trace/text.c); their reports come back through a pipe. */
#define _GNU_SOURCE
#include "diff.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "trace/text.h"

bool diff_eraser_all;

/* --- findings -------------------------------------------------------------------- */

void diff_findings_add(struct findings *f, const char *fmt, ...) {
    if (!f)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 8;
        f->msg = realloc(f->msg, f->cap * sizeof *f->msg);
    }
    f->msg[f->n++] = strdup(buf);
}

void diff_findings_free(struct findings *f) {
    for (uint32_t i = 0; i < f->n; i++)
        free(f->msg[i]);
    free(f->msg);
    memset(f, 0, sizeof *f);
}

/* --- child: run the engines ----------------------------------------------------- */

struct child_eng {
    int index;
    struct erep *r;
    uint32_t n, cap;
    const struct dtrace *t;
};

static uint32_t origin_event(goldi_origin_t o) {
    struct goldi_origin_info info;
    if (!o || !goldi_origin_lookup(o, &info) || info.n_frames == 0 || info.frames[0] == 0)
        return O_NONE;
    return (uint32_t)(info.frames[0] - 1);
}

static void child_on_race(void *ctx, const struct goldi_race *r) {
    struct child_eng *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 32;
        c->r = realloc(c->r, c->cap * sizeof *c->r);
    }
    struct erep *e = &c->r[c->n++];
    memset(e, 0, sizeof *e);
    e->eng = (uint8_t)c->index;
    e->idx = origin_event(r->cur);
    e->prev = origin_event(r->prev);
    e->cw = r->cur_write;
    e->pw = r->prev_write;
    e->ca = r->cur_atomic;
    e->pa = r->prev_atomic;
    e->loc = D_NONE;
    /* resolve the address right away: it names a slot of the parser's arena */
    char name[160];
    if (goldi_text_trace_addr_name(r->addr, name, sizeof name)) {
        char *plus = strchr(name, '+');
        uint32_t off = plus ? (uint32_t)atoi(plus + 1) : 0;
        int id = diff_name_find(&c->t->loc, name, plus ? (size_t)(plus - name) : strlen(name));
        if (id >= 0 && off + r->size <= D_SLOT) {
            e->loc = (uint16_t)id;
            e->off = (uint8_t)off;
            e->size = (uint8_t)r->size;
        }
    }
    snprintf(e->why, sizeof e->why, "%.111s", r->why);
}

static void write_all(int fd, const void *p, size_t n) {
    const char *s = p;
    while (n) {
        ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(4);
        s += k;
        n -= (size_t)k;
    }
}

static void child_main(const struct dtrace *t, const char *text, const struct diff_engine *eng, int n_eng, int fd) {
    alarm(20);
    static struct child_eng ce[DIFF_MAX_ENGINES];
    for (int i = 0; i < n_eng; i++) {
        ce[i].index = i;
        ce[i].t = t;
        goldi_engine_start(eng[i].ops, child_on_race, &ce[i]);
    }
    struct goldi_text_trace_result res;
    char err[256];
    int rc = goldi_text_trace_run(text, strlen(text), &res, err, sizeof err);
    int32_t status = rc ? ER_PARSE : ER_OK;
    write_all(fd, &status, sizeof status);
    char msg[256] = "";
    if (rc)
        snprintf(msg, sizeof msg, "%s", err);
    else if (res.n_events != t->n)
        snprintf(msg, sizeof msg, "parser saw %u events, the suite's model %u", res.n_events, t->n);
    write_all(fd, msg, sizeof msg);
    uint32_t total = 0;
    for (int i = 0; i < n_eng; i++)
        total += ce[i].n;
    write_all(fd, &total, sizeof total);
    for (int i = 0; i < n_eng; i++)
        if (ce[i].n)
            write_all(fd, ce[i].r, ce[i].n * sizeof *ce[i].r);
    _exit(0);
}

static bool read_all(int fd, void *p, size_t n) {
    char *s = p;
    while (n) {
        ssize_t k = read(fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        s += k;
        n -= (size_t)k;
    }
    return true;
}

void diff_run_engines(const struct dtrace *t, const char *text, const struct diff_engine *eng, int n_eng,
                      struct engine_run *out) {
    memset(out, 0, sizeof *out);
    int p[2];
    if (pipe(p)) {
        perror("pipe");
        exit(3);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(3);
    }
    if (pid == 0) {
        close(p[0]);
        child_main(t, text, eng, n_eng, p[1]);
    }
    close(p[1]);
    int32_t status = -1;
    bool ok = read_all(p[0], &status, sizeof status) && read_all(p[0], out->msg, sizeof out->msg) &&
              read_all(p[0], &out->n, sizeof out->n);
    if (ok && out->n) {
        out->r = malloc(out->n * sizeof *out->r);
        ok = read_all(p[0], out->r, out->n * sizeof *out->r);
    }
    close(p[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(st)) {
        out->status = WTERMSIG(st) == SIGALRM ? ER_TIMEOUT : ER_CRASH;
        snprintf(out->msg, sizeof out->msg, "engine child %s (signal %d)",
                 WTERMSIG(st) == SIGALRM ? "timed out" : "crashed", WTERMSIG(st));
        out->n = 0;
    } else if (!ok) {
        out->status = ER_CRASH;
        snprintf(out->msg, sizeof out->msg, "engine child exited early (status %d)", WEXITSTATUS(st));
        out->n = 0;
    } else {
        out->status = status;
    }
}

void diff_run_free(struct engine_run *r) {
    free(r->r);
    memset(r, 0, sizeof *r);
}

/* --- comparison ------------------------------------------------------------------ */

static bool ev_touches(const struct dev *e, uint32_t loc, uint32_t off) {
    return diff_is_access(e->op) && e->loc == loc && e->off <= off && off < (uint32_t)e->off + e->len;
}

/* First report per (byte, lifetime) of engine ei, with kind. */
struct fr { uint16_t loc; uint8_t off; uint32_t life, idx; bool any_w, cw; };

static int fr_find(struct fr *a, uint32_t n, uint32_t loc, uint32_t off, uint32_t life) {
    for (uint32_t i = 0; i < n; i++)
        if (a[i].loc == loc && a[i].off == off && a[i].life == life)
            return (int)i;
    return -1;
}

/* Builds the first-report table; reports with bad coordinates are findings. */
static uint32_t first_table(const struct dtrace *t, const struct engine_run *r, int ei, struct fr **out,
                            struct findings *f, const char *name) {
    uint32_t n = 0, cap = 64;
    struct fr *a = malloc(cap * sizeof *a);
    for (uint32_t k = 0; k < r->n; k++) {
        const struct erep *p = &r->r[k];
        if (p->eng != ei)
            continue;
        if (p->idx == O_NONE || p->idx >= t->n || p->loc == D_NONE) {
            diff_findings_add(f, "%s: report with unknown event or address (event %u): %s", name, p->idx, p->why);
            continue;
        }
        for (uint32_t b = p->off; b < (uint32_t)p->off + p->size; b++) {
            if (!ev_touches(&t->ev[p->idx], p->loc, b)) {
                diff_findings_add(f, "%s: report at E%u names byte %s+%u, which that event does not touch", name,
                                  p->idx, t->loc.s[p->loc], b);
                continue;
            }
            uint32_t life = diff_oracle_life(t, p->loc, b, p->idx);
            int j = fr_find(a, n, p->loc, b, life);
            if (j < 0) {
                if (n == cap)
                    a = realloc(a, (cap *= 2) * sizeof *a);
                a[n++] = (struct fr){p->loc, (uint8_t)b, life, p->idx, false, p->cw};
            } else if (p->idx < a[j].idx) {
                a[j].idx = p->idx;
                a[j].any_w = false;
                a[j].cw = p->cw;
            }
        }
    }
    /* kind: a write partner among the reports of the first event on the byte */
    for (uint32_t k = 0; k < r->n; k++) {
        const struct erep *p = &r->r[k];
        if (p->eng != ei || p->idx == O_NONE || p->idx >= t->n || p->loc == D_NONE || !p->pw)
            continue;
        for (uint32_t b = p->off; b < (uint32_t)p->off + p->size; b++) {
            int j = fr_find(a, n, p->loc, b, diff_oracle_life(t, p->loc, b, p->idx));
            if (j >= 0 && a[j].idx == p->idx)
                a[j].any_w = true;
        }
    }
    *out = a;
    return n;
}

static uint8_t fr_kind(const struct fr *x) { return x->any_w ? (x->cw ? K_WW : K_WR) : K_RW; }

/* Groups byte-level disagreements of one kind into one message per event pair. */
struct mism { uint32_t exp, got; uint8_t ek, gk; uint16_t loc; uint8_t lo, hi; uint32_t life; };

static void add_mism(struct mism **m, uint32_t *n, struct mism x) {
    for (uint32_t i = 0; i < *n; i++) {
        struct mism *y = &(*m)[i];
        if (y->exp == x.exp && y->got == x.got && y->ek == x.ek && y->gk == x.gk && y->loc == x.loc &&
            y->life == x.life && x.lo == y->hi + 1) {
            y->hi = x.lo;
            return;
        }
    }
    *m = realloc(*m, (*n + 1) * sizeof **m);
    (*m)[(*n)++] = x;
}

static void ev_name(uint32_t i, char *b, size_t n) {
    if (i == O_NONE)
        snprintf(b, n, "none");
    else
        snprintf(b, n, "E%u", i);
}

static void compare_exact(const struct dtrace *t, const struct oracle *o, const struct engine_run *r, int ei,
                          const struct diff_engine *eng, struct findings *f) {
    bool wx = eng->cls == DC_WX;
    struct fr *a;
    uint32_t na = first_table(t, r, ei, &a, f, eng->name);
    struct mism *m = NULL;
    uint32_t nm = 0;
    /* every accessed (byte, lifetime) */
    for (uint32_t k = 0; k < o->nb; k++) {
        const struct obyte *ob = &o->b[k];
        uint32_t exp = wx ? ob->wx : ob->full;
        uint8_t ek = wx ? ob->wx_kind : ob->full_kind;
        int j = fr_find(a, na, ob->loc, ob->off, ob->life);
        uint32_t got = j >= 0 ? a[j].idx : O_NONE;
        uint8_t gk = j >= 0 ? fr_kind(&a[j]) : K_NONE;
        if (j >= 0)
            a[j].life |= 0x80000000u;   /* seen */
        if (exp != got || ek != gk)
            add_mism(&m, &nm, (struct mism){exp, got, ek, gk, ob->loc, ob->off, ob->off, ob->life});
    }
    for (uint32_t j = 0; j < na; j++)
        if (!(a[j].life & 0x80000000u))
            add_mism(&m, &nm, (struct mism){O_NONE, a[j].idx, K_NONE, fr_kind(&a[j]), a[j].loc, a[j].off, a[j].off,
                                            a[j].life});
    for (uint32_t i = 0; i < nm; i++) {
        char e1[16], e2[16];
        ev_name(m[i].exp, e1, sizeof e1);
        ev_name(m[i].got, e2, sizeof e2);
        diff_findings_add(f, "%s: %s[%u..%u] (lifetime %u): oracle %s %s %s, engine %s %s", eng->name,
                          t->loc.s[m[i].loc], m[i].lo, m[i].hi, m[i].life & 0x7fffffffu, wx ? "WX" : "FULL", e1,
                          diff_kind_names[m[i].ek], e2, diff_kind_names[m[i].gk]);
    }
    free(m);
    /* partners named by the first reports must be oracle races (any unordered
     * conflicting earlier access is accepted; WX: only writes) */
    for (uint32_t k = 0; k < r->n; k++) {
        const struct erep *p = &r->r[k];
        if (p->eng != ei || p->idx == O_NONE || p->idx >= t->n || p->loc == D_NONE || p->prev == O_NONE)
            continue;
        for (uint32_t b = p->off; b < (uint32_t)p->off + p->size; b++) {
            uint32_t life = diff_oracle_life(t, p->loc, b, p->idx);
            const struct obyte *ob = diff_oracle_byte(o, p->loc, b, life);
            uint32_t exp = ob ? (wx ? ob->wx : ob->full) : O_NONE;
            if (exp != p->idx)
                continue;   /* not the first race of this byte: anything goes after it */
            bool okp = diff_oracle_race_pair(o, p->prev, p->idx, p->loc, b) &&
                       (!wx || diff_is_write(t->ev[p->prev].op));
            if (!okp) {
                diff_findings_add(f, "%s: report at E%u on %s+%u names partner E%u, which is not a racing %s", eng->name,
                                  p->idx, t->loc.s[p->loc], b, p->prev, wx ? "write" : "access");
                break;
            }
        }
    }
    free(a);
}

/* ER_hb(b,ℓ) (docs/differential.md): the first event i with a plain race
 * partner j at or after the sharing point s(b,ℓ) (the first plain access by a
 * thread other than the first plain accessor). Eraser must have reported the
 * byte by then. */
static void compare_eraser(const struct dtrace *t, const struct oracle *o, const struct engine_run *r, int ei,
                           const struct diff_engine *eng, struct findings *f) {
    struct fr *a;
    uint32_t na = first_table(t, r, ei, &a, f, eng->name);
    for (uint32_t k = 0; k < o->nb; k++) {
        const struct obyte *ob = &o->b[k];
        if (ob->full == O_NONE)
            continue;
        /* plain accesses of this (byte, lifetime), trace order */
        uint32_t s = O_NONE, first_tid = D_NONE, er = O_NONE;
        for (uint32_t i = 0; i < t->n && er == O_NONE; i++) {
            const struct dev *e = &t->ev[i];
            if (!ev_touches(e, ob->loc, ob->off) || diff_is_atomic(e->op) || e->op == D_FREE ||
                diff_oracle_life(t, ob->loc, ob->off, i) != ob->life)
                continue;
            if (first_tid == D_NONE)
                first_tid = e->tid;
            else if (s == O_NONE && e->tid != first_tid)
                s = i;
            if (s == O_NONE)
                continue;
            for (uint32_t j = s; j < i; j++) {
                const struct dev *ej = &t->ev[j];
                if (diff_is_atomic(ej->op) || ej->op == D_FREE)
                    continue;
                if (diff_oracle_race_pair(o, j, i, ob->loc, ob->off)) {
                    er = i;
                    break;
                }
            }
        }
        if (er == O_NONE)
            continue;
        int j = fr_find(a, na, ob->loc, ob->off, ob->life);
        if (j < 0 || a[j].idx > er)
            diff_findings_add(f, "%s: %s+%u (lifetime %u) has a post-sharing race at E%u (first race E%u), "
                              "eraser %s", eng->name, t->loc.s[ob->loc], ob->off, ob->life, er, ob->full,
                              j < 0 ? "reports nothing" : "reports it later");
    }
    free(a);
}

/* Region engines: every conflict (cur, prev, bytes) must be a race pair. */
static void compare_region(const struct dtrace *t, const struct oracle *o, const struct engine_run *r, int ei,
                           const struct diff_engine *eng, struct findings *f) {
    for (uint32_t k = 0; k < r->n; k++) {
        const struct erep *p = &r->r[k];
        if (p->eng != ei)
            continue;
        if (p->idx == O_NONE || p->idx >= t->n || p->loc == D_NONE) {
            diff_findings_add(f, "%s: conflict with unknown event or address: %s", eng->name, p->why);
            continue;
        }
        for (uint32_t b = p->off; b < (uint32_t)p->off + p->size; b++) {
            bool ok;
            if (p->prev != O_NONE && p->prev < t->n) {
                uint32_t lo = p->prev < p->idx ? p->prev : p->idx, hi = p->prev < p->idx ? p->idx : p->prev;
                ok = diff_oracle_race_pair(o, lo, hi, p->loc, b);
            } else {
                ok = diff_oracle_races_at(o, p->idx, p->loc, b, false);
            }
            if (!ok) {
                diff_findings_add(f, "%s: conflict E%u/E%u on %s+%u is not a happens-before race (%s)", eng->name,
                                  p->idx, p->prev, t->loc.s[p->loc], b, p->why);
                break;
            }
        }
    }
}

void diff_compare(const struct dtrace *t, const struct oracle *o, const struct engine_run *r, int ei,
                  const struct diff_engine *eng, bool lock_only, struct findings *f) {
    switch (eng->cls) {
    case DC_FULL:
    case DC_WX:
        compare_exact(t, o, r, ei, eng, f);
        break;
    case DC_ERASER:
        if (lock_only || diff_eraser_all)
            compare_eraser(t, o, r, ei, eng, f);
        break;
    case DC_REGION:
        compare_region(t, o, r, ei, eng, f);
        break;
    default:
        break;
    }
}

bool diff_trace_lock_only(const struct dtrace *t) {
    for (uint32_t i = 0; i < t->n; i++)
        switch (t->ev[i].op) {
        case D_FORK: case D_EXIT: case D_JOIN: case D_ACQ: case D_REL: case D_WRLOCK: case D_WRUNLOCK:
        case D_RDLOCK: case D_RDUNLOCK: case D_RD: case D_WR: case D_RDR: case D_WRR: case D_TRYFAIL:
            break;
        default:
            return false;
        }
    return true;
}

/* --- first-report maps (metamorphic checks) --------------------------------------------- */

static int fr_cmp(const void *x, const void *y) {
    const struct firstrep *a = x, *b = y;
    if (a->loc != b->loc)
        return a->loc < b->loc ? -1 : 1;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    if (a->life != b->life)
        return a->life < b->life ? -1 : 1;
    return 0;
}

uint32_t diff_first_reports(const struct dtrace *t, const struct engine_run *r, int ei, const uint32_t *map,
                            struct firstrep **out) {
    struct fr *a;
    uint32_t na = first_table(t, r, ei, &a, NULL, "");
    struct firstrep *res = malloc((na + 1) * sizeof *res);
    uint32_t n = 0;
    for (uint32_t i = 0; i < na; i++) {
        uint32_t idx = map ? map[a[i].idx] : a[i].idx;
        res[n++] = (struct firstrep){a[i].loc, a[i].off, a[i].life, idx, fr_kind(&a[i])};
    }
    free(a);
    qsort(res, n, sizeof *res, fr_cmp);
    *out = res;
    return n;
}

uint32_t diff_first_oracle(const struct oracle *o, bool wx, const uint32_t *map, struct firstrep **out) {
    struct firstrep *res = malloc((o->nb + 1) * sizeof *res);
    uint32_t n = 0;
    for (uint32_t i = 0; i < o->nb; i++) {
        const struct obyte *b = &o->b[i];
        uint32_t idx = wx ? b->wx : b->full;
        if (idx == O_NONE)
            continue;
        res[n++] = (struct firstrep){b->loc, b->off, b->life, map ? map[idx] : idx, wx ? b->wx_kind : b->full_kind};
    }
    qsort(res, n, sizeof *res, fr_cmp);
    *out = res;
    return n;
}

/* --- metamorphic transforms ---------------------------------------------------------- */

static uint32_t *identity_map(uint32_t n) {
    uint32_t *m = malloc((n + 1) * sizeof *m);
    for (uint32_t i = 0; i < n; i++)
        m[i] = i;
    return m;
}

void diff_meta_rename(const struct dtrace *src, uint64_t seed, struct dtrace *dst, uint32_t **map) {
    diff_trace_copy(dst, src);
    /* new names T<k> with k drawn from a shuffled range: other tids, other
     * order of first use; T0 stays (it exists before the first event) */
    uint32_t n = src->thr.n, range = 2 * n + 7;
    uint32_t *nums = malloc(range * sizeof *nums);
    for (uint32_t i = 0; i < range; i++)
        nums[i] = i + 1;
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 17;
    for (uint32_t i = range - 1; i > 0; i--) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t j = (uint32_t)((s >> 33) % (i + 1));
        uint32_t x = nums[i];
        nums[i] = nums[j];
        nums[j] = x;
    }
    for (uint32_t i = 1; i < n; i++) {
        char b[32];
        snprintf(b, sizeof b, "T%u", nums[i]);
        free(dst->thr.s[i]);
        dst->thr.s[i] = strdup(b);
    }
    free(nums);
    *map = identity_map(src->n);
}

static void add_thread_at(const struct dtrace *src, uint64_t s, uint16_t forker, uint32_t p, struct dtrace *dst,
                          uint32_t **map) {
    diff_trace_copy(dst, src);
    dst->n = 0;
    uint32_t q = p + (src->n - p ? (uint32_t)((s >> 20) % (src->n - p + 1)) : 0);   /* acq before q */
    uint32_t r2 = q + (src->n - q ? (uint32_t)((s >> 40) % (src->n - q + 1)) : 0);  /* rel before r2 */
    char name[32];
    for (uint32_t k = 0;; k++) {
        snprintf(name, sizeof name, "Tfresh%u", k);
        if (diff_name_find(&dst->thr, name, strlen(name)) < 0)
            break;
    }
    uint16_t tz = (uint16_t)diff_name_id(&dst->thr, name, strlen(name));
    for (uint32_t k = 0;; k++) {
        snprintf(name, sizeof name, "Mfresh%u", k);
        if (diff_name_find(&dst->sync, name, strlen(name)) < 0)
            break;
    }
    uint16_t mz = (uint16_t)diff_name_id(&dst->sync, name, strlen(name));
    uint32_t *m = malloc((src->n + 4) * sizeof *m);
    for (uint32_t i = 0; i <= src->n; i++) {
        if (i == p) {
            struct dev *e = diff_trace_push(dst);
            e->op = D_FORK;
            e->tid = forker;
            e->other = tz;
            m[dst->n - 1] = O_NONE;
        }
        if (i == q) {
            struct dev *e = diff_trace_push(dst);
            e->op = D_ACQ;
            e->tid = tz;
            e->sync = mz;
            m[dst->n - 1] = O_NONE;
        }
        if (i == r2) {
            struct dev *e = diff_trace_push(dst);
            e->op = D_REL;
            e->tid = tz;
            e->sync = mz;
            m[dst->n - 1] = O_NONE;
        }
        if (i < src->n) {
            *diff_trace_push(dst) = src->ev[i];
            m[dst->n - 1] = i;
        }
    }
    *map = m;
}

void diff_meta_add_thread(const struct dtrace *src, uint64_t seed, struct dtrace *dst, uint32_t **map) {
    /* the forker must be running (not blocked, not exited) at the insertion
     * point: try positions and forkers until the result is well-formed */
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 5;
    for (int attempt = 0; attempt < 64; attempt++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t p = src->n ? (uint32_t)((s >> 11) % src->n) : 0;
        uint16_t forker = (attempt & 1) || !src->n ? (uint16_t)((s >> 50) % src->thr.n) : src->ev[p].tid;
        add_thread_at(src, s, forker, p, dst, map);
        if (diff_trace_valid(dst, NULL, 0) || attempt == 63)
            return;
        diff_trace_free(dst);
        free(*map);
    }
}

void diff_meta_split(const struct dtrace *src, struct dtrace *dst, uint32_t **map) {
    diff_trace_copy(dst, src);
    dst->n = 0;
    uint32_t cap = src->n + 16, *m = malloc(cap * sizeof *m);
    for (uint32_t i = 0; i < src->n; i++) {
        const struct dev *e = &src->ev[i];
        uint32_t parts = (e->op == D_WRR || e->op == D_RDR) ? e->len : 1;
        for (uint32_t k = 0; k < parts; k++) {
            struct dev *d = diff_trace_push(dst);
            *d = *e;
            if (parts > 1 || e->op == D_WRR || e->op == D_RDR) {
                d->op = e->op == D_WRR ? D_WR : D_RD;
                d->off = (uint8_t)(e->off + k);
                d->len = 1;
                d->form = 1;
            }
            if (dst->n > cap)
                m = realloc(m, (cap *= 2) * sizeof *m);
            m[dst->n - 1] = i;
        }
    }
    *map = m;
}

/* --- whole check ------------------------------------------------------------------------ */

uint32_t diff_check_trace(const struct dtrace *t, const struct diff_engine *eng, int n_eng, bool lock_only,
                          struct findings *f) {
    struct findings local = {0};
    struct findings *ff = f ? f : &local;
    uint32_t before = ff->n;
    char *text = diff_trace_print(t, false);
    struct oracle o;
    diff_oracle_run(t, &o);
    struct engine_run r;
    diff_run_engines(t, text, eng, n_eng, &r);
    if (r.status != ER_OK)
        diff_findings_add(ff, "engines: %s%s", r.status == ER_PARSE ? "trace rejected: " : "", r.msg);
    else if (r.msg[0])
        diff_findings_add(ff, "parser: %s", r.msg);
    else
        for (int i = 0; i < n_eng; i++)
            diff_compare(t, &o, &r, i, &eng[i], lock_only, ff);
    diff_run_free(&r);
    diff_oracle_free(&o);
    free(text);
    uint32_t n = ff->n - before;
    if (!f)
        diff_findings_free(&local);
    return n;
}

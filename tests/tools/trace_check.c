/* trace_check: runs engines over text traces (src/trace/text.h) and compares
 * their race reports with the expectations written in the trace:
 *     # EXPECT: E6 WR            a race first reported at event E6, kind WR
 *     # EXPECT: E6 WR, H10 RW    several (or several EXPECT lines)
 *     # EXPECT: none             no race at all
 *     # EXPECT[eraser]: ...      overrides the plain EXPECT lines for one engine
 * Comparison follows ALGORITHMS.md §3: per (byte, lifetime) only the first
 * report counts; the kind of event e is WW/WR (by e's type) if some reported
 * partner of e is a write, else RW.
 * Every file runs in its own child process (engines cannot be detached, and a
 * crash must fail one file, not the whole run); all selected engines are
 * attached together, so they see the same events.
 * Usage: trace_check [--engine=NAME[,NAME...]] [-q] FILE...   exit 0 = all pass. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/wait.h>

#include "engine/engine.h"
#include "trace/text.h"

#define MAX_ENGINES 8

struct rep {
    uint32_t idx;          /* event index of the current access (pc - 1) */
    uintptr_t addr;
    uint32_t size;
    bool cur_write, prev_write, prev_atomic, cur_atomic;
    uint32_t prev_idx;     /* event index of the partner, UINT32_MAX if unknown */
    goldi_tid_t cur_tid, prev_tid;
    char why[160];
};

struct eng {
    const struct goldi_engine_ops *ops;
    struct rep *reps;
    size_t n, cap;
};

static struct eng engines[MAX_ENGINES];
static int n_engines;
static bool quiet;

static uint32_t origin_event(goldi_origin_t o) {
    struct goldi_origin_info info;
    if (!o || !goldi_origin_lookup(o, &info) || info.n_frames == 0 || info.frames[0] == 0)
        return UINT32_MAX;
    return (uint32_t)(info.frames[0] - 1);
}

static void on_race(void *ctx, const struct goldi_race *r) {
    struct eng *e = ctx;
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 64;
        e->reps = realloc(e->reps, e->cap * sizeof *e->reps);
        if (!e->reps) {
            perror("realloc");
            exit(3);
        }
    }
    struct rep *p = &e->reps[e->n++];
    p->idx = origin_event(r->cur);
    p->prev_idx = origin_event(r->prev);
    p->addr = r->addr;
    p->size = r->size;
    p->cur_write = r->cur_write;
    p->prev_write = r->prev_write;
    p->cur_atomic = r->cur_atomic;
    p->prev_atomic = r->prev_atomic;
    p->cur_tid = r->cur_tid;
    p->prev_tid = r->prev_tid;
    snprintf(p->why, sizeof p->why, "%s", r->why);
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* --- expectations -------------------------------------------------------------- */

struct expect {
    char label[64];
    char kind[4];
};

struct expset {
    struct expect *e;
    size_t n, cap;
    bool seen;     /* some EXPECT line applied (possibly "none") */
};

static void exp_add(struct expset *s, const char *label, size_t ll, const char *kind) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->e = realloc(s->e, s->cap * sizeof *s->e);
    }
    struct expect *x = &s->e[s->n++];
    snprintf(x->label, sizeof x->label, "%.*s", (int)ll, label);
    snprintf(x->kind, sizeof x->kind, "%.2s", kind);   /* validated: WW, WR or RW */
}

/* Parses the EXPECT lines for engine name into s. Returns false on a syntax error. */
static bool parse_expect(const char *path, const char *text, size_t len, const char *name, struct expset *s) {
    struct expset plain = {0}, own = {0};
    const char *p = text, *end = text + len;
    unsigned line = 0;
    bool ok = true;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        line++;
        char buf[1024];
        size_t ln = (size_t)(nl - p) < sizeof buf - 1 ? (size_t)(nl - p) : sizeof buf - 1;
        memcpy(buf, p, ln);
        buf[ln] = 0;
        p = nl + 1;
        char *h = strchr(buf, '#');
        if (!h)
            continue;
        char *q = h + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "EXPECT", 6) != 0)
            continue;
        q += 6;
        struct expset *dst = &plain;
        if (*q == '[') {
            char *close = strchr(q, ']');
            if (!close) {
                fprintf(stderr, "%s:%u: bad EXPECT[engine]\n", path, line);
                ok = false;
                continue;
            }
            size_t nl2 = (size_t)(close - q - 1);
            dst = (strlen(name) == nl2 && strncmp(q + 1, name, nl2) == 0) ? &own : NULL;
            q = close + 1;
        }
        if (*q != ':') {
            fprintf(stderr, "%s:%u: expected ':' after EXPECT\n", path, line);
            ok = false;
            continue;
        }
        q++;
        if (!dst)
            continue;
        dst->seen = true;
        /* items: "none" or LABEL KIND, separated by commas */
        char *save = NULL;
        for (char *item = strtok_r(q, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            char lab[64], kind[16], extra[8];
            int k = sscanf(item, "%63s %15s %7s", lab, kind, extra);
            if (k == 1 && strcmp(lab, "none") == 0)
                continue;
            if (k != 2 || (strcmp(kind, "WW") && strcmp(kind, "WR") && strcmp(kind, "RW"))) {
                fprintf(stderr, "%s:%u: bad EXPECT item '%s' (want LABEL WW|WR|RW or none)\n", path, line, item);
                ok = false;
                continue;
            }
            exp_add(dst, lab, strlen(lab), kind);
        }
    }
    if (own.seen) {
        *s = own;
        free(plain.e);
    } else {
        *s = plain;
        free(own.e);
    }
    return ok;
}

/* --- evaluation ---------------------------------------------------------------- */

static const struct goldi_text_trace_result *res;
static const char *text_g;

static void event_label(uint32_t idx, char *buf, size_t n) {
    if (idx == UINT32_MAX || !res || idx >= res->n_events) {
        snprintf(buf, n, "?");
        return;
    }
    const struct goldi_text_event *e = &res->events[idx];
    if (e->label_len)
        snprintf(buf, n, "%.*s", (int)e->label_len, text_g + e->label_off);
    else
        snprintf(buf, n, "#%u", idx);
}

/* Lifetime number of byte b at event idx: alloc/free events before idx covering b. */
static uint32_t lifetime(uintptr_t b, uint32_t idx) {
    uint32_t l = 0;
    for (uint32_t j = 0; j < idx && j < res->n_events; j++) {
        const struct goldi_text_event *e = &res->events[j];
        if ((e->kind == GOLDI_EV_ALLOC || e->kind == GOLDI_EV_FREE) && b >= e->addr && b - e->addr < e->size)
            l++;
    }
    return l;
}

struct first { uintptr_t b; uint32_t life; uint32_t idx; };

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Returns true if engine e's reports match the expectations. */
static bool evaluate(const char *path, struct eng *e, const char *text, size_t len) {
    const char *name = e->ops->name;
    struct expset exp = {0};
    if (!parse_expect(path, text, len, name, &exp))
        return false;
    if (!exp.seen) {
        fprintf(stderr, "%s: no '# EXPECT:' line\n", path);
        return false;
    }
    /* print every report */
    for (size_t i = 0; i < e->n && !quiet; i++) {
        struct rep *r = &e->reps[i];
        char cl[64], pl[64], an[160];
        event_label(r->idx, cl, sizeof cl);
        event_label(r->prev_idx, pl, sizeof pl);
        if (!goldi_text_trace_addr_name(r->addr, an, sizeof an))
            snprintf(an, sizeof an, "%#lx", (unsigned long)r->addr);
        const char *ct = goldi_text_trace_thread_name(r->cur_tid), *pt = goldi_text_trace_thread_name(r->prev_tid);
        printf("  [%s] race at %s (line %u): %s%s of %u byte(s) at %s by %s vs earlier %s%s at %s by %s: %s\n",
               name, cl, r->idx < res->n_events ? res->events[r->idx].line : 0, r->cur_atomic ? "atomic " : "",
               r->cur_write ? "write" : "read", r->size, an, ct ? ct : "?", r->prev_atomic ? "atomic " : "",
               r->prev_write ? "write" : "read", pl, pt ? pt : "?", r->why);
    }
    /* first report per (byte, lifetime) */
    size_t nf = 0, capf = 64;
    struct first *f = malloc(capf * sizeof *f);
    for (size_t i = 0; i < e->n; i++) {
        struct rep *r = &e->reps[i];
        for (uint32_t k = 0; k < r->size; k++) {
            uintptr_t b = r->addr + k;
            uint32_t life = lifetime(b, r->idx);
            size_t j;
            for (j = 0; j < nf; j++)
                if (f[j].b == b && f[j].life == life)
                    break;
            if (j == nf) {
                if (nf == capf)
                    f = realloc(f, (capf *= 2) * sizeof *f);
                f[nf++] = (struct first){b, life, r->idx};
            } else if (r->idx < f[j].idx) {
                f[j].idx = r->idx;
            }
        }
    }
    uint32_t *ev = malloc((nf + 1) * sizeof *ev);
    size_t nev = 0;
    for (size_t j = 0; j < nf; j++)
        ev[nev++] = f[j].idx;
    qsort(ev, nev, sizeof *ev, cmp_u32);
    size_t u = 0;
    for (size_t j = 0; j < nev; j++)
        if (!u || ev[u - 1] != ev[j])
            ev[u++] = ev[j];
    nev = u;

    bool ok = true;
    bool *matched = calloc(exp.n + 1, 1);
    for (size_t j = 0; j < nev; j++) {
        uint32_t idx = ev[j];
        /* kind from the reports at idx on bytes where idx is the first report */
        bool any_w = false, cur_w = false;
        for (size_t i = 0; i < e->n; i++) {
            struct rep *r = &e->reps[i];
            if (r->idx != idx)
                continue;
            bool counts = false;
            for (uint32_t k = 0; k < r->size && !counts; k++)
                for (size_t q = 0; q < nf; q++)
                    if (f[q].b == r->addr + k && f[q].idx == idx && f[q].life == lifetime(f[q].b, idx)) {
                        counts = true;
                        break;
                    }
            if (!counts)
                continue;
            cur_w = r->cur_write;
            any_w |= r->prev_write;
        }
        const char *kind = any_w ? (cur_w ? "WW" : "WR") : "RW";
        char lab[64];
        event_label(idx, lab, sizeof lab);
        size_t x;
        for (x = 0; x < exp.n; x++)
            if (strcmp(exp.e[x].label, lab) == 0)
                break;
        if (x == exp.n) {
            printf("  [%s] unexpected race at %s (%s)\n", name, lab, kind);
            ok = false;
        } else if (strcmp(exp.e[x].kind, kind) != 0) {
            printf("  [%s] race at %s has kind %s, expected %s\n", name, lab, kind, exp.e[x].kind);
            matched[x] = true;
            ok = false;
        } else {
            matched[x] = true;
        }
    }
    for (size_t x = 0; x < exp.n; x++)
        if (!matched[x]) {
            printf("  [%s] missing race at %s (%s)\n", name, exp.e[x].label, exp.e[x].kind);
            ok = false;
        }
    free(matched);
    free(ev);
    free(f);
    free(exp.e);
    return ok;
}

/* Child process: run all engines over one file; exit status = number of failing engines (capped). */
static int run_file(const char *path) {
    for (int i = 0; i < n_engines; i++)
        goldi_engine_start(engines[i].ops, on_race, &engines[i]);
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 100;
    }
    static struct goldi_text_trace_result r;
    char err[256];
    int rc = goldi_text_trace_run(text, len, &r, err, sizeof err);
    if (rc) {
        printf("FAIL %s: %s\n", path, err);
        return 100;
    }
    res = &r;
    text_g = text;
    int failed = 0;
    for (int i = 0; i < n_engines; i++) {
        bool ok = evaluate(path, &engines[i], text, len);
        printf("%s %s %s\n", ok ? "PASS" : "FAIL", path, engines[i].ops->name);
        failed += !ok;
    }
    fflush(stdout);
    return failed;
}

static int add_engines(const char *list) {
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const struct goldi_engine_ops *ops = goldi_engine_find(p, n);
        if (!ops) {
            fprintf(stderr, "trace_check: unknown engine '%.*s'\n", (int)n, p);
            return -1;
        }
        if (n_engines == MAX_ENGINES) {
            fprintf(stderr, "trace_check: too many engines\n");
            return -1;
        }
        engines[n_engines++].ops = ops;
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

int main(int argc, char **argv) {
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strncmp(argv[first], "--engine=", 9) == 0) {
            if (add_engines(argv[first] + 9))
                return 2;
        } else if (strcmp(argv[first], "-q") == 0) {
            quiet = true;
        } else {
            fprintf(stderr, "usage: trace_check [--engine=NAME[,NAME...]] [-q] FILE...\n");
            return 2;
        }
    }
    if (first == argc) {
        fprintf(stderr, "usage: trace_check [--engine=NAME[,NAME...]] [-q] FILE...\n");
        return 2;
    }
    if (!n_engines && add_engines("vc"))
        return 2;
    int failures = 0;
    for (int i = first; i < argc; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 3;
        }
        if (pid == 0) {
            int rc = run_file(argv[i]);
            fflush(stdout);
            _exit(rc ? 1 : 0);
        }
        int st;
        if (waitpid(pid, &st, 0) < 0) {
            perror("waitpid");
            return 3;
        }
        if (WIFSIGNALED(st)) {
            printf("FAIL %s (crashed: signal %d)\n", argv[i], WTERMSIG(st));
            failures++;
        } else if (WEXITSTATUS(st)) {
            failures++;
        }
    }
    return failures ? 1 : 0;
}

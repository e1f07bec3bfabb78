/* difftest: the differential-testing driver (docs/differential.md).
 *   difftest run [--seed=S] [--count=N] [--check=LIST] [--seconds=T] [--meta-every=K]
 *                [--save-dir=DIR] [--max-events=N] [-v]
 *       generates N traces from seeds S, S+1, ... and checks every engine of
 *       LIST against the oracle (and metamorphic variants every K-th trace);
 *       prints the seed of each disagreement; with --save-dir, minimizes each
 *       one and writes DIR/diff-<engine>-<seed>.gtrace. Exit 1 on disagreement.
 *   difftest check [--check=LIST] FILE...       the same for trace files
 *   difftest minimize --check=ENGINE FILE [-o OUT]
 *   difftest gen [--lock-only] [--py] [--variant=rename|add-thread|split] SEED   print a generated trace
 *   difftest oracle FILE                        print FULL/WX per byte
 *   difftest expect FILE...                     oracle vs the files' # EXPECT: lines
 *   difftest locsummary FILE                    first FULL/WX event per location (oracle.py format)
 * --check-first: the oracle checks an acquiring atomic access before its acquire
 * (the engines' current convention; default: C11, after). See docs/differential.md.
 * Engines and their checks: goldilocks, vc, fasttrack (FULL); jrf (WX);
 * eraser (post-sharing races, lock-only traces); fastrcd, valor (soundness);
 * hybrid-short, hybrid-long (run, shape only). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"
#include "gen.h"
#include "engine/engine.h"

static const struct { const char *name; int cls; } classes[] = {
    {"goldilocks", DC_FULL}, {"vc", DC_FULL}, {"fasttrack", DC_FULL}, {"jrf", DC_WX},
    {"eraser", DC_ERASER}, {"fastrcd", DC_REGION}, {"valor", DC_REGION},
    {"hybrid-short", DC_NONE}, {"hybrid-long", DC_NONE},
};

static struct diff_engine engines[DIFF_MAX_ENGINES];
static int n_engines;
static bool verbose;

static int add_engines(const char *list) {
    char *dup = strdup(list), *save = NULL;
    for (char *s = strtok_r(dup, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
        /* NAME or NAME:CLASS (full, wx, eraser, region, none) to check an
         * engine against another relation (used to test the checks) */
        char *colon = strchr(s, ':');
        const char *force = NULL;
        if (colon) {
            *colon = 0;
            force = colon + 1;
        }
        const struct goldi_engine_ops *ops = goldi_engine_find(s, strlen(s));
        if (!ops || n_engines == DIFF_MAX_ENGINES) {
            fprintf(stderr, "difftest: unknown engine '%s' (or too many)\n", s);
            return -1;
        }
        int cls = DC_NONE;
        for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
            if (strcmp(classes[i].name, s) == 0)
                cls = classes[i].cls;
        if (force) {
            static const char *const cn[] = {"full", "wx", "eraser", "region", "none"};
            cls = -1;
            for (int k = 0; k < 5; k++)
                if (!strcmp(force, cn[k]))
                    cls = k;
            if (cls < 0) {
                fprintf(stderr, "difftest: unknown class '%s'\n", force);
                return -1;
            }
        }
        engines[n_engines++] = (struct diff_engine){ops->name, ops, cls};
    }
    free(dup);
    return 0;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *buf = malloc(cap + 1);
    while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

static int load(const char *path, struct dtrace *t) {
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    char err[256];
    int rc = diff_trace_parse(text, len, t, err, sizeof err);
    free(text);
    if (rc)
        fprintf(stderr, "%s: %s\n", path, err);
    return rc;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Per event: the canonical kind aggregated over the bytes whose first race
 * it is, as trace_check aggregates engine reports. */
static void expect_line(const struct oracle *o, bool wx, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < o->n; i++) {
        int kind = K_NONE;
        for (uint32_t b = 0; b < o->nb; b++) {
            uint32_t ev = wx ? o->b[b].wx : o->b[b].full;
            uint8_t bk = wx ? o->b[b].wx_kind : o->b[b].full_kind;
            if (ev != i)
                continue;
            if (kind == K_NONE || kind == K_RW)
                kind = bk;
        }
        if (kind != K_NONE && k + 24 < n)
            k += (size_t)snprintf(buf + k, n - k, "%sE%u %s", k ? ", " : "", i, diff_kind_names[kind]);
    }
    if (!k)
        snprintf(buf, n, "none");
}

/* Writes a minimized regression trace with the oracle's (correct) expectation. */
static void write_regression(const char *path, const struct dtrace *t, const char *engine, const char *origin,
                             const struct findings *f) {
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return;
    }
    struct oracle o;
    diff_oracle_run(t, &o);
    static char full[2048], wx[2048];
    expect_line(&o, false, full, sizeof full);
    expect_line(&o, true, wx, sizeof wx);
    fprintf(out, "# Found by the differential suite (tests/diff, %s): %s disagreed with the oracle.\n", origin,
            engine);
    for (uint32_t i = 0; i < f->n && i < 6; i++)
        fprintf(out, "#   %s\n", f->msg[i]);
    fprintf(out, "# The EXPECT lines are the oracle's (ALGORITHMS.md §3), i.e. the correct verdict.\n");
    fprintf(out, "# EXPECT: %s\n", full);
    if (strcmp(full, wx) != 0)
        fprintf(out, "# EXPECT[jrf]: %s\n", wx);
    char *text = diff_trace_print(t, true);
    fputs(text, out);
    free(text);
    fclose(out);
    diff_oracle_free(&o);
}

/* --- run ---------------------------------------------------------------------------- */

struct stats {
    uint64_t traces, events, racy_bytes, bytes, lock_only, meta, meta_fail;
    uint32_t fails[DIFF_MAX_ENGINES];
};

static void print_findings(const char *what, const struct findings *f) {
    for (uint32_t i = 0; i < f->n && i < 12; i++)
        printf("  %s: %s\n", what, f->msg[i]);
    if (f->n > 12)
        printf("  %s: ... %u more\n", what, f->n - 12);
}

/* Metamorphic checks (§3): engine first reports (and the oracle's) must not
 * change under tid renaming, an extra thread on a fresh lock, or splitting
 * range writes into byte writes. */
static bool fr_eq(const struct firstrep *a, const struct firstrep *b) {
    return a->loc == b->loc && a->off == b->off && a->life == b->life && a->idx == b->idx && a->kind == b->kind;
}
static bool fr_same(const struct firstrep *a, uint32_t na, const struct firstrep *b, uint32_t nb) {
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (!fr_eq(&a[i], &b[i]))
            return false;
    return true;
}

static uint32_t metamorphic(const struct dtrace *t, uint64_t seed, const struct engine_run *orig, struct stats *st) {
    uint32_t fails = 0;
    for (int kind = 0; kind < 3; kind++) {
        struct dtrace m;
        uint32_t *map;
        const char *kname = kind == 0 ? "rename" : kind == 1 ? "add-thread" : "split";
        if (kind == 0)
            diff_meta_rename(t, seed, &m, &map);
        else if (kind == 1)
            diff_meta_add_thread(t, seed, &m, &map);
        else
            diff_meta_split(t, &m, &map);
        char why[160];
        if (!diff_trace_valid(&m, why, sizeof why)) {
            printf("seed %llu: metamorphic %s produced an ill-formed trace: %s\n", (unsigned long long)seed, kname, why);
            fails++;
            diff_trace_free(&m);
            free(map);
            continue;
        }
        st->meta++;
        char *text = diff_trace_print(&m, false);
        struct engine_run r;
        diff_run_engines(&m, text, engines, n_engines, &r);
        if (r.status != ER_OK) {
            printf("seed %llu: metamorphic %s: %s\n", (unsigned long long)seed, kname, r.msg);
            fails++;
        } else {
            struct oracle om;
            diff_oracle_run(&m, &om);
            for (int ei = 0; ei < n_engines; ei++) {
                /* the variant is a trace like any other: check it too */
                struct findings f = {0};
                diff_compare(&m, &om, &r, ei, &engines[ei], diff_trace_lock_only(&m), &f);
                if (f.n) {
                    printf("seed %llu: metamorphic %s variant: %s disagrees with the oracle\n",
                           (unsigned long long)seed, kname, engines[ei].name);
                    print_findings(engines[ei].name, &f);
                    fails++;
                }
                diff_findings_free(&f);
                if (engines[ei].cls != DC_FULL && engines[ei].cls != DC_WX)
                    continue;
                struct firstrep *a, *b;
                uint32_t na = diff_first_reports(t, orig, ei, NULL, &a);
                uint32_t nb = diff_first_reports(&m, &r, ei, map, &b);
                if (!fr_same(a, na, b, nb)) {
                    uint32_t k = 0;
                    while (k < na && k < nb && fr_eq(&a[k], &b[k]))
                        k++;
                    printf("seed %llu: metamorphic %s changes %s's first reports (%u vs %u bytes; first "
                           "difference at entry %u: %s+%u E%u vs %s+%u E%u)\n",
                           (unsigned long long)seed, kname, engines[ei].name, na, nb, k,
                           k < na ? t->loc.s[a[k].loc] : "-", k < na ? a[k].off : 0, k < na ? a[k].idx : 0,
                           k < nb ? t->loc.s[b[k].loc] : "-", k < nb ? b[k].off : 0, k < nb ? b[k].idx : 0);
                    fails++;
                }
                free(a);
                free(b);
            }
            diff_oracle_free(&om);
        }
        /* the oracle itself must be invariant too */
        struct oracle o1, o2;
        diff_oracle_run(t, &o1);
        diff_oracle_run(&m, &o2);
        struct firstrep *a, *b;
        uint32_t na = diff_first_oracle(&o1, false, NULL, &a), nb = diff_first_oracle(&o2, false, map, &b);
        if (!fr_same(a, na, b, nb)) {
            printf("seed %llu: metamorphic %s changes the ORACLE's FULL results\n", (unsigned long long)seed, kname);
            fails++;
        }
        free(a);
        free(b);
        diff_oracle_free(&o1);
        diff_oracle_free(&o2);
        diff_run_free(&r);
        free(text);
        free(map);
        diff_trace_free(&m);
    }
    st->meta_fail += fails;
    return fails;
}

static int cmd_run(int argc, char **argv) {
    uint64_t seed = 1, count = 1000;
    double seconds = 0;
    uint32_t meta_every = 4, lock_every = 4;
    const char *save_dir = NULL;
    struct gen_opts go;
    diff_gen_defaults(&go);
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "--seed=", 7))
            seed = strtoull(argv[i] + 7, NULL, 0);
        else if (!strncmp(argv[i], "--count=", 8))
            count = strtoull(argv[i] + 8, NULL, 0);
        else if (!strncmp(argv[i], "--seconds=", 10))
            seconds = atof(argv[i] + 10);
        else if (!strncmp(argv[i], "--meta-every=", 13))
            meta_every = (uint32_t)atoi(argv[i] + 13);
        else if (!strncmp(argv[i], "--lock-only-every=", 18))
            lock_every = (uint32_t)atoi(argv[i] + 18);
        else if (!strncmp(argv[i], "--max-events=", 13))
            go.max_events = (uint32_t)atoi(argv[i] + 13);
        else if (!strncmp(argv[i], "--save-dir=", 11))
            save_dir = argv[i] + 11;
        else {
            fprintf(stderr, "difftest run: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (go.min_events > go.max_events)
        go.min_events = go.max_events;
    struct stats st;
    memset(&st, 0, sizeof st);
    double t0 = now(), t_oracle = 0, t_engines = 0;
    uint32_t failing_traces = 0;
    for (uint64_t s = seed; s < seed + count; s++) {
        if (seconds > 0 && now() - t0 > seconds)
            break;
        struct gen_opts o = go;
        o.lock_only = lock_every && (s % lock_every) == lock_every - 1;
        struct dtrace t;
        diff_gen(s, &o, &t);
        char why[200];
        if (!diff_trace_valid(&t, why, sizeof why)) {
            printf("seed %llu: GENERATOR BUG: ill-formed trace: %s\n", (unsigned long long)s, why);
            failing_traces++;
            diff_trace_free(&t);
            continue;
        }
        bool lo = diff_trace_lock_only(&t);
        st.traces++;
        st.events += t.n;
        st.lock_only += lo;
        char *text = diff_trace_print(&t, false);
        double a = now();
        struct oracle orc;
        diff_oracle_run(&t, &orc);
        double b = now();
        struct engine_run r;
        diff_run_engines(&t, text, engines, n_engines, &r);
        double c = now();
        t_oracle += b - a;
        t_engines += c - b;
        for (uint32_t k = 0; k < orc.nb; k++) {
            st.bytes++;
            st.racy_bytes += orc.b[k].full != O_NONE;
        }
        bool bad = false;
        if (r.status != ER_OK || r.msg[0]) {
            printf("seed %llu: %s\n", (unsigned long long)s, r.msg);
            bad = true;
        } else {
            for (int ei = 0; ei < n_engines; ei++) {
                struct findings f = {0};
                diff_compare(&t, &orc, &r, ei, &engines[ei], lo, &f);
                if (f.n) {
                    bad = true;
                    st.fails[ei]++;
                    printf("seed %llu%s: %s disagrees (%u findings)\n", (unsigned long long)s, lo ? " (lock-only)" : "",
                           engines[ei].name, f.n);
                    print_findings(engines[ei].name, &f);
                    if (save_dir) {
                        struct dtrace m;
                        diff_trace_copy(&m, &t);
                        diff_minimize(&m, &engines[ei], lo, verbose);
                        struct findings f2 = {0};
                        diff_check_trace(&m, &engines[ei], 1, lo && diff_trace_lock_only(&m), &f2);
                        char path[512], origin[64];
                        snprintf(path, sizeof path, "%s/diff-%s-%llu.gtrace", save_dir, engines[ei].name,
                                 (unsigned long long)s);
                        snprintf(origin, sizeof origin, "seed %llu%s", (unsigned long long)s, lo ? ", lock-only" : "");
                        write_regression(path, &m, engines[ei].name, origin, &f2);
                        printf("  minimized to %u events: %s\n", m.n, path);
                        diff_findings_free(&f2);
                        diff_trace_free(&m);
                    }
                }
                diff_findings_free(&f);
            }
            if (meta_every && (s % meta_every) == 0 && metamorphic(&t, s, &r, &st))
                bad = true;
        }
        if (bad) {
            failing_traces++;
            if (verbose)
                printf("--- seed %llu ---\n%s", (unsigned long long)s, text);
        }
        diff_run_free(&r);
        diff_oracle_free(&orc);
        free(text);
        diff_trace_free(&t);
    }
    double el = now() - t0;
    printf("difftest: %llu traces (%llu lock-only), %llu events, %llu (byte,lifetime) pairs of which %llu racy; "
           "%llu metamorphic variants; engines:",
           (unsigned long long)st.traces, (unsigned long long)st.lock_only, (unsigned long long)st.events,
           (unsigned long long)st.bytes, (unsigned long long)st.racy_bytes, (unsigned long long)st.meta);
    for (int ei = 0; ei < n_engines; ei++)
        printf(" %s=%s", engines[ei].name, st.fails[ei] ? "FAIL" : "ok");
    printf("\ndifftest: %u failing traces (%llu metamorphic failures); %.2f s total (oracle %.2f s, engine "
           "children %.2f s)\n",
           failing_traces, (unsigned long long)st.meta_fail, el, t_oracle, t_engines);
    return failing_traces ? 1 : 0;
}

static int cmd_check(int argc, char **argv) {
    int bad = 0;
    for (int i = 0; i < argc; i++) {
        struct dtrace t;
        if (load(argv[i], &t)) {
            bad++;
            continue;
        }
        char why[200];
        if (!diff_trace_valid(&t, why, sizeof why))
            printf("%s: note: not well-formed (%s); checking anyway\n", argv[i], why);
        struct findings f = {0};
        uint32_t n = diff_check_trace(&t, engines, n_engines, diff_trace_lock_only(&t), &f);
        printf("%s %s\n", n ? "FAIL" : "PASS", argv[i]);
        print_findings("", &f);
        bad += n != 0;
        diff_findings_free(&f);
        diff_trace_free(&t);
    }
    return bad ? 1 : 0;
}

static int cmd_minimize(int argc, char **argv) {
    const char *out = NULL, *in = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else
            in = argv[i];
    }
    if (!in || n_engines != 1) {
        fprintf(stderr, "usage: difftest minimize --check=ENGINE FILE [-o OUT]\n");
        return 2;
    }
    struct dtrace t;
    if (load(in, &t))
        return 1;
    bool lo = diff_trace_lock_only(&t);
    diff_minimize(&t, &engines[0], lo, true);
    struct findings f = {0};
    diff_check_trace(&t, &engines[0], 1, lo && diff_trace_lock_only(&t), &f);
    if (out) {
        write_regression(out, &t, engines[0].name, in, &f);
    } else {
        char *text = diff_trace_print(&t, true);
        fputs(text, stdout);
        free(text);
    }
    print_findings("remaining", &f);
    diff_findings_free(&f);
    diff_trace_free(&t);
    return 0;
}

static int cmd_gen(int argc, char **argv) {
    struct gen_opts o;
    diff_gen_defaults(&o);
    uint64_t seed = 1;
    const char *variant = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "--variant=", 10))
            variant = argv[i] + 10;
        else if (!strcmp(argv[i], "--lock-only"))
            o.lock_only = true;
        else if (!strcmp(argv[i], "--py"))
            o.py_subset = true;
        else if (!strncmp(argv[i], "--max-events=", 13))
            o.max_events = (uint32_t)atoi(argv[i] + 13);
        else
            seed = strtoull(argv[i], NULL, 0);
    }
    if (o.min_events > o.max_events)
        o.min_events = o.max_events;
    struct dtrace t;
    diff_gen(seed, &o, &t);
    if (variant) {
        /* a metamorphic variant of the trace (rename, add-thread, split) */
        struct dtrace m;
        uint32_t *map;
        if (!strcmp(variant, "rename"))
            diff_meta_rename(&t, seed, &m, &map);
        else if (!strcmp(variant, "add-thread"))
            diff_meta_add_thread(&t, seed, &m, &map);
        else
            diff_meta_split(&t, &m, &map);
        free(map);
        diff_trace_free(&t);
        t = m;
    }
    char *text = diff_trace_print(&t, false);
    fputs(text, stdout);
    free(text);
    diff_trace_free(&t);
    return 0;
}

static int cmd_oracle(int argc, char **argv, bool locsummary) {
    if (argc != 1)
        return 2;
    struct dtrace t;
    if (load(argv[0], &t))
        return 1;
    struct oracle o;
    diff_oracle_run(&t, &o);
    if (locsummary) {
        /* per location name: the first FULL / WX event over its bytes */
        for (uint32_t l = 0; l < t.loc.n; l++) {
            uint32_t full = O_NONE, wx = O_NONE;
            for (uint32_t b = 0; b < o.nb; b++)
                if (o.b[b].loc == l) {
                    if (o.b[b].full < full)
                        full = o.b[b].full;
                    if (o.b[b].wx < wx)
                        wx = o.b[b].wx;
                }
            printf("%s %d %d\n", t.loc.s[l], full == O_NONE ? -1 : (int)full, wx == O_NONE ? -1 : (int)wx);
        }
    } else {
        for (uint32_t b = 0; b < o.nb; b++)
            if (o.b[b].full != O_NONE || o.b[b].wx != O_NONE)
                printf("%s+%u life %u: FULL E%d %s, WX E%d %s\n", t.loc.s[o.b[b].loc], o.b[b].off, o.b[b].life,
                       o.b[b].full == O_NONE ? -1 : (int)o.b[b].full, diff_kind_names[o.b[b].full_kind],
                       o.b[b].wx == O_NONE ? -1 : (int)o.b[b].wx, diff_kind_names[o.b[b].wx_kind]);
        char buf[2048];
        expect_line(&o, false, buf, sizeof buf);
        printf("FULL: %s\n", buf);
        expect_line(&o, true, buf, sizeof buf);
        printf("WX:   %s\n", buf);
    }
    diff_oracle_free(&o);
    diff_trace_free(&t);
    return 0;
}

/* Oracle vs the EXPECT lines of hand-written traces (labels resolved). */
static int cmd_expect(int argc, char **argv) {
    int bad = 0;
    for (int i = 0; i < argc; i++) {
        struct dtrace t;
        if (load(argv[i], &t)) {
            bad++;
            continue;
        }
        size_t len;
        char *text = read_file(argv[i], &len);
        struct oracle o;
        diff_oracle_run(&t, &o);
        for (int wx = 0; wx < 2; wx++) {
            /* expected set from the file: EXPECT (and EXPECT[jrf] for WX) */
            static char want[2048];
            char *line, *save = NULL;
            want[0] = 0;
            bool own = false;
            char *dup = strdup(text);
            for (line = strtok_r(dup, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *h = strstr(line, "# EXPECT");
                if (!h)
                    continue;
                h += 8;
                bool jrf = !strncmp(h, "[jrf]:", 6);
                if (*h == '[' && !jrf)
                    continue;
                char *colon = strchr(h, ':');
                if (!colon)
                    continue;
                if (wx && jrf && !own) {
                    own = true;
                    want[0] = 0;
                }
                if (jrf && !wx)
                    continue;
                if (!jrf && own)
                    continue;
                strncat(want, colon + 1, sizeof want - strlen(want) - 2);
                strcat(want, ",");
            }
            free(dup);
            /* got: label KIND per event */
            static char got[2048];
            got[0] = 0;
            for (uint32_t e = 0; e < t.n; e++) {
                int kind = K_NONE;
                for (uint32_t b = 0; b < o.nb; b++) {
                    uint32_t ev = wx ? o.b[b].wx : o.b[b].full;
                    if (ev == e && (kind == K_NONE || kind == K_RW))
                        kind = wx ? o.b[b].wx_kind : o.b[b].full_kind;
                }
                if (kind == K_NONE)
                    continue;
                char lab[80];
                if (t.ev[e].label != D_NONE)
                    snprintf(lab, sizeof lab, "%s %s", t.lab.s[t.ev[e].label], diff_kind_names[kind]);
                else
                    snprintf(lab, sizeof lab, "#%u %s", e, diff_kind_names[kind]);
                /* must appear in want as an item */
                bool found = false;
                char *w2 = strdup(want), *s2 = NULL;
                for (char *it = strtok_r(w2, ",", &s2); it; it = strtok_r(NULL, ",", &s2)) {
                    char a1[64], a2[16];
                    if (sscanf(it, "%63s %15s", a1, a2) == 2) {
                        char cmp[80];
                        snprintf(cmp, sizeof cmp, "%s %s", a1, a2);
                        if (!strcmp(cmp, lab))
                            found = true;
                    }
                }
                free(w2);
                if (!found) {
                    printf("%s: oracle %s has %s, not in EXPECT (%s)\n", argv[i], wx ? "WX" : "FULL", lab, want);
                    bad++;
                }
                strncat(got, lab, sizeof got - strlen(got) - 3);
                strcat(got, ",");
            }
            /* and every expected item must be found */
            char *w2 = strdup(want), *s2 = NULL;
            for (char *it = strtok_r(w2, ",", &s2); it; it = strtok_r(NULL, ",", &s2)) {
                char a1[64], a2[16];
                if (sscanf(it, "%63s %15s", a1, a2) != 2)
                    continue;
                char cmp[96];
                snprintf(cmp, sizeof cmp, "%s %s,", a1, a2);
                if (!strstr(got, cmp) || (strstr(got, cmp) != got && strstr(got, cmp)[-1] != ',')) {
                    printf("%s: EXPECT%s item '%s %s' not found by the oracle (oracle: %s)\n", argv[i],
                           wx ? "(WX)" : "", a1, a2, got[0] ? got : "none");
                    bad++;
                }
            }
            free(w2);
        }
        diff_oracle_free(&o);
        free(text);
        diff_trace_free(&t);
    }
    printf("difftest expect: %d mismatches over %d files\n", bad, argc);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: difftest run|check|minimize|gen|oracle|expect|locsummary ...\n");
        return 2;
    }
    const char *cmd = argv[1];
    char **rest = malloc((size_t)argc * sizeof *rest);
    int n = 0;
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "--check=", 8)) {
            if (add_engines(argv[i] + 8))
                return 2;
        } else if (!strcmp(argv[i], "-v")) {
            verbose = true;
        } else if (!strcmp(argv[i], "--eraser-all")) {
            diff_eraser_all = true;
        } else if (!strcmp(argv[i], "--check-first")) {
            diff_oracle_check_first = true;
        } else {
            rest[n++] = argv[i];
        }
    }
    bool needs_engines = !strcmp(cmd, "run") || !strcmp(cmd, "check") || !strcmp(cmd, "minimize");
    if (needs_engines && !n_engines && add_engines("goldilocks,vc"))
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(cmd, "run"))
        return cmd_run(n, rest);
    if (!strcmp(cmd, "check"))
        return cmd_check(n, rest);
    if (!strcmp(cmd, "minimize"))
        return cmd_minimize(n, rest);
    if (!strcmp(cmd, "gen"))
        return cmd_gen(n, rest);
    if (!strcmp(cmd, "oracle"))
        return cmd_oracle(n, rest, false);
    if (!strcmp(cmd, "locsummary"))
        return cmd_oracle(n, rest, true);
    if (!strcmp(cmd, "expect"))
        return cmd_expect(n, rest);
    fprintf(stderr, "difftest: unknown command %s\n", cmd);
    return 2;
}

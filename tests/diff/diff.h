/* Differential suite: engine runner, comparator (the agreement contract of
 * ALGORITHMS.md §3 and the relations of docs/differential.md), metamorphic
 * transforms and the minimizer. */
#ifndef DIFF_DIFF_H
#define DIFF_DIFF_H

#include "dtrace.h"
#include "oracle.h"

#define DIFF_MAX_ENGINES 10

/* What each engine is checked for (docs/differential.md). */
enum diff_class {
    DC_FULL,     /* goldilocks, vc, fasttrack: first report per (b,ℓ) = FULL(b,ℓ), kinds equal */
    DC_WX,       /* jrf: first report per (b,ℓ) = WX(b,ℓ) */
    DC_ERASER,   /* eraser: reports every byte with a post-sharing race, no later than it (lock-only traces) */
    DC_REGION,   /* fastrcd, valor: every conflict is an oracle race */
    DC_NONE,     /* run, reports only validated for shape */
};

struct diff_engine {
    const char *name;
    const void *ops;            /* const struct goldi_engine_ops * */
    int cls;                    /* enum diff_class */
};

/* One report of one engine, resolved to trace coordinates. */
struct erep {
    uint8_t eng;                /* index into the engine list */
    uint8_t cw, pw, ca, pa;     /* cur/prev write, cur/prev atomic */
    uint8_t off, size;          /* bytes [off, off+size) of loc */
    uint16_t loc;               /* D_NONE: address outside every location */
    uint32_t idx, prev;         /* event indexes (O_NONE if unknown) */
    char why[112];
};

enum { ER_OK, ER_PARSE, ER_CRASH, ER_TIMEOUT };

struct engine_run {
    int status;                 /* ER_* */
    char msg[256];
    struct erep *r;
    uint32_t n;
};

/* Runs the engines over trace t (text = its printed form) in a child process. */
void diff_run_engines(const struct dtrace *t, const char *text, const struct diff_engine *eng, int n_eng,
                      struct engine_run *out);
void diff_run_free(struct engine_run *r);

/* Disagreements found for one engine on one trace. */
struct findings {
    char **msg;
    uint32_t n, cap;
};
void diff_findings_add(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diff_findings_free(struct findings *f);

/* Compares engine number ei of run r with the oracle; appends disagreements
 * to f. lock_only: the trace uses only fork/exit/join, locks and plain
 * accesses (the eraser relation is checked only there). */
void diff_compare(const struct dtrace *t, const struct oracle *o, const struct engine_run *r, int ei,
                  const struct diff_engine *eng, bool lock_only, struct findings *f);

/* First report per (byte, lifetime) with its canonical kind, events mapped
 * through map[] (NULL = identity; O_NONE entries are dropped). Used by the
 * metamorphic checks: the result is sorted, so two results compare as arrays. */
struct firstrep { uint16_t loc; uint8_t off; uint32_t life, idx; uint8_t kind; };
uint32_t diff_first_reports(const struct dtrace *t, const struct engine_run *r, int ei, const uint32_t *map,
                            struct firstrep **out);
uint32_t diff_first_oracle(const struct oracle *o, bool wx, const uint32_t *map, struct firstrep **out);

/* Metamorphic transforms (§3). Each fills dst and map[dst event] = src event
 * (O_NONE for an added event); map is malloc'ed. */
void diff_meta_rename(const struct dtrace *src, uint64_t seed, struct dtrace *dst, uint32_t **map);
void diff_meta_add_thread(const struct dtrace *src, uint64_t seed, struct dtrace *dst, uint32_t **map);
void diff_meta_split(const struct dtrace *src, struct dtrace *dst, uint32_t **map);

/* Does the whole check (oracle + engines + comparison) of one trace; returns
 * the number of disagreements and appends them to f (f may be NULL). */
uint32_t diff_check_trace(const struct dtrace *t, const struct diff_engine *eng, int n_eng, bool lock_only,
                          struct findings *f);

/* Minimizes t while it stays well-formed and diff_check_trace still reports
 * a disagreement for engine `eng` alone. Replaces t. */
void diff_minimize(struct dtrace *t, const struct diff_engine *eng, bool lock_only, bool verbose);

/* Check the eraser relation on every trace, not only lock-only ones
 * (exploration: docs/differential.md says where it holds). */
extern bool diff_eraser_all;

/* Is the trace lock-only (DC_ERASER applies)? */
bool diff_trace_lock_only(const struct dtrace *t);

#endif

/* Minimizer of the differential suite: delta debugging (Zeller's ddmin) over
 * the events of a disagreeing trace, then passes that remove whole threads
 * and single events, keeping only candidates that are still well-formed
 * (diff_trace_valid) and still disagree for the engine under test. */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mctx {
    const struct diff_engine *eng;
    bool lock_only;
    bool verbose;
    uint32_t tries;
};

/* Trace t without the events whose keep[i] is false. */
static void subset(const struct dtrace *t, const bool *keep, struct dtrace *out) {
    diff_trace_copy(out, t);
    out->n = 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (keep[i])
            out->ev[out->n++] = t->ev[i];
}

static bool still_fails(struct mctx *c, const struct dtrace *t) {
    if (!diff_trace_valid(t, NULL, 0))
        return false;
    c->tries++;
    /* lock-only status must not change under the engine's feet: the eraser
     * relation is only defined on lock-only traces */
    bool lo = c->lock_only && diff_trace_lock_only(t);
    return diff_check_trace(t, c->eng, 1, lo, NULL) > 0;
}

/* Tries to replace *t by t minus the events marked in drop[]; true if kept. */
static bool try_drop(struct mctx *c, struct dtrace *t, const bool *drop) {
    bool *keep = malloc((t->n + 1) * sizeof *keep);
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        keep[i] = !drop[i];
        k += !keep[i];
    }
    bool ok = false;
    if (k) {
        struct dtrace cand;
        subset(t, keep, &cand);
        if (still_fails(c, &cand)) {
            diff_trace_free(t);
            *t = cand;
            ok = true;
        } else {
            diff_trace_free(&cand);
        }
    }
    free(keep);
    return ok;
}

static void ddmin(struct mctx *c, struct dtrace *t) {
    uint32_t n = 2;
    while (t->n >= 2) {
        bool progress = false;
        uint32_t len = t->n, chunk = (len + n - 1) / n;
        for (uint32_t start = 0; start < len; start += chunk) {
            bool *drop = calloc(t->n + 1, sizeof *drop);
            for (uint32_t i = start; i < start + chunk && i < t->n; i++)
                drop[i] = true;
            bool ok = try_drop(c, t, drop);
            free(drop);
            if (ok) {
                progress = true;
                break;
            }
        }
        if (progress) {
            n = n > 2 ? n - 1 : 2;
            continue;
        }
        if (n >= t->n)
            break;
        n = n * 2 < t->n ? n * 2 : t->n;
    }
}

/* Removes every event of one thread, plus its fork/join/detach. */
static bool drop_threads(struct mctx *c, struct dtrace *t) {
    bool any = false;
    for (uint32_t th = 1; th < t->thr.n; th++) {
        bool *drop = calloc(t->n + 1, sizeof *drop);
        uint32_t k = 0;
        for (uint32_t i = 0; i < t->n; i++) {
            const struct dev *e = &t->ev[i];
            if (e->tid == th || ((e->op == D_FORK || e->op == D_JOIN || e->op == D_DETACH) && e->other == th)) {
                drop[i] = true;
                k++;
            }
        }
        if (k && try_drop(c, t, drop))
            any = true;
        free(drop);
    }
    return any;
}

/* Removes one event, or one event with the next event of the same thread on
 * the same object (an acq/rel pair, a wait_enter/wait_exit, ...). */
static bool drop_singles(struct mctx *c, struct dtrace *t) {
    bool any = false;
    for (uint32_t i = t->n; i-- > 0;) {
        if (i >= t->n)
            continue;
        bool *drop = calloc(t->n + 1, sizeof *drop);
        drop[i] = true;
        bool ok = try_drop(c, t, drop);
        if (!ok && t->ev[i].sync != D_NONE) {
            for (uint32_t j = i + 1; j < t->n; j++)
                if (t->ev[j].tid == t->ev[i].tid && t->ev[j].sync == t->ev[i].sync) {
                    drop[j] = true;
                    ok = try_drop(c, t, drop);
                    break;
                }
        }
        free(drop);
        any |= ok;
    }
    return any;
}

void diff_minimize(struct dtrace *t, const struct diff_engine *eng, bool lock_only, bool verbose) {
    struct mctx c = {eng, lock_only, verbose, 0};
    uint32_t start = t->n;
    if (!still_fails(&c, t)) {
        if (verbose)
            fprintf(stderr, "minimize: the trace does not fail for %s alone; left as is\n", eng->name);
        return;
    }
    drop_threads(&c, t);
    ddmin(&c, t);
    for (int round = 0; round < 8; round++) {
        bool a = drop_threads(&c, t);
        bool b = drop_singles(&c, t);
        if (!a && !b)
            break;
    }
    if (verbose)
        fprintf(stderr, "minimize: %u -> %u events in %u checks\n", start, t->n, c.tries);
}

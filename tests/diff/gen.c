/* Generator of random well-formed executions (see gen.h). The scheduler keeps
 * the state real primitives would have (lock owners, readers, waiting
 * threads, barrier generations, semaphore counts, heap blocks) and only
 * offers actions that state allows; accesses prefer the locations "protected"
 * by a lock the thread holds, so traces mix race-free and racy bytes instead
 * of racing everywhere at once. */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G_MAX_THR 16
#define G_MAX_LOC 8
#define G_MAX_SYNC 4
#define G_HEAP_SIZE 16   /* heap blocks: plain bytes [0,8), atomic field [8,16) */

enum { GT_NONE, GT_RUN, GT_EXITED, GT_JOINED };
enum { GB_NO, GB_WAIT, GB_BAR };

struct gthr {
    uint16_t name;
    uint8_t state, blocked, detached;
    uint8_t cv, bar;                   /* GB_WAIT: condvar index; GB_BAR: barrier index */
    uint32_t bar_gen;
    uint32_t held_m;                   /* mutexes held (bitmask) */
    uint32_t held_w, held_r;           /* rwlocks held in write / read mode */
};

struct gbar {
    uint32_t count;                    /* its declared thread count: every episode's participants */
    uint32_t parts;                    /* participants (bitmask of thread indexes), 0 = idle */
    bool all;                          /* the episode has every live thread (no forks till it ends) */
    uint32_t n_parts, rounds_left[G_MAX_THR];
    uint32_t next_gen[G_MAX_THR];      /* next generation each participant arrives at */
    uint32_t gen_base;                 /* first generation of the next episode */
    uint32_t arrivals[64];             /* arrivals per generation, indexed gen % 64 */
};

struct gen {
    struct diff_rng r;
    const struct gen_opts *o;
    struct dtrace *t;
    struct gthr th[G_MAX_THR];
    uint32_t n_th;
    /* objects */
    uint32_t n_plain, n_atomic, n_heap, n_mutex, n_rw, n_cv, n_bar, n_sem, n_once;
    uint16_t plain[G_MAX_LOC], atomic[G_MAX_LOC], heap[G_MAX_LOC];
    uint8_t atomic_len[G_MAX_LOC];
    int8_t prot[G_MAX_LOC];            /* plain loc -> protecting mutex (-1 none); rwlocks are G_MAX_SYNC+i */
    bool heap_live[G_MAX_LOC];
    uint16_t mutex[G_MAX_SYNC], rw[G_MAX_SYNC], cv[G_MAX_SYNC], cv_m[G_MAX_SYNC], bar[G_MAX_SYNC],
        sem[G_MAX_SYNC], once[G_MAX_SYNC];
    int32_t m_holder[G_MAX_SYNC];
    int32_t rw_writer[G_MAX_SYNC];
    uint32_t rw_readers[G_MAX_SYNC];
    uint32_t sem_count[G_MAX_SYNC];
    bool once_done[G_MAX_SYNC], cv_signalled[G_MAX_SYNC];
    struct gbar barr[G_MAX_SYNC];
    uint32_t next_thread_name;
};

static bool chance(struct gen *g, uint32_t pct) { return diff_rng_below(&g->r, 100) < pct; }

static uint16_t sync_name(struct gen *g, const char *pfx, uint32_t i) {
    char b[16];
    snprintf(b, sizeof b, "%s%u", pfx, i);
    return (uint16_t)diff_name_id(&g->t->sync, b, strlen(b));
}
static uint16_t loc_name(struct gen *g, const char *pfx, uint32_t i) {
    char b[16];
    snprintf(b, sizeof b, "%s%u", pfx, i);
    return (uint16_t)diff_name_id(&g->t->loc, b, strlen(b));
}

static struct dev *emit(struct gen *g, uint32_t ti, uint8_t op) {
    struct dev *e = diff_trace_push(g->t);
    e->tid = g->th[ti].name;
    e->op = op;
    return e;
}

static void setup(struct gen *g) {
    bool lo = g->o->lock_only, py = g->o->py_subset;
    g->n_plain = 2 + diff_rng_below(&g->r, 5);
    g->n_atomic = lo ? 0 : diff_rng_below(&g->r, 4);
    g->n_heap = lo || py ? 0 : diff_rng_below(&g->r, 3);
    g->n_mutex = 1 + diff_rng_below(&g->r, 3);
    g->n_rw = diff_rng_below(&g->r, 3);
    g->n_cv = lo ? 0 : diff_rng_below(&g->r, 2);
    g->n_bar = lo || py ? 0 : diff_rng_below(&g->r, 2);
    g->n_sem = lo || py ? 0 : diff_rng_below(&g->r, 3);
    g->n_once = lo || py ? 0 : diff_rng_below(&g->r, 2);
    for (uint32_t i = 0; i < g->n_plain; i++) {
        g->plain[i] = loc_name(g, "x", i);
        uint32_t k = diff_rng_below(&g->r, 10);
        g->prot[i] = k < 5 ? (int8_t)diff_rng_below(&g->r, g->n_mutex)
                   : (k < 7 && g->n_rw) ? (int8_t)(G_MAX_SYNC + diff_rng_below(&g->r, g->n_rw)) : -1;
    }
    for (uint32_t i = 0; i < g->n_atomic; i++) {
        g->atomic[i] = loc_name(g, "a", i);
        g->atomic_len[i] = !py && chance(g, 20) ? 4 : 8;
    }
    for (uint32_t i = 0; i < g->n_heap; i++)
        g->heap[i] = loc_name(g, "h", i);
    for (uint32_t i = 0; i < g->n_mutex; i++) {
        g->mutex[i] = sync_name(g, "M", i);
        g->m_holder[i] = -1;
    }
    for (uint32_t i = 0; i < g->n_rw; i++) {
        g->rw[i] = sync_name(g, "R", i);
        g->rw_writer[i] = -1;
    }
    for (uint32_t i = 0; i < g->n_cv; i++) {
        g->cv[i] = sync_name(g, "CV", i);
        g->cv_m[i] = (uint16_t)diff_rng_below(&g->r, g->n_mutex);
    }
    for (uint32_t i = 0; i < g->n_bar; i++) {
        g->bar[i] = sync_name(g, "B", i);
        /* declared (`barrier B N`), as pthread_barrier_init tells the runtime:
         * the engines then see the count, and Goldilocks sets dead marks */
        g->barr[i].count = 2 + diff_rng_below(&g->r, 4);
        diff_trace_set_bar_count(g->t, g->bar[i], g->barr[i].count);
    }
    for (uint32_t i = 0; i < g->n_sem; i++)
        g->sem[i] = sync_name(g, "S", i);
    for (uint32_t i = 0; i < g->n_once; i++)
        g->once[i] = sync_name(g, "O", i);
    g->th[0].name = 0;
    g->th[0].state = GT_RUN;
    g->n_th = 1;
    g->next_thread_name = 1;
}

/* --- actions ------------------------------------------------------------------ */

enum act {
    A_ACCESS, A_ATOMIC, A_FENCE, A_ACQ, A_REL, A_TRYFAIL, A_WRLOCK, A_RDLOCK, A_RWUNLOCK, A_WAIT,
    A_SIGNAL, A_BAR_START, A_BAR_ARRIVE, A_SEM_POST, A_SEM_WAIT, A_ONCE, A_ALLOC, A_FREE, A_FORK,
    A_EXIT, A_JOIN, A_DETACH, A_YIELD, A_NACTS
};

static bool has_bar_duty(struct gen *g, uint32_t ti) {
    for (uint32_t b = 0; b < g->n_bar; b++)
        if ((g->barr[b].parts >> ti) & 1)
            return true;
    return false;
}

/* An idle barrier whose count is the number of live threads, all of them
 * free to take part (none blocked, none in an episode), else -1: an episode
 * of every live thread is when Goldilocks sets a dead mark, so the
 * generator starts one more often when it can. */
static int bar_of_all(struct gen *g) {
    uint32_t live = 0, free_run = 0;
    for (uint32_t u = 0; u < g->n_th; u++) {
        live += g->th[u].state == GT_RUN;
        free_run += g->th[u].state == GT_RUN && !g->th[u].blocked && !has_bar_duty(g, u);
    }
    for (uint32_t b = 0; b < g->n_bar; b++)
        if (!g->barr[b].parts && g->barr[b].count == live && free_run == live)
            return (int)b;
    return -1;
}

/* Weight of action a for running thread ti in the current state (0 = not allowed). */
static uint32_t weight(struct gen *g, uint32_t ti, enum act a) {
    struct gthr *t = &g->th[ti];
    bool holds = t->held_m || t->held_w || t->held_r;
    uint32_t n = 0;
    switch (a) {
    case A_ACCESS:
        return 40;
    case A_ATOMIC:
        return (g->n_atomic || g->n_heap) ? 16 : 0;
    case A_FENCE:
        return g->n_atomic ? 4 : 0;
    case A_ACQ:
        for (uint32_t m = 0; m < g->n_mutex; m++)
            n += g->m_holder[m] < 0;
        return n ? 8 : 0;
    case A_REL:
        return t->held_m ? 9 : 0;
    case A_TRYFAIL:
        for (uint32_t m = 0; m < g->n_mutex; m++)
            n += g->m_holder[m] >= 0 && g->m_holder[m] != (int32_t)ti;
        return n && !g->o->py_subset ? 1 : 0;
    case A_WRLOCK:
        for (uint32_t r = 0; r < g->n_rw; r++)
            n += g->rw_writer[r] < 0 && !g->rw_readers[r];
        return n ? 3 : 0;
    case A_RDLOCK:
        for (uint32_t r = 0; r < g->n_rw; r++)
            n += g->rw_writer[r] < 0 && !((t->held_r >> r) & 1);
        return n ? 4 : 0;
    case A_RWUNLOCK:
        return (t->held_w || t->held_r) ? 8 : 0;
    case A_WAIT:
        for (uint32_t c = 0; c < g->n_cv; c++)
            n += (t->held_m >> g->cv_m[c]) & 1;
        return n ? 4 : 0;
    case A_SIGNAL:
        return g->n_cv ? 3 : 0;
    case A_BAR_START:
        for (uint32_t b = 0; b < g->n_bar; b++)
            n += !g->barr[b].parts;
        return n ? (bar_of_all(g) >= 0 ? 40 : 2) : 0;
    case A_BAR_ARRIVE:
        if (holds)
            return 0;   /* nobody waits at a barrier holding a lock (avoids deadlock) */
        for (uint32_t b = 0; b < g->n_bar; b++)
            n += ((g->barr[b].parts >> ti) & 1) && g->barr[b].rounds_left[ti];
        return n ? 10 : 0;
    case A_SEM_POST:
        return g->n_sem ? 3 : 0;
    case A_SEM_WAIT:
        for (uint32_t s = 0; s < g->n_sem; s++)
            n += g->sem_count[s] > 0;
        return n ? 5 : 0;
    case A_ONCE:
        return g->n_once ? 2 : 0;
    case A_ALLOC:
        for (uint32_t h = 0; h < g->n_heap; h++)
            n += !g->heap_live[h];
        return n ? 4 : 0;
    case A_FREE:
        for (uint32_t h = 0; h < g->n_heap; h++)
            n += g->heap_live[h];
        return n ? 1 : 0;
    case A_FORK:
        for (uint32_t b = 0; b < g->n_bar; b++)
            if (g->barr[b].parts && g->barr[b].all)
                return 0;   /* (a thread forked now would be a live outsider: no dead mark) */
        return g->n_th < g->o->max_threads && g->n_th < G_MAX_THR ? (ti == 0 ? 8 : 3) : 0;
    case A_EXIT:
        return (ti != 0 && !holds && !has_bar_duty(g, ti)) ? 2 : 0;
    case A_JOIN:
        for (uint32_t u = 0; u < g->n_th; u++)
            n += u != ti && g->th[u].state == GT_EXITED && !g->th[u].detached;
        return n ? 4 : 0;
    case A_DETACH:
        for (uint32_t u = 1; u < g->n_th; u++)
            n += u != ti && (g->th[u].state == GT_RUN || g->th[u].state == GT_EXITED) && !g->th[u].detached;
        return n && !g->o->lock_only && !g->o->py_subset ? 1 : 0;
    case A_YIELD:
        return g->o->lock_only || g->o->py_subset ? 0 : 1;
    case A_NACTS:
        break;
    }
    return 0;
}

/* Picks uniformly among the indexes i < n with ok(i). */
#define PICK(g, n, cond) ({                                               \
    uint32_t cnt_ = 0, sel_ = 0;                                          \
    for (uint32_t i = 0; i < (n); i++) if (cond) cnt_++;                  \
    uint32_t k_ = diff_rng_below(&(g)->r, cnt_);                          \
    for (uint32_t i = 0; i < (n); i++) if (cond) { if (!k_--) { sel_ = i; break; } } \
    sel_; })

static void plain_access(struct gen *g, uint32_t ti) {
    struct gthr *t = &g->th[ti];
    uint16_t loc;
    uint32_t lo = 0, hi = 16;   /* byte window of the chosen location */
    uint32_t k = diff_rng_below(&g->r, 100);
    uint32_t n_heap_live = 0;
    for (uint32_t h = 0; h < g->n_heap; h++)
        n_heap_live += g->heap_live[h];
    /* prefer locations whose protecting lock is held */
    uint32_t n_prot = 0;
    for (uint32_t i = 0; i < g->n_plain; i++) {
        int p = g->prot[i];
        n_prot += p >= 0 && (p < G_MAX_SYNC ? (t->held_m >> p) & 1 : ((t->held_w | t->held_r) >> (p - G_MAX_SYNC)) & 1);
    }
    if (n_prot && k < 75) {
        uint32_t i = PICK(g, g->n_plain, g->prot[i] >= 0 &&
            (g->prot[i] < G_MAX_SYNC ? (t->held_m >> g->prot[i]) & 1
                                     : ((t->held_w | t->held_r) >> (g->prot[i] - G_MAX_SYNC)) & 1));
        loc = g->plain[i];
    } else if (n_heap_live && k >= 85) {
        uint32_t h = PICK(g, g->n_heap, g->heap_live[i]);
        loc = g->heap[h];
    } else if (g->n_atomic && k >= 80 && k < 85) {
        uint32_t a = diff_rng_below(&g->r, g->n_atomic);   /* plain access to an atomic: mixed */
        loc = g->atomic[a];
        hi = 8;
    } else {
        loc = g->plain[diff_rng_below(&g->r, g->n_plain)];
    }
    bool write = chance(g, 45);
    bool range = chance(g, 18);
    if (g->o->py_subset) {
        /* whole 8-byte locations only */
        struct dev *e = emit(g, ti, write ? D_WR : D_RD);
        e->loc = loc;
        e->len = 8;
        return;
    }
    struct dev *e;
    if (range) {
        uint32_t off = lo + diff_rng_below(&g->r, hi - lo);
        uint32_t len = 1 + diff_rng_below(&g->r, hi - off);
        e = emit(g, ti, write ? D_WRR : D_RDR);
        e->off = (uint8_t)off;
        e->len = (uint8_t)len;
        e->form = 2;
    } else {
        static const uint8_t lens[] = {1, 2, 4, 8, 8, 8};
        uint32_t len = lens[diff_rng_below(&g->r, 6)];
        if (len > hi - lo)
            len = hi - lo;
        uint32_t off;
        if (chance(g, 12))
            off = lo + diff_rng_below(&g->r, hi - lo - len + 1);          /* unaligned */
        else
            off = lo + len * diff_rng_below(&g->r, (hi - lo) / len);      /* aligned */
        e = emit(g, ti, write ? D_WR : D_RD);
        e->off = (uint8_t)off;
        e->len = (uint8_t)len;
        e->form = (off || len != 8) ? 1 : 0;
    }
    e->loc = loc;
}

static void atomic_access(struct gen *g, uint32_t ti) {
    uint32_t n_live = 0;
    for (uint32_t h = 0; h < g->n_heap; h++)
        n_live += g->heap_live[h];
    uint16_t loc;
    uint8_t off = 0, len;
    if (g->n_atomic && (!n_live || chance(g, 75))) {
        uint32_t a = diff_rng_below(&g->r, g->n_atomic);
        loc = g->atomic[a];
        len = g->atomic_len[a];
    } else if (n_live) {
        uint32_t h = PICK(g, g->n_heap, g->heap_live[i]);
        loc = g->heap[h];
        off = 8;
        len = 8;
    } else {
        plain_access(g, ti);
        return;
    }
    static const uint8_t st_mo[] = {MO_RLX, MO_REL, MO_SC};
    static const uint8_t ld_mo[] = {MO_RLX, MO_CON, MO_ACQ, MO_SC};
    uint32_t k = diff_rng_below(&g->r, 100);
    struct dev *e;
    if (k < 30) {
        e = emit(g, ti, D_ST);
        e->mo = st_mo[diff_rng_below(&g->r, 3)];
    } else if (k < 65) {
        e = emit(g, ti, D_LD);
        e->mo = ld_mo[diff_rng_below(&g->r, 4)];
    } else if (k < 90) {
        e = emit(g, ti, D_RMW);
        e->mo = (uint8_t)diff_rng_below(&g->r, 6);
    } else if (!g->o->py_subset) {
        e = emit(g, ti, D_CASFAIL);
        e->mo = ld_mo[diff_rng_below(&g->r, 4)];
    } else {
        e = emit(g, ti, D_LD);
        e->mo = ld_mo[diff_rng_below(&g->r, 4)];
    }
    e->loc = loc;
    e->off = off;
    e->len = len;
    e->form = (off || len != 8) ? 1 : 0;
}

static uint32_t new_thread(struct gen *g) {
    char b[16];
    snprintf(b, sizeof b, "T%u", g->next_thread_name++);
    uint32_t u = g->n_th++;
    memset(&g->th[u], 0, sizeof g->th[u]);
    g->th[u].name = (uint16_t)diff_name_id(&g->t->thr, b, strlen(b));
    g->th[u].state = GT_RUN;
    return u;
}

static void act(struct gen *g, uint32_t ti, enum act a) {
    struct gthr *t = &g->th[ti];
    struct dev *e;
    switch (a) {
    case A_ACCESS:
        plain_access(g, ti);
        break;
    case A_ATOMIC:
        atomic_access(g, ti);
        break;
    case A_FENCE:
        if (chance(g, 5) && !g->o->py_subset) {
            emit(g, ti, D_SIGFENCE);
        } else {
            e = emit(g, ti, D_FENCE);
            e->mo = (uint8_t)(chance(g, 5) ? MO_RLX : 1 + diff_rng_below(&g->r, 5));
        }
        break;
    case A_ACQ: {
        uint32_t m = PICK(g, g->n_mutex, g->m_holder[i] < 0);
        g->m_holder[m] = (int32_t)ti;
        t->held_m |= 1u << m;
        emit(g, ti, D_ACQ)->sync = g->mutex[m];
        break;
    }
    case A_REL: {
        uint32_t m = PICK(g, g->n_mutex, (t->held_m >> i) & 1);
        g->m_holder[m] = -1;
        t->held_m &= ~(1u << m);
        emit(g, ti, D_REL)->sync = g->mutex[m];
        break;
    }
    case A_TRYFAIL: {
        uint32_t m = PICK(g, g->n_mutex, g->m_holder[i] >= 0 && g->m_holder[i] != (int32_t)ti);
        emit(g, ti, D_TRYFAIL)->sync = g->mutex[m];
        break;
    }
    case A_WRLOCK: {
        uint32_t r = PICK(g, g->n_rw, g->rw_writer[i] < 0 && !g->rw_readers[i]);
        g->rw_writer[r] = (int32_t)ti;
        t->held_w |= 1u << r;
        emit(g, ti, D_WRLOCK)->sync = g->rw[r];
        break;
    }
    case A_RDLOCK: {
        uint32_t r = PICK(g, g->n_rw, g->rw_writer[i] < 0 && !((t->held_r >> i) & 1));
        g->rw_readers[r]++;
        t->held_r |= 1u << r;
        emit(g, ti, D_RDLOCK)->sync = g->rw[r];
        break;
    }
    case A_RWUNLOCK: {
        uint32_t r = PICK(g, g->n_rw, ((t->held_w | t->held_r) >> i) & 1);
        if ((t->held_w >> r) & 1) {
            g->rw_writer[r] = -1;
            t->held_w &= ~(1u << r);
            emit(g, ti, D_WRUNLOCK)->sync = g->rw[r];
        } else {
            g->rw_readers[r]--;
            t->held_r &= ~(1u << r);
            emit(g, ti, D_RDUNLOCK)->sync = g->rw[r];
        }
        break;
    }
    case A_WAIT: {
        uint32_t c = PICK(g, g->n_cv, (t->held_m >> g->cv_m[i]) & 1);
        uint32_t m = g->cv_m[c];
        g->m_holder[m] = -1;
        t->held_m &= ~(1u << m);
        t->blocked = GB_WAIT;
        t->cv = (uint8_t)c;
        e = emit(g, ti, D_WAIT_ENTER);
        e->sync = g->cv[c];
        e->sync2 = g->mutex[m];
        break;
    }
    case A_SIGNAL: {
        uint32_t c = diff_rng_below(&g->r, g->n_cv);
        g->cv_signalled[c] = true;
        emit(g, ti, chance(g, 70) ? D_SIGNAL : D_BROADCAST)->sync = g->cv[c];
        break;
    }
    case A_BAR_START: {
        /* a barrier episode: its count (2-5) of running threads, 1-3
         * generations; all the running threads now and then, which is when
         * Goldilocks may set a dead mark */
        int all = bar_of_all(g);
        uint32_t b = all >= 0 ? (uint32_t)all : PICK(g, g->n_bar, !g->barr[i].parts);
        struct gbar *B = &g->barr[b];
        uint32_t want = B->count, rounds = 1 + diff_rng_below(&g->r, 3);
        uint32_t parts = 0, np = 0;
        for (uint32_t tries = 0; tries < 16 && np < want; tries++) {
            uint32_t u = diff_rng_below(&g->r, g->n_th);
            if (g->th[u].state != GT_RUN || ((parts >> u) & 1) || has_bar_duty(g, u))
                continue;
            parts |= 1u << u;
            np++;
        }
        if (np < want)
            break;   /* nothing emitted: the caller tries again */
        B->parts = parts;
        B->n_parts = np;
        B->all = all >= 0;
        for (uint32_t u = 0; u < G_MAX_THR; u++) {
            B->rounds_left[u] = ((parts >> u) & 1) ? rounds : 0;
            B->next_gen[u] = B->gen_base;
        }
        for (uint32_t r = 0; r < rounds; r++)
            B->arrivals[(B->gen_base + r) % 64] = 0;
        B->gen_base += rounds;
        break;
    }
    case A_BAR_ARRIVE: {
        uint32_t b = PICK(g, g->n_bar, ((g->barr[i].parts >> ti) & 1) && g->barr[i].rounds_left[ti]);
        struct gbar *B = &g->barr[b];
        uint32_t gen = B->next_gen[ti]++;
        B->rounds_left[ti]--;
        B->arrivals[gen % 64]++;
        t->blocked = GB_BAR;
        t->bar = (uint8_t)b;
        t->bar_gen = gen;
        e = emit(g, ti, D_BAR_ARRIVE);
        e->sync = g->bar[b];
        e->gen = gen;
        break;
    }
    case A_SEM_POST: {
        uint32_t s = diff_rng_below(&g->r, g->n_sem);
        g->sem_count[s]++;
        emit(g, ti, D_SEM_POST)->sync = g->sem[s];
        break;
    }
    case A_SEM_WAIT: {
        uint32_t s = PICK(g, g->n_sem, g->sem_count[i] > 0);
        g->sem_count[s]--;
        emit(g, ti, D_SEM_WAIT)->sync = g->sem[s];
        break;
    }
    case A_ONCE: {
        uint32_t o = diff_rng_below(&g->r, g->n_once);
        if (!g->once_done[o]) {
            /* the executor initialises under the once control */
            if (chance(g, 70))
                plain_access(g, ti);
            emit(g, ti, D_ONCE_DONE)->sync = g->once[o];
            g->once_done[o] = true;
        }
        emit(g, ti, D_ONCE_RET)->sync = g->once[o];
        break;
    }
    case A_ALLOC: {
        uint32_t h = PICK(g, g->n_heap, !g->heap_live[i]);
        g->heap_live[h] = true;
        e = emit(g, ti, D_ALLOC);
        e->loc = g->heap[h];
        e->len = G_HEAP_SIZE;
        e->form = 2;
        break;
    }
    case A_FREE: {
        uint32_t h = PICK(g, g->n_heap, g->heap_live[i]);
        g->heap_live[h] = false;
        e = emit(g, ti, D_FREE);
        e->loc = g->heap[h];
        e->len = G_HEAP_SIZE;
        e->form = 2;
        break;
    }
    case A_FORK: {
        uint32_t u = new_thread(g);
        emit(g, ti, D_FORK)->other = g->th[u].name;
        break;
    }
    case A_EXIT:
        t->state = GT_EXITED;
        emit(g, ti, D_EXIT);
        break;
    case A_JOIN: {
        uint32_t u = PICK(g, g->n_th, i != ti && g->th[i].state == GT_EXITED && !g->th[i].detached);
        g->th[u].state = GT_JOINED;
        emit(g, ti, D_JOIN)->other = g->th[u].name;
        break;
    }
    case A_DETACH: {
        uint32_t u = PICK(g, g->n_th, i != 0 && i != ti &&
                          (g->th[i].state == GT_RUN || g->th[i].state == GT_EXITED) && !g->th[i].detached);
        g->th[u].detached = 1;
        emit(g, ti, D_DETACH)->other = g->th[u].name;
        break;
    }
    case A_YIELD:
        emit(g, ti, D_YIELD);
        break;
    case A_NACTS:
        break;
    }
}

/* One step of a blocked thread, if its primitive lets it continue now. */
static bool unblock(struct gen *g, uint32_t ti) {
    struct gthr *t = &g->th[ti];
    if (t->blocked == GB_WAIT) {
        uint32_t m = g->cv_m[t->cv];
        /* spurious wake-ups and timeouts exist, but mostly wait for a signal */
        if (g->m_holder[m] >= 0 || (!g->cv_signalled[t->cv] && !chance(g, 10)))
            return false;
        g->cv_signalled[t->cv] = false;
        g->m_holder[m] = (int32_t)ti;
        t->held_m |= 1u << m;
        t->blocked = GB_NO;
        struct dev *e = emit(g, ti, D_WAIT_EXIT);
        e->sync = g->cv[t->cv];
        e->sync2 = g->mutex[m];
        return true;
    }
    if (t->blocked == GB_BAR) {
        struct gbar *B = &g->barr[t->bar];
        if (B->arrivals[t->bar_gen % 64] < B->n_parts)
            return false;
        t->blocked = GB_NO;
        struct dev *e = emit(g, ti, D_BAR_DEPART);
        e->sync = g->bar[t->bar];
        e->gen = t->bar_gen;
        /* the episode ends when every participant left its last generation */
        bool done = true;
        for (uint32_t u = 0; u < g->n_th; u++)
            if (((B->parts >> u) & 1) && (B->rounds_left[u] || g->th[u].blocked == GB_BAR))
                done = false;
        if (done)
            B->parts = 0;
        return true;
    }
    return false;
}

void diff_gen_defaults(struct gen_opts *o) {
    o->min_events = 40;
    o->max_events = 220;
    o->max_threads = 6;
    o->lock_only = false;
    o->py_subset = false;
}

void diff_gen(uint64_t seed, const struct gen_opts *o, struct dtrace *t) {
    struct gen *g = calloc(1, sizeof *g);
    g->r.s = seed * 0x2545F4914F6CDD1Dull + 0x1234567;
    g->o = o;
    g->t = t;
    diff_trace_init(t);
    setup(g);
    uint32_t target = o->min_events + diff_rng_below(&g->r, o->max_events - o->min_events + 1);
    uint32_t cur = 0, stall = 0;
    while (t->n < target && stall < 200) {
        /* keep running the same thread for a while: critical sections and
         * message-passing idioms need consecutive events of one thread */
        if (g->th[cur].state != GT_RUN || chance(g, 35))
            cur = diff_rng_below(&g->r, g->n_th);
        struct gthr *th = &g->th[cur];
        if (th->state != GT_RUN) {
            stall++;
            continue;
        }
        uint32_t before = t->n;
        if (th->blocked) {
            unblock(g, cur);
        } else {
            uint32_t w[A_NACTS], sum = 0;
            for (int a = 0; a < A_NACTS; a++)
                sum += w[a] = weight(g, cur, (enum act)a);
            uint32_t k = diff_rng_below(&g->r, sum);
            int a = 0;
            while (k >= w[a])
                k -= w[a++];
            act(g, cur, (enum act)a);
        }
        stall = t->n == before ? stall + 1 : 0;
    }
    free(g);
}

/* Naive happens-before oracle (see oracle.h). Every synchronization rule of
 * ALGORITHMS.md §1.2 is restated as explicit edges "source event -> this
 * event"; hb is the transitive closure, computed in trace order (every edge
 * points forward, so anc[i] = OR over predecessors p of anc[p] + {p}).
 * Release sequences are kept as explicit *head sets* per atomic object: the
 * events whose clock a reader of the latest value would synchronize with. */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const diff_kind_names[4] = {"none", "WW", "WR", "RW"};
bool diff_oracle_check_first;

bool diff_oracle_access_ordered(const struct oracle *o, uint32_t j, uint32_t i) {
    const struct dev *e = &o->t->ev[i];
    if (o->check_first && (e->op == D_LD || e->op == D_CASFAIL || e->op == D_RMW) && diff_mo_acquire(e->mo)) {
        uint32_t p = o->pp[i];   /* the clock before the acquire: program order only */
        return p != O_NONE && (j == p || diff_oracle_hb(o, j, p));
    }
    return diff_oracle_hb(o, j, i);
}

/* A growable set of event ids. */
struct iset { uint32_t *v; uint32_t n, cap; };

static void iset_add(struct iset *s, uint32_t x) {
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = x;
}
static void iset_union(struct iset *d, const struct iset *s) {
    for (uint32_t i = 0; i < s->n; i++)
        iset_add(d, s->v[i]);
}

struct bar_arrival { uint32_t sync, gen, node; };

/* Graph construction state. */
struct gstate {
    uint32_t *last;          /* per thread: its last event (the fork event for a fresh child), O_NONE */
    uint32_t *last_rel;      /* per sync: latest rel-store event (mutex, R.w, once) */
    struct iset *joins;      /* per sync: every rel-join event (R.r, semaphore) */
    struct bar_arrival *arr; /* every barrier arrival so far */
    uint32_t n_arr, cap_arr;
    struct iset *heads;      /* per atomic byte address (loc*64+off): release-sequence heads */
    uint32_t *frel;          /* per thread: latest release fence, O_NONE */
    struct iset *stash;      /* per thread: heads seen by relaxed reads (released at acquire fences) */
    struct iset preds;       /* predecessors of the current event */
};

static void add_edge_all(struct gstate *g, const struct iset *s) { iset_union(&g->preds, s); }

/* FULL/WX of one byte in one lifetime from its accesses L (trace order);
 * empties L. Naive: every earlier access is compared with every later one. */
static void eval_byte(struct oracle *o, uint32_t bb, uint32_t life, struct iset *L) {
    const struct dtrace *t = o->t;
    if (!L->n)
        return;
    if (o->nb == o->capb) {
        o->capb = o->capb ? o->capb * 2 : 64;
        o->b = realloc(o->b, o->capb * sizeof *o->b);
    }
    struct obyte *r = &o->b[o->nb++];
    r->loc = (uint16_t)(bb / D_SLOT);
    r->off = (uint8_t)(bb % D_SLOT);
    r->life = life;
    r->full = r->wx = O_NONE;
    r->full_kind = r->wx_kind = K_NONE;
    for (uint32_t p = 0; p < L->n && (r->full == O_NONE || r->wx == O_NONE); p++) {
        const struct dev *ei = &t->ev[L->v[p]];
        bool wi = diff_is_write(ei->op), ai = diff_is_atomic(ei->op);
        bool any = false, anyw = false;
        for (uint32_t q = 0; q < p; q++) {
            const struct dev *ej = &t->ev[L->v[q]];
            bool wj = diff_is_write(ej->op), aj = diff_is_atomic(ej->op);
            if (ej->tid == ei->tid || !(wi || wj) || (ai && aj))
                continue;   /* no conflict (§1.4) */
            if (diff_oracle_access_ordered(o, L->v[q], L->v[p]))
                continue;
            any = true;
            anyw |= wj;
        }
        if (any && r->full == O_NONE) {
            r->full = L->v[p];
            r->full_kind = anyw ? (wi ? K_WW : K_WR) : K_RW;
        }
        if (anyw && r->wx == O_NONE) {
            r->wx = L->v[p];
            r->wx_kind = wi ? K_WW : K_WR;
        }
    }
    L->n = 0;
}

void diff_oracle_run(const struct dtrace *t, struct oracle *o) {
    memset(o, 0, sizeof *o);
    o->t = t;
    o->n = t->n;
    o->words = (t->n + 63) / 64;
    if (!o->words)
        o->words = 1;
    o->anc = calloc((size_t)(t->n ? t->n : 1) * o->words, sizeof(uint64_t));
    o->pp = malloc((t->n + 1) * sizeof *o->pp);
    o->check_first = diff_oracle_check_first;
    uint32_t nt = t->thr.n, ns = t->sync.n, na = t->loc.n * D_SLOT;
    struct gstate g;
    memset(&g, 0, sizeof g);
    g.last = malloc((nt + 1) * sizeof *g.last);
    g.frel = malloc((nt + 1) * sizeof *g.frel);
    g.stash = calloc(nt + 1, sizeof *g.stash);
    g.last_rel = malloc((ns + 1) * sizeof *g.last_rel);
    g.joins = calloc(ns + 1, sizeof *g.joins);
    g.heads = calloc(na + 1, sizeof *g.heads);
    for (uint32_t i = 0; i <= nt; i++)
        g.last[i] = g.frel[i] = O_NONE;
    for (uint32_t i = 0; i <= ns; i++)
        g.last_rel[i] = O_NONE;

    for (uint32_t i = 0; i < t->n; i++) {
        const struct dev *e = &t->ev[i];
        uint32_t me = e->tid;
        g.preds.n = 0;
        o->pp[i] = g.last[me];
        if (g.last[me] != O_NONE)
            iset_add(&g.preds, g.last[me]);                 /* program order (fork -> child's first) */
        uint32_t a = e->loc != D_NONE ? (uint32_t)e->loc * D_SLOT + e->off : 0;
        switch (e->op) {
        case D_JOIN:
            if (g.last[e->other] != O_NONE)
                iset_add(&g.preds, g.last[e->other]);       /* child's exit (explicit or implied) */
            break;
        case D_ACQ:
        case D_RDLOCK:
            if (g.last_rel[e->sync] != O_NONE)
                iset_add(&g.preds, g.last_rel[e->sync]);    /* M / R.w */
            break;
        case D_WRLOCK:
            if (g.last_rel[e->sync] != O_NONE)
                iset_add(&g.preds, g.last_rel[e->sync]);    /* R.w */
            add_edge_all(&g, &g.joins[e->sync]);            /* R.r: every reader's unlock */
            break;
        case D_WAIT_EXIT:
            if (g.last_rel[e->sync2] != O_NONE)
                iset_add(&g.preds, g.last_rel[e->sync2]);   /* reacquires M */
            break;
        case D_ONCE_RET:
            if (g.last_rel[e->sync] != O_NONE)
                iset_add(&g.preds, g.last_rel[e->sync]);
            break;
        case D_SEM_WAIT:
            add_edge_all(&g, &g.joins[e->sync]);            /* every post so far */
            break;
        case D_BAR_DEPART:
            for (uint32_t k = 0; k < g.n_arr; k++)          /* every arrival of this generation */
                if (g.arr[k].sync == e->sync && g.arr[k].gen == e->gen)
                    iset_add(&g.preds, g.arr[k].node);
            break;
        case D_LD:
        case D_CASFAIL:
        case D_RMW:
            /* reads the latest store: synchronizes with the heads of its
             * release sequence now (acquire) or at a later acquire fence */
            if (diff_mo_acquire(e->mo))
                add_edge_all(&g, &g.heads[a]);
            else
                iset_union(&g.stash[me], &g.heads[a]);
            break;
        case D_FENCE:
            if (diff_mo_acquire(e->mo))
                add_edge_all(&g, &g.stash[me]);
            break;
        default:
            break;
        }
        /* close: anc[i] = union of predecessors and their ancestors */
        uint64_t *ai = &o->anc[(size_t)i * o->words];
        for (uint32_t k = 0; k < g.preds.n; k++) {
            uint32_t p = g.preds.v[k];
            const uint64_t *ap = &o->anc[(size_t)p * o->words];
            for (uint32_t w = 0; w < o->words; w++)
                ai[w] |= ap[w];
            ai[p / 64] |= 1ull << (p % 64);
        }
        o->n_edges += g.preds.n;
        /* effects of this event as a synchronization source */
        switch (e->op) {
        case D_FORK:
            g.last[e->other] = i;
            break;
        case D_REL:
        case D_WRUNLOCK:
        case D_ONCE_DONE:
            g.last_rel[e->sync] = i;
            break;
        case D_WAIT_ENTER:
            g.last_rel[e->sync2] = i;
            break;
        case D_RDUNLOCK:
        case D_SEM_POST:
            iset_add(&g.joins[e->sync], i);
            break;
        case D_BAR_ARRIVE:
            if (g.n_arr == g.cap_arr) {
                g.cap_arr = g.cap_arr ? g.cap_arr * 2 : 16;
                g.arr = realloc(g.arr, g.cap_arr * sizeof *g.arr);
            }
            g.arr[g.n_arr++] = (struct bar_arrival){e->sync, e->gen, i};
            break;
        case D_ST:
            /* a store starts a new sequence: its own (release) or its
             * thread's last release fence's (relaxed), or none */
            g.heads[a].n = 0;
            if (diff_mo_release(e->mo))
                iset_add(&g.heads[a], i);
            else if (g.frel[me] != O_NONE)
                iset_add(&g.heads[a], g.frel[me]);
            break;
        case D_RMW:
            /* an RMW continues the sequence it read from and adds itself */
            if (diff_mo_release(e->mo))
                iset_add(&g.heads[a], i);
            else if (g.frel[me] != O_NONE)
                iset_add(&g.heads[a], g.frel[me]);
            break;
        case D_FENCE:
            if (diff_mo_release(e->mo))
                g.frel[me] = i;
            break;
        case D_ALLOC:
        case D_FREE:
            /* a new lifetime forgets the atomic objects in the block */
            for (uint32_t k = 0; k < e->len; k++)
                g.heads[(uint32_t)e->loc * D_SLOT + e->off + k].n = 0;
            break;
        default:
            break;
        }
        g.last[me] = i;
    }

    /* per-byte access lists, evaluated when the byte's lifetime ends (alloc,
     * free after its write) and at the end of the trace */
    uint32_t *life = calloc(na + 1, sizeof *life);
    struct iset *lists = calloc(na + 1, sizeof *lists);
    for (uint32_t i = 0; i < t->n; i++) {
        const struct dev *e = &t->ev[i];
        if (e->op == D_ALLOC || e->op == D_FREE) {
            for (uint32_t k = 0; k < e->len; k++) {
                uint32_t bb = (uint32_t)e->loc * D_SLOT + e->off + k;
                if (e->op == D_FREE)
                    iset_add(&lists[bb], i);
                eval_byte(o, bb, life[bb], &lists[bb]);
                life[bb]++;
            }
        } else if (diff_is_access(e->op)) {
            for (uint32_t k = 0; k < e->len; k++)
                iset_add(&lists[(uint32_t)e->loc * D_SLOT + e->off + k], i);
        }
    }
    for (uint32_t bb = 0; bb < na; bb++)
        eval_byte(o, bb, life[bb], &lists[bb]);
    for (uint32_t bb = 0; bb <= na; bb++)
        free(lists[bb].v);
    free(lists);
    free(life);
    for (uint32_t k = 0; k <= nt; k++)
        free(g.stash[k].v);
    for (uint32_t k = 0; k <= ns; k++)
        free(g.joins[k].v);
    for (uint32_t k = 0; k <= na; k++)
        free(g.heads[k].v);
    free(g.stash);
    free(g.joins);
    free(g.heads);
    free(g.last);
    free(g.frel);
    free(g.last_rel);
    free(g.arr);
    free(g.preds.v);
}

void diff_oracle_free(struct oracle *o) {
    free(o->anc);
    free(o->b);
    free(o->pp);
    memset(o, 0, sizeof *o);
}

uint32_t diff_oracle_life(const struct dtrace *t, uint32_t loc, uint32_t off, uint32_t idx) {
    uint32_t l = 0;
    for (uint32_t j = 0; j < idx && j < t->n; j++) {
        const struct dev *e = &t->ev[j];
        if ((e->op == D_ALLOC || e->op == D_FREE) && e->loc == loc && e->off <= off && off < (uint32_t)e->off + e->len)
            l++;
    }
    return l;
}

const struct obyte *diff_oracle_byte(const struct oracle *o, uint32_t loc, uint32_t off, uint32_t life) {
    for (uint32_t k = 0; k < o->nb; k++)
        if (o->b[k].loc == loc && o->b[k].off == off && o->b[k].life == life)
            return &o->b[k];
    return NULL;
}

static bool touches(const struct dev *e, uint32_t loc, uint32_t off) {
    return diff_is_access(e->op) && e->loc == loc && e->off <= off && off < (uint32_t)e->off + e->len;
}

bool diff_oracle_race_pair(const struct oracle *o, uint32_t j, uint32_t i, uint32_t loc, uint32_t off) {
    const struct dtrace *t = o->t;
    if (j >= i || i >= t->n)
        return false;
    const struct dev *ej = &t->ev[j], *ei = &t->ev[i];
    if (!touches(ej, loc, off) || !touches(ei, loc, off))
        return false;
    if (diff_oracle_life(t, loc, off, j) != diff_oracle_life(t, loc, off, i))
        return false;
    bool wi = diff_is_write(ei->op), wj = diff_is_write(ej->op);
    if (ej->tid == ei->tid || !(wi || wj) || (diff_is_atomic(ei->op) && diff_is_atomic(ej->op)))
        return false;
    return !diff_oracle_access_ordered(o, j, i);
}

bool diff_oracle_races_at(const struct oracle *o, uint32_t i, uint32_t loc, uint32_t off, bool want_write) {
    for (uint32_t j = 0; j < i; j++)
        if ((!want_write || diff_is_write(o->t->ev[j].op)) && diff_oracle_race_pair(o, j, i, loc, off))
            return true;
    return false;
}

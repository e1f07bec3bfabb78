/* Region counters, boundary rules and conflict records shared by the fastrcd
 * and valor engines (see region.h). No locks: counters are atomics and the
 * pending records live on the caller's stack. */
#include "region.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"

/* --- counters ------------------------------------------------------------------ */

_Atomic uint32_t *rg_counter_if_present(struct rg_counters *t, goldi_tid_t tid) {
    uint32_t d = tid >> RG_CHUNK_BITS;
    if (GOLDI_UNLIKELY(d >= (1u << RG_DIR_BITS)))
        return NULL;
    _Atomic uint32_t *chunk = atomic_load_explicit(&t->dir[d], memory_order_acquire);
    return chunk ? &chunk[tid & ((1u << RG_CHUNK_BITS) - 1)] : NULL;
}

_Atomic uint32_t *rg_counter(struct rg_counters *t, goldi_tid_t tid) {
    uint32_t d = tid >> RG_CHUNK_BITS;
    GOLDI_CHECK_OP(d, <, 1u << RG_DIR_BITS);
    _Atomic uint32_t *chunk = atomic_load_explicit(&t->dir[d], memory_order_acquire);
    if (!chunk) {
        _Atomic uint32_t *fresh = goldi_alloc(sizeof(*fresh) << RG_CHUNK_BITS);
        _Atomic uint32_t *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&t->dir[d], &expected, fresh, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            chunk = fresh;
        } else {
            goldi_free(fresh);   /* another thread installed it first */
            chunk = expected;
        }
    }
    return &chunk[tid & ((1u << RG_CHUNK_BITS) - 1)];
}

/* --- boundaries ------------------------------------------------------------------ */

/* Does ev's hb lowering publish anything (a release-type step)? */
void rg_thr_start(struct rg_counters *t, struct rg_thr *s, goldi_tid_t tid) {
    s->pub = rg_counter(t, tid);
    s->c = atomic_load_explicit(s->pub, memory_order_relaxed) + 1;
    atomic_store_explicit(s->pub, s->c, memory_order_release);
}

void rg_on_event(const struct goldi_event *ev, struct rg_thr *s, unsigned index,
                 bool (*is_boundary)(const struct goldi_event *ev),
                 void (*end)(void *ctx, goldi_tid_t tid, struct rg_thr *s), void *ctx) {
    if (ev->kind == GOLDI_EV_JOIN && ev->other) {
        struct rg_thr *cs = ev->other->estate[index];
        if (cs && !cs->ended) {
            end(ctx, ev->other->tid, cs);
            cs->ended = true;
        }
    }
    if (!s->ended && is_boundary(ev))
        end(ctx, ev->thr->tid, s);
    if (ev->kind == GOLDI_EV_EXIT)
        s->ended = true;
}

static bool has_release_step(const struct goldi_event *ev) {
    struct goldi_hb_step st[GOLDI_HB_MAX_STEPS];
    int n = goldi_event_hb_steps(ev, st);
    for (int i = 0; i < n; i++) {
        switch ((enum goldi_hb_op)st[i].op) {
        case GOLDI_HB_REL_STORE:
        case GOLDI_HB_REL_JOIN:
        case GOLDI_HB_FORK:
        case GOLDI_HB_EXIT:
        case GOLDI_HB_FENCE_REL:
            return true;
        case GOLDI_HB_ATOMIC_STORE:
        case GOLDI_HB_ATOMIC_RMW:
            /* A relaxed store/RMW publishes Frel_t, the clock at the last
             * release fence, which was itself a boundary: nothing of the
             * current region leaks. */
            if (st[i].strong)
                return true;
            break;
        case GOLDI_HB_ACQ:
        case GOLDI_HB_JOIN:
        case GOLDI_HB_ATOMIC_LOAD:
        case GOLDI_HB_FENCE_ACQ:
            break;
        }
    }
    return false;
}

bool rg_is_boundary_sfr(const struct goldi_event *ev) {
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_FORK:
    case GOLDI_EV_EXIT:
    case GOLDI_EV_JOIN:
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_LOCK_REL:
    case GOLDI_EV_WAIT_ENTER:
    case GOLDI_EV_WAIT_EXIT:
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
    case GOLDI_EV_BAR_ARRIVE:
    case GOLDI_EV_BAR_DEPART:
    case GOLDI_EV_SEM_POST:
    case GOLDI_EV_SEM_WAIT:
    case GOLDI_EV_ONCE_DONE:
    case GOLDI_EV_ONCE_RET:
        return true;
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_ATOMIC_CASFAIL:
    case GOLDI_EV_ATOMIC_READ_SYNC:
    case GOLDI_EV_FENCE:
        return ev->mo != GOLDI_MO_RELAXED;
    case GOLDI_EV_READ:
    case GOLDI_EV_WRITE:
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
    case GOLDI_EV_COUNT:
        return false;
    }
    return false;
}

bool rg_is_boundary_rfr(const struct goldi_event *ev) {
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_FORK:
    case GOLDI_EV_EXIT:
    case GOLDI_EV_LOCK_REL:       /* rel, wrunlock, rdunlock */
    case GOLDI_EV_WAIT_ENTER:
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
    case GOLDI_EV_BAR_ARRIVE:
    case GOLDI_EV_SEM_POST:
    case GOLDI_EV_ONCE_DONE:
        return true;
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_FENCE:
        return goldi_mo_is_release(ev->mo);
    case GOLDI_EV_JOIN:
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_WAIT_EXIT:
    case GOLDI_EV_BAR_DEPART:
    case GOLDI_EV_SEM_WAIT:
    case GOLDI_EV_ONCE_RET:
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_CASFAIL:
    case GOLDI_EV_ATOMIC_READ_SYNC:
    case GOLDI_EV_READ:
    case GOLDI_EV_WRITE:
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
    case GOLDI_EV_COUNT:
        return has_release_step(ev);
    }
    return has_release_step(ev);
}

/* --- conflict records ----------------------------------------------------------------- */

void rg_pending_init(struct rg_pending *p, const struct goldi_engine_env *env, const char *engine,
                     const char *since) {
    p->env = env;
    p->engine = engine;
    p->since = since;
    p->n = 0;
    p->cap = RG_MAX_PENDING;
    p->n_emitted = 0;
    p->c = p->local;
}

static void emit(struct rg_pending *p, const struct rg_conflict *c) {
    struct goldi_race r;
    goldi_memset(&r, 0, sizeof r);
    r.addr = c->lo;
    r.size = (uint32_t)(c->hi - c->lo + 1);
    r.cur = c->cur;
    r.prev = c->prev;
    r.cur_tid = c->cur_tid;
    r.prev_tid = c->prev_ep.tid;
    r.cur_write = c->cur_write;
    r.prev_write = c->prev_write;
    r.engine = p->engine;
    if (c->validation)
        goldi_snprintf(r.why, sizeof r.why,
                       "read validation at region end: 0x%lx changed from v%u to v%u during T%u's region %u "
                       "(written by T%u's region %u)",
                       (unsigned long)c->lo, c->v_read, c->v_now, c->cur_tid, c->cur_c, c->prev_ep.tid,
                       c->prev_ep.c);
    else
        goldi_snprintf(r.why, sizeof r.why, "region conflict: T%u's region %u still ongoing (no %s since its %s)",
                       c->prev_ep.tid, c->prev_ep.c, p->since, c->prev_write ? "write" : "read");
    p->n_emitted++;
    p->env->report(p->env->report_ctx, &r);
}

static bool same_partner(const struct rg_conflict *a, const struct rg_conflict *b) {
    return a->cur == b->cur && a->prev == b->prev && a->cur_tid == b->cur_tid && rg_epoch_eq(a->prev_ep, b->prev_ep) &&
           a->cur_write == b->cur_write && a->prev_write == b->prev_write && a->validation == b->validation &&
           a->cur_c == b->cur_c;
}

void rg_pending_add(struct rg_pending *p, const struct rg_conflict *c, uintptr_t b) {
    for (unsigned i = 0; i < p->n; i++) {
        struct rg_conflict *q = &p->c[i];
        if (!same_partner(q, c) || (q->lo >> 3) != (b >> 3))
            continue;
        if (b + 1 == q->lo) {
            q->lo = b;
            return;
        }
        if (b == q->hi + 1) {
            q->hi = b;
            return;
        }
        if (b >= q->lo && b <= q->hi)
            return;
    }
    if (p->n == p->cap) {
        /* Many partners at once (many concurrent readers): grow. */
        unsigned cap = p->cap * 2;
        struct rg_conflict *nc = goldi_alloc(cap * sizeof *nc);
        goldi_memcpy(nc, p->c, p->n * sizeof *nc);
        if (p->c != p->local)
            goldi_free(p->c);
        p->c = nc;
        p->cap = cap;
    }
    p->c[p->n] = *c;
    p->c[p->n].lo = p->c[p->n].hi = b;
    p->n++;
}

void rg_pending_flush(struct rg_pending *p) {
    for (unsigned i = 0; i < p->n; i++)
        emit(p, &p->c[i]);
    p->n = 0;
    if (p->c != p->local) {
        goldi_free(p->c);
        p->c = p->local;
        p->cap = RG_MAX_PENDING;
    }
}

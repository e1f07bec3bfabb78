/* Token sets of the Goldilocks engine: the token->mask map that evaluates up
 * to 64 Goldilocksets in one walk, and materialised (sorted) sets. No libc. */
#include "gls.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"

int gls_tok_format(char *buf, size_t n, uint64_t tok) {
    unsigned long long v = (unsigned long long)gls_tok_value(tok);
    switch (gls_tok_kind(tok)) {
    case GLS_TK_SYNC:
        return goldi_snprintf(buf, n, "sync#%llu", v);
    case GLS_TK_THREAD:
        return goldi_snprintf(buf, n, "T%llu", v);
    case GLS_TK_FREL:
        return goldi_snprintf(buf, n, "Frel(T%llu)", v);
    case GLS_TK_FACQ:
        return goldi_snprintf(buf, n, "Facq(T%llu)", v);
    }
    return 0;
}

#define MAP_MIN_CAP 64u

static void map_alloc(struct gls_map *m, uint32_t cap) {
    m->kv = goldi_alloc(sizeof(struct gls_kv) * cap);
    m->used = goldi_alloc(sizeof(uint32_t) * (cap / 2 + 1));
    m->cap = cap;
    m->n = 0;
}

void gls_map_init(struct gls_map *m) { map_alloc(m, MAP_MIN_CAP); }

void gls_map_destroy(struct gls_map *m) {
    goldi_free(m->kv);
    goldi_free(m->used);
    m->kv = NULL;
    m->used = NULL;
    m->cap = m->n = 0;
}

void gls_map_clear(struct gls_map *m) {
    for (uint32_t i = 0; i < m->n; i++)
        m->kv[m->used[i]].key = 0, m->kv[m->used[i]].mask = 0;
    m->n = 0;
}

static void map_grow(struct gls_map *m) {
    struct gls_map old = *m;
    map_alloc(m, old.cap * 2);
    for (uint32_t i = 0; i < old.n; i++) {
        struct gls_kv *kv = &old.kv[old.used[i]];
        *gls_map_slot(m, kv->key) = kv->mask;
    }
    goldi_free(old.kv);
    goldi_free(old.used);
}

uint64_t *gls_map_insert(struct gls_map *m, uint64_t key) {
    /* Keep the load at most 1/2 so probes stay short and used[] fits. */
    if (m->n + 1 > m->cap / 2)
        map_grow(m);
    uint32_t i = gls_map_hash_slot(key, m->cap);
    while (m->kv[i].key != 0)
        i = (i + 1) & (m->cap - 1);
    m->kv[i].key = key;
    m->kv[i].mask = 0;
    m->used[m->n++] = i;
    return &m->kv[i].mask;
}

/* --- materialised sets --------------------------------------------------------- */

struct gls_mat *gls_mat_new(const uint64_t *tok, uint32_t n) {
    struct gls_mat *s = goldi_alloc(sizeof *s + sizeof(uint64_t) * n);
    s->n = n;
    for (uint32_t i = 0; i < n; i++) {
        /* insertion sort: sets are small (threads + sync objects seen) */
        uint64_t v = tok[i];
        uint32_t j = i;
        while (j > 0 && s->tok[j - 1] > v) {
            s->tok[j] = s->tok[j - 1];
            j--;
        }
        s->tok[j] = v;
    }
    s->hash = gls_mat_hash(s->tok, n);
    atomic_store_explicit(&s->refs, 1, memory_order_relaxed);
    return s;
}

uint64_t gls_mat_hash(const uint64_t *tok, uint32_t n) {
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ tok[i]) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 31);
}

struct gls_mat *gls_mat_ref(struct gls_mat *s) {
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    return s;
}

bool gls_mat_same(const struct gls_mat *a, const uint64_t *tok, uint32_t n, uint64_t hash) {
    if (a->hash != hash || a->n != n)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (a->tok[i] != tok[i])
            return false;
    return true;
}

void gls_mat_free(struct gls_mat *s) {
    if (s && atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1)
        goldi_free(s);
}

bool gls_mat_has(const struct gls_mat *s, uint64_t tok) {
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (s->tok[mid] < tok)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->tok[lo] == tok;
}

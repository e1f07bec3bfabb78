/* Vector clock operations (see vc.h). Plain loops: n is the number of thread
 * ids ever synchronised with, and the reference engine wants obvious code. */
#include "vc.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"

void goldi_vc_destroy(goldi_vc_t *v) {
    goldi_free(v->c);
    goldi_vc_init(v);
}

void goldi_vc_clear(goldi_vc_t *v) {
    if (v->n)
        goldi_memset(v->c, 0, v->n * sizeof(goldi_clock_t));
    v->n = 0;
}

/* Makes room for entries [0, n); new entries are zero (goldi_alloc zero-fills,
 * and we keep everything past v->n zero). Capacity doubles, so a clock that
 * grows one tid at a time costs amortised O(1) per growth. */
static void reserve(goldi_vc_t *v, uint32_t n) {
    if (n <= v->cap)
        return;
    uint32_t cap = v->cap ? v->cap : 4;
    while (cap < n)
        cap = cap > UINT32_MAX / 2 ? n : cap * 2;
    goldi_clock_t *c = goldi_alloc((size_t)cap * sizeof(goldi_clock_t));
    if (v->n)
        goldi_memcpy(c, v->c, v->n * sizeof(goldi_clock_t));
    goldi_free(v->c);
    v->c = c;
    v->cap = cap;
}

void goldi_vc_set(goldi_vc_t *v, goldi_tid_t t, goldi_clock_t c) {
    GOLDI_CHECK_OP(t, !=, GOLDI_TID_NONE);
    if (t >= v->n) {
        if (!c)
            return;   /* absent entries already read as 0 */
        reserve(v, t + 1);
        v->n = t + 1;
    }
    v->c[t] = c;
}

void goldi_vc_inc(goldi_vc_t *v, goldi_tid_t t) {
    goldi_clock_t c = goldi_vc_get(v, t);
    if (GOLDI_UNLIKELY(c == GOLDI_CLOCK_MAX))
        goldi_die("vector clock overflow: a thread performed 2^32 release operations");
    goldi_vc_set(v, t, c + 1);
}

void goldi_vc_join(goldi_vc_t *dst, const goldi_vc_t *src) {
    if (src->n > dst->n) {
        reserve(dst, src->n);
        dst->n = src->n;
    }
    for (uint32_t t = 0; t < src->n; t++)
        if (src->c[t] > dst->c[t])
            dst->c[t] = src->c[t];
}

void goldi_vc_copy(goldi_vc_t *dst, const goldi_vc_t *src) {
    if (dst == src)
        return;
    reserve(dst, src->n);
    if (src->n)
        goldi_memcpy(dst->c, src->c, src->n * sizeof(goldi_clock_t));
    /* Keep the "zero past n" invariant when the clock shrinks. */
    if (dst->n > src->n)
        goldi_memset(dst->c + src->n, 0, (dst->n - src->n) * sizeof(goldi_clock_t));
    dst->n = src->n;
}

goldi_tid_t goldi_vc_first_not_leq(const goldi_vc_t *a, const goldi_vc_t *b) {
    for (uint32_t t = 0; t < a->n; t++)
        if (a->c[t] > goldi_vc_get(b, t))
            return t;
    return GOLDI_TID_NONE;
}

bool goldi_vc_leq(const goldi_vc_t *a, const goldi_vc_t *b) {
    return goldi_vc_first_not_leq(a, b) == GOLDI_TID_NONE;
}

bool goldi_vc_equal(const goldi_vc_t *a, const goldi_vc_t *b) {
    return goldi_vc_leq(a, b) && goldi_vc_leq(b, a);
}

size_t goldi_vc_format(const goldi_vc_t *v, char *buf, size_t n) {
    if (!n)
        return 0;
    size_t len = 0;
    bool cut = false;
    char item[32];
    buf[0] = 0;
    if (n > 1)
        buf[len++] = '[';
    for (uint32_t t = 0; t < v->n && !cut; t++) {
        if (!v->c[t])
            continue;
        int k = goldi_snprintf(item, sizeof item, "%sT%u:%u", len > 1 ? " " : "", t, v->c[t]);
        /* leave room for "...]" and the NUL */
        if (len + (size_t)k + 5 > n) {
            cut = true;
            break;
        }
        goldi_memcpy(buf + len, item, (size_t)k);
        len += (size_t)k;
    }
    const char *tail = cut ? "...]" : "]";
    for (const char *p = tail; *p && len + 1 < n; p++)
        buf[len++] = *p;
    buf[len] = 0;
    return len;
}

bool goldi_vc_validate(const goldi_vc_t *v) {
    if (v->n > v->cap || (v->c == NULL) != (v->cap == 0))
        return false;
    for (uint32_t t = v->n; t < v->cap; t++)
        if (v->c[t])
            return false;
    return true;
}

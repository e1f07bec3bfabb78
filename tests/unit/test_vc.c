/* Unit tests of src/engine/common/vc.{h,c}: vector clocks and epochs, checked
 * against a naive fixed-size model with random operation sequences. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine/common/vc.h"

#define MODEL_N 300   /* tids used by the random tests: forces several growths */

struct model { goldi_clock_t c[MODEL_N]; };

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static bool same(const goldi_vc_t *v, const struct model *m) {
    for (goldi_tid_t t = 0; t < MODEL_N; t++)
        if (goldi_vc_get(v, t) != m->c[t])
            return false;
    return goldi_vc_get(v, MODEL_N + 1000) == 0 && goldi_vc_validate(v);
}

static bool model_leq(const struct model *a, const struct model *b) {
    for (int t = 0; t < MODEL_N; t++)
        if (a->c[t] > b->c[t])
            return false;
    return true;
}

/* A random sparse clock: a few tids, small values, so leq is often true. */
static void random_fill(goldi_vc_t *v, struct model *m) {
    goldi_vc_clear(v);
    memset(m, 0, sizeof *m);
    int k = (int)(next_rand() % 6);
    for (int i = 0; i < k; i++) {
        goldi_tid_t t = (goldi_tid_t)(next_rand() % MODEL_N);
        goldi_clock_t c = (goldi_clock_t)(next_rand() % 4);
        goldi_vc_set(v, t, c);
        m->c[t] = c;
    }
}

CASE(vc_empty_is_bottom) {
    goldi_vc_t a = GOLDI_VC_INIT, b = GOLDI_VC_INIT;
    EXPECT_EQ(goldi_vc_get(&a, 0), 0);
    EXPECT_EQ(goldi_vc_get(&a, 123456), 0);
    EXPECT(goldi_vc_leq(&a, &b));
    EXPECT(goldi_vc_equal(&a, &b));
    goldi_vc_set(&b, 7, 0);   /* setting 0 beyond n must not grow */
    EXPECT_EQ(b.n, 0);
    goldi_vc_inc(&b, 3);
    EXPECT(goldi_vc_leq(&a, &b));
    EXPECT(!goldi_vc_leq(&b, &a));
    EXPECT_EQ(goldi_vc_first_not_leq(&b, &a), 3);
    goldi_vc_destroy(&a);
    goldi_vc_destroy(&b);
}

CASE(vc_set_get_inc_grow) {
    goldi_vc_t v = GOLDI_VC_INIT;
    goldi_vc_set(&v, 1000, 5);
    EXPECT_EQ(goldi_vc_get(&v, 1000), 5);
    EXPECT_EQ(goldi_vc_get(&v, 999), 0);
    EXPECT_EQ(goldi_vc_get(&v, 1001), 0);
    goldi_vc_inc(&v, 1000);
    goldi_vc_inc(&v, 70000);   /* tids above 65535 (handbook T1: never reused) */
    EXPECT_EQ(goldi_vc_get(&v, 1000), 6);
    EXPECT_EQ(goldi_vc_get(&v, 70000), 1);
    EXPECT(goldi_vc_validate(&v));
    goldi_vc_destroy(&v);
    EXPECT_EQ(v.n, 0);
    EXPECT(v.c == NULL);
}

CASE(vc_copy_shrinks_and_keeps_invariant) {
    goldi_vc_t a = GOLDI_VC_INIT, b = GOLDI_VC_INIT;
    goldi_vc_set(&a, 50, 9);
    goldi_vc_set(&b, 2, 4);
    goldi_vc_copy(&a, &b);      /* a had a longer clock: entries past 2 must vanish */
    EXPECT_EQ(goldi_vc_get(&a, 50), 0);
    EXPECT_EQ(goldi_vc_get(&a, 2), 4);
    EXPECT(goldi_vc_validate(&a));
    EXPECT(goldi_vc_equal(&a, &b));
    goldi_vc_set(&a, 40, 1);    /* growing n again must expose zeros, not 9 */
    EXPECT_EQ(goldi_vc_get(&a, 50), 0);
    goldi_vc_copy(&a, &a);
    EXPECT_EQ(goldi_vc_get(&a, 40), 1);
    goldi_vc_destroy(&a);
    goldi_vc_destroy(&b);
}

CASE(vc_random_against_model) {
    goldi_vc_t a = GOLDI_VC_INIT, b = GOLDI_VC_INIT;
    struct model ma, mb;
    memset(&ma, 0, sizeof ma);
    memset(&mb, 0, sizeof mb);
    int bad = 0;
    for (int it = 0; it < 20000 && bad < 5; it++) {
        goldi_tid_t t = (goldi_tid_t)(next_rand() % MODEL_N);
        switch (next_rand() % 8) {
        case 0: {
            goldi_clock_t c = (goldi_clock_t)(next_rand() % 1000);
            goldi_vc_set(&a, t, c);
            ma.c[t] = c;
            break;
        }
        case 1:
            goldi_vc_inc(&b, t);
            mb.c[t]++;
            break;
        case 2:
            goldi_vc_join(&a, &b);
            for (int i = 0; i < MODEL_N; i++)
                if (mb.c[i] > ma.c[i])
                    ma.c[i] = mb.c[i];
            break;
        case 3:
            goldi_vc_copy(&b, &a);
            mb = ma;
            break;
        case 4:
            random_fill(&a, &ma);
            break;
        case 5:
            random_fill(&b, &mb);
            break;
        case 6:
            if (next_rand() % 16 == 0) {
                goldi_vc_clear(&a);
                memset(&ma, 0, sizeof ma);
            }
            break;
        default:
            goldi_vc_join(&b, &a);
            for (int i = 0; i < MODEL_N; i++)
                if (ma.c[i] > mb.c[i])
                    mb.c[i] = ma.c[i];
            break;
        }
        if (!same(&a, &ma) || !same(&b, &mb) || goldi_vc_leq(&a, &b) != model_leq(&ma, &mb) ||
            goldi_vc_leq(&b, &a) != model_leq(&mb, &ma)) {
            printf("  mismatch at iteration %d\n", it);
            bad++;
        }
        goldi_tid_t f = goldi_vc_first_not_leq(&a, &b);
        if (f != GOLDI_TID_NONE && !(f < MODEL_N && ma.c[f] > mb.c[f]))
            bad++;
    }
    EXPECT_EQ(bad, 0);
    goldi_vc_destroy(&a);
    goldi_vc_destroy(&b);
}

CASE(vc_join_is_lub) {
    /* join is the least upper bound: a, b ⊑ a⊔b, and a⊔b ⊑ any common upper bound */
    int bad = 0;
    for (int it = 0; it < 2000; it++) {
        goldi_vc_t a = GOLDI_VC_INIT, b = GOLDI_VC_INIT, j = GOLDI_VC_INIT, u = GOLDI_VC_INIT;
        struct model ma, mb;
        random_fill(&a, &ma);
        random_fill(&b, &mb);
        goldi_vc_copy(&j, &a);
        goldi_vc_join(&j, &b);
        goldi_vc_copy(&u, &j);
        goldi_vc_inc(&u, (goldi_tid_t)(next_rand() % MODEL_N));
        if (!goldi_vc_leq(&a, &j) || !goldi_vc_leq(&b, &j) || !goldi_vc_leq(&j, &u) || goldi_vc_leq(&u, &j))
            bad++;
        goldi_vc_destroy(&a);
        goldi_vc_destroy(&b);
        goldi_vc_destroy(&j);
        goldi_vc_destroy(&u);
    }
    EXPECT_EQ(bad, 0);
}

CASE(vc_epoch_round_trip) {
    int bad = 0;
    for (int it = 0; it < 100000; it++) {
        goldi_tid_t t = (goldi_tid_t)next_rand();
        if (t == GOLDI_TID_NONE)
            t = 0;
        goldi_clock_t c = (goldi_clock_t)next_rand();
        goldi_epoch_t e = goldi_epoch_make(t, c);
        if (goldi_epoch_tid(e) != t || goldi_epoch_clock(e) != c)
            bad++;
        /* same tid: epochs order like clocks */
        goldi_clock_t c2 = (goldi_clock_t)next_rand();
        if ((goldi_epoch_make(t, c) < goldi_epoch_make(t, c2)) != (c < c2))
            bad++;
    }
    EXPECT_EQ(bad, 0);
    EXPECT_EQ(goldi_epoch_make(0, 0), GOLDI_EPOCH_NONE);
    EXPECT_EQ(goldi_epoch_tid(goldi_epoch_make(100000, 1)), 100000);
}

CASE(vc_epoch_leq) {
    goldi_vc_t v = GOLDI_VC_INIT;
    goldi_vc_set(&v, 3, 5);
    EXPECT(goldi_epoch_leq(goldi_epoch_make(3, 5), &v));
    EXPECT(goldi_epoch_leq(goldi_epoch_make(3, 4), &v));
    EXPECT(!goldi_epoch_leq(goldi_epoch_make(3, 6), &v));
    EXPECT(!goldi_epoch_leq(goldi_epoch_make(9, 1), &v));
    EXPECT(goldi_epoch_leq(GOLDI_EPOCH_NONE, &v));
    EXPECT_EQ(goldi_epoch_of(&v, 3), goldi_epoch_make(3, 5));
    goldi_vc_destroy(&v);
}

CASE(vc_format) {
    goldi_vc_t v = GOLDI_VC_INIT;
    char buf[64];
    goldi_vc_format(&v, buf, sizeof buf);
    EXPECT(strcmp(buf, "[]") == 0);
    goldi_vc_set(&v, 1, 2);
    goldi_vc_set(&v, 2, 5);
    goldi_vc_format(&v, buf, sizeof buf);
    EXPECT(strcmp(buf, "[T1:2 T2:5]") == 0);
    for (goldi_tid_t t = 0; t < 100; t++)
        goldi_vc_set(&v, t, 1000 + t);
    size_t n = goldi_vc_format(&v, buf, 20);
    EXPECT(n < 20);
    EXPECT_EQ(strlen(buf), n);
    EXPECT(n >= 4 && strcmp(buf + n - 4, "...]") == 0);
    goldi_vc_destroy(&v);
}

int main(void) {
    RUN(vc_empty_is_bottom);
    RUN(vc_set_get_inc_grow);
    RUN(vc_copy_shrinks_and_keeps_invariant);
    RUN(vc_random_against_model);
    RUN(vc_join_is_lub);
    RUN(vc_epoch_round_trip);
    RUN(vc_epoch_leq);
    RUN(vc_format);
    return harness_summary();
}

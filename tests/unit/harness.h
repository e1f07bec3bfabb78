/* A tiny unit-test harness: CASE(name) { ... } blocks with EXPECT checks,
 * then harness_summary() prints "N passed, N failed" (read by CI). */
#ifndef GOLDI_TEST_HARNESS_H
#define GOLDI_TEST_HARNESS_H

#include <stdio.h>

static int harness_passed, harness_failed, harness_case_failed;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            printf("  FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                \
            harness_case_failed = 1;                                                  \
        }                                                                             \
    } while (0)
#define EXPECT_EQ(a, b)                                                               \
    do {                                                                              \
        long long harness_a = (long long)(a), harness_b = (long long)(b);             \
        if (harness_a != harness_b) {                                                 \
            printf("  FAILED %s:%d: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a, \
                   #b, harness_a, harness_b);                                         \
            harness_case_failed = 1;                                                  \
        }                                                                             \
    } while (0)

#define CASE(name)                                                                    \
    static void case_##name(void);                                                    \
    static void run_##name(void) {                                                    \
        harness_case_failed = 0;                                                      \
        case_##name();                                                                \
        printf("%s %s\n", harness_case_failed ? "FAIL" : "ok  ", #name);              \
        if (harness_case_failed)                                                      \
            harness_failed++;                                                         \
        else                                                                          \
            harness_passed++;                                                         \
    }                                                                                 \
    static void case_##name(void)

#define RUN(name) run_##name()

static int harness_summary(void) {
    printf("%d passed, %d failed\n", harness_passed, harness_failed);
    return harness_failed ? 1 : 0;
}

#endif

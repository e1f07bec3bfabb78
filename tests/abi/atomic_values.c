/* Functional ABI test: under -fsanitize=thread every atomic operation below
 * becomes a __tsan_atomic* call into our runtime; the runtime must perform it
 * for real and return what the C11 semantics say. Single-threaded, so the
 * expected values are exact. Also calls a few entry points directly for what
 * compilers emit only in some modes (compare_exchange_val, GCC's memory-order
 * flag bits, misaligned 128-bit locations). Prints "atomic_values: N checks OK". */
#include <goldi/tsan_abi.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int n_checks, n_failed;
#define CHECK(c)                                                                   \
    do {                                                                           \
        n_checks++;                                                                \
        if (!(c)) {                                                                \
            n_failed++;                                                            \
            fprintf(stderr, "atomic_values: FAILED line %d: %s\n", __LINE__, #c);  \
        }                                                                          \
    } while (0)

#define WIDTH_TEST(T, name)                                                                  \
    static T g_##name;                                                                       \
    static void test_##name(void) {                                                          \
        T *p = &g_##name;                                                                    \
        T one = 1, big = (T)~(T)0;                                                           \
        __atomic_store_n(p, (T)5, __ATOMIC_RELEASE);                                         \
        CHECK(__atomic_load_n(p, __ATOMIC_ACQUIRE) == 5);                                    \
        CHECK(__atomic_load_n(p, __ATOMIC_RELAXED) == 5);                                    \
        CHECK(__atomic_exchange_n(p, (T)9, __ATOMIC_ACQ_REL) == 5);                          \
        CHECK(__atomic_fetch_add(p, (T)3, __ATOMIC_SEQ_CST) == 9);                           \
        CHECK(*p == 12);                                                                     \
        CHECK(__atomic_fetch_sub(p, (T)2, __ATOMIC_RELAXED) == 12);                          \
        CHECK(__atomic_fetch_and(p, (T)6, __ATOMIC_ACQUIRE) == 10);                          \
        CHECK(__atomic_fetch_or(p, (T)0x11, __ATOMIC_RELEASE) == 2);                         \
        CHECK(__atomic_fetch_xor(p, (T)0x3, __ATOMIC_SEQ_CST) == 0x13);                      \
        CHECK(__atomic_fetch_nand(p, (T)0x1, __ATOMIC_SEQ_CST) == 0x10);                     \
        CHECK(*p == big);                          /* ~(0x10 & 1) */                         \
        CHECK(__atomic_add_fetch(p, one, __ATOMIC_SEQ_CST) == 0);  /* wraps */               \
        T e = 7;                                                                             \
        CHECK(!__atomic_compare_exchange_n(p, &e, (T)8, 0, __ATOMIC_SEQ_CST,                 \
                                           __ATOMIC_RELAXED));                               \
        CHECK(e == 0);                             /* failure reports the current value */   \
        CHECK(__atomic_compare_exchange_n(p, &e, (T)8, 0, __ATOMIC_ACQ_REL,                  \
                                          __ATOMIC_ACQUIRE));                                \
        CHECK(*p == 8);                                                                      \
        e = 8;                                                                               \
        int ok = 0;                                                                          \
        for (int i = 0; i < 100 && !ok; i++) /* weak may fail spuriously */                  \
            ok = __atomic_compare_exchange_n(p, &e, (T)1, 1, __ATOMIC_RELEASE,               \
                                             __ATOMIC_RELAXED);                              \
        CHECK(ok && *p == 1);                                                                \
        CHECK(__sync_fetch_and_add(p, (T)2) == 1);                                           \
        CHECK(__sync_val_compare_and_swap(p, (T)3, (T)4) == 3);                              \
        CHECK(__sync_bool_compare_and_swap(p, (T)4, (T)5));                                  \
        CHECK(!__sync_bool_compare_and_swap(p, (T)4, (T)6));                                 \
        CHECK(__sync_lock_test_and_set(p, (T)7) == 5);                                       \
        __sync_lock_release(p);                                                              \
        CHECK(*p == 0);                                                                      \
    }

WIDTH_TEST(uint8_t, u8)
WIDTH_TEST(uint16_t, u16)
WIDTH_TEST(uint32_t, u32)
WIDTH_TEST(uint64_t, u64)

typedef unsigned __int128 u128;
static _Alignas(16) u128 g128;

static void test_u128(void) {
    u128 hi = (u128)1 << 100, v = hi | 5;
    __atomic_store_n(&g128, v, __ATOMIC_SEQ_CST);
    CHECK(__atomic_load_n(&g128, __ATOMIC_ACQUIRE) == v);
    CHECK(__atomic_exchange_n(&g128, hi, __ATOMIC_ACQ_REL) == v);
    CHECK(__atomic_fetch_add(&g128, (u128)~(uint64_t)0, __ATOMIC_SEQ_CST) == hi);
    CHECK(g128 == (hi | ~(uint64_t)0));
    CHECK(__atomic_add_fetch(&g128, 1, __ATOMIC_SEQ_CST) == (hi | ((u128)1 << 64))); /* carry */
    CHECK(__atomic_fetch_sub(&g128, 1, __ATOMIC_SEQ_CST) == (hi | ((u128)1 << 64)));
    CHECK(__atomic_fetch_and(&g128, hi, __ATOMIC_SEQ_CST) == (hi | ~(uint64_t)0));
    CHECK(__atomic_fetch_or(&g128, 3, __ATOMIC_SEQ_CST) == hi);
    CHECK(__atomic_fetch_xor(&g128, 1, __ATOMIC_SEQ_CST) == (hi | 3));
    CHECK(__atomic_fetch_nand(&g128, 2, __ATOMIC_SEQ_CST) == (hi | 2));
    CHECK(g128 == ~(u128)2);
    u128 e = 0;
    CHECK(!__atomic_compare_exchange_n(&g128, &e, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    CHECK(e == ~(u128)2);
    CHECK(__atomic_compare_exchange_n(&g128, &e, hi, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    CHECK(g128 == hi);
    CHECK(__atomic_load_n(&g128, __ATOMIC_RELAXED) == hi);
}

/* Direct calls: forms only some compiler/flag combinations emit. */
static void test_direct(void) {
    static _Alignas(16) char buf[64];
    volatile __tsan_atomic32 x = 10;
    CHECK(__tsan_atomic32_compare_exchange_val(&x, 10, 11, __tsan_memory_order_acq_rel,
                                               __tsan_memory_order_acquire) == 10);
    CHECK(x == 11);
    CHECK(__tsan_atomic32_compare_exchange_val(&x, 10, 12, __tsan_memory_order_seq_cst,
                                               __tsan_memory_order_relaxed) == 11);
    CHECK(x == 11);
    /* GCC: __sync builtins pass seq_cst | MEMMODEL_SYNC (1 << 15); HLE hints
       set bits 16/17. The runtime must accept and mask them. */
    CHECK(__tsan_atomic32_fetch_add(&x, 1, (__tsan_memory_order)(5 | (1 << 15))) == 11);
    CHECK(__tsan_atomic32_exchange(&x, 3, (__tsan_memory_order)(2 | (1 << 16))) == 12);
    __tsan_atomic32_store(&x, 4, (__tsan_memory_order)(3 | (1 << 17)));
    CHECK(__tsan_atomic32_load(&x, __tsan_memory_order_consume) == 4);
    __tsan_atomic64 c = 0;
    volatile __tsan_atomic64 y = 5;
    CHECK(!__tsan_atomic64_compare_exchange_weak(&y, &c, 6, __tsan_memory_order_seq_cst,
                                                 __tsan_memory_order_seq_cst));
    CHECK(c == 5);
    CHECK(__tsan_atomic8_fetch_nand((volatile __tsan_atomic8 *)buf, 0, __tsan_memory_order_relaxed) == 0);
    CHECK(buf[0] == (char)0xff);
    /* 128-bit at an 8-byte (not 16-byte) aligned address: the striped-lock path */
    volatile __tsan_atomic128 *m = (volatile __tsan_atomic128 *)(buf + 24);
    __tsan_atomic128_store(m, 40, __tsan_memory_order_release);
    CHECK(__tsan_atomic128_fetch_add(m, 2, __tsan_memory_order_seq_cst) == 40);
    CHECK(__tsan_atomic128_load(m, __tsan_memory_order_acquire) == 42);
    __tsan_atomic128 ce = 42;
    CHECK(__tsan_atomic128_compare_exchange_strong(m, &ce, 43, __tsan_memory_order_seq_cst,
                                                   __tsan_memory_order_seq_cst));
    CHECK(__tsan_atomic128_compare_exchange_val(m, 0, 1, __tsan_memory_order_seq_cst,
                                                __tsan_memory_order_seq_cst) == 43);
    CHECK(__tsan_atomic128_exchange(m, 7, __tsan_memory_order_seq_cst) == 43);
    /* fences and ignores: must not crash or change anything */
    __tsan_atomic_thread_fence(__tsan_memory_order_seq_cst);
    __tsan_atomic_thread_fence((__tsan_memory_order)(4 | (1 << 16)));
    __tsan_atomic_signal_fence(__tsan_memory_order_seq_cst);
    __tsan_ignore_thread_begin();
    CHECK(__tsan_atomic16_fetch_or((volatile __tsan_atomic16 *)(buf + 32), 3,
                                   __tsan_memory_order_relaxed) == 0);
    __tsan_ignore_thread_end();
    __tsan_ignore_thread_end();   /* unbalanced end: ignored */
    /* memory intrinsics of newer Clang */
    char s[32] = "abcdefghij", d[32];
    CHECK(__tsan_memcpy(d, s, 11) == d && strcmp(d, "abcdefghij") == 0);
    CHECK(__tsan_memmove(s + 2, s, 5) == s + 2 && memcmp(s, "ababcdehij", 10) == 0);
    CHECK(__tsan_memmove(s, s + 2, 5) == s && memcmp(s, "abcdedehij", 10) == 0);
    CHECK(__tsan_memset(d, 'z', 3) == d && memcmp(d, "zzzdefghij", 10) == 0);
    __tsan_read_range(d, 10);
    __tsan_write_range(d, 0);
    __tsan_read4_pc(d, (void *)test_direct);
    __tsan_unaligned_volatile_write8(d + 1);
}

/* C11 <stdatomic.h> with a deliberately non-constant order. */
static void test_c11(memory_order mo) {
    static _Atomic int a;
    atomic_store_explicit(&a, 3, mo == memory_order_acquire ? memory_order_release : mo);
    CHECK(atomic_fetch_add_explicit(&a, 2, mo) == 3);
    int e = 5;
    CHECK(atomic_compare_exchange_strong_explicit(&a, &e, 6, mo, memory_order_relaxed));
    CHECK(atomic_load(&a) == 6);
    atomic_thread_fence(mo);
}

int main(void) {
    test_u8();
    test_u16();
    test_u32();
    test_u64();
    test_u128();
    test_direct();
    test_c11(memory_order_acquire);
    test_c11(memory_order_seq_cst);
    if (n_failed) {
        printf("atomic_values: %d of %d checks FAILED\n", n_failed, n_checks);
        return 1;
    }
    printf("atomic_values: %d checks OK\n", n_checks);
    return 0;
}

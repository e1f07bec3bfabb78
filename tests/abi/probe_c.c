/* ABI probe (C): exercises every construct the TSan instrumentation of GCC
 * and Clang turns into a __tsan_* call. Only compiled, never run: the probe
 * script checks that each __tsan_* symbol these objects need is defined by
 * the runtime. */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#define ORDERS(X) X(memory_order_relaxed) X(memory_order_consume) X(memory_order_acquire) \
    X(memory_order_release) X(memory_order_acq_rel) X(memory_order_seq_cst)

/* C11 <stdatomic.h> on every integer width. */
#define C11_WIDTH(T, name)                                                          \
    _Atomic T c11_##name;                                                           \
    T c11_ops_##name(T v) {                                                         \
        T r = 0, e = v;                                                             \
        r += atomic_load(&c11_##name);                                              \
        r += atomic_load_explicit(&c11_##name, memory_order_relaxed);               \
        r += atomic_load_explicit(&c11_##name, memory_order_consume);               \
        r += atomic_load_explicit(&c11_##name, memory_order_acquire);               \
        r += atomic_load_explicit(&c11_##name, memory_order_seq_cst);               \
        atomic_store(&c11_##name, v);                                               \
        atomic_store_explicit(&c11_##name, v, memory_order_relaxed);                \
        atomic_store_explicit(&c11_##name, v, memory_order_release);                \
        atomic_store_explicit(&c11_##name, v, memory_order_seq_cst);                \
        r += atomic_exchange_explicit(&c11_##name, v, memory_order_acq_rel);        \
        r += atomic_fetch_add_explicit(&c11_##name, v, memory_order_relaxed);       \
        r += atomic_fetch_sub_explicit(&c11_##name, v, memory_order_release);       \
        r += atomic_fetch_and_explicit(&c11_##name, v, memory_order_acquire);       \
        r += atomic_fetch_or_explicit(&c11_##name, v, memory_order_acq_rel);        \
        r += atomic_fetch_xor_explicit(&c11_##name, v, memory_order_seq_cst);       \
        r += atomic_compare_exchange_strong(&c11_##name, &e, v);                    \
        r += atomic_compare_exchange_weak(&c11_##name, &e, v);                      \
        r += atomic_compare_exchange_strong_explicit(&c11_##name, &e, v,            \
                 memory_order_acq_rel, memory_order_acquire);                       \
        r += atomic_compare_exchange_weak_explicit(&c11_##name, &e, v,              \
                 memory_order_release, memory_order_relaxed);                       \
        c11_##name++;              /* implicit seq_cst RMW */                       \
        c11_##name += v;                                                            \
        c11_##name |= v;                                                            \
        return r + e;                                                               \
    }
C11_WIDTH(uint8_t, u8)
C11_WIDTH(uint16_t, u16)
C11_WIDTH(uint32_t, u32)
C11_WIDTH(uint64_t, u64)

atomic_flag flag = ATOMIC_FLAG_INIT;
int c11_flag(void) {
    int r = atomic_flag_test_and_set(&flag);
    atomic_flag_clear_explicit(&flag, memory_order_release);
    return r;
}

/* GCC __atomic builtins, 1..16 bytes, every order and operation. */
#define BUILTIN_WIDTH(T, name)                                                      \
    T bi_##name;                                                                    \
    T bi_ops_##name(T v, int weak) {                                                \
        T r = 0, e = v, o;                                                          \
        r += __atomic_load_n(&bi_##name, __ATOMIC_RELAXED);                         \
        r += __atomic_load_n(&bi_##name, __ATOMIC_CONSUME);                         \
        r += __atomic_load_n(&bi_##name, __ATOMIC_ACQUIRE);                         \
        r += __atomic_load_n(&bi_##name, __ATOMIC_SEQ_CST);                         \
        __atomic_load(&bi_##name, &o, __ATOMIC_ACQUIRE);                            \
        r += o;                                                                     \
        __atomic_store_n(&bi_##name, v, __ATOMIC_RELAXED);                          \
        __atomic_store_n(&bi_##name, v, __ATOMIC_RELEASE);                          \
        __atomic_store_n(&bi_##name, v, __ATOMIC_SEQ_CST);                          \
        __atomic_store(&bi_##name, &v, __ATOMIC_RELEASE);                           \
        r += __atomic_exchange_n(&bi_##name, v, __ATOMIC_ACQ_REL);                  \
        __atomic_exchange(&bi_##name, &v, &o, __ATOMIC_SEQ_CST);                    \
        r += o;                                                                     \
        r += __atomic_fetch_add(&bi_##name, v, __ATOMIC_RELAXED);                   \
        r += __atomic_fetch_sub(&bi_##name, v, __ATOMIC_CONSUME);                   \
        r += __atomic_fetch_and(&bi_##name, v, __ATOMIC_ACQUIRE);                   \
        r += __atomic_fetch_or(&bi_##name, v, __ATOMIC_RELEASE);                    \
        r += __atomic_fetch_xor(&bi_##name, v, __ATOMIC_ACQ_REL);                   \
        r += __atomic_fetch_nand(&bi_##name, v, __ATOMIC_SEQ_CST);                  \
        r += __atomic_add_fetch(&bi_##name, v, __ATOMIC_SEQ_CST);                   \
        r += __atomic_sub_fetch(&bi_##name, v, __ATOMIC_SEQ_CST);                   \
        r += __atomic_and_fetch(&bi_##name, v, __ATOMIC_SEQ_CST);                   \
        r += __atomic_or_fetch(&bi_##name, v, __ATOMIC_SEQ_CST);                    \
        r += __atomic_xor_fetch(&bi_##name, v, __ATOMIC_SEQ_CST);                   \
        r += __atomic_nand_fetch(&bi_##name, v, __ATOMIC_SEQ_CST);                  \
        r += __atomic_compare_exchange_n(&bi_##name, &e, v, 0,                      \
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
        r += __atomic_compare_exchange_n(&bi_##name, &e, v, 1,                      \
                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);       \
        r += __atomic_compare_exchange_n(&bi_##name, &e, v, weak,                   \
                                         __ATOMIC_RELEASE, __ATOMIC_RELAXED);       \
        r += __atomic_compare_exchange(&bi_##name, &e, &v, 0,                       \
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);         \
        return r + e;                                                               \
    }
BUILTIN_WIDTH(uint8_t, u8)
BUILTIN_WIDTH(uint16_t, u16)
BUILTIN_WIDTH(uint32_t, u32)
BUILTIN_WIDTH(uint64_t, u64)
BUILTIN_WIDTH(unsigned __int128, u128)

/* Legacy __sync builtins (GCC passes seq_cst with its MEMMODEL_SYNC flag). */
#define SYNC_WIDTH(T, name)                                                         \
    T sy_##name;                                                                    \
    T sy_ops_##name(T v) {                                                          \
        T r = 0;                                                                    \
        r += __sync_fetch_and_add(&sy_##name, v);                                   \
        r += __sync_fetch_and_sub(&sy_##name, v);                                   \
        r += __sync_fetch_and_or(&sy_##name, v);                                    \
        r += __sync_fetch_and_and(&sy_##name, v);                                   \
        r += __sync_fetch_and_xor(&sy_##name, v);                                   \
        r += __sync_fetch_and_nand(&sy_##name, v);                                  \
        r += __sync_add_and_fetch(&sy_##name, v);                                   \
        r += __sync_sub_and_fetch(&sy_##name, v);                                   \
        r += __sync_or_and_fetch(&sy_##name, v);                                    \
        r += __sync_and_and_fetch(&sy_##name, v);                                   \
        r += __sync_xor_and_fetch(&sy_##name, v);                                   \
        r += __sync_nand_and_fetch(&sy_##name, v);                                  \
        r += __sync_bool_compare_and_swap(&sy_##name, v, r);                        \
        r += __sync_val_compare_and_swap(&sy_##name, v, r);                         \
        r += __sync_lock_test_and_set(&sy_##name, v);                               \
        __sync_lock_release(&sy_##name);                                            \
        __sync_synchronize();                                                       \
        return r;                                                                   \
    }
SYNC_WIDTH(uint8_t, u8)
SYNC_WIDTH(uint16_t, u16)
SYNC_WIDTH(uint32_t, u32)
SYNC_WIDTH(uint64_t, u64)

/* Fences of every order; signal fences. */
void fences(void) {
#define FENCE(o) atomic_thread_fence(o); atomic_signal_fence(o);
    ORDERS(FENCE)
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_signal_fence(__ATOMIC_ACQUIRE);
}

/* Plain accesses of 1, 2, 4, 8 and 16 bytes, volatile, unaligned. */
struct __attribute__((packed)) packed {
    char c;
    uint16_t s;
    uint32_t i;
    uint64_t l;
    unsigned __int128 q;
};
struct packed pk;
volatile uint8_t v8;
volatile uint16_t v16;
volatile uint32_t v32;
volatile uint64_t v64;
volatile unsigned __int128 v128;
unsigned __int128 q128;
long double ld;

uint64_t plain(struct packed *p, uint64_t x) {
    uint64_t r = 0;
    r += p->c + p->s + p->i + p->l + (uint64_t)p->q;
    p->c = (char)x; p->s = (uint16_t)x; p->i = (uint32_t)x; p->l = x; p->q = x;
    r += v8 + v16 + v32 + v64 + (uint64_t)v128;
    v8 = (uint8_t)x; v16 = (uint16_t)x; v32 = (uint32_t)x; v64 = x; v128 = x;
    q128 += x;          /* 16-byte plain read and write */
    ld += (long double)x;
    return r;
}

/* Compound read-modify-write of plain memory (Clang's read_write variant). */
void compound(uint8_t *a, uint16_t *b, uint32_t *c, uint64_t *d, unsigned __int128 *e) {
    (*a)++; (*b)++; (*c)++; (*d)++; (*e)++;
}
void compound_unaligned(struct packed *p) { p->s++; p->i++; p->l++; p->q++; }

/* Bit-fields: the compiler reads and writes the containing unit. */
struct bits { unsigned a : 3, b : 5, c : 13; unsigned long long d : 40, e : 24; } bf;
unsigned bitfields(unsigned x) {
    bf.a = x; bf.b = x; bf.c = x; bf.d = x; bf.e = x;
    return bf.a + bf.b + bf.c + (unsigned)bf.d + (unsigned)bf.e;
}

/* Block copies and clears: mem intrinsics (memcpy/memset/memmove or __tsan_mem*). */
struct big { char b[200]; };
struct big g1, g2;
void blocks(struct big *p, const void *src, unsigned long n) {
    g1 = g2;
    *p = g1;
    memset(&g2, 0, sizeof g2);
    memcpy(p, src, n);
    memmove(p->b + 1, p->b, 50);
    struct big local = { { 1 } };
    g1 = local;
}

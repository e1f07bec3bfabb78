/* The ThreadSanitizer instrumentation ABI: every __tsan_* entry point that GCC 12
 * or Clang 14 emits under -fsanitize=thread (plus the _pc, memintrinsic and
 * ignore variants other tools call). Signatures and the morder numbering
 * follow compiler-rt's tsan_interface.h / tsan_interface_atomic.h: they are
 * an ABI, do not change them. This header includes nothing. */
#ifndef GOLDI_TSAN_ABI_H
#define GOLDI_TSAN_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

typedef char __tsan_atomic8;
typedef short __tsan_atomic16;
typedef int __tsan_atomic32;
typedef long __tsan_atomic64;
__extension__ typedef __int128 __tsan_atomic128;

/* Part of the ABI: C11 memory_order numbering. GCC may OR extra flags into
 * the value (MEMMODEL_SYNC 1<<15, HLE 1<<16, 1<<17); the runtime masks them. */
typedef enum {
    __tsan_memory_order_relaxed,
    __tsan_memory_order_consume,
    __tsan_memory_order_acquire,
    __tsan_memory_order_release,
    __tsan_memory_order_acq_rel,
    __tsan_memory_order_seq_cst
} __tsan_memory_order;

void __tsan_init(void);
void __tsan_flush_memory(void);

/* Plain accesses. */
#define GOLDI_TSAN_ACCESS_DECL(n)                                   \
    void __tsan_read##n(void *addr);                                \
    void __tsan_write##n(void *addr);                               \
    void __tsan_read##n##_pc(void *addr, void *pc);                 \
    void __tsan_write##n##_pc(void *addr, void *pc);                \
    void __tsan_unaligned_read##n(const void *addr);                \
    void __tsan_unaligned_write##n(void *addr);                     \
    void __tsan_volatile_read##n(void *addr);                       \
    void __tsan_volatile_write##n(void *addr);                      \
    void __tsan_unaligned_volatile_read##n(void *addr);             \
    void __tsan_unaligned_volatile_write##n(void *addr);            \
    void __tsan_read_write##n(void *addr);                          \
    void __tsan_unaligned_read_write##n(void *addr);
GOLDI_TSAN_ACCESS_DECL(1)
GOLDI_TSAN_ACCESS_DECL(2)
GOLDI_TSAN_ACCESS_DECL(4)
GOLDI_TSAN_ACCESS_DECL(8)
GOLDI_TSAN_ACCESS_DECL(16)
#undef GOLDI_TSAN_ACCESS_DECL

void __tsan_read_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size);
void __tsan_read_range_pc(void *addr, unsigned long size, void *pc);
void __tsan_write_range_pc(void *addr, unsigned long size, void *pc);

void __tsan_vptr_update(void **vptr_p, void *new_val);
void __tsan_vptr_read(void **vptr_p);

void __tsan_func_entry(void *call_pc);
void __tsan_func_exit(void);

void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);

/* Memory intrinsics (newer Clang emits these instead of memcpy/memset). */
void *__tsan_memcpy(void *dst, const void *src, unsigned long size);
void *__tsan_memset(void *dst, int c, unsigned long size);
void *__tsan_memmove(void *dst, const void *src, unsigned long size);

/* Atomics: the operation is performed for real with the given order. */
#define GOLDI_TSAN_ATOMIC_DECL(n)                                                             \
    __tsan_atomic##n __tsan_atomic##n##_load(const volatile __tsan_atomic##n *a,              \
                                             __tsan_memory_order mo);                         \
    void __tsan_atomic##n##_store(volatile __tsan_atomic##n *a, __tsan_atomic##n v,           \
                                  __tsan_memory_order mo);                                    \
    __tsan_atomic##n __tsan_atomic##n##_exchange(volatile __tsan_atomic##n *a,                \
                                                 __tsan_atomic##n v, __tsan_memory_order mo); \
    __tsan_atomic##n __tsan_atomic##n##_fetch_add(volatile __tsan_atomic##n *a,               \
                                                  __tsan_atomic##n v, __tsan_memory_order mo);\
    __tsan_atomic##n __tsan_atomic##n##_fetch_sub(volatile __tsan_atomic##n *a,               \
                                                  __tsan_atomic##n v, __tsan_memory_order mo);\
    __tsan_atomic##n __tsan_atomic##n##_fetch_and(volatile __tsan_atomic##n *a,               \
                                                  __tsan_atomic##n v, __tsan_memory_order mo);\
    __tsan_atomic##n __tsan_atomic##n##_fetch_or(volatile __tsan_atomic##n *a,                \
                                                 __tsan_atomic##n v, __tsan_memory_order mo); \
    __tsan_atomic##n __tsan_atomic##n##_fetch_xor(volatile __tsan_atomic##n *a,               \
                                                  __tsan_atomic##n v, __tsan_memory_order mo);\
    __tsan_atomic##n __tsan_atomic##n##_fetch_nand(volatile __tsan_atomic##n *a,              \
                                                   __tsan_atomic##n v, __tsan_memory_order mo);\
    int __tsan_atomic##n##_compare_exchange_strong(volatile __tsan_atomic##n *a,              \
                                                   __tsan_atomic##n *c, __tsan_atomic##n v,   \
                                                   __tsan_memory_order mo,                    \
                                                   __tsan_memory_order fail_mo);              \
    int __tsan_atomic##n##_compare_exchange_weak(volatile __tsan_atomic##n *a,                \
                                                 __tsan_atomic##n *c, __tsan_atomic##n v,     \
                                                 __tsan_memory_order mo,                      \
                                                 __tsan_memory_order fail_mo);                \
    __tsan_atomic##n __tsan_atomic##n##_compare_exchange_val(volatile __tsan_atomic##n *a,    \
                                                             __tsan_atomic##n c,              \
                                                             __tsan_atomic##n v,              \
                                                             __tsan_memory_order mo,          \
                                                             __tsan_memory_order fail_mo);
GOLDI_TSAN_ATOMIC_DECL(8)
GOLDI_TSAN_ATOMIC_DECL(16)
GOLDI_TSAN_ATOMIC_DECL(32)
GOLDI_TSAN_ATOMIC_DECL(64)
GOLDI_TSAN_ATOMIC_DECL(128)
#undef GOLDI_TSAN_ATOMIC_DECL

void __tsan_atomic_thread_fence(__tsan_memory_order mo);
void __tsan_atomic_signal_fence(__tsan_memory_order mo);

#ifdef __cplusplus
}
#endif

#endif

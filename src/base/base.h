/* Basic types, attribute macros and always-on checks shared by every module.
 * Includes only freestanding headers: usable from the access fast path. */
#ifndef GOLDI_BASE_H
#define GOLDI_BASE_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>

#define GOLDI_INLINE     static inline __attribute__((always_inline))
#define GOLDI_NOINLINE   __attribute__((noinline))
#define GOLDI_COLD       __attribute__((cold, noinline))
#define GOLDI_NORETURN   __attribute__((noreturn))
#define GOLDI_EXPORT     __attribute__((visibility("default")))
#define GOLDI_WEAK       __attribute__((weak))
/* Thread-local variables: local-exec, one %fs-relative load (every access
 * hook reads goldi_cur). Valid because the runtime is only ever linked into
 * the executable (goldi cc keeps it out of -shared and -r outputs); the
 * shared build of the runtime, made for the ABI checks, defines
 * GOLDI_TLS_SHARED and takes initial-exec. */
#ifdef GOLDI_TLS_SHARED
#define GOLDI_TLS        __thread __attribute__((tls_model("initial-exec")))
#else
#define GOLDI_TLS        __thread __attribute__((tls_model("local-exec")))
#endif
#define GOLDI_LIKELY(x)   __builtin_expect(!!(x), 1)
#define GOLDI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define GOLDI_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifndef GOLDI_DEBUG
#define GOLDI_DEBUG 0
#endif

/* Dense thread id, assigned at creation and never reused (handbook T1). */
typedef uint32_t goldi_tid_t;
#define GOLDI_TID_NONE UINT32_MAX

/* Failure path of GOLDI_CHECK: raw write(2) of both operands, then abort.
 * Never allocates, so it is safe from any context. */
GOLDI_COLD GOLDI_NORETURN void goldi_check_failed(const char *file, int line,
                                                   const char *cond, uint64_t v1, uint64_t v2);
/* Internal fatal error with a message (e.g. internal out-of-memory). */
GOLDI_COLD GOLDI_NORETURN void goldi_die(const char *msg);

#define GOLDI_CHECK_OP(a, op, b)                                                   \
    do {                                                                           \
        uint64_t goldi_v1_ = (uint64_t)(a), goldi_v2_ = (uint64_t)(b);             \
        if (GOLDI_UNLIKELY(!(goldi_v1_ op goldi_v2_)))                             \
            goldi_check_failed(__FILE__, __LINE__, #a " " #op " " #b, goldi_v1_,   \
                               goldi_v2_);                                         \
    } while (0)
#define GOLDI_CHECK(c) GOLDI_CHECK_OP(!!(c), ==, 1)
#if GOLDI_DEBUG >= 1
#define GOLDI_DCHECK(c) GOLDI_CHECK(c)
#else
#define GOLDI_DCHECK(c) ((void)0)
#endif

#endif

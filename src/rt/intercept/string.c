/* mem* / str* interceptors: emit READ/WRITE range events (GOLDI_EVF_RANGE)
 * for the bytes the function actually reads or writes, then call the real
 * function. The runtime and libc internals reach these too: they pass
 * through (in_rt), and so does a thread that ignores accesses. Lengths are
 * measured before the call, with the real strlen when it is resolved.
 * While the dynamic loader is resolving a real function on this thread we
 * cannot call into libc: the fb_* loops stand in (correct, slow, rare). */
#define _GNU_SOURCE
#include "intercept.h"

#include <string.h>
#include <strings.h>

GOLDI_REAL_SLOT(memcpy);
GOLDI_REAL_SLOT(memmove);
GOLDI_REAL_SLOT(mempcpy);
GOLDI_REAL_SLOT(memset);
GOLDI_REAL_SLOT(memcmp);
GOLDI_REAL_SLOT(memchr);
GOLDI_REAL_SLOT(explicit_bzero);
GOLDI_REAL_SLOT(strlen);
GOLDI_REAL_SLOT(strnlen);
GOLDI_REAL_SLOT(strcpy);
GOLDI_REAL_SLOT(stpcpy);
GOLDI_REAL_SLOT(strncpy);
GOLDI_REAL_SLOT(strcat);
GOLDI_REAL_SLOT(strncat);
GOLDI_REAL_SLOT(strcmp);
GOLDI_REAL_SLOT(strncmp);
GOLDI_REAL_SLOT(strchr);
GOLDI_REAL_SLOT(strrchr);
GOLDI_REAL_SLOT(strstr);

static inline void *real_or(void **slot, const char *name, void *fb) {
    void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (GOLDI_LIKELY(p != NULL))
        return p;
    if (goldi_real_resolving())
        return fb;
    return goldi_real_resolve_slow(slot, name, NULL);
}
#define REAL_OR(name, fb) ((__typeof__(name) *)real_or((void **)&goldi_real_slot_##name, #name, (void *)(fb)))

/* --- fallbacks: byte loops, only used during symbol resolution ---------- */
static void *fb_memmove(void *d, const void *s, size_t n) {
    unsigned char *dd = d;
    const unsigned char *ss = s;
    if (dd < ss)
        for (size_t i = 0; i < n; i++)
            dd[i] = ss[i];
    else
        for (size_t i = n; i-- > 0;)
            dd[i] = ss[i];
    return d;
}
static void *fb_mempcpy(void *d, const void *s, size_t n) {
    return (char *)fb_memmove(d, s, n) + n;
}
static void *fb_memset(void *d, int c, size_t n) {
    unsigned char *dd = d;
    for (size_t i = 0; i < n; i++)
        dd[i] = (unsigned char)c;
    return d;
}
static void fb_explicit_bzero(void *d, size_t n) {
    fb_memset(d, 0, n);
    __asm__ volatile("" ::"r"(d) : "memory");
}
static int fb_memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}
static void *fb_memchr(const void *s, int c, size_t n) {
    const unsigned char *x = s;
    for (size_t i = 0; i < n; i++)
        if (x[i] == (unsigned char)c)
            return (void *)(x + i);
    return NULL;
}
static size_t fb_strlen(const char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}
static size_t fb_strnlen(const char *s, size_t m) {
    size_t n = 0;
    while (n < m && s[n])
        n++;
    return n;
}
static char *fb_strcpy(char *d, const char *s) {
    fb_memmove(d, s, fb_strlen(s) + 1);
    return d;
}
static char *fb_stpcpy(char *d, const char *s) {
    size_t n = fb_strlen(s);
    fb_memmove(d, s, n + 1);
    return d + n;
}
static char *fb_strncpy(char *d, const char *s, size_t m) {
    size_t n = fb_strnlen(s, m);
    fb_memmove(d, s, n);
    fb_memset(d + n, 0, m - n);
    return d;
}
static char *fb_strcat(char *d, const char *s) {
    fb_strcpy(d + fb_strlen(d), s);
    return d;
}
static char *fb_strncat(char *d, const char *s, size_t m) {
    char *e = d + fb_strlen(d);
    size_t n = fb_strnlen(s, m);
    fb_memmove(e, s, n);
    e[n] = 0;
    return d;
}
static int fb_strncmp(const char *a, const char *b, size_t m) {
    for (size_t i = 0; i < m; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y)
            return x < y ? -1 : 1;
        if (!x)
            return 0;
    }
    return 0;
}
static int fb_strcmp(const char *a, const char *b) {
    return fb_strncmp(a, b, SIZE_MAX);
}
static char *fb_strchr(const char *s, int c) {
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}
static char *fb_strrchr(const char *s, int c) {
    const char *r = NULL;
    for (;; s++) {
        if (*s == (char)c)
            r = s;
        if (!*s)
            return (char *)r;
    }
}
static char *fb_strstr(const char *h, const char *n) {
    size_t nl = fb_strlen(n);
    for (; *h; h++)
        if (fb_strncmp(h, n, nl) == 0)
            return (char *)h;
    return nl ? NULL : (char *)h;
}

/* --- helpers --------------------------------------------------------------- */
/* The thread to emit access events for, or NULL. */
static inline struct goldi_rt_thread *acc_thread(void) {
    struct goldi_rt_thread *t = goldi_icpt_thread();
    return (t && !t->ignore) ? t : NULL;
}
static inline size_t slen(const char *s) {
    return REAL_OR(strlen, fb_strlen)(s);
}
static inline size_t snlen(const char *s, size_t m) {
    return REAL_OR(strnlen, fb_strnlen)(s, m);
}
static inline void rd(struct goldi_rt_thread *t, const void *p, size_t n, uintptr_t pc) {
    goldi_icpt_emit_range(t, GOLDI_EV_READ, (uintptr_t)p, n, pc);
}
static inline void wr(struct goldi_rt_thread *t, const void *p, size_t n, uintptr_t pc) {
    goldi_icpt_emit_range(t, GOLDI_EV_WRITE, (uintptr_t)p, n, pc);
}
/* Bytes strncmp/strcmp look at: up to the first difference or terminator. */
static size_t cmp_extent(const char *a, const char *b, size_t m) {
    size_t i = 0;
    while (i < m && a[i] == b[i] && a[i])
        i++;
    return i < m ? i + 1 : m;
}

/* --- memory ----------------------------------------------------------------- */
GOLDI_EXPORT void *memcpy(void *restrict d, const void *restrict s, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        rd(t, s, n, pc);
        wr(t, d, n, pc);
    }
    /* memcpy with overlap is undefined; memmove is a safe stand-in. */
    return REAL_OR(memcpy, fb_memmove)(d, s, n);
}

GOLDI_EXPORT void *memmove(void *d, const void *s, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        rd(t, s, n, pc);
        wr(t, d, n, pc);
    }
    return REAL_OR(memmove, fb_memmove)(d, s, n);
}

GOLDI_EXPORT void *mempcpy(void *restrict d, const void *restrict s, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        rd(t, s, n, pc);
        wr(t, d, n, pc);
    }
    return REAL_OR(mempcpy, fb_mempcpy)(d, s, n);
}

GOLDI_EXPORT void bcopy(const void *s, void *d, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        rd(t, s, n, pc);
        wr(t, d, n, pc);
    }
    REAL_OR(memmove, fb_memmove)(d, s, n);
}

GOLDI_EXPORT void *memset(void *d, int c, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t)
        wr(t, d, n, pc);
    return REAL_OR(memset, fb_memset)(d, c, n);
}

GOLDI_EXPORT void bzero(void *d, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t)
        wr(t, d, n, pc);
    REAL_OR(memset, fb_memset)(d, 0, n);
}

GOLDI_EXPORT void explicit_bzero(void *d, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t)
        wr(t, d, n, pc);
    REAL_OR(explicit_bzero, fb_explicit_bzero)(d, n);
}

GOLDI_EXPORT int memcmp(const void *a, const void *b, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    int r = REAL_OR(memcmp, fb_memcmp)(a, b, n);
    if (t) {
        /* Only the bytes up to the first difference are needed (not the
         * "strict" all-n rule: that would report races the program cannot
         * have). */
        size_t k = n;
        if (r != 0) {
            const unsigned char *x = a, *y = b;
            k = 0;
            while (x[k] == y[k])
                k++;
            k++;
        }
        rd(t, a, k, pc);
        rd(t, b, k, pc);
    }
    return r;
}

GOLDI_EXPORT void *memchr(const void *s, int c, size_t n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    void *r = REAL_OR(memchr, fb_memchr)(s, c, n);
    if (t)
        rd(t, s, r ? (size_t)((const char *)r - (const char *)s) + 1 : n, pc);
    return r;
}

/* --- strings ----------------------------------------------------------------- */
GOLDI_EXPORT size_t strlen(const char *s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    size_t n = slen(s);
    if (t)
        rd(t, s, n + 1, pc);
    return n;
}

GOLDI_EXPORT size_t strnlen(const char *s, size_t m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    size_t n = snlen(s, m);
    if (t)
        rd(t, s, n < m ? n + 1 : m, pc);
    return n;
}

GOLDI_EXPORT char *strcpy(char *restrict d, const char *restrict s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t n = slen(s) + 1;
        rd(t, s, n, pc);
        wr(t, d, n, pc);
    }
    return REAL_OR(strcpy, fb_strcpy)(d, s);
}

GOLDI_EXPORT char *stpcpy(char *restrict d, const char *restrict s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t n = slen(s) + 1;
        rd(t, s, n, pc);
        wr(t, d, n, pc);
    }
    return REAL_OR(stpcpy, fb_stpcpy)(d, s);
}

GOLDI_EXPORT char *strncpy(char *restrict d, const char *restrict s, size_t m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t n = snlen(s, m);
        rd(t, s, n < m ? n + 1 : m, pc);
        wr(t, d, m, pc);   /* strncpy pads the rest with zeros */
    }
    return REAL_OR(strncpy, fb_strncpy)(d, s, m);
}

GOLDI_EXPORT char *strcat(char *restrict d, const char *restrict s) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t dl = slen(d), sl = slen(s);
        rd(t, d, dl + 1, pc);
        rd(t, s, sl + 1, pc);
        wr(t, d + dl, sl + 1, pc);
    }
    return REAL_OR(strcat, fb_strcat)(d, s);
}

GOLDI_EXPORT char *strncat(char *restrict d, const char *restrict s, size_t m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t dl = slen(d), sl = snlen(s, m);
        rd(t, d, dl + 1, pc);
        rd(t, s, sl < m ? sl + 1 : m, pc);
        wr(t, d + dl, sl + 1, pc);
    }
    return REAL_OR(strncat, fb_strncat)(d, s, m);
}

GOLDI_EXPORT int strcmp(const char *a, const char *b) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t k = cmp_extent(a, b, SIZE_MAX);
        rd(t, a, k, pc);
        rd(t, b, k, pc);
    }
    return REAL_OR(strcmp, fb_strcmp)(a, b);
}

GOLDI_EXPORT int strncmp(const char *a, const char *b, size_t m) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t) {
        size_t k = cmp_extent(a, b, m);
        rd(t, a, k, pc);
        rd(t, b, k, pc);
    }
    return REAL_OR(strncmp, fb_strncmp)(a, b, m);
}

GOLDI_EXPORT char *strchr(const char *s, int c) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    char *r = REAL_OR(strchr, fb_strchr)(s, c);
    if (t)
        rd(t, s, r ? (size_t)(r - s) + 1 : slen(s) + 1, pc);
    return r;
}

GOLDI_EXPORT char *strrchr(const char *s, int c) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    if (t)
        rd(t, s, slen(s) + 1, pc);
    return REAL_OR(strrchr, fb_strrchr)(s, c);
}

GOLDI_EXPORT char *strstr(const char *h, const char *n) {
    uintptr_t pc = GOLDI_CALLER_PC();
    struct goldi_rt_thread *t = acc_thread();
    char *r = REAL_OR(strstr, fb_strstr)(h, n);
    if (t) {
        size_t nl = slen(n);
        rd(t, n, nl + 1, pc);
        rd(t, h, r ? (size_t)(r - h) + nl : slen(h) + 1, pc);
    }
    return r;
}

/* C++ operator new/delete in all their forms, defined as C functions with the
 * Itanium-mangled names, mapped onto the malloc-family paths (so the ALLOC
 * and FREE events carry the call site of the new/delete expression).
 * Failure semantics: when the allocation fails, the real libstdc++ operator
 * is called instead (it runs the new_handler loop and throws std::bad_alloc,
 * or returns NULL for nothrow); its internal malloc call comes back through
 * our malloc, so the block is still registered. */
#define _GNU_SOURCE
#include "intercept.h"

#include "../../base/fmt.h"

void *goldi_icpt_malloc(size_t n, uintptr_t pc);
void *goldi_icpt_memalign(size_t al, size_t n, uintptr_t pc);
void goldi_icpt_free(void *p, uintptr_t pc);

typedef void *(*new_fn)(size_t);
typedef void *(*new_al_fn)(size_t, size_t);
typedef void *(*new_nt_fn)(size_t, const void *);
typedef void *(*new_al_nt_fn)(size_t, size_t, const void *);

static void *real_new(const char *name) {
    void *f = goldi_real_lookup(name, NULL);
    if (!f)
        goldi_die("out of memory in operator new and no libstdc++ to throw std::bad_alloc");
    return f;
}

/* new(size) / new[](size) */
#define NEW(mangled)                                                                \
    GOLDI_EXPORT void *mangled(size_t n) {                                          \
        void *p = goldi_icpt_malloc(n, GOLDI_CALLER_PC());                          \
        return p ? p : ((new_fn)real_new(#mangled))(n);                             \
    }
/* new(size, align_val_t) */
#define NEW_AL(mangled)                                                             \
    GOLDI_EXPORT void *mangled(size_t n, size_t al) {                               \
        void *p = goldi_icpt_memalign(al, n, GOLDI_CALLER_PC());                    \
        return p ? p : ((new_al_fn)real_new(#mangled))(n, al);                      \
    }
/* new(size, nothrow_t const&) */
#define NEW_NT(mangled)                                                             \
    GOLDI_EXPORT void *mangled(size_t n, const void *nt) {                          \
        void *p = goldi_icpt_malloc(n, GOLDI_CALLER_PC());                          \
        return p ? p : ((new_nt_fn)real_new(#mangled))(n, nt);                      \
    }
/* new(size, align_val_t, nothrow_t const&) */
#define NEW_AL_NT(mangled)                                                          \
    GOLDI_EXPORT void *mangled(size_t n, size_t al, const void *nt) {               \
        void *p = goldi_icpt_memalign(al, n, GOLDI_CALLER_PC());                    \
        return p ? p : ((new_al_nt_fn)real_new(#mangled))(n, al, nt);               \
    }

NEW(_Znwm)
NEW(_Znam)
NEW_AL(_ZnwmSt11align_val_t)
NEW_AL(_ZnamSt11align_val_t)
NEW_NT(_ZnwmRKSt9nothrow_t)
NEW_NT(_ZnamRKSt9nothrow_t)
NEW_AL_NT(_ZnwmSt11align_val_tRKSt9nothrow_t)
NEW_AL_NT(_ZnamSt11align_val_tRKSt9nothrow_t)

/* Every delete form frees; sizes and alignments are not needed (the
 * registry knows the block). */
#define DELETE(mangled, ...)                                                        \
    GOLDI_EXPORT void mangled(void *p, ##__VA_ARGS__) {                             \
        goldi_icpt_free(p, GOLDI_CALLER_PC());                                      \
    }

DELETE(_ZdlPv)
DELETE(_ZdaPv)
DELETE(_ZdlPvm, size_t n)
DELETE(_ZdaPvm, size_t n)
DELETE(_ZdlPvSt11align_val_t, size_t al)
DELETE(_ZdaPvSt11align_val_t, size_t al)
DELETE(_ZdlPvmSt11align_val_t, size_t n, size_t al)
DELETE(_ZdaPvmSt11align_val_t, size_t n, size_t al)
DELETE(_ZdlPvRKSt9nothrow_t, const void *nt)
DELETE(_ZdaPvRKSt9nothrow_t, const void *nt)
DELETE(_ZdlPvSt11align_val_tRKSt9nothrow_t, size_t al, const void *nt)
DELETE(_ZdaPvSt11align_val_tRKSt9nothrow_t, size_t al, const void *nt)

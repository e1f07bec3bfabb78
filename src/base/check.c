/* Failure paths of GOLDI_CHECK and goldi_die: raw writes, never allocate. */
#include "base.h"
#include "fmt.h"
#include "spinlock.h"
#include "../platform/platform.h"

void goldi_check_failed(const char *file, int line, const char *cond, uint64_t v1, uint64_t v2) {
    goldi_fdprintf(2, "goldi: CHECK failed: %s:%d \"%s\" (0x%llx, 0x%llx)\n", file, line, cond,
                   (unsigned long long)v1, (unsigned long long)v2);
    goldi_os_abort();
}

void goldi_die(const char *msg) {
    goldi_fdprintf(2, "goldi: fatal: %s\n", msg);
    goldi_os_abort();
}

void goldi_spin_wait_slow(goldi_spinlock_t *l, unsigned rounds) {
    for (unsigned spins = 0;;) {
        while (atomic_load_explicit(&l->v, memory_order_relaxed))
            goldi_spin_backoff_after(&spins, rounds);
        if (goldi_spin_trylock(l))
            return;
    }
}

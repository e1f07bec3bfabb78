/* The only contract with the OS. Every syscall the runtime makes goes through
 * here (Linux x86-64/aarch64 implementation in platform_linux.c). */
#ifndef GOLDI_PLATFORM_H
#define GOLDI_PLATFORM_H

#include "../base/base.h"

/* Anonymous private zeroed mapping; NULL on failure. noreserve: do not
 * account the memory (used for sparse shadow tables). */
void *goldi_os_mmap(size_t n, bool noreserve);
void goldi_os_munmap(void *p, size_t n);
/* Grows the mapping [p, p+old_n) to new_n bytes (both page multiples),
 * moving it if it must (mremap(2), MREMAP_MAYMOVE): its pages go with it,
 * without a copy or a fault, and the new tail reads as zeros. NULL on
 * failure (the old mapping is then untouched). */
void *goldi_os_mremap(void *p, size_t old_n, size_t new_n);
/* Gives pages back to the OS; their contents read as zero afterwards. */
void goldi_os_discard(void *p, size_t n);
/* Commits the pages of [p, p+n) for writing now (MADV_POPULATE_WRITE);
 * false where the kernel lacks it (before Linux 5.14) or refuses. */
bool goldi_os_populate(void *p, size_t n);
/* mincore(2): vec[i] & 1 says whether page i of [p, p+n) (p page-aligned)
 * is in memory; false on failure. */
bool goldi_os_resident(void *p, size_t n, unsigned char *vec);
/* Whether the system has swap space now (sysinfo(2)); true if unknown. */
bool goldi_os_has_swap(void);
long goldi_os_write(int fd, const void *buf, size_t n);
/* open(2) for appending/creating a log file; returns fd or -errno. */
int goldi_os_open_log(const char *path);
/* open(2) creating or truncating a file for writing (trace_out); fd or -errno. */
int goldi_os_create(const char *path);
void goldi_os_close(int fd);
int goldi_os_getpid(void);
int goldi_os_gettid(void);
void goldi_os_yield(void);
/* Process-wide memory barrier (membarrier(2), private expedited): when it
 * returns, every thread of the process has run a full barrier. Register
 * once first; both return false where the kernel refuses. */
bool goldi_os_membarrier_register(void);
bool goldi_os_membarrier(void);
/* Blocks every signal of the calling thread (the raw syscall: libc's
 * sigprocmask is intercepted) and returns the mask it had, for
 * goldi_os_unblock_signals. */
uint64_t goldi_os_block_signals(void);
void goldi_os_unblock_signals(uint64_t old);
GOLDI_NORETURN void goldi_os_abort(void);
GOLDI_NORETURN void goldi_os_exit(int code);
/* getenv without libc's locks; valid before libc initialisation finishes. */
const char *goldi_os_getenv(const char *name);
/* Monotonic nanoseconds. */
uint64_t goldi_os_now_ns(void);
/* Full path of the running executable into buf; length or -1. */
long goldi_os_exe_path(char *buf, size_t n);

#endif

/* Linux implementation of platform.h: raw syscalls, no stdio, no malloc. */
#define _GNU_SOURCE
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void *goldi_os_mmap(size_t n, bool noreserve) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | (noreserve ? MAP_NORESERVE : 0);
    void *p = (void *)syscall(SYS_mmap, NULL, n, PROT_READ | PROT_WRITE, flags, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void goldi_os_munmap(void *p, size_t n) { syscall(SYS_munmap, p, n); }

void *goldi_os_mremap(void *p, size_t old_n, size_t new_n) {
    void *q = (void *)syscall(SYS_mremap, p, old_n, new_n, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
}

/* The kernel's sigset is 64 bits on x86-64 (its size is the last argument). */
uint64_t goldi_os_block_signals(void) {
    uint64_t all = ~UINT64_C(0), old = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, sizeof all);
    return old;
}
void goldi_os_unblock_signals(uint64_t old) { syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof old); }

void goldi_os_discard(void *p, size_t n) { syscall(SYS_madvise, p, n, MADV_DONTNEED); }
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
bool goldi_os_populate(void *p, size_t n) { return syscall(SYS_madvise, p, n, MADV_POPULATE_WRITE) == 0; }
bool goldi_os_resident(void *p, size_t n, unsigned char *vec) { return syscall(SYS_mincore, p, n, vec) == 0; }
bool goldi_os_has_swap(void) {
    struct sysinfo si;
    return syscall(SYS_sysinfo, &si) != 0 || si.totalswap != 0;
}

long goldi_os_write(int fd, const void *buf, size_t n) {
    const char *b = buf;
    size_t done = 0;
    while (done < n) {
        long r = syscall(SYS_write, fd, b + done, n - done);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)r;
    }
    return (long)done;
}

int goldi_os_open_log(const char *path) {
    long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    return fd < 0 ? -errno : (int)fd;
}

int goldi_os_create(const char *path) {
    long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    return fd < 0 ? -errno : (int)fd;
}

void goldi_os_close(int fd) { syscall(SYS_close, fd); }
int goldi_os_getpid(void) { return (int)syscall(SYS_getpid); }
int goldi_os_gettid(void) { return (int)syscall(SYS_gettid); }
void goldi_os_yield(void) { syscall(SYS_sched_yield); }
bool goldi_os_membarrier_register(void) {
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}
bool goldi_os_membarrier(void) { return syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0; }

void goldi_os_abort(void) {
    syscall(SYS_kill, syscall(SYS_getpid), SIGABRT);
    syscall(SYS_exit_group, 134);
    __builtin_unreachable();
}

void goldi_os_exit(int code) {
    syscall(SYS_exit_group, code);
    __builtin_unreachable();
}

const char *goldi_os_getenv(const char *name) {
    if (!environ)
        return NULL;
    for (char **e = environ; *e; e++) {
        const char *a = *e, *b = name;
        while (*b && *a == *b)
            a++, b++;
        if (!*b && *a == '=')
            return a + 1;
    }
    return NULL;
}

uint64_t goldi_os_now_ns(void) {
    struct timespec ts;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

long goldi_os_exe_path(char *buf, size_t n) {
    long r = syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", buf, n - 1);
    if (r < 0)
        return -1;
    buf[r] = 0;
    return r;
}

/* System V shared memory interceptors: shmat and shmdt start and end
 * lifetimes, as mmap and munmap do (mapping.h). A segment detached by one
 * thread and another attached at the same address by another thread is new
 * memory: without these, the first attachment's history stayed in the shadow
 * and its accesses were reported against the second's (a false race).
 *
 *   shmat:  after it succeeds, ALLOC of the attached range (SHM_REMAP may
 *           replace an old mapping there, as MAP_FIXED does);
 *   shmdt:  before the real call, FREE of the attached range (a write of all
 *           of it: another thread's access to the segment not ordered before
 *           the detach is reported, as for munmap).
 *
 * shmdt takes no size, so shmat keeps each attachment's size in a small
 * table. An address the table does not hold (attached before the runtime was
 * up, by a thread inside it, with the raw system call, or when the table was
 * full) is looked up in /proc/self/maps. Both sizes come from the kernel by
 * raw system calls: the runtime calls no libc function that an interceptor
 * (ours or another tool's) may wrap. Before the runtime is up, and on a
 * thread inside it, both pass straight through. */
#define _GNU_SOURCE
#include "mapping.h"
#include "../../base/atfork.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

GOLDI_REAL_SLOT(shmat);
GOLDI_REAL_SLOT(shmdt);

/* --- attachments: address -> size, filled by shmat ------------------------
 * Fixed and small: no allocation in an interceptor, and programs attach a
 * few segments (Linux allows 4096 in the whole system by default). One lock:
 * shmat and shmdt are rare, and it is a leaf (nothing is taken under it, it
 * is held across no event). */
#define ATTACHMENTS_MAX 256

struct attachment {
    uintptr_t addr;
    size_t size;   /* 0: a free slot */
};
static struct attachment attachments[ATTACHMENTS_MAX];
static goldi_spinlock_t attachments_lock = GOLDI_SPINLOCK_INIT;
static _Atomic unsigned attachments_live;   /* slots in use (changed under the lock) */

static void attachments_lock_all(void) { goldi_spin_lock(&attachments_lock); }
static void attachments_unlock_all(void) { goldi_spin_unlock(&attachments_lock); }

/* A fork child must not inherit the lock held by a thread it does not have. */
__attribute__((constructor(102))) static void attachments_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ALLOC - 1, attachments_lock_all, attachments_unlock_all,
                          attachments_unlock_all);
}

/* [addr, end) holds no attachment any more (another mapping replaced it,
 * or it was unmapped): an attachment it overlaps keeps only its part below
 * addr, since a detach of an address inside the range fails and the range
 * is not the old attachment's to end. Caller holds the lock. */
static void attachments_trim_locked(uintptr_t addr, uintptr_t end) {
    for (size_t i = 0; i < ATTACHMENTS_MAX; i++) {
        struct attachment *a = &attachments[i];
        if (!a->size || a->addr >= end || addr >= a->addr + a->size)
            continue;
        a->size = a->addr < addr ? addr - a->addr : 0;
        if (!a->size)
            atomic_fetch_sub_explicit(&attachments_live, 1, memory_order_relaxed);
    }
}

/* [addr, addr+size) was just attached (over any older attachment there:
 * SHM_REMAP). Not recorded when the table is full (shmdt then reads
 * /proc/self/maps). */
static void attachment_add(uintptr_t addr, size_t size) {
    goldi_spin_lock(&attachments_lock);
    attachments_trim_locked(addr, addr + size);
    for (size_t i = 0; i < ATTACHMENTS_MAX; i++) {
        if (!attachments[i].size) {
            attachments[i] = (struct attachment){ addr, size };
            atomic_fetch_add_explicit(&attachments_live, 1, memory_order_relaxed);
            break;
        }
    }
    goldi_spin_unlock(&attachments_lock);
}

/* A program may end an attachment with munmap (or map over it, or move it
 * with mremap) instead of shmdt. Its entry must go: a later shmdt of that
 * address, refused by the kernel, would otherwise end the lifetime of
 * whatever memory is there now (a write of all of it, racing with its
 * users), and a program that attaches and unmaps over and over would fill
 * the table. Free while the program has no attachment. */
void goldi_icpt_attachments_forget(uintptr_t addr, size_t n) {
    if (!n || !atomic_load_explicit(&attachments_live, memory_order_relaxed))
        return;
    goldi_spin_lock(&attachments_lock);
    attachments_trim_locked(addr, addr + n);
    goldi_spin_unlock(&attachments_lock);
}

/* The size of the attachment at addr, which leaves the table; 0 if the table
 * does not hold it. Taken before the detach: once it is done, another thread
 * may attach at addr and record its own size there. */
static size_t attachment_take(uintptr_t addr) {
    size_t size = 0;
    goldi_spin_lock(&attachments_lock);
    for (size_t i = 0; i < ATTACHMENTS_MAX; i++) {
        struct attachment *a = &attachments[i];
        if (a->size && a->addr == addr) {
            size = a->size;
            a->size = 0;
            atomic_fetch_sub_explicit(&attachments_live, 1, memory_order_relaxed);
            break;
        }
    }
    goldi_spin_unlock(&attachments_lock);
    return size;
}

/* --- sizes from the kernel ------------------------------------------------ */

/* The size of segment id (IPC_STAT), 0 if the kernel does not say. On x86-64
 * the kernel's struct (shmid64_ds) is glibc's struct shmid_ds. */
static size_t segment_size(int id) {
    struct shmid_ds ds;
    return syscall(SYS_shmctl, id, IPC_STAT, &ds) == 0 ? ds.shm_segsz : 0;
}

/* The fields of a /proc/self/maps line that tell a segment's mapping:
 * "start-end perms offset major:minor inode   path". */
struct maps_line {
    uint64_t start, end, offset, major, minor, inode;
    bool sysv;   /* the path is a System V segment's ("/SYSV<key> (deleted)") */
};

static const char *parse_number(const char *s, unsigned base, uint64_t *v) {
    *v = 0;
    for (;; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else
            return s;
        *v = *v * base + d;
    }
}

static const char *skip_spaces(const char *s) {
    while (*s == ' ')
        s++;
    return s;
}

/* False if s (a line, cut at the end of its buffer) is not a maps line. */
static bool parse_maps_line(const char *s, struct maps_line *l) {
    s = parse_number(s, 16, &l->start);
    if (*s != '-')
        return false;
    s = parse_number(s + 1, 16, &l->end);
    if (*s != ' ')
        return false;
    s++;
    while (*s && *s != ' ')   /* the permissions */
        s++;
    s = parse_number(skip_spaces(s), 16, &l->offset);
    s = parse_number(skip_spaces(s), 16, &l->major);
    if (*s != ':')
        return false;
    s = parse_number(s + 1, 16, &l->minor);
    s = parse_number(skip_spaces(s), 10, &l->inode);
    s = skip_spaces(s);
    l->sysv = s[0] == '/' && s[1] == 'S' && s[2] == 'Y' && s[3] == 'S' && s[4] == 'V';
    return l->end > l->start;
}

/* The attachment being looked for, line by line. */
struct maps_search {
    uintptr_t addr;
    size_t size;                   /* 0 until found */
    uint64_t major, minor, inode;  /* its segment's file, once found */
};

/* Takes the next line into the search; false once no later line can matter
 * (the lines are sorted by address). The attachment is the segment's
 * mapping at offset 0 that starts at addr, usually one line, and the lines
 * that continue it (an mprotect of part of it splits it in several). */
static bool maps_search_line(struct maps_search *m, const struct maps_line *l) {
    if (!m->size) {
        if (l->start < m->addr)
            return true;
        if (l->start == m->addr && l->sysv && l->offset == 0) {
            m->size = (size_t)(l->end - l->start);
            m->major = l->major;
            m->minor = l->minor;
            m->inode = l->inode;
            return true;
        }
        return false;
    }
    bool continues = l->start == m->addr + m->size && l->offset == m->size && l->inode == m->inode &&
                     l->major == m->major && l->minor == m->minor;
    if (continues)
        m->size += (size_t)(l->end - l->start);
    return continues;
}

/* The size of the System V attachment that starts at addr, from
 * /proc/self/maps; 0 if there is none. Bounded stack buffers only: a line
 * longer than its buffer (a long path) is cut, the fields come first. */
static size_t attached_size_from_maps(uintptr_t addr) {
    int saved_errno = errno;
    long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        errno = saved_errno;
        return 0;
    }
    struct maps_search m = { .addr = addr };
    char chunk[512], line[160];
    size_t line_len = 0;
    bool searching = true;
    while (searching) {
        long n = syscall(SYS_read, fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (long i = 0; i < n && searching; i++) {
            if (chunk[i] != '\n') {
                if (line_len < sizeof line - 1)
                    line[line_len++] = chunk[i];
                continue;
            }
            line[line_len] = '\0';
            line_len = 0;
            struct maps_line l;
            searching = !parse_maps_line(line, &l) || maps_search_line(&m, &l);
        }
    }
    goldi_os_close((int)fd);
    errno = saved_errno;
    return m.size;
}

/* --- interceptors --------------------------------------------------------- */

GOLDI_EXPORT void *shmat(int id, const void *addr, int flags) {
    uintptr_t pc = GOLDI_CALLER_PC();
    void *p = GOLDI_REAL(shmat)(id, addr, flags);
    struct goldi_rt_thread *t;
    if (p == (void *)-1 || !(t = goldi_icpt_map_thread()))
        return p;
    uintptr_t a = (uintptr_t)p;
    int saved_errno = errno;
    size_t n = goldi_icpt_page_span(a, segment_size(id));
    if (!n)
        n = attached_size_from_maps(a);
    errno = saved_errno;
    if (n) {
        attachment_add(a, n);
        goldi_icpt_mapped(t, a, n, pc);
    }
    return p;
}

GOLDI_EXPORT int shmdt(const void *addr) {
    /* Before the call: once the segment is detached another thread may map
     * the range and use it, and its history must not be the one cleared. */
    struct goldi_rt_thread *t = goldi_icpt_map_thread();
    if (t) {
        uintptr_t a = (uintptr_t)addr;
        size_t n = attachment_take(a);
        if (!n)
            n = attached_size_from_maps(a);
        goldi_icpt_unmapping(t, a, n, GOLDI_CALLER_PC());
    }
    return GOLDI_REAL(shmdt)(addr);
}
